"""More of MindSpore 2.10's ``mindspore.nn``: padding, resizing, masks and two losses.

``Dropout2d``, ``Pad``, ``ZeroPad2d``, ``Upsample``, ``OneHot``, ``Tril``, ``Triu``,
``Range``, ``Norm``, ``ClipByNorm``, ``Unfold``, ``FocalLoss`` and ``DiceLoss`` take
MindSpore's constructor arguments and defaults and give its numerics.

Example:
    >>> import mindjax as ms
    >>> from mindjax import nn
    >>> nn.ZeroPad2d(1)(ms.Tensor([[[[1.0]]]])).shape
    (1, 1, 3, 3)
"""
from __future__ import annotations

import numbers
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from mindjax.common.tensor import Tensor
from mindjax.cells.cell import Cell
from mindjax.cells.loss import LossBase
from mindjax.common import dtype as mstype
from mindjax.common.tensor import as_array as _arr
from mindjax.ops.function.nn_func import dropout2d
from mindjax.ops.functional import interpolate
from mindjax.ops.functional_array import gather_d

__all__ = ["Dropout2d", "Pad", "ZeroPad2d", "Upsample", "OneHot", "Tril", "Triu", "Range", "MatMul", "Norm",
           "ClipByNorm", "Unfold", "FocalLoss", "DiceLoss"]


def _is_int(value: Any) -> bool:
    return isinstance(value, (int, np.integer)) and not isinstance(value, bool)


class Dropout2d(Cell):
    """Zero whole channels of an ``(N, C, H, W)`` input with probability ``p`` in training.

    Kept channels are scaled by ``1 / (1 - p)``; in inference the input is returned
    as is. The mask draws from the global key, as ``nn.Dropout`` does.

    Arguments:
        p: the probability of zeroing a channel, a float in ``[0, 1]`` (default ``0.5``).

    Raises:
        ValueError: ``p`` out of range, or an input that is not 4-D.
    """

    def __init__(self, p: float = 0.5) -> None:
        super().__init__()
        if not isinstance(p, float):
            raise TypeError(f"For 'Dropout2d', 'p' must be a float, got {type(p).__name__}")
        if not 0 <= p <= 1:
            raise ValueError(f"For 'Dropout2d', 'p' must be a number in range [0, 1], got {p}")
        self.p = p
        self.keep_prob = 1.0 - p

    def construct(self, x: Any) -> jax.Array:
        x = _arr(x)
        if x.ndim != 4:
            raise ValueError(f"{self._where()}, expected a 4-D input (N, C, H, W), got shape "
                             f"{tuple(x.shape)}")
        return dropout2d(x, self.p, self.training)

    def extend_repr(self) -> str:
        """``p=...``."""
        return f"p={self.p}"


_PAD_MODES = {"CONSTANT": "constant", "REFLECT": "reflect", "SYMMETRIC": "symmetric"}


