"""Padding layers: ``ReflectionPad1d/2d/3d``, ``ReplicationPad1d/2d/3d`` and ``ConstantPad1d/2d/3d``.

``padding`` is an int (every side) or a tuple ``(left, right[, top, bottom[, front, back]])``
starting from the last axis, as in MindSpore; each layer calls ``ops.pad``.

Example:
    >>> import numpy as np
    >>> from mindjax import nn
    >>> nn.ReflectionPad1d(2)(np.arange(4, dtype=np.float32).reshape(1, 1, 4)).tolist()
    [[[2.0, 1.0, 0.0, 1.0, 2.0, 3.0, 2.0, 1.0]]]
"""
from __future__ import annotations

from typing import Any

import jax

from mindjax.cells.cell import Cell
from mindjax.common.tensor import as_array as _arr
from mindjax.ops.functional import pad as _pad

__all__ = ["ReflectionPad1d", "ReflectionPad2d", "ReflectionPad3d", "ReplicationPad1d", "ReplicationPad2d",
           "ReplicationPad3d", "ConstantPad1d", "ConstantPad2d", "ConstantPad3d"]


class _PadNd(Cell):
    _dims = 1
    _mode = "constant"

    def __init__(self, padding: Any, value: float | None = None) -> None:
        super().__init__()
        name = type(self).__name__
        n = 2 * self._dims
        if isinstance(padding, int) and not isinstance(padding, bool):
            padding = (padding,) * n
        if not isinstance(padding, (tuple, list)):
            raise TypeError(f"For '{name}', 'padding' must be an int or a tuple of ints, "
                            f"got {type(padding).__name__}")
        if not all(isinstance(p, int) and not isinstance(p, bool) for p in padding):
            raise TypeError(f"For '{name}', every element of 'padding' must be an int, got {tuple(padding)!r}")
        if not padding or len(padding) % 2:
            raise ValueError(f"For '{name}', the length of 'padding' must be a positive multiple of 2, "
                             f"got {len(padding)}")
        # A constant pad pads at most its own axes; reflection and replication pads, as in
        # MindSpore, take as many (left, right) pairs as the input has axes.
        if self._mode == "constant" and len(padding) > n:
            raise ValueError(f"For '{name}', the length of 'padding' must be at most {n}, got {len(padding)}")
        if self._mode != "constant" and min(padding) < 0:
            raise ValueError(f"For '{name}', 'padding' must be non-negative, got {padding!r}")
        self.padding = tuple(padding)
        self.value = value

    def construct(self, x: Any) -> jax.Array:
        a = _arr(x)
        pairs = len(self.padding) // 2
        if a.ndim < max(self._dims + 1, pairs):
            raise ValueError(f"{self._where()}, the input must be at least {max(self._dims + 1, pairs)}-D for "
                             f"'padding' of length {len(self.padding)}, got shape {a.shape}")
        if self._mode == "reflect":
            for i in range(pairs):
                size = a.shape[-1 - i]
                if max(self.padding[2 * i], self.padding[2 * i + 1]) >= size:
                    raise ValueError(f"{self._where()}, reflection padding {self.padding} must be smaller than "
                                     f"the padded axes of input {a.shape}")
        return _pad(a, self.padding, self._mode, self.value)


def _pad_class(name: str, dims: int, mode: str, doc: str) -> type:
    return type(name, (_PadNd,), {"_dims": dims, "_mode": mode, "__module__": __name__, "__doc__": doc})


_REFLECT = ("Pad the last {d} axes by reflection (the edge not repeated).\n\n    Arguments:\n        padding: an int "
            "or a tuple of {n} ints.\n")
_REPLICATE = ("Pad the last {d} axes by repeating the edge values.\n\n    Arguments:\n        padding: an int or a "
              "tuple of {n} ints.\n")
ReflectionPad1d = _pad_class("ReflectionPad1d", 1, "reflect", _REFLECT.format(d=1, n=2))
ReflectionPad2d = _pad_class("ReflectionPad2d", 2, "reflect", _REFLECT.format(d=2, n=4))
ReflectionPad3d = _pad_class("ReflectionPad3d", 3, "reflect", _REFLECT.format(d=3, n=6))
ReplicationPad1d = _pad_class("ReplicationPad1d", 1, "replicate", _REPLICATE.format(d=1, n=2))
ReplicationPad2d = _pad_class("ReplicationPad2d", 2, "replicate", _REPLICATE.format(d=2, n=4))
ReplicationPad3d = _pad_class("ReplicationPad3d", 3, "replicate", _REPLICATE.format(d=3, n=6))


class _ConstantPad(_PadNd):
    def __init__(self, padding: Any, value: float) -> None:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise TypeError(f"For '{type(self).__name__}', 'value' must be a number, got {type(value).__name__}")
        super().__init__(padding, float(value))


class ConstantPad1d(_ConstantPad):
    """Pad the last axis with ``value`` (negative padding crops).

    Arguments:
        padding: an int or ``(left, right)``.
        value: the fill value.
    """

    _dims = 1


class ConstantPad2d(_ConstantPad):
    """Pad the last two axes with ``value``; ``padding`` is an int or 4 ints."""

    _dims = 2


class ConstantPad3d(_ConstantPad):
    """Pad the last three axes with ``value``; ``padding`` is an int or 6 ints."""

    _dims = 3
