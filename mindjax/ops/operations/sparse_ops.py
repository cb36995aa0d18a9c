"""MindSpore's ``mindspore.ops.operations.sparse_ops``: Primitives over sparse tensors given by their parts.

``SparseToDense``, ``SparseTensorDenseAdd`` and ``SparseTensorDenseMatmul`` keep their
output's shape static, so they trace under ``jit``; ``SparseSlice`` and ``Coalesce``
return as many values as the data says, so they run in PYNATIVE mode only.
``SparseGatherV2`` is in ``array_ops``, as in MindSpore.

Example:
    >>> import numpy as np
    >>> import mindjax as ms
    >>> from mindjax import ops
    >>> ops.SparseToDense()(ms.Tensor([[0, 1], [1, 2]]), ms.Tensor([1.0, 2.0]), (2, 3)).asnumpy().tolist()
    [[0.0, 1.0, 0.0], [0.0, 0.0, 2.0]]
"""
from __future__ import annotations

from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from mindjax.common.checks import check_index_range
from mindjax.common.tensor import as_array
from mindjax.ops.function import sparse_func as S
from mindjax.ops.operations._base import Primitive, check_bool, record


def _shape_tuple(prim: str, name: str, shape: Any) -> tuple[int, ...]:
    if isinstance(shape, (tuple, list)):
        return tuple(int(d) for d in shape)
    arr = as_array(shape)
    if isinstance(arr, jax.core.Tracer):
        raise ValueError(f"For '{prim}', '{name}' sets the output shape, so it must be a constant, not traced")
    return tuple(int(d) for d in np.asarray(arr).reshape(-1))


def _coo_parts(prim: str, indices: Any, values: Any, shape: tuple[int, ...],
               names: tuple[str, str] = ("indices", "values")) -> tuple[jax.Array, jax.Array]:
    idx, vals = as_array(indices), as_array(values)
    if not jnp.issubdtype(idx.dtype, jnp.integer):
        raise TypeError(f"For '{prim}', '{names[0]}' must be an int Tensor, got dtype {idx.dtype}")
    if idx.ndim != 2 or idx.shape[1] != len(shape):
        raise ValueError(f"For '{prim}', '{names[0]}' must have shape (N, {len(shape)}) for a {len(shape)}-D "
                         f"shape, got {tuple(idx.shape)}")
    if vals.ndim != 1 or vals.shape[0] != idx.shape[0]:
        raise ValueError(f"For '{prim}', '{names[1]}' must have shape ({idx.shape[0]},) (one value per row of "
                         f"'{names[0]}'), got {tuple(vals.shape)}")
    return idx, vals


class SparseToDense(Primitive):
    """The dense tensor of COO parts; where a coordinate repeats, the value given last is kept.

    Call: ``SparseToDense()(indices, values, sparse_shape)`` -> array of ``sparse_shape``.
    ``indices`` is int ``(N, ndim)``, ``values`` ``(N,)``, ``sparse_shape`` a tuple of ints.
    """

    _strategy_inputs = 0

    def __init__(self) -> None:
        super().__init__()

    def __call__(self, indices: Any, values: Any, sparse_shape: Any) -> jax.Array:
        shape = _shape_tuple(self.name, "sparse_shape", sparse_shape)
        idx, vals = _coo_parts(self.name, indices, values, shape)
        for d, size in enumerate(shape):  # MindSpore's kernel refuses an index outside the shape
            check_index_range(self.name, f"indices[:, {d}]", idx[:, d], 0, size)
        where = tuple(idx.astype(jnp.int32).T)
        last = jnp.full(shape, -1, jnp.int32).at[where].max(jnp.arange(vals.shape[0], dtype=jnp.int32))
        return jnp.where(last >= 0, vals[jnp.maximum(last, 0)], jnp.zeros((), vals.dtype))


class SparseTensorDenseAdd(Primitive):
    """A dense tensor plus a COO tensor (repeated coordinates add up).

    Call: ``SparseTensorDenseAdd()(x1_indices, x1_values, x1_shape, x2)`` -> array of ``x2``'s shape.
    """

    _strategy_inputs = 0

    def __init__(self) -> None:
        super().__init__()

    def __call__(self, x1_indices: Any, x1_values: Any, x1_shape: Any, x2: Any) -> jax.Array:
        shape = _shape_tuple(self.name, "x1_shape", x1_shape)
        idx, vals = _coo_parts(self.name, x1_indices, x1_values, shape, ("x1_indices", "x1_values"))
        dense = as_array(x2)
        if tuple(dense.shape) != shape:
            raise ValueError(f"For '{self.name}', 'x2' must have the shape 'x1_shape' = {shape}, "
                             f"got {tuple(dense.shape)}")
        return dense.at[tuple(idx.T)].add(vals.astype(dense.dtype))


