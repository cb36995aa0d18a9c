"""Convolution layers with MindSpore 2.10's arguments, weight layouts and padding rules.

Weights keep MindSpore's shapes so checkpoints load unchanged:
``Conv2d``: ``(out, in // group, kh, kw)``; ``Conv1d``: ``(out, in // group, 1, k)``
(MindSpore runs 1-D convolutions as 2-D ones); the transposed layers:
``(in, out // group, kh, kw)`` and ``(in, out // group, 1, k)``.

``pad_mode='same'`` is TensorFlow's SAME: the output has ``ceil(in / stride)``
positions and the padding this needs, ``max((out - 1) * stride + dilated_kernel - in, 0)``,
is split with the odd element at the end (bottom/right).

Example:
    >>> import mindjax as ms
    >>> from mindjax import nn, ops
    >>> conv = nn.Conv2d(3, 8, 3, stride=2)
    >>> conv(ops.ones((1, 3, 7, 7), ms.float32)).shape
    (1, 8, 4, 4)
"""
from __future__ import annotations

import math
from typing import Any, Sequence

import jax
import jax.numpy as jnp
import numpy as np

from mindjax.common.tensor import Tensor
from mindjax.cells.cell import Cell
from mindjax.cells.layers._inputs import float_input, nonempty_axes
from mindjax.cells.layers.basic import _is_int
from mindjax.cells.parameter import Parameter
from mindjax.common.dtype import to_jax_dtype
from mindjax.common.precision import run_as
from mindjax.common.tensor import as_array
from mindjax.common.initializer import HeUniform, Uniform, initializer
from mindjax.ops import primitives as _prim

__all__ = ["Conv1d", "Conv2d", "Conv3d", "Conv1dTranspose", "Conv2dTranspose", "Conv3dTranspose"]

_PAD_MODES = ("same", "valid", "pad")


# -- argument checking -------------------------------------------------------------
def _positive_int(value: Any, arg: str, cls_name: str) -> int:
    if not _is_int(value) or value <= 0:
        raise ValueError(f"For '{cls_name}', '{arg}' must be a positive int, got {value!r}")
    return int(value)


def _int_tuple(value: Any, n: int, arg: str, cls_name: str) -> tuple[int, ...]:
    """An int or an n-tuple of positive ints, as an n-tuple."""
    if _is_int(value):
        items: tuple[Any, ...] = (value,) * n
    elif isinstance(value, (tuple, list)) and len(value) == n:
        items = tuple(value)
    else:
        raise ValueError(f"For '{cls_name}', '{arg}' must be a positive int or a tuple of {n} "
                         f"positive ints, got {value!r}")
    for item in items:
        if not _is_int(item) or item <= 0:
            raise ValueError(f"For '{cls_name}', every item of '{arg}' must be a positive int, "
                             f"got {value!r}")
    return tuple(int(i) for i in items)


def _check_padding(pad_mode: Any, padding: Any, n_pads: int, cls_name: str) -> None:
    if not isinstance(pad_mode, str) or pad_mode not in _PAD_MODES:
        raise ValueError(f"For '{cls_name}', 'pad_mode' must be one of {list(_PAD_MODES)}, "
                         f"got {pad_mode!r}")
    if _is_int(padding):
        items: tuple[Any, ...] = (padding,)
    elif isinstance(padding, tuple):
        if len(padding) != n_pads:
            raise ValueError(f"For '{cls_name}', 'padding' must be an int or a tuple of {n_pads} "
                             f"ints, got {padding!r}")
        items = padding
    else:
        raise TypeError(f"For '{cls_name}', 'padding' must be an int or a tuple of ints, "
                        f"got {type(padding).__name__}")
    if any(not _is_int(p) or p < 0 for p in items):
        raise ValueError(f"For '{cls_name}', 'padding' must be non-negative, got {padding!r}")
    if pad_mode != "pad" and any(p != 0 for p in items):
        raise ValueError(f"For '{cls_name}', 'padding' must be 0 when 'pad_mode' is not 'pad', "
                         f"got padding={padding!r} with pad_mode={pad_mode!r}")


