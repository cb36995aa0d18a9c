"""Pooling layers with MindSpore 2.10's arguments, defaults and window arithmetic.

Two families of rules, as in MindSpore:

* ``pad_mode='valid'`` / ``'same'`` (MindSpore's ``MaxPool`` / ``AvgPool``): 'same'
  is TensorFlow's SAME (``ceil(in / stride)`` outputs, odd padding at the end) and
  an average divides by the number of input elements in the window.
* ``pad_mode='pad'``, and for averages any of ``padding``, ``ceil_mode``,
  ``count_include_pad=False`` or ``divisor_override`` (MindSpore's 3-D kernels):
  explicit padding, PyTorch's ``ceil_mode`` (a last window starting in the
  right padding is dropped) and ``count_include_pad`` (the divisor counts the
  explicit padding, never the ceil-mode overhang).

Adaptive pools use the bins ``[floor(i * in / out), ceil((i + 1) * in / out))``.

Example:
    >>> import mindjax as ms
    >>> from mindjax import nn, ops
    >>> nn.MaxPool2d(kernel_size=2, stride=2)(ops.ones((1, 3, 8, 8), ms.float32)).shape
    (1, 3, 4, 4)
    >>> nn.AdaptiveAvgPool2d(1)(ops.ones((2, 5, 7, 7), ms.float32)).shape
    (2, 5, 1, 1)
"""
from __future__ import annotations

from typing import Any, Sequence

import jax
import jax.numpy as jnp
import numpy as np

from mindjax.cells.cell import Cell
from mindjax.cells.layers._inputs import nonempty_axes, tensor_input
from mindjax.cells.layers.basic import _is_int
from mindjax.cells.layers.conv import _same_pads

__all__ = ["MaxPool1d", "MaxPool2d", "AvgPool1d", "AvgPool2d", "AdaptiveAvgPool1d",
           "AdaptiveAvgPool2d", "AdaptiveMaxPool1d", "AdaptiveMaxPool2d"]


def _int_or_tuple(value: Any, arg: str, cls_name: str) -> Any:
    """MindSpore's check: a positive int or a tuple of them; a 1-tuple becomes its item."""
    if _is_int(value):
        if value <= 0:
            raise ValueError(f"For '{cls_name}', '{arg}' must be a positive int or a tuple of "
                             f"positive ints, got {value!r}")
        return int(value)
    if isinstance(value, tuple) and value and all(_is_int(v) and v > 0 for v in value):
        return value[0] if len(value) == 1 else value
    raise ValueError(f"For '{cls_name}', '{arg}' must be a positive int or a tuple of positive "
                     f"ints, got {value!r}")


def _per_dim(value: Any, n: int, arg: str, cls_name: str) -> tuple[int, ...]:
    if _is_int(value):
        return (int(value),) * n
    if isinstance(value, (tuple, list)) and len(value) in (1, n) and all(_is_int(v) for v in value):
        return tuple(int(v) for v in value) * (n if len(value) == 1 else 1)
    raise ValueError(f"For '{cls_name}', '{arg}' must be an int or a tuple of 1 or {n} ints, "
                     f"got {value!r}")


def _non_negative_padding(padding: Any, n: int, cls_name: str) -> tuple[int, ...]:
    pads = _per_dim(padding, n, "padding", cls_name)
    if any(p < 0 for p in pads):
        raise ValueError(f"For '{cls_name}', 'padding' must be non-negative, got {padding!r}")
    return pads