class SparseTensorDenseMatmul(Primitive):
    """``op(S) @ op(D)`` for a 2-D COO matrix ``S`` and a dense matrix ``D`` (repeated coordinates add up).

    Arguments:
        adjoint_st: use ``S``'s conjugate transpose. Default ``False``.
        adjoint_dt: use ``D``'s conjugate transpose. Default ``False``.

    Call: ``SparseTensorDenseMatmul(...)(indices, values, sparse_shape, dense)`` -> ``(op(S) rows, op(D) cols)``.
    """

    _strategy_inputs = 0

    def __init__(self, adjoint_st: bool = False, adjoint_dt: bool = False) -> None:
        super().__init__()
        record(self, adjoint_st=check_bool(self.name, "adjoint_st", adjoint_st),
               adjoint_dt=check_bool(self.name, "adjoint_dt", adjoint_dt))

    def __call__(self, indices: Any, values: Any, sparse_shape: Any, dense: Any) -> jax.Array:
        shape = _shape_tuple(self.name, "sparse_shape", sparse_shape)
        if len(shape) != 2:
            raise ValueError(f"For '{self.name}', 'sparse_shape' must be 2 ints, got {shape}")
        idx, vals = _coo_parts(self.name, indices, values, shape)
        mat = as_array(dense)
        if mat.ndim != 2:
            raise ValueError(f"For '{self.name}', 'dense' must be 2-D, got shape {tuple(mat.shape)}")
        rows, cols = idx[:, 0].astype(jnp.int32), idx[:, 1].astype(jnp.int32)
        if self.adjoint_st:
            rows, cols, shape = cols, rows, shape[::-1]
            vals = jnp.conj(vals)
        if self.adjoint_dt:
            mat = jnp.conj(mat.T)
        if mat.shape[0] != shape[1]:
            raise ValueError(f"For '{self.name}', the sparse matrix is {shape[0]}x{shape[1]} (after adjoint_st) "
                             f"and 'dense' must have {shape[1]} rows (after adjoint_dt), got shape "
                             f"{tuple(mat.shape)}")
        dtype = jnp.result_type(vals, mat)
        products = vals[:, None].astype(dtype) * mat[cols].astype(dtype)
        return jnp.zeros((shape[0], mat.shape[1]), dtype).at[rows].add(products)


class SparseSlice(Primitive):
    """The entries of a COO tensor inside the box ``[start, start + size)``, shifted to start at 0.

    Call: ``SparseSlice()(indices, values, shape, start, size)`` -> ``(y_indices, y_values, y_shape)``
    with ``y_shape = min(size, shape - start)``. PYNATIVE only (the count depends on the indices).
    """

    _strategy_inputs = 0

    def __init__(self) -> None:
        super().__init__()

    def __call__(self, indices: Any, values: Any, shape: Any, start: Any,
                 size: Any) -> tuple[jax.Array, jax.Array, jax.Array]:
        dims = _shape_tuple(self.name, "shape", shape)
        idx, vals = _coo_parts(self.name, indices, values, dims)
        first = np.asarray(_shape_tuple(self.name, "start", start), np.int64)
        extent = np.asarray(_shape_tuple(self.name, "size", size), np.int64)
        for name, arr in (("start", first), ("size", extent)):
            if arr.shape != (len(dims),):
                raise ValueError(f"For '{self.name}', '{name}' must have {len(dims)} entries (one per dimension), "
                                 f"got {arr.shape[0]}")
            if (arr < 0).any():
                raise ValueError(f"For '{self.name}', '{name}' must be >= 0, got {arr.tolist()}")
        stop = np.minimum(first + extent, np.asarray(dims, np.int64))
        if isinstance(idx, jax.core.Tracer):
            raise ValueError(f"For '{self.name}', the number of values of the result depends on 'indices', so they "
                             f"must be concrete: this op runs in PYNATIVE mode only, not under jit/GRAPH mode")
        coords = np.asarray(idx)
        keep = np.nonzero(((coords >= first) & (coords < stop)).all(axis=1))[0]
        y_shape = np.maximum(stop - first, 0)
        return (jnp.asarray((coords[keep] - first).astype(coords.dtype)), vals[keep],
                jnp.asarray(y_shape.astype(coords.dtype)))


class Coalesce(Primitive):
    """Sum the values at repeated coordinates and sort them: ``ops.coalesce``.

    Call: ``Coalesce()(x_indices, x_values, x_shape)`` -> ``(y_indices, y_values, y_shape)``;
    ``x_indices`` is ``(ndim, N)``. PYNATIVE only.
    """

    _strategy_inputs = 0

    def __init__(self) -> None:
        super().__init__()

    def __call__(self, x_indices: Any, x_values: Any, x_shape: Any) -> tuple[jax.Array, jax.Array, jax.Array]:
        return S._named(self.name)(S.coalesce.__wrapped__)(x_indices, x_values, x_shape)
