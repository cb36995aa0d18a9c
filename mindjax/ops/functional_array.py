"""More of MindSpore's ``mindspore.ops``: triangles, flips, index and scatter ops, counting.

Names, argument names, defaults and results follow MindSpore 2.10. Where
MindSpore returns int64 indices, MindJAX returns JAX's default integer (int32
unless ``jax_enable_x64`` is set); ops MindSpore types as int32 (``argsort``,
``unique``'s inverse indices) stay int32.

``unique``, ``nonzero``, ``masked_select`` and ``bincount`` return arrays whose
shape depends on the input's values, so they run eagerly only (PYNATIVE mode);
under ``jax.jit`` / GRAPH mode they raise a ValueError naming the op.

Example:
    >>> import numpy as np
    >>> from mindjax import ops
    >>> ops.tril(np.ones((2, 2), np.float32)).tolist()
    [[1.0, 0.0], [1.0, 1.0]]
"""
from __future__ import annotations

from typing import Any, Sequence

import jax
import jax.numpy as jnp
import numpy as np

from mindjax.common.checks import check_index_range as _check_index_range
from mindjax.common.dtype import to_jax_dtype
from mindjax.common.tensor import tensor_op
from mindjax.ops.functional import _arr, _axis, _default_int, _gather_along_dim, _named

__all__ = [
    "tril", "triu", "flip", "roll", "argsort", "unique", "nonzero", "masked_select", "narrow", "slice",
    "gather_d", "scatter", "tensor_scatter_update", "repeat_interleave", "meshgrid", "diag", "trace",
    "full_like", "bincount", "searchsorted", "histc", "dtype", "tuple_to_array", "scalar_to_tensor",
]

_builtin_slice = slice


def _eager(op: str, *xs: Any) -> None:
    """Refuse to trace an op whose output shape depends on input values."""
    if any(isinstance(x, jax.core.Tracer) for x in xs):
        raise ValueError(f"For '{op}', the output shape depends on the input's values, so it cannot run "
                         f"under jax.jit or GRAPH mode; call it eagerly (PYNATIVE mode)")


def _ints(op: str, value: Any, name: str) -> tuple[int, ...]:
    """A tuple of ints from an int or a list/tuple of ints."""
    if isinstance(value, (int, np.integer)) and not isinstance(value, bool):
        return (int(value),)
    if isinstance(value, (list, tuple)) and all(
            isinstance(v, (int, np.integer)) and not isinstance(v, bool) for v in value):
        return tuple(int(v) for v in value)
    raise TypeError(f"For '{op}', '{name}' must be an int or a tuple/list of ints, got {value!r}")


def _int_seq(op: str, value: Any, name: str) -> tuple[int, ...]:
    """A tuple of ints from a list/tuple of ints (a bare int is refused, as MindSpore does)."""
    if not isinstance(value, (list, tuple)):
        raise TypeError(f"For '{op}', '{name}' must be a tuple or list of ints, got {type(value).__name__}")
    return _ints(op, value, name)


def _int_array(op: str, x: Any, name: str) -> jax.Array:
    a = _arr(x)
    if not jnp.issubdtype(a.dtype, jnp.integer):
        raise TypeError(f"For '{op}', '{name}' must be an integer tensor, got {a.dtype}")
    return a


# --- triangles, flips, sorting ---------------------------------------------------------

def _triangle(op: str, fn: Any, input: Any, diagonal: int) -> jax.Array:
    x = _arr(input)
    if x.ndim < 2:
        raise ValueError(f"For '{op}', 'input' must have rank >= 2, got shape {x.shape}")
    if not isinstance(diagonal, (int, np.integer)) or isinstance(diagonal, bool):
        raise TypeError(f"For '{op}', 'diagonal' must be an int, got {type(diagonal).__name__}")
    return fn(x, int(diagonal))


@tensor_op
def tril(input: Any, diagonal: int = 0) -> jax.Array:
    """Zero the elements above the ``diagonal``-th diagonal of the last two axes.

    Arguments:
        input: an array of rank >= 2.
        diagonal: 0 keeps the main diagonal; positive keeps more above it, negative fewer.

    Returns:
        array of ``input``'s shape and dtype.
    """
    return _triangle("tril", jnp.tril, input, diagonal)


