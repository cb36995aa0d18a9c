"""``mindspore.common.sparse_tensor``: ``RowTensor``, ``COOTensor`` and ``CSRTensor``.

Each sparse tensor is a JAX pytree of its arrays (indices, values ...), with its dense shape
as static data: it passes through ``jax.jit`` and ``ms.jit``, and gradients flow to its
values. The number of stored values is part of the array shapes, so it is fixed under
``jit``; the ops whose result has a data-dependent number of values (``coo_add``,
``csr_add``, ``coalesce`` ...) run eagerly only, and say so under a trace.

* ``RowTensor(indices, values, shape)``: ``values[i]`` is row ``indices[i]`` of a dense
  tensor of shape ``shape``; the other rows are zero (MindSpore's sparse gradients).
* ``COOTensor(indices, values, shape)``: ``values[i]`` at coordinate ``indices[i]``.
* ``CSRTensor(indptr, indices, values, shape)``: row ``r`` holds ``values[indptr[r]:indptr[r+1]]``
  at columns ``indices[indptr[r]:indptr[r+1]]``.

The element-wise and algebraic sparse ops are in :mod:`mindjax.ops.function.sparse_func`
and :mod:`mindjax.ops.function.sparse_unary_func`; the methods here that compute more than
a change of layout (``mm``, ``add``, ``coalesce`` and the operators) call them.

Example:
    >>> import numpy as np
    >>> import mindjax as ms
    >>> rows = ms.RowTensor(ms.Tensor([0, 2]), ms.Tensor(np.ones((2, 3), np.float32)), (4, 3))
    >>> np.asarray(rows.to_dense()).sum(axis=1).tolist()
    [3.0, 0.0, 3.0, 0.0]
    >>> csr = ms.CSRTensor(ms.Tensor([0, 1, 2]), ms.Tensor([0, 1]), ms.Tensor([1.0, 2.0]), (2, 4))
    >>> csr.to_dense().asnumpy().tolist()
    [[1.0, 0.0, 0.0, 0.0], [0.0, 2.0, 0.0, 0.0]]
"""
from __future__ import annotations

import importlib
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from mindjax.common.tensor import Tensor, as_array, format_tensor

__all__ = ["RowTensor", "RowTensorInner", "COOTensor", "CSRTensor"]


def _ops() -> Any:
    # mindjax.ops sits above common: resolved on first use, never at import.
    return importlib.import_module("mindjax.ops.function.sparse_func")


def _part(x: Any) -> Any:
    """A part given to the constructor as an array (Tensors unwrapped; lists by MindSpore's dtype rules)."""
    return as_array(x)


def _leaf(x: Any) -> Any:
    # Unflattening sees arrays, tracers, placeholders, and the Tensors that ``wrap`` makes of the leaves.
    return x._value if isinstance(x, Tensor) else x


def _dtype_name(dtype: Any) -> str:
    from mindjax.common.dtype import to_ms_dtype
    return str(to_ms_dtype(dtype))


def _part_repr(arr: Any) -> str:
    """A part as MindSpore prints it inside a sparse tensor: the Tensor head, then numpy-like rows."""
    head = f"Tensor(shape={list(arr.shape)}, dtype={_dtype_name(arr.dtype)}, value="
    if isinstance(arr, jax.core.Tracer):
        return head + "<traced>)"
    text = format_tensor(np.asarray(arr), _dtype_name(arr.dtype))
    body = text[len(head):-1]
    if arr.ndim == 1 and body.startswith(" "):
        body = body[1:]
    return head + body.replace(",", "") + ")"


def _check_shape(cls: str, shape: Any, min_rank: int = 1) -> tuple[int, ...]:
    if not isinstance(shape, (tuple, list)) or not all(
            isinstance(d, (int, np.integer)) and not isinstance(d, bool) and d > 0 for d in shape):
        raise TypeError(f"For '{cls}', 'shape' must be a tuple of positive ints, got {shape!r}")
    if len(shape) < min_rank:
        raise ValueError(f"For '{cls}', 'shape' must have at least {min_rank} dimensions, got {tuple(shape)}")
    return tuple(int(d) for d in shape)


def _check_int_part(cls: str, name: str, arr: Any) -> None:
    if not jnp.issubdtype(arr.dtype, jnp.integer):
        raise TypeError(f"For '{cls}', '{name}' must be an int Tensor, got dtype {arr.dtype}")