class Pad(Cell):
    """Pad each dimension by ``paddings[d] = (before, after)``.

    Arguments:
        paddings: a tuple of ``(before, after)`` pairs, one per input dimension (at most 4).
        mode: ``'CONSTANT'`` (zeros, default), ``'REFLECT'`` (mirror without the edge)
            or ``'SYMMETRIC'`` (mirror with the edge).

    Raises:
        ValueError: an unknown ``mode``, a pair that is not of length 2, more than 4
            pairs, or an input whose rank differs from ``len(paddings)``.
    """

    def __init__(self, paddings: tuple[tuple[int, int], ...], mode: str = "CONSTANT") -> None:
        super().__init__()
        if mode not in _PAD_MODES:
            raise ValueError(f"For 'Pad', 'mode' must be one of {list(_PAD_MODES)}, got {mode!r}")
        if not isinstance(paddings, tuple):
            raise TypeError(f"For 'Pad', 'paddings' must be a tuple, got {type(paddings).__name__}")
        for item in paddings:
            if not isinstance(item, (tuple, list)) or len(item) != 2:
                raise ValueError(f"For 'Pad', 'paddings' must have shape (n, 2), got {paddings}")
        if len(paddings) > 4:
            raise ValueError(f"For 'Pad', 'paddings' may cover at most 4 dims, got {len(paddings)}")
        self.paddings = tuple((int(a), int(b)) for a, b in paddings)
        self.mode = mode

    def construct(self, x: Any) -> jax.Array:
        x = _arr(x)
        if x.ndim != len(self.paddings):
            raise ValueError(f"{self._where()}, 'paddings' has {len(self.paddings)} pairs but the "
                             f"input has shape {tuple(x.shape)}")
        if self.mode != "CONSTANT":
            limit = 0 if self.mode == "REFLECT" else 1
            for dim, (a, b) in zip(x.shape, self.paddings):
                if max(a, b) > dim - 1 + limit:
                    raise ValueError(f"{self._where()}, {self.mode} padding {(a, b)} is too large for "
                                     f"an input of shape {tuple(x.shape)}")
        return jnp.pad(x, self.paddings, mode=_PAD_MODES[self.mode])


class ZeroPad2d(Cell):
    """Pad the last two dimensions with zeros, PyTorch style.

    Arguments:
        padding: an int (all four sides) or a tuple ``(left, right[, top, bottom])``:
            pairs apply from the last dimension backwards.

    Raises:
        ValueError: a tuple of odd length or longer than 4.
    """

    def __init__(self, padding: int | tuple[int, ...]) -> None:
        super().__init__()
        if _is_int(padding):
            padding = (int(padding),) * 4
        elif isinstance(padding, tuple):
            if len(padding) % 2 != 0:
                raise ValueError(f"For 'ZeroPad2d', the length of 'padding' must be a multiple of 2, "
                                 f"got {len(padding)}")
            if len(padding) > 4:
                raise ValueError(f"For 'ZeroPad2d', the length of 'padding' must be no more than 4, "
                                 f"got {len(padding)}")
        else:
            raise TypeError(f"For 'ZeroPad2d', 'padding' must be an int or a tuple, got "
                            f"{type(padding).__name__}")
        self.padding = tuple(padding)
        self.value = 0

    def construct(self, x: Any) -> jax.Array:
        x = _arr(x)
        pairs = [(self.padding[i], self.padding[i + 1]) for i in range(0, len(self.padding), 2)]
        if len(pairs) > x.ndim:
            raise ValueError(f"{self._where()}, 'padding' {self.padding} covers more dims than the "
                             f"input of shape {tuple(x.shape)}")
        widths = [(0, 0)] * (x.ndim - len(pairs)) + pairs[::-1]
        # Negative padding crops, as MindSpore's ops.pad does.
        crop = tuple(slice(max(-a, 0), d - max(-b, 0)) for d, (a, b) in zip(x.shape, widths))
        x = x[crop]
        return jnp.pad(x, [(max(a, 0), max(b, 0)) for a, b in widths], constant_values=0)


_UPSAMPLE_MODES = ("nearest", "linear", "bilinear", "trilinear", "area")