@tensor_op
def triu(input: Any, diagonal: int = 0) -> jax.Array:
    """Zero the elements below the ``diagonal``-th diagonal of the last two axes.

    Arguments:
        input: an array of rank >= 2.
        diagonal: 0 keeps the main diagonal; positive drops more, negative keeps some below it.

    Returns:
        array of ``input``'s shape and dtype.
    """
    return _triangle("triu", jnp.triu, input, diagonal)


@tensor_op
@_named("flip")
def flip(input: Any, dims: Sequence[int]) -> jax.Array:
    """Reverse the order of elements along ``dims``.

    Arguments:
        input: an array.
        dims: a tuple or list of axes (a bare int is refused, as in MindSpore).

    Returns:
        the flipped array.
    """
    x = _arr(input)
    axes = tuple(_axis("flip", d, x.ndim, "dims") for d in _int_seq("flip", dims, "dims"))
    if len(set(axes)) != len(axes):
        raise ValueError(f"'dims' has repeated axes: {tuple(dims)}")
    return jnp.flip(x, axes)


@tensor_op
@_named("roll")
def roll(input: Any, shifts: Any, dims: Any = None) -> jax.Array:
    """Roll elements along ``dims`` by ``shifts`` (elements leaving one end come back at the other).

    Arguments:
        input: an array.
        shifts: an int or a tuple/list of ints, one per entry of ``dims``.
        dims: an int, a tuple/list of ints, or None to roll the flattened array and restore the shape.

    Returns:
        the rolled array.

    Example:
        >>> import numpy as np
        >>> roll(np.arange(5.0), 2, 0).tolist()
        [3.0, 4.0, 0.0, 1.0, 2.0]
    """
    x = _arr(input)
    s = _ints("roll", shifts, "shifts")
    if dims is None:
        if len(s) != 1:
            raise ValueError(f"'shifts' must be a single int when 'dims' is None, got {shifts!r}")
        return jnp.roll(x, s[0])
    d = tuple(_axis("roll", a, x.ndim, "dims") for a in _ints("roll", dims, "dims"))
    if len(d) != len(s):
        raise ValueError(f"'shifts' and 'dims' must have the same length, got {len(s)} and {len(d)}")
    return jnp.roll(x, s, d)


@tensor_op
@_named("argsort")
def argsort(input: Any, axis: int = -1, descending: bool = False) -> jax.Array:
    """Indices that sort ``input`` along ``axis`` (stable: equal elements keep their order).

    Arguments:
        input: an array.
        axis: the axis to sort.
        descending: sort from largest to smallest.

    Returns:
        int32 indices of ``input``'s shape (MindSpore's argsort is int32 too).
    """
    x = _arr(input)
    ax = _axis("argsort", axis, x.ndim)
    return jnp.argsort(x, axis=ax, stable=True, descending=bool(descending)).astype(jnp.int32)


# --- data-dependent shapes (eager only) -------------------------------------------------

@tensor_op
@_named("unique")
def unique(input: Any) -> tuple[jax.Array, jax.Array]:
    """The distinct elements of ``input`` (flattened), in order of first appearance, as MindSpore's CPU kernel.

    Eager only: the output length depends on the values.

    Arguments:
        input: an array.

    Returns:
        ``(output, inverse_indices)``: the 1-D distinct values, and for each input element its
        position in ``output`` (``input``'s shape; int64 for int64 input, else int32).

    Example:
        >>> import numpy as np
        >>> out, idx = unique(np.array([3, 1, 3], np.int32))
        >>> out.tolist(), idx.tolist()
        ([3, 1], [0, 1, 0])
    """
    _eager("unique", input)
    x = _arr(input)
    flat = np.asarray(x).reshape(-1)
    values, first, inverse = np.unique(flat, return_index=True, return_inverse=True)
    order = np.argsort(first, kind="stable")
    rank = np.empty_like(order)
    rank[order] = np.arange(order.size)
    idx_dtype = jnp.int64 if x.dtype == jnp.int64 else jnp.int32
    return (jnp.asarray(values[order], x.dtype),
            jnp.asarray(rank[inverse.reshape(-1)].reshape(x.shape), idx_dtype))