def _explicit_pads(padding: Any, n_spatial: int) -> list[tuple[int, int]]:
    """MindSpore's ``padding`` (an int, or (before, after) per spatial dim flattened) as pairs."""
    if _is_int(padding):
        return [(int(padding), int(padding))] * n_spatial
    flat = [int(p) for p in padding]
    return [(flat[2 * i], flat[2 * i + 1]) for i in range(n_spatial)]


def _same_pads(size: int, kernel: int, stride: int, dilation: int) -> tuple[int, int]:
    """TensorFlow SAME padding for one spatial dim: the odd element goes at the end."""
    out = -(-size // stride)
    total = max((out - 1) * stride + (kernel - 1) * dilation + 1 - size, 0)
    return total // 2, total - total // 2


def _default_inits(weight_init: Any, bias_init: Any, has_bias: bool,
                   shape: Sequence[int]) -> tuple[Any, Any]:
    """MindSpore's defaults: HeUniform(sqrt(5)) weights, U(-1/sqrt(fan_in), 1/sqrt(fan_in)) bias."""
    if weight_init is None:
        weight_init = HeUniform(math.sqrt(5))
    if has_bias and bias_init is None:
        fan_in = int(shape[1]) * int(np.prod(shape[2:]))
        bias_init = Uniform(1 / math.sqrt(fan_in)) if fan_in else "zeros"
    return weight_init, bias_init


def _match_dtypes(x: Any, w: Any) -> tuple[Any, Any]:
    dtype = jnp.result_type(x, w)
    return x.astype(dtype), w.astype(dtype)


class _Conv(Cell):
    """Shared set-up of every convolution: validation, weight and bias Parameters, repr."""

    def __init__(self, in_channels: int, out_channels: int, kernel_size: tuple[int, ...],
                 stride: tuple[int, ...], pad_mode: str, padding: Any, dilation: tuple[int, ...],
                 group: int, has_bias: bool, weight_init: Any, bias_init: Any, data_format: str,
                 transposed: bool, dtype: Any) -> None:
        super().__init__()
        name = type(self).__name__
        self.in_channels = _positive_int(in_channels, "in_channels", name)
        self.out_channels = _positive_int(out_channels, "out_channels", name)
        self.group = _positive_int(group, "group", name)
        if in_channels % group or out_channels % group:
            raise ValueError(f"For '{name}', 'in_channels' and 'out_channels' must be divisible by "
                             f"'group', got in_channels={in_channels}, out_channels={out_channels}, "
                             f"group={group}")
        if not isinstance(has_bias, bool):
            raise TypeError(f"For '{name}', 'has_bias' must be a bool, got {has_bias!r}")
        self.kernel_size = kernel_size
        self.stride = stride
        self.dilation = dilation
        self.pad_mode = pad_mode
        self.padding = padding
        self.data_format = data_format
        self.has_bias = has_bias
        channels_last = data_format == "NHWC"
        if transposed:
            shape = [in_channels, out_channels // group, *kernel_size]
        elif channels_last:
            shape = [out_channels, *kernel_size, in_channels // group]
        else:
            shape = [out_channels, in_channels // group, *kernel_size]
        self.weight_init, self.bias_init = _default_inits(weight_init, bias_init, has_bias, shape)
        dtype = to_jax_dtype(dtype)
        self.weight = Parameter(initializer(self.weight_init, shape, dtype), name="weight")
        self.bias = (Parameter(initializer(self.bias_init, [out_channels], dtype), name="bias")
                     if has_bias else None)

    def extend_repr(self) -> str:
        return (f"input_channels={self.in_channels}, output_channels={self.out_channels}, "
                f"kernel_size={self.kernel_size}, stride={self.stride}, pad_mode={self.pad_mode}, "
                f"padding={self.padding}, dilation={self.dilation}, group={self.group}, "
                f"has_bias={self.has_bias}, weight_init={self.weight_init}, "
                f"bias_init={self.bias_init}, format={self.data_format}")

    def _check_input(self, x: Any, layout: str) -> None:
        """Raise unless ``x`` is a float Tensor of rank ``len(layout)`` with ``in_channels`` at 'C'
        and no empty spatial dimension."""
        x = float_input(self._where(), "x", x)
        shape = tuple(x.shape)
        axis = layout.index("C")
        if len(shape) != len(layout) or shape[axis] != self.in_channels:
            expected = tuple(self.in_channels if c == "C" else c for c in layout)
            expected_text = "(" + ", ".join(str(e) for e in expected) + ")"
            raise ValueError(f"{self._where()}, expected input of shape {expected_text}, "
                             f"got {shape}")
        nonempty_axes(self._where(), "x", x, [i for i, c in enumerate(layout) if c not in "NC"])

    def _pads(self, spatial: Sequence[int], kernel: Sequence[int], stride: Sequence[int],
              dilation: Sequence[int], padding: Any) -> list[tuple[int, int]]:
        if self.pad_mode == "same":
            return [_same_pads(s, k, st, d) for s, k, st, d in zip(spatial, kernel, stride, dilation)]
        pads = [(0, 0)] * len(spatial) if self.pad_mode == "valid" else _explicit_pads(padding, len(spatial))
        windows = [d * (k - 1) + 1 for k, d in zip(kernel, dilation)]
        if any(s + lo + hi < w for s, (lo, hi), w in zip(spatial, pads, windows)):
            # XLA would return an empty output.
            raise ValueError(f"{self._where()}, the input's spatial size {tuple(spatial)} with padding "
                             f"{[tuple(p) for p in pads]} is smaller than the (dilated) kernel {tuple(windows)}")
        return pads

    def _add_bias(self, out: Any, channel_axis: int) -> Any:
        if self.bias is None:
            return out
        shape = [1] * out.ndim
        shape[channel_axis] = self.out_channels
        return run_as("BiasAdd", _bias_add, out, self.bias._value, shape)  # MindSpore's BiasAdd


def _bias_add(out: Any, bias: Any, shape: list[int]) -> Any:
    return out + jnp.reshape(bias, shape).astype(out.dtype)


def _conv(x: Any, w: Any, stride: Sequence[int], pads: Sequence[tuple[int, int]],
          dilation: Sequence[int], group: int, dims: tuple[str, str, str]) -> Any:
    # The Primitive MindSpore's layer calls: Conv2D for 1-D and 2-D, Conv3D for 3-D.
    prim = "Conv3D" if len(dims[0]) == 5 else "Conv2D"
    return run_as(prim, _conv_raw, x, w, stride, pads, dilation, group, dims)


def _conv_raw(x: Any, w: Any, stride: Sequence[int], pads: Sequence[tuple[int, int]],
              dilation: Sequence[int], group: int, dims: tuple[str, str, str]) -> Any:
    x, w = _match_dtypes(x, w)
    return jax.lax.conv_general_dilated(x, w, window_strides=tuple(stride), padding=list(pads),
                                        rhs_dilation=tuple(dilation), dimension_numbers=dims,
                                        feature_group_count=group)


class Conv2d(_Conv):
    """2-D convolution over ``(N, C_in, H, W)`` (MindSpore's ``nn.Conv2d``).

    Arguments:
        in_channels: channels of the input.
        out_channels: channels of the output.
        kernel_size: an int or ``(kh, kw)``.
        stride: an int or ``(sh, sw)``. Default 1.
        pad_mode: ``'same'`` (default; TF SAME), ``'valid'`` or ``'pad'``.
        padding: with ``pad_mode='pad'``: an int or ``(top, bottom, left, right)``.
        dilation: an int or ``(dh, dw)``. Default 1.
        group: the number of groups; ``in_channels`` and ``out_channels`` must divide by it.
        has_bias: add a bias. Default ``False``, as in MindSpore.
        weight_init: initializer of the weight (default ``HeUniform(sqrt(5))``).
        bias_init: initializer of the bias (default ``Uniform(1 / sqrt(fan_in))``).
        data_format: ``'NCHW'`` (default) or ``'NHWC'``.
        dtype: dtype of the Parameters. Default float32.

    Returns:
        ``(N, C_out, H_out, W_out)``: ``ceil(H / sh)`` for 'same',
        ``floor((H - dh * (kh - 1) - 1) / sh) + 1`` for 'valid' and, for 'pad',
        the same with ``H + top + bottom``.

    Raises:
        ValueError: a bad argument (named), or an input of the wrong rank or channel count.
    """

    def __init__(self, in_channels: int, out_channels: int, kernel_size: int | tuple[int, int],
                 stride: int | tuple[int, int] = 1, pad_mode: str = "same",
                 padding: int | tuple[int, int, int, int] = 0, dilation: int | tuple[int, int] = 1,
                 group: int = 1, has_bias: bool = False, weight_init: Any = None,
                 bias_init: Any = None, data_format: str = "NCHW", dtype: Any = jnp.float32) -> None:
        name = type(self).__name__
        if data_format not in ("NCHW", "NHWC"):
            raise ValueError(f"For '{name}', 'data_format' must be 'NCHW' or 'NHWC', got {data_format!r}")
        _check_padding(pad_mode, padding, 4, name)
        super().__init__(in_channels, out_channels, _int_tuple(kernel_size, 2, "kernel_size", name),
                         _int_tuple(stride, 2, "stride", name), pad_mode, padding,
                         _int_tuple(dilation, 2, "dilation", name), group, has_bias, weight_init,
                         bias_init, data_format, False, dtype)
        # MindSpore's Primitive attributes, which subclasses call.
        self.conv2d = _prim.Conv2D(out_channels, self.kernel_size, mode=1, pad_mode=pad_mode, pad=padding,
                                   stride=self.stride, dilation=self.dilation, group=group, data_format=data_format)
        self.bias_add = _prim.BiasAdd(data_format)

    def construct(self, x: Any) -> Any:
        nhwc = self.data_format == "NHWC"
        self._check_input(x, "NHWC" if nhwc else "NCHW")
        spatial = x.shape[1:3] if nhwc else x.shape[2:]
        pads = self._pads(spatial, self.kernel_size, self.stride, self.dilation, self.padding)
        dims = ("NHWC", "OHWI", "NHWC") if nhwc else ("NCHW", "OIHW", "NCHW")
        out = _conv(x, self.weight._value, self.stride, pads, self.dilation, self.group, dims)
        return self._add_bias(out, 3 if nhwc else 1)


class Conv1d(_Conv):
    """1-D convolution over ``(N, C_in, L)`` (MindSpore's ``nn.Conv1d``).

    The weight is ``(out, in // group, 1, kernel_size)``, MindSpore's layout.

    Arguments:
        in_channels, out_channels: channels of the input and output.
        kernel_size, stride, dilation: positive ints (stride and dilation default 1).
        pad_mode: ``'same'`` (default), ``'valid'`` or ``'pad'``.
        padding: with ``pad_mode='pad'``, zeros added at both ends.
        group, has_bias, weight_init, bias_init, dtype: as :class:`Conv2d`.

    Returns:
        ``(N, C_out, L_out)``.
    """

    def __init__(self, in_channels: int, out_channels: int, kernel_size: int, stride: int = 1,
                 pad_mode: str = "same", padding: int = 0, dilation: int = 1, group: int = 1,
                 has_bias: bool = False, weight_init: Any = None, bias_init: Any = None,
                 dtype: Any = jnp.float32) -> None:
        name = type(self).__name__
        for arg, value in (("kernel_size", kernel_size), ("stride", stride), ("dilation", dilation)):
            _positive_int(value, arg, name)
        if not _is_int(padding):
            raise TypeError(f"For '{name}', 'padding' must be an int, got {type(padding).__name__}")
        _check_padding(pad_mode, padding, 1, name)
        weight_init = _as_4d_init(weight_init, name)
        super().__init__(in_channels, out_channels, (1, kernel_size), (1, stride), pad_mode,
                         (0, 0, padding, padding), (1, dilation), group, has_bias, weight_init,
                         bias_init, "NCHW", False, dtype)

    def construct(self, x: Any) -> Any:
        self._check_input(x, "NCL")
        pads = self._pads(x.shape[2:], self.kernel_size[1:], self.stride[1:], self.dilation[1:],
                          self.padding[2:])
        w = self.weight._value[:, :, 0, :]
        out = _conv(x, w, self.stride[1:], pads, self.dilation[1:], self.group, ("NCH", "OIH", "NCH"))
        return self._add_bias(out, 1)


def _as_4d_init(weight_init: Any, cls_name: str) -> Any:
    """MindSpore accepts a 3-D Tensor as a 1-D layer's weight_init and stores it as 4-D."""
    is_tensor = isinstance(weight_init, (jax.Array, np.ndarray, Tensor))
    if is_tensor or getattr(weight_init, "_is_mindjax_variable", False):
        value = jnp.asarray(weight_init)
        if value.ndim != 3:
            raise ValueError(f"For '{cls_name}', a Tensor 'weight_init' must be 3-D, got shape "
                             f"{tuple(value.shape)}")
        return jnp.expand_dims(value, 2)
    return weight_init


class Conv3d(_Conv):
    """3-D convolution over ``(N, C_in, D, H, W)`` (MindSpore's ``nn.Conv3d``).

    Arguments:
        kernel_size, stride, dilation: an int or a 3-tuple.
        padding: with ``pad_mode='pad'``: an int or ``(head, tail, top, bottom, left, right)``.
        the rest: as :class:`Conv2d`; ``data_format`` is ``'NCDHW'``.

    Returns:
        ``(N, C_out, D_out, H_out, W_out)``.
    """

    def __init__(self, in_channels: int, out_channels: int, kernel_size: int | tuple[int, int, int],
                 stride: int | tuple[int, int, int] = 1, pad_mode: str = "same",
                 padding: int | tuple[int, ...] = 0, dilation: int | tuple[int, int, int] = 1,
                 group: int = 1, has_bias: bool = False, weight_init: Any = None,
                 bias_init: Any = None, data_format: str = "NCDHW", dtype: Any = jnp.float32) -> None:
        name = type(self).__name__
        if data_format != "NCDHW":
            raise ValueError(f"For '{name}', 'data_format' must be 'NCDHW', got {data_format!r}")
        _check_padding(pad_mode, padding, 6, name)
        super().__init__(in_channels, out_channels, _int_tuple(kernel_size, 3, "kernel_size", name),
                         _int_tuple(stride, 3, "stride", name), pad_mode, padding,
                         _int_tuple(dilation, 3, "dilation", name), group, has_bias, weight_init,
                         bias_init, data_format, False, dtype)

    def construct(self, x: Any) -> Any:
        self._check_input(x, "NCDHW")
        pads = self._pads(x.shape[2:], self.kernel_size, self.stride, self.dilation, self.padding)
        out = _conv(x, self.weight._value, self.stride, pads, self.dilation, self.group,
                    ("NCDHW", "OIDHW", "NCDHW"))
        return self._add_bias(out, 1)


# -- transposed convolutions ---------------------------------------------------------------
def _deconv_length(pad_mode: str, size: int, kernel: int, stride: int, dilation: int,
                   pad_total: int) -> int:
    """MindSpore's output length of a transposed convolution (``_deconv_output_length``)."""
    dilated = (kernel - 1) * dilation + 1
    if pad_mode == "valid":
        return size * stride + max(dilated - stride, 0)
    if pad_mode == "same":
        return size * stride
    return size * stride - pad_total + dilated - stride


def _conv_transpose(x: Any, w: Any, out_spatial: Sequence[int], kernel: Sequence[int],
                    stride: Sequence[int], dilation: Sequence[int],
                    forward_pads: Sequence[tuple[int, int]], group: int,
                    dims: tuple[str, str, str]) -> Any:
    """A transposed convolution, as MindSpore's Conv2DTranspose / Conv3DTranspose Primitive."""
    prim = "Conv3DTranspose" if len(dims[0]) == 5 else "Conv2DTranspose"
    return run_as(prim, _conv_transpose_raw, x, w, out_spatial, kernel, stride, dilation, forward_pads, group, dims)


def _conv_transpose_raw(x: Any, w: Any, out_spatial: Sequence[int], kernel: Sequence[int],
                        stride: Sequence[int], dilation: Sequence[int],
                        forward_pads: Sequence[tuple[int, int]], group: int,
                        dims: tuple[str, str, str]) -> Any:
    """The gradient of the forward convolution whose input has ``out_spatial`` positions.

    ``w`` is ``(in, out // group, *kernel)``: it is regrouped to the forward layout
    ``(out, in // group, *kernel)`` and flipped, and the input is dilated by the stride.
    """
    c_in, c_out_g = w.shape[0], w.shape[1]
    k = w.shape[2:]
    w = w.reshape((group, c_in // group, c_out_g) + k)
    w = jnp.swapaxes(w, 1, 2).reshape((group * c_out_g, c_in // group) + k)
    w = jnp.flip(w, axis=tuple(range(2, w.ndim)))
    pads = []
    for size_in, size_out, ker, st, dil, (lo, _) in zip(x.shape[2:], out_spatial, kernel, stride,
                                                          dilation, forward_pads):
        dilated = (ker - 1) * dil + 1
        pads.append((dilated - 1 - lo, size_out - (size_in - 1) * st - 1 + lo))
    x, w = _match_dtypes(x, w)
    return jax.lax.conv_general_dilated(x, w, window_strides=(1,) * len(kernel), padding=pads,
                                        lhs_dilation=tuple(stride), rhs_dilation=tuple(dilation),
                                        dimension_numbers=dims, feature_group_count=group)


class Conv2dTranspose(_Conv):
    """2-D transposed convolution (MindSpore's ``nn.Conv2dTranspose``).

    The weight is ``(in_channels, out_channels // group, kh, kw)``.

    Arguments:
        in_channels, out_channels, kernel_size, stride, dilation, group, has_bias,
        weight_init, bias_init, dtype: as :class:`Conv2d`.
        pad_mode: ``'same'`` (default), ``'valid'`` or ``'pad'``.
        padding: with ``pad_mode='pad'``: an int or ``(top, bottom, left, right)``.
        output_padding: zeros appended at the bottom/right of the output (after the
            bias, as MindSpore does); an int or ``(h, w)``, only with ``pad_mode='pad'``,
            each below ``max(stride, dilation)`` of its dim.

    Returns:
        ``(N, C_out, H_out, W_out)`` with, per spatial dim and ``k' = d * (k - 1) + 1``:
        'same': ``H * s``; 'valid': ``H * s + max(k' - s, 0)``;
        'pad': ``H * s - (top + bottom) + k' - s``; plus ``output_padding``.
    """

    def __init__(self, in_channels: int, out_channels: int, kernel_size: int | tuple[int, int],
                 stride: int | tuple[int, int] = 1, pad_mode: str = "same",
                 padding: int | tuple[int, int, int, int] = 0,
                 output_padding: int | tuple[int, int] = 0, dilation: int | tuple[int, int] = 1,
                 group: int = 1, has_bias: bool = False, weight_init: Any = None,
                 bias_init: Any = None, dtype: Any = jnp.float32) -> None:
        name = type(self).__name__
        _check_padding(pad_mode, padding, 4, name)
        kernel = _int_tuple(kernel_size, 2, "kernel_size", name)
        strides = _int_tuple(stride, 2, "stride", name)
        dilations = _int_tuple(dilation, 2, "dilation", name)
        out_pad = _check_output_padding(output_padding, pad_mode, strides, dilations, name)
        super().__init__(in_channels, out_channels, kernel, strides, pad_mode, padding, dilations,
                         group, has_bias, weight_init, bias_init, "NCHW", True, dtype)
        self.output_padding = output_padding
        self._out_pad = out_pad

    def construct(self, x: Any) -> Any:
        self._check_input(x, "NCHW")
        pad_pairs = _explicit_pads(self.padding, 2)
        out_spatial = [_deconv_length(self.pad_mode, s, k, st, d, lo + hi)
                       for s, k, st, d, (lo, hi) in zip(x.shape[2:], self.kernel_size, self.stride,
                                                        self.dilation, pad_pairs)]
        forward_pads = self._pads(out_spatial, self.kernel_size, self.stride, self.dilation,
                                  self.padding)
        out = _conv_transpose(x, self.weight._value, out_spatial, self.kernel_size, self.stride,
                              self.dilation, forward_pads, self.group, ("NCHW", "OIHW", "NCHW"))
        out = self._add_bias(out, 1)
        if any(self._out_pad):
            out = jnp.pad(out, ((0, 0), (0, 0), (0, self._out_pad[0]), (0, self._out_pad[1])))
        return out


def _check_output_padding(output_padding: Any, pad_mode: str, stride: tuple[int, int],
                          dilation: tuple[int, int], cls_name: str) -> tuple[int, int]:
    if _is_int(output_padding):
        pads = (int(output_padding),) * 2
    elif isinstance(output_padding, tuple) and len(output_padding) == 2 \
            and all(_is_int(p) for p in output_padding):
        pads = tuple(int(p) for p in output_padding)
    else:
        raise ValueError(f"For '{cls_name}', 'output_padding' must be an int or a tuple of 2 ints, "
                         f"got {output_padding!r}")
    for p, s, d in zip(pads, stride, dilation):
        if p < 0 or p >= max(s, d):
            raise ValueError(f"For '{cls_name}', 'output_padding' must be in [0, max(stride, "
                             f"dilation)) = [0, {max(s, d)}), got {output_padding!r}")
    if pad_mode != "pad" and any(pads):
        raise ValueError(f"For '{cls_name}', 'output_padding' must be 0 when 'pad_mode' is not "
                         f"'pad', got {output_padding!r} with pad_mode={pad_mode!r}")
    return pads  # type: ignore[return-value]


class Conv1dTranspose(_Conv):
    """1-D transposed convolution over ``(N, C_in, L)`` (MindSpore's ``nn.Conv1dTranspose``).

    The weight is ``(in_channels, out_channels // group, 1, kernel_size)``.

    Arguments:
        as :class:`Conv1d`.

    Returns:
        ``(N, C_out, L_out)``; ``L_out`` as :class:`Conv2dTranspose` with ``padding``
        at both ends.
    """

    def __init__(self, in_channels: int, out_channels: int, kernel_size: int, stride: int = 1,
                 pad_mode: str = "same", padding: int = 0, dilation: int = 1, group: int = 1,
                 has_bias: bool = False, weight_init: Any = None, bias_init: Any = None,
                 dtype: Any = jnp.float32) -> None:
        name = type(self).__name__
        for arg, value in (("kernel_size", kernel_size), ("stride", stride), ("dilation", dilation)):
            _positive_int(value, arg, name)
        if not _is_int(padding):
            raise TypeError(f"For '{name}', 'padding' must be an int, got {type(padding).__name__}")
        _check_padding(pad_mode, padding, 1, name)
        weight_init = _as_4d_init(weight_init, name)
        super().__init__(in_channels, out_channels, (1, kernel_size), (1, stride), pad_mode,
                         (0, 0, padding, padding), (1, dilation), group, has_bias, weight_init,
                         bias_init, "NCHW", True, dtype)

    def construct(self, x: Any) -> Any:
        self._check_input(x, "NCL")
        k, s, d, p = self.kernel_size[1], self.stride[1], self.dilation[1], self.padding[2]
        length = _deconv_length(self.pad_mode, x.shape[2], k, s, d, 2 * p)
        forward_pads = self._pads([length], [k], [s], [d], (p, p))
        out = _conv_transpose(x, self.weight._value[:, :, 0, :], [length], [k], [s], [d],
                              forward_pads, self.group, ("NCH", "OIH", "NCH"))
        return self._add_bias(out, 1)



class Conv3dTranspose(_Conv):
    """3-D transposed convolution over ``(N, C_in, D, H, W)`` (MindSpore's ``nn.Conv3dTranspose``).

    The weight is ``(in_channels, out_channels // group, kd, kh, kw)``.

    Arguments:
        in_channels, out_channels, group, has_bias, weight_init, bias_init, dtype: as :class:`Conv3d`.
        kernel_size, stride: an int or a 3-tuple.
        dilation: an int or a 3-tuple; the depth dilation must be 1, as in MindSpore.
        pad_mode: ``'same'`` (default), ``'valid'`` or ``'pad'``.
        padding: with ``pad_mode='pad'``: an int or ``(head, tail, top, bottom, left, right)``.
        output_padding: an int or a 3-tuple added to the output's tail in each spatial dim
            (computed positions, not zeros), each below ``max(stride, dilation)`` of its dim.
        data_format: ``'NCDHW'``.

    Returns:
        ``(N, C_out, D_out, H_out, W_out)`` with, per spatial dim and ``k' = d * (k - 1) + 1``:
        'same': ``D * s``; 'valid': ``D * s + max(k' - s, 0)``;
        'pad': ``D * s - (head + tail) + k' - s``; plus ``output_padding``.

    Example:
        >>> import mindjax as ms
        >>> from mindjax import nn, ops
        >>> up = nn.Conv3dTranspose(4, 2, 3, stride=2)
        >>> up(ops.ones((1, 4, 3, 5, 4), ms.float32)).shape
        (1, 2, 6, 10, 8)
    """

    def __init__(self, in_channels: int, out_channels: int, kernel_size: int | tuple[int, int, int],
                 stride: int | tuple[int, int, int] = 1, pad_mode: str = "same",
                 padding: int | tuple[int, ...] = 0, dilation: int | tuple[int, int, int] = 1,
                 group: int = 1, output_padding: int | tuple[int, int, int] = 0, has_bias: bool = False,
                 weight_init: Any = None, bias_init: Any = None, data_format: str = "NCDHW",
                 dtype: Any = jnp.float32) -> None:
        name = type(self).__name__
        if data_format != "NCDHW":
            raise ValueError(f"For '{name}', 'data_format' must be 'NCDHW', got {data_format!r}")
        _check_padding(pad_mode, padding, 6, name)
        kernel = _int_tuple(kernel_size, 3, "kernel_size", name)
        strides = _int_tuple(stride, 3, "stride", name)
        dilations = _int_tuple(dilation, 3, "dilation", name)
        if dilations[0] != 1:
            raise ValueError(f"For '{name}', the depth of 'dilation' must be 1, got {dilation!r}")
        if _is_int(output_padding):
            out_pad = (int(output_padding),) * 3
        elif (isinstance(output_padding, tuple) and len(output_padding) == 3
              and all(_is_int(p) for p in output_padding)):
            out_pad = tuple(int(p) for p in output_padding)
        else:
            raise ValueError(f"For '{name}', 'output_padding' must be an int or a tuple of 3 ints, "
                             f"got {output_padding!r}")
        for p, s, d in zip(out_pad, strides, dilations):
            if p < 0 or p >= max(s, d):
                raise ValueError(f"For '{name}', 'output_padding' must be in [0, max(stride, dilation)) "
                                 f"= [0, {max(s, d)}) in each dim, got {output_padding!r}")
        if pad_mode != "pad" and any(out_pad):
            raise ValueError(f"For '{name}', 'output_padding' must be 0 when 'pad_mode' is not 'pad', "
                             f"got {output_padding!r} with pad_mode={pad_mode!r}")
        super().__init__(in_channels, out_channels, kernel, strides, pad_mode, padding, dilations,
                         group, has_bias, weight_init, bias_init, data_format, True, dtype)
        self.output_padding = out_pad

    def construct(self, x: Any) -> Any:
        x = as_array(x)
        self._check_input(x, "NCDHW")
        pad_pairs = _explicit_pads(self.padding, 3)
        out_spatial = [_deconv_length(self.pad_mode, s, k, st, d, lo + hi) + op
                       for s, k, st, d, (lo, hi), op in zip(x.shape[2:], self.kernel_size, self.stride,
                                                            self.dilation, pad_pairs, self.output_padding)]
        forward_pads = self._pads(out_spatial, self.kernel_size, self.stride, self.dilation, self.padding)
        out = _conv_transpose(x, as_array(self.weight), out_spatial, self.kernel_size, self.stride,
                              self.dilation, forward_pads, self.group, ("NCDHW", "OIDHW", "NCDHW"))
        return self._add_bias(out, 1)