class Upsample(Cell):
    """Resize the spatial dimensions of an ``(N, C, *spatial)`` input.

    Arguments:
        size: the output spatial size (an int or a tuple), or ``None``.
        scale_factor: a multiplier of the spatial size (a float or a tuple), or ``None``;
            exactly one of ``size`` and ``scale_factor`` must be given.
        mode: ``'nearest'`` (default), ``'linear'`` (3-D input), ``'bilinear'`` (4-D),
            ``'trilinear'`` (5-D) or ``'area'`` (3-D to 5-D: adaptive average pooling to the
            output size, as :func:`mindjax.ops.interpolate`).
        align_corners: for the linear modes: map the corner pixels onto each other
            (``True``) or use half-pixel centres (``False``/``None``). Must be ``None``
            or ``False`` for ``'nearest'``.
        recompute_scale_factor: with ``scale_factor``, compute the coordinate scale from the
            output size (``True``) instead of from ``scale_factor``.

    Raises:
        ValueError: both or neither of ``size``/``scale_factor``, an unknown ``mode``,
            ``align_corners`` with ``'nearest'``, or an input of the wrong rank.
    """

    def __init__(self, size: Any = None, scale_factor: Any = None, mode: str = "nearest",
                 align_corners: bool | None = None, recompute_scale_factor: bool | None = None) -> None:
        super().__init__()
        if mode not in _UPSAMPLE_MODES:
            raise ValueError(f"For 'Upsample', 'mode' must be one of {list(_UPSAMPLE_MODES)}, got "
                             f"{mode!r}")
        if (size is None) == (scale_factor is None):
            raise ValueError("For 'Upsample', exactly one of 'size' and 'scale_factor' must be set, "
                             f"got size={size}, scale_factor={scale_factor}")
        if mode == "nearest" and align_corners:
            raise ValueError("For 'Upsample', 'align_corners' is only valid for the linear modes, "
                             "got align_corners=True with mode='nearest'")
        self.size = size
        self.scale_factor = scale_factor
        self.mode = mode
        self.align_corners = align_corners
        self.recompute_scale_factor = recompute_scale_factor

    def _spatial(self, x: jax.Array) -> tuple[tuple[int, ...], tuple[float, ...]]:
        """The output sizes and the input-per-output coordinate scales."""
        n = x.ndim - 2
        in_sizes = x.shape[2:]
        if self.size is not None:
            size = (self.size,) * n if _is_int(self.size) else tuple(self.size)
            if len(size) != n:
                raise ValueError(f"{self._where()}, 'size' {self.size} does not match the "
                                 f"{n} spatial dims of the input of shape {tuple(x.shape)}")
            return size, tuple(i / o for i, o in zip(in_sizes, size))
        factors = ((self.scale_factor,) * n if isinstance(self.scale_factor, numbers.Real)
                   else tuple(self.scale_factor))
        if len(factors) != n:
            raise ValueError(f"{self._where()}, 'scale_factor' {self.scale_factor} does not match "
                             f"the {n} spatial dims of the input of shape {tuple(x.shape)}")
        size = tuple(int(np.floor(i * f)) for i, f in zip(in_sizes, factors))
        if self.recompute_scale_factor:
            return size, tuple(i / o for i, o in zip(in_sizes, size))
        return size, tuple(1.0 / f for f in factors)

    def construct(self, x: Any) -> jax.Array:
        x = _arr(x)
        if self.mode == "area":  # MindSpore's nn.Upsample is ops.interpolate
            return interpolate(x, self.size, self.scale_factor, "area", self.align_corners,
                               self.recompute_scale_factor)
        want = {"nearest": (3, 4, 5), "linear": (3,), "bilinear": (4,), "trilinear": (5,)}[self.mode]
        if x.ndim not in want:
            raise ValueError(f"{self._where()}, mode {self.mode!r} expects an input of rank in "
                             f"{list(want)}, got shape {tuple(x.shape)}")
        size, scales = self._spatial(x)
        for axis, (in_size, out_size, scale) in enumerate(zip(x.shape[2:], size, scales), start=2):
            if self.mode == "nearest":
                src = np.minimum(np.floor(np.arange(out_size) * scale).astype(np.int64), in_size - 1)
                x = jnp.take(x, jnp.asarray(src), axis=axis)
            else:
                x = self._linear_axis(x, axis, in_size, out_size, scale)
        return x

    def _linear_axis(self, x: jax.Array, axis: int, in_size: int, out_size: int,
                     scale: float) -> jax.Array:
        dst = np.arange(out_size, dtype=np.float64)
        if self.align_corners:
            src = dst * ((in_size - 1) / (out_size - 1)) if out_size > 1 else np.zeros_like(dst)
        else:
            src = np.maximum((dst + 0.5) * scale - 0.5, 0.0)
        lo = np.minimum(np.floor(src).astype(np.int64), in_size - 1)
        hi = np.minimum(lo + 1, in_size - 1)
        frac = (src - lo).astype(np.float32)
        shape = [1] * x.ndim
        shape[axis] = out_size
        w = jnp.asarray(frac.reshape(shape), x.dtype)
        a, b = jnp.take(x, jnp.asarray(lo), axis=axis), jnp.take(x, jnp.asarray(hi), axis=axis)
        return a + (b - a) * w


