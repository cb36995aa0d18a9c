"""MindSpore's ``mindspore.ops.function.sparse_func``: COOTensor, CSRTensor and RowTensor ops.

The sparse tensors (:mod:`mindjax.common.sparse_tensor`) are pytrees of arrays, so the ops
whose result keeps the number of stored values (``csr_mul``, ``csr_mm`` with a dense
matrix, ``csr_softmax``, ``coo_concat``, the conversions ...) trace under ``jit``, and their
gradients reach the values. The ops whose number of values depends on the data
(``coo_add``, ``csr_add``, ``csr_mm`` of two CSRTensors, ``coalesce``, ``dense_to_sparse_*``)
work out the sparsity pattern from concrete indices (and, for ``dense_to_sparse_*`` and a
positive ``coo_add`` threshold, concrete values); the values themselves are still computed
with JAX, so gradients reach them in PYNATIVE mode. Under a trace they raise an error that
says so.

Example:
    >>> import mindjax as ms
    >>> from mindjax import ops
    >>> csr = ms.CSRTensor(ms.Tensor([0, 1, 2]), ms.Tensor([0, 1]), ms.Tensor([1.0, 2.0]), (2, 3))
    >>> ops.csr_mv(csr, ms.Tensor([[1.0], [1.0], [1.0]])).asnumpy().tolist()
    [[1.0], [2.0]]
"""
from __future__ import annotations

from typing import Any, Sequence

import jax
import jax.numpy as jnp
import numpy as np

from mindjax.common.dtype import to_jax_dtype
from mindjax.common.sparse_tensor import COOTensor, CSRTensor, RowTensor, RowTensorInner
from mindjax.common.tensor import Tensor, as_array, tensor_op
from mindjax.ops.function._build import _named

__all__ = [
    "coalesce", "coo2csr", "coo_add", "coo_concat", "coo_tensor_get_dense_shape", "coo_tensor_get_indices",
    "coo_tensor_get_values", "csr2coo", "csr_add", "csr_div", "csr_gather", "csr_mm", "csr_mul", "csr_mv",
    "csr_reduce_sum", "csr_softmax", "csr_tensor_get_dense_shape", "csr_tensor_get_indices",
    "csr_tensor_get_indptr", "csr_tensor_get_values", "csr_to_coo", "csr_to_dense", "dense_to_sparse_coo",
    "dense_to_sparse_csr", "make_coo_tensor", "make_csr_tensor", "make_row_tensor", "make_row_tensor_inner",
    "make_sparse_tensor", "row_tensor_add", "row_tensor_get_dense_shape", "row_tensor_get_indices",
    "row_tensor_get_values",
]


# --- argument checks ---------------------------------------------------------------------------

def _expect(name: str, x: Any, cls: type) -> Any:
    if not isinstance(x, cls):
        raise TypeError(f"'{name}' must be a {cls.__name__}, got {type(x).__name__}")
    return x


def _concrete(op_reason: str, *arrays: Any) -> list[np.ndarray]:
    """The arrays' values, for ops whose result size depends on them; an error under a trace."""
    for a in arrays:
        if isinstance(a, jax.core.Tracer):
            raise ValueError(f"the number of values of the result depends on {op_reason}, so they must be "
                             f"concrete: this op runs in PYNATIVE mode only, not under jit/GRAPH mode")
    return [np.asarray(a) for a in arrays]


def _dense_operand(name: str, y: Any, shape: tuple[int, ...]) -> jax.Array:
    if isinstance(y, (COOTensor, CSRTensor, RowTensor)):
        raise TypeError(f"'{name}' must be a dense Tensor, got {type(y).__name__}")
    arr = as_array(y)
    try:
        return jnp.broadcast_to(arr, shape)
    except ValueError:
        raise ValueError(f"'{name}' must broadcast to the sparse tensor's shape {shape}, "
                         f"got shape {tuple(arr.shape)}") from None


