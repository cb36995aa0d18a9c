"""``SummaryRecord``: TensorBoard event files (through tensorboardX).

MindSpore writes its own summary format for MindInsight; MindJAX writes
TensorBoard event files, which ``tensorboard --logdir`` reads. Values are
buffered with :meth:`SummaryRecord.add_value` and written by
:meth:`SummaryRecord.record`, as in MindSpore.

Example:
    >>> with SummaryRecord("./summary") as record:                 # doctest: +SKIP
    ...     record.add_value("scalar", "loss", loss)
    ...     record.record(step)
"""
from __future__ import annotations

import os
from typing import Any

import numpy as np

from mindjax.ops.function.debug_func import take_summaries

__all__ = ["SummaryRecord"]

_PLUGINS = ("scalar", "histogram", "image", "tensor", "text")


class SummaryRecord:
    """A writer of TensorBoard event files.

    Arguments:
        log_dir: the folder of the event files (created when missing).
        file_prefix, file_suffix: parts of the event file name.
        network, num_process, max_file_size, raise_exception, export_options:
            accepted for MindSpore compatibility.
    """

    def __init__(self, log_dir: str, file_prefix: str = "events", file_suffix: str = "_MS",
                 num_process: int = 32, network: Any = None, max_file_size: int | None = None,
                 raise_exception: bool = False, export_options: Any = None) -> None:
        if not isinstance(log_dir, str) or not log_dir:
            raise ValueError(f"For 'SummaryRecord', 'log_dir' must be a non-empty str, got {log_dir!r}")
        try:
            from tensorboardX import SummaryWriter
        except ImportError as err:  # pragma: no cover - a declared dependency
            raise ImportError("For 'SummaryRecord', the 'tensorboardX' package is needed: "
                              "pip install tensorboardX") from err
        os.makedirs(log_dir, exist_ok=True)
        self.log_dir = log_dir
        self._writer = SummaryWriter(logdir=log_dir, filename_suffix=file_suffix)
        self._pending: list[tuple[str, str, Any]] = []
        self._closed = False
        take_summaries()  # as MindSpore: values the summary ops kept before this record began are dropped

    @property
    def event_file_name(self) -> str:
        """The path of the event file being written."""
        return self._writer.file_writer.event_writer._ev_writer._file_name

    def add_value(self, plugin: str, name: str, value: Any) -> None:
        """Buffer one value for the next :meth:`record`.

        Arguments:
            plugin: ``'scalar'``, ``'histogram'``, ``'image'`` (NCHW or CHW),
                ``'tensor'`` (written as a histogram) or ``'text'``.
            name: the tag.
            value: the Tensor, array, number or string.
        """
        if plugin not in _PLUGINS:
            raise ValueError(f"For 'SummaryRecord.add_value', 'plugin' must be one of {list(_PLUGINS)}, "
                             f"got {plugin!r}")
        if not isinstance(name, str) or not name:
            raise ValueError(f"For 'SummaryRecord.add_value', 'name' must be a non-empty str, got {name!r}")
        self._pending.append((plugin, name, value))

    def record(self, step: int, train_network: Any = None, plugin_filter: Any = None) -> bool:
        """Write the buffered values at ``step``, with those the summary Primitives (``ScalarSummary``,
        ``ImageSummary``, ``TensorSummary``, ``HistogramSummary``) recorded since the last record."""
        if not isinstance(step, int) or isinstance(step, bool):
            raise ValueError(f"For 'SummaryRecord.record', 'step' must be an int, got {step!r}")
        if self._closed:
            raise RuntimeError("For 'SummaryRecord.record', the record is closed")
        self._pending.extend(take_summaries())
        for plugin, name, value in self._pending:
            if plugin_filter is not None and not plugin_filter(plugin):
                continue
            self._write(plugin, name, value, step)
        self._pending = []
        return True

    def _write(self, plugin: str, name: str, value: Any, step: int) -> None:
        w = self._writer
        if plugin == "scalar":
            w.add_scalar(name, float(np.asarray(value, dtype=np.float64).reshape(-1)[0]), step)
        elif plugin in ("histogram", "tensor"):
            w.add_histogram(name, np.asarray(value, dtype=np.float64), step)
        elif plugin == "image":
            img = np.asarray(value, dtype=np.float32)
            w.add_images(name, img, step, dataformats="NCHW") if img.ndim == 4 else w.add_image(name, img, step)
        else:
            w.add_text(name, str(value), step)

    def flush(self) -> None:
        """Write buffered events to disk."""
        self._writer.flush()

    def close(self) -> None:
        """Flush and close the file."""
        if not self._closed:
            self._writer.close()
            self._closed = True

    def __enter__(self) -> "SummaryRecord":
        return self

    def __exit__(self, *err: Any) -> None:
        self.close()
