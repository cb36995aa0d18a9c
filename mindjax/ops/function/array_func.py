"""MindSpore's ``mindspore.ops.function.array_func``: shapes, joins and splits, indexing, gathers and
scatters, segment reductions and band/diagonal matrices.

The ops MindJAX had before this module (``ops.reshape``, ``ops.gather`` ...) are re-exported
here from ``mindjax.ops.functional*``; the rest are defined here with MindSpore 2.10's names,
argument names and defaults. The ``scatter_*`` ops that update a Parameter in MindSpore
return the updated array here and, given a Parameter, also write it back.

Example:
    >>> import numpy as np
    >>> from mindjax import ops
    >>> [t.shape for t in ops.unstack(np.zeros((2, 3)), axis=1)]
    [(2,), (2,), (2,)]
"""
from __future__ import annotations

import builtins
import itertools
import math
from typing import Any, Sequence

import jax
import jax.numpy as jnp
import numpy as np

from mindjax.common.checks import check_index_range as _check_index_range
from mindjax.common.tensor import Tensor
from mindjax.common.dtype import to_jax_dtype
from mindjax.common.tensor import tensor_op
from mindjax.common.variable import Variable
from mindjax.ops.function._build import (_arr, _axis, _float, _named, check_bool, check_int, check_tensor,
                                         int_dtype)
# Existing ops of this family, re-exported under MindSpore's module path.
from mindjax.ops.functional import (  # noqa: F401
    argsort, broadcast_to, cast, cat, chunk, concat, expand_dims, eye, fill, flatten, flip, full, full_like,
    gather, gather_d, gather_elements, gather_nd, masked_fill, masked_select, meshgrid, narrow, nonzero, ones,
    ones_like, permute, rank, repeat_interleave, reshape, roll, scalar_to_tensor, scatter, scatter_nd, select,
    shape, size, slice, sort, split, squeeze, stack, tensor_scatter_update, tile, topk, transpose,
    tuple_to_array, unique, unsqueeze, where, zeros, zeros_like, numel, dtype, arange, linspace, one_hot,
)

__all__ = [
    # shapes and views
    "unstack", "unbind", "swapaxes", "swapdims", "movedim", "moveaxis", "expand", "expand_as", "ravel", "view_as",
    "type_as", "reshape_", "shape_", "dyn_shape", "is_tensor", "is_nonzero", "deepcopy", "zero_", "put_", "fills",
    "scalar_to_array", "scalar_cast", "padding",
    # joins and splits
    "hstack", "column_stack", "hsplit", "vsplit", "dsplit", "tensor_split",
    # indexing
    "index_select", "index_fill", "take", "reverse", "reverse_sequence", "strided_slice", "tensor_slice",
    "select_scatter", "slice_scatter", "diagonal", "diagonal_scatter", "diagflat", "argwhere", "aminmax",
    "top_k", "repeat_elements", "sequence_mask", "unique_consecutive", "unique_with_pad", "range",
    # scatters and segment reductions
    "tensor_scatter_elements", "tensor_scatter_add", "tensor_scatter_sub", "tensor_scatter_mul",
    "tensor_scatter_div", "tensor_scatter_max", "tensor_scatter_min", "scatter_add", "scatter_mul", "scatter_div", "scatter_max", "scatter_min", "scatter_update", "scatter_nd_add",
    "scatter_nd_sub", "scatter_nd_mul", "scatter_nd_div", "scatter_nd_max", "scatter_nd_min",
    "unsorted_segment_sum", "unsorted_segment_max", "unsorted_segment_min", "unsorted_segment_prod",
    # matrices and images
    "matrix_band_part", "matrix_diag", "matrix_diag_part", "matrix_set_diag", "fold", "unfold", "col2im",
    "space_to_batch_nd", "batch_to_space_nd", "affine_grid", "population_count", "mvlgamma", "lstsq",
    "hamming_window",
]


# --- shapes and views -----------------------------------------------------------------------

@tensor_op
@_named("unstack")
def unstack(input_x: Any, axis: int = 0) -> tuple[jax.Array, ...]:
    """Split along ``axis`` into a tuple of arrays with that axis removed.

    Arguments:
        input_x: an array of rank >= 1.
        axis: the axis to unstack.

    Returns:
        a tuple of ``input_x.shape[axis]`` arrays.
    """
    x = _arr(input_x)
    if x.ndim == 0:
        raise ValueError("'input_x' must be at least 1-D, got a scalar")
    ax = _axis("unstack", axis, x.ndim)
    return tuple(jnp.moveaxis(x, ax, 0))


@tensor_op
@_named("unbind")
def unbind(input: Any, dim: int = 0) -> tuple[jax.Array, ...]:
    """Split along ``dim`` into a tuple of arrays with that axis removed (as :func:`unstack`)."""
    x = _arr(input)
    if x.ndim == 0:
        raise ValueError("'input' must be at least 1-D, got a scalar")
    return tuple(jnp.moveaxis(x, _axis("unbind", dim, x.ndim, "dim"), 0))


@tensor_op
@_named("swapaxes")
def swapaxes(input: Any, axis0: int, axis1: int) -> jax.Array:
    """Exchange two axes."""
    x = _arr(input)
    return jnp.swapaxes(x, _axis("swapaxes", axis0, x.ndim, "axis0"), _axis("swapaxes", axis1, x.ndim, "axis1"))


@tensor_op
@_named("swapdims")
def swapdims(input: Any, dim0: int, dim1: int) -> jax.Array:
    """Exchange two axes."""
    x = _arr(input)
    return jnp.swapaxes(x, _axis("swapdims", dim0, x.ndim, "dim0"), _axis("swapdims", dim1, x.ndim, "dim1"))


def _move(op: str, x: Any, source: Any, destination: Any) -> jax.Array:
    a = _arr(x)
    src = (source,) if isinstance(source, int) else tuple(source)
    dst = (destination,) if isinstance(destination, int) else tuple(destination)
    if len(src) != len(dst):
        raise ValueError(f"'source' and 'destination' must have the same length, got {source!r} and {destination!r}")
    s = tuple(_axis(op, v, a.ndim, "source") for v in src)
    d = tuple(_axis(op, v, a.ndim, "destination") for v in dst)
    if len(set(s)) != len(s) or len(set(d)) != len(d):
        raise ValueError(f"repeated axes in 'source' {source!r} or 'destination' {destination!r}")
    return jnp.moveaxis(a, s, d)


@tensor_op
@_named("movedim")
def movedim(x: Any, source: Any, destination: Any) -> jax.Array:
    """Move axes ``source`` to positions ``destination`` (ints or sequences of ints); others keep their order."""
    return _move("movedim", x, source, destination)


@tensor_op
@_named("moveaxis")
def moveaxis(x: Any, source: Any, destination: Any) -> jax.Array:
    """Alias of :func:`movedim`."""
    return _move("moveaxis", x, source, destination)


def _size_arg(op: str, size: Any) -> tuple[int, ...]:
    if isinstance(size, (jax.Array, np.ndarray, Tensor)):
        size = np.asarray(_arr(size)).reshape(-1).tolist()
    if isinstance(size, int):
        size = (size,)
    if not isinstance(size, (list, tuple)) or not builtins.all(isinstance(s, (int, np.integer)) for s in size):
        raise TypeError(f"'size' must be a tuple of ints, got {size!r}")
    return tuple(int(s) for s in size)


