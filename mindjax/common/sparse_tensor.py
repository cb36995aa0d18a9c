"""``mindspore.common.sparse_tensor``: ``RowTensor``, a tensor given by some of its rows.

A ``RowTensor`` holds ``values[i]``, the row ``indices[i]`` of a dense tensor of shape
``dense_shape``; the other rows are zero. MindSpore uses it for sparse gradients
(``Embedding`` with ``sparse=True``). Here the gradients are dense, so it is a data
holder: it keeps its parts, is a JAX pytree (it passes through ``jit``), and
``to_dense`` (a MindJAX addition) builds the dense tensor, summing repeated rows.

Example:
    >>> import numpy as np
    >>> import mindjax as ms
    >>> rows = ms.RowTensor(ms.Tensor([0, 2]), ms.Tensor(np.ones((2, 3), np.float32)), (4, 3))
    >>> np.asarray(rows.to_dense()).sum(axis=1).tolist()
    [3.0, 0.0, 3.0, 0.0]
"""
from __future__ import annotations

from typing import Any

import jax
import jax.numpy as jnp

from mindjax.common.tensor import as_array

__all__ = ["RowTensor"]


class RowTensor:
    """Rows ``values`` at positions ``indices`` of a dense tensor of shape ``dense_shape``.

    Arguments:
        indices: 1-D int Tensor, ``(n,)``: the row of each slice.
        values: Tensor ``(n, *dense_shape[1:])``: the rows.
        dense_shape: tuple of ints, the dense tensor's shape.
        row_tensor: another RowTensor to copy (then the other arguments must be None).

    Raises:
        TypeError: ``row_tensor`` given together with the parts, or a part of the wrong type.
        ValueError: ``indices`` not 1-D, or ``values`` not of shape ``(n, *dense_shape[1:])``.
    """

    def __init__(self, indices: Any = None, values: Any = None, dense_shape: Any = None,
                 row_tensor: "RowTensor | None" = None) -> None:
        if row_tensor is not None:
            if not isinstance(row_tensor, RowTensor):
                raise TypeError(f"For 'RowTensor', 'row_tensor' must be a RowTensor, got {type(row_tensor).__name__}")
            if not (indices is None and values is None and dense_shape is None):
                raise TypeError("For 'RowTensor', when 'row_tensor' is given, 'indices', 'values' and "
                                "'dense_shape' must all be None")
            indices, values, dense_shape = row_tensor.indices, row_tensor.values, row_tensor.dense_shape
        if not isinstance(dense_shape, (tuple, list)) or not all(
                isinstance(d, int) and not isinstance(d, bool) for d in dense_shape):
            raise TypeError(f"For 'RowTensor', 'dense_shape' must be a tuple of ints, got {dense_shape!r}")
        self._indices = as_array(indices)
        self._values = as_array(values)
        self._shape = tuple(int(d) for d in dense_shape)
        if self._indices.ndim != 1:
            raise ValueError(f"For 'RowTensor', 'indices' must be 1-D, got shape {tuple(self._indices.shape)}")
        expected = (self._indices.shape[0], *self._shape[1:])
        if tuple(self._values.shape) != expected:
            raise ValueError(f"For 'RowTensor', 'values' must have shape (len(indices), *dense_shape[1:]) = "
                             f"{expected}, got {tuple(self._values.shape)}")

    @property
    def indices(self) -> Any:
        """The row of each slice of ``values``."""
        return self._indices

    @property
    def values(self) -> Any:
        """The rows."""
        return self._values

    @property
    def dense_shape(self) -> tuple[int, ...]:
        """The shape of the dense tensor."""
        return self._shape

    def to_dense(self) -> Any:
        """The dense tensor: zeros with ``values`` added at their rows (repeated rows add up)."""
        return jnp.zeros(self._shape, self._values.dtype).at[self._indices].add(self._values)

    def __repr__(self) -> str:
        return f"RowTensor(indices={self._indices}, values={self._values}, dense_shape={self._shape})"


jax.tree_util.register_pytree_node(
    RowTensor,
    lambda r: ((r._indices, r._values), r._shape),
    lambda shape, children: _rebuild(children, shape))


def _rebuild(children: tuple[Any, Any], shape: tuple[int, ...]) -> RowTensor:
    # Unflattening also runs on tracers and placeholder leaves: set the fields without checks.
    obj = object.__new__(RowTensor)
    obj._indices, obj._values = children
    obj._shape = shape
    return obj