@tensor_op
@_named("nonzero")
def nonzero(input: Any, *, as_tuple: bool = False) -> Any:
    """Indices of the non-zero elements. Eager only: the count depends on the values.

    Arguments:
        input: an array of rank >= 1.
        as_tuple: return one 1-D index array per axis instead of one ``(n, ndim)`` array.

    Returns:
        ``(n, ndim)`` indices, or a tuple of ``ndim`` arrays of length ``n``; JAX's default integer.
    """
    _eager("nonzero", input)
    x = _arr(input)
    if x.ndim == 0:
        raise ValueError(f"'input' must have rank >= 1, got shape {x.shape}")
    idx = np.nonzero(np.asarray(x))
    if as_tuple:
        return tuple(jnp.asarray(i, _default_int()) for i in idx)
    return jnp.asarray(np.stack(idx, axis=1), _default_int())


@tensor_op
@_named("masked_select")
def masked_select(input: Any, mask: Any) -> jax.Array:
    """The elements of ``input`` where the (broadcast) boolean ``mask`` is True, as a 1-D array.

    Eager only: the output length depends on the mask.

    Arguments:
        input: an array.
        mask: a bool array broadcastable with ``input``.

    Returns:
        1-D array of ``input``'s dtype.
    """
    _eager("masked_select", input, mask)
    x, m = _arr(input), _arr(mask)
    if m.dtype != jnp.bool_:
        raise TypeError(f"'mask' must be a bool tensor, got {m.dtype}")
    try:
        shape = jnp.broadcast_shapes(x.shape, m.shape)
    except ValueError:
        raise ValueError(f"'mask' of shape {m.shape} does not broadcast with 'input' of shape {x.shape}") from None
    xs, ms = np.broadcast_to(np.asarray(x), shape), np.broadcast_to(np.asarray(m), shape)
    return jnp.asarray(xs[ms], x.dtype)


@tensor_op
@_named("bincount")
def bincount(input: Any, weights: Any = None, minlength: int = 0) -> jax.Array:
    """Count occurrences of each non-negative int in a 1-D ``input`` (negatives are ignored).

    Eager only: the output length is ``max(input) + 1``.

    Arguments:
        input: a 1-D integer array.
        weights: optional 1-D array of ``input``'s shape, summed per bin instead of counting 1.
        minlength: the least number of bins.

    Returns:
        float32 array of length ``max(max(input) + 1, minlength)`` (float32 as in MindSpore,
        whatever the weights' dtype).
    """
    _eager("bincount", input, weights)
    x = _int_array("bincount", input, "input")
    if x.ndim != 1:
        raise ValueError(f"'input' must be one-dimensional, got shape {x.shape}")
    if not isinstance(minlength, (int, np.integer)) or isinstance(minlength, bool) or minlength < 0:
        raise ValueError(f"'minlength' must be a non-negative int, got {minlength!r}")
    xs = np.asarray(x)
    w = None
    if weights is not None:
        w = np.asarray(_arr(weights))
        if w.shape != xs.shape:
            raise ValueError(f"'weights' must have the shape of 'input' {xs.shape}, got {w.shape}")
    keep = xs >= 0
    length = int(max(xs[keep].max() + 1 if keep.any() else 0, minlength))
    out = np.bincount(xs[keep], None if w is None else w[keep].astype(np.float64), minlength=length)
    return jnp.asarray(out, jnp.float32)


# --- slicing, gathering, scattering --------------------------------------------------------