def _to_shape(name: str, shape: Any) -> tuple[int, ...]:
    if isinstance(shape, (Tensor, jax.Array, np.ndarray)):
        (arr,) = _concrete(f"'{name}'", as_array(shape))
        return tuple(int(d) for d in arr.reshape(-1))
    if not isinstance(shape, (tuple, list)):
        raise TypeError(f"'{name}' must be a tuple of ints, got {type(shape).__name__}")
    return tuple(int(d) for d in shape)


# --- constructors and parts ----------------------------------------------------------------------

@tensor_op
@_named("make_coo_tensor")
def make_coo_tensor(indices: Any, values: Any, dense_shape: Any) -> COOTensor:
    """A COOTensor of ``values`` at ``indices`` (``(N, ndim)``) in a tensor of shape ``dense_shape``."""
    return COOTensor(indices, values, _to_shape("dense_shape", dense_shape))


@tensor_op
@_named("make_sparse_tensor")
def make_sparse_tensor(indices: Any, values: Any, dense_shape: Any) -> COOTensor:
    """The older name of :func:`make_coo_tensor`."""
    return COOTensor(indices, values, _to_shape("dense_shape", dense_shape))


@tensor_op
@_named("make_csr_tensor")
def make_csr_tensor(indptr: Any, indices: Any, values: Any, dense_shape: Any) -> CSRTensor:
    """A CSRTensor from its row offsets, column indices and values."""
    return CSRTensor(indptr, indices, values, _to_shape("dense_shape", dense_shape))


@tensor_op
@_named("make_row_tensor")
def make_row_tensor(indices: Any, values: Any, dense_shape: Any) -> RowTensor:
    """A RowTensor: the rows ``values`` at ``indices`` of a tensor of shape ``dense_shape``."""
    return RowTensor(indices, values, _to_shape("dense_shape", dense_shape))


@tensor_op
@_named("make_row_tensor_inner")
def make_row_tensor_inner(indices: Any, values: Any, dense_shape: Any) -> RowTensorInner:
    """The Primitive form of :func:`make_row_tensor`."""
    return RowTensorInner(indices, values, _to_shape("dense_shape", dense_shape))


def _getter(name: str, cls: type, part: str, doc: str) -> Any:
    @tensor_op
    @_named(name)
    def get(x: Any) -> Any:
        value = getattr(_expect("x", x, cls), part)
        return as_array(value) if isinstance(value, Tensor) else value

    get.__name__ = get.__qualname__ = name
    get.__doc__ = f"{doc}\n\n    Arguments:\n        x: a {cls.__name__}.\n"
    get.__module__ = __name__
    return get


coo_tensor_get_indices = _getter("coo_tensor_get_indices", COOTensor, "indices", "A COOTensor's indices.")
coo_tensor_get_values = _getter("coo_tensor_get_values", COOTensor, "values", "A COOTensor's values.")
coo_tensor_get_dense_shape = _getter("coo_tensor_get_dense_shape", COOTensor, "shape", "A COOTensor's dense shape.")
csr_tensor_get_indptr = _getter("csr_tensor_get_indptr", CSRTensor, "indptr", "A CSRTensor's row offsets.")
csr_tensor_get_indices = _getter("csr_tensor_get_indices", CSRTensor, "indices", "A CSRTensor's column indices.")
csr_tensor_get_values = _getter("csr_tensor_get_values", CSRTensor, "values", "A CSRTensor's values.")
csr_tensor_get_dense_shape = _getter("csr_tensor_get_dense_shape", CSRTensor, "shape", "A CSRTensor's dense shape.")
row_tensor_get_indices = _getter("row_tensor_get_indices", RowTensor, "indices", "A RowTensor's row indices.")
row_tensor_get_values = _getter("row_tensor_get_values", RowTensor, "values", "A RowTensor's rows.")
row_tensor_get_dense_shape = _getter("row_tensor_get_dense_shape", RowTensor, "dense_shape",
                                     "A RowTensor's dense shape.")