@tensor_op
@_named("expand")
def expand(input_x: Any, size: Any) -> jax.Array:
    """Broadcast to ``size``; ``-1`` keeps that axis's size.

    Arguments:
        input_x: an array.
        size: the target shape (a tuple of ints or a 1-D integer array).

    Returns:
        the broadcast array.
    """
    x = _arr(input_x)
    target = _size_arg("expand", size)
    if len(target) < x.ndim:
        raise ValueError(f"'size' {target} has fewer dimensions than the input {x.shape}")
    lead = len(target) - x.ndim
    shape_out = tuple(x.shape[i - lead] if s == -1 and i >= lead else s for i, s in enumerate(target))
    return jnp.broadcast_to(x, shape_out)


@tensor_op
@_named("expand_as")
def expand_as(input: Any, other: Any) -> jax.Array:
    """Broadcast ``input`` to the shape of ``other``."""
    return jnp.broadcast_to(_arr(input), jnp.shape(_arr(other)))


@tensor_op
@_named("ravel")
def ravel(input: Any) -> jax.Array:
    """Flatten to 1-D."""
    return jnp.ravel(_arr(input))


@tensor_op
@_named("view_as")
def view_as(input: Any, other: Any) -> jax.Array:
    """``input`` reshaped to ``other``'s shape."""
    return jnp.reshape(_arr(input), jnp.shape(_arr(other)))


@tensor_op
@_named("type_as")
def type_as(input: Any, other: Any) -> jax.Array:
    """``input`` cast to ``other``'s dtype."""
    return _arr(input).astype(_arr(other).dtype)


@tensor_op
@_named("reshape_")
def reshape_(input: Any, shape: Any) -> jax.Array:
    """``input`` reshaped to ``shape`` (MindSpore's in-place name; returns the result)."""
    return jnp.reshape(_arr(input), _size_arg("reshape_", shape))


@tensor_op
@_named("shape_")
def shape_(x: Any) -> tuple[int, ...]:
    """The shape as a tuple of ints."""
    return tuple(jnp.shape(_arr(x)))


@tensor_op
@_named("dyn_shape")
def dyn_shape(input_x: Any) -> jax.Array:
    """The shape as a 1-D integer array (shapes are static under XLA, so this is a constant)."""
    return jnp.asarray(jnp.shape(_arr(input_x)), int_dtype())


@tensor_op
def is_tensor(obj: Any) -> bool:
    """Whether ``obj`` is a Tensor (a ``jax.Array``, a Parameter or MindJAX's Tensor)."""
    from mindjax.common.tensor import Tensor

    return isinstance(obj, (jax.Array, Variable)) or isinstance(obj, Tensor)


@tensor_op
@_named("is_nonzero")
def is_nonzero(input: Any) -> bool:
    """Whether a one-element array is non-zero."""
    x = _arr(input)
    if x.size != 1:
        raise ValueError(f"'input' must have exactly one element, got shape {x.shape}")
    return bool(x.reshape(()) != 0)


@tensor_op
@_named("deepcopy")
def deepcopy(input_x: Any) -> jax.Array:
    """A copy of the array."""
    return jnp.array(_arr(input_x), copy=True)


@tensor_op
@_named("zero_")
def zero_(input: Any) -> jax.Array:
    """Zeros of the input's shape and dtype; a Parameter given is also set to them."""
    out = jnp.zeros_like(_arr(input))
    if isinstance(input, Variable):
        input.set_data(out)
    return out


@tensor_op
@_named("fills")
def fills(x: Any, value: Any) -> jax.Array:
    """An array of ``x``'s shape and dtype filled with ``value``."""
    a = _arr(x)
    return jnp.full(a.shape, _arr(value) if not isinstance(value, (int, float)) else value, a.dtype)


@tensor_op
@_named("scalar_to_array")
def scalar_to_array(input_x: Any) -> jax.Array:
    """A Python int or float as a 0-D array (int32 or float32)."""
    if isinstance(input_x, bool) or not isinstance(input_x, (int, float)):
        raise TypeError(f"'input_x' must be an int or float, got {type(input_x).__name__}")
    return jnp.asarray(input_x, jnp.int32 if isinstance(input_x, int) else jnp.float32)


@tensor_op
def scalar_cast(input_x: Any, input_y: Any) -> Any:
    """The Python scalar ``input_x`` cast to the type ``input_y`` (a MindSpore dtype or ``int``/``float``/``bool``)."""
    if input_y in (int, float, bool):
        return input_y(input_x)
    kind = jnp.dtype(to_jax_dtype(input_y)).kind
    return bool(input_x) if kind == "b" else int(input_x) if kind in "iu" else float(input_x)


@tensor_op
@_named("padding")
def padding(x: Any, pad_dim_size: int = 8) -> jax.Array:
    """Extend the last axis (of size 1) to ``pad_dim_size`` with zeros after the value."""
    a = _arr(x)
    if a.ndim == 0 or a.shape[-1] != 1:
        raise ValueError(f"the last dimension of 'x' must be 1, got shape {a.shape}")
    n = check_int("pad_dim_size", pad_dim_size, 1)
    return jnp.pad(a, [(0, 0)] * (a.ndim - 1) + [(0, n - 1)])


# --- joins and splits ---------------------------------------------------------------------

def _seq(name: str, tensors: Any) -> list[jax.Array]:
    if not isinstance(tensors, (list, tuple)) or not tensors:
        raise TypeError(f"'{name}' must be a non-empty list or tuple of arrays, got {type(tensors).__name__}")
    return [_arr(t) for t in tensors]


@tensor_op
@_named("hstack")
def hstack(tensors: Sequence[Any]) -> jax.Array:
    """Join along axis 1 (axis 0 for 1-D arrays)."""
    return jnp.hstack(_seq("tensors", tensors))


@tensor_op
@_named("column_stack")
def column_stack(tensors: Sequence[Any]) -> jax.Array:
    """Join as columns: 1-D arrays become columns of a 2-D array."""
    return jnp.column_stack(_seq("tensors", tensors))


def _sections(op: str, x: jax.Array, indices_or_sections: Any, axis: int) -> tuple[jax.Array, ...]:
    n = x.shape[axis]
    if isinstance(indices_or_sections, (int, np.integer)) and not isinstance(indices_or_sections, bool):
        k = int(indices_or_sections)
        if k <= 0:
            raise ValueError(f"'indices_or_sections' must be positive, got {k}")
        # torch/MindSpore semantics: the first n % k parts are one longer.
        q, r = divmod(n, k)
        bounds = list(itertools.accumulate([q + 1] * r + [q] * (k - r)))[:-1]
    elif isinstance(indices_or_sections, (list, tuple)):
        bounds = [int(i) for i in indices_or_sections]
    else:
        raise TypeError(f"'indices_or_sections' must be an int or a list/tuple of ints, "
                        f"got {type(indices_or_sections).__name__}")
    return tuple(jnp.split(x, bounds, axis=axis))