@tensor_op
@_named("narrow")
def narrow(input: Any, axis: int, start: int, length: int) -> jax.Array:
    """``length`` elements of ``input`` along ``axis`` from ``start``.

    Arguments:
        input: an array.
        axis: the axis to slice.
        start: the first index (negative counts from the end).
        length: how many elements; ``start + length`` must not pass the axis' end.

    Returns:
        the slice.
    """
    x = _arr(input)
    ax = _axis("narrow", axis, x.ndim)
    n = x.shape[ax]
    st = _ints("narrow", start, "start")
    ln = _ints("narrow", length, "length")
    if len(st) != 1 or len(ln) != 1:
        raise TypeError(f"'start' and 'length' must be ints, got {start!r} and {length!r}")
    s, ln_ = st[0], ln[0]
    if not -n <= s <= n:
        raise ValueError(f"'start' must be in [{-n}, {n}], got {s}")
    s %= n if n else 1
    if not 0 <= ln_ <= n - s:
        raise ValueError(f"'length' must be in [0, {n - s}] for start {start} on an axis of size {n}, got {ln_}")
    return jax.lax.slice_in_dim(x, s, s + ln_, axis=ax)


@tensor_op
@_named("slice")
def slice(input_x: Any, begin: Sequence[int], size: Sequence[int]) -> jax.Array:  # noqa: A001 - MindSpore's name
    """The block of ``input_x`` starting at ``begin`` with extent ``size`` (``-1`` runs to the end).

    Arguments:
        input_x: an array.
        begin: a tuple/list of start indices, one per axis.
        size: a tuple/list of extents, one per axis; ``-1`` takes the rest of that axis.

    Returns:
        the slice.
    """
    x = _arr(input_x)
    b, s = _int_seq("slice", begin, "begin"), _int_seq("slice", size, "size")
    if len(b) != x.ndim or len(s) != x.ndim:
        raise ValueError(f"'begin' and 'size' must have one entry per axis of the input {x.shape}, "
                         f"got {b} and {s}")
    idx = []
    for axis, (start, extent, n) in enumerate(zip(b, s, x.shape)):
        extent = n - start if extent == -1 else extent
        if start < 0 or extent < 0 or start + extent > n:
            raise ValueError(f"begin[{axis}] + size[{axis}] must be within [0, {n}], got begin {b} and size {s} "
                             f"for input shape {x.shape}")
        idx.append(_builtin_slice(start, start + extent))
    return x[tuple(idx)]


@tensor_op
@_named("gather_d")
def gather_d(x: Any, dim: int, index: Any) -> jax.Array:
    """``out[i][j] = x[index[i][j]][j]`` for ``dim=0`` (``take_along_axis``).

    Arguments:
        x: the source array.
        dim: the axis to index.
        index: integer array of ``x``'s rank.

    Returns:
        array of ``index``'s shape.
    """
    a, idx = _arr(x), _int_array("gather_d", index, "index")
    if idx.ndim != a.ndim:
        raise ValueError(f"'index' must have the rank of 'x' ({a.ndim}), got shape {idx.shape}")
    return _gather_along_dim("gather_d", a, _axis("gather_d", dim, a.ndim, "dim"), idx)


@tensor_op
@_named("scatter")
def scatter(input: Any, axis: int, index: Any, src: Any) -> jax.Array:
    """Write ``src`` into a copy of ``input`` along ``axis`` at ``index``: for ``axis=1``,
    ``out[i][index[i][j]] = src[i][j]``.

    Arguments:
        input: the target array.
        axis: the axis ``index`` addresses.
        index: integer array of ``src``'s shape (and ``input``'s rank).
        src: the values, of ``input``'s dtype.

    Returns:
        the updated array.
    """
    x, idx, s = _arr(input), _int_array("scatter", index, "index"), _arr(src)
    ax = _axis("scatter", axis, x.ndim)
    if idx.shape != s.shape or idx.ndim != x.ndim:
        raise ValueError(f"'index' and 'src' must have the same shape and the rank of 'input' ({x.ndim}), "
                         f"got {idx.shape} and {s.shape}")
    grid = list(jnp.indices(idx.shape, sparse=True))
    grid[ax] = jnp.where(idx < 0, idx + x.shape[ax], idx)
    return x.at[tuple(grid)].set(s.astype(x.dtype))


