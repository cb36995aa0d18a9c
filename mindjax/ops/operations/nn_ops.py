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
from mindjax.common.tensor import as_array
from mindjax.ops import functional as F
from mindjax.ops.function import nn_func as N
from mindjax.ops.operations._base import Primitive, check_bool, check_int, op_primitive, record
# Existing Primitives of this family, re-exported under MindSpore's module path.
from mindjax.ops.primitives import (  # noqa: F401
    AvgPool, BatchNorm, BiasAdd, Conv2D, Dropout, Flatten, GeLU, L2Normalize, LayerNorm, LogSoftmax, MaxPool, OneHot,
    ReLU, ReLU6, Sigmoid, Softmax, SoftmaxCrossEntropyWithLogits, SparseSoftmaxCrossEntropyWithLogits, Tanh,
)
from mindjax.ops.primitives_extra import FastGeLU  # noqa: F401

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
            src = jnp.maximum(src, 0.0)
            lo = jnp.clip(jnp.floor(src), 0, n - 1).astype(jnp.int32)
            hi = jnp.minimum(lo + 1, n - 1)
            frac = (src - lo).astype(y.dtype)
            shape = [1] * y.ndim
            shape[axis] = out
            frac = frac.reshape(shape)
            y = jnp.take(y, lo, axis=axis) * (1 - frac) + jnp.take(y, hi, axis=axis) * frac
    return y.astype(a.dtype) if mode == "nearest" else y


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
