"""MindSpore's ``mindspore.ops.operations.nn_ops``: neural-network Primitives.

The Primitives MindJAX had before this module (``Conv2D``, ``MaxPool``, ``LayerNorm`` ...)
are re-exported from ``mindjax.ops.primitives*``; the rest are defined here over the
functional ops of ``mindjax.ops.function.nn_func``, with MindSpore's constructor arguments
(kept as attributes) and call signatures.

Example:
    >>> import numpy as np
    >>> from mindjax.ops import operations as P
    >>> P.ResizeNearestNeighbor((4, 4))(np.ones((1, 1, 2, 2), np.float32)).shape
    (1, 1, 4, 4)
"""
from __future__ import annotations

from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from mindjax.common import random as _random
from mindjax.common.dtype import to_jax_dtype
from mindjax.common.tensor import Tensor, as_array
from mindjax.ops import functional as F
from mindjax.ops.function import nn_func as N
from mindjax.ops.operations._base import Primitive, check_bool, check_int, op_primitive, record
# Existing Primitives of this family, re-exported under MindSpore's module path.
from mindjax.ops.primitives import (  # noqa: F401
    AvgPool, BatchNorm, BiasAdd, Conv2D, Dropout, Flatten, GeLU, L2Normalize, LayerNorm, LogSoftmax, MaxPool, OneHot,
    ReLU, ReLU6, Sigmoid, Softmax, SoftmaxCrossEntropyWithLogits, SparseSoftmaxCrossEntropyWithLogits, Tanh,
)
from mindjax.ops.primitives_extra import FastGeLU  # noqa: F401
from mindjax.ops.operations._rnn_ops import BasicLSTMCell, DynamicGRUV2, DynamicRNN, LSTM  # noqa: F401

_M = __name__

_SIMPLE = [
    ("Softplus", F.softplus, ("input",), "``log(1 + exp(x))``"),
    ("Softsign", N.softsign, ("input",), "``x / (1 + |x|)``"),
    ("HSwish", F.hardswish, ("input",), "Hard swish"), ("HSigmoid", F.hardsigmoid, ("input",), "Hard sigmoid"),
    ("SeLU", F.selu, ("input_x",), "Scaled exponential linear unit"), ("Mish", F.mish, ("input",), "Mish"),
    ("PReLU", F.prelu, ("input", "weight"), "Parametric ReLU with per-channel ``weight``"),
    ("Gelu", lambda x: jax.nn.gelu(as_array(x), approximate=True), ("input",), "GELU, tanh approximation"),
    ("FastGelu", N.fast_gelu, ("input",), "``x * sigmoid(1.702 x)``"),
    ("Dense", N.dense, ("input", "weight", "bias"), "``input @ weight.T + bias``"),
    ("SigmoidCrossEntropyWithLogits", lambda logits, label: F.binary_cross_entropy_with_logits(
        logits, label, reduction="none"), ("logits", "label"), "Elementwise sigmoid cross entropy on logits"),
    ("L2Loss", lambda input: jnp.sum(jnp.square(as_array(input))) / 2, ("input",), "``sum(x ** 2) / 2``"),
]

for _name, _fn, _args, _doc in _SIMPLE:
    globals()[_name] = op_primitive(_name, _fn, _args, _doc, _M)
del _name, _fn, _args, _doc


# --- resizing ---------------------------------------------------------------------------------

def _source_index(out: int, size: int, align_corners: bool, half_pixel: bool) -> jax.Array:
    scale = (size - 1) / (out - 1) if align_corners and out > 1 else size / out
    dst = jnp.arange(out, dtype=jnp.float32)
    return (dst + 0.5) * scale - 0.5 if half_pixel else dst * scale


def _resize(op: str, x: Any, size: Any, mode: str, align_corners: bool, half_pixel: bool) -> jax.Array:
    a = as_array(x)
    if a.ndim != 4:
        raise ValueError(f"For '{op}', the input must be 4-D (N, C, H, W), got shape {a.shape}")
    if align_corners and half_pixel:
        raise ValueError(f"For '{op}', 'align_corners' and 'half_pixel_centers' cannot both be True")
    out_hw = tuple(int(v) for v in (np.asarray(as_array(size)).tolist() if not isinstance(size, (tuple, list))
                                    else size))
    if len(out_hw) != 2 or min(out_hw) <= 0:
        raise ValueError(f"For '{op}', 'size' must be two positive ints, got {size!r}")
    y = a if jnp.issubdtype(a.dtype, jnp.floating) else a.astype(jnp.float32)
    for axis, out in zip((2, 3), out_hw):
        n = y.shape[axis]
        src = _source_index(out, n, align_corners, half_pixel)
        if mode == "nearest":
            # Measured on MindSpore 2.10 (CPU): with align_corners the index rounds half up; otherwise it is
            # floor(dst * in / out), and half_pixel_centers does not change nearest-neighbour indices.
            if align_corners:
                idx = jnp.floor(src + 0.5)
            else:
                idx = jnp.floor(jnp.arange(out, dtype=jnp.float32) * (n / out))
            y = jnp.take(y, jnp.clip(idx, 0, n - 1).astype(jnp.int32), axis=axis)
        else:
            y = _linear_axis(y, axis, src)
    return y.astype(a.dtype) if mode == "nearest" else y


def _linear_axis(y: jax.Array, axis: int, src: jax.Array) -> jax.Array:
    """Linear interpolation of ``y`` along ``axis`` at the source coordinates ``src`` (clamped to the edges)."""
    n = y.shape[axis]
    src = jnp.maximum(src, 0.0)
    lo = jnp.clip(jnp.floor(src), 0, n - 1).astype(jnp.int32)
    hi = jnp.minimum(lo + 1, n - 1)
    shape = [1] * y.ndim
    shape[axis] = src.shape[0]
    frac = (src - lo).astype(y.dtype).reshape(shape)
    return jnp.take(y, lo, axis=axis) * (1 - frac) + jnp.take(y, hi, axis=axis) * frac


class ResizeNearestNeighbor(Primitive):
    """Resize ``(N, C, H, W)`` to ``size`` by nearest neighbour (TensorFlow's index rule).

    Arguments:
        size: ``(new_height, new_width)``.
        align_corners: map the corner pixels onto each other.
        half_pixel_centers: sample at pixel centres.

    Call: ``ResizeNearestNeighbor(size)(input_x)`` -> array.
    """

    def __init__(self, size: Any, align_corners: bool = False, half_pixel_centers: bool = False) -> None:
        super().__init__()
        record(self, size=tuple(size) if isinstance(size, (list, tuple)) else (size, size),
               align_corners=check_bool(self.name, "align_corners", align_corners),
               half_pixel_centers=check_bool(self.name, "half_pixel_centers", half_pixel_centers))

    def __call__(self, input_x: Any) -> jax.Array:
        return _resize(self.name, input_x, self.size, "nearest", self.align_corners, self.half_pixel_centers)


class ResizeBilinear(Primitive):
    """Resize ``(N, C, H, W)`` to ``size`` bilinearly (MindSpore 1.x's Primitive; 2.x calls it ResizeBilinearV2).

    Arguments:
        size: ``(new_height, new_width)``.
        align_corners: map the corner pixels onto each other.
        half_pixel_centers: sample at pixel centres.

    Call: ``ResizeBilinear(size)(x)`` -> float array.
    """

    def __init__(self, size: Any, align_corners: bool = False, half_pixel_centers: bool = False) -> None:
        super().__init__()
        record(self, size=tuple(size) if isinstance(size, (list, tuple)) else (size, size),
               align_corners=check_bool(self.name, "align_corners", align_corners),
               half_pixel_centers=check_bool(self.name, "half_pixel_centers", half_pixel_centers))

    def __call__(self, x: Any) -> jax.Array:
        return _resize(self.name, x, self.size, "bilinear", self.align_corners, self.half_pixel_centers)


class ResizeBilinearV2(Primitive):
    """Resize ``(N, C, H, W)`` bilinearly to the call's ``size``.
    Call: ``ResizeBilinearV2(align_corners, half_pixel_centers)(image, size)``."""

    def __init__(self, align_corners: bool = False, half_pixel_centers: bool = False) -> None:
        super().__init__()
        record(self, align_corners=check_bool(self.name, "align_corners", align_corners),
               half_pixel_centers=check_bool(self.name, "half_pixel_centers", half_pixel_centers))

    def __call__(self, image: Any, size: Any) -> jax.Array:
        return _resize(self.name, image, size, "bilinear", self.align_corners, self.half_pixel_centers)


class ResizeNearestNeighborV2(Primitive):
    """Resize ``(N, C, H, W)`` by nearest neighbour to the call's ``size``.
    Call: ``ResizeNearestNeighborV2(align_corners, half_pixel_centers)(image, size)``."""

    def __init__(self, align_corners: bool = False, half_pixel_centers: bool = False) -> None:
        super().__init__()
        record(self, align_corners=check_bool(self.name, "align_corners", align_corners),
               half_pixel_centers=check_bool(self.name, "half_pixel_centers", half_pixel_centers))

    def __call__(self, image: Any, size: Any) -> jax.Array:
        return _resize(self.name, image, size, "nearest", self.align_corners, self.half_pixel_centers)


# --- activations with attributes ----------------------------------------------------------------

class Elu(Primitive):
    """``x`` above 0, ``alpha * (exp(x) - 1)`` below. Call: ``Elu(alpha)(input_x)``."""

    def __init__(self, alpha: float = 1.0) -> None:
        super().__init__()
        record(self, alpha=float(alpha))

    def __call__(self, input_x: Any) -> jax.Array:
        return F.elu(input_x, self.alpha)


class CeLU(Primitive):
    """Continuously differentiable ELU. Call: ``CeLU(alpha)(input_x)``."""

    def __init__(self, alpha: float = 1.0) -> None:
        super().__init__()
        record(self, alpha=float(alpha))

    def __call__(self, input_x: Any) -> jax.Array:
        return N.celu(input_x, self.alpha)


class HShrink(Primitive):
    """Hard shrink. Call: ``HShrink(lambd)(input_x)``."""

    def __init__(self, lambd: float = 0.5) -> None:
        super().__init__()
        record(self, lambd=float(lambd))

    def __call__(self, input_x: Any) -> jax.Array:
        return N.hardshrink(input_x, self.lambd)


class SoftShrink(Primitive):
    """Soft shrink. Call: ``SoftShrink(lambd)(input_x)``."""

    def __init__(self, lambd: float = 0.5) -> None:
        super().__init__()
        record(self, lambd=float(lambd))

    def __call__(self, input_x: Any) -> jax.Array:
        return N.softshrink(input_x, self.lambd)


class GLU(Primitive):
    """Gated linear unit ``a * sigmoid(b)`` over the halves along ``axis``. Call: ``GLU(axis)(x)``."""

    def __init__(self, axis: int = -1) -> None:
        super().__init__()
        record(self, axis=check_int(self.name, "axis", axis))

    def __call__(self, x: Any) -> jax.Array:
        return F.glu(x, self.axis)


class LRN(Primitive):
    """Local response normalisation across channels. Call: ``LRN(depth_radius, bias, alpha, beta)(x)``."""

    def __init__(self, depth_radius: int = 5, bias: float = 1.0, alpha: float = 1.0, beta: float = 0.5,
                 norm_region: str = "ACROSS_CHANNELS") -> None:
        super().__init__()
        record(self, depth_radius=check_int(self.name, "depth_radius", depth_radius), bias=float(bias),
               alpha=float(alpha), beta=float(beta), norm_region=norm_region)

    def __call__(self, x: Any) -> jax.Array:
        return N.lrn(x, self.depth_radius, self.bias, self.alpha, self.beta, self.norm_region)


# --- padding and dropout -------------------------------------------------------------------------

class Pad(Primitive):
    """Zero padding by ``paddings = ((before, after), ...)`` per axis. Call: ``Pad(paddings)(input_x)``."""

    def __init__(self, paddings: Any) -> None:
        super().__init__()
        pads = tuple(tuple(int(v) for v in row) for row in paddings)
        if any(len(row) != 2 or min(row) < 0 for row in pads):
            raise ValueError(f"For '{self.name}', 'paddings' must be non-negative (before, after) pairs, "
                             f"got {paddings!r}")
        record(self, paddings=pads)

    def __call__(self, input_x: Any) -> jax.Array:
        x = as_array(input_x)
        if len(self.paddings) != x.ndim:
            raise ValueError(f"For '{self.name}', 'paddings' has {len(self.paddings)} rows for an input of rank "
                             f"{x.ndim}")
        return jnp.pad(x, self.paddings)


class MirrorPad(Primitive):
    """Reflection padding. Call: ``MirrorPad(mode)(input_x, paddings)`` with ``mode`` 'REFLECT' or 'SYMMETRIC'."""

    _strategy_inputs = 2

    def __init__(self, mode: str = "REFLECT") -> None:
        super().__init__()
        if mode not in ("REFLECT", "SYMMETRIC"):
            raise ValueError(f"For '{self.name}', 'mode' must be 'REFLECT' or 'SYMMETRIC', got {mode!r}")
        record(self, mode=mode)

    def __call__(self, input_x: Any, paddings: Any) -> jax.Array:
        return N.mirror_pad(input_x, paddings, self.mode)


class _ChannelDropout(Primitive):
    _rank = 4

    def __init__(self, keep_prob: float = 0.5) -> None:
        super().__init__()
        if not 0 <= float(keep_prob) <= 1:
            raise ValueError(f"For '{self.name}', 'keep_prob' must be in [0, 1], got {keep_prob}")
        record(self, keep_prob=float(keep_prob))

    def __call__(self, x: Any) -> tuple[jax.Array, jax.Array]:
        a = as_array(x)
        if a.ndim != self._rank:
            raise ValueError(f"For '{self.name}', the input must be {self._rank}-D, got shape {a.shape}")
        keep = jax.random.bernoulli(_random.next_key(), self.keep_prob, a.shape[:2])
        mask = jnp.broadcast_to(keep.reshape(a.shape[:2] + (1,) * (a.ndim - 2)), a.shape)
        scale = 0.0 if self.keep_prob == 0 else 1.0 / self.keep_prob
        return jnp.where(mask, a * scale, jnp.zeros((), a.dtype)).astype(a.dtype), mask


class Dropout2D(_ChannelDropout):
    """Zero whole channels of ``(N, C, H, W)``. Call: ``Dropout2D(keep_prob)(x)`` -> ``(output, mask)``."""

    _rank = 4


class Dropout3D(_ChannelDropout):
    """Zero whole channels of ``(N, C, D, H, W)``. Call: ``Dropout3D(keep_prob)(x)`` -> ``(output, mask)``."""

    _rank = 5


# --- convolution and pooling -----------------------------------------------------------------------

def _ints(v: Any, n: int) -> tuple[int, ...]:
    if isinstance(v, int):
        return (v,) * n
    v = tuple(int(i) for i in v)
    return v[-n:] if len(v) >= n else v * n


class Conv3D(Primitive):
    """3-D convolution over NCDHW. Call: ``Conv3D(out_channel, kernel_size, ...)(x, weight)``."""

    _strategy_inputs = 2

    def __init__(self, out_channel: int, kernel_size: Any, mode: int = 1, pad_mode: str = "valid", pad: Any = 0,
                 stride: Any = 1, dilation: Any = 1, group: int = 1, data_format: str = "NCDHW") -> None:
        super().__init__()
        if data_format != "NCDHW":
            raise ValueError(f"For '{self.name}', 'data_format' must be 'NCDHW', got {data_format!r}")
        record(self, out_channel=check_int(self.name, "out_channel", out_channel), kernel_size=_ints(kernel_size, 3),
               mode=mode, pad_mode=pad_mode.lower(), pad=pad, stride=_ints(stride, 3), dilation=_ints(dilation, 3),
               group=check_int(self.name, "group", group), data_format=data_format)

    def __call__(self, x: Any, weight: Any, bias: Any = None) -> jax.Array:
        return N.conv3d(x, weight, bias, self.stride, self.pad_mode, self.pad, self.dilation, self.group)


class Conv2DTranspose(Primitive):
    """The gradient of ``Conv2D`` with respect to its input (MindSpore's ``Conv2DBackpropInput``).

    Arguments:
        out_channel, kernel_size: as ``Conv2D``'s.
        pad_mode: ``'valid'``, ``'same'`` or ``'pad'``; pad / pad_list: with ``'pad'``.
        stride, dilation, group: as ``Conv2D``'s.

    Call: ``Conv2DTranspose(...)(dout, weight, input_size)`` with weight ``(C_in_of_conv, C_out / group, kH, kW)``
    laid out as Conv2D's weight ``(out, in / group, kH, kW)``.
    """

    _strategy_inputs = 2

    def __init__(self, out_channel: int, kernel_size: Any, pad_mode: str = "valid", pad: Any = 0,
                 pad_list: Any = None, mode: int = 1, stride: Any = 1, dilation: Any = 1, group: int = 1,
                 data_format: str = "NCHW") -> None:
        super().__init__()
        if data_format != "NCHW":
            raise ValueError(f"For '{self.name}', 'data_format' must be 'NCHW', got {data_format!r}")
        record(self, out_channel=check_int(self.name, "out_channel", out_channel), kernel_size=_ints(kernel_size, 2),
               pad_mode=pad_mode.lower(), pad=pad, pad_list=pad_list, mode=mode, stride=_ints(stride, 2),
               dilation=_ints(dilation, 2), group=check_int(self.name, "group", group), data_format=data_format)

    def __call__(self, dout: Any, weight: Any, input_size: Any) -> jax.Array:
        size = tuple(int(v) for v in input_size)
        w = as_array(weight)
        pad = self.pad_list if self.pad_list is not None else self.pad

        def conv(inp: jax.Array) -> jax.Array:
            # As the Conv2D Primitive: ``pad`` may be 4 ints (top, bottom, left, right).
            return F._conv(self.name, inp, w.astype(inp.dtype), self.stride, self.pad_mode, pad, self.dilation,
                           self.group, True)

        # The transposed conv is the vjp of the forward conv at an input of shape input_size.
        zeros = jnp.zeros(size, as_array(dout).dtype)
        _, pullback = jax.vjp(conv, zeros)
        return pullback(as_array(dout).astype(zeros.dtype))[0]


class Conv2DBackpropInput(Conv2DTranspose):
    """Alias of :class:`Conv2DTranspose`."""


class Conv3DTranspose(Primitive):
    """3-D transposed convolution. Call: ``Conv3DTranspose(in_channel, out_channel, kernel_size, ...)(dout, weight)``
    with weight ``(C_in, C_out / group, kD, kH, kW)``."""

    _strategy_inputs = 2

    def __init__(self, in_channel: int, out_channel: int, kernel_size: Any, mode: int = 1, pad_mode: str = "valid",
                 pad: Any = 0, stride: Any = 1, dilation: Any = 1, group: int = 1, output_padding: Any = 0,
                 data_format: str = "NCDHW") -> None:
        super().__init__()
        record(self, in_channel=check_int(self.name, "in_channel", in_channel),
               out_channel=check_int(self.name, "out_channel", out_channel), kernel_size=_ints(kernel_size, 3),
               mode=mode, pad_mode=pad_mode.lower(), pad=pad, stride=_ints(stride, 3), dilation=_ints(dilation, 3),
               group=check_int(self.name, "group", group), output_padding=_ints(output_padding, 3),
               data_format=data_format)

    def __call__(self, dout: Any, weight: Any, bias: Any = None) -> jax.Array:
        out = N.conv3d_transpose(dout, weight, self.pad_mode, self.pad, self.stride, self.dilation, self.group,
                                 self.output_padding)
        return out if bias is None else out + as_array(bias).reshape(1, -1, 1, 1, 1)