@tensor_op
@_named("tensor_scatter_update")
def tensor_scatter_update(input_x: Any, indices: Any, updates: Any) -> jax.Array:
    """Replace the slices of ``input_x`` addressed by ``indices`` (last axis indexes leading axes) with ``updates``.

    Arguments:
        input_x: the target array.
        indices: integer array ``(..., k)``.
        updates: array of shape ``indices.shape[:-1] + input_x.shape[k:]``.

    Returns:
        the updated array.
    """
    x, idx, upd = _arr(input_x), _int_array("tensor_scatter_update", indices, "indices"), _arr(updates)
    k = idx.shape[-1] if idx.ndim else 0
    expected = idx.shape[:-1] + x.shape[k:]
    if k == 0 or k > x.ndim or upd.shape != expected:
        raise ValueError(f"'updates' must have shape indices.shape[:-1] + input_x.shape[k:] = {expected}, got "
                         f"{upd.shape} (input_x {x.shape}, indices {idx.shape})")
    for j in range(k):
        _check_index_range("tensor_scatter_update", f"indices[..., {j}]", idx[..., j], 0, x.shape[j])
    return x.at[tuple(jnp.moveaxis(idx, -1, 0))].set(upd.astype(x.dtype))


@tensor_op
@_named("repeat_interleave")
def repeat_interleave(input: Any, repeats: Any, axis: int | None = None) -> jax.Array:
    """Repeat each element (``axis=None``: of the flattened array) ``repeats`` times.

    Arguments:
        input: an array.
        repeats: an int, or one count per element along ``axis`` (list, tuple or array; an array
            of counts needs concrete values, so it runs eagerly only).
        axis: the axis to repeat along, or None to flatten first.

    Returns:
        the repeated array.
    """
    x = _arr(input)
    if axis is None:
        x, ax = x.reshape(-1), 0
    else:
        ax = _axis("repeat_interleave", axis, x.ndim)
    if isinstance(repeats, (int, np.integer)) and not isinstance(repeats, bool):
        if repeats < 0:
            raise ValueError(f"'repeats' must be non-negative, got {repeats}")
        return jnp.repeat(x, int(repeats), axis=ax)
    _eager("repeat_interleave", repeats)
    r = np.asarray(_arr(repeats) if not isinstance(repeats, (list, tuple)) else repeats)
    if not np.issubdtype(r.dtype, np.integer):
        raise TypeError(f"'repeats' must be an int or integers, got {r.dtype}")
    if r.ndim == 0 or r.size == 1:
        return jnp.repeat(x, int(r.reshape(-1)[0]), axis=ax)
    if r.ndim != 1 or r.shape[0] != x.shape[ax]:
        raise ValueError(f"the length of 'repeats' must be the size of 'input' along axis ({x.shape[ax]}), "
                         f"got {r.shape[0] if r.ndim == 1 else r.shape}")
    if (r < 0).any():
        raise ValueError(f"'repeats' must be non-negative, got {r.tolist()}")
    return jnp.repeat(x, jnp.asarray(r), axis=ax, total_repeat_length=int(r.sum()))


# --- creation -------------------------------------------------------------------------------

@tensor_op
@_named("meshgrid")
def meshgrid(*inputs: Any, indexing: str = "xy") -> tuple[jax.Array, ...]:
    """Coordinate grids from 1-D arrays.

    Arguments:
        inputs: 1-D arrays (passed separately, as in MindSpore).
        indexing: ``'xy'`` (Cartesian: the first two output axes swapped) or ``'ij'`` (matrix).

    Returns:
        one array per input, each of the grid's shape.
    """
    if indexing not in ("xy", "ij"):
        raise ValueError(f"'indexing' must be 'xy' or 'ij', got {indexing!r}")
    if not inputs:
        raise ValueError("'inputs' must hold at least one tensor")
    arrays = []
    for i, t in enumerate(inputs):
        if isinstance(t, (list, tuple)):
            raise TypeError(f"'inputs' must be tensors passed separately, got a {type(t).__name__} at {i}")
        a = _arr(t)
        if a.ndim != 1:
            raise ValueError(f"each input must be 1-D, got shape {a.shape} at {i}")
        arrays.append(a)
    return tuple(jnp.meshgrid(*arrays, indexing=indexing))


