"""MindSpore's ``mindspore.ops.operations.array_ops``: shape, indexing and scatter Primitives.

The Primitives MindJAX had before this module (``Reshape``, ``Gather``, ``Concat`` ...) are
re-exported from ``mindjax.ops.primitives*``; the rest are defined here over the functional
ops of ``mindjax.ops.function``, with MindSpore's constructor arguments and call signatures.

Example:
    >>> import numpy as np
    >>> from mindjax.ops import operations as P
    >>> [t.shape for t in P.Unstack(axis=0)(np.zeros((2, 3)))]
    [(3,), (3,)]
"""
from __future__ import annotations

from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from mindjax.common.dtype import to_jax_dtype
from mindjax.common.tensor import Tensor, as_array
from mindjax.ops import functional as F
from mindjax.ops.function import array_func as A
from mindjax.ops.functional_array import _eager
from mindjax.ops.operations._base import Primitive, check_bool, check_int, op_primitive, record
# Existing Primitives of this family, re-exported under MindSpore's module path.
from mindjax.ops.primitives import (  # noqa: F401
    Argmax, ArgMaxWithValue, Cast, Concat, DType, ExpandDims, Fill, Gather, GatherV2, Identity, Ones, OnesLike,
    Rank, Reshape, Select, Shape, Size, Split, Squeeze, Stack, Tile, Transpose, Zeros, ZerosLike,
)
from mindjax.ops.primitives_extra import (  # noqa: F401
    CumSum, GatherD, ScatterNdUpdate, Slice, Sort, StridedSlice, TensorScatterUpdate, TopK,
)

_M = __name__
_SCATTER = ("input_x", "indices", "updates")

_SIMPLE = [
    ("GatherNd", F.gather_nd, ("input_x", "indices"), "Gather slices at N-D indices"),
    ("ScatterNd", lambda indices, updates, shape: F.scatter_nd(indices, updates, shape),
     ("indices", "updates", "shape"), "Scatter ``updates`` into zeros of ``shape`` at N-D indices"),
    ("MaskedFill", F.masked_fill, ("input_x", "mask", "value"), "``value`` where ``mask`` is true"),
    ("MaskedSelect", F.masked_select, ("input", "mask"), "The elements where ``mask`` is true (1-D)"),
    ("NonZero", lambda input: A.argwhere(input), ("input",), "Coordinates of the non-zero elements"),
    ("Eye", lambda n, m, dtype: F.eye(n, m, dtype), ("n", "m", "dtype"), "Identity matrix"),
    ("Diag", F.diag, ("input",), "Diagonal matrix from a vector (and higher-rank analogue)"),
    ("DiagPart", lambda input: _diag_part(input), ("input",), "The diagonal of a ``diag`` result"),
    ("MatrixBandPart", A.matrix_band_part, ("x", "lower", "upper"), "Zero outside the band"),
    ("UnsortedSegmentSum", A.unsorted_segment_sum, ("input_x", "segment_ids", "num_segments"), "Segment sums"),
    ("UnsortedSegmentMax", A.unsorted_segment_max, ("x", "segment_ids", "num_segments"), "Segment maxima"),
    ("UnsortedSegmentMin", A.unsorted_segment_min, ("x", "segment_ids", "num_segments"), "Segment minima"),
    ("UnsortedSegmentProd", A.unsorted_segment_prod, ("x", "segment_ids", "num_segments"), "Segment products"),
    ("TensorScatterAdd", A.tensor_scatter_add, _SCATTER, "Scatter-add at N-D indices"),
    ("TensorScatterSub", A.tensor_scatter_sub, _SCATTER, "Scatter-subtract at N-D indices"),
    ("TensorScatterMul", A.tensor_scatter_mul, _SCATTER, "Scatter-multiply at N-D indices"),
    ("TensorScatterDiv", A.tensor_scatter_div, _SCATTER, "Scatter-divide at N-D indices"),
    ("TensorScatterMax", A.tensor_scatter_max, _SCATTER, "Scatter-maximum at N-D indices"),
    ("TensorScatterMin", A.tensor_scatter_min, _SCATTER, "Scatter-minimum at N-D indices"),
    ("UniqueWithPad", A.unique_with_pad, ("x", "pad_num"), "Unique values padded to the input's length"),
    ("IndexFill", lambda x, dim, index, value: A.index_fill(x, dim, index, value), ("x", "dim", "index", "value"),
     "``value`` at ``index`` along ``dim``"),
    ("FillV2", lambda shape, value: jnp.full(tuple(np.asarray(as_array(shape)).tolist()) if not isinstance(
        shape, (tuple, list)) else tuple(shape), as_array(value)), ("shape", "value"), "``value`` in ``shape``"),
    ("TensorShape", lambda input_x: A.dyn_shape(input_x), ("input_x",), "The shape as a 1-D array"),
    ("DynamicShape", lambda input_x: A.dyn_shape(input_x), ("input_x",), "The shape as a 1-D array"),
    ("Expand", A.expand, ("x", "shape"), "Broadcast to ``shape``"),
    ("Lstsq", lambda x, a: A.lstsq(a, x), ("x", "a"), "Least-squares solution of ``x @ X = a``"),
]

for _name, _fn, _args, _doc in _SIMPLE:
    globals()[_name] = op_primitive(_name, _fn, _args, _doc, _M)
del _name, _fn, _args, _doc


def _diag_part(input: Any) -> jax.Array:
    x = as_array(input)
    if x.ndim % 2:
        raise ValueError(f"For 'DiagPart', the input rank must be even, got shape {x.shape}")
    k = x.ndim // 2
    if x.shape[:k] != x.shape[k:]:
        raise ValueError(f"For 'DiagPart', the input shape must be (D1..Dk, D1..Dk), got {x.shape}")
    n = int(np.prod(x.shape[:k]))
    return jnp.diagonal(x.reshape(n, n)).reshape(x.shape[:k])


class Unstack(Primitive):
    """Split along ``axis`` into a tuple with that axis removed.

    Arguments:
        axis: the axis.
        num: the expected number of outputs (checked when given).

    Call: ``Unstack(axis)(input_x)`` -> tuple of arrays.
    """

    def __init__(self, axis: int = 0, num: int | None = None) -> None:
        super().__init__()
        record(self, axis=check_int(self.name, "axis", axis), num=num)

    def __call__(self, input_x: Any) -> tuple[jax.Array, ...]:
        out = A.unstack(input_x, self.axis)
        if self.num is not None and len(out) != self.num:
            raise ValueError(f"For '{self.name}', 'num' is {self.num} but axis {self.axis} has {len(out)} entries")
        return out


class Unpack(Unstack):
    """Alias of :class:`Unstack`. Call: ``Unpack(axis)(input_x)``."""

    def __init__(self, axis: int = 0) -> None:
        super().__init__(axis)


class Roll(Primitive):
    """Roll elements along ``dims`` by ``shifts``. Call: ``Roll(shifts, dims)(input)``."""

    def __init__(self, shifts: Any, dims: Any = None) -> None:
        super().__init__()
        record(self, shifts=shifts, dims=dims)

    def __call__(self, input: Any) -> jax.Array:
        return F.roll(input, self.shifts, self.dims)


class _Triangle(Primitive):
    _fn: Any = None

    def __init__(self, diagonal: int = 0) -> None:
        super().__init__()
        record(self, diagonal=check_int(self.name, "diagonal", diagonal))

    def __call__(self, input: Any) -> jax.Array:
        return type(self)._fn(input, self.diagonal)


class Tril(_Triangle):
    """The lower triangle (below ``diagonal``) kept, the rest zeroed. Call: ``Tril(diagonal)(input)``."""

    _fn = staticmethod(F.tril)


class Triu(_Triangle):
    """The upper triangle (above ``diagonal``) kept, the rest zeroed. Call: ``Triu(diagonal)(input)``."""

    _fn = staticmethod(F.triu)


