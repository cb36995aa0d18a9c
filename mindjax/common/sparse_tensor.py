"""``mindspore.common.sparse_tensor``: ``RowTensor``, a tensor given by some of its rows, and ``COOTensor``.

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

from mindjax.common.tensor import Tensor, as_array

__all__ = ["RowTensor", "COOTensor"]


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


class COOTensor:
    """A sparse tensor in coordinate format (MindSpore's ``COOTensor``): ``values[i]`` at ``indices[i]``.

    The parts are arrays (a JAX pytree, so it passes through ``jit``); ``to_dense`` builds the
    dense tensor, summing repeated coordinates. The element-wise sparse functions of
    ``mindspore.ops`` (``coo_*``) are not implemented here.

    Arguments:
        indices: an int32/int64 Tensor ``(N, ndim)``: the coordinates of the values.
        values: a Tensor ``(N,)``: the values.
        shape: a tuple of ``ndim`` positive ints: the dense shape.
        coo_tensor: another COOTensor to copy (then the other arguments must be None).

    Raises:
        TypeError: ``coo_tensor`` with the parts, parts of the wrong type.
        ValueError: parts of inconsistent shapes.
    """

    def __init__(self, indices: Any = None, values: Any = None, shape: Any = None,
                 coo_tensor: "COOTensor | None" = None) -> None:
        if coo_tensor is not None:
            if not isinstance(coo_tensor, COOTensor):
                raise TypeError(f"For 'COOTensor', 'coo_tensor' must be a COOTensor, got {type(coo_tensor).__name__}")
            if not (indices is None and values is None and shape is None):
                raise TypeError("For 'COOTensor', when 'coo_tensor' is given, 'indices', 'values' and 'shape' "
                                "must all be None")
            indices, values, shape = coo_tensor.indices, coo_tensor.values, coo_tensor.shape
        if not isinstance(shape, (tuple, list)) or not all(
                isinstance(d, int) and not isinstance(d, bool) and d > 0 for d in shape):
            raise TypeError(f"For 'COOTensor', 'shape' must be a tuple of positive ints, got {shape!r}")
        self._indices = as_array(indices)
        self._values = as_array(values)
        self._shape = tuple(int(d) for d in shape)
        if not jnp.issubdtype(self._indices.dtype, jnp.integer):
            raise TypeError(f"For 'COOTensor', 'indices' must be an int Tensor, got dtype {self._indices.dtype}")
        if self._indices.ndim != 2 or self._indices.shape[1] != len(self._shape):
            raise ValueError(f"For 'COOTensor', 'indices' must have shape (N, {len(self._shape)}), "
                             f"got {tuple(self._indices.shape)}")
        if self._values.ndim != 1 or self._values.shape[0] != self._indices.shape[0]:
            raise ValueError(f"For 'COOTensor', 'values' must have shape ({self._indices.shape[0]},), "
                             f"got {tuple(self._values.shape)}")

    @property
    def indices(self) -> Any:
        """The coordinates, ``(N, ndim)``."""
        return Tensor._wrap(self._indices)

    @property
    def values(self) -> Any:
        """The values, ``(N,)``."""
        return Tensor._wrap(self._values)

    @property
    def shape(self) -> tuple[int, ...]:
        """The dense shape."""
        return self._shape

    @property
    def dtype(self) -> Any:
        """The values' dtype."""
        return self._values.dtype

    @property
    def size(self) -> int:
        """The number of stored values."""
        return int(self._values.shape[0])

    @property
    def itemsize(self) -> int:
        """The bytes of one value."""
        return int(self._values.dtype.itemsize)

    @property
    def ndim(self) -> int:
        """The number of dense dimensions."""
        return len(self._shape)

    def to_dense(self) -> Any:
        """The dense Tensor: zeros with ``values`` added at ``indices`` (repeated coordinates add up)."""
        return Tensor._wrap(jnp.zeros(self._shape, self._values.dtype).at[tuple(self._indices.T)].add(self._values))

    def to_tuple(self) -> tuple[Any, Any, tuple[int, ...]]:
        """``(indices, values, shape)``."""
        return self.indices, self.values, self._shape

    def astype(self, dtype: Any) -> "COOTensor":
        """The same coordinates with the values cast to ``dtype``."""
        from mindjax.common.dtype import to_jax_dtype
        return COOTensor(self._indices, self._values.astype(to_jax_dtype(dtype)), self._shape)

    def abs(self) -> "COOTensor":
        """The same coordinates with the absolute values."""
        return COOTensor(self._indices, jnp.abs(self._values), self._shape)

    def __repr__(self) -> str:
        return f"COOTensor(shape={list(self._shape)}, dtype={self._values.dtype}, indices={self._indices}, " \
               f"values={self._values})"


def _rebuild_coo(children: tuple[Any, Any], shape: tuple[int, ...]) -> COOTensor:
    obj = object.__new__(COOTensor)
    obj._indices, obj._values = children
    obj._shape = shape
    return obj


jax.tree_util.register_pytree_node(COOTensor, lambda c: ((c._indices, c._values), c._shape),
                                   lambda shape, children: _rebuild_coo(children, shape))