def _ceil_out(size: int, kernel: int, stride: int, dilation: int, lo: int, hi: int,
              ceil_mode: bool) -> int:
    """Output length with explicit padding; ceil mode drops a window starting past the input."""
    span = size + lo + hi - (kernel - 1) * dilation - 1
    if not ceil_mode:
        return span // stride + 1
    out = -(-span // stride) + 1
    if (out - 1) * stride >= size + lo:
        out -= 1
    return out


class _Window:
    """The static geometry of one spatial dim: padding, output length, divisors."""

    def __init__(self, size: int, kernel: int, stride: int, dilation: int, lo: int, hi: int,
                 out: int) -> None:
        self.size, self.kernel, self.stride, self.dilation = size, kernel, stride, dilation
        self.lo, self.hi, self.out = lo, hi, out
        # ceil mode can need more than the explicit padding on the right
        self.extra = max((out - 1) * stride + (kernel - 1) * dilation + 1 - (size + lo + hi), 0)

    def counts(self, include_pad: bool) -> np.ndarray:
        """Per output position: the divisor of an average (PyTorch/MindSpore rule)."""
        start = np.arange(self.out) * self.stride - self.lo
        end = np.minimum(start + self.kernel, self.size + self.hi)
        if include_pad:
            return (end - start).astype(np.float64)
        return (np.minimum(end, self.size) - np.maximum(start, 0)).astype(np.float64)


def _windows(shape: Sequence[int], kernel: Sequence[int], stride: Sequence[int],
             dilation: Sequence[int], mode: str, padding: Sequence[int],
             ceil_mode: bool) -> list[_Window]:
    out = []
    for size, k, s, d, p in zip(shape, kernel, stride, dilation, padding):
        if mode == "SAME":
            lo, hi = _same_pads(size, k, s, d)
            n = -(-size // s)
        elif mode == "VALID":
            lo = hi = 0
            n = _ceil_out(size, k, s, d, 0, 0, ceil_mode)
        else:
            lo = hi = p
            n = _ceil_out(size, k, s, d, lo, hi, ceil_mode)
        out.append(_Window(size, k, s, d, lo, hi, n))
    return out


def _reduce(x: Any, wins: Sequence[_Window], axes: Sequence[int], init: Any,
            op: Any) -> Any:
    dims, strides, dil, pads = [1] * x.ndim, [1] * x.ndim, [1] * x.ndim, [(0, 0)] * x.ndim
    for w, axis in zip(wins, axes):
        dims[axis], strides[axis], dil[axis] = w.kernel, w.stride, w.dilation
        pads[axis] = (w.lo, w.hi + w.extra)
    return jax.lax.reduce_window(x, init, op, tuple(dims), tuple(strides), tuple(pads),
                                 window_dilation=tuple(dil))


def _lowest(dtype: Any) -> Any:
    # A numpy scalar, not a jax array: lax.reduce_window only recognises (and can
    # differentiate) the max monoid when the init value is concrete at trace time.
    if jnp.issubdtype(dtype, jnp.floating):
        return np.array(-np.inf, dtype)
    return np.array(jnp.iinfo(dtype).min, dtype)


def _max_pool(x: Any, wins: Sequence[_Window], axes: Sequence[int]) -> Any:
    return _reduce(x, wins, axes, _lowest(x.dtype), jax.lax.max)


def _avg_pool(x: Any, wins: Sequence[_Window], axes: Sequence[int], include_pad: bool,
              divisor_override: int | None) -> Any:
    total = _reduce(x, wins, axes, np.array(0, x.dtype), jax.lax.add)
    if divisor_override:
        return total / jnp.asarray(divisor_override, x.dtype)
    divisor = np.ones(())
    for w in wins:
        divisor = np.multiply.outer(divisor, w.counts(include_pad))
    shape = [1] * x.ndim
    for w, axis in zip(wins, axes):
        shape[axis] = w.out
    return total / jnp.asarray(divisor.reshape(shape), x.dtype)


def _index_dtype() -> Any:
    return jax.dtypes.canonicalize_dtype(jnp.int64)


def _max_pool_with_indices(x: Any, wins: Sequence[_Window]) -> tuple[Any, Any]:
    """Max pool over the last two axes, also returning the argmax as ``h * W + w``."""
    wh, ww = wins
    pad = [(0, 0)] * (x.ndim - 2) + [(wh.lo, wh.hi + wh.extra), (ww.lo, ww.hi + ww.extra)]
    xp = jnp.pad(x, pad, constant_values=_lowest(x.dtype))
    ih = np.arange(wh.out)[:, None] * wh.stride + np.arange(wh.kernel)[None, :] * wh.dilation
    iw = np.arange(ww.out)[:, None] * ww.stride + np.arange(ww.kernel)[None, :] * ww.dilation
    patches = xp[..., ih[:, None, :, None], iw[None, :, None, :]]
    flat = patches.reshape(patches.shape[:-2] + (-1,))
    best = jnp.argmax(flat, axis=-1)
    values = jnp.max(flat, axis=-1)
    rows = jnp.asarray(ih - wh.lo)[:, None, :, None]
    cols = jnp.asarray(iw - ww.lo)[None, :, None, :]
    index_map = (rows * ww.size + cols).reshape(wh.out, ww.out, -1)
    index = jnp.take_along_axis(jnp.broadcast_to(index_map, flat.shape), best[..., None], axis=-1)
    return values, index[..., 0].astype(_index_dtype())


def _check_rank(cell: Cell, x: Any, ranks: tuple[int, ...], layout: str) -> None:
    arr = tensor_input(cell._where(), "x", x)
    if arr.dtype == jnp.bool_ or jnp.issubdtype(arr.dtype, jnp.complexfloating):
        raise TypeError(f"{cell._where()}, the input 'x' must be a real-number Tensor (float or int), "
                        f"got {arr.dtype}")
    shape = tuple(arr.shape)
    if len(shape) not in ranks:
        raise ValueError(f"{cell._where()}, expected input of rank {' or '.join(map(str, ranks))} "
                         f"({layout}), got shape {shape}")
    # Pooling over an empty window gives NaN (average) or -inf (max).
    spatial = sum(layout.split(" or ")[0].count(c) for c in "DHWL")
    if getattr(cell, "format", "NCHW") == "NHWC" and len(shape) == 4:
        axes = [1, 2]
    else:
        axes = list(range(len(shape) - spatial, len(shape)))
    nonempty_axes(cell._where(), "x", x, axes)


class _PoolNd(Cell):
    """Shared validation and repr of MaxPool/AvgPool (MindSpore's ``_PoolNd``)."""

    def __init__(self, kernel_size: Any, stride: Any, pad_mode: str, data_format: str = "NCHW") -> None:
        super().__init__()
        name = type(self).__name__
        if not isinstance(pad_mode, str) or pad_mode.upper() not in ("VALID", "SAME", "PAD"):
            raise ValueError(f"For '{name}', 'pad_mode' must be one of ['valid', 'same', 'pad'], "
                             f"got {pad_mode!r}")
        if data_format not in ("NCHW", "NHWC"):
            raise ValueError(f"For '{name}', 'data_format' must be 'NCHW' or 'NHWC', got {data_format!r}")
        self.pad_mode = pad_mode.upper()
        self.format = data_format
        self.kernel_size = _int_or_tuple(kernel_size, "kernel_size", name)
        self.stride = _int_or_tuple(stride, "stride", name)

    def extend_repr(self) -> str:
        return f"kernel_size={self.kernel_size}, stride={self.stride}, pad_mode={self.pad_mode}"


class MaxPool2d(_PoolNd):
    """2-D max pooling over ``(N, C, H, W)`` or ``(C, H, W)`` (MindSpore's ``nn.MaxPool2d``).

    Arguments:
        kernel_size: an int or ``(kh, kw)``. Default 1.
        stride: an int or ``(sh, sw)``. Default 1.
        pad_mode: ``'valid'`` (default), ``'same'`` (TF SAME) or ``'pad'``.
        padding: with ``pad_mode='pad'``: an int or ``(ph, pw)``, padded on both sides with -inf;
            at most half the kernel.
        dilation, return_indices, ceil_mode: only with ``pad_mode='pad'``.
        data_format: ``'NCHW'`` (default) or ``'NHWC'`` (not with ``pad_mode='pad'``).

    Returns:
        the pooled tensor; with ``return_indices`` also the argmax of each window as a
        flat index ``h * W + w`` into the input plane.
    """

    def __init__(self, kernel_size: int | tuple[int, int] = 1, stride: int | tuple[int, int] = 1,
                 pad_mode: str = "valid", padding: int | tuple[int, int] = 0,
                 dilation: int | tuple[int, int] = 1, return_indices: bool = False,
                 ceil_mode: bool = False, data_format: str = "NCHW") -> None:
        super().__init__(kernel_size, stride, pad_mode, data_format)
        name = type(self).__name__
        self.return_indices = return_indices
        self._kernel = _per_dim(self.kernel_size, 2, "kernel_size", name)
        self._stride = _per_dim(self.stride, 2, "stride", name)
        self.use_pad = self.pad_mode == "PAD"
        if self.use_pad:
            if self.format == "NHWC":
                raise ValueError(f"For '{name}', 'data_format' 'NHWC' is not supported with "
                                 f"pad_mode 'pad'")
            self.padding = _non_negative_padding(padding, 2, name)
            self._dilation = _per_dim(dilation, 2, "dilation", name)
            if any(p * 2 > k for p, k in zip(self.padding, self._kernel)):
                raise ValueError(f"For '{name}', 'padding' must be at most half of 'kernel_size', "
                                 f"got padding={padding!r}, kernel_size={kernel_size!r}")
        else:
            if padding != 0 or dilation != 1 or return_indices or ceil_mode:
                raise ValueError(f"For '{name}', 'padding', 'dilation', 'return_indices' and "
                                 f"'ceil_mode' must keep their defaults unless pad_mode is 'pad', "
                                 f"got pad_mode={pad_mode!r}")
            self.padding = (0, 0)
            self._dilation = (1, 1)
        self.ceil_mode = ceil_mode

    def construct(self, x: Any) -> Any:
        _check_rank(self, x, (3, 4), "(C, H, W) or (N, C, H, W)")
        axes = (1, 2) if self.format == "NHWC" and x.ndim == 4 else (x.ndim - 2, x.ndim - 1)
        shape = [x.shape[a] for a in axes]
        wins = _windows(shape, self._kernel, self._stride, self._dilation, self.pad_mode,
                        self.padding, self.ceil_mode)
        if self.return_indices:
            return _max_pool_with_indices(x, wins)
        return _max_pool(x, wins, axes)


class MaxPool1d(_PoolNd):
    """1-D max pooling over ``(N, C, L)`` or ``(C, L)`` (MindSpore's ``nn.MaxPool1d``).

    Arguments:
        kernel_size, stride: positive ints (default 1).
        pad_mode, padding, dilation, return_indices, ceil_mode: as :class:`MaxPool2d`,
            for one dim.

    Returns:
        ``(N, C, L_out)``, and the argmax indices when ``return_indices``.
    """

    def __init__(self, kernel_size: int = 1, stride: int = 1, pad_mode: str = "valid",
                 padding: int = 0, dilation: int = 1, return_indices: bool = False,
                 ceil_mode: bool = False) -> None:
        super().__init__(kernel_size, stride, pad_mode)
        name = type(self).__name__
        if not _is_int(kernel_size) or not _is_int(stride):
            raise ValueError(f"For '{name}', 'kernel_size' and 'stride' must be positive ints, "
                             f"got {kernel_size!r} and {stride!r}")
        self.return_indices = return_indices
        self.use_pad = self.pad_mode == "PAD"
        # MindSpore keeps the 2-D (or 3-D, with 'pad') views of these; the repr shows them
        if self.use_pad:
            self.kernel_size, self.stride = (1, 1, kernel_size), (1, 1, stride)
            self.padding = _non_negative_padding(padding, 1, name)
            self._dilation = _per_dim(dilation, 1, "dilation", name)
            if self.padding[0] * 2 > kernel_size:
                raise ValueError(f"For '{name}', 'padding' must be at most half of 'kernel_size', "
                                 f"got padding={padding!r}, kernel_size={kernel_size!r}")
        else:
            if padding != 0 or dilation != 1 or return_indices or ceil_mode:
                raise ValueError(f"For '{name}', 'padding', 'dilation', 'return_indices' and "
                                 f"'ceil_mode' must keep their defaults unless pad_mode is 'pad', "
                                 f"got pad_mode={pad_mode!r}")
            self.kernel_size, self.stride = (1, kernel_size), (1, stride)
            self.padding, self._dilation = (0,), (1,)
        self._kernel, self._stride = (int(kernel_size),), (int(stride),)
        self.ceil_mode = ceil_mode

    def construct(self, x: Any) -> Any:
        _check_rank(self, x, (2, 3), "(C, L) or (N, C, L)")
        wins = _windows([x.shape[-1]], self._kernel, self._stride, self._dilation, self.pad_mode,
                        self.padding, self.ceil_mode)
        if self.return_indices:
            unit = _Window(1, 1, 1, 1, 0, 0, 1)
            values, index = _max_pool_with_indices(x[..., None, :], [unit, wins[0]])
            return values[..., 0, :], index[..., 0, :]
        return _max_pool(x, wins, (x.ndim - 1,))


def _cal_avg_padding(padding: Any, n: int, cls_name: str) -> tuple[int, ...]:
    if _is_int(padding):
        pads = (int(padding),) * n
    elif isinstance(padding, (tuple, list)) and len(padding) in (1, n) \
            and all(_is_int(p) for p in padding):
        pads = tuple(int(p) for p in padding) * (n if len(padding) == 1 else 1)
    else:
        raise ValueError(f"For '{cls_name}', 'padding' must be an int or a tuple of 1 or {n} ints, "
                         f"got {padding!r}")
    if any(p < 0 for p in pads):
        raise ValueError(f"For '{cls_name}', 'padding' must be non-negative, got {padding!r}")
    return pads


class _AvgPool(_PoolNd):
    """Shared construction of the average pools."""

    def _setup(self, n: int, kernel: tuple[int, ...], stride: tuple[int, ...], padding: Any,
               ceil_mode: bool, count_include_pad: bool, divisor_override: int | None) -> None:
        name = type(self).__name__
        self.is_expand = (self.pad_mode == "PAD" or padding != 0 or ceil_mode
                          or not count_include_pad or divisor_override is not None)
        if divisor_override is not None and (not _is_int(divisor_override) or divisor_override <= 0):
            raise ValueError(f"For '{name}', 'divisor_override' must be a positive int, "
                             f"got {divisor_override!r}")
        pads = _cal_avg_padding(padding, n, name)
        if self.pad_mode != "PAD" and any(pads):
            raise ValueError(f"For '{name}', 'padding' must be 0 when pad_mode is not 'pad', "
                             f"got padding={padding!r} with pad_mode={self.pad_mode!r}")
        if any(2 * p > k for p, k in zip(pads, kernel)):
            raise ValueError(f"For '{name}', the padding on both sides must sum to at most "
                             f"'kernel_size', got padding={padding!r}, kernel_size={kernel}")
        if self.is_expand and self.format == "NHWC":
            raise ValueError(f"For '{name}', 'data_format' 'NHWC' is not supported with "
                             f"pad_mode 'pad', padding, ceil_mode, count_include_pad=False or "
                             f"divisor_override")
        self._kernel, self._stride, self._padding = kernel, stride, pads
        self.ceil_mode = ceil_mode
        self.count_include_pad = count_include_pad
        self.divisor_override = divisor_override

    def _pool(self, x: Any, axes: tuple[int, ...]) -> Any:
        shape = [x.shape[a] for a in axes]
        ones = (1,) * len(axes)
        wins = _windows(shape, self._kernel, self._stride, ones, self.pad_mode, self._padding,
                        self.ceil_mode)
        # MindSpore's plain AvgPool ('valid'/'same' without the extras) never counts padding
        include = self.count_include_pad if self.is_expand else False
        return _avg_pool(x, wins, axes, include, self.divisor_override)


class AvgPool2d(_AvgPool):
    """2-D average pooling over ``(N, C, H, W)`` or ``(C, H, W)`` (MindSpore's ``nn.AvgPool2d``).

    Arguments:
        kernel_size: an int or ``(kh, kw)``. Default 1.
        stride: an int or ``(sh, sw)``. Default 1.
        pad_mode: ``'valid'`` (default), ``'same'`` or ``'pad'``.
        padding: with ``pad_mode='pad'``: an int or ``(ph, pw)``.
        ceil_mode: round the output length up (PyTorch's rule).
        count_include_pad: whether the divisor counts explicit padding. Default ``True``;
            it applies only on MindSpore's extended path (see the module docstring).
        divisor_override: divide every window sum by this instead.
        data_format: ``'NCHW'`` or ``'NHWC'``.

    Returns:
        the pooled tensor.
    """

    def __init__(self, kernel_size: int | tuple[int, int] = 1, stride: int | tuple[int, int] = 1,
                 pad_mode: str = "valid", padding: int | tuple[int, int] = 0,
                 ceil_mode: bool = False, count_include_pad: bool = True,
                 divisor_override: int | None = None, data_format: str = "NCHW") -> None:
        super().__init__(kernel_size, stride, pad_mode, data_format)
        name = type(self).__name__
        self._setup(2, _per_dim(self.kernel_size, 2, "kernel_size", name),
                    _per_dim(self.stride, 2, "stride", name), padding, ceil_mode,
                    count_include_pad, divisor_override)

    def construct(self, x: Any) -> Any:
        _check_rank(self, x, (3, 4), "(C, H, W) or (N, C, H, W)")
        axes = (1, 2) if self.format == "NHWC" and x.ndim == 4 else (x.ndim - 2, x.ndim - 1)
        return self._pool(x, axes)


class AvgPool1d(_AvgPool):
    """1-D average pooling over ``(N, C, L)`` or ``(C, L)`` (MindSpore's ``nn.AvgPool1d``).

    Arguments:
        kernel_size, stride: positive ints (default 1).
        pad_mode, padding, ceil_mode, count_include_pad: as :class:`AvgPool2d`, for one dim.

    Returns:
        ``(N, C, L_out)``.
    """

    def __init__(self, kernel_size: int = 1, stride: int = 1, pad_mode: str = "valid",
                 padding: int = 0, ceil_mode: bool = False, count_include_pad: bool = True) -> None:
        super().__init__(kernel_size, stride, pad_mode)
        name = type(self).__name__
        if not _is_int(self.kernel_size) or not _is_int(self.stride):
            raise ValueError(f"For '{name}', 'kernel_size' and 'stride' must be positive ints, "
                             f"got {kernel_size!r} and {stride!r}")
        k, s = int(self.kernel_size), int(self.stride)
        self._setup(1, (k,), (s,), padding, ceil_mode, count_include_pad, None)
        if not self.is_expand:
            # MindSpore keeps the 2-D view of these on its plain path; the repr shows it
            self.kernel_size, self.stride = (1, k), (1, s)

    def construct(self, x: Any) -> Any:
        _check_rank(self, x, (2, 3), "(C, L) or (N, C, L)")
        return self._pool(x, (x.ndim - 1,))


# -- adaptive pooling -------------------------------------------------------------------
def _bins(size: int, out: int) -> tuple[np.ndarray, np.ndarray]:
    i = np.arange(out)
    return (i * size) // out, -(-((i + 1) * size) // out)


def _gather_bins(x: Any, axis: int, out: int) -> tuple[Any, np.ndarray, np.ndarray]:
    """``x`` with ``axis`` replaced by ``(out, widest bin)``; the mask marks real members."""
    start, end = _bins(x.shape[axis], out)
    width = int((end - start).max())
    offsets = start[:, None] + np.arange(width)[None, :]
    valid = offsets < end[:, None]
    index = np.where(valid, offsets, start[:, None])  # repeats stay inside the bin
    return jnp.take(x, jnp.asarray(index), axis=axis), valid, index


def _adaptive_1axis(x: Any, axis: int, out: int, kind: str) -> Any:
    size = x.shape[axis]
    if size % out == 0:
        shaped = x.reshape(x.shape[:axis] + (out, size // out) + x.shape[axis + 1:])
        return shaped.mean(axis=axis + 1) if kind == "avg" else shaped.max(axis=axis + 1)
    gathered, valid, _ = _gather_bins(x, axis, out)
    if kind == "max":
        return gathered.max(axis=axis + 1)
    mask_shape = [1] * gathered.ndim
    mask_shape[axis], mask_shape[axis + 1] = valid.shape
    mask = jnp.asarray(valid.reshape(mask_shape), gathered.dtype)
    counts = jnp.asarray(valid.sum(1).reshape(mask_shape[:axis + 1] + mask_shape[axis + 2:]),
                         gathered.dtype)
    return (gathered * mask).sum(axis=axis + 1) / counts


def _adaptive_out_size(output_size: Any, cls_name: str) -> tuple[int | None, int | None]:
    if _is_int(output_size):
        items: tuple[Any, ...] = (output_size, output_size)
    elif isinstance(output_size, (tuple, list)) and len(output_size) == 2:
        items = tuple(output_size)
    else:
        raise ValueError(f"For '{cls_name}', 'output_size' must be an int or a tuple of 2 ints "
                         f"or None, got {output_size!r}")
    for item in items:
        if item is not None and (not _is_int(item) or item <= 0):
            raise ValueError(f"For '{cls_name}', 'output_size' must hold positive ints or None, "
                             f"got {output_size!r}")
    return items  # type: ignore[return-value]


class _Adaptive2d(Cell):
    def __init__(self, output_size: Any) -> None:
        super().__init__()
        self.output_size = output_size
        self._out = _adaptive_out_size(output_size, type(self).__name__)

    def _sizes(self, x: Any) -> tuple[int, int]:
        _check_rank(self, x, (3, 4), "(C, H, W) or (N, C, H, W)")
        h, w = x.shape[-2:]
        return (self._out[0] or h, self._out[1] or w)


class AdaptiveAvgPool2d(_Adaptive2d):
    """Average over ``output_size`` bins of the last two dims (MindSpore's ``nn.AdaptiveAvgPool2d``).

    ``AdaptiveAvgPool2d(1)`` is global average pooling.

    Arguments:
        output_size: an int or ``(out_h, out_w)``; ``None`` keeps that input dim.

    Returns:
        ``(N, C, out_h, out_w)`` (or ``(C, out_h, out_w)``).
    """

    def construct(self, x: Any) -> Any:
        out_h, out_w = self._sizes(x)
        x = _adaptive_1axis(x, x.ndim - 2, out_h, "avg")
        return _adaptive_1axis(x, x.ndim - 1, out_w, "avg")


class AdaptiveMaxPool2d(_Adaptive2d):
    """Max over ``output_size`` bins of the last two dims (MindSpore's ``nn.AdaptiveMaxPool2d``).

    Arguments:
        output_size: an int or ``(out_h, out_w)``; ``None`` keeps that input dim.
        return_indices: also return the argmax of each bin as ``h * W + w``.

    Returns:
        ``(N, C, out_h, out_w)``, and the indices when ``return_indices``.
    """

    def __init__(self, output_size: Any, return_indices: bool = False) -> None:
        super().__init__(output_size)
        self.return_indices = return_indices

    def construct(self, x: Any) -> Any:
        out_h, out_w = self._sizes(x)
        if not self.return_indices:
            x = _adaptive_1axis(x, x.ndim - 2, out_h, "max")
            return _adaptive_1axis(x, x.ndim - 1, out_w, "max")
        h, w = x.shape[-2:]
        rows, _, row_index = _gather_bins(x, x.ndim - 2, out_h)
        patches, _, col_index = _gather_bins(rows, rows.ndim - 1, out_w)
        # patches: (..., out_h, bin_h, out_w, bin_w) -> (..., out_h, out_w, bin_h * bin_w)
        patches = jnp.moveaxis(patches, -3, -2)
        flat = patches.reshape(patches.shape[:-2] + (-1,))
        best = jnp.argmax(flat, axis=-1)
        index_map = (row_index[:, None, :, None] * w + col_index[None, :, None, :])
        index_map = jnp.asarray(index_map.reshape(out_h, out_w, -1))
        index = jnp.take_along_axis(jnp.broadcast_to(index_map, flat.shape), best[..., None], -1)
        return flat.max(axis=-1), index[..., 0].astype(_index_dtype())


class _Adaptive1d(Cell):
    def __init__(self, output_size: int) -> None:
        super().__init__()
        if not _is_int(output_size) or output_size < 1:
            raise ValueError(f"For '{type(self).__name__}', 'output_size' must be a positive int, "
                             f"got {output_size!r}")
        self.output_size = int(output_size)

    def _check(self, x: Any) -> None:
        shape = tuple(getattr(x, "shape", ()))
        if len(shape) != 3:
            raise ValueError(f"{self._where()}, expected input of rank 3 (N, C, L), got shape {shape}")
        if shape[2] < self.output_size or shape[2] % self.output_size:
            raise ValueError(f"{self._where()}, the input's last dim must be a multiple of "
                             f"output_size {self.output_size} (MindSpore's rule), got shape {shape}")
        if x.dtype not in (jnp.float16, jnp.float32):
            raise TypeError(f"{self._where()}, the input must be float16 or float32, got {x.dtype}")


class AdaptiveAvgPool1d(_Adaptive1d):
    """Average over ``output_size`` equal bins of ``(N, C, L)`` (MindSpore's ``nn.AdaptiveAvgPool1d``).

    As in MindSpore, ``L`` must be a multiple of ``output_size``.

    Arguments:
        output_size: a positive int.

    Returns:
        ``(N, C, output_size)``.
    """

    def construct(self, x: Any) -> Any:
        self._check(x)
        return _adaptive_1axis(x, 2, self.output_size, "avg")


class AdaptiveMaxPool1d(_Adaptive1d):
    """Max over ``output_size`` equal bins of ``(N, C, L)`` (MindSpore's ``nn.AdaptiveMaxPool1d``).

    Arguments:
        output_size: a positive int; ``L`` must be a multiple of it.

    Returns:
        ``(N, C, output_size)``.
    """

    def construct(self, x: Any) -> Any:
        self._check(x)
        return _adaptive_1axis(x, 2, self.output_size, "max")
