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
from typing import Any

import jax
import numpy as np

from mindjax.common.tensor import tensor_op
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
