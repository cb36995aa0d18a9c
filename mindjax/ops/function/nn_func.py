"""MindSpore's ``mindspore.ops.function.nn_func``: convolutions, pooling, normalisation, activations,
resampling and losses.

The ops MindJAX had before this module (``ops.conv2d``, ``ops.max_pool2d``, ``ops.cross_entropy``
...) are re-exported here from ``mindjax.ops.functional*``; the rest are defined here with
MindSpore 2.10's names, argument names, defaults and numerics. The nn Cells call these ops,
so each computation exists once. The fused attention kernels that MindSpore ships only for
Ascend raise an error naming the portable ops to use.

Example:
    >>> import numpy as np
    >>> from mindjax import ops
    >>> ops.pixel_shuffle(np.zeros((1, 8, 2, 2), np.float32), 2).shape
    (1, 2, 4, 4)
"""
from __future__ import annotations

import builtins
import math
from typing import Any, Sequence

import jax
import jax.numpy as jnp
import numpy as np

from mindjax.common.precision import amp_op
from mindjax.common import random as _random
from mindjax.common.dtype import to_jax_dtype
from mindjax.common.tensor import tensor_op
from mindjax.ops.function._build import (_arr, _axis, _float, _named, ascend_only, check_bool, check_int,
                                         check_number, check_reduction, int_dtype, reduce_loss)
# Existing ops of this family, re-exported under MindSpore's module path.
from mindjax.ops.functional import (  # noqa: F401
    adaptive_avg_pool2d, avg_pool2d, batch_norm, bias_add, binary_cross_entropy_with_logits, conv2d,
    cross_entropy, dense, dropout, elu, embedding, gelu, glu, hardsigmoid, hardswish, interpolate, kl_div,
    l1_loss, layer_norm, leaky_relu, log_softmax, max_pool2d, mish, mse_loss, nll_loss, pad, prelu, relu,
    relu6, selu, sigmoid, silu, smooth_l1_loss, softmax, softplus, tanh,
)

_M = __name__

__all__ = [
    "ctc_greedy_decoder", "fractional_max_pool2d", "fractional_max_pool3d",
    # convolution
    "conv1d", "conv3d", "conv_transpose2d", "conv3d_transpose", "bidense",
    # pooling
    "avg_pool1d", "avg_pool3d", "max_pool3d", "adaptive_avg_pool1d", "adaptive_avg_pool3d", "adaptive_max_pool1d",
    "adaptive_max_pool2d", "adaptive_max_pool3d", "lp_pool1d", "lp_pool2d", "max_unpool1d", "max_unpool2d",
    "max_unpool3d",
    # normalisation
    "group_norm", "rms_norm", "add_rms_norm", "lrn",
    # activations
    "celu", "hardshrink", "softshrink", "soft_shrink", "hardtanh", "logsigmoid", "softsign", "softmin", "threshold",
    "rrelu", "fast_gelu", "swiglu", "inplace_sigmoid",
    # dropout and shuffles
    "dropout1d", "dropout2d", "dropout3d", "channel_shuffle", "pixel_shuffle", "pixel_unshuffle",
    # resampling and padding
    "grid_sample", "upsample", "mirror_pad",
    # losses
    "binary_cross_entropy", "huber_loss", "gaussian_nll_loss", "margin_ranking_loss", "hinge_embedding_loss",
    "cosine_embedding_loss", "soft_margin_loss", "multi_margin_loss", "multilabel_margin_loss",
    "multilabel_soft_margin_loss", "triplet_margin_loss", "ctc_loss", "mse_loss_ext",
    # misc
    "pdist", "fliplr", "flipud", "msort", "is_floating_point", "intopk",
    # Ascend-only fused kernels
    "flash_attention_score", "fused_infer_attention_score", "incre_flash_attention", "prompt_flash_attention",
    "speed_fusion_attention", "nsa_compress", "nsa_select_attention", "lightning_indexer",
    "ring_attention_update", "moe_token_permute", "moe_token_unpermute",
]


def _tuple(op: str, name: str, v: Any, n: int) -> tuple[int, ...]:
    if isinstance(v, (int, np.integer)) and not isinstance(v, bool):
        return (int(v),) * n
    if isinstance(v, (list, tuple)) and builtins.all(isinstance(i, (int, np.integer)) and not isinstance(i, bool)
                                                     for i in v):
        if len(v) == n:
            return tuple(int(i) for i in v)
        if len(v) == 1:
            return (int(v[0]),) * n
        if len(v) == n + 2:  # MindSpore's (1, 1, kd, kh, kw) form
            return tuple(int(i) for i in v[2:])
    raise TypeError(f"For '{op}', '{name}' must be an int or a tuple of {n} ints, got {v!r}")


# --- convolution ------------------------------------------------------------------------------

_DIMS = {1: ("NCH", "OIH", "NCH"), 2: ("NCHW", "OIHW", "NCHW"), 3: ("NCDHW", "OIDHW", "NCDHW")}


def _conv_nd(op: str, n: int, input: Any, weight: Any, bias: Any, stride: Any, pad_mode: str, padding: Any,
             dilation: Any, groups: int) -> jax.Array:
    x, w = _arr(input), _arr(weight)
    if x.ndim != n + 2 or w.ndim != n + 2:
        raise ValueError(f"'input' and 'weight' must be {n + 2}-D, got shapes {x.shape} and {w.shape}")
    groups = check_int("groups", groups, 1)
    if x.shape[1] % groups or w.shape[0] % groups or x.shape[1] != w.shape[1] * groups:
        raise ValueError(f"input channels {x.shape[1]} must equal weight.shape[1] * groups = "
                         f"{w.shape[1]} * {groups}, and groups must divide the output channels {w.shape[0]}")
    s = _tuple(op, "stride", stride, n)
    d = _tuple(op, "dilation", dilation, n)
    if pad_mode not in ("valid", "same", "pad"):
        raise ValueError(f"'pad_mode' must be 'valid', 'same' or 'pad', got {pad_mode!r}")
    if pad_mode == "pad":
        if isinstance(padding, (list, tuple)) and len(padding) == 2 * n:
            pads: Any = [(int(padding[2 * i]), int(padding[2 * i + 1])) for i in builtins.range(n)]
        else:
            pads = [(p, p) for p in _tuple(op, "padding", padding, n)]
    else:
        if padding not in (0, (0,) * n, [0] * n) and not (isinstance(padding, (list, tuple)) and not builtins.any(padding)):
            raise ValueError(f"'padding' must be 0 unless pad_mode is 'pad', got {padding!r}")
        pads = pad_mode.upper()
    out = jax.lax.conv_general_dilated(x, w.astype(x.dtype), s, pads, rhs_dilation=d, dimension_numbers=_DIMS[n],
                                       feature_group_count=groups)
    if bias is not None:
        out = out + _arr(bias).astype(out.dtype).reshape((1, -1) + (1,) * n)
    return out


@tensor_op
@_named("conv1d")
def conv1d(input: Any, weight: Any, bias: Any = None, stride: Any = 1, pad_mode: str = "valid", padding: Any = 0,
           dilation: Any = 1, groups: int = 1) -> jax.Array:
    """1-D convolution over ``(N, C_in, L)`` with weight ``(C_out, C_in / groups, K)``.

    Arguments:
        input, weight, bias: the input, the kernel and an optional ``(C_out,)`` bias.
        stride, dilation: an int or a 1-tuple.
        pad_mode: ``'valid'``, ``'same'`` or ``'pad'``.
        padding: with ``'pad'``, an int or a 1- or 2-tuple (left, right).
        groups: the number of channel groups.

    Returns:
        ``(N, C_out, L_out)``.
    """
    return _conv_nd("conv1d", 1, input, weight, bias, stride, pad_mode, padding, dilation, groups)


@tensor_op
@_named("conv3d")
def conv3d(input: Any, weight: Any, bias: Any = None, stride: Any = 1, pad_mode: str = "valid", padding: Any = 0,
           dilation: Any = 1, groups: int = 1) -> jax.Array:
    """3-D convolution over ``(N, C_in, D, H, W)`` with weight ``(C_out, C_in / groups, kD, kH, kW)``.

    Arguments as :func:`conv1d`, with 3-tuples (``padding`` may also be a 6-tuple of head/tail pairs).

    Returns:
        ``(N, C_out, D_out, H_out, W_out)``.
    """
    return _conv_nd("conv3d", 3, input, weight, bias, stride, pad_mode, padding, dilation, groups)