@tensor_op
@_named("row_tensor_add")
def row_tensor_add(x: RowTensor, y: Any) -> RowTensor:
    """``x`` plus the dense tensor ``y`` (of ``x.dense_shape``), as a RowTensor.

    The result holds ``x``'s rows and then every row of ``y``, so its ``to_dense()`` is
    ``x.to_dense() + y`` and its size is static (it traces under ``jit``).

    Raises:
        TypeError: ``x`` not a RowTensor. ValueError: ``y`` not of ``x.dense_shape``.
    """
    _expect("x", x, RowTensor)
    dense = as_array(y)
    if tuple(dense.shape) != x.dense_shape:
        raise ValueError(f"'y' must have the RowTensor's dense shape {x.dense_shape}, got {tuple(dense.shape)}")
    idx = as_array(x.indices)
    rows = jnp.arange(x.dense_shape[0], dtype=idx.dtype)
    values = as_array(x.values)
    dtype = jnp.result_type(values, dense)
    return RowTensor(jnp.concatenate([idx, rows]), jnp.concatenate([values.astype(dtype), dense.astype(dtype)]),
                     x.dense_shape)


# --- conversions -------------------------------------------------------------------------------------

@tensor_op
@_named("coo2csr")
def coo2csr(row_indices: Any, height: int) -> jax.Array:
    """The CSR row offsets (``height + 1``, int32) of sorted COO row indices.

    Arguments:
        row_indices: 1-D int Tensor, the row of each value. height: the number of rows.
    """
    rows = as_array(row_indices)
    if rows.ndim != 1 or not jnp.issubdtype(rows.dtype, jnp.integer):
        raise ValueError(f"'row_indices' must be a 1-D int Tensor, got {rows.dtype} of shape {tuple(rows.shape)}")
    height = int(height)
    counts = jnp.zeros((height,), jnp.int32).at[rows].add(1, mode="drop")
    return jnp.concatenate([jnp.zeros((1,), jnp.int32), jnp.cumsum(counts, dtype=jnp.int32)]).astype(rows.dtype)


@tensor_op
@_named("csr2coo")
def csr2coo(indptr: Any, nnz: int) -> jax.Array:
    """The row of each of the ``nnz`` values given CSR row offsets ``indptr``."""
    ptr = as_array(indptr)
    if ptr.ndim != 1 or not jnp.issubdtype(ptr.dtype, jnp.integer):
        raise ValueError(f"'indptr' must be a 1-D int Tensor, got {ptr.dtype} of shape {tuple(ptr.shape)}")
    n = int(nnz)
    return (jnp.searchsorted(ptr, jnp.arange(n, dtype=ptr.dtype), side="right") - 1).astype(ptr.dtype)


@tensor_op
@_named("csr_to_coo")
def csr_to_coo(tensor: CSRTensor) -> COOTensor:
    """The COOTensor of a 2-D CSRTensor."""
    return _expect("tensor", tensor, CSRTensor).to_coo()


@tensor_op
@_named("csr_to_dense")
def csr_to_dense(csr_tensor: CSRTensor) -> jax.Array:
    """The dense Tensor of a CSRTensor."""
    return as_array(_expect("csr_tensor", csr_tensor, CSRTensor).to_dense())


def _dense_2d(tensor: Any) -> np.ndarray:
    arr = as_array(tensor)
    if arr.ndim != 2:
        raise ValueError(f"'tensor' must be 2-D, got shape {tuple(arr.shape)}")
    (concrete,) = _concrete("the values of 'tensor'", arr)
    return concrete


@tensor_op
@_named("dense_to_sparse_coo")
def dense_to_sparse_coo(tensor: Any) -> COOTensor:
    """The COOTensor of a 2-D Tensor's nonzero entries, in row-major order (int32 indices; PYNATIVE only)."""
    arr = as_array(tensor)
    rows, cols = np.nonzero(_dense_2d(tensor))
    indices = jnp.asarray(np.stack([rows, cols], axis=1).astype(np.int32))
    return COOTensor(indices, arr[rows, cols], tuple(arr.shape))