@tensor_op
@_named("tensor_split")
def tensor_split(input: Any, indices_or_sections: Any, axis: int = 0) -> tuple[jax.Array, ...]:
    """Split along ``axis`` into ``n`` near-equal parts (the first ``size % n`` one longer) or at indices."""
    x = _arr(input)
    return _sections("tensor_split", x, indices_or_sections, _axis("tensor_split", axis, x.ndim))


def _split_on(op: str, input: Any, indices_or_sections: Any, axis: int, min_rank: int) -> tuple[jax.Array, ...]:
    x = _arr(input)
    if x.ndim < min_rank:
        raise ValueError(f"'input' must be at least {min_rank}-D, got shape {x.shape}")
    if isinstance(indices_or_sections, int) and x.shape[axis] % indices_or_sections:
        raise ValueError(f"axis {axis} of size {x.shape[axis]} does not split into {indices_or_sections} equal parts")
    return _sections(op, x, indices_or_sections, axis)


@tensor_op
@_named("hsplit")
def hsplit(input: Any, indices_or_sections: Any) -> tuple[jax.Array, ...]:
    """Split along axis 1 (axis 0 for 1-D arrays) into equal parts or at indices."""
    x = _arr(input)
    return _split_on("hsplit", x, indices_or_sections, 0 if x.ndim == 1 else 1, 1)


@tensor_op
@_named("vsplit")
def vsplit(input: Any, indices_or_sections: Any) -> tuple[jax.Array, ...]:
    """Split along axis 0 into equal parts or at indices (input at least 2-D)."""
    return _split_on("vsplit", input, indices_or_sections, 0, 2)


@tensor_op
@_named("dsplit")
def dsplit(input: Any, indices_or_sections: Any) -> tuple[jax.Array, ...]:
    """Split along axis 2 into equal parts or at indices (input at least 3-D)."""
    return _split_on("dsplit", input, indices_or_sections, 2, 3)


# --- indexing -----------------------------------------------------------------------------

def _index(name: str, index: Any) -> jax.Array:
    idx = jnp.asarray(index) if isinstance(index, (int, list, tuple)) else _arr(index)
    if not jnp.issubdtype(idx.dtype, jnp.integer):
        raise TypeError(f"'{name}' must hold integers, got {idx.dtype}")
    return idx


@tensor_op
@_named("index_select")
def index_select(input: Any, axis: int, index: Any) -> jax.Array:
    """The entries at the 1-D integer ``index`` along ``axis``.

    Arguments:
        input: an array.
        axis: the axis.
        index: a 1-D integer array.

    Returns:
        an array whose ``axis`` has ``len(index)`` entries.
    """
    x = _arr(input)
    idx = _index("index", index)
    if idx.ndim != 1:
        raise ValueError(f"'index' must be 1-D, got shape {idx.shape}")
    ax = _axis("index_select", axis, x.ndim)
    _check_index_range("index_select", "index", idx, -x.shape[ax], x.shape[ax])
    return jnp.take(x, idx, axis=ax)


@tensor_op
@_named("index_fill")
def index_fill(x: Any, axis: int, index: Any, value: Any) -> jax.Array:
    """``x`` with the slices at ``index`` along ``axis`` set to ``value``."""
    a = _arr(x)
    ax = _axis("index_fill", axis, a.ndim)
    idx = _index("index", index).reshape(-1)
    v = jnp.asarray(_arr(value) if not isinstance(value, (int, float, bool)) else value, a.dtype)
    moved = jnp.moveaxis(a, ax, 0)
    return jnp.moveaxis(moved.at[idx].set(v), 0, ax)


@tensor_op
@_named("take")
def take(input: Any, index: Any) -> jax.Array:
    """The entries of the flattened input at ``index`` (the output has ``index``'s shape).

    Raises:
        IndexValueError: an index outside ``[-N, N)`` for N elements (in compiled code, when the call returns).
    """
    flat = _arr(input).reshape(-1)
    idx = _index("index", index)
    _check_index_range("take", "index", idx, -flat.shape[0], flat.shape[0])
    return jnp.take(flat, idx)


@tensor_op
@_named("reverse")
def reverse(x: Any, axis: Sequence[int]) -> jax.Array:
    """Reverse along the axes ``axis``."""
    a = _arr(x)
    axes = (axis,) if isinstance(axis, int) else tuple(axis)
    return jnp.flip(a, tuple(_axis("reverse", v, a.ndim) for v in axes))


@tensor_op
@_named("reverse_sequence")
def reverse_sequence(x: Any, seq_lengths: Any, seq_dim: int, batch_dim: int = 0) -> jax.Array:
    """Reverse the first ``seq_lengths[b]`` entries along ``seq_dim`` of each batch entry ``b``."""
    a = _arr(x)
    sd, bd = _axis("reverse_sequence", seq_dim, a.ndim, "seq_dim"), _axis("reverse_sequence", batch_dim, a.ndim,
                                                                           "batch_dim")
    if sd == bd:
        raise ValueError(f"'seq_dim' and 'batch_dim' must differ, got {seq_dim} and {batch_dim}")
    lengths = _arr(seq_lengths).astype(jnp.int32)
    t_ = jnp.arange(a.shape[sd])
    src = jnp.where(t_[None, :] < lengths[:, None], lengths[:, None] - 1 - t_[None, :], t_[None, :])  # (B, T)
    moved = jnp.moveaxis(a, (bd, sd), (0, 1))
    idx = src.reshape(src.shape + (1,) * (moved.ndim - 2))
    out = jnp.take_along_axis(moved, jnp.broadcast_to(idx, moved.shape), axis=1)
    return jnp.moveaxis(out, (0, 1), (bd, sd))


@tensor_op
@_named("strided_slice")
def strided_slice(input_x: Any, begin: Sequence[int], end: Sequence[int], strides: Sequence[int],
                  begin_mask: int = 0, end_mask: int = 0, ellipsis_mask: int = 0, new_axis_mask: int = 0,
                  shrink_axis_mask: int = 0) -> jax.Array:
    """Slice with begin/end/strides and TensorFlow-style bit masks (see ``ops.StridedSlice``)."""
    from mindjax.ops.primitives_extra import StridedSlice

    return StridedSlice(begin_mask, end_mask, ellipsis_mask, new_axis_mask, shrink_axis_mask)(
        input_x, begin, end, strides)


@tensor_op
@_named("tensor_slice")
def tensor_slice(input: Any, begin: Sequence[int], size: Sequence[int]) -> jax.Array:
    """``input[begin[i] : begin[i] + size[i]]`` per axis (``-1`` takes the rest); as ``ops.slice``."""
    from mindjax.ops.functional import slice as _slice

    return _slice(input, begin, size)


@tensor_op
@_named("select_scatter")
def select_scatter(input: Any, src: Any, axis: int, index: int) -> jax.Array:
    """``input`` with the slice at ``index`` along ``axis`` replaced by ``src``."""
    x = _arr(input)
    ax = _axis("select_scatter", axis, x.ndim)
    i = check_int("index", index)
    if not -x.shape[ax] <= i < x.shape[ax]:
        raise ValueError(f"'index' {i} is out of range for axis {ax} of size {x.shape[ax]}")
    s = _arr(src).astype(x.dtype)
    expected = x.shape[:ax] + x.shape[ax + 1:]
    if s.shape != expected:
        raise ValueError(f"'src' must have shape {expected}, got {s.shape}")
    return jnp.moveaxis(jnp.moveaxis(x, ax, 0).at[i].set(s), 0, ax)