@tensor_op
@_named("diag")
def diag(input: Any) -> jax.Array:
    """A diagonal tensor: ``out[i..., i...] = input[i...]``, zero elsewhere (shape ``input.shape * 2``).

    Arguments:
        input: an array of rank >= 1.

    Returns:
        array of shape ``input.shape + input.shape``.
    """
    x = _arr(input)
    if x.ndim < 1:
        raise ValueError(f"'input' must have rank >= 1, got shape {x.shape}")
    return jnp.diag(x.reshape(-1)).reshape(x.shape + x.shape)


@tensor_op
@_named("trace")
def trace(input: Any) -> jax.Array:
    """Sum of the main diagonal of a matrix.

    Arguments:
        input: a 2-D numeric (non-bool) array.

    Returns:
        a 0-d array of ``input``'s dtype.
    """
    x = _arr(input)
    if x.ndim != 2:
        raise ValueError(f"'input' must be 2-D, got shape {x.shape}")
    if x.dtype == jnp.bool_:
        raise TypeError("'input' must be a numeric tensor, got bool")
    return jnp.trace(x, dtype=x.dtype)


@tensor_op
@_named("full_like")
def full_like(input: Any, fill_value: Any, *, dtype: Any = None) -> jax.Array:
    """An array of ``input``'s shape filled with ``fill_value``.

    Arguments:
        input: an array.
        fill_value: a scalar (cast to the output dtype, so 2.7 becomes 2 for ints).
        dtype: the output dtype; None means ``input``'s.

    Returns:
        the filled array.
    """
    x = _arr(input)
    out_dtype = x.dtype if dtype is None else to_jax_dtype(dtype)
    return jnp.full(x.shape, _arr(fill_value).astype(out_dtype), out_dtype)


# --- searching, histograms ---------------------------------------------------------------

@tensor_op
@_named("searchsorted")
def searchsorted(sorted_sequence: Any, values: Any, *, out_int32: bool = False, right: bool = False,
                 side: str | None = None, sorter: Any = None) -> jax.Array:
    """Where ``values`` would be inserted in ``sorted_sequence`` (innermost axis) to keep it sorted.

    Arguments:
        sorted_sequence: ascending along its last axis (unless ``sorter`` is given); 1-D, or with
            leading axes equal to ``values``' leading axes.
        values: the values to place.
        out_int32: return int32 instead of int64 (JAX's default integer here).
        right: return the last suitable index instead of the first.
        side: ``'left'`` or ``'right'``; overrides ``right`` (``'left'`` with ``right=True`` is an error).
        sorter: indices that sort ``sorted_sequence`` along its last axis.

    Returns:
        indices of ``values``' shape.
    """
    seq, v = _arr(sorted_sequence), _arr(values)
    if side is not None:
        if side not in ("left", "right"):
            raise ValueError(f"'side' must be 'left' or 'right', got {side!r}")
        if side == "left" and right:
            raise ValueError("'side' is 'left' while 'right' is True")
        right = side == "right"
    if seq.ndim == 0:
        raise ValueError("'sorted_sequence' must have rank >= 1")
    if sorter is not None:
        srt = _int_array("searchsorted", sorter, "sorter")
        if srt.shape != seq.shape:
            raise ValueError(f"'sorter' must have the shape of 'sorted_sequence' {seq.shape}, got {srt.shape}")
        seq = jnp.take_along_axis(seq, srt, axis=-1)
    how = "right" if right else "left"
    if seq.ndim == 1:
        out = jnp.searchsorted(seq, v, side=how)
    else:
        if v.ndim != seq.ndim or v.shape[:-1] != seq.shape[:-1]:
            raise ValueError(f"the leading dimensions of 'sorted_sequence' {seq.shape} and 'values' {v.shape} "
                             f"must match")
        flat_seq, flat_v = seq.reshape(-1, seq.shape[-1]), v.reshape(-1, v.shape[-1])
        out = jax.vmap(lambda s, x: jnp.searchsorted(s, x, side=how))(flat_seq, flat_v).reshape(v.shape)
    return out.astype(jnp.int32 if out_int32 else _default_int())