class Range(Primitive):
    """``[start, end)`` in steps. Call: ``Range(maxlen)(start, end, step)``."""

    def __init__(self, maxlen: int = 1000000) -> None:
        super().__init__()
        record(self, maxlen=check_int(self.name, "maxlen", maxlen))

    def __call__(self, start: Any, end: Any, step: Any) -> jax.Array:
        return A.range(start, end, step, self.maxlen)


class TensorScatterElements(Primitive):
    """Write (or add) ``updates`` at ``indices`` along ``axis``.
    Call: ``TensorScatterElements(axis, reduction)(data, indices, updates)``."""

    _strategy_inputs = 3

    def __init__(self, axis: int = 0, reduction: str = "none") -> None:
        super().__init__()
        record(self, axis=check_int(self.name, "axis", axis), reduction=reduction)

    def __call__(self, data: Any, indices: Any, updates: Any) -> jax.Array:
        return A.tensor_scatter_elements(data, indices, updates, self.axis, self.reduction)


class BroadcastTo(Primitive):
    """Broadcast to ``shape`` (``-1`` keeps a size). Call: ``BroadcastTo(shape)(input)``."""

    def __init__(self, shape: Any) -> None:
        super().__init__()
        record(self, shape=tuple(shape))

    def __call__(self, input: Any) -> jax.Array:
        return A.expand(input, self.shape)


class Unique(Primitive):
    """Unique values and each element's index into them. Call: ``Unique()(input_x)`` -> ``(y, idx)``."""

    def __init__(self) -> None:
        super().__init__()

    def __call__(self, input_x: Any) -> tuple[jax.Array, jax.Array]:
        return F.unique(input_x)


class _BlockSpace(Primitive):
    def __init__(self, block_size: int) -> None:
        super().__init__()
        b = check_int(self.name, "block_size", block_size)
        if b < 2:
            raise ValueError(f"For '{self.name}', 'block_size' must be at least 2, got {b}")
        record(self, block_size=b)