@tensor_op
@_named("slice_scatter")
def slice_scatter(input: Any, src: Any, axis: int = 0, start: int | None = None, end: int | None = None,
                  step: int = 1) -> jax.Array:
    """``input`` with ``input[start:end:step]`` along ``axis`` replaced by ``src``."""
    x = _arr(input)
    ax = _axis("slice_scatter", axis, x.ndim)
    index = [builtins.slice(None)] * x.ndim
    index[ax] = builtins.slice(start, end, step)
    target = x[tuple(index)]
    s = _arr(src).astype(x.dtype)
    if s.shape != target.shape:
        raise ValueError(f"'src' must have shape {target.shape}, got {s.shape}")
    return x.at[tuple(index)].set(s)


@tensor_op
@_named("diagonal")
def diagonal(input: Any, offset: int = 0, dim1: int = 0, dim2: int = 1) -> jax.Array:
    """The ``offset`` diagonal over axes ``dim1`` and ``dim2``, as the last axis."""
    x = _arr(input)
    d1, d2 = _axis("diagonal", dim1, x.ndim, "dim1"), _axis("diagonal", dim2, x.ndim, "dim2")
    if d1 == d2:
        raise ValueError(f"'dim1' and 'dim2' must differ, got {dim1} and {dim2}")
    return jnp.diagonal(x, check_int("offset", offset), d1, d2)


@tensor_op
@_named("diagonal_scatter")
def diagonal_scatter(input: Any, src: Any, offset: int = 0, dim1: int = 0, dim2: int = 1) -> jax.Array:
    """``input`` with its ``offset`` diagonal (over ``dim1``, ``dim2``) replaced by ``src``."""
    x = _arr(input)
    d1, d2 = _axis("diagonal_scatter", dim1, x.ndim, "dim1"), _axis("diagonal_scatter", dim2, x.ndim, "dim2")
    offset = check_int("offset", offset)
    moved = jnp.moveaxis(x, (d1, d2), (-2, -1))
    n = jnp.diagonal(moved, offset, -2, -1).shape[-1]
    rows = jnp.arange(n) + builtins.max(-offset, 0)
    cols = jnp.arange(n) + builtins.max(offset, 0)
    s = _arr(src).astype(x.dtype)
    if s.shape != moved.shape[:-2] + (n,):
        raise ValueError(f"'src' must have shape {moved.shape[:-2] + (n,)}, got {s.shape}")
    return jnp.moveaxis(moved.at[..., rows, cols].set(s), (-2, -1), (d1, d2))


@tensor_op
@_named("diagflat")
def diagflat(input: Any, offset: int = 0) -> jax.Array:
    """A 2-D array with the flattened input on its ``offset`` diagonal."""
    return jnp.diagflat(_arr(input), check_int("offset", offset))


@tensor_op
@_named("argwhere")
def argwhere(input: Any) -> jax.Array:
    """The ``(N, input.ndim)`` coordinates of the non-zero elements (eager only: the size depends on data)."""
    x = _arr(input)
    if isinstance(x, jax.core.Tracer):
        raise ValueError("the output size depends on the data, so it cannot be traced under jit; call it "
                         "eagerly or use ops.nonzero with a static size")
    return jnp.argwhere(x).astype(int_dtype())


@tensor_op
@_named("aminmax")
def aminmax(input: Any, *, axis: int = 0, keepdims: bool = False) -> tuple[jax.Array, jax.Array]:
    """The minimum and maximum along ``axis``: ``(min, max)``.

    Arguments:
        input: an array.
        axis: the axis (None reduces over all elements).
        keepdims: keep the reduced axis with size 1.
    """
    x = _arr(input)
    check_bool("keepdims", keepdims)
    ax = None if axis is None else (_axis("aminmax", axis, builtins.max(x.ndim, 1)) if x.ndim else None)
    return jnp.min(x, axis=ax, keepdims=keepdims), jnp.max(x, axis=ax, keepdims=keepdims)


@tensor_op
@_named("top_k")
def top_k(input_x: Any, k: int, sorted: bool = True) -> tuple[jax.Array, jax.Array]:  # noqa: A002
    """The ``k`` largest entries of the last axis and their indices (as ``ops.topk``)."""
    from mindjax.ops.functional import topk as _topk

    return _topk(input_x, k, sorted=sorted)


@tensor_op
@_named("repeat_elements")
def repeat_elements(x: Any, rep: int, axis: int = 0) -> jax.Array:
    """Repeat each slice along ``axis`` ``rep`` times in place (``[a, b] -> [a, a, b, b]``)."""
    a = _arr(x)
    return jnp.repeat(a, check_int("rep", rep, 1), axis=_axis("repeat_elements", axis, a.ndim))


@tensor_op
@_named("sequence_mask")
def sequence_mask(lengths: Any, maxlen: int | None = None) -> jax.Array:
    """A bool mask ``(..., maxlen)`` true at positions below each length.

    Arguments:
        lengths: an integer array.
        maxlen: the mask length (default ``max(lengths)``, computed eagerly).

    Returns:
        the mask.
    """
    n = _arr(lengths)
    if maxlen is None:
        maxlen = int(jnp.max(n))
    return jnp.arange(check_int("maxlen", maxlen, 1)) < n[..., None]


@tensor_op
@_named("unique_consecutive")
def unique_consecutive(input: Any, return_inverse: bool = False, return_counts: bool = False,
                       dim: int | None = None) -> Any:
    """Collapse runs of equal consecutive elements (or slices along ``dim``) to one (eager only).

    Returns:
        the output, plus the inverse indices and the run counts when asked for.
    """
    x = np.asarray(_arr(input))
    if dim is None:
        flat = x.reshape(-1)
        keys = flat
        starts = np.ones(flat.shape[0], bool)
        starts[1:] = flat[1:] != flat[:-1]
        out = flat[starts]
    else:
        ax = _axis("unique_consecutive", dim, x.ndim, "dim")
        moved = np.moveaxis(x, ax, 0)
        keys = moved.reshape(moved.shape[0], -1)
        starts = np.ones(keys.shape[0], bool)
        starts[1:] = np.any(keys[1:] != keys[:-1], axis=1)
        out = np.moveaxis(moved[starts], 0, ax)
    inverse = np.cumsum(starts) - 1
    counts = np.diff(np.append(np.nonzero(starts)[0], len(keys)))
    result = [jnp.asarray(out)]
    if return_inverse:
        result.append(jnp.asarray(inverse.reshape(x.shape) if dim is None else inverse, int_dtype()))
    if return_counts:
        result.append(jnp.asarray(counts, int_dtype()))
    return result[0] if len(result) == 1 else tuple(result)


