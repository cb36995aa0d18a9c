"""Iterators over a pipeline: rows for Python loops, device batches for training loops.

Both read one grain iterator that spans every epoch, so worker processes
and prefetch buffers live across epoch boundaries, and both save their
position as a JSON-compatible dict (``get_state``) that ``set_state``
restores exactly: the next row after a restore is the one that would have
come next.
"""
from __future__ import annotations

import json
from typing import Any, Sequence

import grain
import numpy as np

from mindjax.dataset import config
from mindjax.dataset._grain import EPOCH_END, StackIterDataset
from mindjax.dataset.rows import Row, as_column_list

__all__ = ["TupleIterator", "DeviceIterator"]

_STATE_VERSION = 1


def _plain(value: Any) -> Any:
    """Numpy scalars and tuples in a grain state as JSON types."""
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, np.integer):
        return int(value)
    if isinstance(value, np.floating):
        return float(value)
    if isinstance(value, np.bool_):
        return bool(value)
    return value


def _column_indices(dataset: Any, columns: Any, who: str) -> list[int] | None:
    names = as_column_list(columns, who, "columns")
    if names is None:
        return None
    existing = dataset.get_col_names()
    for name in names:
        if name not in existing:
            raise ValueError(f"For '{who}', column '{name}' is not in the dataset's columns {existing}")
    return [existing.index(n) for n in names]