class _Pool3D(Primitive):
    def __init__(self, kernel_size: Any = 1, strides: Any = 1, pad_mode: str = "valid", pad: Any = 0,
                 ceil_mode: Any = False, data_format: str = "NCDHW") -> None:
        super().__init__()
        if pad_mode.lower() not in ("valid", "same", "pad"):
            raise ValueError(f"For '{self.name}', 'pad_mode' must be 'valid', 'same' or 'pad', got {pad_mode!r}")
        record(self, kernel_size=_ints(kernel_size, 3), strides=_ints(strides, 3), pad_mode=pad_mode.lower(),
               pad=_ints(pad, 3) if not (isinstance(pad, (list, tuple)) and len(pad) == 6) else tuple(pad),
               ceil_mode=bool(ceil_mode), data_format=data_format)

    def _padding(self, x: jax.Array) -> tuple[jax.Array, tuple[int, ...]]:
        if self.pad_mode == "same":
            pads = []
            for i in range(3):
                n = x.shape[2 + i]
                out = -(-n // self.strides[i])
                total = max((out - 1) * self.strides[i] + self.kernel_size[i] - n, 0)
                pads.append((total // 2, total - total // 2))
            return pads, (0, 0, 0)
        if self.pad_mode == "pad":
            p = self.pad
            if len(p) == 6:
                return [(p[0], p[1]), (p[2], p[3]), (p[4], p[5])], (0, 0, 0)
            return [(v, v) for v in p], (0, 0, 0)
        return [(0, 0)] * 3, (0, 0, 0)


class MaxPool3D(_Pool3D):
    """3-D max pooling. Call: ``MaxPool3D(kernel_size, strides, pad_mode, pad_list, ceil_mode)(x)``."""

    def __init__(self, kernel_size: Any = 1, strides: Any = 1, pad_mode: str = "VALID", pad_list: Any = 0,
                 ceil_mode: Any = None, data_format: str = "NCDHW") -> None:
        super().__init__(kernel_size, strides, pad_mode, pad_list, bool(ceil_mode), data_format)
        record(self, pad_list=self.pad)

    def __call__(self, x: Any) -> jax.Array:
        a = as_array(x)
        pads, _ = self._padding(a)
        a = jnp.pad(a, [(0, 0), (0, 0)] + pads, constant_values=-jnp.inf)
        return N.max_pool3d(a, self.kernel_size, self.strides, 0, 1, self.ceil_mode)


class AvgPool3D(_Pool3D):
    """3-D average pooling. Call: ``AvgPool3D(kernel_size, strides, pad_mode, pad, ...)(x)``."""

    def __init__(self, kernel_size: Any = 1, strides: Any = 1, pad_mode: str = "valid", pad: Any = 0,
                 ceil_mode: bool = False, count_include_pad: bool = True, divisor_override: int = 0,
                 data_format: str = "NCDHW") -> None:
        super().__init__(kernel_size, strides, pad_mode, pad, ceil_mode, data_format)
        record(self, count_include_pad=check_bool(self.name, "count_include_pad", count_include_pad),
               divisor_override=check_int(self.name, "divisor_override", divisor_override))

    def __call__(self, x: Any) -> jax.Array:
        a = as_array(x)
        pads, _ = self._padding(a)
        if all(lo == hi for lo, hi in pads):
            return N.avg_pool3d(a, self.kernel_size, self.strides, tuple(lo for lo, _ in pads), self.ceil_mode,
                                self.count_include_pad, self.divisor_override)
        a = jnp.pad(a, [(0, 0), (0, 0)] + pads)
        return N.avg_pool3d(a, self.kernel_size, self.strides, 0, self.ceil_mode, True, self.divisor_override)


class AdaptiveAvgPool2D(Primitive):
    """Average pooling to ``output_size``. Call: ``AdaptiveAvgPool2D(output_size)(input_x)``."""

    def __init__(self, output_size: Any) -> None:
        super().__init__()
        record(self, output_size=output_size)

    def __call__(self, input_x: Any) -> jax.Array:
        return F.adaptive_avg_pool2d(input_x, self.output_size)


class AdaptiveAvgPool3D(Primitive):
    """Average pooling to ``output_size``. Call: ``AdaptiveAvgPool3D(output_size)(x)``."""

    def __init__(self, output_size: Any) -> None:
        super().__init__()
        record(self, output_size=output_size)

    def __call__(self, x: Any) -> jax.Array:
        return N.adaptive_avg_pool3d(x, self.output_size)


class AdaptiveMaxPool2D(Primitive):
    """Max pooling to ``output_size`` with the maxima's flat indices.
    Call: ``AdaptiveMaxPool2D(output_size)(input_x)`` -> ``(output, argmax)``."""

    def __init__(self, output_size: Any) -> None:
        super().__init__()
        record(self, output_size=output_size)

    def __call__(self, input_x: Any) -> tuple[jax.Array, jax.Array]:
        return N.adaptive_max_pool2d(input_x, self.output_size, True)


class AdaptiveMaxPool3D(Primitive):
    """Max pooling to the call's ``output_size`` with the maxima's flat indices.
    Call: ``AdaptiveMaxPool3D()(x, output_size)`` -> ``(output, argmax)``."""

    def __init__(self) -> None:
        super().__init__()

    def __call__(self, x: Any, output_size: Any) -> tuple[jax.Array, jax.Array]:
        size = tuple(np.asarray(as_array(output_size)).tolist()) if not isinstance(output_size, (tuple, list)) \
            else output_size
        return N.adaptive_max_pool3d(x, size, True)


class GridSampler2D(Primitive):
    """Sample ``(N, C, H, W)`` at a normalised grid.
    Call: ``GridSampler2D(interpolation_mode, padding_mode, align_corners)(input_x, grid)``."""

    _strategy_inputs = 2

    def __init__(self, interpolation_mode: str = "bilinear", padding_mode: str = "zeros",
                 align_corners: bool = False) -> None:
        super().__init__()
        record(self, interpolation_mode=interpolation_mode, padding_mode=padding_mode,
               align_corners=check_bool(self.name, "align_corners", align_corners))

    def __call__(self, input_x: Any, grid: Any) -> jax.Array:
        return N.grid_sample(input_x, grid, self.interpolation_mode, self.padding_mode, self.align_corners)


class GridSampler3D(GridSampler2D):
    """Sample ``(N, C, D, H, W)`` at a normalised grid; as :class:`GridSampler2D`."""


# --- losses ----------------------------------------------------------------------------------------

class _Loss(Primitive):
    def __init__(self, reduction: str = "mean") -> None:
        super().__init__()
        if reduction not in ("none", "mean", "sum"):
            raise ValueError(f"For '{self.name}', 'reduction' must be 'none', 'mean' or 'sum', got {reduction!r}")
        record(self, reduction=reduction)


class BinaryCrossEntropy(_Loss):
    """Binary cross entropy of probabilities. Call: ``BinaryCrossEntropy(reduction)(logits, labels, weight)``."""

    _strategy_inputs = 3

    def __call__(self, logits: Any, labels: Any, weight: Any = None) -> jax.Array:
        return N.binary_cross_entropy(logits, labels, weight, self.reduction)


class BCEWithLogitsLoss(_Loss):
    """Binary cross entropy on logits. Call: ``BCEWithLogitsLoss(reduction)(logits, label, weight, pos_weight)``."""

    _strategy_inputs = 4

    def __call__(self, logits: Any, label: Any, weight: Any = None, pos_weight: Any = None) -> jax.Array:
        return F.binary_cross_entropy_with_logits(logits, label, weight, pos_weight, self.reduction)


class KLDivLoss(_Loss):
    """Kullback-Leibler divergence of log-probabilities. Call: ``KLDivLoss(reduction)(logits, labels)``."""

    _strategy_inputs = 2

    def __init__(self, reduction: str = "mean") -> None:
        if reduction == "batchmean":
            Primitive.__init__(self)
            record(self, reduction=reduction)
            return
        super().__init__(reduction)

    def __call__(self, logits: Any, labels: Any) -> jax.Array:
        return F.kl_div(logits, labels, self.reduction)


class SmoothL1Loss(_Loss):
    """Smooth L1 loss. Call: ``SmoothL1Loss(beta, reduction)(logits, labels)``."""

    _strategy_inputs = 2

    def __init__(self, beta: float = 1.0, reduction: str = "none") -> None:
        super().__init__(reduction)
        record(self, beta=float(beta))

    def __call__(self, logits: Any, labels: Any) -> jax.Array:
        return F.smooth_l1_loss(logits, labels, self.beta, self.reduction)


class SoftMarginLoss(_Loss):
    """``log(1 + exp(-y x))``. Call: ``SoftMarginLoss(reduction)(logits, labels)``."""

    _strategy_inputs = 2

    def __call__(self, logits: Any, labels: Any) -> jax.Array:
        return N.soft_margin_loss(logits, labels, self.reduction)


class MultiMarginLoss(_Loss):
    """Multi-class hinge loss. Call: ``MultiMarginLoss(p, margin, reduction)(inputs, target, weight)``."""

    _strategy_inputs = 3

    def __init__(self, p: int = 1, margin: float = 1.0, reduction: str = "mean") -> None:
        super().__init__(reduction)
        record(self, p=check_int(self.name, "p", p), margin=float(margin))

    def __call__(self, inputs: Any, target: Any, weight: Any = None) -> jax.Array:
        return N.multi_margin_loss(inputs, target, self.p, self.margin, weight, self.reduction)


class MultilabelMarginLoss(_Loss):
    """Multi-label hinge loss. Call: ``MultilabelMarginLoss(reduction)(x, target)`` -> ``(y, is_target)``."""

    _strategy_inputs = 2

    def __call__(self, x: Any, target: Any) -> tuple[jax.Array, jax.Array]:
        t = as_array(target).astype(jnp.int32)
        t2 = t[None] if t.ndim == 1 else t
        valid = jnp.cumprod(t2 >= 0, axis=1).astype(bool)
        is_target = jnp.zeros(t2.shape, jnp.int32).at[jnp.arange(t2.shape[0])[:, None], jnp.where(valid, t2, 0)].max(
            valid.astype(jnp.int32))
        return N.multilabel_margin_loss(x, target, self.reduction), is_target.reshape(t.shape)


class TripletMarginLoss(_Loss):
    """Triplet margin loss. Call: ``TripletMarginLoss(p, swap, eps, reduction)(x, positive, negative, margin)``."""

    _strategy_inputs = 4

    def __init__(self, p: int = 2, swap: bool = False, eps: float = 1e-06, reduction: str = "mean") -> None:
        super().__init__(reduction)
        record(self, p=check_int(self.name, "p", p), swap=check_bool(self.name, "swap", swap), eps=float(eps))

    def __call__(self, x: Any, positive: Any, negative: Any, margin: Any) -> jax.Array:
        m = float(np.asarray(as_array(margin))) if not isinstance(margin, (int, float)) else float(margin)
        return N.triplet_margin_loss(x, positive, negative, m, self.p, self.eps, self.swap, self.reduction)


class NLLLoss(_Loss):
    """Negative log-likelihood with class weights.
    Call: ``NLLLoss(reduction, ignore_index)(logits, labels, weight)`` -> ``(loss, total_weight)``."""

    _strategy_inputs = 3

    def __init__(self, reduction: str = "mean", ignore_index: int = -100) -> None:
        super().__init__(reduction)
        record(self, ignore_index=check_int(self.name, "ignore_index", ignore_index))

    def __call__(self, logits: Any, labels: Any, weight: Any) -> tuple[jax.Array, jax.Array]:
        lp, y, w = as_array(logits), as_array(labels).astype(jnp.int32), as_array(weight)
        keep = y != self.ignore_index
        safe = jnp.where(keep, y, 0)
        per = -jnp.take_along_axis(lp, safe[:, None], axis=1)[:, 0] * w[safe] * keep
        total = jnp.sum(w[safe] * keep)
        if self.reduction == "none":
            return per, total
        if self.reduction == "sum":
            return jnp.sum(per), total
        return jnp.sum(per) / total, total


class CTCLossV2(Primitive):
    """CTC loss. Call: ``CTCLossV2(blank, reduction, zero_infinity)(log_probs, targets, input_lengths,
    target_lengths)`` -> ``(neg_log_likelihood, log_alpha)``."""

    _strategy_inputs = 4

    def __init__(self, blank: int = 0, reduction: str = "none", zero_infinity: bool = False) -> None:
        super().__init__()
        record(self, blank=check_int(self.name, "blank", blank), reduction=reduction,
               zero_infinity=check_bool(self.name, "zero_infinity", zero_infinity))

    def __call__(self, log_probs: Any, targets: Any, input_lengths: Any, target_lengths: Any) -> tuple[Any, Any]:
        return N.ctc_loss(log_probs, targets, input_lengths, target_lengths, self.blank, self.reduction,
                          self.zero_infinity)


# --- optimizer updates --------------------------------------------------------------------------
# MindSpore's Apply*/Sparse*/Fused* Primitives update their Parameter (or Tensor) inputs in place and
# return the new values. Here each one computes the new state from arrays and writes it back through
# ``F.assign``: eagerly that sets the Parameter; inside a compiled Cell the write is part of the
# program's state update, as for ``Assign``.

def _write_back(target: Any, value: jax.Array) -> jax.Array:
    value = value.astype(as_array(target).dtype)
    if isinstance(target, Tensor):
        F.assign(target, value)
    return value


def _update_scalar(prim: str, name: str, value: Any, dtype: Any) -> jax.Array:
    a = as_array(value)
    if a.size != 1:
        raise ValueError(f"For '{prim}', '{name}' must be a scalar, but got a tensor of shape {a.shape}.")
    return a.reshape(()).astype(dtype)


def _sparse_rows(prim: str, var: jax.Array, grad: jax.Array, indices: Any) -> tuple[jax.Array, jax.Array]:
    """The gradient rows summed per index into ``var``'s shape, and the mask of the rows they touch."""
    idx = as_array(indices)
    if not jnp.issubdtype(idx.dtype, jnp.integer):
        raise TypeError(f"For '{prim}', 'indices' must be an int32 or int64 tensor, but got {idx.dtype}.")
    if idx.ndim != 1:
        raise ValueError(f"For '{prim}', 'indices' must be 1-D, but got shape {idx.shape}.")
    expected = idx.shape + var.shape[1:]
    if grad.shape != expected:
        raise ValueError(f"For '{prim}', 'grad' must have shape {expected} (indices' length, then var's shape "
                         f"without its first dimension), but got {grad.shape}.")
    dense = jnp.zeros(var.shape, grad.dtype).at[idx].add(grad, mode="drop")
    touched = jnp.zeros(var.shape[:1], bool).at[idx].set(True, mode="drop")
    return dense, touched.reshape(var.shape[:1] + (1,) * (var.ndim - 1))


class _ApplyOptimizer(Primitive):
    """An optimizer update: ``_inputs`` are the call's arguments, ``_slots`` the ones written back
    (and returned, in that order; ``_returns`` of them). ``_scalars`` must be scalars; ``_sparse``
    ops take ``grad`` rows at ``indices`` and update only those rows."""

    _inputs: tuple[str, ...] = ()
    _slots: tuple[str, ...] = ("var",)
    _scalars: tuple[str, ...] = ()
    _returns: int | None = None
    _sparse = False
    _lazy = True

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls._strategy_inputs = len(cls._inputs)

    def __init__(self, use_locking: bool = False) -> None:
        super().__init__()
        record(self, use_locking=check_bool(self.name, "use_locking", use_locking))

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        names = self._inputs
        given = _bind_update(self, names, args, kwargs)
        first = names[0]
        var = as_array(given[first])
        if not jnp.issubdtype(var.dtype, jnp.inexact):
            raise TypeError(f"For '{self.name}', '{first}' must be a float tensor, but got {var.dtype}.")
        arrays: dict[str, Any] = {}
        for n in names:
            if n in self._scalars:
                arrays[n] = _update_scalar(self.name, n, given[n], var.dtype)
            elif n == "indices":
                continue
            elif n == "global_step":
                arrays[n] = _update_scalar(self.name, n, given[n], jnp.int32).astype(var.dtype)
            else:
                a = as_array(given[n])
                if not (self._sparse and n == "grad") and a.shape != var.shape:
                    raise ValueError(f"For '{self.name}', '{n}' must have the shape of '{first}' {var.shape}, "
                                     f"but got {a.shape}.")
                arrays[n] = a.astype(var.dtype)
        if self._sparse:
            dense, touched = _sparse_rows(self.name, var, arrays["grad"], given["indices"])
            arrays["grad"] = dense
            new = self._update(**arrays)
            if self._lazy:
                new = tuple(jnp.where(touched, v, arrays[s]) for s, v in zip(self._slots, new))
        else:
            new = self._update(**arrays)
        out = tuple(_write_back(given[s], v) for s, v in zip(self._slots, new))
        count = self._returns if self._returns is not None else len(out)
        return out[0] if count == 1 else out[:count]

    def _update(self, **arrays: jax.Array) -> tuple[jax.Array, ...]:
        raise NotImplementedError


class ApplyMomentum(_ApplyOptimizer):
    """Momentum: ``accumulation = momentum * accumulation + gradient * gradient_scale``, then
    ``variable -= learning_rate * accumulation`` (with Nesterov:
    ``variable -= learning_rate * (gradient + momentum * accumulation)``).

    Arguments:
        use_nesterov: use Nesterov momentum. Default: ``False``.
        use_locking: accepted for compatibility. Default: ``False``.
        gradient_scale: the gradient's scale. Default: ``1.0``.

    Call: ``ApplyMomentum()(variable, accumulation, learning_rate, gradient, momentum)`` -> the new variable;
    ``variable`` and ``accumulation`` are updated in place.
    """

    _inputs = ("variable", "accumulation", "learning_rate", "gradient", "momentum")
    _slots = ("variable", "accumulation")
    _scalars = ("learning_rate", "momentum")
    _returns = 1

    def __init__(self, use_nesterov: bool = False, use_locking: bool = False, gradient_scale: float = 1.0) -> None:
        super().__init__(use_locking)
        if not isinstance(gradient_scale, float):
            raise TypeError(f"For '{self.name}', 'gradient_scale' must be a float, but got "
                            f"{type(gradient_scale).__name__}.")
        record(self, use_nesterov=check_bool(self.name, "use_nesterov", use_nesterov), gradient_scale=gradient_scale)

    def _update(self, variable, accumulation, learning_rate, gradient, momentum):  # type: ignore[override]
        g = gradient * self.gradient_scale
        accum = accumulation * momentum + g
        step = (g + accum * momentum) if self.use_nesterov else accum
        return variable - learning_rate * step, accum


class ApplyKerasMomentum(_ApplyOptimizer):
    """Keras momentum: ``accum = accum * momentum - grad * lr``; ``var += accum`` (with Nesterov:
    ``var += accum * momentum - grad * lr``).

    Arguments:
        use_locking: accepted for compatibility. Default: ``False``.
        use_nesterov: use Nesterov momentum. Default: ``False``.

    Call: ``ApplyKerasMomentum()(var, accum, lr, grad, momentum)`` -> ``(var, accum)``, both updated in place.
    """

    _inputs = ("var", "accum", "lr", "grad", "momentum")
    _slots = ("var", "accum")
    _scalars = ("lr", "momentum")

    def __init__(self, use_locking: bool = False, use_nesterov: bool = False) -> None:
        super().__init__(use_locking)
        record(self, use_nesterov=check_bool(self.name, "use_nesterov", use_nesterov))

    def _update(self, var, accum, lr, grad, momentum):  # type: ignore[override]
        accum = accum * momentum - grad * lr
        return (var + accum * momentum - grad * lr) if self.use_nesterov else var + accum, accum


def _adagrad(var: jax.Array, accum: jax.Array, lr: Any, grad: jax.Array, epsilon: float | None,
             update_slots: bool) -> tuple[jax.Array, jax.Array]:
    if update_slots:
        accum = accum + grad * grad
    root = jnp.sqrt(accum)
    return var - lr * grad / (root if epsilon is None else root + epsilon), accum


class ApplyAdagrad(_ApplyOptimizer):
    """Adagrad: ``accum += grad ** 2``; ``var -= lr * grad / sqrt(accum)``.

    Arguments:
        update_slots: update ``accum``. Default: ``True``.

    Call: ``ApplyAdagrad()(var, accum, lr, grad)`` -> ``(var, accum)``, both updated in place.
    """

    _inputs = ("var", "accum", "lr", "grad")
    _slots = ("var", "accum")
    _scalars = ("lr",)

    def __init__(self, update_slots: bool = True) -> None:
        super().__init__()
        record(self, update_slots=check_bool(self.name, "update_slots", update_slots))

    def _update(self, var, accum, lr, grad):  # type: ignore[override]
        return _adagrad(var, accum, lr, grad, None, self.update_slots)


class ApplyAdagradV2(_ApplyOptimizer):
    """Adagrad with ``epsilon``: ``accum += grad ** 2``; ``var -= lr * grad / (sqrt(accum) + epsilon)``.

    Arguments:
        epsilon: a small float added to the denominator.
        update_slots: update ``accum``. Default: ``True``.

    Call: ``ApplyAdagradV2(epsilon)(var, accum, lr, grad)`` -> ``(var, accum)``, both updated in place.
    """

    _inputs = ("var", "accum", "lr", "grad")
    _slots = ("var", "accum")
    _scalars = ("lr",)

    def __init__(self, epsilon: float, update_slots: bool = True) -> None:
        super().__init__()
        record(self, epsilon=_float_attr(self.name, "epsilon", epsilon),
               update_slots=check_bool(self.name, "update_slots", update_slots))

    def _update(self, var, accum, lr, grad):  # type: ignore[override]
        return _adagrad(var, accum, lr, grad, self.epsilon, self.update_slots)


def _float_attr(prim: str, name: str, value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float, np.floating, np.integer)):
        raise TypeError(f"For '{prim}', '{name}' must be a float, but got {type(value).__name__}.")
    return float(value)


class ApplyAdaMax(_ApplyOptimizer):
    """AdaMax: ``m = beta1 * m + (1 - beta1) * grad``; ``v = max(beta2 * v, |grad|)``;
    ``var -= lr / (1 - beta1_power) * m / (v + epsilon)``.

    Call: ``ApplyAdaMax()(var, m, v, beta1_power, lr, beta1, beta2, epsilon, grad)`` -> ``(var, m, v)``,
    all updated in place.
    """

    _inputs = ("var", "m", "v", "beta1_power", "lr", "beta1", "beta2", "epsilon", "grad")
    _slots = ("var", "m", "v")
    _scalars = ("beta1_power", "lr", "beta1", "beta2", "epsilon")

    def __init__(self) -> None:
        super().__init__()

    def _update(self, var, m, v, beta1_power, lr, beta1, beta2, epsilon, grad):  # type: ignore[override]
        m = beta1 * m + (1 - beta1) * grad
        v = jnp.maximum(beta2 * v, jnp.abs(grad))
        return var - lr / (1 - beta1_power) * m / (v + epsilon), m, v


def _adadelta(var, accum, accum_update, lr, rho, epsilon, grad):  # type: ignore[no-untyped-def]
    accum = rho * accum + (1 - rho) * grad * grad
    update = jnp.sqrt(accum_update + epsilon) * grad / jnp.sqrt(accum + epsilon)
    accum_update = rho * accum_update + (1 - rho) * update * update
    return var - lr * update, accum, accum_update


class ApplyAdadelta(_ApplyOptimizer):
    """Adadelta: ``accum = rho * accum + (1 - rho) * grad ** 2``;
    ``update = sqrt(accum_update + epsilon) * grad / sqrt(accum + epsilon)``;
    ``accum_update = rho * accum_update + (1 - rho) * update ** 2``; ``var -= lr * update``.

    Call: ``ApplyAdadelta()(var, accum, accum_update, lr, rho, epsilon, grad)`` -> ``(var, accum, accum_update)``,
    all updated in place.
    """

    _inputs = ("var", "accum", "accum_update", "lr", "rho", "epsilon", "grad")
    _slots = ("var", "accum", "accum_update")
    _scalars = ("lr", "rho", "epsilon")

    def __init__(self) -> None:
        super().__init__()

    def _update(self, var, accum, accum_update, lr, rho, epsilon, grad):  # type: ignore[override]
        return _adadelta(var, accum, accum_update, lr, rho, epsilon, grad)


class ApplyRMSProp(_ApplyOptimizer):
    """RMSProp: ``mean_square = decay * mean_square + (1 - decay) * grad ** 2``;
    ``moment = momentum * moment + learning_rate * grad / sqrt(mean_square + epsilon)``; ``var -= moment``.

    Arguments:
        use_locking: accepted for compatibility. Default: ``False``.

    Call: ``ApplyRMSProp()(var, mean_square, moment, learning_rate, grad, decay, momentum, epsilon)`` -> the
    new ``var``; ``var``, ``mean_square`` and ``moment`` are updated in place.
    """

    _inputs = ("var", "mean_square", "moment", "learning_rate", "grad", "decay", "momentum", "epsilon")
    _slots = ("var", "mean_square", "moment")
    _scalars = ("learning_rate", "decay", "momentum", "epsilon")
    _returns = 1

    def _update(self, var, mean_square, moment, learning_rate, grad, decay, momentum, epsilon):  # type: ignore[override]
        mean_square = decay * mean_square + (1 - decay) * grad * grad
        moment = momentum * moment + learning_rate * grad / jnp.sqrt(mean_square + epsilon)
        return var - moment, mean_square, moment


class ApplyCenteredRMSProp(_ApplyOptimizer):
    """Centered RMSProp: as :class:`ApplyRMSProp`, with ``mean_gradient = decay * mean_gradient +
    (1 - decay) * grad`` subtracted (squared) from the mean square in the denominator.

    Arguments:
        use_locking: accepted for compatibility. Default: ``False``.

    Call: ``ApplyCenteredRMSProp()(var, mean_gradient, mean_square, moment, grad, learning_rate, decay, momentum,
    epsilon)`` -> the new ``var``; ``var`` and the three slots are updated in place.
    """

    _inputs = ("var", "mean_gradient", "mean_square", "moment", "grad", "learning_rate", "decay", "momentum",
               "epsilon")
    _slots = ("var", "mean_gradient", "mean_square", "moment")
    _scalars = ("learning_rate", "decay", "momentum", "epsilon")
    _returns = 1

    def _update(self, var, mean_gradient, mean_square, moment, grad, learning_rate, decay, momentum,  # type: ignore[override]
                epsilon):
        mean_gradient = decay * mean_gradient + (1 - decay) * grad
        mean_square = decay * mean_square + (1 - decay) * grad * grad
        moment = momentum * moment + learning_rate * grad / jnp.sqrt(mean_square - mean_gradient ** 2 + epsilon)
        return var - moment, mean_gradient, mean_square, moment


class ApplyGradientDescent(_ApplyOptimizer):
    """``var -= alpha * delta``. Call: ``ApplyGradientDescent()(var, alpha, delta)`` -> the new ``var``,
    updated in place."""

    _inputs = ("var", "alpha", "delta")
    _scalars = ("alpha",)

    def __init__(self) -> None:
        super().__init__()

    def _update(self, var, alpha, delta):  # type: ignore[override]
        return (var - alpha * delta,)


def _proximal(prox: jax.Array, lr: Any, l1: Any, l2: Any) -> jax.Array:
    return jnp.sign(prox) / (1 + lr * l2) * jnp.maximum(jnp.abs(prox) - lr * l1, 0)


class ApplyProximalGradientDescent(_ApplyOptimizer):
    """Proximal gradient descent: ``prox = var - alpha * delta``;
    ``var = sign(prox) / (1 + alpha * l2) * max(|prox| - alpha * l1, 0)``.

    Call: ``ApplyProximalGradientDescent()(var, alpha, l1, l2, delta)`` -> the new ``var``, updated in place.
    """

    _inputs = ("var", "alpha", "l1", "l2", "delta")
    _scalars = ("alpha", "l1", "l2")

    def __init__(self) -> None:
        super().__init__()

    def _update(self, var, alpha, l1, l2, delta):  # type: ignore[override]
        return (_proximal(var - alpha * delta, alpha, l1, l2),)


def _proximal_adagrad(var, accum, lr, l1, l2, grad):  # type: ignore[no-untyped-def]
    accum = accum + grad * grad
    step = lr / jnp.sqrt(accum)  # the proximal step uses the per-element learning rate
    return _proximal(var - step * grad, step, l1, l2), accum


class ApplyProximalAdagrad(_ApplyOptimizer):
    """Proximal Adagrad: ``accum += grad ** 2``; with ``step = lr / sqrt(accum)``, ``prox = var - step * grad``;
    ``var = sign(prox) / (1 + step * l2) * max(|prox| - step * l1, 0)``.

    Arguments:
        use_locking: accepted for compatibility. Default: ``False``.

    Call: ``ApplyProximalAdagrad()(var, accum, lr, l1, l2, grad)`` -> ``(var, accum)``, both updated in place.
    """

    _inputs = ("var", "accum", "lr", "l1", "l2", "grad")
    _slots = ("var", "accum")
    _scalars = ("lr", "l1", "l2")

    def _update(self, var, accum, lr, l1, l2, grad):  # type: ignore[override]
        return _proximal_adagrad(var, accum, lr, l1, l2, grad)


def _sign_update(m: jax.Array, grad: jax.Array, beta: Any) -> tuple[jax.Array, jax.Array]:
    m = beta * m + (1 - beta) * grad
    return m, jnp.sign(grad) * jnp.sign(m)


class ApplyAddSign(_ApplyOptimizer):
    """AddSign: ``m = beta * m + (1 - beta) * grad``;
    ``var -= lr * (alpha + sign_decay * sign(grad) * sign(m)) * grad``.

    Call: ``ApplyAddSign()(var, m, lr, alpha, sign_decay, beta, grad)`` -> ``(var, m)``, both updated in place.
    """

    _inputs = ("var", "m", "lr", "alpha", "sign_decay", "beta", "grad")
    _slots = ("var", "m")
    _scalars = ("lr", "alpha", "sign_decay", "beta")

    def __init__(self) -> None:
        super().__init__()

    def _update(self, var, m, lr, alpha, sign_decay, beta, grad):  # type: ignore[override]
        m, agree = _sign_update(m, grad, beta)
        return var - lr * (alpha + sign_decay * agree) * grad, m


class ApplyPowerSign(_ApplyOptimizer):
    """PowerSign: ``m = beta * m + (1 - beta) * grad``;
    ``var -= lr * exp(logbase * sign_decay * sign(grad) * sign(m)) * grad``.

    Call: ``ApplyPowerSign()(var, m, lr, logbase, sign_decay, beta, grad)`` -> ``(var, m)``, both updated in place.
    """

    _inputs = ("var", "m", "lr", "logbase", "sign_decay", "beta", "grad")
    _slots = ("var", "m")
    _scalars = ("lr", "logbase", "sign_decay", "beta")

    def __init__(self) -> None:
        super().__init__()

    def _update(self, var, m, lr, logbase, sign_decay, beta, grad):  # type: ignore[override]
        m, agree = _sign_update(m, grad, beta)
        return var - lr * jnp.exp(logbase * sign_decay * agree) * grad, m


def _ftrl(var, accum, linear, grad, lr, l1, l2, lr_power, l2_shrinkage=0.0):  # type: ignore[no-untyped-def]
    shrunk = grad + 2 * l2_shrinkage * var
    new_accum = accum + grad * grad
    sigma = (new_accum ** -lr_power - accum ** -lr_power) / lr
    linear = linear + shrunk - sigma * var
    quadratic = new_accum ** -lr_power / lr + 2 * l2
    var = jnp.where(jnp.abs(linear) > l1, (jnp.sign(linear) * l1 - linear) / quadratic, 0)
    return var, new_accum, linear


class ApplyFtrl(_ApplyOptimizer):
    """FTRL-proximal: the update of :class:`mindspore.nn.FTRL` on ``var``, ``accum`` and ``linear``.

    Arguments:
        use_locking: accepted for compatibility. Default: ``False``.

    Call: ``ApplyFtrl()(var, accum, linear, grad, lr, l1, l2, lr_power)`` -> the new ``var``; the three are
    updated in place.
    """

    _inputs = ("var", "accum", "linear", "grad", "lr", "l1", "l2", "lr_power")
    _slots = ("var", "accum", "linear")
    _scalars = ("lr", "l1", "l2", "lr_power")
    _returns = 1

    def _update(self, var, accum, linear, grad, lr, l1, l2, lr_power):  # type: ignore[override]
        return _ftrl(var, accum, linear, grad, lr, l1, l2, lr_power)


def _adam(var, m, v, beta1_power, beta2_power, lr, beta1, beta2, epsilon, grad, nesterov):  # type: ignore[no-untyped-def]
    m = beta1 * m + (1 - beta1) * grad
    v = beta2 * v + (1 - beta2) * grad * grad
    lr_t = lr * jnp.sqrt(1 - beta2_power) / (1 - beta1_power)
    step = (m * beta1 + (1 - beta1) * grad) if nesterov else m
    return var - lr_t * step / (jnp.sqrt(v) + epsilon), m, v


class ApplyAdamWithAmsgrad(_ApplyOptimizer):
    """Adam with AMSGrad: Adam's moments, ``vhat = max(vhat, v)`` in the denominator.

    Arguments:
        beta1: Default: ``0.9``. beta2: Default: ``0.999``. epsilon: Default: ``1e-8``.
        use_locking: accepted for compatibility. Default: ``False``.

    Call: ``ApplyAdamWithAmsgrad()(var, m, v, vhat, beta1_power, beta2_power, lr, grad)`` ->
    ``(var, m, v, vhat)``, all updated in place.
    """

    _inputs = ("var", "m", "v", "vhat", "beta1_power", "beta2_power", "lr", "grad")
    _slots = ("var", "m", "v", "vhat")
    _scalars = ("beta1_power", "beta2_power", "lr")

    def __init__(self, beta1: float = 0.9, beta2: float = 0.999, epsilon: float = 1e-8,
                 use_locking: bool = False) -> None:
        super().__init__(use_locking)
        record(self, beta1=_float_attr(self.name, "beta1", beta1), beta2=_float_attr(self.name, "beta2", beta2),
               epsilon=_float_attr(self.name, "epsilon", epsilon))

    def _update(self, var, m, v, vhat, beta1_power, beta2_power, lr, grad):  # type: ignore[override]
        return _amsgrad(var, m, v, vhat, beta1_power, beta2_power, lr, self.beta1, self.beta2, self.epsilon, grad)


def _amsgrad(var, m, v, vhat, beta1_power, beta2_power, lr, beta1, beta2, epsilon, grad):  # type: ignore[no-untyped-def]
    m = beta1 * m + (1 - beta1) * grad
    v = beta2 * v + (1 - beta2) * grad * grad
    vhat = jnp.maximum(vhat, v)
    lr_t = lr * jnp.sqrt(1 - beta2_power) / (1 - beta1_power)
    return var - lr_t * m / (jnp.sqrt(vhat) + epsilon), m, v, vhat


class ApplyAdamWithAmsgradV2(_ApplyOptimizer):
    """Adam with AMSGrad, ``beta1``, ``beta2`` and ``epsilon`` given as inputs.

    Arguments:
        use_locking: accepted for compatibility. Default: ``False``.

    Call: ``ApplyAdamWithAmsgradV2()(var, m, v, vhat, beta1_power, beta2_power, lr, beta1, beta2, epsilon, grad)``
    -> ``(var, m, v, vhat)``, all updated in place.
    """

    _inputs = ("var", "m", "v", "vhat", "beta1_power", "beta2_power", "lr", "beta1", "beta2", "epsilon", "grad")
    _slots = ("var", "m", "v", "vhat")
    _scalars = ("beta1_power", "beta2_power", "lr", "beta1", "beta2", "epsilon")

    def _update(self, var, m, v, vhat, beta1_power, beta2_power, lr, beta1, beta2, epsilon, grad):  # type: ignore[override]
        return _amsgrad(var, m, v, vhat, beta1_power, beta2_power, lr, beta1, beta2, epsilon, grad)


class ApplyAdagradDA(_ApplyOptimizer):
    """Adagrad dual averaging: ``grad_accum += grad``; ``grad_squared_accum += grad ** 2``;
    ``var = -lr * shrink(grad_accum, l1 * global_step) / (l2 * global_step * lr + sqrt(grad_squared_accum))``.

    Arguments:
        use_locking: accepted for compatibility. Default: ``False``.

    Call: ``ApplyAdagradDA()(var, gradient_accumulator, gradient_squared_accumulator, grad, lr, l1, l2,
    global_step)`` -> the new ``var``; the three are updated in place.
    """

    _inputs = ("var", "gradient_accumulator", "gradient_squared_accumulator", "grad", "lr", "l1", "l2",
               "global_step")
    _slots = ("var", "gradient_accumulator", "gradient_squared_accumulator")
    _scalars = ("lr", "l1", "l2")
    _returns = 1

    def _update(self, var, gradient_accumulator, gradient_squared_accumulator, grad, lr, l1, l2,  # type: ignore[override]
                global_step):
        acc = gradient_accumulator + grad
        sq = gradient_squared_accumulator + grad * grad
        shrunk = jnp.where(l1 > 0, jnp.sign(acc) * jnp.maximum(jnp.abs(acc) - l1 * global_step, 0), acc)
        return -lr * shrunk / (l2 * global_step * lr + jnp.sqrt(sq)), acc, sq


class Adam(_ApplyOptimizer):
    """Adam: ``m = beta1 * m + (1 - beta1) * g``; ``v = beta2 * v + (1 - beta2) * g ** 2``;
    ``var -= lr * sqrt(1 - beta2_power) / (1 - beta1_power) * m / (sqrt(v) + epsilon)``.

    Arguments:
        use_locking: accepted for compatibility. Default: ``False``.
        use_nesterov: use Nesterov momentum. Default: ``False``.

    Call: ``Adam()(var, m, v, beta1_power, beta2_power, lr, beta1, beta2, epsilon, gradient)`` -> ``(var, m, v)``,
    all updated in place.
    """

    _inputs = ("var", "m", "v", "beta1_power", "beta2_power", "lr", "beta1", "beta2", "epsilon", "gradient")
    _slots = ("var", "m", "v")
    _scalars = ("beta1_power", "beta2_power", "lr", "beta1", "beta2", "epsilon")

    def __init__(self, use_locking: bool = False, use_nesterov: bool = False) -> None:
        super().__init__(use_locking)
        record(self, use_nesterov=check_bool(self.name, "use_nesterov", use_nesterov))

    def _update(self, var, m, v, beta1_power, beta2_power, lr, beta1, beta2, epsilon, gradient):  # type: ignore[override]
        return _adam(var, m, v, beta1_power, beta2_power, lr, beta1, beta2, epsilon, gradient, self.use_nesterov)


class AdamWeightDecay(_ApplyOptimizer):
    """Adam with decoupled weight decay: ``var -= lr * (m / (sqrt(v) + epsilon) + decay * var)``.

    Arguments:
        use_locking: accepted for compatibility. Default: ``False``.

    Call: ``AdamWeightDecay()(var, m, v, lr, beta1, beta2, epsilon, decay, gradient)`` -> ``(var, m, v)``,
    all updated in place.
    """

    _inputs = ("var", "m", "v", "lr", "beta1", "beta2", "epsilon", "decay", "gradient")
    _slots = ("var", "m", "v")
    _scalars = ("lr", "beta1", "beta2", "epsilon", "decay")

    def _update(self, var, m, v, lr, beta1, beta2, epsilon, decay, gradient):  # type: ignore[override]
        m = beta1 * m + (1 - beta1) * gradient
        v = beta2 * v + (1 - beta2) * gradient * gradient
        return var - lr * (m / (jnp.sqrt(v) + epsilon) + decay * var), m, v


class SGD(_ApplyOptimizer):
    """Stochastic gradient descent with momentum, dampening, weight decay and Nesterov (PyTorch's SGD).

    ``stat`` marks the first step (non-zero): there ``accum = gradient``, later
    ``accum = momentum * accum + (1 - dampening) * gradient``; ``stat`` is then zero.

    Arguments:
        dampening: Default: ``0.0``. weight_decay: Default: ``0.0``. nesterov: Default: ``False``.

    Call: ``SGD()(parameters, gradient, learning_rate, accum, momentum, stat)`` -> the new ``parameters``;
    ``parameters``, ``accum`` and ``stat`` are updated in place.
    """

    _inputs = ("parameters", "gradient", "learning_rate", "accum", "momentum", "stat")
    _slots = ("parameters", "accum", "stat")
    _scalars = ("learning_rate", "momentum")
    _returns = 1

    def __init__(self, dampening: float = 0.0, weight_decay: float = 0.0, nesterov: bool = False) -> None:
        Primitive.__init__(self)
        for arg, value in (("dampening", dampening), ("weight_decay", weight_decay)):
            if not isinstance(value, float):
                raise TypeError(f"For '{self.name}', '{arg}' must be a float, but got {type(value).__name__}.")
        if nesterov and dampening != 0:
            raise ValueError(f"For '{self.name}', 'dampening' must be 0 when 'nesterov' is True, but got {dampening}.")
        record(self, dampening=dampening, weight_decay=weight_decay,
               nesterov=check_bool(self.name, "nesterov", nesterov))

    def _update(self, parameters, gradient, learning_rate, accum, momentum, stat):  # type: ignore[override]
        g = gradient + self.weight_decay * parameters
        accum = jnp.where(stat > 0, g, momentum * accum + (1 - self.dampening) * g)
        step = g + momentum * accum if self.nesterov else accum
        return parameters - learning_rate * step, accum, jnp.zeros_like(stat)


class _SparseApplyOptimizer(_ApplyOptimizer):
    _sparse = True


class SparseApplyAdagrad(_SparseApplyOptimizer):
    """Adagrad on the rows of ``var`` at ``indices`` (repeated indices add their gradients).

    Arguments:
        lr: the learning rate. update_slots: update ``accum``. Default: ``True``.
        use_locking: accepted for compatibility. Default: ``False``.

    Call: ``SparseApplyAdagrad(lr)(var, accum, grad, indices)`` -> ``(var, accum)``, both updated in place.
    """

    _inputs = ("var", "accum", "grad", "indices")
    _slots = ("var", "accum")

    def __init__(self, lr: float, update_slots: bool = True, use_locking: bool = False) -> None:
        super().__init__(use_locking)
        record(self, lr=_float_attr(self.name, "lr", lr),
               update_slots=check_bool(self.name, "update_slots", update_slots))

    def _update(self, var, accum, grad):  # type: ignore[override]
        return _adagrad(var, accum, self.lr, grad, None, self.update_slots)


class SparseApplyAdagradV2(_SparseApplyOptimizer):
    """Adagrad with ``epsilon`` on the rows of ``var`` at ``indices``.

    Arguments:
        lr: the learning rate. epsilon: added to the denominator.
        use_locking: accepted for compatibility. Default: ``False``. update_slots: Default: ``True``.

    Call: ``SparseApplyAdagradV2(lr, epsilon)(var, accum, grad, indices)`` -> ``(var, accum)``, both updated
    in place.
    """

    _inputs = ("var", "accum", "grad", "indices")
    _slots = ("var", "accum")

    def __init__(self, lr: float, epsilon: float, use_locking: bool = False, update_slots: bool = True) -> None:
        super().__init__(use_locking)
        record(self, lr=_float_attr(self.name, "lr", lr), epsilon=_float_attr(self.name, "epsilon", epsilon),
               update_slots=check_bool(self.name, "update_slots", update_slots))

    def _update(self, var, accum, grad):  # type: ignore[override]
        return _adagrad(var, accum, self.lr, grad, self.epsilon, self.update_slots)


class SparseApplyFtrl(_SparseApplyOptimizer):
    """FTRL-proximal on the rows of ``var`` at ``indices``.

    Arguments:
        lr, l1, l2, lr_power: FTRL's hyper-parameters (floats).
        use_locking: accepted for compatibility. Default: ``False``.

    Call: ``SparseApplyFtrl(lr, l1, l2, lr_power)(var, accum, linear, grad, indices)`` ->
    ``(var, accum, linear)``, all updated in place.
    """

    _inputs = ("var", "accum", "linear", "grad", "indices")
    _slots = ("var", "accum", "linear")

    def __init__(self, lr: float, l1: float, l2: float, lr_power: float, use_locking: bool = False) -> None:
        super().__init__(use_locking)
        record(self, **{k: _float_attr(self.name, k, v) for k, v in
                        (("lr", lr), ("l1", l1), ("l2", l2), ("lr_power", lr_power))})

    def _update(self, var, accum, linear, grad):  # type: ignore[override]
        return _ftrl(var, accum, linear, grad, self.lr, self.l1, self.l2, self.lr_power)


class SparseApplyFtrlV2(_SparseApplyOptimizer):
    """FTRL-proximal with L2 shrinkage (``grad + 2 * l2_shrinkage * var`` in the linear term) on the rows
    at ``indices``.

    Arguments:
        lr, l1, l2, l2_shrinkage, lr_power: the hyper-parameters (floats).
        use_locking: accepted for compatibility. Default: ``False``.

    Call: ``SparseApplyFtrlV2(lr, l1, l2, l2_shrinkage, lr_power)(var, accum, linear, grad, indices)`` ->
    ``(var, accum, linear)``, all updated in place.
    """

    _inputs = ("var", "accum", "linear", "grad", "indices")
    _slots = ("var", "accum", "linear")

    def __init__(self, lr: float, l1: float, l2: float, l2_shrinkage: float, lr_power: float,
                 use_locking: bool = False) -> None:
        super().__init__(use_locking)
        record(self, **{k: _float_attr(self.name, k, v) for k, v in
                        (("lr", lr), ("l1", l1), ("l2", l2), ("l2_shrinkage", l2_shrinkage), ("lr_power", lr_power))})

    def _update(self, var, accum, linear, grad):  # type: ignore[override]
        return _ftrl(var, accum, linear, grad, self.lr, self.l1, self.l2, self.lr_power, self.l2_shrinkage)


class SparseApplyProximalAdagrad(_SparseApplyOptimizer):
    """Proximal Adagrad on the rows of ``var`` at ``indices``.

    Arguments:
        use_locking: accepted for compatibility. Default: ``False``.

    Call: ``SparseApplyProximalAdagrad()(var, accum, lr, l1, l2, grad, indices)`` -> ``(var, accum)``, both
    updated in place.
    """

    _inputs = ("var", "accum", "lr", "l1", "l2", "grad", "indices")
    _slots = ("var", "accum")
    _scalars = ("lr", "l1", "l2")

    def _update(self, var, accum, lr, l1, l2, grad):  # type: ignore[override]
        return _proximal_adagrad(var, accum, lr, l1, l2, grad)


class SparseApplyRMSProp(_SparseApplyOptimizer):
    """RMSProp on the rows of ``var`` at ``indices``.

    Arguments:
        rho: the decay rate. momentum: the momentum. epsilon: the ridge term.
        use_locking: accepted for compatibility. Default: ``False``.

    Call: ``SparseApplyRMSProp(rho, momentum, epsilon)(var, ms, mom, lr, grad, indices)`` -> ``(var, ms, mom)``,
    all updated in place.
    """

    _inputs = ("var", "ms", "mom", "lr", "grad", "indices")
    _slots = ("var", "ms", "mom")
    _scalars = ("lr",)

    def __init__(self, rho: float, momentum: float, epsilon: float, use_locking: bool = False) -> None:
        super().__init__(use_locking)
        record(self, rho=_float_attr(self.name, "rho", rho), momentum=_float_attr(self.name, "momentum", momentum),
               epsilon=_float_attr(self.name, "epsilon", epsilon))

    def _update(self, var, ms, mom, lr, grad):  # type: ignore[override]
        ms = self.rho * ms + (1 - self.rho) * grad * grad
        mom = self.momentum * mom + lr * grad / jnp.sqrt(ms + self.epsilon)
        return var - mom, ms, mom


class SparseApplyAdadelta(_SparseApplyOptimizer):
    """Adadelta on the rows of ``var`` at ``indices``.

    Arguments:
        epsilon: added for numerical stability. use_locking: accepted for compatibility. Default: ``False``.

    Call: ``SparseApplyAdadelta(epsilon)(var, accum, accum_update, lr, rho, grad, indices)`` ->
    ``(var, accum, accum_update)``, all updated in place.
    """

    _inputs = ("var", "accum", "accum_update", "lr", "rho", "grad", "indices")
    _slots = ("var", "accum", "accum_update")
    _scalars = ("lr", "rho")

    def __init__(self, epsilon: float, use_locking: bool = False) -> None:
        super().__init__(use_locking)
        record(self, epsilon=_float_attr(self.name, "epsilon", epsilon))

    def _update(self, var, accum, accum_update, lr, rho, grad):  # type: ignore[override]
        return _adadelta(var, accum, accum_update, lr, rho, self.epsilon, grad)


class FusedSparseAdam(_SparseApplyOptimizer):
    """Adam with a sparse gradient: the moments of every row decay, the gradient rows at ``indices``
    (repeated indices summed) enter them, and every row of ``var`` moves.

    Arguments:
        use_locking: accepted for compatibility. Default: ``False``. use_nesterov: Default: ``False``.

    Call: ``FusedSparseAdam()(var, m, v, beta1_power, beta2_power, lr, beta1, beta2, epsilon, grad, indices)``
    -> ``(var, m, v)``, all updated in place.
    """

    _inputs = ("var", "m", "v", "beta1_power", "beta2_power", "lr", "beta1", "beta2", "epsilon", "grad", "indices")
    _slots = ("var", "m", "v")
    _scalars = ("beta1_power", "beta2_power", "lr", "beta1", "beta2", "epsilon")
    _lazy = False

    def __init__(self, use_locking: bool = False, use_nesterov: bool = False) -> None:
        super().__init__(use_locking)
        record(self, use_nesterov=check_bool(self.name, "use_nesterov", use_nesterov))

    def _update(self, var, m, v, beta1_power, beta2_power, lr, beta1, beta2, epsilon, grad):  # type: ignore[override]
        return _adam(var, m, v, beta1_power, beta2_power, lr, beta1, beta2, epsilon, grad, self.use_nesterov)


class FusedSparseLazyAdam(FusedSparseAdam):
    """Adam on the rows of ``var``, ``m`` and ``v`` at ``indices`` only (the others keep their values).

    Arguments:
        use_locking: accepted for compatibility. Default: ``False``. use_nesterov: Default: ``False``.

    Call: ``FusedSparseLazyAdam()(var, m, v, beta1_power, beta2_power, lr, beta1, beta2, epsilon, grad, indices)``
    -> ``(var, m, v)``, all updated in place.
    """

    _lazy = True


class FusedSparseFtrl(SparseApplyFtrl):
    """FTRL-proximal on the rows at ``indices`` (repeated indices summed); as :class:`SparseApplyFtrl`.

    Call: ``FusedSparseFtrl(lr, l1, l2, lr_power)(var, accum, linear, grad, indices)`` -> ``(var, accum, linear)``,
    all updated in place.
    """


class FusedSparseProximalAdagrad(SparseApplyProximalAdagrad):
    """Proximal Adagrad on the rows at ``indices`` (repeated indices summed); as
    :class:`SparseApplyProximalAdagrad`.

    Call: ``FusedSparseProximalAdagrad()(var, accum, lr, l1, l2, grad, indices)`` -> ``(var, accum)``, both
    updated in place.
    """


# --- norms, selection, convolution and padding ------------------------------------------------------

class NuclearNorm(Primitive):
    """The nuclear norm (sum of singular values) over two dimensions.

    Arguments:
        dim: the two dimensions, or None for the last two (the input must then be 2-D). Default: ``None``.
        keepdim: keep the reduced dimensions. Default: ``False``.

    Call: ``NuclearNorm()(x)`` -> array.
    """

    def __init__(self, dim: Any = None, keepdim: bool = False) -> None:
        super().__init__()
        if dim is not None and (not isinstance(dim, (list, tuple)) or len(dim) != 2):
            raise TypeError(f"For '{self.name}', 'dim' must be None or a list of two ints, but got {dim!r}.")
        record(self, dim=dim, keepdim=check_bool(self.name, "keepdim", keepdim))

    def __call__(self, x: Any) -> jax.Array:
        a = as_array(x)
        if self.dim is None and a.ndim != 2:
            raise ValueError(f"For '{self.name}', 'x' must be 2-D when 'dim' is None, but got shape {a.shape}.")
        axes = (0, 1) if self.dim is None else tuple(F._axis(self.name, d, a.ndim) for d in self.dim)
        if axes[0] == axes[1]:
            raise ValueError(f"For '{self.name}', the two 'dim' entries must differ, but got {self.dim}.")
        moved = jnp.moveaxis(a, axes, (-2, -1))
        out = jnp.sum(jnp.linalg.svd(moved, compute_uv=False), axis=-1)
        if self.keepdim:
            out = jnp.expand_dims(out, tuple(sorted(axes)))
        return out.astype(a.dtype)


class Pdist(Primitive):
    """The ``p``-norm distances between the rows of ``x`` (upper triangle, row-major).

    Arguments:
        p: the norm's order (>= 0). Default: ``2.0``.

    Call: ``Pdist()(x)`` -> array.
    """

    def __init__(self, p: float = 2.0) -> None:
        super().__init__()
        if isinstance(p, bool) or not isinstance(p, (int, float)) or p < 0:
            raise ValueError(f"For '{self.name}', 'p' must be a float >= 0, but got {p!r}.")
        record(self, p=float(p))

    def __call__(self, x: Any) -> jax.Array:
        return N.pdist(x, self.p)


class NthElement(Primitive):
    """The ``n``-th smallest (largest when ``reverse``) value along the last axis.

    Arguments:
        reverse: take the ``n``-th largest. Default: ``False``.

    Call: ``NthElement()(input, n)`` -> array without the last axis.
    """

    def __init__(self, reverse: bool = False) -> None:
        super().__init__()
        record(self, reverse=check_bool(self.name, "reverse", reverse))

    def __call__(self, input: Any, n: Any) -> jax.Array:
        a = as_array(input)
        k = int(as_array(n)) if not isinstance(n, int) else n
        if a.ndim < 1 or not 0 <= k < a.shape[-1]:
            raise ValueError(f"For '{self.name}', 'n' must be in [0, {a.shape[-1] if a.ndim else 0}), but got {k}.")
        s = jnp.sort(a, axis=-1)
        return s[..., -1 - k] if self.reverse else s[..., k]


class DepthwiseConv2dNative(Primitive):
    """Depthwise 2-D convolution over NCHW input: each input channel convolved with its filter of the
    ``(1, C, kh, kw)`` weight (MindSpore's shape check allows one filter per channel, so ``channel_multiplier``
    must be 1).

    Arguments:
        channel_multiplier: the filters per channel. kernel_size: an int or a pair.
        mode: Default: ``3``. pad_mode: ``'valid'`` (default), ``'same'`` or ``'pad'``. pad: Default: ``0``.
        stride, dilation: Default: ``1``. group: accepted for compatibility. Default: ``1``.

    Call: ``DepthwiseConv2dNative(channel_multiplier, kernel_size)(x, weight)`` -> ``(N, C, H', W')``.
    """

    _strategy_inputs = 2

    def __init__(self, channel_multiplier: int, kernel_size: Any, mode: int = 3, pad_mode: str = "valid",
                 pad: Any = 0, stride: Any = 1, dilation: Any = 1, group: int = 1) -> None:
        super().__init__()
        if check_int(self.name, "channel_multiplier", channel_multiplier) != 1:
            raise ValueError(f"For '{self.name}', 'channel_multiplier' must be 1 (the weight holds one filter per "
                             f"channel), but got {channel_multiplier}.")
        if pad_mode not in ("valid", "same", "pad"):
            raise ValueError(f"For '{self.name}', 'pad_mode' must be 'valid', 'same' or 'pad', but got {pad_mode!r}.")
        record(self, channel_multiplier=channel_multiplier, kernel_size=_ints(kernel_size, 2), mode=mode,
               pad_mode=pad_mode, pad=pad, stride=stride, dilation=dilation, group=group)

    def __call__(self, x: Any, weight: Any) -> jax.Array:
        a, w = as_array(x), as_array(weight)
        c = a.shape[1]
        if w.shape != (1, c) + self.kernel_size:
            raise ValueError(f"For '{self.name}', 'weight' must have shape {(1, c) + self.kernel_size}, but got "
                             f"{w.shape}.")
        kernel = jnp.transpose(w, (1, 0, 2, 3))
        padding = self.pad if self.pad_mode == "pad" else 0
        return F.conv2d(a, kernel, None, _strip_nc(self.stride), self.pad_mode, padding, _strip_nc(self.dilation), c)


def _strip_nc(value: Any) -> Any:
    """A stride or dilation given as ``(1, 1, h, w)`` as ``(h, w)``."""
    return tuple(value[2:]) if isinstance(value, (tuple, list)) and len(value) == 4 else value


class ChannelShuffle(Primitive):
    """Shuffle the channels of ``(N, C, ...)`` input in ``group`` groups. Call: ``ChannelShuffle(group)(x)``."""

    def __init__(self, group: int) -> None:
        super().__init__()
        if check_int(self.name, "group", group) < 1:
            raise ValueError(f"For '{self.name}', 'group' must be >= 1, but got {group}.")
        record(self, group=group)

    def __call__(self, x: Any) -> jax.Array:
        return N.channel_shuffle(x, self.group)


class PadV3(Primitive):
    """Pad with ``paddings`` (pairs from the last dimension backwards, as ``ops.pad``) in a ``mode``.

    Arguments:
        mode: ``'constant'`` (default), ``'reflect'``, ``'edge'`` or ``'circular'``.
        paddings_contiguous: pairs given as ``(begin, end), ...`` (True, default) or all begins then all ends.

    Call: ``PadV3()(x, paddings, constant_value=None)`` -> array.
    """

    def __init__(self, mode: str = "constant", paddings_contiguous: bool = True) -> None:
        super().__init__()
        if mode not in ("constant", "reflect", "edge", "circular"):
            raise ValueError(f"For '{self.name}', 'mode' must be 'constant', 'reflect', 'edge' or 'circular', but got "
                             f"{mode!r}.")
        record(self, mode=mode, paddings_contiguous=check_bool(self.name, "paddings_contiguous", paddings_contiguous))

    def __call__(self, x: Any, paddings: Any, constant_value: Any = None) -> jax.Array:
        pads = [int(v) for v in (np.asarray(as_array(paddings)).reshape(-1).tolist()
                                 if not isinstance(paddings, (tuple, list)) else paddings)]
        if len(pads) % 2:
            raise ValueError(f"For '{self.name}', 'paddings' must have an even length, but got {len(pads)}.")
        if not self.paddings_contiguous:
            half = len(pads) // 2
            pads = [v for pair in zip(pads[:half], pads[half:]) for v in pair]
        mode = {"edge": "replicate"}.get(self.mode, self.mode)
        value = None if constant_value is None or mode != "constant" else float(
            np.asarray(as_array(constant_value)).reshape(()))
        return F.pad(x, tuple(pads), mode, value)


class LogSoftmaxExt(Primitive):
    """``log(softmax(input))`` along ``dim`` (the ``mint`` convention), optionally cast to ``dtype`` first.
    Call: ``LogSoftmaxExt()(input, dim=None, dtype=None)``."""

    def __init__(self) -> None:
        super().__init__()

    def __call__(self, input: Any, dim: int | None = None, dtype: Any = None) -> jax.Array:
        a = as_array(input)
        if dtype is not None:
            a = a.astype(to_jax_dtype(dtype))
        if dim is None:
            dim = 0 if a.ndim in (0, 1, 3) else 1  # PyTorch's implicit choice, which mint follows
        return jax.nn.log_softmax(a, axis=F._axis(self.name, dim, max(a.ndim, 1)))


# --- pooling with indices, unpooling and 3-D upsampling -------------------------------------------------

class MaxPoolWithArgmaxV2(Primitive):
    """2-D max pooling over NCHW input that also returns each maximum's flat index in its ``H * W`` plane.

    Arguments:
        kernel_size: an int or a pair. strides: Default: ``kernel_size``. pads: Default: ``0``.
        dilation: Default: ``(1, 1)``. ceil_mode: Default: ``False``. argmax_type: ``int64`` (default) or ``int32``.

    Call: ``MaxPoolWithArgmaxV2(kernel_size)(x)`` -> ``(output, argmax)``.
    """

    def __init__(self, kernel_size: Any, strides: Any = None, pads: Any = 0, dilation: Any = (1, 1),
                 ceil_mode: bool = False, argmax_type: Any = None) -> None:
        super().__init__()
        from mindjax.common import dtype as mstype

        argmax_type = mstype.int64 if argmax_type is None else argmax_type
        if str(argmax_type).lower() not in ("int32", "int64"):
            raise TypeError(f"For '{self.name}', 'argmax_type' must be int32 or int64, but got {argmax_type}.")
        record(self, kernel_size=kernel_size, strides=kernel_size if strides is None else strides, pads=pads,
               dilation=dilation, ceil_mode=check_bool(self.name, "ceil_mode", ceil_mode), argmax_type=argmax_type)

    def __call__(self, x: Any) -> tuple[jax.Array, jax.Array]:
        out, idx = F.max_pool2d(x, self.kernel_size, self.strides, self.pads, self.dilation, True, self.ceil_mode)
        return out, idx.astype(to_jax_dtype(self.argmax_type))


class MaxPool3DWithArgmax(Primitive):
    """3-D max pooling over NCDHW input that also returns each maximum's flat index in its ``D * H * W`` volume.

    Arguments:
        ksize, strides, pads: ints or triples. dilation: Default: ``(1, 1, 1)``. ceil_mode: Default: ``False``.
        data_format: only ``'NCDHW'``. argmax_type: ``int64`` (default) or ``int32``.

    Call: ``MaxPool3DWithArgmax(ksize, strides, pads)(x)`` -> ``(output, argmax)``.
    """

    def __init__(self, ksize: Any, strides: Any, pads: Any, dilation: Any = (1, 1, 1), ceil_mode: bool = False,
                 data_format: str = "NCDHW", argmax_type: Any = None) -> None:
        super().__init__()
        from mindjax.common import dtype as mstype

        if data_format != "NCDHW":
            raise ValueError(f"For '{self.name}', 'data_format' must be 'NCDHW', but got {data_format!r}.")
        argmax_type = mstype.int64 if argmax_type is None else argmax_type
        if str(argmax_type).lower() not in ("int32", "int64"):
            raise TypeError(f"For '{self.name}', 'argmax_type' must be int32 or int64, but got {argmax_type}.")
        record(self, ksize=ksize, strides=strides, pads=pads, dilation=dilation,
               ceil_mode=check_bool(self.name, "ceil_mode", ceil_mode), data_format=data_format,
               argmax_type=argmax_type)

    def __call__(self, x: Any) -> tuple[jax.Array, jax.Array]:
        out, idx = N.max_pool3d(x, self.ksize, self.strides, self.pads, self.dilation, self.ceil_mode, True)
        return out, idx.astype(to_jax_dtype(self.argmax_type))


class _MaxUnpool(Primitive):
    _strategy_inputs = 2
    _format = "NCHW"
    _fn: Any = None

    def __init__(self, ksize: Any, strides: Any = 0, pads: Any = 0, output_shape: Any = (),
                 data_format: str | None = None) -> None:
        super().__init__()
        data_format = self._format if data_format is None else data_format
        if data_format != self._format:
            raise ValueError(f"For '{self.name}', 'data_format' must be '{self._format}', but got {data_format!r}.")
        record(self, ksize=ksize, strides=strides, pads=pads, output_shape=tuple(output_shape),
               data_format=data_format)

    def __call__(self, x: Any, argmax: Any) -> jax.Array:
        strides = self.ksize if self.strides in (0, (0,), None) else self.strides
        size = tuple(self.output_shape)[2:] if self.output_shape else None
        return type(self)._fn(x, argmax, self.ksize, strides, self.pads, size)


class MaxUnpool2D(_MaxUnpool):
    """Undo a 2-D max pooling: ``x``'s values at the flat ``argmax`` positions of a zero NCHW plane.

    Arguments:
        ksize: the pooling window. strides: Default: ``0`` (the window). pads: Default: ``0``.
        output_shape: the full ``(N, C, H, W)``, or ``()`` to infer. data_format: ``'NCHW'``.

    Call: ``MaxUnpool2D(ksize)(x, argmax)`` -> array.
    """

    _fn = staticmethod(N.max_unpool2d)


class MaxUnpool3D(_MaxUnpool):
    """Undo a 3-D max pooling: ``x``'s values at the flat ``argmax`` positions of a zero NCDHW volume.

    Arguments:
        ksize: the pooling window. strides: Default: ``0`` (the window). pads: Default: ``0``.
        output_shape: the full ``(N, C, D, H, W)``, or ``()`` to infer. data_format: ``'NCDHW'``.

    Call: ``MaxUnpool3D(ksize)(x, argmax)`` -> array.
    """

    _format = "NCDHW"
    _fn = staticmethod(N.max_unpool3d)


class _Upsample3D(Primitive):
    _mode = "nearest"

    def __call__(self, x: Any, output_size: Any = None, scales: Any = None) -> jax.Array:
        if (output_size is None) == (scales is None):
            raise ValueError(f"For '{self.name}', exactly one of 'output_size' and 'scales' must be given.")
        a = as_array(x)
        if a.ndim != 5:
            raise ValueError(f"For '{self.name}', 'x' must be 5-D (N, C, D, H, W), but got shape {a.shape}.")
        if output_size is None:
            output_size = [int(np.floor(n * float(s))) for n, s in zip(a.shape[2:], scales)]
        size = tuple(int(v) for v in output_size)
        if len(size) != 3 or min(size) <= 0:
            raise ValueError(f"For '{self.name}', 'output_size' must be three positive ints, but got {output_size!r}.")
        if self._mode == "nearest":
            return F.interpolate(a, size, None, "nearest")
        y = a if jnp.issubdtype(a.dtype, jnp.floating) else a.astype(jnp.float32)
        for axis, out in zip((2, 3, 4), size):
            y = _linear_axis(y, axis, _source_index(out, y.shape[axis], self.align_corners, not self.align_corners))
        return y


class UpsampleNearest3D(_Upsample3D):
    """Nearest-neighbour upsampling of NCDHW input to ``output_size`` (or by ``scales``).
    Call: ``UpsampleNearest3D()(x, output_size=None, scales=None)``."""

    def __init__(self) -> None:
        super().__init__()


class UpsampleTrilinear3D(_Upsample3D):
    """Trilinear upsampling of NCDHW input to ``output_size`` (or by ``scales``).

    Arguments:
        align_corners: align the corner pixels. Default: ``False``.

    Call: ``UpsampleTrilinear3D()(x, output_size=None, scales=None)``.
    """

    _mode = "trilinear"

    def __init__(self, align_corners: bool = False) -> None:
        super().__init__()
        record(self, align_corners=check_bool(self.name, "align_corners", align_corners))


class ResizeLinear1D(Primitive):
    """Linear resizing of the last axis of ``(N, C, W)`` input to ``size``.

    Arguments:
        coordinate_transformation_mode: ``'align_corners'`` (default) or ``'half_pixel'``.

    Call: ``ResizeLinear1D()(x, size)`` -> ``(N, C, size)``.
    """

    _strategy_inputs = 1

    def __init__(self, coordinate_transformation_mode: str = "align_corners") -> None:
        super().__init__()
        if coordinate_transformation_mode not in ("align_corners", "half_pixel"):
            raise ValueError(f"For '{self.name}', 'coordinate_transformation_mode' must be 'align_corners' or "
                             f"'half_pixel', but got {coordinate_transformation_mode!r}.")
        record(self, coordinate_transformation_mode=coordinate_transformation_mode)

    def __call__(self, x: Any, size: Any) -> jax.Array:
        a = as_array(x)
        if a.ndim != 3:
            raise ValueError(f"For '{self.name}', 'x' must be 3-D (N, C, W), but got shape {a.shape}.")
        values = np.asarray(as_array(size)).reshape(-1).tolist() if not isinstance(size, (int, tuple, list)) else size
        out = int(values if isinstance(values, int) else values[0])
        if out <= 0:
            raise ValueError(f"For '{self.name}', 'size' must be positive, but got {out}.")
        align = self.coordinate_transformation_mode == "align_corners"
        y = a if jnp.issubdtype(a.dtype, jnp.floating) else a.astype(jnp.float32)
        return _linear_axis(y, 2, _source_index(out, a.shape[2], align, not align))


# --- CTC (TensorFlow-style sparse labels, blank = the last class) ---------------------------------------

class CTCGreedyDecoder(Primitive):
    """Greedy CTC decoding (see ``ops.ctc_greedy_decoder``). Eager only.

    Arguments:
        merge_repeated: merge repeated classes. Default: ``True``.

    Call: ``CTCGreedyDecoder()(inputs, sequence_length)`` ->
    ``(decoded_indices, decoded_values, decoded_shape, log_probability)``.
    """

    _strategy_inputs = 2

    def __init__(self, merge_repeated: bool = True) -> None:
        super().__init__()
        record(self, merge_repeated=check_bool(self.name, "merge_repeated", merge_repeated))

    def __call__(self, inputs: Any, sequence_length: Any) -> tuple[jax.Array, ...]:
        return N.ctc_greedy_decoder(inputs, sequence_length, self.merge_repeated)


class CTCLoss(Primitive):
    """CTC loss of ``(max_time, batch, num_classes)`` logits against sparse labels (blank = ``num_classes - 1``),
    with its gradient.

    Arguments:
        preprocess_collapse_repeated: merge repeated labels first. Default: ``False``.
        ctc_merge_repeated: repeated non-blank steps may merge into one label (only ``True``, the CTC rule, is
            available). Default: ``True``.
        ignore_longer_outputs_than_inputs: give zero loss and gradient to sequences whose labels are longer than
            their inputs instead of an error. Default: ``False``.

    Call: ``CTCLoss()(x, labels_indices, labels_values, sequence_length)`` -> ``(loss, gradient)``.
    """

    _strategy_inputs = 4

    def __init__(self, preprocess_collapse_repeated: bool = False, ctc_merge_repeated: bool = True,
                 ignore_longer_outputs_than_inputs: bool = False) -> None:
        super().__init__()
        record(self, preprocess_collapse_repeated=check_bool(self.name, "preprocess_collapse_repeated",
                                                             preprocess_collapse_repeated),
               ctc_merge_repeated=check_bool(self.name, "ctc_merge_repeated", ctc_merge_repeated),
               ignore_longer_outputs_than_inputs=check_bool(self.name, "ignore_longer_outputs_than_inputs",
                                                            ignore_longer_outputs_than_inputs))
        if not ctc_merge_repeated:
            raise NotImplementedError(f"For '{self.name}', 'ctc_merge_repeated=False' is not available; use the "
                                      f"default True (the CTC alignment rule), as ops.ctc_loss does.")

    def __call__(self, x: Any, labels_indices: Any, labels_values: Any, sequence_length: Any) -> tuple[Any, Any]:
        logits = as_array(x)
        if logits.ndim != 3:
            raise ValueError(f"For '{self.name}', 'x' must be 3-D (max_time, batch_size, num_classes), but got shape "
                             f"{logits.shape}.")
        idx, vals = np.asarray(as_array(labels_indices)), np.asarray(as_array(labels_values))
        if idx.ndim != 2 or idx.shape[1] != 2 or vals.shape != idx.shape[:1]:
            raise ValueError(f"For '{self.name}', 'labels_indices' must be (N, 2) and 'labels_values' (N,), but got "
                             f"shapes {idx.shape} and {vals.shape}.")
        steps, batch, classes = logits.shape
        rows: list[list[int]] = [[] for _ in range(batch)]
        for (b, _), v in sorted(zip(map(tuple, idx.tolist()), vals.tolist())):
            if not self.preprocess_collapse_repeated or not rows[b] or rows[b][-1] != v:
                rows[b].append(int(v))
        lengths = np.asarray(as_array(sequence_length)).reshape(-1)
        too_long = np.array([len(r) > int(n) for r, n in zip(rows, lengths)])
        if too_long.any() and not self.ignore_longer_outputs_than_inputs:
            raise ValueError(f"For '{self.name}', the labels of batch {int(np.argmax(too_long))} are longer than its "
                             f"sequence_length {int(lengths[np.argmax(too_long)])}; set "
                             f"'ignore_longer_outputs_than_inputs' to skip such sequences.")
        width = max(1, max(len(r) for r in rows))
        targets = jnp.asarray([r + [0] * (width - len(r)) for r in rows], jnp.int32)
        target_lengths = jnp.asarray([len(r) for r in rows], jnp.int32)
        input_lengths = jnp.asarray(lengths, jnp.int32)

        def per_batch(z: jax.Array) -> jax.Array:
            log_probs = jax.nn.log_softmax(z.astype(jnp.float32), axis=-1)
            loss, _ = N.ctc_loss(log_probs, targets, input_lengths, target_lengths, classes - 1, "none")
            return jnp.where(jnp.asarray(too_long), 0.0, loss)

        loss, pullback = jax.vjp(per_batch, logits)
        (grad,) = pullback(jnp.ones_like(loss))
        return loss.astype(logits.dtype), grad.astype(logits.dtype)


# --- pooling with argmax, ROI align, bicubic resize ---------------------------------------------

def _pair_arg(prim: str, name: str, value: Any) -> tuple[int, int]:
    items = (value, value) if isinstance(value, int) and not isinstance(value, bool) else tuple(value)
    if len(items) == 4:  # MindSpore's (1, 1, h, w) spelling
        items = items[2:]
    if len(items) != 2 or any(isinstance(v, bool) or not isinstance(v, int) or v <= 0 for v in items):
        raise ValueError(f"For '{prim}', '{name}' must be a positive int or a pair of positive ints, but got "
                         f"{value!r}.")
    return int(items[0]), int(items[1])


class MaxPoolWithArgmax(Primitive):
    """2-D max pooling over NCHW input that also returns where each maximum is.

    Arguments:
        kernel_size: an int or a pair. Default: ``1``.
        strides: an int or a pair. Default: ``1``.
        pad_mode: ``'valid'`` (default) or ``'same'`` (``ceil(in / stride)`` outputs, ``(kernel - stride) // 2``
            padding before the input and the rest after, as MindSpore 2.10's CPU kernel places it).
        data_format: only ``'NCHW'``.

    Call: ``MaxPoolWithArgmax(kernel_size, strides, pad_mode)(x)`` -> ``(output, argmax)``; ``argmax`` (int32)
    is each maximum's flat index ``c * H * W + h * W + w`` within its sample, the first one on ties.
    """

    def __init__(self, kernel_size: Any = 1, strides: Any = 1, pad_mode: str = "valid",
                 data_format: str = "NCHW") -> None:
        super().__init__()
        mode = pad_mode.upper() if isinstance(pad_mode, str) else pad_mode
        if mode not in ("VALID", "SAME"):
            raise ValueError(f"For '{self.name}', 'pad_mode' must be 'valid' or 'same', but got {pad_mode!r}.")
        if data_format != "NCHW":
            raise ValueError(f"For '{self.name}', 'data_format' must be 'NCHW' on CPU, but got {data_format!r}.")
        record(self, kernel_size=_pair_arg(self.name, "kernel_size", kernel_size),
               strides=_pair_arg(self.name, "strides", strides), pad_mode=mode, data_format=data_format)

    def __call__(self, x: Any) -> tuple[jax.Array, jax.Array]:
        a = as_array(x)
        if a.ndim != 4:
            raise ValueError(f"For '{self.name}', 'x' must be 4-D (N, C, H, W), but got shape {tuple(a.shape)}.")
        n, c, h, w = a.shape
        (kh, kw), (sh, sw) = self.kernel_size, self.strides
        if self.pad_mode == "SAME":
            oh, ow = -(-h // sh), -(-w // sw)
            # MindSpore 2.10's CPU kernel: (kernel - stride) // 2 before, the rest after
            top, left = max(kh - sh, 0) // 2, max(kw - sw, 0) // 2
        else:
            if kh > h or kw > w:
                raise ValueError(f"For '{self.name}', 'kernel_size' {self.kernel_size} is larger than the input "
                                 f"{(h, w)}.")
            oh, ow, top, left = (h - kh) // sh + 1, (w - kw) // sw + 1, 0, 0
        rows = (np.arange(oh) * sh - top)[:, None] + np.arange(kh)[None, :]  # (oh, kh)
        cols = (np.arange(ow) * sw - left)[:, None] + np.arange(kw)[None, :]  # (ow, kw)
        r = rows[:, None, :, None]
        q = cols[None, :, None, :]
        inside = jnp.asarray((r >= 0) & (r < h) & (q >= 0) & (q < w))  # (oh, ow, kh, kw)
        flat = jnp.asarray(np.clip(r, 0, h - 1) * w + np.clip(q, 0, w - 1)).reshape(oh, ow, kh * kw)
        patches = a.reshape(n, c, h * w)[:, :, flat]  # (n, c, oh, ow, kh * kw)
        low = jnp.asarray(-jnp.inf if jnp.issubdtype(a.dtype, jnp.floating) else jnp.iinfo(a.dtype).min, a.dtype)
        patches = jnp.where(inside.reshape(oh, ow, kh * kw), patches, low)
        pick = jnp.argmax(patches, axis=-1)
        out = jnp.take_along_axis(patches, pick[..., None], axis=-1)[..., 0]
        where = jnp.take_along_axis(jnp.broadcast_to(flat, patches.shape), pick[..., None], axis=-1)[..., 0]
        where = where + (jnp.arange(c) * h * w)[None, :, None, None]
        return out, where.astype(jnp.int32)


def _bilinear_at(plane: jax.Array, y: jax.Array, x: jax.Array) -> jax.Array:
    """Caffe2's ROIAlign sample of ``plane`` (C, H, W) at points ``y``/``x``: 0 beyond one pixel outside,
    clamped to the border inside that."""
    h, w = plane.shape[-2:]
    outside = (y < -1.0) | (y > h) | (x < -1.0) | (x > w)
    y, x = jnp.maximum(y, 0.0), jnp.maximum(x, 0.0)
    y0, x0 = jnp.floor(y).astype(jnp.int32), jnp.floor(x).astype(jnp.int32)
    y_edge, x_edge = y0 >= h - 1, x0 >= w - 1
    y0, x0 = jnp.where(y_edge, h - 1, y0), jnp.where(x_edge, w - 1, x0)
    y = jnp.where(y_edge, y0.astype(y.dtype), y)
    x = jnp.where(x_edge, x0.astype(x.dtype), x)
    y1, x1 = jnp.minimum(y0 + 1, h - 1), jnp.minimum(x0 + 1, w - 1)
    ly, lx = y - y0, x - x0
    hy, hx = 1.0 - ly, 1.0 - lx
    value = (hy * hx * plane[:, y0, x0] + hy * lx * plane[:, y0, x1] + ly * hx * plane[:, y1, x0]
             + ly * lx * plane[:, y1, x1])
    return jnp.where(outside, 0.0, value)


class ROIAlign(Primitive):
    """Average-pooled bilinear samples of each region of interest (Caffe2's ROIAlign, as MindSpore's CPU kernel).

    Arguments:
        pooled_height, pooled_width: the output's spatial size.
        spatial_scale: the scale from ``rois`` coordinates to ``features`` pixels.
        sample_num: samples per bin along each axis; ``<= 0``: the bin's size rounded down, at least 1, as
            MindSpore's CPU kernel (needs concrete ``rois``).
            Default: ``2``.
        roi_end_mode: ``1`` (default) adds one pixel to each region's end, ``0`` does not.

    Call: ``ROIAlign(...)(features, rois)`` with ``features`` ``(N, C, H, W)`` and ``rois`` ``(R, 5)`` rows of
    ``(batch_index, x1, y1, x2, y2)`` -> ``(R, C, pooled_height, pooled_width)``.
    """

    _strategy_inputs = 2

    def __init__(self, pooled_height: int, pooled_width: int, spatial_scale: float, sample_num: int = 2,
                 roi_end_mode: int = 1) -> None:
        super().__init__()
        for name, value in (("pooled_height", pooled_height), ("pooled_width", pooled_width),
                            ("sample_num", sample_num), ("roi_end_mode", roi_end_mode)):
            check_int(self.name, name, value)
        if not isinstance(spatial_scale, float):
            raise TypeError(f"For '{self.name}', the type of 'spatial_scale' should be 'float', but got type "
                            f"'{type(spatial_scale).__name__}'.")
        if roi_end_mode not in (0, 1):
            raise ValueError(f"For '{self.name}', 'roi_end_mode' must be 0 or 1, but got {roi_end_mode}.")
        if pooled_height <= 0 or pooled_width <= 0:
            raise ValueError(f"For '{self.name}', 'pooled_height' and 'pooled_width' must be positive, but got "
                             f"{pooled_height} and {pooled_width}.")
        record(self, pooled_height=pooled_height, pooled_width=pooled_width, spatial_scale=spatial_scale,
               sample_num=sample_num, roi_end_mode=roi_end_mode)

    def __call__(self, features: Any, rois: Any) -> jax.Array:
        f, r = as_array(features), as_array(rois)
        if f.ndim != 4:
            raise ValueError(f"For '{self.name}', 'features' must be 4-D (N, C, H, W), but got shape "
                             f"{tuple(f.shape)}.")
        if r.ndim != 2 or r.shape[1] != 5:
            raise ValueError(f"For '{self.name}', 'rois' must be of shape (R, 5), but got {tuple(r.shape)}.")
        ph, pw = self.pooled_height, self.pooled_width
        r = r.astype(jnp.float32)
        start_x, start_y = r[:, 1] * self.spatial_scale, r[:, 2] * self.spatial_scale
        end_x = (r[:, 3] + self.roi_end_mode) * self.spatial_scale
        end_y = (r[:, 4] + self.roi_end_mode) * self.spatial_scale
        bin_w = jnp.maximum(end_x - start_x, 1.0) / pw
        bin_h = jnp.maximum(end_y - start_y, 1.0) / ph
        if self.sample_num > 0:
            grid_h = grid_w = jnp.full(r.shape[:1], self.sample_num)
            gh = gw = self.sample_num
        else:
            if isinstance(r, jax.core.Tracer):
                raise ValueError(f"For '{self.name}', 'sample_num' <= 0 needs concrete 'rois' (outside jit).")
            grid_h = jnp.maximum(jnp.floor(bin_h), 1).astype(jnp.int32)
            grid_w = jnp.maximum(jnp.floor(bin_w), 1).astype(jnp.int32)
            gh, gw = int(jnp.max(grid_h)), int(jnp.max(grid_w))
        iy, ix = jnp.arange(gh, dtype=jnp.float32), jnp.arange(gw, dtype=jnp.float32)

        def one(roi_index: jax.Array, sy: jax.Array, sx: jax.Array, bh: jax.Array, bw: jax.Array,
                nh: jax.Array, nw: jax.Array) -> jax.Array:
            plane = f[roi_index].astype(jnp.float32)
            ys = sy + jnp.arange(ph)[:, None] * bh + (iy[None, :] + 0.5) * bh / nh  # (ph, gh)
            xs = sx + jnp.arange(pw)[:, None] * bw + (ix[None, :] + 0.5) * bw / nw  # (pw, gw)
            yy = jnp.broadcast_to(ys[:, None, :, None], (ph, pw, gh, gw))
            xx = jnp.broadcast_to(xs[None, :, None, :], (ph, pw, gh, gw))
            values = _bilinear_at(plane, yy, xx)  # (C, ph, pw, gh, gw)
            mask = (iy[:, None] < nh) & (ix[None, :] < nw)
            return jnp.sum(values * mask, axis=(-2, -1)) / (nh * nw).astype(jnp.float32)

        out = jax.vmap(one)(r[:, 0].astype(jnp.int32), start_y, start_x, bin_h, bin_w, grid_h, grid_w)
        return out.astype(f.dtype)


def _cubic_weights(t: np.ndarray, a: float) -> np.ndarray:
    """The four cubic-convolution weights for offsets ``t`` in [0, 1) (taps at -1, 0, 1, 2)."""
    def near(d: np.ndarray) -> np.ndarray:
        return ((a + 2) * d - (a + 3)) * d * d + 1

    def far(d: np.ndarray) -> np.ndarray:
        return ((a * d - 5 * a) * d + 8 * a) * d - 4 * a
    return np.stack([far(t + 1), near(t), near(1 - t), far(2 - t)], axis=-1)


def _cubic_matrix(out: int, size: int, align_corners: bool, half_pixel: bool) -> jax.Array:
    """The ``(out, size)`` interpolation matrix of MindSpore's bicubic resize along one axis (TensorFlow's:
    the offsets quantised to 1/1024 as its weight table is)."""
    scale = (size - 1) / (out - 1) if align_corners and out > 1 else size / out
    dst = np.arange(out, dtype=np.float64)
    src = (dst + 0.5) * scale - 0.5 if half_pixel else dst * scale
    base = np.floor(src)
    taps = base[:, None] + np.arange(-1, 3)[None, :]
    weights = _cubic_weights(np.rint((src - base) * 1024) / 1024, -0.5 if half_pixel else -0.75)
    if half_pixel:  # taps outside the image are dropped and the rest renormalised
        inside = (taps >= 0) & (taps < size)
        weights = np.where(inside, weights, 0.0)
        weights = weights / weights.sum(axis=1, keepdims=True)
    matrix = np.zeros((out, size))
    idx = np.clip(taps, 0, size - 1).astype(int)
    for k in range(4):
        np.add.at(matrix, (np.arange(out), idx[:, k]), weights[:, k])
    return jnp.asarray(matrix, jnp.float32)


class ResizeBicubic(Primitive):
    """Resize ``(N, C, H, W)`` images by cubic convolution to the call's ``size`` (float32 out).

    Arguments:
        align_corners: map the corner pixels onto each other. Default: ``False``.
        half_pixel_centers: sample at pixel centres (Keys' kernel with ``a = -0.5`` and the outside taps
            dropped); otherwise ``a = -0.75`` with the border repeated, as TensorFlow's legacy resize. Default:
            ``False``.

    Call: ``ResizeBicubic(align_corners, half_pixel_centers)(image, size)`` with ``size`` two positive ints.
    """

    def __init__(self, align_corners: bool = False, half_pixel_centers: bool = False) -> None:
        super().__init__()
        align_corners = check_bool(self.name, "align_corners", align_corners)
        half_pixel_centers = check_bool(self.name, "half_pixel_centers", half_pixel_centers)
        if align_corners and half_pixel_centers:
            raise ValueError(f"For '{self.name}', 'align_corners' and 'half_pixel_centers' cannot both be True.")
        record(self, align_corners=align_corners, half_pixel_centers=half_pixel_centers)

    def __call__(self, image: Any, size: Any) -> jax.Array:
        x = as_array(image)
        if x.ndim != 4:
            raise ValueError(f"For '{self.name}', 'image' must be 4-D (N, C, H, W), but got shape {tuple(x.shape)}.")
        out = [int(v) for v in np.asarray(as_array(size) if hasattr(size, "shape") else size).reshape(-1)]
        if len(out) != 2 or min(out) <= 0:
            raise ValueError(f"For '{self.name}', 'size' must be two positive ints, but got {out}.")
        rows = _cubic_matrix(out[0], x.shape[2], self.align_corners, self.half_pixel_centers)
        cols = _cubic_matrix(out[1], x.shape[3], self.align_corners, self.half_pixel_centers)
        return jnp.einsum("oh,nchw,pw->ncop", rows, x.astype(jnp.float32), cols,
                          precision=jax.lax.Precision.HIGHEST)


class FractionalMaxPoolWithFixedKsize(Primitive):
    """Fractional max pooling of NCHW input with a fixed window, at given random offsets.

    Arguments:
        ksize: an int or ``(kH, kW)``.
        output_shape: an int or ``(oH, oW)``.
        data_format: only ``'NCHW'``.

    Call: ``FractionalMaxPoolWithFixedKsize(ksize, output_shape)(input_x, random_samples)`` with
    ``random_samples`` ``(N, C, 2)`` offsets ``(u_width, u_height)`` in ``[0, 1)`` -> ``(y, argmax)``, ``argmax``
    the int64 flat ``H * W`` index of each maximum.
    """

    def __init__(self, ksize: Any, output_shape: Any, data_format: str = "NCHW") -> None:
        super().__init__()
        if data_format != "NCHW":
            raise ValueError(f"For '{self.name}', 'data_format' must be 'NCHW', but got {data_format!r}.")
        record(self, ksize=ksize, output_shape=output_shape, data_format=data_format)

    def __call__(self, input_x: Any, random_samples: Any) -> tuple[jax.Array, jax.Array]:
        if random_samples is None:
            raise ValueError(f"For '{self.name}', 'random_samples' must be a Tensor of shape (N, C, 2).")
        return N.fractional_max_pool2d(input_x, self.ksize, self.output_shape, None, True, random_samples)


# --- fused and gradient-only optimizer updates ---------------------------------------------------
# Their inputs do not all share the first one's shape and dtype (loss scales, moments kept in float32,
# factored second moments), so they bind their inputs here and write back through ``_write_back``.

def _bind_update(prim: Primitive, names: tuple[str, ...], args: tuple[Any, ...],
                 kwargs: dict[str, Any]) -> dict[str, Any]:
    if len(args) > len(names) or set(kwargs) - set(names[len(args):]):
        raise TypeError(f"For '{prim.name}', the inputs are {', '.join(names)}, but got {len(args)} positional "
                        f"and keyword arguments {sorted(kwargs)}.")
    given = dict(zip(names, args), **kwargs)
    missing = [n for n in names if n not in given]
    if missing:
        raise TypeError(f"For '{prim.name}', missing input(s): {', '.join(missing)}.")
    return given


def _float_tensor(prim: str, name: str, value: Any, shape: tuple[int, ...] | None = None) -> jax.Array:
    a = as_array(value)
    if not jnp.issubdtype(a.dtype, jnp.floating):
        raise TypeError(f"For '{prim}', '{name}' must be a float tensor, but got {a.dtype}.")
    if shape is not None and a.shape != shape:
        raise ValueError(f"For '{prim}', '{name}' must have shape {shape}, but got {a.shape}.")
    return a


class LARSUpdate(Primitive):
    """Layer-wise adaptive rate scaling of a gradient (deprecated in MindSpore 2.10).

    ``coeff = hyperpara * sqrt(norm_weight) / (sqrt(norm_gradient) + weight_decay * sqrt(norm_weight) + epsilon)``;
    with ``use_clip`` it becomes ``clip(coeff / learning_rate, 0, 1) * learning_rate``. The new gradient is
    ``coeff * (gradient + weight_decay * weight)``.

    Arguments:
        epsilon: Default: ``1e-05``. hyperpara: the trust coefficient. Default: ``0.001``.
        use_clip: Default: ``False``.

    Call: ``LARSUpdate()(weight, gradient, norm_weight, norm_gradient, weight_decay, learning_rate)`` -> the
    new gradient; ``norm_weight`` and ``norm_gradient`` are sums of squares.
    """

    _strategy_inputs = 6

    def __init__(self, epsilon: float = 1e-05, hyperpara: float = 0.001, use_clip: bool = False) -> None:
        super().__init__()
        record(self, epsilon=_float_attr(self.name, "epsilon", epsilon),
               hyperpara=_float_attr(self.name, "hyperpara", hyperpara),
               use_clip=check_bool(self.name, "use_clip", use_clip))

    def __call__(self, weight: Any, gradient: Any, norm_weight: Any, norm_gradient: Any, weight_decay: Any,
                 learning_rate: Any) -> jax.Array:
        w = _float_tensor(self.name, "weight", weight)
        g = _float_tensor(self.name, "gradient", gradient, w.shape)
        nw, ng, wd, lr = (_update_scalar(self.name, n, v, jnp.float32) for n, v in (
            ("norm_weight", norm_weight), ("norm_gradient", norm_gradient), ("weight_decay", weight_decay),
            ("learning_rate", learning_rate)))
        w_norm, g_norm = jnp.sqrt(nw), jnp.sqrt(ng)
        coeff = self.hyperpara * w_norm / (g_norm + wd * w_norm + self.epsilon)
        if self.use_clip:
            coeff = jnp.clip(coeff / lr, 0.0, 1.0) * lr
        return (coeff * (g.astype(jnp.float32) + wd * w.astype(jnp.float32))).astype(g.dtype)


class AdamNoUpdateParam(Primitive):
    """Adam's moments and step without touching the parameter (deprecated in MindSpore 2.8).

    ``m = beta1 * m + (1 - beta1) * g``; ``v = beta2 * v + (1 - beta2) * g ** 2``;
    the result is ``-lr * sqrt(1 - beta2_power) / (1 - beta1_power) * m / (sqrt(v) + epsilon)`` (with
    ``use_nesterov``, ``m`` is replaced by ``beta1 * m + (1 - beta1) * g``).

    Arguments:
        use_locking: accepted for compatibility. use_nesterov: Default: ``False``.

    Call: ``AdamNoUpdateParam()(m, v, beta1_power, beta2_power, lr, beta1, beta2, epsilon, gradient)`` -> the
    value to add to the parameter; ``m`` and ``v`` are updated in place.
    """

    _inputs = ("m", "v", "beta1_power", "beta2_power", "lr", "beta1", "beta2", "epsilon", "gradient")
    _strategy_inputs = 9

    def __init__(self, use_locking: bool = False, use_nesterov: bool = False) -> None:
        super().__init__()
        record(self, use_locking=check_bool(self.name, "use_locking", use_locking),
               use_nesterov=check_bool(self.name, "use_nesterov", use_nesterov))

    def __call__(self, *args: Any, **kwargs: Any) -> jax.Array:
        given = _bind_update(self, self._inputs, args, kwargs)
        m = _float_tensor(self.name, "m", given["m"])
        v = _float_tensor(self.name, "v", given["v"], m.shape)
        g = _float_tensor(self.name, "gradient", given["gradient"], m.shape).astype(m.dtype)
        b1p, b2p, lr, b1, b2, eps = (_update_scalar(self.name, n, given[n], m.dtype) for n in self._inputs[2:8])
        m_new = b1 * m + (1 - b1) * g
        v_new = b2 * v + (1 - b2) * g * g
        step = lr * jnp.sqrt(1 - b2p) / (1 - b1p)
        num = b1 * m_new + (1 - b1) * g if self.use_nesterov else m_new
        _write_back(given["m"], m_new)
        _write_back(given["v"], v_new)
        return -step * num / (jnp.sqrt(v_new) + eps)


class FusedWeightScaleApplyMomentum(Primitive):
    """Momentum with weight decay and gradient scaling in one update.

    ``g = (gradient + weight_decay * variable) * loss_scale`` (``loss_scale`` is the factor the gradient is
    multiplied by, as MindSpore's GPU kernel does); ``accumulation = momentum * accumulation + g``;
    ``variable -= learning_rate * accumulation``.

    Call: ``FusedWeightScaleApplyMomentum()(weight_decay, loss_scale, variable, accumulation, learning_rate,
    gradient, momentum)`` -> the new variable; ``variable`` and ``accumulation`` are updated in place.
    """

    _inputs = ("weight_decay", "loss_scale", "variable", "accumulation", "learning_rate", "gradient", "momentum")
    _strategy_inputs = 7

    def __call__(self, *args: Any, **kwargs: Any) -> jax.Array:
        given = _bind_update(self, self._inputs, args, kwargs)
        var = _float_tensor(self.name, "variable", given["variable"])
        accum = _float_tensor(self.name, "accumulation", given["accumulation"], var.shape).astype(var.dtype)
        grad = _float_tensor(self.name, "gradient", given["gradient"], var.shape).astype(var.dtype)
        wd, scale, lr, mom = (_update_scalar(self.name, n, given[n], var.dtype)
                              for n in ("weight_decay", "loss_scale", "learning_rate", "momentum"))
        accum = mom * accum + (grad + wd * var) * scale
        _write_back(given["accumulation"], accum)
        return _write_back(given["variable"], var - lr * accum)


class FusedCastAdamWeightDecay(Primitive):
    """AdamWeightDecay with the moments in float32 and the gradient divided by a global norm.

    ``g = gradient / global_norm`` (float32); ``m = beta1 * m + (1 - beta1) * g``;
    ``v = beta2 * v + (1 - beta2) * g ** 2``; ``update = m / (sqrt(v) + epsilon)``, plus ``decay * var`` when
    ``decay > 0``; ``var -= lr * update`` (cast back to ``var``'s dtype, float16 or float32).

    Arguments:
        use_locking: accepted for compatibility. Default: ``False``.

    Call: ``FusedCastAdamWeightDecay()(var, m, v, lr, beta1, beta2, epsilon, decay, gradient, global_norm)`` ->
    ``(var, m, v)``, all updated in place.
    """

    _inputs = ("var", "m", "v", "lr", "beta1", "beta2", "epsilon", "decay", "gradient", "global_norm")
    _strategy_inputs = 10

    def __init__(self, use_locking: bool = False) -> None:
        super().__init__()
        record(self, use_locking=check_bool(self.name, "use_locking", use_locking))

    def __call__(self, *args: Any, **kwargs: Any) -> tuple[jax.Array, jax.Array, jax.Array]:
        given = _bind_update(self, self._inputs, args, kwargs)
        var = _float_tensor(self.name, "var", given["var"])
        m = _float_tensor(self.name, "m", given["m"], var.shape).astype(jnp.float32)
        v = _float_tensor(self.name, "v", given["v"], var.shape).astype(jnp.float32)
        g = _float_tensor(self.name, "gradient", given["gradient"], var.shape).astype(jnp.float32)
        lr, b1, b2, eps, decay, norm = (_update_scalar(self.name, n, given[n], jnp.float32)
                                        for n in ("lr", "beta1", "beta2", "epsilon", "decay", "global_norm"))
        g = g / norm
        m = b1 * m + (1 - b1) * g
        v = b2 * v + (1 - b2) * g * g
        w = var.astype(jnp.float32)
        update = m / (jnp.sqrt(v) + eps)
        update = jnp.where(decay > 0, update + decay * w, update)
        return (_write_back(given["var"], w - lr * update), _write_back(given["m"], m), _write_back(given["v"], v))


class FusedAdaFactor(Primitive):
    """One Adafactor step (deprecated in MindSpore 2.8 in favour of ``AdaFactor``).

    With ``G = gradient`` and ``(eps1, eps2) = epsilon``: a parameter with two or more dimensions keeps
    factored second moments, ``row = beta2 * row + (1 - beta2) * mean(G ** 2 + eps1, -1)`` and
    ``col = beta2 * col + (1 - beta2) * mean(G ** 2 + eps1, -2)``, ``V = row ⊗ col / mean(row, -1)``; a vector
    keeps ``exp_avg_sq = beta2 * exp_avg_sq + (1 - beta2) * (G ** 2 + eps1)`` as ``V``. Then
    ``U = G / sqrt(V)``, ``U /= max(1, RMS(U) / clip_threshold)``, then ``U *= lr`` (times
    ``max(eps2, RMS(param))`` with ``enable_scale_parameter``); with ``enable_first_moment``
    ``exp_avg = beta1 * exp_avg + (1 - beta1) * U`` and ``U = exp_avg``; with ``enable_weight_decay``
    ``param -= weight_decay * step * param`` too (``step`` the scaled ``lr``); ``param -= U``.

    Arguments:
        enable_scale_parameter, enable_first_moment, enable_weight_decay: Default: ``False``.

    Call: ``FusedAdaFactor()(epsilon, clip_threshold, beta1, beta2, weight_decay, learning_rate, gradient,
    param, exp_avg, exp_avg_sq_row, exp_avg_sq_col, exp_avg_sq)`` -> the new ``param``; it and the states
    are updated in place.
    """

    _inputs = ("epsilon", "clip_threshold", "beta1", "beta2", "weight_decay", "learning_rate", "gradient",
               "param", "exp_avg", "exp_avg_sq_row", "exp_avg_sq_col", "exp_avg_sq")
    _strategy_inputs = 12

    def __init__(self, enable_scale_parameter: bool = False, enable_first_moment: bool = False,
                 enable_weight_decay: bool = False) -> None:
        super().__init__()
        record(self, enable_scale_parameter=check_bool(self.name, "enable_scale_parameter", enable_scale_parameter),
               enable_first_moment=check_bool(self.name, "enable_first_moment", enable_first_moment),
               enable_weight_decay=check_bool(self.name, "enable_weight_decay", enable_weight_decay))

    def __call__(self, *args: Any, **kwargs: Any) -> jax.Array:
        return self._step(_bind_update(self, self._inputs, args, kwargs), None)

    def _step(self, given: dict[str, Any], global_norm: Any) -> jax.Array:
        name = self.name
        param = _float_tensor(name, "param", given["param"])
        shape = param.shape
        g = _float_tensor(name, "gradient", given["gradient"], shape).astype(jnp.float32)
        if global_norm is not None:
            norm = _update_scalar(name, "global_norm", global_norm, jnp.float32)
            g = jnp.where(norm > 1, g / norm, g)
        eps = as_array(given["epsilon"]).reshape(-1).astype(jnp.float32)
        if eps.shape != (2,):
            raise ValueError(f"For '{name}', 'epsilon' must hold two values (eps1, eps2), but got shape {eps.shape}.")
        clip, b1, b2, wd, lr = (_update_scalar(name, n, given[n], jnp.float32) for n in (
            "clip_threshold", "beta1", "beta2", "weight_decay", "learning_rate"))
        p = param.astype(jnp.float32)
        g2 = g * g + eps[0]
        if param.ndim >= 2:
            row = _float_tensor(name, "exp_avg_sq_row", given["exp_avg_sq_row"], shape[:-1]).astype(jnp.float32)
            col = _float_tensor(name, "exp_avg_sq_col", given["exp_avg_sq_col"],
                                shape[:-2] + shape[-1:]).astype(jnp.float32)
            row = b2 * row + (1 - b2) * jnp.mean(g2, axis=-1)
            col = b2 * col + (1 - b2) * jnp.mean(g2, axis=-2)
            v = row[..., :, None] * col[..., None, :] / jnp.mean(row, axis=-1, keepdims=True)[..., None]
            _write_back(given["exp_avg_sq_row"], row)
            _write_back(given["exp_avg_sq_col"], col)
        else:
            sq = _float_tensor(name, "exp_avg_sq", given["exp_avg_sq"], shape).astype(jnp.float32)
            v = b2 * sq + (1 - b2) * g2
            _write_back(given["exp_avg_sq"], v)
        u = g / jnp.sqrt(v)
        u = u / jnp.maximum(1.0, jnp.sqrt(jnp.mean(u * u)) / clip)
        step = lr * jnp.maximum(eps[1], jnp.sqrt(jnp.mean(p * p))) if self.enable_scale_parameter else lr
        u = u * step
        if self.enable_first_moment:
            avg = _float_tensor(name, "exp_avg", given["exp_avg"], shape).astype(jnp.float32)
            u = b1 * avg + (1 - b1) * u
            _write_back(given["exp_avg"], u)
        if self.enable_weight_decay:
            p = p - wd * step * p
        return _write_back(given["param"], p - u)


class FusedAdaFactorWithGlobalNorm(FusedAdaFactor):
    """:class:`FusedAdaFactor` with the gradient divided by ``global_norm`` first (when it exceeds 1).

    Call: as ``FusedAdaFactor`` with a trailing ``global_norm`` input.
    """

    _inputs = FusedAdaFactor._inputs + ("global_norm",)
    _strategy_inputs = 13

    def __call__(self, *args: Any, **kwargs: Any) -> jax.Array:
        given = _bind_update(self, self._inputs, args, kwargs)
        return self._step(given, given["global_norm"])


class RmsNorm(Primitive):
    """Root-mean-square normalisation over ``gamma``'s trailing axes (``ops.rms_norm``).

    Arguments:
        epsilon: added to the mean square, in (0, 1]. Default: ``1e-06``.

    Call: ``RmsNorm(epsilon)(x, gamma)`` -> ``(y, rstd)``.
    """

    _strategy_inputs = 2

    def __init__(self, epsilon: float = 1e-06) -> None:
        super().__init__()
        epsilon = _float_attr(self.name, "epsilon", epsilon)
        if not 0 < epsilon <= 1:
            raise ValueError(f"For '{self.name}', 'epsilon' must be in (0, 1], but got {epsilon}.")
        record(self, epsilon=epsilon)

    def __call__(self, x: Any, gamma: Any) -> tuple[jax.Array, jax.Array]:
        try:
            return N.rms_norm(x, gamma, self.epsilon)
        except (TypeError, ValueError) as exc:
            raise type(exc)(str(exc).replace("For 'rms_norm'", f"For '{self.name}'", 1)) from None


class ComputeAccidentalHits(Primitive):
    """Where sampled classes equal target classes (deprecated in MindSpore 2.8).

    Arguments:
        num_true: the target classes per example. Default: ``1``.

    Call: ``ComputeAccidentalHits(num_true)(true_classes, sampled_candidates)`` -> ``(indices, ids, weights)``:
    for each ``true_classes[i, k] == sampled_candidates[j]``, in row-major order of ``(i, k)``, the row ``i``
    (int32), the position ``j`` (the candidates' dtype) and ``-FLOAT_MAX`` (float32). The number of hits
    depends on the values, so this op runs eagerly (not under ``jit``).
    """

    _strategy_inputs = 2

    def __init__(self, num_true: int = 1) -> None:
        super().__init__()
        record(self, num_true=check_int(self.name, "num_true", num_true))

    def __call__(self, true_classes: Any, sampled_candidates: Any) -> tuple[jax.Array, jax.Array, jax.Array]:
        name = self.name
        true, cand = as_array(true_classes), as_array(sampled_candidates)
        for arg, a in (("true_classes", true), ("sampled_candidates", cand)):
            if a.dtype not in (jnp.int32, jnp.int64):
                raise TypeError(f"For '{name}', '{arg}' must be an int32 or int64 tensor, but got {a.dtype}.")
        if true.ndim != 2 or true.shape[1] != self.num_true:
            raise ValueError(f"For '{name}', 'true_classes' must have shape (batch_size, num_true={self.num_true}), "
                             f"but got {true.shape}.")
        if cand.ndim != 1:
            raise ValueError(f"For '{name}', 'sampled_candidates' must be 1-D, but got shape {cand.shape}.")
        try:
            hits = np.argwhere(np.asarray(true)[:, :, None] == np.asarray(cand)[None, None, :])
        except jax.errors.TracerArrayConversionError:
            raise TypeError(f"For '{name}', the number of hits depends on the input values: call it eagerly, "
                            f"not under jit.") from None
        weights = np.full((hits.shape[0],), -np.finfo(np.float32).max, np.float32)
        return (jnp.asarray(hits[:, 0].astype(np.int32)), jnp.asarray(hits[:, 2].astype(np.asarray(cand).dtype)),
                jnp.asarray(weights))


class NoRepeatNGram(Primitive):
    """Beam search's n-gram blocking: a word that would repeat an n-gram already in the sequence gets
    ``log_probs = -FLOAT_MAX`` (deprecated in MindSpore 2.8).

    Arguments:
        ngram_size: the n-gram's length, positive. Default: ``1``.

    Call: ``NoRepeatNGram(ngram_size)(state_seq, log_probs)``: ``state_seq`` int ``(batch, beam, m)`` with
    ``m >= ngram_size``, ``log_probs`` float ``(batch, beam, vocab)`` -> the new ``log_probs``.
    """

    _strategy_inputs = 2

    def __init__(self, ngram_size: int = 1) -> None:
        super().__init__()
        ngram_size = check_int(self.name, "ngram_size", ngram_size)
        if ngram_size <= 0:
            raise ValueError(f"For '{self.name}', 'ngram_size' must be a positive int, but got {ngram_size}.")
        record(self, ngram_size=ngram_size)

    def __call__(self, state_seq: Any, log_probs: Any) -> jax.Array:
        name, n = self.name, self.ngram_size
        seq, probs = as_array(state_seq), as_array(log_probs)
        if not jnp.issubdtype(seq.dtype, jnp.integer):
            raise TypeError(f"For '{name}', 'state_seq' must be an int tensor, but got {seq.dtype}.")
        if not jnp.issubdtype(probs.dtype, jnp.floating):
            raise TypeError(f"For '{name}', 'log_probs' must be a float tensor, but got {probs.dtype}.")
        if seq.ndim != 3 or probs.ndim != 3 or seq.shape[:2] != probs.shape[:2]:
            raise ValueError(f"For '{name}', 'state_seq' (batch, beam, m) and 'log_probs' (batch, beam, vocab) must "
                             f"be 3-D with the same batch and beam, but got {seq.shape} and {probs.shape}.")
        m = seq.shape[-1]
        if n > m:
            raise ValueError(f"For '{name}', 'ngram_size' ({n}) must be at most the sequence length {m}.")
        starts = jnp.arange(m - n + 1)
        windows = seq[..., starts[:, None] + jnp.arange(n)[None, :]]  # (batch, beam, count, n)
        prefix = seq[..., m - n + 1:]  # the last n - 1 words
        match = jnp.all(windows[..., :n - 1] == prefix[..., None, :], axis=-1)
        banned = jnp.any(match[..., None] & (windows[..., n - 1, None] == jnp.arange(probs.shape[-1])), axis=-2)
        return jnp.where(banned, jnp.asarray(-jnp.finfo(probs.dtype).max, probs.dtype), probs)


class DeformableOffsets(Primitive):
    """The deformed samples of deformable convolution v2, laid out for a ``kh x kw``-strided convolution
    (``ops.deformable_conv2d`` = this, then ``Conv2D`` with ``stride = kernel_size``).

    Arguments:
        strides: 4 ints, NCHW order (N and C 1). pads: (top, bottom, left, right). ksize: (kh, kw).
        dilations: 4 ints. Default: ``(1, 1, 1, 1)``. data_format: ``'NCHW'`` (MindSpore also accepts
        ``'NHWC'``; only NCHW is implemented). deformable_groups: Default: ``1``. modulated: must be ``True``.

    Call: ``DeformableOffsets(strides, pads, ksize)(x, offsets)`` -> (N, C, H_out * kh, W_out * kw).
    """

    _strategy_inputs = 2

    def __init__(self, strides: Any, pads: Any, ksize: Any, dilations: Any = (1, 1, 1, 1), data_format: str = "NCHW",
                 deformable_groups: int = 1, modulated: bool = True) -> None:
        super().__init__()
        if data_format != "NCHW":
            raise ValueError(f"For '{self.name}', 'data_format' must be 'NCHW' here, but got {data_format!r}.")
        try:
            args = N._check_conv_args(self.name, ksize, strides, pads, dilations, deformable_groups, modulated)
        except ValueError as exc:
            raise ValueError(str(exc).replace("'padding'", "'pads'").replace("'kernel_size'", "'ksize'")) from None
        except TypeError as exc:
            raise TypeError(str(exc).replace("'padding'", "'pads'").replace("'kernel_size'", "'ksize'")) from None
        record(self, strides=args[1], pads=args[2], ksize=args[0], dilations=args[3], data_format=data_format,
               deformable_groups=args[4], modulated=modulated)

    def __call__(self, x: Any, offsets: Any) -> jax.Array:
        s = N._deformable_sample(self.name, x, offsets, self.ksize, self.strides, self.pads, self.dilations,
                                 self.deformable_groups)
        n, c, ho, wo, kh, kw = s.shape
        return jnp.transpose(s, (0, 1, 2, 4, 3, 5)).reshape(n, c, ho * kh, wo * kw)


class RNNTLoss(Primitive):
    """The RNN transducer loss and its gradient with respect to the logits (MindSpore runs it on Ascend).

    Arguments:
        blank_label: the blank class. Default: ``0``.

    Call: ``RNNTLoss(blank_label)(acts, labels, input_lengths, label_lengths)``: ``acts`` float (B, T, U, V)
    logits, ``labels`` int32 (B, U - 1), the lengths int32 (B,) -> ``(costs, grads)``, (B,) and ``acts``' shape.
    """

    _strategy_inputs = 4

    def __init__(self, blank_label: int = 0) -> None:
        super().__init__()
        record(self, blank_label=check_int(self.name, "blank_label", blank_label))

    def __call__(self, acts: Any, labels: Any, input_lengths: Any, label_lengths: Any) -> tuple[jax.Array, jax.Array]:
        return N.rnnt_loss_with_grads(acts, labels, input_lengths, label_lengths, self.blank_label, op=self.name)


class FractionalMaxPool3DWithFixedKsize(Primitive):
    """Fractional max pooling of 5-D input with a fixed window, at given random offsets.

    Arguments:
        ksize: an int or ``(kD, kH, kW)``.
        output_shape: an int or ``(oD, oH, oW)``.
        data_format: ``'NCDHW'`` (default) or ``'NDHWC'``.

    Call: ``FractionalMaxPool3DWithFixedKsize(ksize, output_shape)(x, random_samples)`` with ``random_samples``
    ``(N, C, 3)`` offsets in ``[0, 1)`` -> ``(y, argmax)``, ``argmax`` the int64 flat ``D * H * W`` index.
    """

    _strategy_inputs = 2

    def __init__(self, ksize: Any, output_shape: Any, data_format: str = "NCDHW") -> None:
        super().__init__()
        self.init_prim_io_names(inputs=["x", "random_samples"], outputs=["y", "argmax"])
        if data_format not in ("NCDHW", "NDHWC"):
            raise ValueError(f"For '{self.name}', 'data_format' must be 'NCDHW' or 'NDHWC', but got {data_format!r}.")
        record(self, ksize=ksize, output_shape=output_shape, data_format=data_format)

    def __call__(self, x: Any, random_samples: Any) -> tuple[jax.Array, jax.Array]:
        if random_samples is None:
            raise ValueError(f"For '{self.name}', 'random_samples' must be a Tensor of shape (N, C, 3).")
        arr = as_array(x)
        channels_last = self.data_format == "NDHWC"
        if channels_last:
            arr = jnp.moveaxis(arr, -1, 1)
        y, argmax = N.fractional_max_pool3d(arr, self.ksize, self.output_shape, None, True, random_samples)
        if channels_last:
            y, argmax = jnp.moveaxis(y, 1, -1), jnp.moveaxis(argmax, 1, -1)
        return y, argmax


# --- data-format index maps ----------------------------------------------------------------------------

def _format_pair(prim: Primitive, src_format: Any, dst_format: Any) -> None:
    for arg, value in (("src_format", src_format), ("dst_format", dst_format)):
        if value not in ("NHWC", "NCHW"):
            raise ValueError(f"For '{prim.name}', the '{arg}' must be str and must be in '['NHWC', 'NCHW']', "
                             f"but got {value!r}.")
    record(prim, src_format=src_format, dst_format=dst_format)


def _int_tensor(prim: str, name: str, x: Any) -> jax.Array:
    arr = as_array(x)
    if arr.dtype not in (jnp.int32, jnp.int64):
        raise TypeError(f"For '{prim}', the '{name}' must be an int32 or int64 Tensor, but got {arr.dtype}.")
    return arr


class DataFormatDimMap(Primitive):
    """Map axis numbers (taken modulo 4) between the ``'NHWC'`` and ``'NCHW'`` layouts.
    Call: ``DataFormatDimMap(src_format='NHWC', dst_format='NCHW')(input_x)`` with an int32/int64 Tensor."""

    def __init__(self, src_format: str = "NHWC", dst_format: str = "NCHW") -> None:
        super().__init__()
        _format_pair(self, src_format, dst_format)
        self.init_prim_io_names(inputs=["input_x"], outputs=["output"])

    def __call__(self, input_x: Any) -> jax.Array:
        x = _int_tensor(self.name, "input_x", input_x)
        table = jnp.asarray([self.src_format.index(c) for c in self.dst_format], x.dtype)
        return table[jnp.mod(x, 4)]


class DataFormatVecPermute(Primitive):
    """Permute a 4-vector (or the rows of a ``(4, 2)`` array) from ``src_format`` to ``dst_format`` order.
    Call: ``DataFormatVecPermute(src_format='NHWC', dst_format='NCHW')(input_x)`` with int32/int64 input."""

    def __init__(self, src_format: str = "NHWC", dst_format: str = "NCHW") -> None:
        super().__init__()
        _format_pair(self, src_format, dst_format)
        self.init_prim_io_names(inputs=["input_x"], outputs=["output"])

    def __call__(self, input_x: Any) -> jax.Array:
        x = _int_tensor(self.name, "input_x", input_x)
        if x.shape not in ((4,), (4, 2)):
            raise ValueError(f"For '{self.name}', 'input_x' must be of shape (4,) or (4, 2), but got "
                             f"{tuple(x.shape)}.")
        return x[jnp.asarray([self.src_format.index(c) for c in self.dst_format])]


# --- morphological dilation ----------------------------------------------------------------------------

def _four(prim: str, name: str, value: Any, data_format: str) -> tuple[int, int]:
    if isinstance(value, int) and not isinstance(value, bool):
        pair = (value, value)
    elif isinstance(value, tuple) and len(value) == 2:
        pair = value
    elif isinstance(value, tuple) and len(value) == 4:
        outer = (value[0], value[3]) if data_format == "NHWC" else (value[0], value[1])
        if outer != (1, 1):
            raise ValueError(f"For '{prim}', '{name}' must be (1, 1, {name}_height, {name}_width) for "
                             f"'{data_format}' (the batch and channel entries 1), but got {value}.")
        pair = (value[1], value[2]) if data_format == "NHWC" else (value[2], value[3])
    else:
        raise ValueError(f"For '{prim}', '{name}' must be a positive int or a tuple of two or four positive "
                         f"ints, but got {value!r}.")
    if not all(isinstance(v, int) and not isinstance(v, bool) and v > 0 for v in pair):
        raise ValueError(f"For '{prim}', '{name}' must hold positive ints, but got {value!r}.")
    return int(pair[0]), int(pair[1])


class Dilation2D(Primitive):
    """Grayscale morphological dilation:
    ``y[n, c, h, w] = max_{i, j} x[n, c, h*sH + i*dH, w*sW + j*dW] + filter[c, i, j]``.

    Arguments:
        stride: an int, ``(sH, sW)`` or a 4-tuple in ``data_format`` order.
        dilation: likewise, the filter's dilation.
        pad_mode: ``'SAME'`` (padding with -inf) or ``'VALID'``. Default: ``'SAME'``.
        data_format: only ``'NCHW'``.

    Call: ``Dilation2D(stride, dilation)(x, filter)`` with ``x`` ``(N, C, H, W)`` and ``filter`` ``(C, kH, kW)``.
    """

    _strategy_inputs = 2

    def __init__(self, stride: Any, dilation: Any, pad_mode: str = "SAME", data_format: str = "NCHW") -> None:
        super().__init__()
        self.init_prim_io_names(inputs=["x", "filter"], outputs=["y"])
        if data_format != "NCHW":
            raise ValueError(f"For '{self.name}', 'data_format' must be 'NCHW', but got {data_format!r}.")
        if not isinstance(pad_mode, str) or pad_mode.upper() not in ("SAME", "VALID"):
            raise ValueError(f"For '{self.name}', 'pad_mode' must be 'SAME' or 'VALID', but got {pad_mode!r}.")
        record(self, stride=_four(self.name, "stride", stride, data_format),
               dilation=_four(self.name, "dilation", dilation, data_format), pad_mode=pad_mode.upper(),
               data_format=data_format)

    def __call__(self, x: Any, filter: Any) -> jax.Array:  # noqa: A002 - MindSpore's name
        a, f = as_array(x), as_array(filter)
        if a.ndim != 4 or f.ndim != 3 or f.shape[0] != a.shape[1]:
            raise ValueError(f"For '{self.name}', 'x' must be (N, C, H, W) and 'filter' (C, kH, kW) with the same "
                             f"C, but got {tuple(a.shape)} and {tuple(f.shape)}.")
        (sh, sw), (dh, dw) = self.stride, self.dilation
        kh, kw = (f.shape[1] - 1) * dh + 1, (f.shape[2] - 1) * dw + 1
        h, w = a.shape[2], a.shape[3]
        if self.pad_mode == "VALID":
            if kh > h or kw > w:
                raise ValueError(f"For '{self.name}', the dilated filter ({kh}, {kw}) must fit in the input "
                                 f"({h}, {w}) with pad_mode 'VALID'.")
            oh, ow, pads = (h - kh) // sh + 1, (w - kw) // sw + 1, ((0, 0), (0, 0))
        else:
            oh, ow = -(-h // sh), -(-w // sw)
            ph, pw = max((oh - 1) * sh + kh - h, 0), max((ow - 1) * sw + kw - w, 0)
            pads = ((ph // 2, ph - ph // 2), (pw // 2, pw - pw // 2))
        padded = jnp.pad(a, ((0, 0), (0, 0)) + pads, constant_values=-jnp.inf)
        out = None
        for i in range(f.shape[1]):
            for j in range(f.shape[2]):
                window = padded[:, :, i * dh:i * dh + (oh - 1) * sh + 1:sh, j * dw:j * dw + (ow - 1) * sw + 1:sw]
                term = window + f[None, :, i, j, None, None]
                out = term if out is None else jnp.maximum(out, term)
        return out.astype(a.dtype)


# --- volume patches ------------------------------------------------------------------------------------

def _three(prim: str, name: str, value: Any) -> tuple[int, int, int]:
    if isinstance(value, int) and not isinstance(value, bool):
        value = (value,) * 3
    value = tuple(value) if isinstance(value, (list, tuple)) else value
    if isinstance(value, tuple) and len(value) == 5:
        if value[:2] != (1, 1):
            raise ValueError(f"For '{prim}', '{name}' must start with (1, 1) when it has 5 entries, but got {value}.")
        value = value[2:]
    if not isinstance(value, tuple) or len(value) != 3 or not all(
            isinstance(v, int) and not isinstance(v, bool) and v > 0 for v in value):
        raise ValueError(f"For '{prim}', '{name}' must be a positive int or a tuple of 3 (or 5) positive ints, "
                         f"but got {value!r}.")
    return value


class ExtractVolumePatches(Primitive):
    """Patches of a ``(N, C, D, H, W)`` volume, stacked on the channel axis.

    Arguments:
        kernel_size: an int, 3 ints or 5 ints ``(1, 1, kD, kH, kW)``.
        strides: likewise.
        padding: ``'VALID'`` or ``'SAME'``.

    Call: ``ExtractVolumePatches(kernel_size, strides, padding)(input_x)`` -> ``(N, C*kD*kH*kW, D', H', W')``,
    the channel axis ordered ``(kD, kH, kW, C)``.
    """

    def __init__(self, kernel_size: Any, strides: Any, padding: str) -> None:
        super().__init__()
        kernel, stride = _three(self.name, "kernel_size", kernel_size), _three(self.name, "strides", strides)
        if not isinstance(padding, str) or padding.upper() not in ("VALID", "SAME"):
            raise ValueError(f"For '{self.name}', 'padding' must be 'VALID' or 'SAME', but got {padding!r}.")
        record(self, kernel_size=(1, 1) + kernel, strides=(1, 1) + stride, padding=padding.upper())

    def __call__(self, input_x: Any) -> jax.Array:
        x = as_array(input_x)
        if x.ndim != 5:
            raise ValueError(f"For '{self.name}', 'input_x' must be 5-D (N, C, D, H, W), but got shape "
                             f"{tuple(x.shape)}.")
        kernel = self.kernel_size[2:]
        if self.padding == "SAME":
            for axis, (size, k, s) in enumerate(zip(x.shape[2:], kernel, self.strides[2:])):
                pad = ((size + s - 1) // s - 1) * s + k - size
                if pad < 0:
                    raise ValueError(f"For '{self.name}', the 'SAME' padding of axis {axis + 2} (input {size}, "
                                     f"kernel {k}, stride {s}) must be >= 0, but got {pad}: the kernel must not be "
                                     f"smaller than the stride where the stride does not divide the input.")
        patches = jax.lax.conv_general_dilated_patches(
            x, kernel, self.strides[2:], self.padding,
            dimension_numbers=("NCDHW", "OIDHW", "NCDHW"), precision=jax.lax.Precision.HIGHEST)
        # XLA orders the patch channels (C, kD, kH, kW); MindSpore's (kD, kH, kW, C).
        n, c, out = x.shape[0], x.shape[1], patches.shape[2:]
        ordered = patches.reshape((n, c) + kernel + out).transpose((0, 2, 3, 4, 1, 5, 6, 7))
        return ordered.reshape(patches.shape).astype(x.dtype)


# --- dropout as two ops: a bit mask, then its application -----------------------------------------------

def _keep_prob(prim: str, keep_prob: Any) -> jax.Array:
    p = jnp.asarray(as_array(keep_prob))
    if p.size != 1 or not jnp.issubdtype(p.dtype, jnp.floating):
        raise TypeError(f"For '{prim}', 'keep_prob' must be a float scalar Tensor, but got {p.dtype} of shape "
                        f"{tuple(p.shape)}.")
    if not isinstance(p, jax.core.Tracer) and not 0 < float(p.reshape(())) <= 1:
        raise ValueError(f"For '{prim}', 'keep_prob' must be in (0, 1], but got {float(p.reshape(()))}.")
    return p.reshape(())


class DropoutGenMask(Primitive):
    """A random keep mask as bits: bit ``i`` (little-endian in each byte) keeps element ``i`` with probability
    ``keep_prob``. The mask has ``ceil(prod(shape) / 128) * 16`` uint8 bytes, as MindSpore's.

    Arguments:
        Seed0, Seed1: mixed into the global key when non-zero (as ``Dropout``).

    Call: ``DropoutGenMask(Seed0, Seed1)(shape, keep_prob)`` -> a 1-D uint8 Tensor for ``DropoutDoMask``.
    """

    def __init__(self, Seed0: int = 0, Seed1: int = 0) -> None:  # noqa: N803 - MindSpore's names
        super().__init__()
        self.init_prim_io_names(inputs=["shape", "keep_prob"], outputs=["output"])
        record(self, Seed0=check_int(self.name, "Seed0", Seed0), Seed1=check_int(self.name, "Seed1", Seed1))
        self.add_prim_attr("side_effect_hidden", True)

    def __call__(self, shape: Any, keep_prob: Any) -> jax.Array:
        if not isinstance(shape, tuple) or not all(isinstance(d, int) and not isinstance(d, bool) and d > 0
                                                   for d in shape):
            raise TypeError(f"For '{self.name}', 'shape' must be a tuple of positive ints, but got {shape!r}.")
        p = _keep_prob(self.name, keep_prob)
        count = int(np.prod(shape))
        bits = -(-count // 128) * 128
        seed = self.Seed0 * 1000003 + self.Seed1 if (self.Seed0 or self.Seed1) else None
        keep = jax.random.uniform(F._key(seed), (bits,)) < p
        return jnp.packbits(keep, bitorder="little")


class DropoutDoMask(Primitive):
    """Apply a ``DropoutGenMask`` bit mask: kept elements scaled by ``1 / keep_prob``, the rest zero.
    Call: ``DropoutDoMask()(input_x, mask, keep_prob)``."""

    _strategy_inputs = 3

    def __init__(self) -> None:
        super().__init__()

    def __call__(self, input_x: Any, mask: Any, keep_prob: Any) -> jax.Array:
        x, m = as_array(input_x), as_array(mask)
        if m.dtype != jnp.uint8 or m.ndim != 1:
            raise TypeError(f"For '{self.name}', 'mask' must be a 1-D uint8 Tensor (DropoutGenMask's), but got "
                            f"{m.dtype} of shape {tuple(m.shape)}.")
        if m.size * 8 < x.size:
            raise ValueError(f"For '{self.name}', 'mask' holds {m.size * 8} bits, fewer than the {x.size} elements "
                             f"of 'input_x'.")
        p = _keep_prob(self.name, keep_prob)
        keep = jnp.unpackbits(m, bitorder="little")[:x.size].reshape(x.shape).astype(x.dtype)
        return (x * keep / p.astype(x.dtype)).astype(x.dtype)


# --- fractional pooling with pooling sequences (FractionalMaxPool, FractionalAvgPool) ---------------------

def _pooling_sequence(key: Any, size: int, out: int, ratio: float, pseudo_random: bool) -> jax.Array:
    """The ``out + 1`` window boundaries over ``size`` rows: 0, increasing, ending at ``size``."""
    if pseudo_random:
        # Boundaries ceil(ratio * (i + u)) - ceil(ratio * u), u drawn so that every window is non-empty.
        u_max = min((size + 1) / ratio - out, (size + 1 + ratio) / ratio - (out + 1))
        u = jax.random.uniform(key, ()) * u_max
        inner = jnp.ceil(ratio * (jnp.arange(1, out) + u)) - jnp.ceil(ratio * u)
        return jnp.concatenate([jnp.zeros(1), inner, jnp.full(1, size)]).astype(jnp.int64)
    # Windows of size // out, size - (size // out) * out of them one longer, in random order.
    base, longer = size // out, size - (size // out) * out
    steps = base + (jax.random.permutation(key, out) < longer)
    return jnp.concatenate([jnp.zeros(1, steps.dtype), jnp.cumsum(steps)]).astype(jnp.int64)


def _window_masks(seq: jax.Array, size: int, overlapping: bool) -> jax.Array:
    """``(out, size)`` bool: row ``h`` is in window ``i`` (its end row too when overlapping)."""
    h = jnp.arange(size)[None, :]
    start, end = seq[:-1, None], seq[1:, None]
    inside = (h >= start) & (h < end)
    return inside | ((h == end) & (end < size)) if overlapping else inside


class _FractionalPool(Primitive):
    """Fractional pooling of NHWC input over randomly sized windows (MindSpore's TF-style ops)."""

    _reduce = "max"

    def __init__(self, pooling_ratio: Any, pseudo_random: bool = False, overlapping: bool = False,
                 deterministic: bool = False, seed: int = 0, seed2: int = 0) -> None:
        super().__init__()
        self.init_prim_io_names(inputs=["x"], outputs=["y", "row_pooling_sequence", "col_pooling_sequence"])
        if not isinstance(pooling_ratio, (list, tuple)) or len(pooling_ratio) != 4 or not all(
                isinstance(r, (int, float)) and not isinstance(r, bool) for r in pooling_ratio):
            raise TypeError(f"For '{self.name}', 'pooling_ratio' must be a list or tuple of 4 floats, but got "
                            f"{pooling_ratio!r}.")
        if pooling_ratio[0] != 1.0 or pooling_ratio[3] != 1.0:
            raise ValueError(f"For '{self.name}', the first and last elements of 'pooling_ratio' must be 1.0, but "
                             f"got {tuple(pooling_ratio)}.")
        if pooling_ratio[1] < 1.0 or pooling_ratio[2] < 1.0:
            raise ValueError(f"For '{self.name}', the second and third elements of 'pooling_ratio' must be >= 1.0, "
                             f"but got {tuple(pooling_ratio)}.")
        for arg, value in (("pseudo_random", pseudo_random), ("overlapping", overlapping),
                           ("deterministic", deterministic)):
            check_bool(self.name, arg, value)
        seed, seed2 = check_int(self.name, "seed", seed), check_int(self.name, "seed2", seed2)
        if not deterministic and (seed or seed2):
            raise ValueError(f"For '{self.name}', both 'seed' and 'seed2' must be 0 if 'deterministic' is false, "
                             f"but got seed={seed}, seed2={seed2}.")
        record(self, pooling_ratio=tuple(float(r) for r in pooling_ratio), pseudo_random=pseudo_random,
               overlapping=overlapping, deterministic=deterministic, seed=seed, seed2=seed2)

    def __call__(self, x: Any) -> tuple[jax.Array, jax.Array, jax.Array]:
        a = as_array(x)
        if a.ndim != 4:
            raise ValueError(f"For '{self.name}', 'x' must be 4-D (N, H, W, C), but got shape {tuple(a.shape)}.")
        if a.dtype not in (jnp.float32, jnp.float64, jnp.int32, jnp.int64):
            raise TypeError(f"For '{self.name}', 'x' must be float32, float64, int32 or int64, but got {a.dtype}.")
        h, w = a.shape[1], a.shape[2]
        oh, ow = int(h // self.pooling_ratio[1]), int(w // self.pooling_ratio[2])
        if oh < 1 or ow < 1:
            raise ValueError(f"For '{self.name}', the output would be empty: input (H, W) = ({h}, {w}) with ratios "
                             f"{self.pooling_ratio[1:3]}.")
        key = (jax.random.PRNGKey(self.seed * 1000003 + self.seed2) if self.deterministic else F._key(None))
        row_key, col_key = jax.random.split(key)
        rows = _pooling_sequence(row_key, h, oh, self.pooling_ratio[1], self.pseudo_random)
        cols = _pooling_sequence(col_key, w, ow, self.pooling_ratio[2], self.pseudo_random)
        rmask, cmask = _window_masks(rows, h, self.overlapping), _window_masks(cols, w, self.overlapping)
        if self._reduce == "max":
            low = jnp.array(-jnp.inf if jnp.issubdtype(a.dtype, jnp.floating) else jnp.iinfo(a.dtype).min, a.dtype)
            by_rows = jnp.where(rmask[None, :, :, None, None], a[:, None], low).max(axis=2)
            y = jnp.where(cmask[None, None, :, :, None], by_rows[:, :, None], low).max(axis=3)
        else:
            sums = jnp.einsum("ih,nhwc,jw->nijc", rmask.astype(jnp.float32), a.astype(jnp.float32),
                              cmask.astype(jnp.float32), precision=jax.lax.Precision.HIGHEST)
            counts = rmask.sum(axis=1)[:, None] * cmask.sum(axis=1)[None, :]
            y = sums / counts[None, :, :, None]
            y = y.astype(a.dtype) if jnp.issubdtype(a.dtype, jnp.floating) else jnp.floor(y).astype(a.dtype)
        return y, rows, cols


class FractionalMaxPool(_FractionalPool):
    """Fractional max pooling of ``(N, H, W, C)`` input over windows of random sizes.

    Arguments:
        pooling_ratio: ``[1.0, ratio_h, ratio_w, 1.0]``, the middle two >= 1.
        pseudo_random: pseudo-random (True) or random (False) window boundaries. Default: ``False``.
        overlapping: each window also takes the next boundary's row and column. Default: ``False``.
        deterministic: draw from ``seed``/``seed2`` (the same windows each call) instead of the global key.
        seed, seed2: the seeds; both must be 0 unless ``deterministic``.

    Call: ``FractionalMaxPool(pooling_ratio)(x)`` -> ``(y, row_pooling_sequence, col_pooling_sequence)``, ``y``
    of shape ``(N, H // ratio_h, W // ratio_w, C)`` and the int64 window boundaries.
    """

    _reduce = "max"


class FractionalAvgPool(_FractionalPool):
    """Fractional average pooling; arguments, call and outputs as :class:`FractionalMaxPool`."""

    _reduce = "mean"