@tensor_op
@_named("histc")
def histc(input: Any, bins: int = 100, min: float = 0.0, max: float = 0.0) -> jax.Array:  # noqa: A002
    """Histogram of ``input`` with ``bins`` equal-width bins over ``[min, max]``.

    When ``min == max`` the data's own minimum and maximum are used (widened by 1 each way
    if they are equal too). Elements outside the range are ignored; ``max`` falls in the last bin.
    Works under ``jax.jit`` (the output length is ``bins``).

    Arguments:
        input: an array (flattened).
        bins: the number of bins, positive.
        min: the lower end of the range.
        max: the upper end of the range.

    Returns:
        counts of length ``bins``, of ``input``'s dtype.
    """
    if not isinstance(bins, (int, np.integer)) or isinstance(bins, bool) or bins <= 0:
        raise ValueError(f"'bins' must be a positive int, got {bins!r}")
    if min > max:
        raise ValueError(f"'min' must be <= 'max', got min {min} and max {max}")
    x = _arr(input)
    flat = x.reshape(-1).astype(jnp.float32 if x.dtype != jnp.float64 else jnp.float64)
    lo, hi = jnp.asarray(min, flat.dtype), jnp.asarray(max, flat.dtype)
    if min == max:
        lo, hi = (jnp.min(flat), jnp.max(flat)) if flat.size else (lo, hi)
        same = lo == hi
        lo, hi = jnp.where(same, lo - 1, lo), jnp.where(same, hi + 1, hi)
    pos = jnp.floor((flat - lo) * bins / (hi - lo)).astype(jnp.int32)
    pos = jnp.minimum(pos, bins - 1)
    inside = (flat >= lo) & (flat <= hi)
    counts = jnp.zeros((bins,), jnp.int32).at[jnp.where(inside, pos, bins)].add(1, mode="drop")
    return counts.astype(x.dtype)


# --- introspection and conversion ---------------------------------------------------------

@tensor_op
def dtype(x: Any) -> Any:
    """The dtype of a tensor (comparable with ``ms.float32`` and friends).

    Arguments:
        x: an array or Parameter.

    Returns:
        its dtype.
    """
    if isinstance(x, (bool, int, float, complex, str, list, tuple)) or not hasattr(x, "dtype"):
        raise TypeError(f"For 'dtype', 'x' must be a Tensor, got {type(x).__name__}")
    return _arr(x).dtype


@tensor_op
@_named("tuple_to_array")
def tuple_to_array(input_x: tuple) -> jax.Array:
    """A 1-D array from a tuple of numbers; int32 if the first is an int (or bool), else float32.

    Arguments:
        input_x: a non-empty tuple of Python numbers.

    Returns:
        the array (later elements are cast to the first one's type, as in MindSpore).
    """
    if not isinstance(input_x, tuple):
        raise TypeError(f"'input_x' must be a tuple of numbers, got {type(input_x).__name__}")
    if not input_x:
        raise ValueError("'input_x' must not be empty")
    if not all(isinstance(v, (bool, int, float, np.number, np.bool_)) for v in input_x):
        raise TypeError(f"'input_x' must hold only numbers, got {input_x!r}")
    first = input_x[0]
    is_int = isinstance(first, (bool, int, np.integer, np.bool_))
    return jnp.asarray(np.asarray(input_x, np.float64).astype(np.int32 if is_int else np.float32))


@tensor_op
@_named("scalar_to_tensor")
def scalar_to_tensor(input_x: Any, dtype: Any = jnp.float32) -> jax.Array:  # noqa: A002 - MindSpore's name
    """A 0-d array holding a Python bool, int or float.

    Arguments:
        input_x: the scalar.
        dtype: the output dtype (float32 by default, as in MindSpore).

    Returns:
        the 0-d array.
    """
    if not isinstance(input_x, (bool, int, float, np.number, np.bool_)):
        raise TypeError(f"'input_x' must be a bool, int or float, got {type(input_x).__name__}")
    return jnp.asarray(input_x, to_jax_dtype(dtype))