def _to_output(x: Any, output_numpy: bool) -> Any:
    """A column value as the iterator hands it out, as MindSpore 2.10 does.

    Numeric arrays become ``Tensor``s (numpy arrays with ``output_numpy``),
    keeping their dtype; string and bytes arrays stay numpy arrays. Python
    objects (a ``dict`` column, a batch of them) keep their structure, with
    each number, string and array inside converted the same way.
    """
    if isinstance(x, np.ndarray):
        if output_numpy or x.dtype.kind not in "biufc":
            return x
        from mindjax.common.tensor import Tensor

        return Tensor(x)
    if isinstance(x, dict):
        return {k: _to_output(v, output_numpy) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return type(x)(_to_output(v, output_numpy) for v in x)
    if isinstance(x, (bool, int, float, str, bytes, np.generic)):
        return _to_output(np.asarray(x), output_numpy)
    return x


class TupleIterator:
    """Rows of a dataset, epoch by epoch (made by ``create_tuple_iterator``/``create_dict_iterator``).

    Each ``for`` loop runs one epoch. Rows are lists of arrays (dicts when
    ``as_dict``), jax arrays unless ``output_numpy``.

    Arguments:
        dataset: the pipeline.
        columns: the columns to return, or ``None`` for all.
        num_epochs: epochs to run (-1: no limit).
        output_numpy: return numpy arrays.
        as_dict: return dicts keyed by column name.
    """

    def __init__(self, dataset: Any, columns: Any, num_epochs: int, output_numpy: bool, as_dict: bool) -> None:
        who = "create_dict_iterator" if as_dict else "create_tuple_iterator"
        self._dataset = dataset
        self._select = _column_indices(dataset, columns, who)
        names = dataset.get_col_names()
        self._names = names if self._select is None else [names[i] for i in self._select]
        self._num_epochs = -1 if num_epochs in (None, -1) else int(num_epochs)
        self._output_numpy = bool(output_numpy)
        self._as_dict = bool(as_dict)
        self._stream, self._epoch_length = dataset._grain_stream(self._num_epochs, mark_epochs=True)
        self._it: grain.DatasetIterator | None = iter(self._stream)
        self._epoch = 0
        # After set_init_step the first epoch is entered part-way; its length still ends it.
        self._in_epoch = dataset._init_position()[1] if self._epoch_length is not None else 0
        self._done = False

    def __iter__(self) -> "TupleIterator":
        return self

    def _end_epoch(self) -> None:
        self._epoch += 1
        self._in_epoch = 0
        if self._num_epochs != -1 and self._epoch >= self._num_epochs:
            self._done = True
            self.stop()

    def __next__(self) -> Any:
        if self._done or self._it is None:
            raise StopIteration
        if self._epoch_length is not None and self._in_epoch >= self._epoch_length:
            self._end_epoch()
            raise StopIteration
        try:
            row = next(self._it)
        except StopIteration:
            self._done = True
            self.stop()
            raise
        if row is EPOCH_END:
            self._end_epoch()
            raise StopIteration
        self._in_epoch += 1
        return self._format(row)

    def _format(self, row: Row) -> Any:
        values = list(row) if self._select is None else [row[i] for i in self._select]
        values = [_to_output(v, self._output_numpy) for v in values]
        if self._as_dict:
            return dict(zip(self._names, values))
        return values

    def get_state(self) -> dict[str, Any]:
        """The position, as a JSON-compatible dict (store it in a checkpoint).

        Returns:
            ``{"version", "epoch", "row", "done", "grain"}``.
        """
        grain_state = self._it.get_state() if self._it is not None else None
        state = {"version": _STATE_VERSION, "epoch": self._epoch, "row": self._in_epoch,
                 "done": self._done, "grain": _plain(grain_state)}
        json.dumps(state)  # fail here, not at checkpoint time, if grain ever returns something else
        return state

    def set_state(self, state: dict[str, Any]) -> None:
        """Continue from a position returned by :meth:`get_state` on the same pipeline.

        Raises:
            ValueError: when ``state`` is not such a position.
        """
        if not isinstance(state, dict) or state.get("version") != _STATE_VERSION or "grain" not in state:
            raise ValueError(f"For 'set_state', expected a state from get_state() (version {_STATE_VERSION}), "
                             f"got {state!r}")
        if self._it is None:
            self._it = iter(self._stream)  # stopped after its last epoch: start again, then seek
        if state["grain"] is not None:
            self._it.set_state(state["grain"])
        self._epoch, self._in_epoch, self._done = int(state["epoch"]), int(state["row"]), bool(state["done"])

    def stop(self) -> None:
        """Release worker processes and threads (``set_state`` can start them again)."""
        if self._it is not None:
            self._it.close()
            self._it = None

    close = stop

    def __del__(self) -> None:
        try:
            self.stop()
        except Exception:  # noqa: BLE001 - interpreter shutdown
            pass


def _column_sharding(sharding: Any, ndim: int, stacked: bool) -> Any:
    """``sharding`` for one column: a NamedSharding's spec shifted past the stack axis and fitted to ``ndim``."""
    if sharding is None:
        return None
    from jax.sharding import NamedSharding, PartitionSpec

    if isinstance(sharding, NamedSharding):
        spec = tuple(sharding.spec)
        if stacked:
            spec = (None,) + spec
        spec = spec[:ndim]
        return NamedSharding(sharding.mesh, PartitionSpec(*spec))
    return sharding


class _PutOnDevice:
    """A host row to device arrays: ``jax.device_put``, or a global array from each process's part."""

    def __init__(self, sharding: Any, stacked: bool) -> None:
        self.sharding, self.stacked = sharding, stacked

    def __call__(self, row: Sequence[np.ndarray]) -> tuple[Any, ...]:
        import jax

        out = []
        for k, x in enumerate(row):
            target = self.sharding[k] if isinstance(self.sharding, (list, tuple)) else self.sharding
            target = _column_sharding(target, np.ndim(x), self.stacked)
            if target is None:
                out.append(jax.device_put(x))
            elif jax.process_count() > 1 and not target.is_fully_addressable:
                out.append(jax.make_array_from_process_local_data(target, np.asarray(x)))
            else:
                out.append(jax.device_put(x, target))
        return tuple(out)


class _Select:
    def __init__(self, idx: list[int] | None) -> None:
        self.idx = idx

    def __call__(self, row: Row) -> tuple[np.ndarray, ...]:
        if self.idx is None:
            return tuple(row)
        return tuple(row[i] for i in self.idx)


class DeviceIterator:
    """Device batches prepared in the background, across epochs, for a training loop.

    The pipeline runs in grain's threads (or worker processes); a grain
    thread stage copies each batch (or each block of ``stack`` batches) to
    the device with ``jax.device_put``, ``device_prefetch`` ahead of the
    consumer, so the copy overlaps the previous step.

    Arguments:
        dataset: the (batched) pipeline.
        sharding: ``None`` (default device), a ``jax.sharding.Sharding`` applied to
            every column (a ``NamedSharding`` over the mesh's data axis, e.g.
            ``NamedSharding(mesh, P('data'))``, splits the batch axis; with
            ``stack`` the spec is shifted to the batch axis), or one per column.
            Under ``jax.distributed`` each process passes its own part and gets
            global arrays.
        stack: ``None`` yields one batch per step; ``N`` yields blocks of up to ``N``
            consecutive batches stacked on a new leading axis (for sink mode); a
            block ends early where batch shapes change or the data ends.
        num_epochs: epochs to run (-1: endless).
        columns: the columns to yield (default: all).
        device_prefetch: batches (or blocks) held on device ahead of use.

    Iterating yields tuples of ``jax.Array``. ``steps_per_epoch`` is the
    dataset size; after ``dataset.set_init_step`` the stream starts
    ``initial_step_in_epoch`` batches into its first epoch (so that epoch has
    ``steps_per_epoch - initial_step_in_epoch`` batches left, as in MindSpore).
    ``get_state()``/``set_state()`` save and restore the position of the next
    batch the consumer will receive.
    """

    def __init__(self, dataset: Any, sharding: Any = None, stack: int | None = None, num_epochs: int = -1,
                 columns: Any = None, device_prefetch: int = 2) -> None:
        if stack is not None and (not isinstance(stack, int) or isinstance(stack, bool) or stack < 1):
            raise ValueError(f"For 'device_iterator', 'stack' must be a positive int or None, got {stack!r}")
        if not isinstance(device_prefetch, int) or device_prefetch < 1:
            raise ValueError(f"For 'device_iterator', 'device_prefetch' must be a positive int, "
                             f"got {device_prefetch!r}")
        select = _column_indices(dataset, columns, "device_iterator")
        self.steps_per_epoch = dataset.get_dataset_size()
        self.initial_step_in_epoch = dataset._init_position()[1]
        # Whole-batch reads take microseconds: the device thread makes them itself, saving two thread
        # hand-offs per batch that would compete with the step for the cores.
        whole = dataset._reads_whole_batches()
        stream, _ = dataset._grain_stream(num_epochs, mark_epochs=False, read_threads=not whole)
        stream = stream.map(_Select(select))
        if stack is not None:
            stream = StackIterDataset(stream, stack)
        if not whole:
            stream = grain.experimental.ThreadPrefetchIterDataset(stream, prefetch_buffer_size=max(
                1, config.get_prefetch_size() // (stack or 1)))
        stream = stream.map(_PutOnDevice(sharding, stack is not None))
        stream = grain.experimental.ThreadPrefetchIterDataset(stream, prefetch_buffer_size=device_prefetch)
        self._it: grain.DatasetIterator | None = iter(stream)
        self.stack = stack

    def __iter__(self) -> "DeviceIterator":
        return self

    def __next__(self) -> tuple[Any, ...]:
        if self._it is None:
            raise StopIteration
        return next(self._it)

    def get_state(self) -> dict[str, Any]:
        """The position of the next batch, as a JSON-compatible dict."""
        if self._it is None:
            raise ValueError("For 'DeviceIterator.get_state', the iterator was closed")
        state = {"version": _STATE_VERSION, "grain": _plain(self._it.get_state())}
        json.dumps(state)
        return state

    def set_state(self, state: dict[str, Any]) -> None:
        """Continue from a position returned by :meth:`get_state` on the same pipeline."""
        if not isinstance(state, dict) or state.get("version") != _STATE_VERSION or "grain" not in state:
            raise ValueError(f"For 'DeviceIterator.set_state', expected a state from get_state(), got {state!r}")
        if self._it is None:
            raise ValueError("For 'DeviceIterator.set_state', the iterator was closed")
        self._it.set_state(state["grain"])

    def close(self) -> None:
        """Stop the background threads and worker processes."""
        if self._it is not None:
            self._it.close()
            self._it = None

    def __enter__(self) -> "DeviceIterator":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:  # noqa: BLE001 - interpreter shutdown
            pass
