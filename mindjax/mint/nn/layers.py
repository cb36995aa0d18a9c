"""The ``mindspore.mint.nn`` Cells that MindSpore's ``nn`` lacks under mint's arguments.

Each Cell keeps mint's constructor arguments and Parameter names and calls the
``mindjax.mint.nn.functional`` function of the same name, so the math exists once.
"""
from __future__ import annotations

import math
import numbers
from typing import Any

import numpy as np

from mindjax import ops as _ops
from mindjax.cells.cell import Cell
from mindjax.cells.parameter import Parameter
from mindjax.common import dtype as mstype
from mindjax.common.initializer import HeUniform, Uniform, initializer
from mindjax.mint.nn import functional as F

__all__ = ["Conv1d", "Conv2d", "Conv3d", "ConvTranspose2d", "BatchNorm1d", "BatchNorm2d", "BatchNorm3d",
           "SyncBatchNorm", "GroupNorm", "ELU", "GELU", "GLU", "Hardtanh", "LogSigmoid", "ReLU6", "SELU", "SiLU", "Sigmoid",
           "Softmax", "Tanh", "Threshold", "ReflectionPad1d", "ReflectionPad2d", "ReflectionPad3d",
           "ReplicationPad1d", "ReplicationPad2d", "ReplicationPad3d", "ZeroPad1d", "ZeroPad3d", "BCEWithLogitsLoss",
           "KLDivLoss", "SmoothL1Loss", "AdaptiveMaxPool1d", "Fold", "Unfold", "UpsamplingNearest2d",
           "UpsamplingBilinear2d"]


def _tuple(name: str, cell: str, v: Any, n: int) -> tuple[int, ...]:
    if isinstance(v, (int, np.integer)) and not isinstance(v, bool):
        v = (int(v),) * n
    if not isinstance(v, (tuple, list)) or len(v) != n or any(
            isinstance(i, bool) or not isinstance(i, (int, np.integer)) or i < 0 for i in v):
        raise ValueError(f"For '{cell}', '{name}' must be a non-negative int or a tuple of {n} of them, but got {v!r}")
    return tuple(int(i) for i in v)


def _check_positive_int(cell: str, name: str, v: Any) -> int:
    if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or v < 1:
        raise ValueError(f"For '{cell}', '{name}' must be a positive int, but got {v!r}")
    return int(v)


# --- convolutions -------------------------------------------------------------------------------