@tensor_op
@_named("unique_with_pad")
def unique_with_pad(x: Any, pad_num: int) -> tuple[jax.Array, jax.Array]:
    """The unique values of a 1-D array in first-seen order, padded with ``pad_num`` to its length, and
    each element's index into them. Traceable (the output has the input's length)."""
    a = _arr(x)
    if a.ndim != 1:
        raise ValueError(f"'x' must be 1-D, got shape {a.shape}")
    n = a.shape[0]
    eq_ = a[:, None] == a[None, :]
    first = jnp.argmax(eq_, axis=1)  # index of each value's first occurrence
    is_first = first == jnp.arange(n)
    rank_ = jnp.cumsum(is_first) - 1
    out = jnp.full((n,), pad_num, a.dtype).at[jnp.where(is_first, rank_, n)].set(a, mode="drop")
    return out, rank_[first].astype(a.dtype if jnp.issubdtype(a.dtype, jnp.integer) else jnp.int32)


@tensor_op
@_named("range")
def range(start: Any, end: Any, step: Any, maxlen: int = 1000000) -> jax.Array:  # noqa: A001 - MindSpore's name
    """``[start, end)`` in steps of ``step`` (ints give int32/int64, floats give float32)."""
    vals = [np.asarray(_arr(v)).item() if not isinstance(v, (int, float)) else v for v in (start, end, step)]
    if vals[2] == 0:
        raise ValueError("'step' must not be 0")
    is_float = builtins.any(isinstance(v, float) for v in vals)
    out = np.arange(*vals)
    if out.size > maxlen:
        raise ValueError(f"the output has {out.size} elements, more than 'maxlen' {maxlen}")
    return jnp.asarray(out, jnp.float32 if is_float else int_dtype())


# --- scatters and segment reductions --------------------------------------------------------

_SCATTER_MODES = {"add": "add", "sub": "add", "mul": "multiply", "div": "divide", "max": "max", "min": "min",
                  "update": "set"}


def _scatter_nd(op: str, mode: str, input_x: Any, indices: Any, updates: Any) -> jax.Array:
    x = _arr(input_x)
    idx = _index("indices", indices)
    u = _arr(updates).astype(x.dtype)
    if idx.ndim < 1 or idx.shape[-1] > x.ndim:
        raise ValueError(f"'indices' must have a last dimension of at most {x.ndim}, got shape {idx.shape}")
    expected = idx.shape[:-1] + x.shape[idx.shape[-1]:]
    if u.shape != expected:
        raise ValueError(f"'updates' must have shape {expected} (indices {idx.shape}, input {x.shape}), "
                         f"got {u.shape}")
    for k in builtins.range(idx.shape[-1]):
        _check_index_range(op, f"indices[..., {k}]", idx[..., k], 0, x.shape[k])
    if mode == "sub":
        u = -u
    key = tuple(jnp.moveaxis(idx, -1, 0))
    ref = x.at[key]
    return getattr(ref, _SCATTER_MODES[mode])(u)


def _write_back(target: Any, out: jax.Array) -> jax.Array:
    if isinstance(target, Variable):
        target.set_data(out)
    return out


def _tensor_scatter(mode: str) -> Any:
    name = f"tensor_scatter_{mode}"

    def op(input_x: Any, indices: Any, updates: Any) -> jax.Array:
        return _scatter_nd(name, mode, input_x, indices, updates)

    op.__name__ = op.__qualname__ = name
    op.__doc__ = (f"``input_x`` with ``updates`` combined by {mode} at the N-D ``indices`` (repeated indices "
                  f"accumulate).\n\n    Arguments:\n        input_x: an array.\n        indices: an integer array "
                  f"``(..., K)``.\n        updates: ``indices.shape[:-1] + input_x.shape[K:]``.\n\n"
                  f"    Returns:\n        the new array.\n")
    return tensor_op(_named(name)(op))


tensor_scatter_add = _tensor_scatter("add")
tensor_scatter_sub = _tensor_scatter("sub")
tensor_scatter_mul = _tensor_scatter("mul")
tensor_scatter_div = _tensor_scatter("div")
tensor_scatter_max = _tensor_scatter("max")
tensor_scatter_min = _tensor_scatter("min")


def _scatter_nd_param(mode: str) -> Any:
    name = f"scatter_nd_{mode}"

    def op(input_x: Any, indices: Any, updates: Any, use_locking: bool = False) -> jax.Array:
        return _write_back(input_x, _scatter_nd(name, mode, input_x, indices, updates))

    op.__name__ = op.__qualname__ = name
    op.__doc__ = (f"``input_x`` with ``updates`` combined by {mode} at the N-D ``indices``; a Parameter given "
                  f"is updated too.\n\n    Returns:\n        the updated array.\n")
    return tensor_op(_named(name)(op))


scatter_nd_add = _scatter_nd_param("add")
scatter_nd_sub = _scatter_nd_param("sub")
scatter_nd_mul = _scatter_nd_param("mul")
scatter_nd_div = _scatter_nd_param("div")
scatter_nd_max = _scatter_nd_param("max")
scatter_nd_min = _scatter_nd_param("min")


def _scatter_rows(mode: str) -> Any:
    name = f"scatter_{mode}"

    def op(input_x: Any, indices: Any, updates: Any) -> jax.Array:
        x = _arr(input_x)
        idx = _index("indices", indices)
        u = _arr(updates).astype(x.dtype)
        expected = idx.shape + x.shape[1:]
        if u.shape != expected:
            raise ValueError(f"'updates' must have shape {expected}, got {u.shape}")
        _check_index_range(name, "indices", idx, 0, x.shape[0])
        if mode == "sub":
            u = -u
        return _write_back(input_x, getattr(x.at[idx], _SCATTER_MODES[mode])(u))

    op.__name__ = op.__qualname__ = name
    op.__doc__ = (f"``input_x`` with ``updates`` combined by {mode} into the rows ``indices``; a Parameter given "
                  f"is updated too.\n\n    Returns:\n        the updated array.\n")
    return tensor_op(_named(name)(op))


scatter_add = _scatter_rows("add")
scatter_mul = _scatter_rows("mul")
scatter_div = _scatter_rows("div")
scatter_max = _scatter_rows("max")
scatter_min = _scatter_rows("min")
scatter_update = _scatter_rows("update")


@tensor_op
@_named("tensor_scatter_elements")
def tensor_scatter_elements(input_x: Any, indices: Any, updates: Any, axis: int = 0,
                            reduction: str = "none") -> jax.Array:
    """``input_x`` with ``updates[i][j]...`` written at ``indices[i][j]...`` along ``axis``.

    Arguments:
        input_x: an array.
        indices: an integer array of ``input_x``'s rank (negative indices count from the end).
        updates: an array of ``indices``' shape.
        axis: the axis the indices address.
        reduction: ``'none'`` (write) or ``'add'`` (accumulate).

    Returns:
        the new array.
    """
    x = _arr(input_x)
    idx = _index("indices", indices)
    u = _arr(updates).astype(x.dtype)
    if reduction not in ("none", "add"):
        raise ValueError(f"'reduction' must be 'none' or 'add', got {reduction!r}")
    if idx.ndim != x.ndim or u.shape != idx.shape:
        raise ValueError(f"'indices' must have the input's rank {x.ndim} and 'updates' its shape, got "
                         f"{idx.shape} and {u.shape}")
    ax = _axis("tensor_scatter_elements", axis, x.ndim)
    _check_index_range("tensor_scatter_elements", "indices", idx, -x.shape[ax], x.shape[ax])
    idx = jnp.where(idx < 0, idx + x.shape[ax], idx)
    grid = list(jnp.indices(idx.shape, sparse=True))
    grid[ax] = idx
    ref = x.at[tuple(grid)]
    return ref.add(u) if reduction == "add" else ref.set(u)