def _conv_transpose_nd(op: str, n: int, x: jax.Array, w: jax.Array, stride: tuple[int, ...],
                       pads: list[tuple[int, int]], dilation: tuple[int, ...], groups: int,
                       output_padding: tuple[int, ...]) -> jax.Array:
    if x.ndim != n + 2 or w.ndim != n + 2:
        raise ValueError(f"'input' and 'weight' must be {n + 2}-D, got shapes {x.shape} and {w.shape}")
    if x.shape[1] != w.shape[0] or x.shape[1] % groups:
        raise ValueError(f"input channels {x.shape[1]} must equal weight.shape[0] ({w.shape[0]}) and be "
                         f"divisible by groups {groups}")
    cin, cout_g = w.shape[0], w.shape[1]
    k = w.shape[2:]
    # (C_in, C_out/g, *k) -> (C_out, C_in/g, *k), spatially flipped: the transposed conv as a conv.
    wg = w.reshape((groups, cin // groups, cout_g) + k)
    wg = jnp.swapaxes(wg, 1, 2).reshape((groups * cout_g, cin // groups) + k)
    wg = jnp.flip(wg, axis=tuple(builtins.range(2, n + 2)))
    lax_pads = [(dilation[i] * (k[i] - 1) - pads[i][0], dilation[i] * (k[i] - 1) - pads[i][1] + output_padding[i])
                for i in builtins.range(n)]
    return jax.lax.conv_general_dilated(x, wg.astype(x.dtype), (1,) * n, lax_pads, lhs_dilation=stride,
                                        rhs_dilation=dilation, dimension_numbers=_DIMS[n],
                                        feature_group_count=groups)


@tensor_op
@_named("conv_transpose2d")
def conv_transpose2d(input: Any, weight: Any, bias: Any = None, stride: Any = 1, padding: Any = 0,
                     output_padding: Any = 0, groups: int = 1, dilation: Any = 1) -> jax.Array:
    """2-D transposed convolution (the gradient of ``conv2d`` with respect to its input).

    Arguments:
        input: ``(N, C_in, H, W)``.
        weight: ``(C_in, C_out / groups, kH, kW)``.
        bias: optional ``(C_out,)``.
        stride, padding, output_padding, dilation: ints or pairs; the output is
            ``(H - 1) * stride - 2 * padding + dilation * (k - 1) + output_padding + 1``.
        groups: the number of channel groups.

    Returns:
        ``(N, C_out, H_out, W_out)``.
    """
    x, w = _arr(input), _arr(weight)
    s, p = _tuple("conv_transpose2d", "stride", stride, 2), _tuple("conv_transpose2d", "padding", padding, 2)
    op_ = _tuple("conv_transpose2d", "output_padding", output_padding, 2)
    d = _tuple("conv_transpose2d", "dilation", dilation, 2)
    groups = check_int("groups", groups, 1)
    out = _conv_transpose_nd("conv_transpose2d", 2, x, w, s, [(v, v) for v in p], d, groups, op_)
    if bias is not None:
        out = out + _arr(bias).astype(out.dtype).reshape(1, -1, 1, 1)
    return out


@tensor_op
@_named("conv3d_transpose")
def conv3d_transpose(inputs: Any, weight: Any, pad_mode: str = "valid", padding: Any = 0, stride: Any = 1,
                     dilation: Any = 1, group: int = 1, output_padding: Any = 0) -> jax.Array:
    """3-D transposed convolution with MindSpore's ``Conv3DTranspose`` padding modes.

    Arguments:
        inputs: ``(N, C_in, D, H, W)``.
        weight: ``(C_in, C_out / group, kD, kH, kW)``.
        pad_mode: ``'valid'`` (no padding), ``'same'`` (output = input * stride) or ``'pad'``.
        padding: with ``'pad'``, an int, a 3-tuple or a 6-tuple of head/tail pairs.
        stride, dilation, output_padding: ints or 3-tuples.
        group: the number of channel groups.

    Returns:
        ``(N, C_out, D_out, H_out, W_out)``.
    """
    x, w = _arr(inputs), _arr(weight)
    s = _tuple("conv3d_transpose", "stride", stride, 3)
    d = _tuple("conv3d_transpose", "dilation", dilation, 3)
    op_ = _tuple("conv3d_transpose", "output_padding", output_padding, 3)
    k = w.shape[2:]
    if pad_mode == "valid":
        pads = [(0, 0)] * 3
    elif pad_mode == "same":
        pads = []
        for i in builtins.range(3):
            total = builtins.max(d[i] * (k[i] - 1) + 1 - s[i], 0)
            pads.append((total // 2, total - total // 2))
    elif pad_mode == "pad":
        if isinstance(padding, (list, tuple)) and len(padding) == 6:
            pads = [(int(padding[2 * i]), int(padding[2 * i + 1])) for i in builtins.range(3)]
        else:
            pads = [(v, v) for v in _tuple("conv3d_transpose", "padding", padding, 3)]
    else:
        raise ValueError(f"'pad_mode' must be 'valid', 'same' or 'pad', got {pad_mode!r}")
    return _conv_transpose_nd("conv3d_transpose", 3, x, w, s, pads, d, check_int("group", group, 1), op_)


@tensor_op
@_named("bidense")
def bidense(input1: Any, input2: Any, weight: Any, bias: Any = None) -> jax.Array:
    """Bilinear transform ``y = x1^T A x2 + b``.

    Arguments:
        input1: ``(*, in1)``.
        input2: ``(*, in2)``.
        weight: ``(out, in1, in2)``.
        bias: optional ``(out,)``.

    Returns:
        ``(*, out)``.
    """
    a, b, w = _arr(input1), _arr(input2), _arr(weight)
    if w.ndim != 3 or a.shape[-1] != w.shape[1] or b.shape[-1] != w.shape[2]:
        raise ValueError(f"'weight' must be (out, in1, in2) matching inputs {a.shape} and {b.shape}, got {w.shape}")
    out = jnp.einsum("...i,oij,...j->...o", a, w.astype(a.dtype), b)
    return out if bias is None else out + _arr(bias)


# --- pooling -----------------------------------------------------------------------------------

def _pool_geometry(n_in: int, k: int, s: int, p: int, d: int, ceil_mode: bool) -> tuple[int, int]:
    span = d * (k - 1) + 1
    if ceil_mode:
        out = -(-(n_in + 2 * p - span) // s) + 1
        if (out - 1) * s >= n_in + p:
            out -= 1
    else:
        out = (n_in + 2 * p - span) // s + 1
    right = builtins.max((out - 1) * s + span - n_in - p, 0)
    return out, right


def _window_reduce(op: str, x: jax.Array, n: int, kernel_size: Any, stride: Any, padding: Any, dilation: Any,
                   ceil_mode: bool, kind: str, count_include_pad: bool = True,
                   divisor_override: int = 0) -> jax.Array:
    if x.ndim not in (n + 1, n + 2):
        raise ValueError(f"'input' must be {n + 1}-D or {n + 2}-D, got shape {x.shape}")
    squeeze = x.ndim == n + 1
    if squeeze:
        x = x[None]
    k = _tuple(op, "kernel_size", kernel_size, n)
    s = k if stride is None else _tuple(op, "stride", stride, n)
    p = _tuple(op, "padding", padding, n)
    d = _tuple(op, "dilation", dilation, n)
    for i in builtins.range(n):
        if p[i] > k[i] // 2:
            raise ValueError(f"'padding' {p} must be at most half of 'kernel_size' {k}")
    pads, outs = [(0, 0), (0, 0)], []
    for i in builtins.range(n):
        out, right = _pool_geometry(x.shape[2 + i], k[i], s[i], p[i], d[i], ceil_mode)
        if out <= 0:
            raise ValueError(f"the output would be empty for input {x.shape}, kernel {k}, stride {s}")
        pads.append((p[i], right))
        outs.append(out)
    window, strides, dil = (1, 1) + k, (1, 1) + s, (1, 1) + d
    if kind == "max":
        init = -jnp.inf if jnp.issubdtype(x.dtype, jnp.floating) else jnp.iinfo(x.dtype).min
        out_ = jax.lax.reduce_window(x, jnp.asarray(init, x.dtype), jax.lax.max, window, strides, pads,
                                     window_dilation=dil)
    else:
        xf = _float(x)
        total = jax.lax.reduce_window(xf, jnp.zeros((), xf.dtype), jax.lax.add, window, strides, pads,
                                      window_dilation=dil)
        if divisor_override:
            out_ = total / divisor_override
        elif count_include_pad:
            # The padded window counts its zero padding but not the part beyond it (ceil mode).
            ones = jnp.pad(jnp.ones(x.shape[2:], xf.dtype), [(p[i], p[i]) for i in builtins.range(n)])
            extra = [(0, pads[2 + i][1] - p[i]) for i in builtins.range(n)]
            counts = jax.lax.reduce_window(ones, jnp.zeros((), xf.dtype), jax.lax.add, k, s, extra,
                                           window_dilation=d)
            out_ = total / counts
        else:
            counts = jax.lax.reduce_window(jnp.ones(x.shape[2:], xf.dtype), jnp.zeros((), xf.dtype), jax.lax.add,
                                           k, s, pads[2:], window_dilation=d)
            out_ = total / counts
        out_ = out_.astype(x.dtype) if jnp.issubdtype(x.dtype, jnp.floating) else out_
    return out_[0] if squeeze else out_


@tensor_op
@_named("avg_pool1d")
def avg_pool1d(input_x: Any, kernel_size: Any = 1, stride: Any = 1, padding: Any = 0, ceil_mode: bool = False,
               count_include_pad: bool = True) -> jax.Array:
    """1-D average pooling over ``(N, C, L)`` or ``(C, L)``.

    Arguments:
        input_x: the input.
        kernel_size, stride, padding: ints (or 1-tuples).
        ceil_mode: round the output length up.
        count_include_pad: count the zero padding in each window's divisor.

    Returns:
        the pooled array.
    """
    return _window_reduce("avg_pool1d", _arr(input_x), 1, kernel_size, stride, padding, 1,
                          check_bool("ceil_mode", ceil_mode), "avg", check_bool("count_include_pad", count_include_pad))


@tensor_op
@_named("avg_pool3d")
def avg_pool3d(input_x: Any, kernel_size: Any = 1, stride: Any = 1, padding: Any = 0, ceil_mode: bool = False,
               count_include_pad: bool = True, divisor_override: int = 0) -> jax.Array:
    """3-D average pooling over ``(N, C, D, H, W)`` or ``(C, D, H, W)``; ``divisor_override`` replaces the divisor."""
    return _window_reduce("avg_pool3d", _arr(input_x), 3, kernel_size, stride, padding, 1,
                          check_bool("ceil_mode", ceil_mode), "avg", check_bool("count_include_pad", count_include_pad),
                          check_int("divisor_override", divisor_override, 0))


def _max_with_indices(op: str, x: jax.Array, n: int, kernel_size: Any, stride: Any, padding: Any,
                      dilation: Any, ceil_mode: bool) -> tuple[jax.Array, jax.Array]:
    squeeze = x.ndim == n + 1
    xb = x[None] if squeeze else x
    spatial = xb.shape[2:]
    flat_idx = jnp.arange(int(np.prod(spatial)), dtype=jnp.int32).reshape(spatial)
    k = _tuple(op, "kernel_size", kernel_size, n)
    s = k if stride is None else _tuple(op, "stride", stride, n)
    p = _tuple(op, "padding", padding, n)
    d = _tuple(op, "dilation", dilation, n)
    pads = []
    for i in builtins.range(n):
        _, right = _pool_geometry(spatial[i], k[i], s[i], p[i], d[i], ceil_mode)
        pads.append((p[i], right))
    neg = -jnp.inf if jnp.issubdtype(xb.dtype, jnp.floating) else jnp.iinfo(xb.dtype).min
    xp = jnp.pad(xb, [(0, 0), (0, 0)] + pads, constant_values=neg)
    ip = jnp.pad(jnp.broadcast_to(flat_idx, xb.shape), [(0, 0), (0, 0)] + pads, constant_values=-1)

    def windows(a: jax.Array) -> jax.Array:
        # (N, C, *out, prod(k)) by gathering each kernel offset.
        outs = [(a.shape[2 + i] - d[i] * (k[i] - 1) - 1) // s[i] + 1 for i in builtins.range(n)]
        parts = []
        for offs in np.ndindex(*k):
            index = [builtins.slice(None), builtins.slice(None)]
            for i in builtins.range(n):
                start = offs[i] * d[i]
                index.append(builtins.slice(start, start + (outs[i] - 1) * s[i] + 1, s[i]))
            parts.append(a[tuple(index)])
        return jnp.stack(parts, axis=-1)

    wv, wi = windows(xp), windows(ip)
    arg = jnp.argmax(wv, axis=-1)
    values = jnp.take_along_axis(wv, arg[..., None], -1)[..., 0]
    indices = jnp.take_along_axis(wi, arg[..., None], -1)[..., 0]
    if squeeze:
        values, indices = values[0], indices[0]
    return values, indices.astype(int_dtype())


@tensor_op
@_named("max_pool3d")
def max_pool3d(x: Any, kernel_size: Any, stride: Any = None, padding: Any = 0, dilation: Any = 1,
               ceil_mode: bool = False, return_indices: bool = False) -> Any:
    """3-D max pooling over ``(N, C, D, H, W)`` or ``(C, D, H, W)``.

    Arguments:
        x: the input.
        kernel_size, stride (default ``kernel_size``), padding, dilation: ints or 3-tuples.
        ceil_mode: round output sizes up.
        return_indices: also return the flat index (within each ``D * H * W`` plane) of each maximum.

    Returns:
        the pooled array, or ``(values, indices)``.
    """
    a = _arr(x)
    if check_bool("return_indices", return_indices):
        return _max_with_indices("max_pool3d", a, 3, kernel_size, stride, padding, dilation,
                                 check_bool("ceil_mode", ceil_mode))
    return _window_reduce("max_pool3d", a, 3, kernel_size, stride, padding, dilation,
                          check_bool("ceil_mode", ceil_mode), "max")


def _adaptive(op: str, input: Any, output_size: Any, n: int, kind: str,
              return_indices: bool = False) -> Any:
    x = _arr(input)
    if x.ndim not in (n + 1, n + 2):
        raise ValueError(f"'input' must be {n + 1}-D or {n + 2}-D, got shape {x.shape}")
    spatial = x.shape[-n:]
    if isinstance(output_size, (int, np.integer)) or output_size is None:
        out = (output_size,) * n
    else:
        out = tuple(output_size)
        if len(out) != n:
            raise ValueError(f"'output_size' must be an int or a tuple of {n}, got {output_size!r}")
    out = tuple(spatial[i] if o is None else int(o) for i, o in enumerate(out))
    flat_idx = jnp.arange(int(np.prod(spatial)), dtype=jnp.int32).reshape(spatial)
    values, indices = [], []
    for pos in np.ndindex(*out):
        index = [Ellipsis]
        for i in builtins.range(n):
            lo = (pos[i] * spatial[i]) // out[i]
            hi = -(-((pos[i] + 1) * spatial[i]) // out[i])
            index.append(builtins.slice(lo, hi))
        region = x[tuple(index)]
        red_axes = tuple(builtins.range(-n, 0))
        if kind == "avg":
            values.append(jnp.mean(_float(region), axis=red_axes).astype(x.dtype if jnp.issubdtype(
                x.dtype, jnp.floating) else jnp.float32))
        else:
            flat = region.reshape(region.shape[:-n] + (-1,))
            arg = jnp.argmax(flat, axis=-1)
            values.append(jnp.take_along_axis(flat, arg[..., None], -1)[..., 0])
            if return_indices:
                ids = flat_idx[tuple(index[1:])].reshape(-1)
                indices.append(ids[arg])
    shape_out = x.shape[:-n] + out
    v = jnp.stack(values, axis=-1).reshape(shape_out)
    if kind == "max" and return_indices:
        return v, jnp.stack(indices, axis=-1).reshape(shape_out).astype(int_dtype())
    return v


@tensor_op
@_named("adaptive_avg_pool1d")
def adaptive_avg_pool1d(input: Any, output_size: int) -> jax.Array:
    """Average pooling of ``(N, C, L)`` to length ``output_size`` with adaptive windows."""
    return _adaptive("adaptive_avg_pool1d", input, check_int("output_size", output_size, 1), 1, "avg")


@tensor_op
@_named("adaptive_avg_pool3d")
def adaptive_avg_pool3d(input: Any, output_size: Any) -> jax.Array:
    """Average pooling of ``(N, C, D, H, W)`` to ``output_size`` (an int or a 3-tuple; None keeps a size)."""
    return _adaptive("adaptive_avg_pool3d", input, output_size, 3, "avg")


@tensor_op
@_named("adaptive_max_pool1d")
def adaptive_max_pool1d(input: Any, output_size: int) -> jax.Array:
    """Max pooling of ``(N, C, L)`` to length ``output_size`` with adaptive windows."""
    return _adaptive("adaptive_max_pool1d", input, check_int("output_size", output_size, 1), 1, "max")


@tensor_op
@_named("adaptive_max_pool2d")
def adaptive_max_pool2d(input: Any, output_size: Any, return_indices: bool = False) -> Any:
    """Max pooling of ``(N, C, H, W)`` to ``output_size``; optionally with flat indices of the maxima."""
    return _adaptive("adaptive_max_pool2d", input, output_size, 2, "max", check_bool("return_indices",
                                                                                    return_indices))


@tensor_op
@_named("adaptive_max_pool3d")
def adaptive_max_pool3d(input: Any, output_size: Any, return_indices: bool = False) -> Any:
    """Max pooling of ``(N, C, D, H, W)`` to ``output_size``; optionally with flat indices of the maxima."""
    return _adaptive("adaptive_max_pool3d", input, output_size, 3, "max", check_bool("return_indices",
                                                                                    return_indices))


def _lp_pool(op: str, n: int, x: Any, norm_type: float, kernel_size: Any, stride: Any, ceil_mode: bool) -> jax.Array:
    a = _float(_arr(x))
    p = check_number("norm_type", norm_type)
    k = _tuple(op, "kernel_size", kernel_size, n)
    avg = _window_reduce(op, a ** p, n, k, stride, 0, 1, check_bool("ceil_mode", ceil_mode), "avg")
    area = float(np.prod(k))
    return (jnp.sign(avg) * jax.nn.relu(jnp.abs(avg)) * area) ** (1.0 / p)


@tensor_op
@_named("lp_pool1d")
def lp_pool1d(x: Any, norm_type: float, kernel_size: int, stride: Any = None, ceil_mode: bool = False) -> jax.Array:
    """Power-average pooling ``(sum x ** p) ** (1 / p)`` over windows of ``(N, C, L)``."""
    return _lp_pool("lp_pool1d", 1, x, norm_type, kernel_size, stride, ceil_mode)


@tensor_op
@_named("lp_pool2d")
def lp_pool2d(x: Any, norm_type: float, kernel_size: Any, stride: Any = None, ceil_mode: bool = False) -> jax.Array:
    """Power-average pooling ``(sum x ** p) ** (1 / p)`` over windows of ``(N, C, H, W)``."""
    return _lp_pool("lp_pool2d", 2, x, norm_type, kernel_size, stride, ceil_mode)


def _max_unpool(op: str, n: int, x: Any, indices: Any, kernel_size: Any, stride: Any, padding: Any,
                output_size: Any) -> jax.Array:
    a, idx = _arr(x), _arr(indices)
    if a.ndim not in (n + 1, n + 2) or idx.shape != a.shape:
        raise ValueError(f"'x' must be {n + 1}-D or {n + 2}-D and 'indices' of its shape, got {a.shape} "
                         f"and {idx.shape}")
    k = _tuple(op, "kernel_size", kernel_size, n)
    s = k if stride is None else _tuple(op, "stride", stride, n)
    p = _tuple(op, "padding", padding, n)
    default = tuple((a.shape[-n + i] - 1) * s[i] - 2 * p[i] + k[i] for i in builtins.range(n))
    if output_size is None or output_size == () or output_size == []:
        out = default
    else:
        out = tuple(int(v) for v in output_size)[-n:]
    lead = a.shape[:-n]
    flat = jnp.zeros(lead + (int(np.prod(out)),), a.dtype)
    src = a.reshape(lead + (-1,))
    ids = idx.reshape(lead + (-1,)).astype(jnp.int32)
    grid = jnp.indices(ids.shape, sparse=True)
    flat = flat.at[tuple(grid[:-1]) + (ids,)].set(src)
    return flat.reshape(lead + out)


@tensor_op
@_named("max_unpool1d")
def max_unpool1d(x: Any, indices: Any, kernel_size: Any, stride: Any = None, padding: Any = 0,
                 output_size: Any = None) -> jax.Array:
    """The partial inverse of 1-D max pooling: each value goes back to its index, zeros elsewhere."""
    return _max_unpool("max_unpool1d", 1, x, indices, kernel_size, stride, padding, output_size)


@tensor_op
@_named("max_unpool2d")
def max_unpool2d(x: Any, indices: Any, kernel_size: Any, stride: Any = None, padding: Any = 0,
                 output_size: Any = None) -> jax.Array:
    """The partial inverse of 2-D max pooling: each value goes back to its flat index, zeros elsewhere."""
    return _max_unpool("max_unpool2d", 2, x, indices, kernel_size, stride, padding, output_size)


@tensor_op
@_named("max_unpool3d")
def max_unpool3d(x: Any, indices: Any, kernel_size: Any, stride: Any = None, padding: Any = 0,
                 output_size: Any = None) -> jax.Array:
    """The partial inverse of 3-D max pooling: each value goes back to its flat index, zeros elsewhere."""
    return _max_unpool("max_unpool3d", 3, x, indices, kernel_size, stride, padding, output_size)


# --- normalisation -----------------------------------------------------------------------------

@tensor_op
@amp_op("GroupNorm")
@_named("group_norm")
def group_norm(input: Any, num_groups: int, weight: Any = None, bias: Any = None, eps: float = 1e-05) -> jax.Array:
    """Group normalisation of ``(N, C, *)`` over groups of ``C / num_groups`` channels (biased variance).

    Arguments:
        input: the input.
        num_groups: how many groups; must divide ``C``.
        weight, bias: optional ``(C,)`` affine parameters.
        eps: added to the variance.

    Returns:
        the normalised array.
    """
    x = _arr(input)
    g = check_int("num_groups", num_groups, 1)
    if x.ndim < 2 or x.shape[1] % g:
        raise ValueError(f"'num_groups' {g} must divide the channels of input {x.shape}")
    xf = _float(x)
    grouped = xf.reshape((x.shape[0], g, -1))
    mean_ = jnp.mean(grouped, axis=-1, keepdims=True)
    var_ = jnp.var(grouped, axis=-1, keepdims=True)
    out = ((grouped - mean_) / jnp.sqrt(var_ + eps)).reshape(x.shape)
    shape_ = (1, -1) + (1,) * (x.ndim - 2)
    if weight is not None:
        out = out * _arr(weight).reshape(shape_)
    if bias is not None:
        out = out + _arr(bias).reshape(shape_)
    return out.astype(xf.dtype)


def _rms(x: jax.Array, gamma: jax.Array, eps: float) -> tuple[jax.Array, jax.Array]:
    axes = tuple(builtins.range(x.ndim - gamma.ndim, x.ndim))
    xf = x.astype(jnp.float32)
    rstd = jax.lax.rsqrt(jnp.mean(xf * xf, axis=axes, keepdims=True) + eps)
    return (xf * rstd * gamma.astype(jnp.float32)).astype(x.dtype), rstd


@tensor_op
@_named("rms_norm")
def rms_norm(x: Any, gamma: Any, epsilon: float = 1e-06) -> tuple[jax.Array, jax.Array]:
    """Root-mean-square normalisation over the trailing ``gamma.ndim`` axes, scaled by ``gamma``.

    Arguments:
        x: the input.
        gamma: the scale, shaped as ``x``'s trailing axes.
        epsilon: added to the mean square.

    Returns:
        ``(y, rstd)``: the output and the reciprocal RMS (float32, reduced axes kept with size 1).
    """
    a, g = _arr(x), _arr(gamma)
    if g.ndim > a.ndim or a.shape[a.ndim - g.ndim:] != g.shape:
        raise ValueError(f"'gamma' shape {g.shape} must match the trailing axes of 'x' {a.shape}")
    eps = check_number("epsilon", epsilon)
    return _rms(a, g, eps)


@tensor_op
@_named("add_rms_norm")
def add_rms_norm(x1: Any, x2: Any, gamma: Any, epsilon: float = 1e-06) -> tuple[jax.Array, jax.Array, jax.Array]:
    """``x = x1 + x2`` followed by :func:`rms_norm`.

    Returns:
        ``(y, rstd, x)``.
    """
    x = _arr(x1) + _arr(x2)
    y, rstd = _rms(x, _arr(gamma), check_number("epsilon", epsilon))
    return y, rstd, x


@tensor_op
@_named("lrn")
def lrn(x: Any, depth_radius: int = 5, bias: float = 1.0, alpha: float = 1.0, beta: float = 0.5,
        norm_region: str = "ACROSS_CHANNELS") -> jax.Array:
    """Local response normalisation across channels of ``(N, C, H, W)``:
    ``x / (bias + alpha * sum_{|c' - c| <= r} x_{c'} ** 2) ** beta``."""
    a = _float(_arr(x))
    if a.ndim != 4:
        raise ValueError(f"'x' must be 4-D (N, C, H, W), got shape {a.shape}")
    if norm_region != "ACROSS_CHANNELS":
        raise ValueError(f"'norm_region' must be 'ACROSS_CHANNELS', got {norm_region!r}")
    r = check_int("depth_radius", depth_radius, 0)
    sq = jax.lax.reduce_window(a * a, jnp.zeros((), a.dtype), jax.lax.add, (1, 2 * r + 1, 1, 1), (1, 1, 1, 1),
                               [(0, 0), (r, r), (0, 0), (0, 0)])
    return a / (bias + alpha * sq) ** beta


# --- activations --------------------------------------------------------------------------------

@tensor_op
@_named("celu")
def celu(x: Any, alpha: float = 1.0) -> jax.Array:
    """``max(0, x) + min(0, alpha * (exp(x / alpha) - 1))``; ``alpha`` must not be 0."""
    alpha = check_number("alpha", alpha)
    if alpha == 0:
        raise ValueError("'alpha' must not be 0")
    return jax.nn.celu(_float(_arr(x)), alpha)


def _shrink(op: str, input: Any, lambd: float, soft: bool) -> jax.Array:
    x = _float(_arr(input))
    lam = check_number("lambd", lambd)
    if soft:
        if lam < 0:
            raise ValueError(f"'lambd' must be non-negative, got {lam}")
        return jnp.where(x > lam, x - lam, jnp.where(x < -lam, x + lam, jnp.zeros((), x.dtype)))
    return jnp.where(jnp.abs(x) > lam, x, jnp.zeros((), x.dtype))


@tensor_op
@_named("hardshrink")
def hardshrink(input: Any, lambd: float = 0.5) -> jax.Array:
    """``x`` where ``|x| > lambd``, 0 elsewhere."""
    return _shrink("hardshrink", input, lambd, soft=False)


@tensor_op
@_named("softshrink")
def softshrink(input: Any, lambd: float = 0.5) -> jax.Array:
    """``x - lambd`` above ``lambd``, ``x + lambd`` below ``-lambd``, 0 between."""
    return _shrink("softshrink", input, lambd, soft=True)


@tensor_op
@_named("soft_shrink")
def soft_shrink(input: Any, lambd: float = 0.5) -> jax.Array:
    """Alias of :func:`softshrink`."""
    return _shrink("soft_shrink", input, lambd, soft=True)


@tensor_op
@_named("hardtanh")
def hardtanh(input: Any, min_val: float = -1.0, max_val: float = 1.0) -> jax.Array:
    """``clip(input, min_val, max_val)``."""
    lo, hi = check_number("min_val", min_val), check_number("max_val", max_val)
    if lo > hi:
        raise ValueError(f"'min_val' ({lo}) must not exceed 'max_val' ({hi})")
    x = _arr(input)
    return jnp.clip(x, lo, hi).astype(x.dtype)


@tensor_op
@_named("logsigmoid")
def logsigmoid(x: Any) -> jax.Array:
    """``log(sigmoid(x))``, computed stably."""
    return jax.nn.log_sigmoid(_float(_arr(x)))


@tensor_op
@_named("softsign")
def softsign(x: Any) -> jax.Array:
    """``x / (1 + |x|)``."""
    return jax.nn.soft_sign(_float(_arr(x)))


@tensor_op
@_named("softmin")
def softmin(x: Any, axis: Any = -1, *, dtype: Any = None) -> jax.Array:
    """``softmax(-x)`` along ``axis`` (an int or a tuple of ints)."""
    a = _float(_arr(x))
    if dtype is not None:
        a = a.astype(to_jax_dtype(dtype))
    axes = (axis,) if isinstance(axis, int) else tuple(axis)
    return jax.nn.softmax(-a, axis=tuple(_axis("softmin", v, a.ndim) for v in axes))


@tensor_op
@_named("threshold")
def threshold(input: Any, thr: float, value: float) -> jax.Array:
    """``input`` where ``input > thr``, ``value`` elsewhere."""
    x = _arr(input)
    return jnp.where(x > check_number("thr", thr), x, jnp.asarray(check_number("value", value), x.dtype))


@tensor_op
@_named("rrelu")
def rrelu(input: Any, lower: float = 1.0 / 8, upper: float = 1.0 / 3) -> jax.Array:
    """Randomised leaky ReLU: negative inputs scaled by slopes drawn from ``U(lower, upper)``."""
    x = _float(_arr(input))
    lo, hi = check_number("lower", lower), check_number("upper", upper)
    if lo > hi:
        raise ValueError(f"'lower' ({lo}) must not exceed 'upper' ({hi})")
    slope = jax.random.uniform(_random.next_key(), x.shape, x.dtype, lo, hi)
    return jnp.where(x >= 0, x, x * slope)


@tensor_op
@_named("fast_gelu")
def fast_gelu(x: Any) -> jax.Array:
    """``x / (1 + exp(-1.702 |x|)) * exp(0.851 (x - |x|))``, i.e. ``x * sigmoid(1.702 x)``."""
    a = _float(_arr(x))
    return a * jax.nn.sigmoid(1.702 * a)


@tensor_op
@_named("swiglu")
def swiglu(input: Any, dim: int = -1) -> jax.Array:
    """``silu(a) * b`` with ``a, b`` the two halves of ``input`` along ``dim``."""
    x = _float(_arr(input))
    ax = _axis("swiglu", dim, x.ndim, "dim")
    if x.shape[ax] % 2:
        raise ValueError(f"dimension {dim} of 'input' ({x.shape[ax]}) must be even")
    a, b = jnp.split(x, 2, axis=ax)
    return jax.nn.silu(a) * b


@tensor_op
@_named("inplace_sigmoid")
def inplace_sigmoid(input: Any) -> jax.Array:
    """``sigmoid(input)`` (MindSpore's in-place name; returns the result)."""
    return jax.nn.sigmoid(_float(_arr(input)))


# --- dropout and shuffles --------------------------------------------------------------------------

def _channel_dropout(op: str, input: Any, p: float, training: bool, ranks: tuple[int, ...]) -> jax.Array:
    """Zero whole channels (the axis after the batch; the first axis of an input without one)."""
    x = _arr(input)
    if isinstance(p, bool) or not isinstance(p, float):
        raise TypeError(f"For {op}, 'p' must be float, but got type {type(p)}.")
    if not 0 <= p <= 1:
        raise ValueError(f"For {op}, the 'p' must be a number in range [0, 1], but got {p}.")
    check_bool("training", training)
    if x.ndim not in ranks:
        wanted = " or ".join(f"{r}D" for r in ranks)
        raise ValueError(f"For {op}, input shape should be {wanted}, but got {x.ndim}.")
    if not training or p == 0:
        return x
    if p == 1:
        return jnp.zeros_like(x)
    lead = x.shape[:2] if x.ndim == max(ranks) else x.shape[:1]  # (N, C), or (C,) without a batch
    keep = jax.random.bernoulli(_random.next_key(), 1.0 - p, lead)
    keep = keep.reshape(lead + (1,) * (x.ndim - len(lead)))
    return jnp.where(keep, x / jnp.asarray(1.0 - p, x.dtype), jnp.zeros((), x.dtype)).astype(x.dtype)


@tensor_op
@_named("dropout1d")
def dropout1d(input: Any, p: float = 0.5, training: bool = True) -> jax.Array:
    """Zero whole channels of ``(N, C, L)`` or ``(C, L)`` with probability ``p``; scale the rest by ``1 / (1 - p)``."""
    return _channel_dropout("dropout1d", input, p, training, (2, 3))


@tensor_op
@_named("dropout2d")
def dropout2d(input: Any, p: float = 0.5, training: bool = True) -> jax.Array:
    """Zero whole channels of ``(N, C, H, W)`` with probability ``p``; scale the rest by ``1 / (1 - p)``."""
    return _channel_dropout("dropout2d", input, p, training, (4,))


@tensor_op
@_named("dropout3d")
def dropout3d(input: Any, p: float = 0.5, training: bool = True) -> jax.Array:
    """Zero whole channels of ``(N, C, D, H, W)`` with probability ``p``; scale the rest by ``1 / (1 - p)``."""
    return _channel_dropout("dropout3d", input, p, training, (5,))


@tensor_op
@_named("channel_shuffle")
def channel_shuffle(x: Any, groups: int) -> jax.Array:
    """Interleave the channels of ``(N, C, *)`` from ``groups`` groups (ShuffleNet's shuffle)."""
    a = _arr(x)
    g = check_int("groups", groups, 1)
    if a.ndim < 3 or a.shape[1] % g:
        raise ValueError(f"'groups' {g} must divide the channels of a (N, C, *) input, got shape {a.shape}")
    n, c = a.shape[:2]
    return a.reshape((n, g, c // g) + a.shape[2:]).swapaxes(1, 2).reshape(a.shape)


@tensor_op
@_named("pixel_shuffle")
def pixel_shuffle(input: Any, upscale_factor: int) -> jax.Array:
    """Rearrange ``(*, C * r ** 2, H, W)`` into ``(*, C, H * r, W * r)``."""
    x = _arr(input)
    r = check_int("upscale_factor", upscale_factor, 1)
    if x.ndim < 3 or x.shape[-3] % (r * r):
        raise ValueError(f"the channel axis of 'input' {x.shape} must be divisible by upscale_factor ** 2 = {r * r}")
    *lead, c, h, w = x.shape
    y = x.reshape(tuple(lead) + (c // (r * r), r, r, h, w))
    nd = len(lead)
    y = jnp.transpose(y, tuple(builtins.range(nd)) + (nd, nd + 3, nd + 1, nd + 4, nd + 2))
    return y.reshape(tuple(lead) + (c // (r * r), h * r, w * r))


@tensor_op
@_named("pixel_unshuffle")
def pixel_unshuffle(input: Any, downscale_factor: int) -> jax.Array:
    """Rearrange ``(*, C, H * r, W * r)`` into ``(*, C * r ** 2, H, W)``."""
    x = _arr(input)
    r = check_int("downscale_factor", downscale_factor, 1)
    if x.ndim < 3 or x.shape[-1] % r or x.shape[-2] % r:
        raise ValueError(f"the spatial axes of 'input' {x.shape} must be divisible by downscale_factor {r}")
    *lead, c, h, w = x.shape
    y = x.reshape(tuple(lead) + (c, h // r, r, w // r, r))
    nd = len(lead)
    y = jnp.transpose(y, tuple(builtins.range(nd)) + (nd, nd + 2, nd + 4, nd + 1, nd + 3))
    return y.reshape(tuple(lead) + (c * r * r, h // r, w // r))


# --- resampling and padding -------------------------------------------------------------------------

def _unnormalise(coord: jax.Array, size: int, align_corners: bool) -> jax.Array:
    if align_corners:
        return (coord + 1) / 2 * (size - 1)
    return ((coord + 1) * size - 1) / 2


def _reflect(coord: jax.Array, lo: float, hi: float) -> jax.Array:
    span = hi - lo
    if span <= 0:
        return jnp.zeros_like(coord)
    c = jnp.abs(coord - lo)
    flips = jnp.floor(c / span)
    extra = c - flips * span
    return jnp.where(jnp.mod(flips, 2) == 0, lo + extra, hi - extra)


def _source_coord(coord: jax.Array, size: int, padding_mode: str, align_corners: bool) -> jax.Array:
    c = _unnormalise(coord, size, align_corners)
    if padding_mode == "border":
        c = jnp.clip(c, 0, size - 1)
    elif padding_mode == "reflection":
        c = _reflect(c, 0.0, size - 1.0) if align_corners else jnp.clip(_reflect(c, -0.5, size - 0.5), 0, size - 1)
    return c


@tensor_op
@_named("grid_sample")
def grid_sample(input: Any, grid: Any, mode: str = "bilinear", padding_mode: str = "zeros",
                align_corners: bool | None = None) -> jax.Array:
    """Sample ``input`` at the normalised coordinates ``grid`` (``-1`` and ``1`` are the corners).

    Arguments:
        input: ``(N, C, H, W)`` or ``(N, C, D, H, W)``.
        grid: ``(N, H_out, W_out, 2)`` or ``(N, D_out, H_out, W_out, 3)``, coordinates ordered ``x, y[, z]``.
        mode: ``'bilinear'`` (trilinear for 5-D) or ``'nearest'``.
        padding_mode: ``'zeros'``, ``'border'`` or ``'reflection'`` for coordinates outside.
        align_corners: whether -1 and 1 are the centres (True) or the edges (False, the default) of the
            corner pixels.

    Returns:
        ``(N, C, H_out, W_out)`` or ``(N, C, D_out, H_out, W_out)``.
    """
    x, g = _arr(input), _arr(grid)
    if mode not in ("bilinear", "nearest"):
        raise ValueError(f"'mode' must be 'bilinear' or 'nearest', got {mode!r}")
    if padding_mode not in ("zeros", "border", "reflection"):
        raise ValueError(f"'padding_mode' must be 'zeros', 'border' or 'reflection', got {padding_mode!r}")
    align = bool(align_corners) if align_corners is not None else False
    n_sp = x.ndim - 2
    if n_sp not in (2, 3) or g.ndim != x.ndim or g.shape[-1] != n_sp or g.shape[0] != x.shape[0]:
        raise ValueError(f"'input' must be 4-D or 5-D and 'grid' (N, *out, {n_sp}) with the same N, got "
                         f"{x.shape} and {g.shape}")
    sizes = x.shape[2:]
    # grid's last axis is (x, y[, z]) = (W, H[, D]): reverse to match the spatial axes.
    coords = [_source_coord(g[..., n_sp - 1 - i].astype(jnp.float32), sizes[i], padding_mode, align)
              for i in builtins.range(n_sp)]
    xf = x.astype(jnp.float32) if not jnp.issubdtype(x.dtype, jnp.floating) else x

    def gather(idx: list[jax.Array]) -> tuple[jax.Array, jax.Array]:
        valid = jnp.ones(idx[0].shape, bool)
        clipped = []
        for i, v in enumerate(idx):
            valid &= (v >= 0) & (v <= sizes[i] - 1)
            clipped.append(jnp.clip(v, 0, sizes[i] - 1).astype(jnp.int32))
        batch = jnp.arange(x.shape[0]).reshape((-1,) + (1,) * (idx[0].ndim - 1))
        vals = jnp.moveaxis(xf, 1, -1)[(batch,) + tuple(clipped)]  # (N, *out, C)
        return vals, valid

    if mode == "nearest":
        idx = [jnp.round(c) for c in coords]
        vals, valid = gather(idx)
        out = jnp.where(valid[..., None], vals, 0)
    else:
        floors = [jnp.floor(c) for c in coords]
        out = jnp.zeros(g.shape[:-1] + (x.shape[1],), xf.dtype)
        for corner in np.ndindex(*(2,) * n_sp):
            idx = [floors[i] + corner[i] for i in builtins.range(n_sp)]
            w = jnp.ones(g.shape[:-1], jnp.float32)
            for i in builtins.range(n_sp):
                frac = coords[i] - floors[i]
                w = w * (frac if corner[i] else 1 - frac)
            vals, valid = gather(idx)
            out = out + jnp.where(valid[..., None], vals, 0) * w[..., None].astype(xf.dtype)
    return jnp.moveaxis(out, -1, 1).astype(xf.dtype)


@tensor_op
@_named("upsample")
def upsample(input: Any, size: Any = None, scale_factor: Any = None, mode: str = "nearest",
             align_corners: bool | None = None, recompute_scale_factor: bool | None = None) -> jax.Array:
    """Alias of ``ops.interpolate``."""
    return interpolate(input, size, scale_factor, mode, align_corners, recompute_scale_factor)


@tensor_op
@_named("mirror_pad")
def mirror_pad(input_x: Any, paddings: Any, mode: str) -> jax.Array:
    """Pad every axis by reflection: ``'REFLECT'`` excludes the edge, ``'SYMMETRIC'`` repeats it.

    Arguments:
        input_x: an array.
        paddings: ``(ndim, 2)`` before/after amounts (a nested tuple or an integer array).
        mode: ``'REFLECT'`` or ``'SYMMETRIC'``.
    """
    x = _arr(input_x)
    pads = np.asarray(_arr(paddings) if not isinstance(paddings, (list, tuple)) else paddings).reshape(-1, 2)
    if pads.shape[0] != x.ndim:
        raise ValueError(f"'paddings' must have {x.ndim} rows for input {x.shape}, got {pads.shape}")
    if mode not in ("REFLECT", "SYMMETRIC"):
        raise ValueError(f"'mode' must be 'REFLECT' or 'SYMMETRIC', got {mode!r}")
    return jnp.pad(x, [tuple(int(v) for v in row) for row in pads], mode=mode.lower())


# --- losses -------------------------------------------------------------------------------------------

def _loss_inputs(op: str, a: Any, b: Any, names: tuple[str, str]) -> tuple[jax.Array, jax.Array]:
    x, y = _arr(a), _arr(b)
    try:
        jnp.broadcast_shapes(x.shape, y.shape)
    except ValueError:
        raise ValueError(f"'{names[0]}' {x.shape} and '{names[1]}' {y.shape} must broadcast together") from None
    return _float(x), _float(y)


@tensor_op
@_named("binary_cross_entropy")
def binary_cross_entropy(logits: Any, labels: Any, weight: Any = None, reduction: str = "mean") -> jax.Array:
    """Binary cross entropy of probabilities ``logits`` against ``labels``:
    ``-w * (y * log(x) + (1 - y) * log(1 - x))``, logs clamped at -100.

    Arguments:
        logits: probabilities in [0, 1].
        labels: targets of the same shape.
        weight: optional rescaling, broadcastable to the input.
        reduction: ``'none'``, ``'mean'`` or ``'sum'``.

    Returns:
        the loss.
    """
    check_reduction(reduction)
    x, y = _loss_inputs("binary_cross_entropy", logits, labels, ("logits", "labels"))
    loss = -(y * jnp.maximum(jnp.log(x), -100.0) + (1 - y) * jnp.maximum(jnp.log1p(-x), -100.0))
    if weight is not None:
        loss = loss * _arr(weight)
    return reduce_loss(loss, reduction)


@tensor_op
@_named("huber_loss")
def huber_loss(input: Any, target: Any, reduction: str = "mean", delta: float = 1.0) -> jax.Array:
    """Huber loss: ``0.5 d ** 2`` where ``|d| < delta``, ``delta * (|d| - 0.5 delta)`` elsewhere, ``d = input - target``."""
    check_reduction(reduction)
    delta = check_number("delta", delta)
    if delta <= 0:
        raise ValueError(f"'delta' must be positive, got {delta}")
    x, y = _loss_inputs("huber_loss", input, target, ("input", "target"))
    d = jnp.abs(x - y)
    loss = jnp.where(d < delta, 0.5 * d * d, delta * (d - 0.5 * delta))
    return reduce_loss(loss, reduction)


@tensor_op
@_named("gaussian_nll_loss")
def gaussian_nll_loss(x: Any, target: Any, var: Any, full: bool = False, eps: float = 1e-06,
                      reduction: str = "mean") -> jax.Array:
    """Gaussian negative log-likelihood ``0.5 * (log(max(var, eps)) + (x - target) ** 2 / max(var, eps))``
    (+ ``0.5 log(2 pi)`` when ``full``).

    Arguments:
        x: the predicted means.
        target: the samples.
        var: the predicted variances (positive), of ``x``'s shape or with one fewer axis / a last axis of 1.
        full: add the constant term.
        eps: the variance floor.
        reduction: ``'none'``, ``'mean'`` or ``'sum'``.
    """
    check_reduction(reduction)
    check_bool("full", full)
    xa, t = _float(_arr(x)), _float(_arr(target))
    v = _float(_arr(var))
    if v.shape != xa.shape:
        if v.shape == xa.shape[:-1]:
            v = v[..., None]
        elif not (v.shape[:-1] == xa.shape[:-1] and v.shape[-1] == 1):
            raise ValueError(f"'var' shape {v.shape} must match 'x' {xa.shape}, or drop / set to 1 its last axis")
    v = jnp.maximum(v, check_number("eps", eps))
    loss = 0.5 * (jnp.log(v) + (xa - t) ** 2 / v)
    if full:
        loss = loss + 0.5 * math.log(2 * math.pi)
    return reduce_loss(loss, reduction)


@tensor_op
@_named("margin_ranking_loss")
def margin_ranking_loss(input1: Any, input2: Any, target: Any, margin: float = 0.0,
                        reduction: str = "mean") -> jax.Array:
    """``max(0, -target * (input1 - input2) + margin)``, targets being 1 or -1."""
    check_reduction(reduction)
    a, b = _float(_arr(input1)), _float(_arr(input2))
    y = _arr(target).astype(a.dtype)
    return reduce_loss(jax.nn.relu(-y * (a - b) + check_number("margin", margin)), reduction)


@tensor_op
@_named("hinge_embedding_loss")
def hinge_embedding_loss(inputs: Any, targets: Any, margin: float = 1.0, reduction: str = "mean") -> jax.Array:
    """``inputs`` where the target is 1, ``max(0, margin - inputs)`` where it is -1."""
    check_reduction(reduction)
    x = _float(_arr(inputs))
    y = _arr(targets).astype(x.dtype)
    m = check_number("margin", margin)
    loss = jnp.where(y == 1, x, 0) + jnp.where(y == -1, jax.nn.relu(m - x), 0)
    return reduce_loss(loss, reduction)


@tensor_op
@_named("cosine_embedding_loss")
def cosine_embedding_loss(input1: Any, input2: Any, target: Any, margin: float = 0.0,
                          reduction: str = "mean") -> jax.Array:
    """``1 - cos(x1, x2)`` where the target is 1, ``max(0, cos(x1, x2) - margin)`` where it is -1;
    the cosine is taken over axis 1."""
    check_reduction(reduction)
    a, b = _float(_arr(input1)), _float(_arr(input2))
    if a.shape != b.shape or a.ndim < 2:
        raise ValueError(f"'input1' and 'input2' must have one shape of rank >= 2, got {a.shape} and {b.shape}")
    m = check_number("margin", margin)
    eps = 1e-12
    dot_ = jnp.sum(a * b, axis=1)
    cos = dot_ / jnp.sqrt((jnp.sum(a * a, axis=1) + eps) * (jnp.sum(b * b, axis=1) + eps))
    y = _arr(target)
    loss = jnp.where(y == 1, 1 - cos, jnp.where(y == -1, jax.nn.relu(cos - m), 0))
    return reduce_loss(loss, reduction)


@tensor_op
@_named("soft_margin_loss")
def soft_margin_loss(input: Any, target: Any, reduction: str = "mean") -> jax.Array:
    """``log(1 + exp(-target * input))``."""
    check_reduction(reduction)
    x, y = _loss_inputs("soft_margin_loss", input, target, ("input", "target"))
    return reduce_loss(jax.nn.softplus(-y * x), reduction)


@tensor_op
@_named("multi_margin_loss")
def multi_margin_loss(input: Any, target: Any, p: int = 1, margin: float = 1, weight: Any = None,
                      reduction: str = "mean") -> jax.Array:
    """Multi-class hinge loss ``sum_{i != y} max(0, margin - x[y] + x[i]) ** p / C`` (times ``weight[y]``).

    Arguments:
        input: ``(N, C)`` scores.
        target: ``(N,)`` class indices.
        p: 1 or 2.
        margin: the margin.
        weight: optional ``(C,)`` class weights.
        reduction: ``'none'``, ``'mean'`` or ``'sum'``.
    """
    check_reduction(reduction)
    if p not in (1, 2):
        raise ValueError(f"'p' must be 1 or 2, got {p!r}")
    x = _float(_arr(input))
    if x.ndim == 1:
        x = x[None]
    y = _arr(target).reshape(-1).astype(jnp.int32)
    c = x.shape[1]
    xy = jnp.take_along_axis(x, y[:, None], axis=1)
    terms = jax.nn.relu(check_number("margin", margin) - xy + x) ** p
    if weight is not None:
        terms = terms * _arr(weight).astype(x.dtype)[y][:, None]
    terms = jnp.where(jnp.arange(c)[None, :] == y[:, None], 0, terms)
    return reduce_loss(jnp.sum(terms, axis=1) / c, reduction)


@tensor_op
@_named("multilabel_margin_loss")
def multilabel_margin_loss(input: Any, target: Any, reduction: str = "mean") -> jax.Array:
    """Multi-label hinge loss: for each target class ``j`` (the leading non-negative entries of ``target``)
    and each non-target class ``i``, ``max(0, 1 - (x[j] - x[i])) / C``."""
    check_reduction(reduction)
    x = _float(_arr(input))
    y = _arr(target).astype(jnp.int32)
    squeeze = x.ndim == 1
    if squeeze:
        x, y = x[None], y[None]
    if x.shape != y.shape:
        raise ValueError(f"'input' and 'target' must have one shape, got {x.shape} and {y.shape}")
    c = x.shape[1]
    # targets count up to the first -1.
    valid = jnp.cumprod(y >= 0, axis=1).astype(bool)
    is_target = jnp.zeros(x.shape, bool).at[jnp.arange(x.shape[0])[:, None], jnp.where(valid, y, 0)].max(valid)
    xj = jnp.take_along_axis(x, jnp.where(valid, y, 0), axis=1)  # (N, C): x at target slot k
    hinge = jax.nn.relu(1 - (xj[:, :, None] - x[:, None, :]))  # (N, k, i)
    mask = valid[:, :, None] & ~is_target[:, None, :]
    loss = jnp.sum(jnp.where(mask, hinge, 0), axis=(1, 2)) / c
    loss = loss[0] if squeeze and reduction == "none" else loss
    return reduce_loss(loss, reduction)


@tensor_op
@_named("multilabel_soft_margin_loss")
def multilabel_soft_margin_loss(input: Any, target: Any, weight: Any = None, reduction: str = "mean") -> jax.Array:
    """``-mean_c(w * (y log sigmoid(x) + (1 - y) log sigmoid(-x)))`` per sample."""
    check_reduction(reduction)
    x, y = _loss_inputs("multilabel_soft_margin_loss", input, target, ("input", "target"))
    terms = y * jax.nn.log_sigmoid(x) + (1 - y) * jax.nn.log_sigmoid(-x)
    if weight is not None:
        terms = terms * _arr(weight)
    return reduce_loss(-jnp.mean(terms, axis=-1), reduction)


def _pairwise_distance(a: jax.Array, b: jax.Array, p: float, eps: float) -> jax.Array:
    return _vector_p_norm(a - b + eps, p)


def _vector_p_norm(d: jax.Array, p: float) -> jax.Array:
    ad = jnp.abs(d)
    if p == float("inf"):
        return jnp.max(ad, axis=-1)
    return jnp.sum(ad ** p, axis=-1) ** (1.0 / p)


@tensor_op
@_named("triplet_margin_loss")
def triplet_margin_loss(anchor: Any, positive: Any, negative: Any, margin: float = 1.0, p: int = 2,
                        eps: float = 1e-06, swap: bool = False, reduction: str = "mean") -> jax.Array:
    """``max(d(a, p) - d(a, n) + margin, 0)`` with ``d`` the ``p``-norm distance of ``x - y + eps``;
    ``swap`` uses ``min(d(a, n), d(p, n))`` as the negative distance."""
    check_reduction(reduction)
    a, pos, neg = (_float(_arr(v)) for v in (anchor, positive, negative))
    p_, e = check_number("p", p), check_number("eps", eps)
    d_pos = _pairwise_distance(a, pos, p_, e)
    d_neg = _pairwise_distance(a, neg, p_, e)
    if check_bool("swap", swap):
        d_neg = jnp.minimum(d_neg, _pairwise_distance(pos, neg, p_, e))
    return reduce_loss(jax.nn.relu(d_pos - d_neg + check_number("margin", margin)), reduction)


def _log_add(a: jax.Array, b: jax.Array) -> jax.Array:
    """``logaddexp`` whose gradient is 0, not NaN, where both terms are -inf (impossible CTC paths)."""
    top = jnp.maximum(a, b)
    finite = jnp.isfinite(top)
    a_safe, b_safe, top_safe = (jnp.where(finite, v, 0) for v in (a, b, top))
    return jnp.where(finite, top_safe + jnp.log(jnp.exp(a_safe - top_safe) + jnp.exp(b_safe - top_safe)), top)


def _ctc_nll(log_probs: jax.Array, targets: jax.Array, input_lengths: jax.Array, target_lengths: jax.Array,
             blank: int) -> tuple[jax.Array, jax.Array]:
    """Per-sample CTC negative log-likelihood by the forward (alpha) recursion in log space, and the
    ``(N, T, 2S + 1)`` table of log-alphas."""
    t_max, n, _ = log_probs.shape
    s_max = targets.shape[1]
    ext_len = 2 * s_max + 1
    ext = jnp.full((n, ext_len), blank, jnp.int32).at[:, 1::2].set(targets.astype(jnp.int32))
    neg_inf = jnp.asarray(-jnp.inf, log_probs.dtype)
    # skip from s-2 allowed where ext[s] is a label different from ext[s-2].
    prev2 = jnp.concatenate([jnp.full((n, 2), blank, jnp.int32), ext[:, :-2]], axis=1)
    can_skip = (ext != blank) & (ext != prev2)
    emit = jnp.take_along_axis(log_probs, jnp.broadcast_to(ext[None], (t_max, n, ext_len)), axis=2)  # (T, N, S')
    alpha0 = jnp.full((n, ext_len), neg_inf).at[:, 0].set(emit[0, :, 0])
    alpha0 = alpha0.at[:, 1].set(jnp.where(target_lengths > 0, emit[0, :, 1], neg_inf)) if ext_len > 1 else alpha0

    def step(alpha: jax.Array, inputs: tuple[jax.Array, jax.Array]) -> tuple[jax.Array, jax.Array]:
        e, t = inputs
        a1 = jnp.concatenate([jnp.full((n, 1), neg_inf), alpha[:, :-1]], axis=1)
        a2 = jnp.concatenate([jnp.full((n, 2), neg_inf), alpha[:, :-2]], axis=1)
        a2 = jnp.where(can_skip, a2, neg_inf)
        new = _log_add(_log_add(alpha, a1), a2) + e
        active = (t < input_lengths)[:, None]
        out = jnp.where(active, new, alpha)
        return out, jnp.where(active, new, neg_inf)

    alpha, table = jax.lax.scan(step, alpha0, (emit[1:], jnp.arange(1, t_max)))
    table = jnp.concatenate([alpha0[None], table], axis=0).swapaxes(0, 1)
    last = 2 * target_lengths.astype(jnp.int32)
    end_blank = jnp.take_along_axis(alpha, last[:, None], axis=1)[:, 0]
    end_label = jnp.where(target_lengths > 0,
                          jnp.take_along_axis(alpha, jnp.maximum(last - 1, 0)[:, None], axis=1)[:, 0], neg_inf)
    return -_log_add(end_blank, end_label), table


@tensor_op
@_named("ctc_loss")
def ctc_loss(log_probs: Any, targets: Any, input_lengths: Any, target_lengths: Any, blank: int = 0,
             reduction: str = "mean", zero_infinity: bool = False) -> tuple[jax.Array, jax.Array]:
    """Connectionist Temporal Classification loss.

    Arguments:
        log_probs: ``(T, N, C)`` log-probabilities.
        targets: ``(N, S)`` padded target labels.
        input_lengths: ``(N,)`` used lengths of each input.
        target_lengths: ``(N,)`` lengths of each target.
        blank: the blank label.
        reduction: ``'none'``, ``'mean'`` (each loss divided by its target length, then averaged) or ``'sum'``.
        zero_infinity: replace infinite losses (impossible alignments) with zero.

    Returns:
        ``(loss, log_alpha)``: the loss and the ``(N, T, 2S + 1)`` table of forward log-probabilities
        (``-inf`` past each input's length).
    """
    check_reduction(reduction)
    lp = _float(_arr(log_probs))
    if lp.ndim != 3:
        raise ValueError(f"'log_probs' must be (T, N, C), got shape {lp.shape}")
    tg = _arr(targets)
    if tg.ndim == 1:
        tg = tg[None]
    il = _arr(input_lengths).reshape(-1).astype(jnp.int32)
    tl = _arr(target_lengths).reshape(-1).astype(jnp.int32)
    b = check_int("blank", blank, 0)
    nll, log_alpha = _ctc_nll(lp, tg, il, tl, b)
    if check_bool("zero_infinity", zero_infinity):
        nll = jnp.where(jnp.isinf(nll), 0, nll)
    if reduction == "mean":
        out = jnp.mean(nll / jnp.maximum(tl, 1).astype(nll.dtype))
    elif reduction == "sum":
        out = jnp.sum(nll)
    else:
        out = nll
    return out, log_alpha


@tensor_op
@_named("mse_loss_ext")
def mse_loss_ext(input: Any, target: Any, reduction: str = "mean") -> jax.Array:
    """Mean squared error ``(input - target) ** 2`` with broadcasting."""
    check_reduction(reduction)
    x, y = _loss_inputs("mse_loss_ext", input, target, ("input", "target"))
    return reduce_loss((x - y) ** 2, reduction)


# --- misc ---------------------------------------------------------------------------------------------

@tensor_op
@_named("pdist")
def pdist(input: Any, p: float = 2.0) -> jax.Array:
    """The ``p``-norm distances between all pairs of rows of ``(*, N, M)``, upper triangle order."""
    x = _float(_arr(input))
    if x.ndim < 2:
        raise ValueError(f"'input' must be at least 2-D, got shape {x.shape}")
    p = check_number("p", p)
    if p < 0:
        raise ValueError(f"'p' must be non-negative, got {p}")
    n = x.shape[-2]
    i, j = np.triu_indices(n, 1)
    d = x[..., i, :] - x[..., j, :]
    if p == 0:
        return jnp.sum((d != 0).astype(x.dtype), axis=-1)
    return _vector_p_norm(d, p)


@tensor_op
@_named("fliplr")
def fliplr(input: Any) -> jax.Array:
    """Reverse axis 1 (the input must be at least 2-D)."""
    x = _arr(input)
    if x.ndim < 2:
        raise ValueError(f"'input' must be at least 2-D, got shape {x.shape}")
    return jnp.flip(x, 1)


@tensor_op
@_named("flipud")
def flipud(input: Any) -> jax.Array:
    """Reverse axis 0 (the input must be at least 1-D)."""
    x = _arr(input)
    if x.ndim < 1:
        raise ValueError("'input' must be at least 1-D, got a scalar")
    return jnp.flip(x, 0)


@tensor_op
@_named("msort")
def msort(input: Any) -> jax.Array:
    """Sort along axis 0 in ascending order."""
    return jnp.sort(_arr(input), axis=0)


@tensor_op
def is_floating_point(input: Any) -> bool:
    """Whether the input's dtype is a floating-point type."""
    return bool(jnp.issubdtype(_arr(input).dtype, jnp.floating))


@tensor_op
@_named("intopk")
def intopk(x1: Any, x2: Any, k: int) -> jax.Array:
    """Whether each target ``x2[i]`` is among the ``k`` largest entries of row ``x1[i]`` (ties count as in)."""
    a = _arr(x1)
    t = _arr(x2).astype(jnp.int32)
    if a.ndim != 2 or t.shape != (a.shape[0],):
        raise ValueError(f"'x1' must be 2-D and 'x2' (x1.shape[0],), got {a.shape} and {t.shape}")
    k = check_int("k", k)
    target = jnp.take_along_axis(a, t[:, None], axis=1)
    better = jnp.sum(a > target, axis=1)
    return (better < k) & jnp.all(jnp.isfinite(target), axis=1)


_ATTENTION = ("ops.softmax(ops.matmul(query, key.swapaxes(-1, -2)) * scale) @ value, or "
              "nn.MultiheadAttention")
flash_attention_score = ascend_only("flash_attention_score", _ATTENTION, _M)
fused_infer_attention_score = ascend_only("fused_infer_attention_score", _ATTENTION, _M)
incre_flash_attention = ascend_only("incre_flash_attention", _ATTENTION, _M)
prompt_flash_attention = ascend_only("prompt_flash_attention", _ATTENTION, _M)
speed_fusion_attention = ascend_only("speed_fusion_attention", _ATTENTION, _M)
nsa_compress = ascend_only("nsa_compress", "ops.reshape and ops.mean over the compression blocks", _M)
nsa_select_attention = ascend_only("nsa_select_attention", _ATTENTION, _M)
lightning_indexer = ascend_only("lightning_indexer", "ops.topk over the attention scores", _M)
ring_attention_update = ascend_only("ring_attention_update",
                                    "ops.logsumexp to combine the partial softmax statistics", _M)
moe_token_permute = ascend_only("moe_token_permute", "ops.argsort of the expert indices and ops.gather", _M)
moe_token_unpermute = ascend_only("moe_token_unpermute", "ops.gather with the inverse permutation and ops.sum", _M)


@tensor_op
@_named("ctc_greedy_decoder")
def ctc_greedy_decoder(inputs: Any, sequence_length: Any, merge_repeated: bool = True) -> tuple[jax.Array, ...]:
    """Greedy (best path) CTC decoding; the blank is the last class. Eager only (the output length depends on
    the values).

    Arguments:
        inputs: ``(max_time, batch_size, num_classes)`` float32 or float64 logits.
        sequence_length: ``(batch_size,)`` int32 lengths, each at most ``max_time``.
        merge_repeated: merge repeated classes. Default: ``True``.

    Returns:
        ``(decoded_indices, decoded_values, decoded_shape, log_probability)``: int64 ``(total, 2)`` sparse
        indices, int64 ``(total,)`` classes, the int64 dense shape ``(batch_size, max_decoded_length)``, and the
        ``(batch_size, 1)`` negative sum of each step's largest logit.
    """
    from mindjax.ops.functional_array import _eager

    _eager("ctc_greedy_decoder", inputs, sequence_length)
    check_bool("merge_repeated", merge_repeated)
    x, lengths = np.asarray(_arr(inputs)), np.asarray(_arr(sequence_length))
    if x.ndim != 3:
        raise ValueError(f"For 'ctc_greedy_decoder', 'inputs' must be 3-D, but got shape {x.shape}.")
    if x.dtype not in (np.float32, np.float64):
        raise TypeError(f"For 'ctc_greedy_decoder', 'inputs' must be float32 or float64, but got {x.dtype}.")
    if lengths.shape != (x.shape[1],) or lengths.dtype != np.int32:
        raise ValueError(f"For 'ctc_greedy_decoder', 'sequence_length' must be int32 of shape ({x.shape[1]},), but got "
                         f"{lengths.dtype} of shape {lengths.shape}.")
    if np.any(lengths > x.shape[0]) or np.any(lengths < 0):
        raise ValueError(f"For 'ctc_greedy_decoder', each 'sequence_length' must be in [0, {x.shape[0]}], but got "
                         f"{lengths.tolist()}.")
    blank = x.shape[2] - 1
    best = x.argmax(axis=2)
    indices, values, log_prob, longest = [], [], [], 0
    for b in range(x.shape[1]):
        steps = int(lengths[b])
        log_prob.append(-x[:steps, b].max(axis=1).sum())
        decoded, previous = [], -1
        for t in range(steps):
            c = int(best[t, b])
            if c != blank and not (merge_repeated and c == previous):
                decoded.append(c)
            previous = c
        indices += [(b, i) for i in range(len(decoded))]
        values += decoded
        longest = max(longest, len(decoded))
    return (jnp.asarray(np.array(indices, np.int64).reshape(-1, 2)), jnp.asarray(np.array(values, np.int64)),
            jnp.asarray(np.array([x.shape[1], longest], np.int64)),
            jnp.asarray(np.array(log_prob, x.dtype).reshape(-1, 1)))


# -- multi-head attention ---------------------------------------------------------------------
_MHA = "multi_head_attention_forward"


def _mha_linear(x: jax.Array, w: jax.Array, b: Any) -> jax.Array:
    out = jnp.matmul(x, jnp.swapaxes(w, -1, -2))
    return out if b is None else out + b


def _mha_additive(mask: jax.Array, dtype: Any) -> jax.Array:
    """A boolean mask becomes 0 / -inf (true = ignore); a float mask is added as given."""
    if mask.dtype == jnp.bool_:
        return jnp.where(mask, jnp.asarray(-jnp.inf, dtype), jnp.asarray(0, dtype))
    return mask.astype(dtype)


def _mha_pad_last(mask: Any) -> Any:
    return None if mask is None else jnp.pad(mask, [(0, 0)] * (mask.ndim - 1) + [(0, 1)])


def _mha_check_shapes(query: jax.Array, key: jax.Array, value: jax.Array, key_padding_mask: Any,
                      attn_mask: Any, num_heads: int) -> bool:
    """MindSpore's rank checks of the inputs and masks; whether the inputs are batched."""
    if query.ndim not in (2, 3):
        raise ValueError(f"For '{_MHA}', the 'query' should be unbatched 2D or batched 3D tensor, but got 'query' "
                         f"with {query.ndim}D.")
    batched = query.ndim == 3
    if key.ndim != query.ndim or value.ndim != query.ndim:
        raise ValueError(f"For '{_MHA}', for {'batched' if batched else 'unbatched'} 'query', the 'key' and 'value' "
                         f"must be {query.ndim}D tensor, but got 'key' with {key.ndim}D and 'value' with "
                         f"{value.ndim}D.")
    if key_padding_mask is not None and key_padding_mask.ndim != query.ndim - 1:
        raise ValueError(f"For '{_MHA}', for {'batched' if batched else 'unbatched'} 'query', the "
                         f"'key_padding_mask' must be None or {query.ndim - 1}D, but got 'key_padding_mask' with "
                         f"{key_padding_mask.ndim}D.")
    if attn_mask is not None:
        if attn_mask.ndim not in (2, 3):
            raise ValueError(f"For '{_MHA}', the 'attn_mask' must be None, 2-D or 3-D, but got 'attn_mask' with "
                             f"{attn_mask.ndim}D.")
        if not batched and attn_mask.ndim == 3:
            expected = (num_heads, query.shape[0], key.shape[0])
            if tuple(attn_mask.shape) != expected:
                raise ValueError(f"For '{_MHA}', the shape of 'attn_mask' must be {expected}, but got "
                                 f"{tuple(attn_mask.shape)}.")
    return batched


def _mha_in_projection(query: jax.Array, key: jax.Array, value: jax.Array, in_proj_weight: Any, in_proj_bias: Any,
                       use_separate_proj_weight: bool, q_proj_weight: Any, k_proj_weight: Any,
                       v_proj_weight: Any) -> tuple[jax.Array, jax.Array, jax.Array]:
    e = query.shape[-1]
    if in_proj_bias is None:
        b_q = b_k = b_v = None
    else:
        bias = _arr(in_proj_bias)
        if bias.shape != (3 * e,):
            raise ValueError(f"For '{_MHA}', expecting 'in_proj_bias' of shape {(3 * e,)}, but got {bias.shape}.")
        b_q, b_k, b_v = bias[:e], bias[e:2 * e], bias[2 * e:]
    if not use_separate_proj_weight:
        if in_proj_weight is None:
            raise ValueError(f"For '{_MHA}', 'use_separate_proj_weight' is False but 'in_proj_weight' got None.")
        w = _arr(in_proj_weight)
        if w.shape != (3 * e, e):
            raise ValueError(f"For '{_MHA}', expecting 'in_proj_weight' of shape {(3 * e, e)}, but got {w.shape}.")
        w_q, w_k, w_v = w[:e], w[e:2 * e], w[2 * e:]
    else:
        named = (("q_proj_weight", q_proj_weight, query), ("k_proj_weight", k_proj_weight, key),
                 ("v_proj_weight", v_proj_weight, value))
        for name, weight, x in named:
            if weight is None:
                raise ValueError(f"For '{_MHA}', 'use_separate_proj_weight' is True but '{name}' got None.")
            if tuple(_arr(weight).shape) != (e, x.shape[-1]):
                raise ValueError(f"For '{_MHA}', expecting '{name}' of shape {(e, x.shape[-1])}, but got "
                                 f"{tuple(_arr(weight).shape)}.")
        w_q, w_k, w_v = (_arr(w) for w in (q_proj_weight, k_proj_weight, v_proj_weight))
    return _mha_linear(query, w_q, b_q), _mha_linear(key, w_k, b_k), _mha_linear(value, w_v, b_v)


def _mha_static(name: str, static: Any, rows: int, head_dim: int) -> jax.Array:
    static = _arr(static)
    if static.ndim != 3 or static.shape[0] != rows or static.shape[2] != head_dim:
        raise ValueError(f"For '{_MHA}', '{name}' must be of shape ({rows}, src_len, {head_dim}), but got "
                         f"{tuple(static.shape)}.")
    return static


@tensor_op
@_named(_MHA)
def multi_head_attention_forward(query: Any, key: Any, value: Any, embed_dim_to_check: int, num_heads: int,
                                 in_proj_weight: Any, in_proj_bias: Any, bias_k: Any, bias_v: Any,
                                 add_zero_attn: bool, dropout_p: float, out_proj_weight: Any, out_proj_bias: Any,
                                 training: bool = True, key_padding_mask: Any = None, attn_mask: Any = None,
                                 use_separate_proj_weight: bool = False, q_proj_weight: Any = None,
                                 k_proj_weight: Any = None, v_proj_weight: Any = None, static_k: Any = None,
                                 static_v: Any = None, average_attn_weights: bool = True, is_causal: bool = False,
                                 k_is_v: bool = False, q_is_k: bool = False,
                                 dtype: Any = jnp.float32) -> tuple[jax.Array, jax.Array]:
    """Multi-head attention (``mindspore.ops.function.nn_func.multi_head_attention_forward``, what
    ``nn.MultiheadAttention`` computes).

    Query and key are each divided by ``head_dim ** 0.25`` before their product, as MindSpore does.
    Boolean masks are true where a key is ignored (they become ``-inf``); float masks are added to
    the scores. Two deliberate differences from MindSpore 2.10, where its numbers ignore its own
    documentation: a boolean mask combined with a float one becomes ``-inf`` where true before they
    are added (MindSpore adds it as 1.0), and ``is_causal`` masks the keys after each query (MindSpore
    adds 1.0 to the allowed scores and drops ``attn_mask``). Masks of one kind give MindSpore's numbers.

    Arguments:
        query: ``(L, N, E)``, or unbatched ``(L, E)``.
        key, value: ``(S, N, E_k)`` / ``(S, N, E_v)``, or unbatched ``(S, E_k)`` / ``(S, E_v)``.
        embed_dim_to_check: ``E``, checked against ``query``.
        num_heads: heads; ``E`` must be divisible by it.
        in_proj_weight, in_proj_bias: the packed ``(3E, E)`` projection and its ``(3E,)`` bias (or None).
        bias_k, bias_v: ``(1, 1, E)`` rows appended to the keys and values, or None (both or neither).
        add_zero_attn: append a zero key and value.
        dropout_p: dropout on the attention weights, when ``training``.
        out_proj_weight, out_proj_bias: the ``(E, E)`` output projection and its bias (or None).
        training: apply dropout.
        key_padding_mask: ``(N, S)`` (unbatched ``(S,)``), bool or float.
        attn_mask: ``(L, S)`` or ``(N * num_heads, L, S)``; bool, uint8 or float.
        use_separate_proj_weight: project with ``q_proj_weight`` ``(E, E)``, ``k_proj_weight`` ``(E, E_k)``
            and ``v_proj_weight`` ``(E, E_v)`` instead of ``in_proj_weight``.
        static_k, static_v: ``(N * num_heads, S, E / num_heads)`` keys/values used as they are.
        average_attn_weights: average the weights over the heads.
        is_causal: each query attends to the keys up to its own position.
        k_is_v, q_is_k: MindSpore's hints that the inputs are the same tensor (the result is the same).
        dtype: the dtype of the scaling factor. Default ``float32``.

    Returns:
        ``(attn_output, attn_weights)``: ``(L, N, E)`` (unbatched ``(L, E)``), and ``(N, L, S)``, or
        ``(N, num_heads, L, S)`` without averaging (unbatched without the ``N`` axis).
    """
    del k_is_v, q_is_k  # the packed projection gives the same numbers whichever inputs are shared
    query, key, value = (_arr(t) for t in (query, key, value))
    key_padding_mask = None if key_padding_mask is None else _arr(key_padding_mask)
    attn_mask = None if attn_mask is None else _arr(attn_mask)
    num_heads = check_int("num_heads", num_heads)
    if num_heads <= 0:
        raise ValueError(f"For '{_MHA}', 'num_heads' must be positive, but got {num_heads}.")
    batched = _mha_check_shapes(query, key, value, key_padding_mask, attn_mask, num_heads)
    if not batched:
        query, key, value = (jnp.expand_dims(t, 1) for t in (query, key, value))
        if key_padding_mask is not None:
            key_padding_mask = jnp.expand_dims(key_padding_mask, 0)
    tgt_len, bsz, embed_dim = query.shape
    if key_padding_mask is not None and key_padding_mask.dtype != jnp.bool_ \
            and not jnp.issubdtype(key_padding_mask.dtype, jnp.floating):
        raise ValueError(f"For '{_MHA}', the 'key_padding_mask' only supports bool and floating dtypes, but got "
                         f"{key_padding_mask.dtype}.")
    if embed_dim != embed_dim_to_check:
        raise ValueError(f"For '{_MHA}', the 'embed_dim' should be {embed_dim_to_check}, but got {embed_dim}.")
    head_dim = embed_dim // num_heads
    if head_dim * num_heads != embed_dim:
        raise ValueError(f"For '{_MHA}', the 'embed_dim' {embed_dim} can not be divisible by 'num_heads' "
                         f"{num_heads}.")
    if use_separate_proj_weight:
        if key.shape[:2] != value.shape[:2]:
            raise ValueError(f"For '{_MHA}', the sequence length and batch dims of 'key': {key.shape[:2]} do not "
                             f"match 'value': {value.shape[:2]}.")
    elif key.shape != value.shape:
        raise ValueError(f"For '{_MHA}', the shape of 'key' {key.shape} does not match 'value' {value.shape}.")
    q, k, v = _mha_in_projection(query, key, value, in_proj_weight, in_proj_bias, bool(use_separate_proj_weight),
                                 q_proj_weight, k_proj_weight, v_proj_weight)
    compute = q.dtype
    src_len = key.shape[0]
    if attn_mask is not None:
        if attn_mask.dtype == jnp.uint8:
            attn_mask = attn_mask.astype(jnp.bool_)
        elif attn_mask.dtype != jnp.bool_ and not jnp.issubdtype(attn_mask.dtype, jnp.floating):
            raise ValueError(f"For '{_MHA}', 'attn_mask' only supports float, byte, and bool types, but got "
                             f"{attn_mask.dtype}.")
        expected = (tgt_len, src_len) if attn_mask.ndim == 2 else (bsz * num_heads, tgt_len, src_len)
        if tuple(attn_mask.shape) != expected:
            raise ValueError(f"For '{_MHA}', the shape of the 'attn_mask' should be {expected}, but got "
                             f"{tuple(attn_mask.shape)}.")
        if attn_mask.ndim == 2:
            attn_mask = attn_mask[None]
    if bias_k is not None and bias_v is not None:
        if static_k is not None or static_v is not None:
            raise ValueError(f"For '{_MHA}', 'bias_k' and 'bias_v' cannot be added to 'static_k'/'static_v'.")
        k = jnp.concatenate([k, jnp.tile(_arr(bias_k).astype(compute), (1, bsz, 1))])
        v = jnp.concatenate([v, jnp.tile(_arr(bias_v).astype(compute), (1, bsz, 1))])
        attn_mask, key_padding_mask = _mha_pad_last(attn_mask), _mha_pad_last(key_padding_mask)
    elif bias_k is not None or bias_v is not None:
        raise ValueError(f"For '{_MHA}', 'bias_k' and 'bias_v' should be None at the same time.")
    rows = bsz * num_heads
    q = jnp.swapaxes(q.reshape(tgt_len, rows, head_dim), 0, 1)
    k = jnp.swapaxes(k.reshape(k.shape[0], rows, head_dim), 0, 1) if static_k is None \
        else _mha_static("static_k", static_k, rows, head_dim).astype(compute)
    v = jnp.swapaxes(v.reshape(v.shape[0], rows, head_dim), 0, 1) if static_v is None \
        else _mha_static("static_v", static_v, rows, head_dim).astype(compute)
    if add_zero_attn:
        zeros = jnp.zeros((rows, 1, head_dim), compute)
        k, v = jnp.concatenate([k, zeros], axis=1), jnp.concatenate([v, zeros], axis=1)
        attn_mask, key_padding_mask = _mha_pad_last(attn_mask), _mha_pad_last(key_padding_mask)
    src_len = k.shape[1]
    mask = None if attn_mask is None else _mha_additive(attn_mask, compute)
    if key_padding_mask is not None:
        if key_padding_mask.shape != (bsz, src_len):
            raise ValueError(f"For '{_MHA}', the shape of 'key_padding_mask' should be {(bsz, src_len)}, but got "
                             f"{key_padding_mask.shape}.")
        kpm = jnp.tile(_mha_additive(key_padding_mask, compute).reshape(bsz, 1, 1, src_len), (1, num_heads, 1, 1))
        kpm = kpm.reshape(rows, 1, src_len)
        mask = kpm if mask is None else mask + kpm
    if mask is not None:
        mask = mask[None] if mask.shape[0] == 1 else mask.reshape(bsz, num_heads, -1, src_len)
    if is_causal:
        causal = jnp.where(jnp.tril(jnp.ones((tgt_len, src_len), jnp.bool_)), jnp.asarray(0, compute),
                           jnp.asarray(-jnp.inf, compute))
        mask = causal if mask is None else mask + causal
    q = q.reshape(bsz, num_heads, tgt_len, head_dim)
    k = k.reshape(bsz, num_heads, src_len, head_dim)
    v = v.reshape(bsz, num_heads, src_len, head_dim)
    scale = jnp.sqrt(jnp.sqrt(jnp.asarray(head_dim, to_jax_dtype(dtype)))).astype(compute)
    scores = jnp.matmul(q / scale, jnp.swapaxes(k, -2, -1) / scale)
    if mask is not None:
        scores = scores + mask
    weights = jax.nn.softmax(scores, axis=-1)
    if training and dropout_p > 0:
        weights = _arr(dropout(weights, dropout_p, True))
    out = jnp.matmul(weights, v)
    out = jnp.transpose(out, (2, 0, 1, 3)).reshape(tgt_len * bsz, embed_dim)
    out = _mha_linear(out, _arr(out_proj_weight), None if out_proj_bias is None else _arr(out_proj_bias))
    out = out.reshape(tgt_len, bsz, -1)
    if average_attn_weights:
        weights = weights.sum(axis=1) / num_heads
    if not batched:
        out, weights = out.squeeze(1), weights.squeeze(0)
    return out, weights


# -- fractional max pooling ----------------------------------------------------------------------------
def _fractional_size(value: Any, dims: int, op: str) -> tuple[int, ...]:
    pair = "two" if dims == 2 else "three"
    ok = (isinstance(value, int) and not isinstance(value, bool) and value > 0) or (
        isinstance(value, (tuple, list)) and len(value) == dims
        and all(isinstance(v, int) and not isinstance(v, bool) and v > 0 for v in value))
    if not ok:
        raise ValueError(f"For '{op}' attr 'ksize' must be an positive int number or a tuple of {pair} positive "
                         f"int numbers, but got {value}")
    return (value,) * dims if isinstance(value, int) else tuple(value)


def _fractional_starts(sample: jax.Array, size: int, out: int, k: int) -> jax.Array:
    """The window starts along one axis (MindSpore's and PyTorch's interval sequence), int32 ``(..., out)``."""
    if out == 1:
        return jnp.full(sample.shape + (1,), size - k, jnp.int32)
    alpha = jnp.asarray((size - k) / (out - 1), jnp.float32)
    sample = sample.astype(jnp.float32)[..., None]
    i = jnp.arange(out - 1, dtype=jnp.float32)
    starts = (jnp.floor((i + sample) * alpha) - jnp.floor(sample * alpha)).astype(jnp.int32)
    return jnp.concatenate([starts, jnp.full(sample.shape[:-1] + (1,), size - k, jnp.int32)], axis=-1)


def _fractional_max_pool(x: jax.Array, kernel: tuple[int, ...], out: tuple[int, ...],
                         samples: jax.Array) -> tuple[jax.Array, jax.Array]:
    """Max over the windows ``[start_d, start_d + k_d)`` of ``(N, C, *spatial)``; values and flat input indices.

    ``samples[..., d]`` is the random offset of spatial axis ``d``, in axis order.
    """
    n, c = x.shape[:2]
    spatial = x.shape[2:]
    dims = len(spatial)
    coords = []  # per axis: (N, C, out_d, k_d) input coordinates
    v = x
    for d in range(dims):
        starts = _fractional_starts(samples[..., d], spatial[d], out[d], kernel[d])
        idx = starts[..., None] + jnp.arange(kernel[d], dtype=jnp.int32)
        coords.append(idx)
        flat = idx.reshape(n, c, -1)
        shape = [n, c] + [1] * dims
        shape[2 + d] = flat.shape[-1]
        full = list(v.shape)
        full[2 + d] = flat.shape[-1]
        v = jnp.take_along_axis(v, jnp.broadcast_to(flat.reshape(shape), full), axis=2 + d)
    # (N, C, o1*k1, o2*k2, ...) -> (N, C, o1, o2, ..., k1*k2*...)
    v = v.reshape((n, c) + tuple(s for d in range(dims) for s in (out[d], kernel[d])))
    order = [0, 1] + [2 + 2 * d for d in range(dims)] + [3 + 2 * d for d in range(dims)]
    v = jnp.transpose(v, order).reshape((n, c) + tuple(out) + (-1,))
    best = jnp.argmax(v, axis=-1)
    values = jnp.max(v, axis=-1)
    offsets = jnp.unravel_index(best, kernel)
    flat_index = jnp.zeros(best.shape, jnp.int32)
    stride = 1
    for d in reversed(range(dims)):
        start = coords[d][..., 0]  # (N, C, out_d)
        shape = [n, c] + [1] * dims
        shape[2 + d] = out[d]
        flat_index = flat_index + (start.reshape(shape) + offsets[d].astype(jnp.int32)) * stride
        stride *= spatial[d]
    return values, flat_index


def check_fractional_output_ratio(output_ratio: Any, dims: int, func: str) -> tuple[float, ...]:
    """``output_ratio`` of a fractional max pooling as ``dims`` floats, each in (0, 1).

    Shared by ``fractional_max_pool2d/3d`` and the ``FractionalMaxPool`` Cells (not exported at ``ops``).

    Raises:
        TypeError: a number that is not a float. ValueError: a ratio outside (0, 1).
    """
    if isinstance(output_ratio, (float, int)):
        if not isinstance(output_ratio, float):
            raise TypeError(f"For '{func}', the type of 'output_ratio' should be 'float', "
                            f"but got type '{type(output_ratio).__name__}'.")
        ratios = (output_ratio,) * dims
    else:
        ratios = tuple(output_ratio)
    for i, r in enumerate(ratios):
        if not 0.0 < r < 1.0:
            raise ValueError(f"For '{func}', the 'output_ratio[{i}]' must be in range of (0.0, 1.0), "
                             f"but got {r} with type '{type(r).__name__}'.")
    return ratios


def _fractional_pool(dims: int, func: str, op: str, input: Any, kernel_size: Any, output_size: Any,
                     output_ratio: Any, return_indices: bool, random_samples: Any) -> Any:
    kernel = _fractional_size(kernel_size, dims, op)
    if output_size is None and output_ratio is None:
        raise ValueError(f"For {func}, 'output_size' and 'output_ratio' can not be None at the same time, "
                         f"but got None and None .")
    fixed = None if output_size is None else _fractional_size(output_size, dims, op)
    ratios = check_fractional_output_ratio(output_ratio, dims, func) if fixed is None else None
    if not isinstance(return_indices, bool):
        raise TypeError(f"For '{func}', the type of 'return_indices' should be 'bool', "
                        f"but got type '{type(return_indices).__name__}'.")
    x = _arr(input)
    if x.ndim not in (dims + 1, dims + 2):
        raise ValueError(f"For '{op}', the input must be {dims + 1}-D or {dims + 2}-D, but got {x.ndim}-D.")
    unbatched = x.ndim == dims + 1
    if unbatched:
        x = x[None]
    spatial = x.shape[2:]
    out = fixed or tuple(int(s * r) for s, r in zip(spatial, ratios))
    names = ("D", "H", "W")[3 - dims:]
    for name, k, o, s in zip(names, kernel, out, spatial):
        if k + o - 1 > s:
            raise ValueError(f"For {op}, ksize {name} [{k}] + output_shape_{name.lower()} [{o}] too large "
                             f"relative to input {name} [{s}], conflict with the rule: "
                             f"ksize_{name.lower()} + output_shape_{name.lower()} - 1 <= input_{name.lower()}")
    if random_samples is None:
        dtype = x.dtype if jnp.issubdtype(x.dtype, jnp.floating) else jnp.float32
        samples = jax.random.uniform(_random.next_key(), (x.shape[0], x.shape[1], dims), dtype)
    else:
        samples = _arr(random_samples)
        want = (x.shape[0], x.shape[1], dims)
        if tuple(samples.shape) != want:
            raise ValueError(f"For '{op}', '_random_samples' must have shape {want} (N, C, {dims}), "
                             f"but got {tuple(samples.shape)}")
    if dims == 2:
        samples = samples[..., ::-1]  # MindSpore's 2-D samples are (width, height)
    values, indices = _fractional_max_pool(x, kernel, out, samples)
    if unbatched:
        values, indices = values[0], indices[0]
    indices = indices.astype(jax.dtypes.canonicalize_dtype(jnp.int64))
    return (values, indices) if return_indices else values


@tensor_op
@_named("fractional_max_pool2d")
def fractional_max_pool2d(input: Any, kernel_size: Any, output_size: Any = None, output_ratio: Any = None,
                          return_indices: bool = False, _random_samples: Any = None) -> Any:
    """Fractional max pooling over ``(N, C, H, W)`` or ``(C, H, W)``.

    Each output cell is the max of a ``kernel_size`` window whose start along an axis is
    ``int((i + u) * alpha) - int(u * alpha)`` (the last one ``in - k``), with ``alpha = (in - k) / (out - 1)``
    and ``u`` the per-(N, C) offset: ``_random_samples[n, c] = (u_width, u_height)`` in ``[0, 1)``, drawn
    from MindJAX's key when not given.

    Arguments:
        input: the input.
        kernel_size: an int or ``(kH, kW)``.
        output_size: an int or ``(oH, oW)``; or None to use ``output_ratio``.
        output_ratio: a float or ``(rH, rW)`` in (0, 1): ``out = int(in * ratio)``.
        return_indices: also return the flat ``H * W`` index of each max (int64). Default False.
        _random_samples: the offsets, ``(N, C, 2)``, or None.

    Returns:
        the pooled array, and the indices with ``return_indices``.
    """
    return _fractional_pool(2, "fractional_max_pool2d", "FractionalMaxPoolWithFixedKsize", input, kernel_size,
                            output_size, output_ratio, return_indices, _random_samples)


@tensor_op
@_named("fractional_max_pool3d")
def fractional_max_pool3d(input: Any, kernel_size: Any, output_size: Any = None, output_ratio: Any = None,
                          return_indices: bool = False, _random_samples: Any = None) -> Any:
    """Fractional max pooling over ``(N, C, D, H, W)`` or ``(C, D, H, W)``; as :func:`fractional_max_pool2d`,
    with ``_random_samples[n, c] = (u_depth, u_height, u_width)`` and indices into ``D * H * W``.

    Returns:
        the pooled array, and the indices with ``return_indices``.
    """
    x = _arr(input)
    if _random_samples is not None and x.ndim == 4:
        samples = _arr(_random_samples)
        if samples.dtype != x.dtype:
            raise TypeError(f"For 'fractional_max_pool3d', 'input' and '_random_samples' must be same dtype, "
                            f"but got Tensor[{x.dtype}] and Tensor[{samples.dtype}].")
    return _fractional_pool(3, "fractional_max_pool3d", "FractionalMaxPool3DWithFixedKsize", x, kernel_size,
                            output_size, output_ratio, return_indices, _random_samples)


# --- deformable convolution and multi-scale deformable attention -----------------------------------

__all__ += ["deformable_conv2d", "multi_scale_deformable_attn_function"]


def _ints4(op: str, name: str, value: Any, n: int) -> tuple[int, ...]:
    if not isinstance(value, (tuple, list)) or len(value) != n or any(
            isinstance(v, bool) or not isinstance(v, (int, np.integer)) for v in value):
        raise TypeError(f"For '{op}', '{name}' must be a tuple of {n} ints, but got {value!r}")
    return tuple(int(v) for v in value)


def _bilinear_zero(plane: jax.Array, y: jax.Array, x: jax.Array) -> jax.Array:
    """``plane`` (..., H, W) sampled at (y, x) of shape (..., *) bilinearly, zero outside the image (DCN's rule:
    a point at or beyond one pixel outside gives 0, corners outside count 0)."""
    h, w = plane.shape[-2:]
    y0, x0 = jnp.floor(y), jnp.floor(x)
    out = jnp.zeros(y.shape, plane.dtype)
    flat = plane.reshape(plane.shape[:-2] + (h * w,))
    for dy, dx in ((0, 0), (0, 1), (1, 0), (1, 1)):
        yy, xx = y0 + dy, x0 + dx
        weight = (1 - jnp.abs(y - yy)) * (1 - jnp.abs(x - xx))
        inside = (yy >= 0) & (yy < h) & (xx >= 0) & (xx < w)
        idx = (jnp.clip(yy, 0, h - 1) * w + jnp.clip(xx, 0, w - 1)).astype(jnp.int32)
        vals = jnp.take_along_axis(flat, idx.reshape(idx.shape[:-2] + (-1,)), axis=-1).reshape(idx.shape)
        out = out + jnp.where(inside, weight, 0).astype(plane.dtype) * vals
    valid = (y > -1) & (y < h) & (x > -1) & (x < w)
    return jnp.where(valid, out, 0)


def _deformable_sample(op: str, x: Any, offsets: Any, kernel_size: Sequence[int], strides: Sequence[int],
                       padding: Sequence[int], dilations: Sequence[int], deformable_groups: int) -> jax.Array:
    """The deformed samples ``(N, C, H_out, W_out, kh, kw)`` (modulated by the mask) of NCHW ``x``."""
    a, off = _arr(x), _arr(offsets)
    if a.ndim != 4 or not jnp.issubdtype(a.dtype, jnp.floating):
        raise ValueError(f"For '{op}', 'x' must be a 4-D NCHW float tensor, but got {a.dtype} of shape {a.shape}")
    kh, kw = kernel_size
    sh, sw = strides[2], strides[3]
    dh, dw = dilations[2], dilations[3]
    top, _, left, _ = padding
    n, c, h, w = a.shape
    ho = (h + padding[0] + padding[1] - (kh - 1) * dh - 1) // sh + 1
    wo = (w + padding[2] + padding[3] - (kw - 1) * dw - 1) // sw + 1
    if c % deformable_groups:
        raise ValueError(f"For '{op}', the input channels ({c}) must be divisible by 'deformable_groups' "
                         f"({deformable_groups})")
    expected = (n, 3 * deformable_groups * kh * kw, ho, wo)
    if off.shape != expected:
        raise ValueError(f"For '{op}', 'offsets' must have shape {expected} (batch, 3 * deformable_groups * kh * kw, "
                         f"H_out, W_out), but got {off.shape}")
    g = deformable_groups
    off = off.astype(a.dtype).reshape(n, 3, g, kh, kw, ho, wo)
    base_y = (jnp.arange(ho) * sh - top)[:, None, None, None] + (jnp.arange(kh) * dh)[None, None, :, None]
    base_x = (jnp.arange(wo) * sw - left)[None, :, None, None] + (jnp.arange(kw) * dw)[None, None, None, :]
    # Positions and masks (n, g, ho, wo, kh, kw); every channel of a group shares them.
    py = base_y[None, None] + jnp.transpose(off[:, 1], (0, 1, 4, 5, 2, 3))
    px = base_x[None, None] + jnp.transpose(off[:, 0], (0, 1, 4, 5, 2, 3))
    mask = jnp.transpose(off[:, 2], (0, 1, 4, 5, 2, 3))
    planes = a.reshape(n, g, c // g, h, w)
    shape = (n, g, c // g, ho, wo, kh, kw)
    sampled = _sample_groups(planes, jnp.broadcast_to(py[:, :, None], shape), jnp.broadcast_to(px[:, :, None], shape))
    return (sampled * mask[:, :, None]).reshape(n, c, ho, wo, kh, kw)


def _sample_groups(planes: jax.Array, py: jax.Array, px: jax.Array) -> jax.Array:
    """``planes`` (n, g, cg, H, W) sampled at ``py``/``px`` (n, g, cg, ho, wo, kh, kw)."""
    n, g, cg, h, w = planes.shape
    pts = py.shape[3:]
    out = _bilinear_zero(planes, py.reshape(n, g, cg, -1, 1), px.reshape(n, g, cg, -1, 1))
    return out.reshape((n, g, cg) + pts)


def _check_conv_args(op: str, kernel_size: Any, strides: Any, padding: Any, dilations: Any, deformable_groups: Any,
                     modulated: Any) -> tuple:
    kernel = _ints4(op, "kernel_size", kernel_size, 2)
    strides, padding, dilations = (_ints4(op, n, v, 4) for n, v in (("strides", strides), ("padding", padding),
                                                                     ("dilations", dilations)))
    for name, v in (("strides", strides), ("dilations", dilations)):
        if v[0] != 1 or v[1] != 1:
            raise ValueError(f"For '{op}', the N and C dimensions of '{name}' must be 1, but got {v}")
    if not isinstance(modulated, bool):
        raise TypeError(f"For '{op}', 'modulated' must be a bool, but got {type(modulated).__name__}")
    if not modulated:
        raise ValueError(f"For '{op}', 'modulated' must be True (only DCN v2 is supported, as in MindSpore)")
    groups = check_int("deformable_groups", deformable_groups, 1)
    return kernel, strides, padding, dilations, groups


@tensor_op
@_named("deformable_conv2d")
def deformable_conv2d(x: Any, weight: Any, offsets: Any, kernel_size: tuple[int, int], strides: tuple[int, ...],
                      padding: tuple[int, ...], bias: Any = None, dilations: tuple[int, ...] = (1, 1, 1, 1),
                      groups: int = 1, deformable_groups: int = 1, modulated: bool = True) -> jax.Array:
    """Deformable convolution v2 of NCHW ``x``: each kernel tap samples ``x`` bilinearly at its offset position
    and is scaled by its mask.

    Arguments:
        x: (N, C_in, H, W). weight: (C_out, C_in / groups, kh, kw).
        offsets: (N, 3 * deformable_groups * kh * kw, H_out, W_out), channels ordered (offset_x, offset_y, mask).
        kernel_size: (kh, kw). strides, dilations: 4 ints in NCHW order, N and C 1.
        padding: (top, bottom, left, right). bias: (C_out,) or ``None``.
        groups, deformable_groups: channel groups of the convolution and of the offsets.
        modulated: must be ``True``.

    Returns:
        (N, C_out, H_out, W_out) in ``x``'s dtype.
    """
    kernel, strides, padding, dilations, dgroups = _check_conv_args("deformable_conv2d", kernel_size, strides,
                                                                    padding, dilations, deformable_groups, modulated)
    sampled = _deformable_sample("deformable_conv2d", x, offsets, kernel, strides, padding, dilations, dgroups)
    wt = _arr(weight).astype(sampled.dtype)
    groups = check_int("groups", groups, 1)
    n, c, ho, wo, kh, kw = sampled.shape
    if wt.ndim != 4 or wt.shape[1] * groups != c or wt.shape[2:] != (kh, kw) or wt.shape[0] % groups:
        raise ValueError(f"'weight' must have shape (C_out, {c // groups}, {kh}, {kw}) with C_out divisible by "
                         f"groups={groups}, got {wt.shape}")
    out = jnp.einsum("ngchwij,gocij->ngohw", sampled.reshape(n, groups, c // groups, ho, wo, kh, kw),
                     wt.reshape(groups, wt.shape[0] // groups, c // groups, kh, kw),
                     precision=jax.lax.Precision.HIGHEST).reshape(n, wt.shape[0], ho, wo)
    if bias is not None:
        out = out + _arr(bias).astype(out.dtype)[None, :, None, None]
    return out


@tensor_op
@_named("multi_scale_deformable_attn_function")
def multi_scale_deformable_attn_function(value: Any, shape: Any, offset: Any, locations: Any,
                                         weight: Any) -> jax.Array:
    """Multi-scale deformable attention (Deformable DETR): each query sums, over levels and points, the value
    map of its head sampled bilinearly at ``locations`` (zero outside, ``align_corners=False``) times ``weight``.

    Arguments:
        value: float (bs, num_keys, num_heads, embed_dims), the levels' maps flattened and concatenated.
        shape: int (num_levels, 2), each level's (H, W); ``offset``: int (num_levels,), where each level starts
            in ``num_keys``. Both must be concrete (not traced).
        locations: float (bs, num_queries, num_heads, num_levels, num_points, 2), (x, y) in [0, 1].
        weight: float (bs, num_queries, num_heads, num_levels, num_points).

    Returns:
        (bs, num_queries, num_heads * embed_dims) in ``value``'s dtype.
    """
    v, loc, w = _arr(value), _arr(locations), _arr(weight)
    for name, a in (("value", v), ("locations", loc), ("weight", w)):
        if a.dtype not in (jnp.float16, jnp.float32):
            raise TypeError(f"'{name}' must be a float16 or float32 tensor, got {a.dtype}")
    try:
        levels = np.asarray(_arr(shape)).astype(np.int64)
        starts = np.asarray(_arr(offset)).astype(np.int64)
    except jax.errors.TracerArrayConversionError:
        raise TypeError("'shape' and 'offset' must be concrete tensors (they set the slices), not traced") from None
    if v.ndim != 4:
        raise ValueError(f"'value' must be 4-D (bs, num_keys, num_heads, embed_dims), got shape {v.shape}")
    bs, keys, heads, dims = v.shape
    if levels.ndim != 2 or levels.shape[1] != 2 or starts.shape != levels.shape[:1]:
        raise ValueError(f"'shape' must be (num_levels, 2) and 'offset' (num_levels,), got {levels.shape} and "
                         f"{starts.shape}")
    nl = levels.shape[0]
    if loc.ndim != 6 or loc.shape[0] != bs or loc.shape[2] != heads or loc.shape[3] != nl or loc.shape[5] != 2:
        raise ValueError(f"'locations' must be (bs={bs}, num_queries, num_heads={heads}, num_levels={nl}, "
                         f"num_points, 2), got {loc.shape}")
    if w.shape != loc.shape[:5]:
        raise ValueError(f"'weight' must have shape {loc.shape[:5]}, got {w.shape}")
    if int(np.max(starts + levels[:, 0] * levels[:, 1])) > keys:
        raise ValueError(f"the levels of 'shape' and 'offset' reach past num_keys={keys}")
    out = jnp.zeros((bs, heads, loc.shape[1], dims), jnp.float32)
    for lvl in range(nl):
        h, wd = int(levels[lvl, 0]), int(levels[lvl, 1])
        plane = v[:, starts[lvl]:starts[lvl] + h * wd].astype(jnp.float32)  # (bs, h*w, heads, dims)
        plane = jnp.transpose(plane.reshape(bs, h, wd, heads, dims), (0, 3, 4, 1, 2))  # (bs, heads, dims, h, w)
        pts = jnp.transpose(loc[:, :, :, lvl].astype(jnp.float32), (0, 2, 1, 3, 4))  # (bs, heads, q, p, 2)
        x = jnp.broadcast_to((pts[..., 0] * wd - 0.5)[:, :, None], (bs, heads, dims) + pts.shape[2:4])
        y = jnp.broadcast_to((pts[..., 1] * h - 0.5)[:, :, None], x.shape)
        sampled = _bilinear_zero(plane, y, x)  # (bs, heads, dims, q, p)
        lw = jnp.transpose(w[:, :, :, lvl].astype(jnp.float32), (0, 2, 1, 3))  # (bs, heads, q, p)
        out = out + jnp.einsum("bhdqp,bhqp->bhqd", sampled, lw)
    return jnp.transpose(out, (0, 2, 1, 3)).reshape(bs, loc.shape[1], heads * dims).astype(v.dtype)


# --- RNN transducer loss (the computation behind ops.RNNTLoss) -----------------------------------

def _rnnt_costs(acts: jax.Array, labels: jax.Array, input_lengths: jax.Array, label_lengths: jax.Array,
                blank: int) -> jax.Array:
    """Per-example RNN-T negative log-likelihoods of logits ``acts`` (B, T, U + 1, V) (log-softmax taken here):
    the forward variable over the (t, u) lattice, one ``lax.scan`` over time with one over labels inside."""
    logp = jax.nn.log_softmax(acts.astype(jnp.float32), axis=-1)
    b, t_max, u1, _ = logp.shape
    blank_lp = logp[..., blank]  # (B, T, U + 1)
    emit_lp = jnp.take_along_axis(logp[:, :, :u1 - 1], labels[:, None, :, None].astype(jnp.int32),
                                  axis=-1)[..., 0]  # (B, T, U)
    neg = jnp.asarray(-jnp.inf, jnp.float32)

    def along_labels(first: jax.Array, emit_t: jax.Array) -> jax.Array:
        """alpha[t, u] = logaddexp(first[u], alpha[t, u - 1] + emit[t, u - 1]) for u = 0 .. U."""
        def step(prev: jax.Array, inputs: tuple[jax.Array, jax.Array]) -> tuple[jax.Array, jax.Array]:
            f, e = inputs
            value = jnp.logaddexp(f, prev + e)
            return value, value
        # emit[t, u - 1], -inf at u = 0
        emit_shift = jnp.concatenate([jnp.full((b, 1), neg, jnp.float32), emit_t], axis=1)
        _, values = jax.lax.scan(step, jnp.full((b,), neg, jnp.float32), (first.T, emit_shift.T))
        return values.T

    start = jnp.concatenate([jnp.zeros((b, 1), jnp.float32), jnp.full((b, u1 - 1), neg, jnp.float32)], axis=1)
    alpha0 = along_labels(start, emit_lp[:, 0])

    def over_time(alpha: jax.Array, t: jax.Array) -> tuple[jax.Array, jax.Array]:
        nxt = along_labels(alpha + blank_lp[:, t - 1], emit_lp[:, t])
        return nxt, nxt

    _, alphas = jax.lax.scan(over_time, alpha0, jnp.arange(1, t_max))
    alphas = jnp.concatenate([alpha0[None], alphas], axis=0)  # (T, B, U + 1)
    rows = jnp.arange(b)
    last_t = input_lengths.astype(jnp.int32) - 1
    last_u = label_lengths.astype(jnp.int32)
    return -(alphas[last_t, rows, last_u] + blank_lp[rows, last_t, last_u])


def rnnt_loss_with_grads(acts: Any, labels: Any, input_lengths: Any, label_lengths: Any, blank_label: int = 0,
                         op: str = "RNNTLoss") -> tuple[jax.Array, jax.Array]:
    """RNN-T losses and their gradient with respect to the logits ``acts`` (``ops.RNNTLoss``'s computation).

    Arguments:
        acts: float16/float32 logits (B, T, U + 1, V). labels: int32 (B, U).
        input_lengths, label_lengths: int32 (B,), at most T and U.
        blank_label: the blank class. op: the name used in errors.

    Returns:
        ``(costs, grads)``: (B,) and ``acts``' shape, in ``acts``' dtype.
    """
    a, lab = _arr(acts), _arr(labels)
    il, ll = _arr(input_lengths), _arr(label_lengths)
    if a.dtype not in (jnp.float16, jnp.float32):
        raise TypeError(f"For '{op}', 'acts' must be a float16 or float32 tensor, but got {a.dtype}.")
    for name, v in (("labels", lab), ("input_lengths", il), ("label_lengths", ll)):
        if v.dtype != jnp.int32:
            raise TypeError(f"For '{op}', '{name}' must be an int32 tensor, but got {v.dtype}.")
    if a.ndim != 4:
        raise ValueError(f"For '{op}', 'acts' must be 4-D (B, T, U, V), but got shape {a.shape}.")
    if lab.shape != (a.shape[0], a.shape[2] - 1):
        raise ValueError(f"For '{op}', 'labels' must have shape (B, U - 1) = {(a.shape[0], a.shape[2] - 1)}, but "
                         f"got {lab.shape}.")
    for name, v in (("input_lengths", il), ("label_lengths", ll)):
        if v.shape != (a.shape[0],):
            raise ValueError(f"For '{op}', '{name}' must have shape ({a.shape[0]},), but got {v.shape}.")
    if not 0 <= blank_label < a.shape[3]:
        raise ValueError(f"For '{op}', 'blank_label' must be in [0, {a.shape[3]}), but got {blank_label}.")
    costs, vjp = jax.vjp(lambda x: _rnnt_costs(x, lab, il, ll, blank_label), a.astype(jnp.float32))
    grads = vjp(jnp.ones_like(costs))[0]
    return costs.astype(a.dtype), grads.astype(a.dtype)