class OneHot(Cell):
    """One-hot encode integer indices along ``axis``.

    Arguments:
        axis: where the new ``depth`` dimension goes (``-1``, default, or in ``[0, rank]``).
        depth: the number of classes (default ``1``).
        on_value: the value at the index (default ``1.0``).
        off_value: the value elsewhere (default ``0.0``).
        dtype: the output dtype (default float32).

    Inputs:
        indices: an integer Tensor; indices outside ``[0, depth)`` give all ``off_value``.

    Raises:
        ValueError: a negative ``depth`` or an ``axis`` out of range for the input.
    """

    def __init__(self, axis: int = -1, depth: int = 1, on_value: float = 1.0, off_value: float = 0.0,
                 dtype: Any = mstype.float32) -> None:
        super().__init__()
        if not _is_int(axis):
            raise TypeError(f"For 'OneHot', 'axis' must be an int, got {type(axis).__name__}")
        if not _is_int(depth) or depth < 0:
            raise ValueError(f"For 'OneHot', 'depth' must be a non-negative int, got {depth!r}")
        self.axis = int(axis)
        self.depth = int(depth)
        self.on_value = on_value
        self.off_value = off_value
        self.dtype = dtype

    def construct(self, indices: Any) -> jax.Array:
        indices = _arr(indices)
        if not -1 <= self.axis <= indices.ndim:
            raise ValueError(f"{self._where()}, 'axis' must be in [-1, {indices.ndim}] for indices of "
                             f"shape {tuple(indices.shape)}, got {self.axis}")
        dtype = mstype.to_jax_dtype(self.dtype)
        hot = jax.nn.one_hot(indices, self.depth, axis=self.axis, dtype=jnp.bool_)
        return jnp.where(hot, jnp.asarray(self.on_value, dtype), jnp.asarray(self.off_value, dtype))


def _check_matrix(x: jax.Array, where: str) -> None:
    if x.ndim < 2:
        raise ValueError(f"{where}, expected an input of rank >= 2, got shape {tuple(x.shape)}")


class Tril(Cell):
    """Keep the lower triangle (on and below diagonal ``k``) of the last two dims; zero the rest.

    Inputs:
        x: a Tensor of rank >= 2.
        k: the diagonal offset (default ``0``; positive keeps more).
    """

    def construct(self, x: Any, k: int = 0) -> jax.Array:
        x = _arr(x)
        _check_matrix(x, self._where())
        return jnp.tril(x, k)


class Triu(Cell):
    """Keep the upper triangle (on and above diagonal ``k``) of the last two dims; zero the rest.

    Inputs:
        x: a Tensor of rank >= 2.
        k: the diagonal offset (default ``0``; negative keeps more).
    """

    def construct(self, x: Any, k: int = 0) -> jax.Array:
        x = _arr(x)
        _check_matrix(x, self._where())
        return jnp.triu(x, k)


class Range(Cell):
    """A constant ``arange(start, limit, delta)``: float32 if any bound is a float, else int32.

    Arguments:
        start: the first value (or, with ``limit=None``, the end, starting from 0).
        limit: the end, excluded (default ``None``).
        delta: the step (default ``1``); must not be zero.

    Raises:
        ValueError: ``delta`` is zero.
    """

    def __init__(self, start: float, limit: float | None = None, delta: float = 1) -> None:
        super().__init__()
        if delta == 0:
            raise ValueError("For 'Range', 'delta' can not be zero")
        data = np.arange(start, limit, delta)
        self._data = data.astype(np.float32 if data.dtype == np.float64 else np.int32)

    def construct(self) -> jax.Array:
        return jnp.asarray(self._data)