class _ConvNd(Cell):
    """mint's convolutions: weight ``HeUniform(sqrt(5))``, bias ``Uniform(1 / sqrt(fan_in))``."""

    _rank = 2
    _transposed = False
    _PADDING_MODES = ("zeros", "reflect", "replicate", "circular")

    def __init__(self, in_channels: int, out_channels: int, kernel_size: Any, stride: Any, padding: Any,
                 dilation: Any, groups: int, bias: bool, padding_mode: str, dtype: Any,
                 output_padding: Any = 0) -> None:
        super().__init__()
        cell, n = type(self).__name__, self._rank
        self.in_channels = _check_positive_int(cell, "in_channels", in_channels)
        self.out_channels = _check_positive_int(cell, "out_channels", out_channels)
        self.groups = _check_positive_int(cell, "groups", groups)
        if self.in_channels % self.groups or self.out_channels % self.groups:
            raise ValueError(f"For '{cell}', 'in_channels' ({in_channels}) and 'out_channels' ({out_channels}) "
                             f"must be divisible by 'groups' ({groups})")
        if padding_mode not in self._PADDING_MODES:
            raise ValueError(f"For '{cell}', 'padding_mode' must be one of {self._PADDING_MODES}, "
                             f"but got '{padding_mode}'")
        if not isinstance(bias, bool):
            raise TypeError(f"For '{cell}', 'bias' must be a bool, but got {type(bias).__name__}")
        self.kernel_size = _tuple("kernel_size", cell, kernel_size, n)
        self.stride = _tuple("stride", cell, stride, n)
        self.dilation = _tuple("dilation", cell, dilation, n)
        if isinstance(padding, str):
            if padding not in ("same", "valid") or self._transposed:
                raise ValueError(f"For '{cell}', 'padding' must be 'same', 'valid', an int or a tuple, "
                                 f"but got '{padding}'")
            if padding == "same" and any(s != 1 for s in self.stride):
                raise ValueError(f"For '{cell}', padding='same' needs stride 1, but got stride {stride}")
            self.padding = padding
        else:
            self.padding = _tuple("padding", cell, padding, n)
        self.output_padding = _tuple("output_padding", cell, output_padding, n)
        self.padding_mode = padding_mode
        dt = mstype.float32 if dtype is None else dtype
        if self._transposed:
            shape = (self.in_channels, self.out_channels // self.groups, *self.kernel_size)
        else:
            shape = (self.out_channels, self.in_channels // self.groups, *self.kernel_size)
        self.weight = Parameter(initializer(HeUniform(math.sqrt(5)), shape, dt), name="weight")
        fan_in = shape[1] * int(np.prod(self.kernel_size))
        self.bias = Parameter(initializer(Uniform(1 / math.sqrt(fan_in)) if fan_in else "zeros",
                                          (self.out_channels,), dt), name="bias") if bias else None

    def extend_repr(self) -> str:
        return (f"input_channels={self.in_channels}, output_channels={self.out_channels}, "
                f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}, "
                f"dilation={self.dilation}, groups={self.groups}, bias={self.bias is not None}")

    def construct(self, input: Any) -> Any:  # noqa: A002
        conv = {1: F.conv1d, 2: F.conv2d, 3: F.conv3d}[self._rank]
        if self.padding_mode == "zeros" or self.padding == "valid":
            return conv(input, self.weight, self.bias, self.stride, self.padding, self.dilation, self.groups)
        if self.padding == "same":  # the total d * (k - 1), the smaller half before
            totals = [d * (k - 1) for d, k in zip(self.dilation, self.kernel_size)]
            pads = tuple(p for t in reversed(totals) for p in (t // 2, t - t // 2))
        else:
            pads = tuple(p for p in reversed(self.padding) for _ in range(2))
        x = F.pad(input, pads, self.padding_mode)
        return conv(x, self.weight, self.bias, self.stride, 0, self.dilation, self.groups)


class Conv1d(_ConvNd):
    """``mint.nn.Conv1d``: a 1-D convolution of ``(N, C_in, L)`` with weight ``(C_out, C_in / groups, k)``."""

    _rank = 1

    def __init__(self, in_channels: int, out_channels: int, kernel_size: Any, stride: Any = 1, padding: Any = 0,
                 dilation: Any = 1, groups: int = 1, bias: bool = True, padding_mode: str = "zeros",
                 dtype: Any = None) -> None:
        super().__init__(in_channels, out_channels, kernel_size, stride, padding, dilation, groups, bias,
                         padding_mode, dtype)


class Conv2d(_ConvNd):
    """``mint.nn.Conv2d``: a 2-D convolution of ``(N, C_in, H, W)``; ``padding`` an int, a pair, ``'same'``
    or ``'valid'``; ``padding_mode`` ``'zeros'``, ``'reflect'``, ``'replicate'`` or ``'circular'``."""

    _rank = 2

    def __init__(self, in_channels: int, out_channels: int, kernel_size: Any, stride: Any = 1, padding: Any = 0,
                 dilation: Any = 1, groups: int = 1, bias: bool = True, padding_mode: str = "zeros",
                 dtype: Any = None) -> None:
        super().__init__(in_channels, out_channels, kernel_size, stride, padding, dilation, groups, bias,
                         padding_mode, dtype)


class Conv3d(_ConvNd):
    """``mint.nn.Conv3d``: a 3-D convolution of ``(N, C_in, D, H, W)``."""

    _rank = 3

    def __init__(self, in_channels: int, out_channels: int, kernel_size: Any, stride: Any = 1, padding: Any = 0,
                 dilation: Any = 1, groups: int = 1, bias: bool = True, padding_mode: str = "zeros",
                 dtype: Any = None) -> None:
        super().__init__(in_channels, out_channels, kernel_size, stride, padding, dilation, groups, bias,
                         padding_mode, dtype)


class ConvTranspose2d(_ConvNd):
    """``mint.nn.ConvTranspose2d``: the transposed 2-D convolution, weight ``(C_in, C_out / groups, kH, kW)``."""

    _rank = 2
    _transposed = True
    _PADDING_MODES = ("zeros",)

    def __init__(self, in_channels: int, out_channels: int, kernel_size: Any, stride: Any = 1, padding: Any = 0,
                 output_padding: Any = 0, groups: int = 1, bias: bool = True, dilation: Any = 1,
                 padding_mode: str = "zeros", dtype: Any = None) -> None:
        super().__init__(in_channels, out_channels, kernel_size, stride, padding, dilation, groups, bias,
                         padding_mode, dtype, output_padding)

    def construct(self, input: Any) -> Any:  # noqa: A002
        return F.conv_transpose2d(input, self.weight, self.bias, self.stride, self.padding, self.output_padding,
                                  self.groups, self.dilation)


# --- normalisation ------------------------------------------------------------------------------

class _BatchNormNd(Cell):
    """mint's BatchNorm: Parameters ``weight``/``bias`` (ones/zeros), ``running_mean``/``running_var`` and
    ``num_batches_tracked``; ``momentum`` is the weight of the batch statistic (``None``: cumulative)."""

    _ranks: tuple[int, ...] = ()

    def __init__(self, num_features: int, eps: float = 1e-05, momentum: float | None = 0.1, affine: bool = True,
                 track_running_stats: bool = True, dtype: Any = None) -> None:
        super().__init__()
        cell = type(self).__name__
        self.num_features = _check_positive_int(cell, "num_features", num_features)
        if momentum is not None and (not isinstance(momentum, numbers.Real) or not 0 <= momentum <= 1):
            raise ValueError(f"For '{cell}', 'momentum' must be a number in [0, 1] or None, but got {momentum!r}")
        self.eps, self.momentum = eps, momentum
        self.affine, self.track_running_stats = bool(affine), bool(track_running_stats)
        dt = mstype.float32 if dtype is None else dtype
        n = self.num_features
        self.weight = Parameter(initializer("ones", n, dt), name="weight") if affine else None
        self.bias = Parameter(initializer("zeros", n, dt), name="bias") if affine else None
        if self.track_running_stats:
            self.running_mean = Parameter(initializer("zeros", n, dt), name="running_mean", requires_grad=False)
            self.running_var = Parameter(initializer("ones", n, dt), name="running_var", requires_grad=False)
            self.num_batches_tracked = Parameter(initializer("zeros", (), mstype.int64), name="num_batches_tracked",
                                                 requires_grad=False)
        else:
            self.running_mean = self.running_var = self.num_batches_tracked = None

    def extend_repr(self) -> str:
        return (f"num_features={self.num_features}, eps={self.eps}, momentum={self.momentum}, "
                f"affine={self.affine}, track_running_stats={self.track_running_stats}")

    def construct(self, input: Any) -> Any:  # noqa: A002
        if len(input.shape) not in self._ranks:
            raise ValueError(f"For '{type(self).__name__}', expected a {' or '.join(map(str, self._ranks))}-D "
                             f"input, but got shape {tuple(input.shape)}")
        if self.running_mean is None:  # no running statistics: always the batch's, nothing to update
            return F.batch_norm(input, _channels(input, 0.0), _channels(input, 1.0), self.weight, self.bias, True,
                                0.0, self.eps)
        factor = 0.0 if self.momentum is None else self.momentum
        if self.training:
            self.num_batches_tracked.set_data(self.num_batches_tracked + 1)
            if self.momentum is None:  # the cumulative average
                factor = 1.0 / self.num_batches_tracked.astype(mstype.float32)
        return F.batch_norm(input, self.running_mean, self.running_var, self.weight, self.bias, self.training,
                            factor, self.eps)


def _channels(input: Any, value: float) -> Any:  # noqa: A002
    """Throw-away running statistics (``value`` per channel) for a BatchNorm without them."""
    return _ops.full((input.shape[1],), value, dtype=input.dtype)


class BatchNorm1d(_BatchNormNd):
    """``mint.nn.BatchNorm1d`` over ``(N, C)`` or ``(N, C, L)``."""

    _ranks = (2, 3)

    def __init__(self, num_features: int, eps: float = 1e-05, momentum: float | None = 0.1, affine: bool = True,
                 track_running_stats: bool = True, dtype: Any = None) -> None:
        super().__init__(num_features, eps, momentum, affine, track_running_stats, dtype)


class BatchNorm2d(_BatchNormNd):
    """``mint.nn.BatchNorm2d`` over ``(N, C, H, W)``."""

    _ranks = (4,)

    def __init__(self, num_features: int, eps: float = 1e-05, momentum: float | None = 0.1, affine: bool = True,
                 track_running_stats: bool = True, dtype: Any = None) -> None:
        super().__init__(num_features, eps, momentum, affine, track_running_stats, dtype)


class BatchNorm3d(_BatchNormNd):
    """``mint.nn.BatchNorm3d`` over ``(N, C, D, H, W)``."""

    _ranks = (5,)

    def __init__(self, num_features: int, eps: float = 1e-05, momentum: float | None = 0.1, affine: bool = True,
                 track_running_stats: bool = True, dtype: Any = None) -> None:
        super().__init__(num_features, eps, momentum, affine, track_running_stats, dtype)


class SyncBatchNorm(_BatchNormNd):
    """``mint.nn.SyncBatchNorm``: BatchNorm over ``(N, C, ...)``. Under ``jax.jit`` with the batch sharded, the
    statistics reduce over the whole (global) batch, so no separate synchronisation is needed."""

    _ranks = (2, 3, 4, 5)

    def __init__(self, num_features: int, eps: float = 1e-05, momentum: float = 0.1, affine: bool = True,
                 track_running_stats: bool = True, process_group: str | None = None, dtype: Any = None) -> None:
        super().__init__(num_features, eps, momentum, affine, track_running_stats, dtype)
        self.process_group = process_group


class GroupNorm(Cell):
    """``mint.nn.GroupNorm``: Parameters ``weight`` (ones) and ``bias`` (zeros) of ``(num_channels,)``."""

    def __init__(self, num_groups: int, num_channels: int, eps: float = 1e-05, affine: bool = True,
                 dtype: Any = None) -> None:
        super().__init__()
        self.num_groups = _check_positive_int("GroupNorm", "num_groups", num_groups)
        self.num_channels = _check_positive_int("GroupNorm", "num_channels", num_channels)
        if num_channels % num_groups:
            raise ValueError(f"For 'GroupNorm', 'num_channels' ({num_channels}) must be divisible by "
                             f"'num_groups' ({num_groups})")
        self.eps, self.affine = eps, affine
        dt = mstype.float32 if dtype is None else dtype
        self.weight = Parameter(initializer("ones", num_channels, dt), name="weight") if affine else None
        self.bias = Parameter(initializer("zeros", num_channels, dt), name="bias") if affine else None

    def construct(self, input: Any) -> Any:  # noqa: A002
        return F.group_norm(input, self.num_groups, self.weight, self.bias, self.eps)


# --- activations --------------------------------------------------------------------------------

class ELU(Cell):
    """``mint.nn.ELU``: :func:`mindjax.mint.nn.functional.elu`."""

    def __init__(self, alpha: float = 1.0, inplace: bool = False) -> None:
        super().__init__()
        self.alpha, self.inplace = alpha, inplace

    def construct(self, input: Any) -> Any:  # noqa: A002
        return F.elu(input, self.alpha, self.inplace)


class GELU(Cell):
    """``mint.nn.GELU``: :func:`mindjax.mint.nn.functional.gelu`, exact (``'none'``) or ``'tanh'``-approximated."""

    def __init__(self, approximate: str = "none") -> None:
        super().__init__()
        if approximate not in ("none", "tanh"):
            raise ValueError(f"For 'GELU', 'approximate' must be 'none' or 'tanh', but got {approximate!r}")
        self.approximate = approximate

    def construct(self, input: Any) -> Any:  # noqa: A002
        return F.gelu(input, approximate=self.approximate)


class GLU(Cell):
    """``mint.nn.GLU``: :func:`mindjax.mint.nn.functional.glu` over ``dim``."""

    def __init__(self, dim: int = -1) -> None:
        super().__init__()
        self.dim = dim

    def construct(self, input: Any) -> Any:  # noqa: A002
        return F.glu(input, self.dim)


class Hardtanh(Cell):
    """``mint.nn.Hardtanh``: ``input`` clipped to ``[min_val, max_val]``."""

    def __init__(self, min_val: float = -1.0, max_val: float = 1.0, inplace: bool = False) -> None:
        super().__init__()
        if min_val > max_val:
            raise ValueError(f"For 'Hardtanh', 'min_val' must be <= 'max_val', but got {min_val} > {max_val}")
        self.min_val, self.max_val, self.inplace = min_val, max_val, inplace

    def construct(self, input: Any) -> Any:  # noqa: A002
        return F.hardtanh(input, self.min_val, self.max_val, self.inplace)


class Threshold(Cell):
    """``mint.nn.Threshold``: ``input`` where it is above ``threshold``, else ``value``."""

    def __init__(self, threshold: float, value: float, inplace: bool = False) -> None:
        super().__init__()
        self.threshold, self.value, self.inplace = threshold, value, inplace

    def construct(self, input: Any) -> Any:  # noqa: A002
        return F.threshold(input, self.threshold, self.value, self.inplace)


class Softmax(Cell):
    """``mint.nn.Softmax`` over ``dim`` (``None``: axis 0 for ranks 0, 1 and 3, else 1)."""

    def __init__(self, dim: int | None = None) -> None:
        super().__init__()
        self.dim = dim

    def construct(self, input: Any) -> Any:  # noqa: A002
        return F.softmax(input, self.dim)


class _Inplace(Cell):
    """An activation with mint's ``inplace=False`` argument."""

    _fn_name = ""

    def __init__(self, inplace: bool = False) -> None:
        super().__init__()
        self.inplace = inplace

    def construct(self, input: Any) -> Any:  # noqa: A002
        return getattr(F, self._fn_name)(input, inplace=self.inplace)


class ReLU6(_Inplace):
    """``mint.nn.ReLU6``: ``min(max(input, 0), 6)``."""

    _fn_name = "relu6"

    def __init__(self, inplace: bool = False) -> None:
        super().__init__(inplace)


class SiLU(_Inplace):
    """``mint.nn.SiLU``: ``input * sigmoid(input)``."""

    _fn_name = "silu"

    def __init__(self, inplace: bool = False) -> None:
        super().__init__(inplace)


class _Plain(Cell):
    """An activation without arguments."""

    _fn_name = ""

    def __init__(self) -> None:
        super().__init__()

    def construct(self, input: Any) -> Any:  # noqa: A002
        return getattr(F, self._fn_name)(input)


class LogSigmoid(_Plain):
    """``mint.nn.LogSigmoid``: ``log(sigmoid(input))``."""

    _fn_name = "logsigmoid"


class SELU(_Plain):
    """``mint.nn.SELU``: the scaled ELU."""

    _fn_name = "selu"


class Sigmoid(_Plain):
    """``mint.nn.Sigmoid``."""

    _fn_name = "sigmoid"


class Tanh(_Plain):
    """``mint.nn.Tanh``."""

    _fn_name = "tanh"


# --- padding ------------------------------------------------------------------------------------

class _PadNd(Cell):
    """Padding of the last ``_rank`` axes: ``padding`` an int or ``2 * _rank`` ints (last axis first)."""

    _rank = 1
    _mode = "constant"

    def __init__(self, padding: Any) -> None:
        super().__init__()
        cell, n = type(self).__name__, 2 * self._rank
        if isinstance(padding, (int, np.integer)) and not isinstance(padding, bool):
            padding = (int(padding),) * n
        if not isinstance(padding, (tuple, list)) or len(padding) != n or any(
                isinstance(p, bool) or not isinstance(p, (int, np.integer)) for p in padding):
            raise TypeError(f"For '{cell}', 'padding' must be an int or a tuple of {n} ints, but got {padding!r}")
        self.padding = tuple(int(p) for p in padding)

    def extend_repr(self) -> str:
        return f"padding={self.padding}"

    def construct(self, input: Any) -> Any:  # noqa: A002
        return F.pad(input, self.padding, self._mode)


def _pad_class(name: str, rank: int, mode: str) -> type:
    doc = f"``mint.nn.{name}``: {mode} padding of the last {rank} axes (``padding``: an int or {2 * rank} ints)."
    return type(name, (_PadNd,), {"_rank": rank, "_mode": mode, "__doc__": doc, "__module__": __name__})


ReflectionPad1d = _pad_class("ReflectionPad1d", 1, "reflect")
ReflectionPad2d = _pad_class("ReflectionPad2d", 2, "reflect")
ReflectionPad3d = _pad_class("ReflectionPad3d", 3, "reflect")
ReplicationPad1d = _pad_class("ReplicationPad1d", 1, "replicate")
ReplicationPad2d = _pad_class("ReplicationPad2d", 2, "replicate")
ReplicationPad3d = _pad_class("ReplicationPad3d", 3, "replicate")
ZeroPad1d = _pad_class("ZeroPad1d", 1, "constant")
ZeroPad3d = _pad_class("ZeroPad3d", 3, "constant")


# --- losses -------------------------------------------------------------------------------------

class BCEWithLogitsLoss(Cell):
    """``mint.nn.BCEWithLogitsLoss``: :func:`mindjax.mint.nn.functional.binary_cross_entropy_with_logits`."""

    def __init__(self, weight: Any = None, reduction: str = "mean", pos_weight: Any = None) -> None:
        super().__init__()
        self.weight, self.reduction, self.pos_weight = weight, reduction, pos_weight

    def construct(self, input: Any, target: Any) -> Any:  # noqa: A002
        return F.binary_cross_entropy_with_logits(input, target, self.weight, self.reduction, self.pos_weight)


class KLDivLoss(Cell):
    """``mint.nn.KLDivLoss``: :func:`mindjax.mint.nn.functional.kl_div` (``input`` holds log-probabilities)."""

    def __init__(self, reduction: str = "mean", log_target: bool = False) -> None:
        super().__init__()
        self.reduction, self.log_target = reduction, log_target

    def construct(self, input: Any, target: Any) -> Any:  # noqa: A002
        return F.kl_div(input, target, self.reduction, self.log_target)


class SmoothL1Loss(Cell):
    """``mint.nn.SmoothL1Loss``: :func:`mindjax.mint.nn.functional.smooth_l1_loss`."""

    def __init__(self, reduction: str = "mean", beta: float = 1.0) -> None:
        super().__init__()
        self.reduction, self.beta = reduction, beta

    def construct(self, input: Any, target: Any) -> Any:  # noqa: A002
        return F.smooth_l1_loss(input, target, self.reduction, self.beta)


# --- pooling, folding, resampling ---------------------------------------------------------------

class AdaptiveMaxPool1d(Cell):
    """``mint.nn.AdaptiveMaxPool1d``: ``(N, C, L)`` to length ``output_size`` (and the indices on request)."""

    def __init__(self, output_size: int, return_indices: bool = False) -> None:
        super().__init__()
        self.output_size, self.return_indices = output_size, return_indices

    def construct(self, input: Any) -> Any:  # noqa: A002
        return F.adaptive_max_pool1d(input, self.output_size, self.return_indices)


class Fold(Cell):
    """``mint.nn.Fold``: :func:`mindjax.mint.nn.functional.fold`."""

    def __init__(self, output_size: Any, kernel_size: Any, dilation: Any = 1, padding: Any = 0,
                 stride: Any = 1) -> None:
        super().__init__()
        self.output_size, self.kernel_size = output_size, kernel_size
        self.dilation, self.padding, self.stride = dilation, padding, stride

    def construct(self, input: Any) -> Any:  # noqa: A002
        return F.fold(input, self.output_size, self.kernel_size, self.dilation, self.padding, self.stride)


class Unfold(Cell):
    """``mint.nn.Unfold``: :func:`mindjax.mint.nn.functional.unfold`."""

    def __init__(self, kernel_size: Any, dilation: Any = 1, padding: Any = 0, stride: Any = 1) -> None:
        super().__init__()
        self.kernel_size, self.dilation, self.padding, self.stride = kernel_size, dilation, padding, stride

    def construct(self, input: Any) -> Any:  # noqa: A002
        return F.unfold(input, self.kernel_size, self.dilation, self.padding, self.stride)


class UpsamplingNearest2d(Cell):
    """``mint.nn.UpsamplingNearest2d``: nearest-neighbour resizing of ``(N, C, H, W)``."""

    _mode, _align = "nearest", None

    def __init__(self, size: Any = None, scale_factor: Any = None) -> None:
        super().__init__()
        if (size is None) == (scale_factor is None):
            raise ValueError(f"For '{type(self).__name__}', exactly one of 'size' and 'scale_factor' must be given, "
                             f"but got size={size!r} and scale_factor={scale_factor!r}")
        self.size, self.scale_factor = size, scale_factor

    def construct(self, input: Any) -> Any:  # noqa: A002
        return F.upsample(input, self.size, self.scale_factor, self._mode, self._align)


class UpsamplingBilinear2d(UpsamplingNearest2d):
    """``mint.nn.UpsamplingBilinear2d``: bilinear resizing of ``(N, C, H, W)`` with ``align_corners=True``."""

    _mode, _align = "bilinear", True