def _segment(mode: str) -> Any:
    name = f"unsorted_segment_{mode}"
    fn = {"sum": jax.ops.segment_sum, "max": jax.ops.segment_max, "min": jax.ops.segment_min,
          "prod": jax.ops.segment_prod}[mode]
    first = "input_x" if mode == "sum" else "x"

    def op(x: Any, segment_ids: Any, num_segments: int) -> jax.Array:
        a = _arr(x)
        ids = _index("segment_ids", segment_ids)
        if ids.shape != a.shape[:ids.ndim]:
            raise ValueError(f"'segment_ids' shape {ids.shape} must be a prefix of the input's shape {a.shape}")
        n = check_int("num_segments", num_segments, 1)
        flat = a.reshape((-1,) + a.shape[ids.ndim:])
        out = fn(flat, ids.reshape(-1), num_segments=n)
        if mode in ("max", "min") and jnp.issubdtype(out.dtype, jnp.floating):
            # MindSpore fills empty segments with the dtype's lowest (max) / highest (min) finite value.
            count = jax.ops.segment_sum(jnp.ones(ids.size, jnp.int32), ids.reshape(-1), num_segments=n)
            info = jnp.finfo(out.dtype)
            fill = info.min if mode == "max" else info.max
            out = jnp.where((count == 0).reshape((-1,) + (1,) * (out.ndim - 1)), fill, out)
        return out

    op.__name__ = op.__qualname__ = name
    op.__doc__ = (f"The {mode} of the entries of ``{first}`` that share a segment id, for ids "
                  f"``0 .. num_segments - 1`` (negative or too-large ids are dropped).\n\n    Returns:\n"
                  f"        ``(num_segments,) + input.shape[segment_ids.ndim:]``.\n")
    op = _named(name)(op)
    if mode == "sum":
        def op_sum(input_x: Any, segment_ids: Any, num_segments: int) -> jax.Array:
            return op(input_x, segment_ids, num_segments)
        op_sum.__name__ = op_sum.__qualname__ = name
        op_sum.__doc__ = op.__doc__
        return tensor_op(op_sum)
    return tensor_op(op)


unsorted_segment_sum = _segment("sum")
unsorted_segment_max = _segment("max")
unsorted_segment_min = _segment("min")
unsorted_segment_prod = _segment("prod")


# --- matrices and images ---------------------------------------------------------------------

@tensor_op
@_named("matrix_band_part")
def matrix_band_part(x: Any, lower: int, upper: int) -> jax.Array:
    """Zero everything outside the band of ``lower`` sub- and ``upper`` super-diagonals (-1: keep all)."""
    a = _arr(x)
    if a.ndim < 2:
        raise ValueError(f"'x' must be at least 2-D, got shape {a.shape}")
    m, n = a.shape[-2:]
    i = jnp.arange(m)[:, None]
    j = jnp.arange(n)[None, :]
    lo, up = _arr(lower), _arr(upper)
    keep = ((lo < 0) | (i - j <= lo)) & ((up < 0) | (j - i <= up))
    return jnp.where(keep, a, jnp.zeros((), a.dtype))


def _diag_offsets(k: Any) -> tuple[int, int]:
    ks = np.asarray(_arr(k) if not isinstance(k, (int, list, tuple)) else k).reshape(-1).tolist()
    if len(ks) == 1:
        return int(ks[0]), int(ks[0])
    if len(ks) != 2 or ks[0] > ks[1]:
        raise ValueError(f"'k' must be an int or a pair (low, high) with low <= high, got {k!r}")
    return int(ks[0]), int(ks[1])


def _diag_shift(align: str, d: int, m: int, n: int, max_len: int) -> int:
    # Where a short diagonal sits in its row of the packed (..., num_diags, max_len) layout.
    length = builtins.min(m + builtins.min(d, 0), n - builtins.max(d, 0))
    right_first, right_second = align.split("_")
    side = right_first if d >= 0 else right_second
    return max_len - length if side == "RIGHT" else 0


def _check_align(align: str) -> None:
    if align not in ("RIGHT_LEFT", "LEFT_RIGHT", "LEFT_LEFT", "RIGHT_RIGHT"):
        raise ValueError(f"'align' must be one of 'RIGHT_LEFT', 'LEFT_RIGHT', 'LEFT_LEFT', 'RIGHT_RIGHT', "
                         f"got {align!r}")


@tensor_op
@_named("matrix_diag_part")
def matrix_diag_part(x: Any, k: Any, padding_value: Any, align: str = "RIGHT_LEFT") -> jax.Array:
    """The diagonals ``k`` (an int or a ``(low, high)`` range) of (a batch of) matrices.

    Returns:
        ``(..., max_len)`` for one diagonal, ``(..., high - low + 1, max_len)`` for a range, from the
        highest diagonal down, shorter ones padded with ``padding_value`` as ``align`` says.
    """
    a = _arr(x)
    _check_align(align)
    lo, hi = _diag_offsets(k)
    m, n = a.shape[-2:]
    max_len = builtins.min(m + builtins.min(hi, 0), n - builtins.max(lo, 0))
    pad = jnp.asarray(_arr(padding_value) if not isinstance(padding_value, (int, float)) else padding_value, a.dtype)
    rows = []
    for d in builtins.range(hi, lo - 1, -1):
        diag_ = jnp.diagonal(a, d, -2, -1)
        shift = _diag_shift(align, d, m, n, max_len)
        width = max_len - diag_.shape[-1]
        cfg = [(0, 0)] * (diag_.ndim - 1) + [(shift, width - shift)]
        rows.append(jnp.pad(diag_, cfg, constant_values=pad))
    out = jnp.stack(rows, axis=-2)
    return out[..., 0, :] if lo == hi else out


@tensor_op
@_named("matrix_diag")
def matrix_diag(x: Any, k: Any = 0, num_rows: int = -1, num_cols: int = -1, padding_value: Any = 0,
                align: str = "RIGHT_LEFT") -> jax.Array:
    """Matrices whose diagonals ``k`` hold ``x`` (the inverse of :func:`matrix_diag_part`); the rest is
    ``padding_value``."""
    a = _arr(x)
    _check_align(align)
    lo, hi = _diag_offsets(k)
    diags = a[..., None, :] if lo == hi else a
    max_len = diags.shape[-1]
    m = num_rows if num_rows != -1 else max_len + builtins.max(-lo, 0)
    n = num_cols if num_cols != -1 else max_len + builtins.max(hi, 0)
    if num_rows == -1 and num_cols != -1:
        m = max_len + builtins.max(-lo, 0)
    batch = diags.shape[:-2]
    pad = jnp.asarray(padding_value if isinstance(padding_value, (int, float)) else _arr(padding_value), a.dtype)
    out = jnp.full(batch + (m, n), pad, a.dtype)
    for row, d in enumerate(builtins.range(hi, lo - 1, -1)):
        length = builtins.min(m + builtins.min(d, 0), n - builtins.max(d, 0))
        if length <= 0:
            continue
        shift = _diag_shift(align, d, m, n, max_len)
        r = jnp.arange(length) + builtins.max(-d, 0)
        c = jnp.arange(length) + builtins.max(d, 0)
        out = out.at[..., r, c].set(diags[..., row, shift:shift + length])
    return out