class RowTensor:
    """Rows ``values`` at positions ``indices`` of a dense tensor of shape ``shape``.

    Arguments:
        indices: 1-D int Tensor, ``(n,)``: the row of each slice.
        values: Tensor ``(n, *shape[1:])``: the rows.
        shape: tuple of ints, the dense tensor's shape (``dense_shape=`` is accepted too).
        row_tensor: another RowTensor to copy (then the other arguments must be None).

    Raises:
        TypeError: ``row_tensor`` given together with the parts, or a part of the wrong type.
        ValueError: ``indices`` not 1-D, or ``values`` not of shape ``(n, *shape[1:])``.
    """

    def __init__(self, indices: Any = None, values: Any = None, shape: Any = None,
                 row_tensor: "RowTensor | None" = None, *, dense_shape: Any = None) -> None:
        if shape is None:
            shape = dense_shape
        if row_tensor is not None:
            if not isinstance(row_tensor, RowTensor):
                raise TypeError(f"For 'RowTensor', 'row_tensor' must be a RowTensor, got {type(row_tensor).__name__}")
            if not (indices is None and values is None and shape is None):
                raise TypeError("For 'RowTensor', when 'row_tensor' is given, 'indices', 'values' and "
                                "'shape' must all be None")
            indices, values, shape = row_tensor._indices, row_tensor._values, row_tensor.dense_shape
        if not isinstance(shape, (tuple, list)) or not all(
                isinstance(d, (int, np.integer)) and not isinstance(d, bool) for d in shape):
            raise TypeError(f"For 'RowTensor', 'shape' (the dense_shape) must be a tuple of ints, got {shape!r}")
        self._indices = _part(indices)
        self._values = _part(values)
        self._shape = tuple(int(d) for d in shape)
        if self._indices.ndim != 1:
            raise ValueError(f"For 'RowTensor', 'indices' must be 1-D, got shape {tuple(self._indices.shape)}")
        expected = (self._indices.shape[0], *self._shape[1:])
        if tuple(self._values.shape) != expected:
            raise ValueError(f"For 'RowTensor', 'values' must have shape (len(indices), *shape[1:]) = "
                             f"{expected}, got {tuple(self._values.shape)}")

    @property
    def indices(self) -> Tensor:
        """The row of each slice of ``values``."""
        return Tensor._wrap(self._indices)

    @property
    def values(self) -> Tensor:
        """The rows."""
        return Tensor._wrap(self._values)

    @property
    def dense_shape(self) -> tuple[int, ...]:
        """The shape of the dense tensor."""
        return self._shape

    @property
    def dtype(self) -> Any:
        """The values' dtype (a MindSpore type)."""
        from mindjax.common.dtype import to_ms_dtype
        return to_ms_dtype(self._values.dtype)

    def to_dense(self) -> Tensor:
        """The dense tensor: zeros with ``values`` added at their rows (repeated rows add up)."""
        return Tensor._wrap(jnp.zeros(self._shape, self._values.dtype).at[self._indices].add(self._values))

    def __repr__(self) -> str:
        return (f"RowTensor(shape={list(self._shape)}, dtype={_dtype_name(self._values.dtype)}, "
                f"indices={_part_repr(self._indices)}, values={_part_repr(self._values)})")


def _rebuild(children: tuple[Any, Any], shape: tuple[int, ...], cls: type = RowTensor) -> RowTensor:
    # Unflattening also runs on tracers and placeholder leaves: set the fields without checks.
    obj = object.__new__(cls)
    obj._indices, obj._values = (_leaf(c) for c in children)
    obj._shape = shape
    return obj


jax.tree_util.register_pytree_node(
    RowTensor,
    lambda r: ((r._indices, r._values), r._shape),
    lambda shape, children: _rebuild(children, shape))


class _SparseBase:
    """What COOTensor and CSRTensor share: the values' properties and the dense shape."""

    _values: Any
    _shape: tuple[int, ...]

    @property
    def values(self) -> Tensor:
        """The stored values."""
        return Tensor._wrap(self._values)

    @property
    def shape(self) -> tuple[int, ...]:
        """The dense shape."""
        return self._shape

    @property
    def dtype(self) -> Any:
        """The values' dtype (a MindSpore type)."""
        from mindjax.common.dtype import to_ms_dtype
        return to_ms_dtype(self._values.dtype)

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


