"""``SparseToDense`` and ``SparseTensorDenseMatmul`` (MindSpore's ``nn.sparse``)."""
from __future__ import annotations

from typing import Any

import jax

from mindjax.cells.cell import Cell
from mindjax.ops.operations import sparse_ops as P

__all__ = ["SparseToDense", "SparseTensorDenseMatmul"]

_sparse_to_dense = P.SparseToDense()  # the one implementation, shared with ops.SparseToDense


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
        return _sparse_to_dense(sparse_tensor.indices, sparse_tensor.values, tuple(sparse_tensor.shape))


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
        self._matmul = P.SparseTensorDenseMatmul(adjoint_st=adjoint_st, adjoint_dt=adjoint_dt)

    def construct(self, indices: Any, values: Any, sparse_shape: Any, dense: Any) -> jax.Array:
        try:
            return self._matmul(indices, values, sparse_shape, dense)
        except (TypeError, ValueError) as exc:
            msg = str(exc)
            prefix = "For 'SparseTensorDenseMatmul', "
            raise type(exc)(f"{self._where()}, {msg[len(prefix):] if msg.startswith(prefix) else msg}") from None