@tensor_op
@_named("matrix_set_diag")
def matrix_set_diag(x: Any, diagonal: Any, k: Any = 0, align: str = "RIGHT_LEFT") -> jax.Array:
    """``x`` with its diagonals ``k`` replaced by ``diagonal`` (packed as :func:`matrix_diag_part` gives them)."""
    a = _arr(x)
    _check_align(align)
    lo, hi = _diag_offsets(k)
    dg = _arr(diagonal).astype(a.dtype)
    diags = dg[..., None, :] if lo == hi else dg
    m, n = a.shape[-2:]
    max_len = diags.shape[-1]
    out = a
    for row, d in enumerate(builtins.range(hi, lo - 1, -1)):
        length = builtins.min(m + builtins.min(d, 0), n - builtins.max(d, 0))
        shift = _diag_shift(align, d, m, n, max_len)
        r = jnp.arange(length) + builtins.max(-d, 0)
        c = jnp.arange(length) + builtins.max(d, 0)
        out = out.at[..., r, c].set(diags[..., row, shift:shift + length])
    return out


def _pair(name: str, v: Any) -> tuple[int, int]:
    if isinstance(v, (int, np.integer)) and not isinstance(v, bool):
        return int(v), int(v)
    if isinstance(v, (list, tuple)) and len(v) == 2 and builtins.all(isinstance(i, (int, np.integer)) for i in v):
        return int(v[0]), int(v[1])
    if isinstance(v, (jax.Array, np.ndarray, Tensor)):
        vals = np.asarray(_arr(v)).reshape(-1).tolist()
        return _pair(name, vals[0] if len(vals) == 1 else tuple(vals))
    raise TypeError(f"'{name}' must be an int or a pair of ints, got {v!r}")


def _patch_index(h: int, w: int, k: tuple[int, int], d: tuple[int, int], p: tuple[int, int],
                 s: tuple[int, int]) -> tuple[np.ndarray, np.ndarray, int, int]:
    oh = (h + 2 * p[0] - d[0] * (k[0] - 1) - 1) // s[0] + 1
    ow = (w + 2 * p[1] - d[1] * (k[1] - 1) - 1) // s[1] + 1
    if oh <= 0 or ow <= 0:
        raise ValueError(f"the sliding blocks do not fit: input {h}x{w}, kernel {k}, dilation {d}, padding {p}, "
                         f"stride {s}")
    ki, kj = np.meshgrid(np.arange(k[0]), np.arange(k[1]), indexing="ij")
    oi, oj = np.meshgrid(np.arange(oh), np.arange(ow), indexing="ij")
    rows = (ki.reshape(-1, 1) * d[0] + oi.reshape(1, -1) * s[0])  # (kh*kw, L)
    cols = (kj.reshape(-1, 1) * d[1] + oj.reshape(1, -1) * s[1])
    return rows, cols, oh, ow


@tensor_op
@_named("unfold")
def unfold(input: Any, kernel_size: Any, dilation: Any = 1, padding: Any = 0, stride: Any = 1) -> jax.Array:
    """Extract sliding local blocks (im2col): ``(N, C, H, W)`` -> ``(N, C * kh * kw, L)``.

    Arguments:
        input: a 4-D array.
        kernel_size, dilation, padding, stride: ints or pairs.

    Returns:
        the blocks, channel-major then kernel position, one column per block.
    """
    x = _arr(input)
    if x.ndim != 4:
        raise ValueError(f"'input' must be 4-D (N, C, H, W), got shape {x.shape}")
    k, d, p, s = (_pair(n, v) for n, v in (("kernel_size", kernel_size), ("dilation", dilation),
                                             ("padding", padding), ("stride", stride)))
    xp = jnp.pad(x, ((0, 0), (0, 0), (p[0], p[0]), (p[1], p[1])))
    rows, cols, oh, ow = _patch_index(x.shape[2], x.shape[3], k, d, p, s)
    patches = xp[:, :, rows, cols]  # (N, C, kh*kw, L)
    return patches.reshape(x.shape[0], x.shape[1] * k[0] * k[1], oh * ow)


@tensor_op
@_named("fold")
def fold(input: Any, output_size: Any, kernel_size: Any, dilation: Any = 1, padding: Any = 0,
         stride: Any = 1) -> jax.Array:
    """Combine sliding local blocks into an image (col2im), summing overlaps: the adjoint of :func:`unfold`.

    Arguments:
        input: ``(N, C * kh * kw, L)``.
        output_size: the image size, an int or a pair (or a 1-D array of two).
        kernel_size, dilation, padding, stride: ints or pairs.

    Returns:
        ``(N, C, H, W)``.
    """
    x = _arr(input)
    if x.ndim != 3:
        raise ValueError(f"'input' must be 3-D (N, C * kh * kw, L), got shape {x.shape}")
    out_hw = _pair("output_size", output_size)
    k, d, p, s = (_pair(n, v) for n, v in (("kernel_size", kernel_size), ("dilation", dilation),
                                             ("padding", padding), ("stride", stride)))
    kk = k[0] * k[1]
    if x.shape[1] % kk:
        raise ValueError(f"input.shape[1] ({x.shape[1]}) must be divisible by the kernel area {kk}")
    rows, cols, oh, ow = _patch_index(out_hw[0], out_hw[1], k, d, p, s)
    if x.shape[2] != oh * ow:
        raise ValueError(f"input.shape[2] ({x.shape[2]}) must equal the number of blocks {oh * ow}")
    c = x.shape[1] // kk
    blocks = x.reshape(x.shape[0], c, kk, oh * ow)
    out = jnp.zeros((x.shape[0], c, out_hw[0] + 2 * p[0], out_hw[1] + 2 * p[1]), x.dtype)
    out = out.at[:, :, rows, cols].add(blocks)
    return out[:, :, p[0]:p[0] + out_hw[0], p[1]:p[1] + out_hw[1]]


@tensor_op
@_named("col2im")
def col2im(input_x: Any, output_size: Any, kernel_size: Any, dilation: Any, padding_value: Any,
           stride: Any) -> jax.Array:
    """MindSpore's ``Col2Im``: ``(N, C, kh * kw, L)`` blocks summed into ``(N, C, H, W)``."""
    x = _arr(input_x)
    if x.ndim != 4:
        raise ValueError(f"'input_x' must be 4-D (N, C, kh * kw, L), got shape {x.shape}")
    return fold(x.reshape(x.shape[0], x.shape[1] * x.shape[2], x.shape[3]), output_size, kernel_size, dilation,
                padding_value, stride)