class MatMul(Cell):
    """The matrix product of two inputs (MindSpore's deprecated ``nn.MatMul``; ``ops.matmul`` replaces it).

    Batch dimensions broadcast; a 1-D input is a vector (two 1-D inputs give
    their dot product).

    Arguments:
        transpose_x1: transpose the last two dims of the first input first.
        transpose_x2: transpose the last two dims of the second input first.

    Raises:
        TypeError: a flag is not a bool.
        ValueError: the inner dimensions differ (raised when called).
    """

    def __init__(self, transpose_x1: bool = False, transpose_x2: bool = False) -> None:
        super().__init__()
        for name, value in (("transpose_x1", transpose_x1), ("transpose_x2", transpose_x2)):
            if not isinstance(value, bool):
                raise TypeError(f"For 'MatMul', '{name}' must be a bool, got {type(value).__name__}")
        self.transpose_x1 = transpose_x1
        self.transpose_x2 = transpose_x2

    def construct(self, x1: Any, x2: Any) -> jax.Array:
        a, b = _arr(x1), _arr(x2)
        if self.transpose_x1 and a.ndim > 1:
            a = jnp.swapaxes(a, -1, -2)
        if self.transpose_x2 and b.ndim > 1:
            b = jnp.swapaxes(b, -1, -2)
        k_b = b.shape[0] if b.ndim == 1 else b.shape[-2]
        if a.ndim == 0 or b.ndim == 0 or a.shape[-1] != k_b:
            raise ValueError(f"{self._where()}, the inputs' inner dimensions must agree, got shapes "
                             f"{tuple(a.shape)} and {tuple(b.shape)} (transpose_x1={self.transpose_x1}, "
                             f"transpose_x2={self.transpose_x2})")
        return jnp.matmul(a, b)


def _axes(axis: Any, cls_name: str) -> tuple[int, ...] | None:
    """``None`` (all) for ``None`` or ``()``; else a tuple of ints."""
    if axis is None or axis == ():
        return None
    if _is_int(axis):
        return (int(axis),)
    if isinstance(axis, (tuple, list)) and all(_is_int(a) for a in axis):
        return tuple(int(a) for a in axis)
    raise TypeError(f"For '{cls_name}', 'axis' must be None, an int or a tuple of ints, got {axis!r}")


class Norm(Cell):
    """The L2 norm ``sqrt(sum(x^2))`` over ``axis`` (``()``, default: all dims).

    Arguments:
        axis: an int or tuple of ints, or ``()`` for all dims.
        keep_dims: keep the reduced dims as size 1 (default ``False``).
    """

    def __init__(self, axis: int | tuple[int, ...] = (), keep_dims: bool = False) -> None:
        super().__init__()
        if not isinstance(keep_dims, bool):
            raise TypeError(f"For 'Norm', 'keep_dims' must be a bool, got {type(keep_dims).__name__}")
        self._axis = _axes(axis, "Norm")
        self.axis = axis
        self.keep_dims = keep_dims

    def construct(self, x: Any) -> jax.Array:
        x = _arr(x)
        out = jnp.sqrt(jnp.sum(jnp.square(x), axis=self._axis, keepdims=True))
        if self.keep_dims:
            return out
        # MindSpore squeezes every size-1 dim when reducing all dims.
        return jnp.squeeze(out, axis=self._axis)


