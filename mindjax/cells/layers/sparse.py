"""``SparseToDense`` and ``SparseTensorDenseMatmul`` (MindSpore's ``nn.sparse``)."""
from __future__ import annotations

from typing import Any

import jax
import jax.numpy as jnp

from mindjax.cells.cell import Cell
from mindjax.common.tensor import as_array as _arr

__all__ = ["SparseToDense", "SparseTensorDenseMatmul"]


class SparseToDense(Cell):
    """The dense Tensor of a :class:`~mindjax.COOTensor` (MindSpore's deprecated ``nn.SparseToDense``).

    Where a coordinate repeats, the value given last is kept (MindSpore's ``SparseToDense``
    kernel; ``COOTensor.to_dense`` adds them up instead).

    Inputs:
        sparse_tensor: a COOTensor (anything with ``indices``, ``values`` and ``shape``).

    Outputs:
        a Tensor of ``sparse_tensor.shape`` and its values' dtype.

    Raises:
        TypeError: the input has no ``indices``, ``values`` and ``shape``.
    """

    def construct(self, sparse_tensor: Any) -> jax.Array:
        if not all(hasattr(sparse_tensor, a) for a in ("indices", "values", "shape")):
            raise TypeError(f"{self._where()}, 'sparse_tensor' must be a COOTensor, "
                            f"got {type(sparse_tensor).__name__}")
        indices, values = _arr(sparse_tensor.indices).astype(jnp.int32), _arr(sparse_tensor.values)
        shape = tuple(int(d) for d in sparse_tensor.shape)
        where = tuple(indices.T)
        last = jnp.full(shape, -1, jnp.int32).at[where].max(jnp.arange(values.shape[0], dtype=jnp.int32))
        return jnp.where(last >= 0, values[jnp.maximum(last, 0)], jnp.zeros((), values.dtype))


class SparseTensorDenseMatmul(Cell):
    """``op(S) @ op(D)`` for a 2-D COO matrix ``S`` and a dense matrix ``D`` (MindSpore's ``SparseTensorDenseMatmul``).

    Repeated coordinates of ``S`` add up.

    Arguments:
        adjoint_st: use ``S``'s (conjugate) transpose. Default False.
        adjoint_dt: use ``D``'s (conjugate) transpose. Default False.

    Inputs:
        indices: int32/int64 ``(N, 2)``. values: ``(N,)``. sparse_shape: ``(rows, cols)``.
        dense: a 2-D Tensor whose leading dim (after ``adjoint_dt``) equals ``op(S)``'s columns.

    Outputs:
        ``(op(S) rows, op(D) cols)``, of the values' dtype.

    Raises:
        TypeError: a flag not a bool.
        ValueError: ``indices`` not ``(N, 2)``, ``sparse_shape`` not 2 ints, or the inner dims disagree.
    """

    def __init__(self, adjoint_st: bool = False, adjoint_dt: bool = False) -> None:
        super().__init__()
        for name, value in (("adjoint_st", adjoint_st), ("adjoint_dt", adjoint_dt)):
            if not isinstance(value, bool):
                raise TypeError(f"For 'SparseTensorDenseMatmul', the type of '{name}' should be 'bool', "
                                f"but got type '{type(value).__name__}'.")
        self.adj_st = adjoint_st
        self.adj_dt = adjoint_dt

    def construct(self, indices: Any, values: Any, sparse_shape: Any, dense: Any) -> jax.Array:
        indices, values, dense = _arr(indices), _arr(values), _arr(dense)
        shape = tuple(int(d) for d in (sparse_shape if isinstance(sparse_shape, (tuple, list))
                                       else _arr(sparse_shape).tolist()))
        if indices.ndim != 2 or indices.shape[1] != 2 or len(shape) != 2:
            raise ValueError(f"{self._where()}, 'indices' must be (N, 2) and 'sparse_shape' 2 ints, got "
                             f"{tuple(indices.shape)} and {shape}")
        rows, cols = indices[:, 0].astype(jnp.int32), indices[:, 1].astype(jnp.int32)
        if self.adj_st:
            rows, cols, shape = cols, rows, shape[::-1]
            values = jnp.conj(values)
        if self.adj_dt:
            dense = jnp.conj(dense.T)
        if dense.ndim != 2 or dense.shape[0] != shape[1]:
            raise ValueError(f"{self._where()}, the sparse matrix is {shape[0]}x{shape[1]} (after adjoint_st) and "
                             f"'dense' must have {shape[1]} rows (after adjoint_dt), got shape {tuple(dense.shape)}")
        products = values[:, None].astype(jnp.result_type(values, dense)) * dense[cols]
        return jnp.zeros((shape[0], dense.shape[1]), products.dtype).at[rows].add(products)