@tensor_op
@_named("space_to_batch_nd")
def space_to_batch_nd(input_x: Any, block_size: Any, paddings: Any) -> jax.Array:
    """Pad the spatial axes, split them into blocks and move the blocks into the batch axis.

    Arguments:
        input_x: ``(N, C, *spatial)``.
        block_size: an int (every spatial axis) or one int per spatial axis.
        paddings: ``[[before, after], ...]`` per spatial axis.

    Returns:
        ``(N * prod(block), C, *(padded // block))``.
    """
    x = _arr(input_x)
    paddings = np.asarray(paddings).reshape(-1, 2).tolist()
    m = len(paddings)
    block = [block_size] * m if isinstance(block_size, int) else list(block_size)
    xp = jnp.pad(x, [(0, 0), (0, 0)] + [tuple(p) for p in paddings])
    n, c = x.shape[:2]
    spatial = xp.shape[2:]
    shape_ = [n, c]
    for size_, b in zip(spatial, block):
        if size_ % b:
            raise ValueError(f"padded spatial size {size_} is not divisible by block size {b}")
        shape_ += [size_ // b, b]
    y = xp.reshape(shape_)
    # (n, c, s0, b0, s1, b1, ...) -> (b0, b1, ..., n, c, s0, s1, ...)
    perm = [3 + 2 * i for i in builtins.range(m)] + [0, 1] + [2 + 2 * i for i in builtins.range(m)]
    y = jnp.transpose(y, perm)
    return y.reshape((n * int(np.prod(block)), c) + tuple(s // b for s, b in zip(spatial, block)))


@tensor_op
@_named("batch_to_space_nd")
def batch_to_space_nd(input_x: Any, block_shape: Any, crops: Any) -> jax.Array:
    """The inverse of :func:`space_to_batch_nd`: move blocks from the batch axis back and crop."""
    x = _arr(input_x)
    crops = np.asarray(crops).reshape(-1, 2).tolist()
    m = len(crops)
    block = [block_shape] * m if isinstance(block_shape, int) else list(block_shape)
    nb, c = x.shape[:2]
    prod_b = int(np.prod(block))
    if nb % prod_b:
        raise ValueError(f"the batch size {nb} is not divisible by the block product {prod_b}")
    n = nb // prod_b
    spatial = x.shape[2:]
    y = x.reshape(tuple(block) + (n, c) + tuple(spatial))
    # (b0, b1, ..., n, c, s0, s1, ...) -> (n, c, s0, b0, s1, b1, ...)
    perm = [m, m + 1]
    for i in builtins.range(m):
        perm += [m + 2 + i, i]
    y = jnp.transpose(y, perm).reshape((n, c) + tuple(s * b for s, b in zip(spatial, block)))
    index = [builtins.slice(None), builtins.slice(None)] + [
        builtins.slice(lo, y.shape[2 + i] - hi) for i, (lo, hi) in enumerate(crops)]
    return y[tuple(index)]


@tensor_op
@_named("affine_grid")
def affine_grid(theta: Any, size: Sequence[int], align_corners: bool = False) -> jax.Array:
    """Sampling grids for :func:`grid_sample` from batches of affine matrices.

    Arguments:
        theta: ``(N, 2, 3)`` for 2-D or ``(N, 3, 4)`` for 3-D.
        size: the output size ``(N, C, H, W)`` or ``(N, C, D, H, W)``.
        align_corners: whether -1 and 1 are the centres (True) or the edges (False) of the corner pixels.

    Returns:
        ``(N, H, W, 2)`` or ``(N, D, H, W, 3)`` normalised coordinates.
    """
    th = _float(_arr(theta))
    size = tuple(int(s) for s in size)
    check_bool("align_corners", align_corners)

    def coords(n: int) -> jax.Array:
        if n == 1:
            return jnp.zeros((1,), th.dtype)
        c = jnp.linspace(-1.0, 1.0, n, dtype=th.dtype)
        return c if align_corners else c * (n - 1) / n

    if len(size) == 4:
        if th.shape[1:] != (2, 3):
            raise ValueError(f"'theta' must be (N, 2, 3) for a 4-D size, got {th.shape}")
        h, w = size[2:]
        ys, xs = jnp.meshgrid(coords(h), coords(w), indexing="ij")
        base = jnp.stack([xs, ys, jnp.ones_like(xs)], axis=-1)  # (H, W, 3)
        return jnp.einsum("hwk,nck->nhwc", base, th)
    if len(size) == 5:
        if th.shape[1:] != (3, 4):
            raise ValueError(f"'theta' must be (N, 3, 4) for a 5-D size, got {th.shape}")
        d, h, w = size[2:]
        zs, ys, xs = jnp.meshgrid(coords(d), coords(h), coords(w), indexing="ij")
        base = jnp.stack([xs, ys, zs, jnp.ones_like(xs)], axis=-1)
        return jnp.einsum("dhwk,nck->ndhwc", base, th)
    raise ValueError(f"'size' must have 4 or 5 elements, got {size}")


@tensor_op
@_named("population_count")
def population_count(input_x: Any) -> jax.Array:
    """The number of set bits of each integer element (uint8)."""
    x = _arr(input_x)
    if not jnp.issubdtype(x.dtype, jnp.integer):
        raise TypeError(f"'input_x' must be an integer array, got {x.dtype}")
    return jax.lax.population_count(x).astype(jnp.uint8)


@tensor_op
@_named("mvlgamma")
def mvlgamma(input: Any, p: int) -> jax.Array:
    """The multivariate log-gamma function of dimension ``p``; every element must exceed ``(p - 1) / 2``."""
    x = _float(_arr(input))
    p = check_int("p", p, 1)
    return jax.scipy.special.multigammaln(x, p)


@tensor_op
@_named("lstsq")
def lstsq(input: Any, A: Any) -> jax.Array:
    """The least-squares solution ``X`` of ``A @ X = input``.

    Arguments:
        input: ``(m, k)`` (or ``(m,)``) right-hand sides.
        A: ``(m, n)``.

    Returns:
        ``(n, k)``.
    """
    b, a = _float(_arr(input)), _float(_arr(A))
    return jnp.linalg.lstsq(a, b)[0]


@tensor_op
@_named("hamming_window")
def hamming_window(window_length: int, periodic: bool = True, alpha: float = 0.54, beta: float = 0.46, *,
                   dtype: Any = None) -> jax.Array:
    """The generalised Hamming window ``alpha - beta cos(2 pi n / (N - 1))`` (periodic: for ``N + 1``)."""
    n = check_int("window_length", window_length, 0)
    check_bool("periodic", periodic)
    dt = jnp.float32 if dtype is None else to_jax_dtype(dtype)
    if n <= 1:
        return jnp.ones((n,), dt)
    m = n + 1 if periodic else n
    k = jnp.arange(n, dtype=jnp.float32)
    return (alpha - beta * jnp.cos(2 * math.pi * k / (m - 1))).astype(dt)



def put_(input: Any, index: Any, source: Any, accumulate: bool = False) -> Any:  # noqa: A002
    """Write ``source`` into ``input`` at the flat positions ``index``, in place (``Tensor.put_``).

    Arguments:
        input: the Tensor written into.
        index: int positions into ``input`` viewed flat (negative ones count from the end).
        source: the values, one per index.
        accumulate: add to the values there instead of replacing them.

    Returns:
        ``input``.
    """
    check_tensor("put_", "input", input)
    check_bool("accumulate", accumulate)
    return input.put_(index, source, accumulate)