class DepthToSpace(_BlockSpace):
    """Move ``(N, C * b * b, H, W)`` channel blocks into space ``(N, C, H * b, W * b)``.
    Call: ``DepthToSpace(block_size)(x)``."""

    def __call__(self, x: Any) -> jax.Array:
        a = as_array(x)
        n, c, h, w = a.shape
        b = self.block_size
        y = a.reshape(n, b, b, c // (b * b), h, w).transpose(0, 3, 4, 1, 5, 2)
        return y.reshape(n, c // (b * b), h * b, w * b)


class SpaceToDepth(_BlockSpace):
    """Move ``(N, C, H * b, W * b)`` spatial blocks into channels ``(N, C * b * b, H, W)``.
    Call: ``SpaceToDepth(block_size)(x)``."""

    def __call__(self, x: Any) -> jax.Array:
        a = as_array(x)
        n, c, h, w = a.shape
        b = self.block_size
        y = a.reshape(n, c, h // b, b, w // b, b).transpose(0, 3, 5, 1, 2, 4)
        return y.reshape(n, c * b * b, h // b, w // b)


class ReverseV2(Primitive):
    """Reverse along ``axis``. Call: ``ReverseV2(axis)(input)``."""

    def __init__(self, axis: Any) -> None:
        super().__init__()
        record(self, axis=tuple(axis) if isinstance(axis, (list, tuple)) else (axis,))

    def __call__(self, input: Any) -> jax.Array:
        return A.reverse(input, self.axis)


class Meshgrid(Primitive):
    """Coordinate grids from 1-D arrays. Call: ``Meshgrid(indexing)(inputs)`` with a tuple of arrays."""

    _strategy_inputs = None

    def __init__(self, indexing: str = "xy") -> None:
        super().__init__()
        if indexing not in ("xy", "ij"):
            raise ValueError(f"For '{self.name}', 'indexing' must be 'xy' or 'ij', got {indexing!r}")
        record(self, indexing=indexing)

    def __call__(self, inputs: Any) -> tuple[jax.Array, ...]:
        return F.meshgrid(*inputs, indexing=self.indexing)


class SplitV(Primitive):
    """Split along ``split_dim`` into pieces of ``size_splits`` (one may be -1).
    Call: ``SplitV(size_splits, split_dim, num_split)(input_x)``."""

    def __init__(self, size_splits: Any, split_dim: int, num_split: int) -> None:
        super().__init__()
        record(self, size_splits=list(size_splits), split_dim=check_int(self.name, "split_dim", split_dim),
               num_split=check_int(self.name, "num_split", num_split))

    def __call__(self, input_x: Any) -> tuple[jax.Array, ...]:
        x = as_array(input_x)
        ax = F._axis(self.name, self.split_dim, x.ndim)
        sizes = list(self.size_splits)
        if -1 in sizes:
            sizes[sizes.index(-1)] = x.shape[ax] - (sum(sizes) + 1)
        if sum(sizes) != x.shape[ax] or len(sizes) != self.num_split:
            raise ValueError(f"For '{self.name}', 'size_splits' {self.size_splits} must sum to {x.shape[ax]} "
                             f"with {self.num_split} pieces")
        return tuple(jnp.split(x, np.cumsum(sizes)[:-1].tolist(), axis=ax))


class _RowScatter(Primitive):
    _fn: Any = None
    _strategy_inputs = 3

    def __init__(self, use_locking: bool = False) -> None:
        super().__init__()
        record(self, use_locking=check_bool(self.name, "use_locking", use_locking))

    def __call__(self, input_x: Any, indices: Any, updates: Any) -> jax.Array:
        return type(self)._fn(input_x, indices, updates)


def _row_scatter(name: str, fn: Any, doc: str, locking: bool = False) -> type:
    def init(self: Primitive, use_locking: bool = locking) -> None:
        _RowScatter.__init__(self, use_locking)

    return type(name, (_RowScatter,), {"_fn": staticmethod(fn), "__init__": init, "__module__": _M, "__doc__": (
        f"{doc}; a Parameter ``input_x`` is updated too.\n\n    Call: ``{name}()(input_x, indices, updates)``.\n")})


def _scatter_sub(input_x: Any, indices: Any, updates: Any) -> jax.Array:
    return A.scatter_add(input_x, indices, -as_array(updates))


ScatterAdd = _row_scatter("ScatterAdd", A.scatter_add, "Add ``updates`` into the rows ``indices``")
ScatterSub = _row_scatter("ScatterSub", _scatter_sub, "Subtract ``updates`` from the rows ``indices``")
ScatterMul = _row_scatter("ScatterMul", A.scatter_mul, "Multiply the rows ``indices`` by ``updates``")
ScatterDiv = _row_scatter("ScatterDiv", A.scatter_div, "Divide the rows ``indices`` by ``updates``")
ScatterMax = _row_scatter("ScatterMax", A.scatter_max, "Maximum of the rows ``indices`` and ``updates``", True)
ScatterMin = _row_scatter("ScatterMin", A.scatter_min, "Minimum of the rows ``indices`` and ``updates``")
ScatterUpdate = _row_scatter("ScatterUpdate", A.scatter_update, "Set the rows ``indices`` to ``updates``", True)
ScatterNdAdd = _row_scatter("ScatterNdAdd", A.scatter_nd_add, "Add ``updates`` at N-D ``indices``")
ScatterNdSub = _row_scatter("ScatterNdSub", A.scatter_nd_sub, "Subtract ``updates`` at N-D ``indices``")
ScatterNdMul = _row_scatter("ScatterNdMul", A.scatter_nd_mul, "Multiply by ``updates`` at N-D ``indices``")
ScatterNdDiv = _row_scatter("ScatterNdDiv", A.scatter_nd_div, "Divide by ``updates`` at N-D ``indices``")
ScatterNdMax = _row_scatter("ScatterNdMax", A.scatter_nd_max, "Maximum with ``updates`` at N-D ``indices``")
ScatterNdMin = _row_scatter("ScatterNdMin", A.scatter_nd_min, "Minimum with ``updates`` at N-D ``indices``")
ScatterNonAliasingAdd = _row_scatter("ScatterNonAliasingAdd", A.tensor_scatter_add,
                                     "Add ``updates`` at N-D ``indices``")


class Padding(Primitive):
    """Extend a last axis of size 1 to ``pad_dim_size`` with zeros. Call: ``Padding(pad_dim_size)(x)``."""

    def __init__(self, pad_dim_size: int = 8) -> None:
        super().__init__()
        record(self, pad_dim_size=check_int(self.name, "pad_dim_size", pad_dim_size))

    def __call__(self, x: Any) -> jax.Array:
        return A.padding(x, self.pad_dim_size)


class ReverseSequence(Primitive):
    """Reverse variable-length prefixes. Call: ``ReverseSequence(seq_dim, batch_dim)(x, seq_lengths)``."""

    _strategy_inputs = 2

    def __init__(self, seq_dim: int, batch_dim: int = 0) -> None:
        super().__init__()
        record(self, seq_dim=check_int(self.name, "seq_dim", seq_dim),
               batch_dim=check_int(self.name, "batch_dim", batch_dim))

    def __call__(self, x: Any, seq_lengths: Any) -> jax.Array:
        return A.reverse_sequence(x, seq_lengths, self.seq_dim, self.batch_dim)


class SpaceToBatchND(Primitive):
    """Move padded spatial blocks into the batch. Call: ``SpaceToBatchND(block_shape, paddings)(input_x)``."""

    def __init__(self, block_shape: Any, paddings: Any) -> None:
        super().__init__()
        record(self, block_shape=block_shape, paddings=paddings)

    def __call__(self, input_x: Any) -> jax.Array:
        return A.space_to_batch_nd(input_x, self.block_shape, self.paddings)


class BatchToSpaceND(Primitive):
    """Move batch blocks back into space and crop. Call: ``BatchToSpaceND(block_shape, crops)(input_x)``."""

    def __init__(self, block_shape: Any, crops: Any) -> None:
        super().__init__()
        record(self, block_shape=block_shape, crops=crops)

    def __call__(self, input_x: Any) -> jax.Array:
        return A.batch_to_space_nd(input_x, self.block_shape, self.crops)


class SearchSorted(Primitive):
    """Insertion indices of ``values`` into the sorted last axis of ``sorted_sequence``.
    Call: ``SearchSorted(dtype, right)(sorted_sequence, values)``."""

    _strategy_inputs = 2

    def __init__(self, dtype: Any = None, right: bool = False) -> None:
        super().__init__()
        record(self, dtype=dtype, right=check_bool(self.name, "right", right))

    def __call__(self, sorted_sequence: Any, values: Any) -> jax.Array:
        out = F.searchsorted(sorted_sequence, values, right=self.right)
        return out if self.dtype is None else out.astype(to_jax_dtype(self.dtype))


class Argmin(Primitive):
    """Index of the minimum along ``axis``. Call: ``Argmin(axis, output_type)(x)``."""

    def __init__(self, axis: int = -1, output_type: Any = None) -> None:
        super().__init__()
        record(self, axis=check_int(self.name, "axis", axis), output_type=output_type)

    def __call__(self, x: Any) -> jax.Array:
        out = F.argmin(x, self.axis)
        return out if self.output_type is None else out.astype(to_jax_dtype(self.output_type))


class ArgMinWithValue(Primitive):
    """Index and value of the minimum along ``axis``. Call: ``ArgMinWithValue(axis, keep_dims)(x)`` ->
    ``(index, value)``."""

    def __init__(self, axis: int = 0, keep_dims: bool = False) -> None:
        super().__init__()
        record(self, axis=check_int(self.name, "axis", axis), keep_dims=check_bool(self.name, "keep_dims", keep_dims))

    def __call__(self, x: Any) -> tuple[jax.Array, jax.Array]:
        values, indices = F.min(x, self.axis, self.keep_dims)
        return indices, values


class TupleToArray(Primitive):
    """A tuple of numbers as a 1-D array. Call: ``TupleToArray()(input_x)``."""

    def __init__(self) -> None:
        super().__init__()

    def __call__(self, input_x: Any) -> jax.Array:
        return F.tuple_to_array(input_x)


class ScalarToTensor(Primitive):
    """A Python number as a 0-D array. Call: ``ScalarToTensor()(input_x, dtype)``."""

    def __init__(self) -> None:
        super().__init__()

    def __call__(self, input_x: Any, dtype: Any = None) -> jax.Array:
        return F.scalar_to_tensor(input_x) if dtype is None else F.scalar_to_tensor(input_x, dtype)


class UniqueConsecutive(Primitive):
    """Collapse consecutive duplicates. Call: ``UniqueConsecutive(return_idx, return_counts, axis)(x)`` ->
    ``(output, idx, counts)``."""

    def __init__(self, return_idx: bool = False, return_counts: bool = False, axis: int | None = None) -> None:
        super().__init__()
        record(self, return_idx=check_bool(self.name, "return_idx", return_idx),
               return_counts=check_bool(self.name, "return_counts", return_counts), axis=axis)

    def __call__(self, x: Any) -> tuple[jax.Array, jax.Array, jax.Array]:
        out, idx, counts = A.unique_consecutive(x, True, True, self.axis)
        return out, idx, counts


class Col2Im(Primitive):
    """Sum ``(N, C, kh * kw, L)`` blocks into ``(N, C, H, W)``.
    Call: ``Col2Im(kernel_size, dilation, padding, stride)(x, output_size)``."""

    def __init__(self, kernel_size: Any, dilation: Any = 1, padding: Any = 0, stride: Any = 1) -> None:
        super().__init__()
        record(self, kernel_size=kernel_size, dilation=dilation, padding=padding, stride=stride)

    def __call__(self, x: Any, output_size: Any) -> jax.Array:
        return A.col2im(x, output_size, self.kernel_size, self.dilation, self.padding, self.stride)




# --- counting, searching and segments ---------------------------------------------------------------

def _static_int(prim: str, name: str, value: Any) -> int:
    if isinstance(value, jax.core.Tracer):
        raise ValueError(f"For '{prim}', '{name}' sets the output shape, so it must be a constant, not a traced "
                         f"value (call it eagerly, or pass a Python int)")
    if isinstance(value, (int, np.integer)) and not isinstance(value, bool):
        return int(value)
    a = np.asarray(as_array(value))
    if a.size != 1 or a.dtype.kind not in "iu":
        raise TypeError(f"For '{prim}', '{name}' must be an int scalar, but got {a.dtype} of shape {a.shape}.")
    return int(a.reshape(()))


class Bincount(Primitive):
    """Summed ``weights`` of each value of ``array`` in ``[0, size)``; larger values are dropped, negative ones
    are an error (eagerly; under tracing they are dropped).

    Call: ``Bincount()(array, size, weights)`` -> array of ``size`` with ``weights``' dtype.
    """

    _strategy_inputs = 3

    def __init__(self) -> None:
        super().__init__()

    def __call__(self, array: Any, size: Any, weights: Any) -> jax.Array:
        a, w = as_array(array), as_array(weights)
        if not jnp.issubdtype(a.dtype, jnp.integer):
            raise TypeError(f"For '{self.name}', 'array' must be an int32 tensor, but got {a.dtype}.")
        n = _static_int(self.name, "size", size)
        if n < 0:
            raise ValueError(f"For '{self.name}', 'size' must be >= 0, but got {n}.")
        if w.shape != a.shape:
            raise ValueError(f"For '{self.name}', 'weights' must have the shape of 'array' {a.shape}, but got {w.shape}.")
        if not isinstance(a, jax.core.Tracer) and a.size and int(jnp.min(a)) < 0:
            raise ValueError(f"For '{self.name}', 'array' must be non-negative, but got {int(jnp.min(a))}.")
        idx = jnp.where((a >= 0) & (a < n), a, n).reshape(-1)
        return jnp.zeros(n, w.dtype).at[idx].add(w.reshape(-1), mode="drop")


class UnravelIndex(Primitive):
    """The coordinates of flat ``indices`` in an array of shape ``dims``.

    Call: ``UnravelIndex()(indices, dims)`` -> ``(len(dims),)`` for a scalar index, else ``(len(dims), N)``.
    """

    _strategy_inputs = 2

    def __init__(self) -> None:
        super().__init__()

    def __call__(self, indices: Any, dims: Any) -> jax.Array:
        idx, d = as_array(indices), as_array(dims)
        if not (jnp.issubdtype(idx.dtype, jnp.integer) and jnp.issubdtype(d.dtype, jnp.integer)):
            raise TypeError(f"For '{self.name}', 'indices' and 'dims' must be int32 or int64 tensors, but got "
                            f"{idx.dtype} and {d.dtype}.")
        if d.ndim != 1 or idx.ndim > 1:
            raise ValueError(f"For '{self.name}', 'dims' must be 1-D and 'indices' 0-D or 1-D, but got shapes "
                             f"{d.shape} and {idx.shape}.")
        strides = jnp.concatenate([jnp.cumprod(d[::-1])[::-1][1:], jnp.ones(1, d.dtype)])
        coords = (idx[..., None] // strides) % d
        return jnp.moveaxis(coords, -1, 0).astype(idx.dtype)


class InvertPermutation(Primitive):
    """The inverse of a permutation given as a tuple or list of ints.

    Call: ``InvertPermutation()(input_x)`` -> tuple of ints.
    """

    _strategy_inputs = 0

    def __init__(self) -> None:
        super().__init__()

    def __call__(self, input_x: Any) -> tuple[int, ...]:
        if not isinstance(input_x, (tuple, list)) or not all(
                isinstance(v, (int, np.integer)) and not isinstance(v, bool) for v in input_x):
            raise TypeError(f"For '{self.name}', 'input_x' must be a tuple or list of ints, but got {input_x!r}.")
        if sorted(input_x) != list(range(len(input_x))):
            raise ValueError(f"For '{self.name}', 'input_x' must be a permutation of 0..{len(input_x) - 1}, but got "
                             f"{tuple(input_x)}.")
        out = [0] * len(input_x)
        for i, v in enumerate(input_x):
            out[int(v)] = i
        return tuple(out)


class _Bound(Primitive):
    _strategy_inputs = 2
    _side = "left"

    def __init__(self, out_type: Any = None) -> None:
        super().__init__()
        from mindjax.common import dtype as mstype

        out_type = mstype.int32 if out_type is None else out_type
        if str(out_type).lower() not in ("int32", "int64"):
            raise TypeError(f"For '{self.name}', 'out_type' must be int32 or int64, but got {out_type}.")
        record(self, out_type=out_type)

    def __call__(self, sorted_x: Any, values: Any) -> jax.Array:
        s, v = as_array(sorted_x), as_array(values)
        if s.ndim != 2 or v.ndim != 2 or s.shape[0] != v.shape[0]:
            raise ValueError(f"For '{self.name}', 'sorted_x' and 'values' must be 2-D with the same first dimension, "
                             f"but got shapes {s.shape} and {v.shape}.")
        out = jax.vmap(lambda row, val: jnp.searchsorted(row, val, side=self._side))(s, v)
        return out.astype(to_jax_dtype(self.out_type))


class LowerBound(_Bound):
    """Per row, the first index of ``sorted_x`` whose value is >= each of ``values``.

    Arguments:
        out_type: ``int32`` (default) or ``int64``.

    Call: ``LowerBound()(sorted_x, values)`` -> array of ``values``' shape.
    """


class UpperBound(_Bound):
    """Per row, the first index of ``sorted_x`` whose value is > each of ``values``.

    Arguments:
        out_type: ``int32`` (default) or ``int64``.

    Call: ``UpperBound()(sorted_x, values)`` -> array of ``values``' shape.
    """

    _side = "right"


class ListDiff(Primitive):
    """The values of 1-D ``x`` not in ``y`` (in ``x``'s order) and their positions in ``x``. Eager only.

    Arguments:
        out_idx: the positions' dtype, ``int32`` (default) or ``int64``.

    Call: ``ListDiff()(x, y)`` -> ``(out, idx)``.
    """

    _strategy_inputs = 2

    def __init__(self, out_idx: Any = None) -> None:
        super().__init__()
        from mindjax.common import dtype as mstype

        out_idx = mstype.int32 if out_idx is None else out_idx
        if str(out_idx).lower() not in ("int32", "int64"):
            raise TypeError(f"For '{self.name}', 'out_idx' must be int32 or int64, but got {out_idx}.")
        record(self, out_idx=out_idx)

    def __call__(self, x: Any, y: Any) -> tuple[jax.Array, jax.Array]:
        _eager(self.name, x, y)
        a, b = np.asarray(as_array(x)), np.asarray(as_array(y))
        if a.ndim != 1 or b.ndim != 1:
            raise ValueError(f"For '{self.name}', 'x' and 'y' must be 1-D, but got shapes {a.shape} and {b.shape}.")
        keep = np.nonzero(~np.isin(a, b))[0]
        return jnp.asarray(a[keep]), jnp.asarray(keep).astype(to_jax_dtype(self.out_idx))


class _Segment(Primitive):
    _strategy_inputs = 2
    _reduce = "sum"

    def __init__(self) -> None:
        super().__init__()

    def __call__(self, input_x: Any, segment_ids: Any) -> jax.Array:
        _eager(self.name, segment_ids)
        x, ids = as_array(input_x), np.asarray(as_array(segment_ids))
        if ids.dtype.kind not in "iu" or ids.ndim != 1 or x.ndim < 1 or ids.shape[0] != x.shape[0]:
            raise ValueError(f"For '{self.name}', 'segment_ids' must be a 1-D int tensor as long as the first "
                             f"dimension of 'input_x' {x.shape[:1]}, but got {ids.dtype} of shape {ids.shape}.")
        if ids.size and (ids[0] < 0 or np.any(np.diff(ids) < 0)):
            raise ValueError(f"For '{self.name}', 'segment_ids' must be sorted and non-negative, but got "
                             f"{ids.tolist()}.")
        n = int(ids[-1]) + 1 if ids.size else 0
        seg = jnp.asarray(ids)
        if self._reduce == "mean":
            total = jax.ops.segment_sum(x, seg, n)
            count = jax.ops.segment_sum(jnp.ones(x.shape[:1], x.dtype), seg, n)
            return total / jnp.maximum(count, 1).reshape((n,) + (1,) * (x.ndim - 1))
        fn = {"sum": jax.ops.segment_sum, "max": jax.ops.segment_max, "min": jax.ops.segment_min,
              "prod": jax.ops.segment_prod}[self._reduce]
        out = fn(x, seg, n)
        if self._reduce in ("max", "min"):  # empty segments are 0, as MindSpore
            present = jnp.zeros(n, bool).at[seg].set(True).reshape((n,) + (1,) * (x.ndim - 1))
            out = jnp.where(present, out, jnp.zeros((), x.dtype))
        return out


class SegmentSum(_Segment):
    """Sums of the rows of ``input_x`` per sorted ``segment_ids`` (``max(id) + 1`` rows; empty ones 0).
    Eager only. Call: ``SegmentSum()(input_x, segment_ids)``."""


class SegmentMean(_Segment):
    """Means of the rows of ``input_x`` per sorted ``segment_ids`` (empty segments 0). Eager only.
    Call: ``SegmentMean()(input_x, segment_ids)``."""

    _reduce = "mean"


class SegmentMax(_Segment):
    """Maxima of the rows of ``input_x`` per sorted ``segment_ids`` (empty segments 0). Eager only.
    Call: ``SegmentMax()(input_x, segment_ids)``."""

    _reduce = "max"


class SegmentMin(_Segment):
    """Minima of the rows of ``input_x`` per sorted ``segment_ids`` (empty segments 0). Eager only.
    Call: ``SegmentMin()(input_x, segment_ids)``."""

    _reduce = "min"


class SegmentProd(_Segment):
    """Products of the rows of ``input_x`` per sorted ``segment_ids`` (empty segments 1). Eager only.
    Call: ``SegmentProd()(input_x, segment_ids)``."""

    _reduce = "prod"


# --- elementwise, construction and layout -------------------------------------------------------------

class PopulationCount(Primitive):
    """The number of set bits of each element, as uint8. Call: ``PopulationCount()(input_x)``."""

    def __init__(self) -> None:
        super().__init__()

    def __call__(self, input_x: Any) -> jax.Array:
        return A.population_count(input_x)


class Mvlgamma(Primitive):
    """The multivariate log-gamma of dimension ``p``. Call: ``Mvlgamma(p)(x)``."""

    def __init__(self, p: int) -> None:
        super().__init__()
        if check_int(self.name, "p", p) < 1:
            raise ValueError(f"For '{self.name}', 'p' must be >= 1, but got {p}.")
        record(self, p=p)

    def __call__(self, x: Any) -> jax.Array:
        return A.mvlgamma(x, self.p)


class LogSpace(Primitive):
    """``steps`` values ``base ** t`` for ``t`` evenly from ``start`` to ``end``.

    Arguments:
        steps: the number of values. Default: ``10``. base: Default: ``10``.
        dtype: ``float16``, ``float32`` (default) or ``float64``.

    Call: ``LogSpace()(start, end)`` -> 1-D array.
    """

    _strategy_inputs = 2

    def __init__(self, steps: int = 10, base: int = 10, dtype: Any = None) -> None:
        super().__init__()
        from mindjax.common import dtype as mstype

        dtype = mstype.float32 if dtype is None else dtype
        if check_int(self.name, "steps", steps) < 0:
            raise ValueError(f"For '{self.name}', 'steps' must be >= 0, but got {steps}.")
        if check_int(self.name, "base", base) < 0:
            raise ValueError(f"For '{self.name}', 'base' must be >= 0, but got {base}.")
        if str(dtype).lower() not in ("float16", "float32", "float64"):
            raise TypeError(f"For '{self.name}', 'dtype' must be float16, float32 or float64, but got {dtype}.")
        record(self, steps=steps, base=base, dtype=dtype)

    def __call__(self, start: Any, end: Any) -> jax.Array:
        s, e = as_array(start).reshape(()), as_array(end).reshape(())
        t = jnp.linspace(s.astype(jnp.float32), e.astype(jnp.float32), self.steps)
        return jnp.power(jnp.float32(self.base), t).astype(to_jax_dtype(self.dtype))


class FillDiagonal(Primitive):
    """``input_x`` with its main diagonal set to ``fill_value`` (repeating every ``cols + 1`` rows of a tall
    matrix when ``wrap``).

    Arguments:
        fill_value: the value. wrap: continue the diagonal below the first square of a tall matrix.

    Call: ``FillDiagonal(fill_value)(input_x)`` -> array.
    """

    def __init__(self, fill_value: float, wrap: bool = False) -> None:
        super().__init__()
        if isinstance(fill_value, bool) or not isinstance(fill_value, (int, float)):
            raise TypeError(f"For '{self.name}', 'fill_value' must be a float, but got {type(fill_value).__name__}.")
        record(self, fill_value=float(fill_value), wrap=check_bool(self.name, "wrap", wrap))

    def __call__(self, input_x: Any) -> jax.Array:
        a = as_array(input_x)
        if a.ndim < 2 or (a.ndim > 2 and len(set(a.shape)) != 1):
            raise ValueError(f"For '{self.name}', 'input_x' must be 2-D, or have all dimensions equal, but got "
                             f"shape {a.shape}.")
        if a.ndim > 2:
            i = jnp.arange(a.shape[0])
            return a.at[(i,) * a.ndim].set(self.fill_value)
        rows, cols = a.shape
        flat = np.arange(0, rows * cols, cols + 1)
        if not self.wrap and rows > cols:
            flat = flat[flat < cols * cols]
        return a.reshape(-1).at[flat].set(self.fill_value).reshape(a.shape)


class Fills(Primitive):
    """An array of ``x``'s shape and dtype filled with ``value``. Call: ``Fills()(x, value)``."""

    _strategy_inputs = 2

    def __init__(self) -> None:
        super().__init__()

    def __call__(self, x: Any, value: Any) -> jax.Array:
        return A.fills(x, value)


class IdentityN(Primitive):
    """Its list or tuple of tensors, unchanged. Call: ``IdentityN()(x)``."""

    _strategy_inputs = None

    def __init__(self) -> None:
        super().__init__()

    def __call__(self, x: Any) -> Any:
        if not isinstance(x, (tuple, list)) or not x:
            raise TypeError(f"For '{self.name}', 'x' must be a non-empty tuple or list of tensors, but got "
                            f"{type(x).__name__}.")
        return type(x)(as_array(v) for v in x)


class ConjugateTranspose(Primitive):
    """The conjugate of ``x`` transposed by ``perm``. Call: ``ConjugateTranspose()(x, perm)``."""

    _strategy_inputs = 1

    def __init__(self) -> None:
        super().__init__()

    def __call__(self, x: Any, perm: Any) -> jax.Array:
        a = as_array(x)
        if not isinstance(perm, (tuple, list)) or sorted(perm) != list(range(a.ndim)):
            raise ValueError(f"For '{self.name}', 'perm' must be a permutation of 0..{a.ndim - 1}, but got {perm!r}.")
        return jnp.conj(jnp.transpose(a, perm))


class Pack(Primitive):
    """Stack tensors along a new ``axis`` (MindSpore's deprecated name of ``Stack``). Call: ``Pack(axis)(x)``."""

    _strategy_inputs = None

    def __init__(self, axis: int = 0) -> None:
        super().__init__()
        record(self, axis=check_int(self.name, "axis", axis))

    def __call__(self, x: Any) -> jax.Array:
        return F.stack(x, self.axis)


class ParallelConcat(Primitive):
    """Concatenate tensors of shape ``(1, ...)`` along the first axis. Call: ``ParallelConcat()(values)``."""

    _strategy_inputs = None

    def __init__(self) -> None:
        super().__init__()

    def __call__(self, values: Any) -> jax.Array:
        arrays = [as_array(v) for v in values]
        bad = [a.shape for a in arrays if a.ndim < 1 or a.shape[0] != 1]
        if bad:
            raise ValueError(f"For '{self.name}', each tensor's first dimension must be 1, but got shape {bad[0]}.")
        return jnp.concatenate(arrays, axis=0)


class SpaceToBatch(Primitive):
    """Move ``block_size x block_size`` spatial blocks of padded NCHW input into the batch.

    Arguments:
        block_size: an int >= 2. paddings: ``[[top, bottom], [left, right]]``.

    Call: ``SpaceToBatch(block_size, paddings)(input_x)`` -> array.
    """

    def __init__(self, block_size: int, paddings: Any) -> None:
        super().__init__()
        if check_int(self.name, "block_size", block_size) < 2:
            raise ValueError(f"For '{self.name}', 'block_size' must be >= 2, but got {block_size}.")
        record(self, block_size=block_size, paddings=paddings)

    def __call__(self, input_x: Any) -> jax.Array:
        return A.space_to_batch_nd(input_x, (self.block_size, self.block_size), self.paddings)


class BatchToSpace(Primitive):
    """Move batch blocks back into the spatial dimensions of NCHW input and crop.

    Arguments:
        block_size: an int >= 2. crops: ``[[top, bottom], [left, right]]``.

    Call: ``BatchToSpace(block_size, crops)(input_x)`` -> array.
    """

    def __init__(self, block_size: int, crops: Any) -> None:
        super().__init__()
        if check_int(self.name, "block_size", block_size) < 2:
            raise ValueError(f"For '{self.name}', 'block_size' must be >= 2, but got {block_size}.")
        record(self, block_size=block_size, crops=crops)

    def __call__(self, input_x: Any) -> jax.Array:
        return A.batch_to_space_nd(input_x, (self.block_size, self.block_size), self.crops)


class BatchToSpaceNDV2(Primitive):
    """:class:`BatchToSpaceND` with ``block_shape`` and ``crops`` as inputs.
    Call: ``BatchToSpaceNDV2()(input_x, block_shape, crops)``."""

    def __init__(self) -> None:
        super().__init__()

    def __call__(self, input_x: Any, block_shape: Any, crops: Any) -> jax.Array:
        to_list = (lambda v: np.asarray(as_array(v)).tolist() if not isinstance(v, (tuple, list)) else v)
        return A.batch_to_space_nd(input_x, to_list(block_shape), to_list(crops))


class Im2Col(Primitive):
    """Sliding ``ksizes`` blocks of NCHW input as columns: ``(N, C, kh * kw, L)``.

    Arguments:
        ksizes: the block size. strides, dilations: Default: ``1``. pads: Default: ``0``.

    Call: ``Im2Col(ksizes)(x)`` -> array.
    """

    def __init__(self, ksizes: Any, strides: Any = 1, dilations: Any = 1, pads: Any = 0) -> None:
        super().__init__()
        record(self, ksizes=ksizes, strides=strides, dilations=dilations, pads=pads)

    def __call__(self, x: Any) -> jax.Array:
        a = as_array(x)
        out = A.unfold(a, self.ksizes, self.dilations, self.pads, self.strides)
        n, c = a.shape[:2]
        return out.reshape(n, c, -1, out.shape[-1])


class ScatterAddWithAxis(Primitive):
    """``input_x`` with ``updates`` added at ``indices`` along ``axis`` (elementwise, as ``TensorScatterElements``
    with ``reduction='add'``).

    Arguments:
        axis: Default: ``0``.

    Call: ``ScatterAddWithAxis()(input_x, indices, updates)`` -> array.
    """

    _strategy_inputs = 3

    def __init__(self, axis: int = 0) -> None:
        super().__init__()
        record(self, axis=check_int(self.name, "axis", axis))

    def __call__(self, input_x: Any, indices: Any, updates: Any) -> jax.Array:
        return A.tensor_scatter_elements(input_x, indices, updates, self.axis, "add")


class IndexPut(Primitive):
    """``x1`` with ``x2`` written (or added, when ``accumulate``) at the positions of the index tensors.

    Arguments:
        accumulate: ``0`` writes, ``1`` adds. Default: ``0``.

    Call: ``IndexPut()(x1, x2, indices)`` -> array; ``indices`` is a tuple or list of 1-D int tensors.
    """

    _strategy_inputs = None

    def __init__(self, accumulate: int = 0) -> None:
        super().__init__()
        if check_int(self.name, "accumulate", accumulate) not in (0, 1):
            raise ValueError(f"For '{self.name}', 'accumulate' must be 0 or 1, but got {accumulate}.")
        record(self, accumulate=accumulate)

    def __call__(self, x1: Any, x2: Any, indices: Any) -> jax.Array:
        a, v = as_array(x1), as_array(x2)
        if not isinstance(indices, (tuple, list)) or not indices or len(indices) > a.ndim:
            raise ValueError(f"For '{self.name}', 'indices' must be a tuple or list of 1 to {a.ndim} tensors, but got "
                             f"{type(indices).__name__}.")
        where = tuple(as_array(i) for i in indices)
        if self.accumulate:
            return a.at[where].add(v.astype(a.dtype))
        return a.at[where].set(v.astype(a.dtype))


class MaskedScatter(Primitive):
    """``input`` with the elements where ``mask`` is true replaced, in order, by the first elements of ``source``.

    Call: ``MaskedScatter()(input, mask, source)`` -> array.
    """

    _strategy_inputs = 3

    def __init__(self) -> None:
        super().__init__()

    def __call__(self, input: Any, mask: Any, source: Any) -> jax.Array:
        a, m, s = as_array(input), as_array(mask), as_array(source)
        if m.dtype != jnp.bool_:
            raise TypeError(f"For '{self.name}', 'mask' must be a bool tensor, but got {m.dtype}.")
        m = jnp.broadcast_to(m, a.shape).reshape(-1)
        position = jnp.cumsum(m) - 1
        taken = s.reshape(-1)[jnp.clip(position, 0, max(s.size - 1, 0))]
        return jnp.where(m, taken.astype(a.dtype), a.reshape(-1)).reshape(a.shape)


class HammingWindow(Primitive):
    """A Hamming window ``alpha - beta * cos(2 pi n / N)`` of ``length`` points.

    Arguments:
        periodic: a periodic (``N = length``) rather than symmetric window. Default: ``True``.
        alpha: Default: ``0.54``. beta: Default: ``0.46``. dtype: Default: ``float32``.

    Call: ``HammingWindow()(length)`` -> 1-D array.
    """

    _strategy_inputs = 0

    def __init__(self, periodic: bool = True, alpha: float = 0.54, beta: float = 0.46, dtype: Any = None) -> None:
        super().__init__()
        from mindjax.common import dtype as mstype

        record(self, periodic=check_bool(self.name, "periodic", periodic), alpha=float(alpha), beta=float(beta),
               dtype=mstype.float32 if dtype is None else dtype)

    def __call__(self, length: Any) -> jax.Array:
        n = _static_int(self.name, "length", length)
        return A.hamming_window(n, self.periodic, self.alpha, self.beta, dtype=self.dtype)


class ExtractImagePatches(Primitive):
    """Patches of NCHW input as channels: ``(N, kh * kw * C, out_h, out_w)``, ordered by row, column, channel.

    Arguments:
        ksizes, strides, rates: ``(1, 1, h, w)`` tuples (or pairs): the patch size, its step and its dilation.
        padding: ``'VALID'`` (default) or ``'SAME'``.

    Call: ``ExtractImagePatches(ksizes, strides, rates)(input_x)`` -> array.
    """

    def __init__(self, ksizes: Any, strides: Any, rates: Any, padding: str = "VALID") -> None:
        super().__init__()
        values = {}
        for arg, v in (("ksizes", ksizes), ("strides", strides), ("rates", rates)):
            if not isinstance(v, (tuple, list)) or len(v) not in (2, 4) or not all(
                    isinstance(i, int) and i >= 1 for i in v):
                raise ValueError(f"For '{self.name}', '{arg}' must be a tuple of 2 or 4 positive ints, but got {v!r}.")
            values[arg] = tuple(v[-2:])
        if not isinstance(padding, str) or padding.upper() not in ("VALID", "SAME"):
            raise ValueError(f"For '{self.name}', 'padding' must be 'VALID' or 'SAME', but got {padding!r}.")
        record(self, ksizes=ksizes, strides=strides, rates=rates, padding=padding.upper())
        self._window = values

    def __call__(self, input_x: Any) -> jax.Array:
        a = as_array(input_x)
        kh, kw = self._window["ksizes"]
        patches = jax.lax.conv_general_dilated_patches(
            a, (kh, kw), self._window["strides"], self.padding, rhs_dilation=self._window["rates"],
            precision=jax.lax.Precision.HIGHEST)
        n, _, oh, ow = patches.shape
        c = a.shape[1]
        # XLA orders the patch channels (C, kh, kw); MindSpore orders them (kh, kw, C).
        return patches.reshape(n, c, kh * kw, oh, ow).transpose(0, 2, 1, 3, 4).reshape(n, kh * kw * c, oh, ow)


class MatrixDiagV3(Primitive):
    """A batched matrix whose diagonals ``k`` hold ``x`` (the rest ``padding_value``).

    Arguments:
        align: how short diagonals are aligned: ``'RIGHT_LEFT'`` (default), ``'LEFT_RIGHT'``, ``'LEFT_LEFT'``,
            ``'RIGHT_RIGHT'``.

    Call: ``MatrixDiagV3()(x, k, num_rows, num_cols, padding_value)`` -> array.
    """

    _strategy_inputs = None

    def __init__(self, align: str = "RIGHT_LEFT") -> None:
        super().__init__()
        record(self, align=_check_align(self.name, align))

    def __call__(self, x: Any, k: Any, num_rows: Any, num_cols: Any, padding_value: Any) -> jax.Array:
        return A.matrix_diag(x, _diag_k(k), _static_int(self.name, "num_rows", num_rows),
                             _static_int(self.name, "num_cols", num_cols), padding_value, self.align)


class MatrixDiagPartV3(Primitive):
    """The diagonals ``k`` of a batched matrix (short ones padded with ``padding_value``).

    Arguments:
        align: ``'RIGHT_LEFT'`` (default), ``'LEFT_RIGHT'``, ``'LEFT_LEFT'`` or ``'RIGHT_RIGHT'``.

    Call: ``MatrixDiagPartV3()(x, k, padding_value)`` -> array.
    """

    _strategy_inputs = None

    def __init__(self, align: str = "RIGHT_LEFT") -> None:
        super().__init__()
        record(self, align=_check_align(self.name, align))

    def __call__(self, x: Any, k: Any, padding_value: Any) -> jax.Array:
        return A.matrix_diag_part(x, _diag_k(k), padding_value, self.align)


class MatrixSetDiagV3(Primitive):
    """``x`` with its diagonals ``k`` replaced by ``diagonal``.

    Arguments:
        align: ``'RIGHT_LEFT'`` (default), ``'LEFT_RIGHT'``, ``'LEFT_LEFT'`` or ``'RIGHT_RIGHT'``.

    Call: ``MatrixSetDiagV3()(x, diagonal, k)`` -> array.
    """

    _strategy_inputs = None

    def __init__(self, align: str = "RIGHT_LEFT") -> None:
        super().__init__()
        record(self, align=_check_align(self.name, align))

    def __call__(self, x: Any, diagonal: Any, k: Any) -> jax.Array:
        return A.matrix_set_diag(x, diagonal, _diag_k(k), self.align)


def _check_align(prim: str, align: Any) -> str:
    choices = ("RIGHT_LEFT", "LEFT_RIGHT", "LEFT_LEFT", "RIGHT_RIGHT")
    if align not in choices:
        raise ValueError(f"For '{prim}', 'align' must be one of {', '.join(choices)}, but got {align!r}.")
    return align


def _diag_k(k: Any) -> Any:
    """``k`` (a diagonal index or a pair) as ints: it sets the output's shape."""
    if isinstance(k, (int, tuple, list)):
        return k
    values = np.asarray(as_array(k)).reshape(-1).tolist()
    return int(values[0]) if len(values) == 1 else tuple(int(v) for v in values)


class AffineGrid(Primitive):
    """The sampling grid of a batch of affine matrices ``theta`` for ``output_size`` ``(N, C, H, W)`` (or 5-D).

    Arguments:
        align_corners: -1 and 1 are the corner pixels' centres. Default: ``False``.

    Call: ``AffineGrid()(theta, output_size)`` -> ``(N, H, W, 2)`` (or ``(N, D, H, W, 3)``).
    """

    _strategy_inputs = 1

    def __init__(self, align_corners: bool = False) -> None:
        super().__init__()
        record(self, align_corners=check_bool(self.name, "align_corners", align_corners))

    def __call__(self, theta: Any, output_size: Any) -> jax.Array:
        return A.affine_grid(theta, tuple(output_size), self.align_corners)


class EditDistance(Primitive):
    """Levenshtein distances between the sequences of two sparse tensors (their last dimension), per position
    of the other dimensions. Eager only.

    Arguments:
        normalize: divide by the truth's length (``inf`` for an empty truth and a non-empty hypothesis).
            Default: ``True``.

    Call: ``EditDistance()(hypothesis_indices, hypothesis_values, hypothesis_shape, truth_indices, truth_values,
    truth_shape)`` -> float32 array of rank ``R - 1``.
    """

    _strategy_inputs = None

    def __init__(self, normalize: bool = True) -> None:
        super().__init__()
        record(self, normalize=check_bool(self.name, "normalize", normalize))

    def __call__(self, hypothesis_indices: Any, hypothesis_values: Any, hypothesis_shape: Any, truth_indices: Any,
                 truth_values: Any, truth_shape: Any) -> jax.Array:
        _eager(self.name, hypothesis_indices, hypothesis_values, truth_indices, truth_values)
        h_idx, h_val, h_shape = (np.asarray(as_array(v)) for v in (hypothesis_indices, hypothesis_values,
                                                                    hypothesis_shape))
        t_idx, t_val, t_shape = (np.asarray(as_array(v)) for v in (truth_indices, truth_values, truth_shape))
        rank = h_shape.shape[0]
        for arg, idx, val in (("hypothesis", h_idx, h_val), ("truth", t_idx, t_val)):
            if idx.ndim != 2 or idx.shape[1] != rank or val.shape != idx.shape[:1]:
                raise ValueError(f"For '{self.name}', '{arg}_indices' must be (N, {rank}) and '{arg}_values' (N,), but "
                                 f"got shapes {idx.shape} and {val.shape}.")
        if t_shape.shape != (rank,) or rank < 2:
            raise ValueError(f"For '{self.name}', the shapes must have the same length >= 2, but got "
                             f"{h_shape.tolist()} and {t_shape.tolist()}.")
        out_shape = tuple(int(max(a, b)) for a, b in zip(h_shape[:-1], t_shape[:-1]))

        def sequences(idx: np.ndarray, val: np.ndarray) -> dict[tuple[int, ...], list[Any]]:
            rows: dict[tuple[int, ...], list[tuple[int, Any]]] = {}
            for i, v in zip(map(tuple, idx.tolist()), val.tolist()):
                rows.setdefault(i[:-1], []).append((i[-1], v))
            return {k: [v for _, v in sorted(r)] for k, r in rows.items()}

        hyp, truth = sequences(h_idx, h_val), sequences(t_idx, t_val)
        out = np.zeros(out_shape, np.float32)
        for pos in np.ndindex(*out_shape):
            a, b = hyp.get(pos, []), truth.get(pos, [])
            row = list(range(len(b) + 1))
            for i, x in enumerate(a, 1):
                prev, row[0] = row[0], i
                for j, y in enumerate(b, 1):
                    prev, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1, prev + (x != y))
            dist = float(row[-1])
            if self.normalize:
                dist = dist / len(b) if b else (np.inf if a else 0.0)
            out[pos] = dist
        return jnp.asarray(out)


# --- numerics checks, scalars and dtypes ----------------------------------------------------------------

def _float_tensor(prim: str, name: str, x: Any) -> jax.Array:
    arr = as_array(x)
    if arr.dtype not in (jnp.float16, jnp.float32, jnp.float64):
        raise TypeError(f"For '{prim}', the '{name}' must be a float16, float32 or float64 Tensor, but got "
                        f"{arr.dtype}.")
    return arr


def _raise_on_nonfinite(prim: str, arr: Any) -> None:
    arr = np.asarray(arr)
    if np.isnan(arr).any():
        raise RuntimeError(f"For '{prim}', the Tensor had NaN values.")
    if np.isinf(arr).any():
        raise RuntimeError(f"For '{prim}', the Tensor had Inf values.")


class CheckNumerics(Primitive):
    """``x`` unchanged; a RuntimeError when it holds NaN or Inf (at run time, in compiled code too).
    Call: ``CheckNumerics()(x)`` with a float16/32/64 Tensor."""

    def __init__(self) -> None:
        super().__init__()
        self.init_prim_io_names(inputs=["x"], outputs=["y"])

    def __call__(self, x: Any) -> jax.Array:
        arr = _float_tensor(self.name, "x", x)
        if isinstance(arr, jax.core.Tracer):
            jax.debug.callback(lambda v: _raise_on_nonfinite(self.name, v), arr)
        else:
            _raise_on_nonfinite(self.name, arr)
        return arr


class ScalarCast(Primitive):
    """A Python number cast to ``int`` (``mindspore.int64``), ``float`` (``float64``) or ``bool``.
    Call: ``ScalarCast()(input_x, input_y)`` with ``input_y`` the target dtype."""

    def __init__(self) -> None:
        super().__init__()
        self.init_prim_io_names(inputs=["input_x", "input_y"], outputs=["output_data"])

    def __call__(self, input_x: Any, input_y: Any) -> Any:
        import numbers

        from mindjax.common import dtype as mstype

        if not isinstance(input_x, (bool, numbers.Number)):
            raise TypeError(f"For '{self.name}', the 'input_x' must be a bool or a number, but got "
                            f"{type(input_x).__name__}.")
        casts = {mstype.int64: int, mstype.float64: float, mstype.bool_: bool}
        for dtype, cast in casts.items():
            if input_y is dtype or (isinstance(input_y, mstype.Type) and input_y == dtype):
                return cast(input_x)
        raise ValueError(f"For '{self.name}', the supported type is in the list: [mindspore.int64, "
                         f"mindspore.float64, mindspore.bool], but got {input_y}.")


class ScalarToArray(Primitive):
    """A Python number as a 0-d float32 Tensor (MindSpore's deprecated alias of ``ops.scalar_to_tensor``).
    Call: ``ScalarToArray()(input_x)``."""

    def __init__(self) -> None:
        super().__init__()

    def __call__(self, input_x: Any) -> jax.Array:
        from mindjax.ops.functional_array import scalar_to_tensor

        return scalar_to_tensor(input_x)


class TensorToTuple(Primitive):
    """The elements of a 0-d or 1-d Tensor as a tuple (None for anything else, as MindSpore).
    Call: ``TensorToTuple()(input_tensor)``; traced, the elements are 0-d arrays."""

    def __init__(self) -> None:
        super().__init__()
        self.init_prim_io_names(inputs=["input_tensor"], outputs=["output_data"])

    def __call__(self, input_tensor: Any) -> Any:
        if not isinstance(input_tensor, (Tensor, jax.Array)):
            return None
        arr = as_array(input_tensor)
        if arr.ndim > 1:
            return None
        if isinstance(arr, jax.core.Tracer):
            return tuple(arr.reshape(-1)[i] for i in range(arr.size))
        return tuple(np.asarray(arr).reshape(-1).tolist())


class DtypeToEnum(Primitive):
    """MindSpore's TypeId number of a dtype (``mindspore.float32`` -> 43).
    Call: ``DtypeToEnum()(op_name, arg_name, dtype)``; the names go into the error for a non-dtype."""

    def __init__(self) -> None:
        super().__init__()

    def __call__(self, op_name: str, arg_name: str, dtype: Any) -> int:
        from mindjax.common.dtype import Type, type_id

        number = type_id(dtype) if isinstance(dtype, Type) else None
        if number is None:
            raise TypeError(f"For '{op_name}', the input '{arg_name}' should be mindspore dtype, but got {dtype}.")
        return number


# --- views (MindSpore's strided views; here they are new arrays, XLA decides on copies) ------------------

class TransposeView(Primitive):
    """``input`` with its axes permuted. Call: ``TransposeView()(input, input_perm)``."""

    def __init__(self) -> None:
        super().__init__()

    def __call__(self, input: Any, input_perm: Any) -> jax.Array:
        return F.transpose(input, input_perm)


class TransposeExtView(Primitive):
    """``input`` with axes ``dim0`` and ``dim1`` exchanged. Call: ``TransposeExtView()(input, dim0, dim1)``."""

    def __init__(self) -> None:
        super().__init__()

    def __call__(self, input: Any, dim0: int, dim1: int) -> jax.Array:
        return A.swapdims(input, dim0, dim1)


class SelectView(Primitive):
    """The slice ``input_indices`` of axis ``axis``, that axis removed.
    Call: ``SelectView()(input_tensor, input_indices, axis)`` with ``0 <= input_indices < shape[axis]``."""

    def __init__(self) -> None:
        super().__init__()
        self.init_prim_io_names(inputs=["input_tensor", "input_indices", "axis"], outputs=["output"])

    def __call__(self, input_tensor: Any, input_indices: int, axis: int) -> jax.Array:
        from mindjax.ops.functional import _axis

        x = as_array(input_tensor)
        dim = _axis(self.name, check_int(self.name, "axis", axis), x.ndim, "axis")
        i = check_int(self.name, "input_indices", input_indices)
        if not 0 <= i < x.shape[dim]:
            raise ValueError(f"For '{self.name}', 'input_indices' must be in [0, {x.shape[dim]}) for axis {dim} of "
                             f"size {x.shape[dim]}, but got {i}.")
        return jnp.take(x, i, axis=dim)


class CopyWithSlice(Primitive):
    """Copy ``y`` into the Tensor ``x`` in place (same shape and dtype) and return ``x``.
    Call: ``CopyWithSlice()(x, y)``."""

    _strategy_inputs = 2

    def __init__(self) -> None:
        super().__init__()
        self.add_prim_attr("side_effect_mem", True)
        self.init_prim_io_names(inputs=["x", "y"], outputs=["x"])

    def __call__(self, x: Any, y: Any) -> Any:
        if not isinstance(x, Tensor):
            raise TypeError(f"For '{self.name}', 'x' must be a Tensor, but got {type(x).__name__}.")
        dst, value = x._value, as_array(y)
        if value.shape != dst.shape:
            raise ValueError(f"For '{self.name}', 'y' must have the shape of 'x' {tuple(dst.shape)}, but got "
                             f"{tuple(value.shape)}.")
        if value.dtype != dst.dtype:
            raise TypeError(f"For '{self.name}', 'y' must have the dtype of 'x' {dst.dtype}, but got "
                            f"{value.dtype}.")
        return x.assign_value(value)


class EmbeddingLookup(Primitive):
    """Rows of ``input_params`` at ``input_indices - offset``; rows out of range come back as zeros.

    Call: ``EmbeddingLookup()(input_params, input_indices, offset)`` with 1-D or 2-D params and int32/int64
    indices -> ``input_indices.shape + input_params.shape[1:]``.
    """

    _strategy_inputs = 2

    def __init__(self) -> None:
        super().__init__()
        self.init_prim_io_names(inputs=["params", "indices", "offset"], outputs=["output"])

    def __call__(self, input_params: Any, input_indices: Any, offset: Any) -> jax.Array:
        params, idx = as_array(input_params), as_array(input_indices)
        if params.ndim not in (1, 2):
            raise ValueError(f"For '{self.name}', 'input_params' must be 1-D or 2-D, but got {params.ndim}-D "
                             f"shape {tuple(params.shape)}.")
        if idx.dtype not in (jnp.int32, jnp.int64):
            raise TypeError(f"For '{self.name}', 'input_indices' must be an int32 or int64 Tensor, but got "
                            f"{idx.dtype}.")
        if isinstance(offset, bool) or not isinstance(offset, (int, np.integer, Tensor, jax.Array)):
            raise TypeError(f"For '{self.name}', 'offset' must be an int, but got {type(offset).__name__}.")
        local = idx - as_array(offset).astype(idx.dtype)
        valid = (local >= 0) & (local < params.shape[0])
        rows = jnp.take(params, jnp.where(valid, local, 0), axis=0)
        mask = valid.reshape(valid.shape + (1,) * (params.ndim - 1))
        return jnp.where(mask, rows, jnp.zeros((), params.dtype))


class SparseGatherV2(Primitive):
    """Slices of ``input_params`` at ``input_indices`` along ``axis`` (as ``Gather``; MindSpore's variant for
    sparse gradients). Call: ``SparseGatherV2()(input_params, input_indices, axis)``."""

    _strategy_inputs = 2

    def __init__(self) -> None:
        super().__init__()
        self.init_prim_io_names(inputs=["params", "indices", "axis"], outputs=["output"])

    def __call__(self, input_params: Any, input_indices: Any, axis: int) -> jax.Array:
        return F.gather(input_params, input_indices, axis)