@tensor_op
@_named("dense_to_sparse_csr")
def dense_to_sparse_csr(tensor: Any) -> CSRTensor:
    """The CSRTensor of a 2-D Tensor's nonzero entries (int32 indptr and indices; PYNATIVE only)."""
    arr = as_array(tensor)
    concrete = _dense_2d(tensor)
    rows, cols = np.nonzero(concrete)
    indptr = np.concatenate([[0], np.cumsum((concrete != 0).sum(axis=1))]).astype(np.int32)
    return CSRTensor(jnp.asarray(indptr), jnp.asarray(cols.astype(np.int32)), arr[rows, cols], tuple(arr.shape))


# --- COO algebra ---------------------------------------------------------------------------------------

def _lex_order(indices: Any) -> Any:
    """The stable row-major order of coordinate rows (traces)."""
    return jnp.lexsort(tuple(indices[:, d] for d in reversed(range(indices.shape[1]))))


def _unique_coords(indices: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The distinct coordinate rows in row-major order, and each input row's position among them."""
    if indices.shape[0] == 0:
        return indices.reshape(0, indices.shape[1]), np.zeros((0,), np.int64)
    unique, inverse = np.unique(indices, axis=0, return_inverse=True)
    return unique, inverse.reshape(-1)


@tensor_op
@_named("coalesce")
def coalesce(x_indices: Any, x_values: Any, x_shape: Any) -> tuple[jax.Array, jax.Array, jax.Array]:
    """Sum the values at repeated coordinates, and sort the coordinates (row-major).

    Arguments:
        x_indices: int64 ``(ndim, N)``: the coordinates, one column each.
        x_values: ``(N,)``. x_shape: int64 ``(ndim,)``: the dense shape.

    Returns:
        ``(y_indices (ndim, M), y_values (M,), y_shape)``. PYNATIVE only (``M`` depends on the indices).
    """
    idx, values, shape = as_array(x_indices), as_array(x_values), as_array(x_shape)
    if idx.ndim != 2:
        raise ValueError(f"'x_indices' must be 2-D (ndim, N), got shape {tuple(idx.shape)}")
    if values.ndim != 1 or values.shape[0] != idx.shape[1]:
        raise ValueError(f"'x_values' must have shape ({idx.shape[1]},) (x_indices.shape[1]), "
                         f"got {tuple(values.shape)}")
    if shape.ndim != 1 or shape.shape[0] != idx.shape[0]:
        raise ValueError(f"'x_shape' must have shape ({idx.shape[0]},) (x_indices.shape[0]), "
                         f"got {tuple(shape.shape)}")
    (concrete,) = _concrete("'x_indices'", idx)
    unique, inverse = _unique_coords(concrete.T)
    summed = jax.ops.segment_sum(values, jnp.asarray(inverse), num_segments=unique.shape[0])
    return jnp.asarray(unique.T.astype(concrete.dtype)), summed, shape


def _coo_coalesce(x: COOTensor) -> COOTensor:
    idx, values = as_array(x.indices), as_array(x.values)
    (concrete,) = _concrete("the indices", idx)
    unique, inverse = _unique_coords(concrete)
    summed = jax.ops.segment_sum(values, jnp.asarray(inverse), num_segments=unique.shape[0])
    return COOTensor(jnp.asarray(unique.astype(concrete.dtype)), summed, x.shape)


@tensor_op
@_named("COOTensor.coalesce")
def coo_coalesce(x: COOTensor) -> COOTensor:
    """``x`` with repeated coordinates summed and sorted row-major (``COOTensor.coalesce``; PYNATIVE only)."""
    return _coo_coalesce(_expect("x", x, COOTensor))


@tensor_op
@_named("coo_add")
def coo_add(x1: COOTensor, x2: COOTensor, thresh: Any) -> COOTensor:
    """The sum of two COOTensors of one shape, without the entries whose magnitude is below ``thresh``.

    The result's coordinates are the union of both, in row-major order; values at a shared
    coordinate add up. PYNATIVE only (the number of values depends on the indices and, for a
    positive ``thresh``, on the values).

    Raises:
        TypeError: an input not a COOTensor. ValueError: the shapes differ.
    """
    _expect("x1", x1, COOTensor)
    _expect("x2", x2, COOTensor)
    if x1.shape != x2.shape:
        raise ValueError(f"'x1' and 'x2' must have the same shape, got {x1.shape} and {x2.shape}")
    i1, i2 = as_array(x1.indices), as_array(x2.indices)
    v1, v2 = as_array(x1.values), as_array(x2.values)
    dtype = jnp.result_type(v1, v2)
    merged = COOTensor(jnp.concatenate([i1, i2.astype(i1.dtype)]), jnp.concatenate([v1, v2]).astype(dtype),
                       x1.shape)
    total = _coo_coalesce(merged)
    limit = as_array(thresh)
    if limit.ndim != 0:
        raise ValueError(f"'thresh' must be a scalar, got shape {tuple(limit.shape)}")
    values = as_array(total.values)
    if not isinstance(limit, jax.core.Tracer) and float(np.asarray(limit)) <= 0:
        return total  # no magnitude is below a threshold <= 0: nothing depends on the values
    lim, vals = _concrete("'thresh' and the summed values", limit, values)
    keep = np.nonzero(np.abs(vals) >= lim)[0]
    return COOTensor(as_array(total.indices)[keep], values[keep], x1.shape)


@tensor_op
@_named("coo_concat")
def coo_concat(sp_input: Sequence[Any], concat_dim: int = 0) -> COOTensor:
    """Concatenate COOTensors (or ``(indices, values, shape)`` tuples) along ``concat_dim``.

    The result's coordinates are in row-major order (the inputs' order kept among equals).
    Its number of values is the inputs' total, so it traces under ``jit``.

    Raises:
        ValueError: fewer than 2 inputs, ranks or other dimensions that differ, ``concat_dim``
        out of range.
    """
    if not isinstance(sp_input, (tuple, list)) or len(sp_input) < 2:
        raise ValueError(f"'sp_input' must be a list or tuple of at least 2 COOTensors, got {sp_input!r}")
    parts = []
    for k, item in enumerate(sp_input):
        if isinstance(item, tuple) and len(item) == 3:
            item = COOTensor(item[0], item[1], tuple(item[2]))
        parts.append(_expect(f"sp_input[{k}]", item, COOTensor))
    rank = parts[0].ndim
    if isinstance(concat_dim, bool) or not isinstance(concat_dim, (int, np.integer)) or not -rank <= concat_dim < rank:
        raise ValueError(f"'concat_dim' must be an int in [{-rank}, {rank}), got {concat_dim!r}")
    dim = int(concat_dim) % rank
    offset, indices, values = 0, [], []
    out_shape = list(parts[0].shape)
    idx_dtype = jnp.result_type(*[as_array(p.indices) for p in parts])
    for k, p in enumerate(parts):
        if p.ndim != rank or any(a != b for d, (a, b) in enumerate(zip(p.shape, parts[0].shape)) if d != dim):
            raise ValueError(f"'sp_input[{k}]' must have shape {tuple(parts[0].shape)} outside dimension {dim}, "
                             f"got {p.shape}")
        idx = as_array(p.indices).astype(idx_dtype)
        indices.append(idx.at[:, dim].add(offset))
        values.append(as_array(p.values))
        offset += p.shape[dim]
    out_shape[dim] = offset
    idx, vals = jnp.concatenate(indices), jnp.concatenate(values)
    order = _lex_order(idx)
    return COOTensor(idx[order], vals[order], tuple(out_shape))


# --- CSR algebra --------------------------------------------------------------------------------------

def _csr(name: str, x: Any) -> CSRTensor:
    return _expect(name, x, CSRTensor)


def _rows_cols(x: CSRTensor) -> tuple[jax.Array, jax.Array]:
    coo = x.to_coo()
    idx = as_array(coo.indices)
    return idx[:, 0], idx[:, 1]


def _with_values(x: CSRTensor, values: Any) -> CSRTensor:
    return CSRTensor(as_array(x.indptr), as_array(x.indices), values, x.shape)


def _at_entries(name: str, x: CSRTensor, y: Any) -> jax.Array:
    rows, cols = _rows_cols(x)
    return _dense_operand(name, y, x.shape)[rows, cols]


@tensor_op
@_named("csr_mul")
def csr_mul(x: CSRTensor, y: Any) -> CSRTensor:
    """``x`` times the dense ``y`` (broadcast to ``x.shape``) at ``x``'s entries: a CSRTensor of ``x``'s structure."""
    _csr("x", x)
    return _with_values(x, as_array(x.values) * _at_entries("y", x, y))


@tensor_op
@_named("csr_div")
def csr_div(x: CSRTensor, y: Any) -> CSRTensor:
    """``x`` divided by the dense ``y`` (broadcast to ``x.shape``) at ``x``'s entries: a CSRTensor."""
    _csr("x", x)
    return _with_values(x, as_array(x.values) / _at_entries("y", x, y))


@tensor_op
@_named("csr_gather")
def csr_gather(indptr: Any, indices: Any, dense: Any, sparse_shape: Any) -> jax.Array:
    """The entries of ``dense`` at the positions of a CSR structure: the values of a CSRTensor.

    Arguments:
        indptr, indices: the CSR structure. dense: a Tensor whose first two dimensions are
        ``sparse_shape``. sparse_shape: ``(rows, cols)``.

    Returns:
        ``(N, *dense.shape[2:])``.
    """
    shape = _to_shape("sparse_shape", sparse_shape)
    arr = as_array(dense)
    if len(shape) != 2 or tuple(arr.shape[:2]) != shape:
        raise ValueError(f"'dense' must start with the dimensions 'sparse_shape' = {shape}, "
                         f"got shape {tuple(arr.shape)}")
    ptr, cols = as_array(indptr), as_array(indices)
    if ptr.ndim != 1 or ptr.shape[0] != shape[0] + 1:
        raise ValueError(f"'indptr' must have shape ({shape[0] + 1},), got {tuple(ptr.shape)}")
    rows = csr2coo(ptr, cols.shape[0])
    return arr[rows, cols]


@tensor_op
@_named("csr_mv")
def csr_mv(csr_tensor: CSRTensor, dense: Any) -> jax.Array:
    """A 2-D CSRTensor ``(M, N)`` times a dense column ``(N, 1)``: ``(M, 1)``.

    Raises:
        ValueError: not 2-D, or ``dense`` not of shape ``(N, 1)``.
    """
    x = _csr("csr_tensor", csr_tensor)
    vec = as_array(dense)
    if x.ndim != 2 or vec.ndim != 2:
        raise ValueError(f"only 2-D inputs are supported, got a {x.ndim}-D CSRTensor and a {vec.ndim}-D 'dense'")
    if tuple(vec.shape) != (x.shape[1], 1):
        raise ValueError(f"'dense' must have shape ({x.shape[1]}, 1), got {tuple(vec.shape)}")
    return _csr_dense_product(x, vec)


def _csr_dense_product(x: CSRTensor, mat: jax.Array) -> jax.Array:
    rows, cols = _rows_cols(x)
    values = as_array(x.values)
    dtype = jnp.result_type(values, mat)
    products = values[:, None].astype(dtype) * mat[cols].astype(dtype)
    return jnp.zeros((x.shape[0], mat.shape[1]), dtype).at[rows].add(products)


def _triples(x: CSRTensor, transpose: bool, conj: bool) -> tuple[Any, Any, Any, tuple[int, int]]:
    rows, cols = _rows_cols(x)
    values = as_array(x.values)
    shape = (x.shape[0], x.shape[1])
    if transpose:
        rows, cols, shape = cols, rows, (shape[1], shape[0])
    if conj:
        values = jnp.conj(values)
    return rows, cols, values, shape


@tensor_op
@_named("csr_mm")
def csr_mm(a: CSRTensor, b: Any, trans_a: bool = False, trans_b: bool = False, adjoint_a: bool = False,
           adjoint_b: bool = False) -> Any:
    """The matrix product ``op(a) @ op(b)`` of a 2-D CSRTensor and a CSRTensor or a dense matrix.

    ``op`` transposes with ``trans_*``, and conjugate-transposes with ``adjoint_*``. With a
    CSRTensor ``b`` the result is a CSRTensor holding each position that some pair of stored
    entries reaches (PYNATIVE only: that count depends on the indices); with a dense ``b``
    (MindJAX also takes one, as ``CSRTensor.mm`` does) it is a dense Tensor, and traces.

    Raises:
        TypeError: ``a`` not a CSRTensor, a flag not a bool. ValueError: the inner dimensions differ.
    """
    _csr("a", a)
    flags = {"trans_a": trans_a, "trans_b": trans_b, "adjoint_a": adjoint_a, "adjoint_b": adjoint_b}
    for name, flag in flags.items():
        if not isinstance(flag, (bool, np.bool_)):
            raise TypeError(f"'{name}' must be a bool, got {type(flag).__name__}")
    if a.ndim != 2:
        raise ValueError(f"'a' must be a 2-D CSRTensor, got shape {a.shape}")
    ra, ca, va, shape_a = _triples(a, bool(trans_a or adjoint_a), bool(adjoint_a))
    if isinstance(b, CSRTensor):
        if b.ndim != 2:
            raise ValueError(f"'b' must be a 2-D CSRTensor, got shape {b.shape}")
        rb, cb, vb, shape_b = _triples(b, bool(trans_b or adjoint_b), bool(adjoint_b))
        if shape_a[1] != shape_b[0]:
            raise ValueError(f"op(a) is {shape_a[0]}x{shape_a[1]} and op(b) is {shape_b[0]}x{shape_b[1]}: "
                             f"the inner dimensions must agree")
        return _csr_csr_product(ra, ca, va, rb, cb, vb, (shape_a[0], shape_b[1]))
    if isinstance(b, (COOTensor, RowTensor)):
        raise TypeError(f"'b' must be a CSRTensor or a dense Tensor, got {type(b).__name__}")
    mat = as_array(b)
    if mat.ndim != 2:
        raise ValueError(f"'b' must be 2-D, got shape {tuple(mat.shape)}")
    if trans_b or adjoint_b:
        mat = mat.T
    if adjoint_b:
        mat = jnp.conj(mat)
    if mat.shape[0] != shape_a[1]:
        raise ValueError(f"op(a) is {shape_a[0]}x{shape_a[1]} and op(b) is {mat.shape[0]}x{mat.shape[1]}: "
                         f"the inner dimensions must agree")
    dtype = jnp.result_type(va, mat)
    products = va[:, None].astype(dtype) * mat[ca].astype(dtype)
    return jnp.zeros((shape_a[0], mat.shape[1]), dtype).at[ra].add(products)


def _csr_from_entries(positions: Any, values: Any, n_out: int, shape: tuple[int, ...],
                      unique: np.ndarray) -> CSRTensor:
    """A CSRTensor on the sorted distinct ``unique`` (row, col) pairs, summing ``values`` by ``positions``."""
    summed = jax.ops.segment_sum(values, positions, num_segments=n_out)
    out_rows = unique[:, 0]
    indptr = np.concatenate([[0], np.cumsum(np.bincount(out_rows, minlength=shape[0]))]).astype(np.int32)
    return CSRTensor(jnp.asarray(indptr), jnp.asarray(unique[:, 1].astype(np.int32)), summed, shape)


def _csr_csr_product(ra: Any, ca: Any, va: Any, rb: Any, cb: Any, vb: Any, shape: tuple[int, int]) -> CSRTensor:
    ra_n, ca_n, rb_n, cb_n = _concrete("the indices of 'a' and 'b'", ra, ca, rb, cb)
    # Each stored a[i, k] meets each stored b[k, j]: enumerate those pairs from the concrete structure.
    order_b = np.argsort(rb_n, kind="stable")
    starts = np.searchsorted(rb_n[order_b], ca_n, side="left")
    ends = np.searchsorted(rb_n[order_b], ca_n, side="right")
    counts = ends - starts
    pa = np.repeat(np.arange(ca_n.shape[0]), counts)
    pb = order_b[np.concatenate([np.arange(s, e) for s, e in zip(starts, ends)]).astype(np.int64)] \
        if counts.sum() else np.zeros((0,), np.int64)
    coords = np.stack([ra_n[pa], cb_n[pb]], axis=1).astype(np.int64)
    unique, inverse = _unique_coords(coords)
    dtype = jnp.result_type(va, vb)
    products = va[jnp.asarray(pa)].astype(dtype) * vb[jnp.asarray(pb)].astype(dtype)
    return _csr_from_entries(jnp.asarray(inverse), products, unique.shape[0], shape, unique)


@tensor_op
@_named("csr_add")
def csr_add(a: CSRTensor, b: CSRTensor, alpha: Any, beta: Any) -> CSRTensor:
    """``alpha * a + beta * b`` for two CSRTensors of one shape: a CSRTensor on the union of their entries.

    Columns are sorted within each row. PYNATIVE only (the number of values depends on the indices).

    Raises:
        TypeError: an input not a CSRTensor. ValueError: the shapes differ.
    """
    _csr("a", a)
    _csr("b", b)
    if a.shape != b.shape:
        raise ValueError(f"'a' and 'b' must have the same shape, got {a.shape} and {b.shape}")
    ra, ca = _rows_cols(a)
    rb, cb = _rows_cols(b)
    ra_n, ca_n, rb_n, cb_n = _concrete("the indices of 'a' and 'b'", ra, ca, rb, cb)
    coords = np.concatenate([np.stack([ra_n, ca_n], 1), np.stack([rb_n, cb_n], 1)]).astype(np.int64)
    unique, inverse = _unique_coords(coords)
    va, vb = as_array(a.values), as_array(b.values)
    dtype = jnp.result_type(va, vb)
    scaled = jnp.concatenate([(as_array(alpha) * va).astype(dtype), (as_array(beta) * vb).astype(dtype)])
    return _csr_from_entries(jnp.asarray(inverse), scaled, unique.shape[0], a.shape, unique)


@tensor_op
@_named("csr_reduce_sum")
def csr_reduce_sum(csr_tensor: CSRTensor, axis: int) -> jax.Array:
    """The row sums of a CSRTensor, keeping the reduced axis: ``(rows, 1, *shape[2:])``.

    Arguments:
        csr_tensor: the CSRTensor. axis: 1 (or ``1 - ndim``): MindSpore sums along the columns only.
    """
    x = _csr("csr_tensor", csr_tensor)
    if isinstance(axis, bool) or not isinstance(axis, (int, np.integer)) or axis not in (1, 1 - x.ndim):
        raise ValueError(f"'axis' must be 1 or {1 - x.ndim} (1 - ndim), got {axis!r}")
    rows, _ = _rows_cols(x)
    values = as_array(x.values)
    sums = jax.ops.segment_sum(values, rows, num_segments=x.shape[0])
    return jnp.expand_dims(sums, 1)


@tensor_op
@_named("csr_softmax")
def csr_softmax(logits: CSRTensor, dtype: Any) -> CSRTensor:
    """The softmax of each row's stored values (the absent entries count as minus infinity).

    Arguments:
        logits: a 2-D CSRTensor. dtype: the result's dtype (``float32`` or ``float64``).
    """
    x = _csr("logits", logits)
    if x.ndim != 2:
        raise ValueError(f"'logits' must be a 2-D CSRTensor, got shape {x.shape}")
    target = to_jax_dtype(dtype)
    if not jnp.issubdtype(target, jnp.floating):
        raise TypeError(f"'dtype' must be a float type, got {dtype}")
    rows, _ = _rows_cols(x)
    values = as_array(x.values).astype(target)
    top = jax.ops.segment_max(values, rows, num_segments=x.shape[0])
    shifted = jnp.exp(values - jax.lax.stop_gradient(top)[rows])
    total = jax.ops.segment_sum(shifted, rows, num_segments=x.shape[0])
    return _with_values(x, shifted / total[rows])