class ClipByNorm(Cell):
    """Scale ``x`` down to L2 norm ``clip_norm`` where its norm (over ``axis``) exceeds it.

    Arguments:
        axis: ``None`` (default, all dims), an int or a tuple of ints.

    Inputs:
        x: a float Tensor.
        clip_norm: a scalar, or a Tensor broadcastable to ``x``.

    Returns:
        a float32 Tensor of ``x``'s shape.
    """

    def __init__(self, axis: int | tuple[int, ...] | None = None) -> None:
        super().__init__()
        self._axis = _axes(axis, "ClipByNorm")
        self.axis = axis

    def construct(self, x: Any, clip_norm: Any) -> jax.Array:
        x = _arr(x).astype(jnp.float32)
        clip = _arr(clip_norm).astype(jnp.float32)
        l2 = jnp.sqrt(jnp.sum(jnp.square(x), axis=self._axis, keepdims=True))
        safe = jnp.where(l2 > 0, l2, 1.0)
        return jnp.where(l2 > clip, x * clip / safe, x)


def _quad(value: Any, arg: str) -> tuple[int, int]:
    if (not isinstance(value, (tuple, list)) or len(value) != 4 or value[0] != 1 or value[3] != 1
            or not all(_is_int(v) and v > 0 for v in value)):
        raise ValueError(f"For 'Unfold', '{arg}' must be a tuple or list [1, row, col, 1] of positive "
                         f"ints, got {value!r}")
    return int(value[1]), int(value[2])


class Unfold(Cell):
    """Extract ``ksizes`` patches of an ``(N, C, H, W)`` input into the channel dim.

    Arguments:
        ksizes: ``[1, kernel_row, kernel_col, 1]``.
        strides: ``[1, stride_row, stride_col, 1]``.
        rates: ``[1, rate_row, rate_col, 1]``: the dilation.
        padding: ``'valid'`` (default) or ``'same'``.

    Returns:
        a Tensor ``(N, kernel_row * kernel_col * C, out_rows, out_cols)``, channels
        ordered row, column, then input channel (MindSpore's order).
    """

    def __init__(self, ksizes: Any, strides: Any, rates: Any, padding: str = "valid") -> None:
        super().__init__()
        self._k = _quad(ksizes, "ksizes")
        self._s = _quad(strides, "strides")
        self._r = _quad(rates, "rates")
        if not isinstance(padding, str) or padding.upper() not in ("VALID", "SAME"):
            raise ValueError(f"For 'Unfold', 'padding' must be 'valid' or 'same', got {padding!r}")
        self.ksizes, self.strides, self.rates = ksizes, strides, rates
        self.padding = padding.upper()

    def construct(self, x: Any) -> jax.Array:
        x = _arr(x)
        if x.ndim != 4:
            raise ValueError(f"{self._where()}, expected a 4-D input (N, C, H, W), got shape "
                             f"{tuple(x.shape)}")
        n, c = x.shape[:2]
        patches = jax.lax.conv_general_dilated_patches(
            x, self._k, self._s, self.padding, rhs_dilation=self._r,
            dimension_numbers=("NCHW", "OIHW", "NCHW"))
        # jax orders the patch features (C, kr, kc); MindSpore's are (kr, kc, C).
        h, w = patches.shape[2:]
        patches = patches.reshape(n, c, self._k[0] * self._k[1], h, w)
        return jnp.swapaxes(patches, 1, 2).reshape(n, self._k[0] * self._k[1] * c, h, w)