class RowTensorInner(RowTensor):
    """MindSpore's internal RowTensor (the one sparse gradients are built as, ``F.make_row_tensor_inner``):
    the same parts and checks as :class:`RowTensor`."""


jax.tree_util.register_pytree_node(
    RowTensorInner,
    lambda r: ((r._indices, r._values), r._shape),
    lambda shape, children: _rebuild(children, shape, RowTensorInner))


class COOTensor(_SparseBase):
    """A sparse tensor in coordinate format (MindSpore's ``COOTensor``): ``values[i]`` at ``indices[i]``.

    Arguments:
        indices: an int Tensor ``(N, ndim)``: the coordinates of the values.
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
            indices, values, shape = coo_tensor._indices, coo_tensor._values, coo_tensor.shape
        self._shape = _check_shape("COOTensor", shape)
        self._indices = _part(indices)
        self._values = _part(values)
        _check_int_part("COOTensor", "indices", self._indices)
        if self._indices.ndim != 2 or self._indices.shape[1] != len(self._shape):
            raise ValueError(f"For 'COOTensor', 'indices' must have shape (N, {len(self._shape)}), "
                             f"got {tuple(self._indices.shape)}")
        if self._values.ndim != 1 or self._values.shape[0] != self._indices.shape[0]:
            raise ValueError(f"For 'COOTensor', 'values' must have shape ({self._indices.shape[0]},), "
                             f"got {tuple(self._values.shape)}")

    @property
    def indices(self) -> Tensor:
        """The coordinates, ``(N, ndim)``."""
        return Tensor._wrap(self._indices)

    def to_dense(self) -> Tensor:
        """The dense Tensor: zeros with ``values`` added at ``indices`` (repeated coordinates add up)."""
        return Tensor._wrap(jnp.zeros(self._shape, self._values.dtype).at[tuple(self._indices.T)].add(self._values))

    def to_tuple(self) -> tuple[Tensor, Tensor, tuple[int, ...]]:
        """``(indices, values, shape)``."""
        return self.indices, self.values, self._shape

    def to_csr(self) -> "CSRTensor":
        """The same 2-D matrix in CSR format: entries ordered by row, keeping their order within a row.

        Raises:
            ValueError: the tensor is not 2-D.
        """
        if len(self._shape) != 2:
            raise ValueError(f"For 'COOTensor.to_csr', the tensor must be 2-D, got shape {self._shape}")
        rows = self._indices[:, 0].astype(jnp.int32)
        order = jnp.argsort(rows, stable=True)
        counts = jnp.zeros((self._shape[0],), jnp.int32).at[rows].add(1)
        indptr = jnp.concatenate([jnp.zeros((1,), jnp.int32), jnp.cumsum(counts, dtype=jnp.int32)])
        return _make_csr(indptr, self._indices[order, 1].astype(jnp.int32), self._values[order], self._shape)

    def coalesce(self) -> "COOTensor":
        """Repeated coordinates summed, entries sorted by coordinate (eager only: the count depends on the data)."""
        return _ops().coo_coalesce(self)

    def astype(self, dtype: Any) -> "COOTensor":
        """The same coordinates with the values cast to ``dtype``."""
        from mindjax.common.dtype import to_jax_dtype
        return _make_coo(self._indices, self._values.astype(to_jax_dtype(dtype)), self._shape)

    def abs(self) -> "COOTensor":
        """The same coordinates with the absolute values."""
        return _make_coo(self._indices, jnp.abs(self._values), self._shape)

    def add(self, other: "COOTensor", thresh: Any) -> "COOTensor":
        """``coo_add(self, other, thresh)``: the sum, without the entries whose magnitude is below ``thresh``."""
        return _ops().coo_add(self, other, thresh)

    def __neg__(self) -> "COOTensor":
        return _make_coo(self._indices, -self._values, self._shape)

    def __add__(self, other: Any) -> Any:
        if isinstance(other, COOTensor):
            return _ops().coo_add(self, other, jnp.zeros((), self._values.dtype))
        if isinstance(other, (Tensor, jax.Array)):
            return Tensor._wrap(as_array(self.to_dense()) + as_array(other))
        raise TypeError(f"COOTensor add with {type(other)} is not supported.")

    def __sub__(self, other: Any) -> Any:
        if isinstance(other, COOTensor):
            return self.__add__(-other)
        if isinstance(other, (Tensor, jax.Array)):
            return Tensor._wrap(as_array(self.to_dense()) - as_array(other))
        raise TypeError(f"COOTensor sub with {type(other)} is not supported.")

    def _at_indices(self, op: str, other: Any) -> jax.Array:
        if not isinstance(other, (Tensor, jax.Array)):
            raise TypeError(f"COOTensor {op} with {type(other)} is not supported.")
        dense = jnp.broadcast_to(as_array(other), self._shape)
        return dense[tuple(self._indices.T)]

    def __mul__(self, other: Any) -> "COOTensor":
        return _make_coo(self._indices, self._values * self._at_indices("mul", other), self._shape)

    def __truediv__(self, other: Any) -> "COOTensor":
        return _make_coo(self._indices, self._values / self._at_indices("div", other), self._shape)

    __div__ = __truediv__

    def __repr__(self) -> str:
        return (f"COOTensor(shape={list(self._shape)}, dtype={_dtype_name(self._values.dtype)}, "
                f"indices={_part_repr(self._indices)}, values={_part_repr(self._values)})")

    __str__ = __repr__


def _make_coo(indices: Any, values: Any, shape: tuple[int, ...]) -> COOTensor:
    obj = object.__new__(COOTensor)
    obj._indices, obj._values, obj._shape = _leaf(indices), _leaf(values), tuple(shape)
    return obj


jax.tree_util.register_pytree_node(COOTensor, lambda c: ((c._indices, c._values), c._shape),
                                   lambda shape, children: _make_coo(*children, shape))


class CSRTensor(_SparseBase):
    """A sparse matrix in compressed-row format (MindSpore's ``CSRTensor``).

    Row ``r`` stores ``values[indptr[r]:indptr[r+1]]`` at the columns
    ``indices[indptr[r]:indptr[r+1]]``. ``values`` may have trailing dimensions: then the
    tensor's shape is ``(rows, cols, *values.shape[1:])``.

    Arguments:
        indptr: a 1-D int Tensor of ``shape[0] + 1`` row offsets.
        indices: a 1-D int Tensor ``(N,)``: the column of each value.
        values: a Tensor ``(N, *shape[2:])``: the values.
        shape: a tuple of at least 2 positive ints: the dense shape.
        csr_tensor: another CSRTensor to copy (then the other arguments must be None).

    Raises:
        TypeError: ``csr_tensor`` with the parts, parts of the wrong type.
        ValueError: parts of inconsistent shapes.
    """

    def __init__(self, indptr: Any = None, indices: Any = None, values: Any = None, shape: Any = None,
                 csr_tensor: "CSRTensor | None" = None) -> None:
        if csr_tensor is not None:
            if not isinstance(csr_tensor, CSRTensor):
                raise TypeError(f"For 'CSRTensor', 'csr_tensor' must be a CSRTensor, got {type(csr_tensor).__name__}")
            if not (indptr is None and indices is None and values is None and shape is None):
                raise TypeError("For 'CSRTensor', when 'csr_tensor' is given, 'indptr', 'indices', 'values' and "
                                "'shape' must all be None")
            indptr, indices, values, shape = csr_tensor._indptr, csr_tensor._indices, csr_tensor._values, \
                csr_tensor.shape
        self._shape = _check_shape("CSRTensor", shape, min_rank=2)
        self._indptr, self._indices, self._values = _part(indptr), _part(indices), _part(values)
        _check_int_part("CSRTensor", "indptr", self._indptr)
        _check_int_part("CSRTensor", "indices", self._indices)
        if self._indptr.ndim != 1 or self._indptr.shape[0] != self._shape[0] + 1:
            raise ValueError(f"For 'CSRTensor', 'indptr' must have shape ({self._shape[0] + 1},) "
                             f"(1 + shape[0]), got {tuple(self._indptr.shape)}")
        if self._indices.ndim != 1:
            raise ValueError(f"For 'CSRTensor', 'indices' must be 1-D, got shape {tuple(self._indices.shape)}")
        expected = (self._indices.shape[0], *self._shape[2:])
        if tuple(self._values.shape) != expected:
            raise ValueError(f"For 'CSRTensor', 'values' must have shape (len(indices), *shape[2:]) = {expected}, "
                             f"got {tuple(self._values.shape)}")

    @property
    def indptr(self) -> Tensor:
        """The row offsets, ``(rows + 1,)``."""
        return Tensor._wrap(self._indptr)

    @property
    def indices(self) -> Tensor:
        """The column of each value, ``(N,)``."""
        return Tensor._wrap(self._indices)

    def _rows(self) -> jax.Array:
        """The row of each stored value (fixed length ``N``, so it traces)."""
        n = self._indices.shape[0]
        return (jnp.searchsorted(self._indptr, jnp.arange(n, dtype=self._indptr.dtype), side="right")
                - 1).astype(self._indices.dtype)

    def to_tuple(self) -> tuple[Tensor, Tensor, Tensor, tuple[int, ...]]:
        """``(indptr, indices, values, shape)``."""
        return self.indptr, self.indices, self.values, self._shape

    def to_coo(self) -> COOTensor:
        """The same matrix in COO format, row by row."""
        indices = jnp.stack([self._rows(), self._indices], axis=1)
        return _make_coo(indices, self._values, self._shape)

    def to_dense(self) -> Tensor:
        """The dense Tensor (repeated positions add up)."""
        dense = jnp.zeros(self._shape, self._values.dtype)
        return Tensor._wrap(dense.at[self._rows(), self._indices].add(self._values))

    def astype(self, dtype: Any) -> "CSRTensor":
        """The same structure with the values cast to ``dtype``."""
        from mindjax.common.dtype import to_jax_dtype
        return _make_csr(self._indptr, self._indices, self._values.astype(to_jax_dtype(dtype)), self._shape)

    def abs(self) -> "CSRTensor":
        """The same structure with the absolute values."""
        return _make_csr(self._indptr, self._indices, jnp.abs(self._values), self._shape)

    def mv(self, dense_vector: Any) -> Tensor:
        """``csr_mv(self, dense_vector)``: the product with a ``(cols, 1)`` column."""
        return _ops().csr_mv(self, dense_vector)

    def mm(self, matrix: Any) -> Any:
        """``csr_mm(self, matrix)``: the product with a dense matrix (a Tensor) or a CSRTensor (a CSRTensor)."""
        return _ops().csr_mm(self, matrix)

    def sum(self, axis: int) -> Tensor:
        """``csr_reduce_sum(self, axis)``: the row sums, ``(rows, 1)``."""
        return _ops().csr_reduce_sum(self, axis)

    def add(self, b: "CSRTensor", alpha: Any, beta: Any) -> "CSRTensor":
        """``csr_add(self, b, alpha, beta)``: ``alpha * self + beta * b``."""
        return _ops().csr_add(self, b, alpha, beta)

    def __neg__(self) -> "CSRTensor":
        return _make_csr(self._indptr, self._indices, -self._values, self._shape)

    def __add__(self, other: Any) -> "CSRTensor":
        if not isinstance(other, CSRTensor):
            raise TypeError(f"CSRTensor add with {type(other)} is not supported.")
        one = jnp.ones((), self._values.dtype)
        return _ops().csr_add(self, other, one, one)

    def __sub__(self, other: Any) -> "CSRTensor":
        if not isinstance(other, CSRTensor):
            raise TypeError(f"CSRTensor sub with {type(other)} is not supported.")
        one = jnp.ones((), self._values.dtype)
        return _ops().csr_add(self, other, one, -one)

    def __mul__(self, other: Any) -> "CSRTensor":
        return _ops().csr_mul(self, other)

    def __truediv__(self, other: Any) -> "CSRTensor":
        return _ops().csr_div(self, other)

    __div__ = __truediv__

    def __repr__(self) -> str:
        return (f"CSRTensor(shape={list(self._shape)}, dtype={_dtype_name(self._values.dtype)}, "
                f"indptr={_part_repr(self._indptr)}, indices={_part_repr(self._indices)}, "
                f"values={_part_repr(self._values)})")

    __str__ = __repr__


def _make_csr(indptr: Any, indices: Any, values: Any, shape: tuple[int, ...]) -> CSRTensor:
    obj = object.__new__(CSRTensor)
    obj._indptr, obj._indices, obj._values, obj._shape = _leaf(indptr), _leaf(indices), _leaf(values), tuple(shape)
    return obj


jax.tree_util.register_pytree_node(CSRTensor, lambda c: ((c._indptr, c._indices, c._values), c._shape),
                                   lambda shape, children: _make_csr(*children, shape))
