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
from mindjax.common.tensor import as_array
from mindjax.ops import functional as F
from mindjax.ops.function import array_func as A
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


