"""MindSpore's ``mindspore.ops.function.debug_func``: dumping tensors to ``.npy`` files.

Example:
    >>> import os, tempfile
    >>> import numpy as np
    >>> from mindjax import ops
    >>> path = os.path.join(tempfile.mkdtemp(), "x.npy")
    >>> ops.tensordump(path, np.arange(3))
    >>> np.load(path).tolist()
    [0, 1, 2]
"""
from __future__ import annotations

import os
import tempfile
import threading
from typing import Any

import jax
import numpy as np

from mindjax.common.tensor import Tensor, tensor_op
from mindjax.ops.function._build import _arr

__all__ = ["tensordump"]


def _save(file_name: str, value: Any) -> None:
    # Written atomically: a temporary file in the same folder, then renamed over the target.
    folder = os.path.dirname(os.path.abspath(file_name))
    os.makedirs(folder, exist_ok=True)
    fd, tmp = tempfile.mkstemp(suffix=".npy", dir=folder)
    with os.fdopen(fd, "wb") as f:
        np.save(f, np.asarray(value), allow_pickle=False)
    os.replace(tmp, file_name)


@tensor_op
def tensordump(file_name: str, tensor: Any, mode: str = "out") -> None:
    """Save ``tensor`` as a ``.npy`` file, also from inside compiled code (through ``jax.debug.callback``).

    Arguments:
        file_name: the path; ``.npy`` is appended when missing.
        tensor: the array.
        mode: ``'out'``, ``'in'`` or ``'all'`` (MindSpore's dump direction; recorded only).
    """
    if not isinstance(file_name, str) or not file_name:
        raise TypeError(f"For 'tensordump', 'file_name' must be a non-empty str, got {file_name!r}")
    if mode not in ("out", "in", "all"):
        raise ValueError(f"For 'tensordump', 'mode' must be 'out', 'in' or 'all', got {mode!r}")
    path = file_name if file_name.endswith(".npy") else file_name + ".npy"
    jax.debug.callback(lambda v: _save(path, v), _arr(tensor))


# -- summary values (ScalarSummary, ImageSummary, TensorSummary, HistogramSummary) -------------------------
# Values recorded by the summary Primitives wait here, one per tag and plugin (the newest wins), until a
# SummaryRecord takes them at its next ``record(step)``, as MindSpore's summary cache does. Inside compiled
# code the value reaches this cache through a host callback when the step runs.
_SUMMARY_LOCK = threading.Lock()
_SUMMARY_CACHE: dict[tuple[str, str], Any] = {}
_SUMMARY_RANK = {"scalar": "the v rank must be less than or equal to 1", "image": "4-D (N, C, H, W)",
                 "tensor": "not empty (rank >= 1)", "histogram": "not empty (rank >= 1)"}


def _keep_summary(plugin: str, tag: str, value: Any) -> None:
    with _SUMMARY_LOCK:
        _SUMMARY_CACHE[(plugin, tag)] = np.array(value)


def cache_summary(op_name: str, tag: Any, value: Any) -> None:
    """Keep ``value`` under ``tag`` for the next ``SummaryRecord.record`` (the summary Primitives' work).

    Arguments:
        op_name: ``'ScalarSummary'``, ``'ImageSummary'``, ``'TensorSummary'`` or ``'HistogramSummary'``.
        tag: the value's name, a non-empty str.
        value: a Tensor: one element for scalars, 4-D ``(N, C, H, W)`` for images, rank >= 1 otherwise.

    Raises:
        TypeError: naming the op when ``tag`` is not a non-empty str or ``value`` is not a Tensor.
        ValueError: naming the op when ``value``'s shape does not suit the summary kind.
    """
    plugin = op_name[:-len("Summary")].lower()
    if not isinstance(tag, str) or not tag:
        raise TypeError(f"For '{op_name}', the 'name' must be a non-empty str, but got {tag!r}.")
    if not isinstance(value, (Tensor, jax.Array)):
        raise TypeError(f"For '{op_name}', the 'value' must be a Tensor, but got {type(value).__name__}.")
    arr = _arr(value)
    ok = {"scalar": arr.size == 1, "image": arr.ndim == 4}.get(plugin, arr.ndim > 0)
    if not ok:
        raise ValueError(f"For '{op_name}', the 'value' must be {_SUMMARY_RANK[plugin]}, but got shape "
                         f"{tuple(arr.shape)}.")
    jax.debug.callback(lambda v: _keep_summary(plugin, tag, v), arr)


def take_summaries() -> list[tuple[str, str, Any]]:
    """The ``(plugin, tag, value)`` triples the summary Primitives recorded since the last call, emptied.

    Waits for the callbacks of dispatched computations first, so that a step's values are in.
    """
    jax.effects_barrier()
    with _SUMMARY_LOCK:
        items = [(plugin, tag, value) for (plugin, tag), value in _SUMMARY_CACHE.items()]
        _SUMMARY_CACHE.clear()
    return items