class FocalLoss(LossBase):
    """Focal loss ``-(1 - p)^gamma * log(p)`` on softmax probabilities over dim 1.

    Arguments:
        weight: ``None`` or a 1-D Tensor of per-class weights.
        gamma: the focusing parameter, a float (default ``2.0``).
        reduction: ``'mean'`` (default), ``'sum'`` or ``'none'``.

    Inputs:
        logits: ``(N, C)`` or ``(N, C, ...)`` float Tensor.
        labels: the same rank; ``(N, 1, ...)`` class indices or ``(N, C, ...)`` one-hot.

    Returns:
        the reduced loss; for ``'none'``, ``(N,)`` with index labels and ``(N, C)`` with
        one-hot labels (MindSpore's shapes).
    """

    def __init__(self, weight: Any = None, gamma: float = 2.0, reduction: str = "mean") -> None:
        super().__init__(reduction)
        if not isinstance(gamma, float):
            raise TypeError(f"For 'FocalLoss', 'gamma' must be a float, got {type(gamma).__name__}")
        if weight is not None:
            if not isinstance(weight, (jax.Array, Tensor)):
                raise TypeError(f"For 'FocalLoss', 'weight' must be a Tensor, got "
                                f"{type(weight).__name__}")
            if jnp.ndim(weight) != 1:
                raise ValueError(f"For 'FocalLoss', the dimension of 'weight' must be 1, got "
                                 f"{jnp.ndim(weight)}")
            weight = jnp.asarray(weight)
        self.gamma = gamma
        self.weight = weight

    def construct(self, logits: Any, labels: Any) -> jax.Array:
        logits, labels = _arr(logits), _arr(labels)
        if logits.ndim != labels.ndim or logits.ndim < 2:
            raise ValueError(f"{self._where()}, 'logits' and 'labels' must have the same rank >= 2, "
                             f"got shapes {tuple(logits.shape)} and {tuple(labels.shape)}")
        if labels.shape[1] not in (1, logits.shape[1]):
            raise ValueError(f"{self._where()}, dim 1 of 'labels' must be 1 or {logits.shape[1]}, "
                             f"got shape {tuple(labels.shape)}")
        n, c = logits.shape[:2]
        logits = logits.reshape(n, c, -1)
        labels = labels.reshape(labels.shape[0], labels.shape[1], -1)
        log_p = jax.nn.log_softmax(logits, axis=1)
        index = labels.shape[1] == 1
        if index:
            # MindSpore's GatherD: class indices of a smaller batch read the leading rows.
            idx = labels.astype(jnp.int32)
            log_p = jnp.squeeze(gather_d.__wrapped__(log_p, 1, idx), 1)
        p = jnp.exp(log_p)
        if self.weight is not None:
            w = jnp.broadcast_to(self.weight[None, :, None], (labels.shape[0], c, labels.shape[2]))
            if index:
                w = jnp.squeeze(gather_d.__wrapped__(w, 1, idx), 1)
            log_p = log_p * w
        focus = jnp.power(1.0 - p, self.gamma)
        loss = jnp.mean(-focus * log_p, axis=1) if index else jnp.mean(-focus * labels * log_p, axis=-1)
        return self.get_loss(loss)


class DiceLoss(LossBase):
    """``1 - 2 sum(logits * labels) / (sum(logits^2) + sum(labels^2) + smooth)``.

    Arguments:
        smooth: a positive float added to the denominator (default ``1e-5``).

    Raises:
        ValueError: a non-positive ``smooth``, or inputs of different shapes.
    """

    def __init__(self, smooth: float = 1e-5) -> None:
        super().__init__()
        if isinstance(smooth, bool) or not isinstance(smooth, float):
            raise TypeError(f"For 'DiceLoss', 'smooth' must be a float, got {type(smooth).__name__}")
        if smooth <= 0:
            raise ValueError(f"For 'DiceLoss', 'smooth' must be a positive float, got {smooth}")
        self.smooth = smooth

    def construct(self, logits: Any, label: Any) -> jax.Array:
        logits, label = _arr(logits), _arr(label)
        if logits.shape != label.shape:
            raise ValueError(f"{self._where()}, 'logits' and 'labels' must have the same shape, got "
                             f"{tuple(logits.shape)} and {tuple(label.shape)}")
        a, b = logits.reshape(-1), label.reshape(-1)
        inter = jnp.sum(a * b)
        union = jnp.sum(a * a) + jnp.sum(b * b)
        return 1 - (2 * inter) / (union + self.smooth)
