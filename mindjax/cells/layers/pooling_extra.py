"""More pooling and normalisation layers: 3-D max/average pooling, adaptive 3-D pooling, power-average
pooling, max unpooling and local response normalisation. Each calls its op in ``ops.function.nn_func``.

Example:
    >>> import numpy as np
    >>> from mindjax import nn
    >>> nn.MaxPool3d(2, 2)(np.zeros((1, 1, 4, 4, 4), np.float32)).shape
    (1, 1, 2, 2, 2)
"""
from __future__ import annotations

from typing import Any

import jax
import jax.numpy as jnp

from mindjax.cells.cell import Cell
from mindjax.common.tensor import as_array as _arr
from mindjax.ops.function import nn_func as _nn

__all__ = ["MaxPool3d", "AvgPool3d", "AdaptiveAvgPool3d", "AdaptiveMaxPool3d", "LPPool1d", "LPPool2d",
           "MaxUnpool1d", "MaxUnpool2d", "MaxUnpool3d", "LRN", "FractionalMaxPool2d", "FractionalMaxPool3d"]


def _triple(where: str, name: str, v: Any) -> tuple[int, int, int]:
    if isinstance(v, int) and not isinstance(v, bool):
        return (v, v, v)
    if isinstance(v, (tuple, list)) and len(v) == 3 and all(isinstance(i, int) for i in v):
        return tuple(v)  # type: ignore[return-value]
    raise TypeError(f"For '{where}', '{name}' must be an int or a tuple of three ints, got {v!r}")


def _same_pads(x: jax.Array, k: tuple[int, ...], s: tuple[int, ...]) -> list[tuple[int, int]]:
    pads = []
    for i, (kk, ss) in enumerate(zip(k, s)):
        n = x.shape[x.ndim - 3 + i]
        out = -(-n // ss)
        total = max((out - 1) * ss + kk - n, 0)
        pads.append((total // 2, total - total // 2))
    return pads


class MaxPool3d(Cell):
    """3-D max pooling over ``(N, C, D, H, W)`` or ``(C, D, H, W)``.

    Arguments:
        kernel_size, stride: ints or triples.
        pad_mode: ``'valid'``, ``'same'`` or ``'pad'`` (then ``padding`` applies).
        padding, dilation: ints or triples.
        return_indices: also return the flat indices of the maxima.
        ceil_mode: round output sizes up.
    """

    def __init__(self, kernel_size: Any = 1, stride: Any = 1, pad_mode: str = "valid", padding: Any = 0,
                 dilation: Any = 1, return_indices: bool = False, ceil_mode: bool = False) -> None:
        super().__init__()
        if pad_mode.lower() not in ("valid", "same", "pad"):
            raise ValueError(f"For 'MaxPool3d', 'pad_mode' must be 'valid', 'same' or 'pad', got {pad_mode!r}")
        self.kernel_size = _triple("MaxPool3d", "kernel_size", kernel_size)
        self.stride = _triple("MaxPool3d", "stride", stride)
        self.pad_mode, self.padding = pad_mode.lower(), _triple("MaxPool3d", "padding", padding)
        self.dilation, self.return_indices, self.ceil_mode = dilation, bool(return_indices), bool(ceil_mode)

    def construct(self, x: Any) -> Any:
        a = _arr(x)
        if self.pad_mode == "same":
            pads = _same_pads(a, self.kernel_size, self.stride)
            a = jnp.pad(a, [(0, 0)] * (a.ndim - 3) + pads, constant_values=-jnp.inf)
        padding = self.padding if self.pad_mode == "pad" else 0
        return _nn.max_pool3d(a, self.kernel_size, self.stride, padding, self.dilation, self.ceil_mode,
                              self.return_indices)


class AvgPool3d(Cell):
    """3-D average pooling over ``(N, C, D, H, W)`` or ``(C, D, H, W)``; arguments as :class:`MaxPool3d`,
    plus ``count_include_pad`` and ``divisor_override``."""

    def __init__(self, kernel_size: Any = 1, stride: Any = 1, pad_mode: str = "valid", padding: Any = 0,
                 ceil_mode: bool = False, count_include_pad: bool = True, divisor_override: int | None = None) -> None:
        super().__init__()
        if pad_mode.lower() not in ("valid", "same", "pad"):
            raise ValueError(f"For 'AvgPool3d', 'pad_mode' must be 'valid', 'same' or 'pad', got {pad_mode!r}")
        self.kernel_size = _triple("AvgPool3d", "kernel_size", kernel_size)
        self.stride = _triple("AvgPool3d", "stride", stride)
        self.pad_mode, self.padding = pad_mode.lower(), _triple("AvgPool3d", "padding", padding)
        self.ceil_mode, self.count_include_pad = bool(ceil_mode), bool(count_include_pad)
        self.divisor_override = divisor_override or 0

    def construct(self, x: Any) -> jax.Array:
        a = _arr(x)
        if self.pad_mode == "same":
            pads = _same_pads(a, self.kernel_size, self.stride)
            if all(lo == hi for lo, hi in pads):
                return _nn.avg_pool3d(a, self.kernel_size, self.stride, tuple(lo for lo, _ in pads), self.ceil_mode,
                                      False, self.divisor_override)
            a = jnp.pad(a, [(0, 0)] * (a.ndim - 3) + pads)
        padding = self.padding if self.pad_mode == "pad" else 0
        return _nn.avg_pool3d(a, self.kernel_size, self.stride, padding, self.ceil_mode, self.count_include_pad,
                              self.divisor_override)


class AdaptiveAvgPool3d(Cell):
    """Average pooling of ``(N, C, D, H, W)`` to ``output_size`` (an int or a triple; None keeps a size)."""

    def __init__(self, output_size: Any) -> None:
        super().__init__()
        self.output_size = output_size

    def construct(self, input: Any) -> jax.Array:  # noqa: A002
        return _nn.adaptive_avg_pool3d(input, self.output_size)


class AdaptiveMaxPool3d(Cell):
    """Max pooling of ``(N, C, D, H, W)`` to ``output_size``, optionally with the maxima's indices."""

    def __init__(self, output_size: Any, return_indices: bool = False) -> None:
        super().__init__()
        self.output_size, self.return_indices = output_size, bool(return_indices)

    def construct(self, input: Any) -> Any:  # noqa: A002
        return _nn.adaptive_max_pool3d(input, self.output_size, self.return_indices)


class LPPool1d(Cell):
    """Power-average pooling ``(sum x ** p) ** (1 / p)`` over windows of ``(N, C, L)``."""

    def __init__(self, norm_type: float, kernel_size: int, stride: Any = None, ceil_mode: bool = False) -> None:
        super().__init__()
        self.norm_type, self.kernel_size, self.stride, self.ceil_mode = norm_type, kernel_size, stride, ceil_mode

    def construct(self, x: Any) -> jax.Array:
        return _nn.lp_pool1d(x, self.norm_type, self.kernel_size, self.stride, self.ceil_mode)


class LPPool2d(Cell):
    """Power-average pooling ``(sum x ** p) ** (1 / p)`` over windows of ``(N, C, H, W)``."""

    def __init__(self, norm_type: float, kernel_size: Any, stride: Any = None, ceil_mode: bool = False) -> None:
        super().__init__()
        self.norm_type, self.kernel_size, self.stride, self.ceil_mode = norm_type, kernel_size, stride, ceil_mode

    def construct(self, x: Any) -> jax.Array:
        return _nn.lp_pool2d(x, self.norm_type, self.kernel_size, self.stride, self.ceil_mode)


class _MaxUnpool(Cell):
    _fn: Any = None

    def __init__(self, kernel_size: Any, stride: Any = None, padding: Any = 0) -> None:
        super().__init__()
        self.kernel_size, self.stride, self.padding = kernel_size, stride, padding

    def construct(self, x: Any, indices: Any, output_size: Any = None) -> jax.Array:
        return type(self)._fn(x, indices, self.kernel_size, self.stride, self.padding, output_size)


class MaxUnpool1d(_MaxUnpool):
    """The partial inverse of 1-D max pooling, given the pooling's indices."""

    _fn = staticmethod(_nn.max_unpool1d)


class MaxUnpool2d(_MaxUnpool):
    """The partial inverse of 2-D max pooling, given the pooling's indices."""

    _fn = staticmethod(_nn.max_unpool2d)


class MaxUnpool3d(_MaxUnpool):
    """The partial inverse of 3-D max pooling, given the pooling's indices."""

    _fn = staticmethod(_nn.max_unpool3d)


class LRN(Cell):
    """Local response normalisation across channels (``ops.lrn``); the Primitive is ``self.lrn``."""

    def __init__(self, depth_radius: int = 5, bias: float = 1.0, alpha: float = 1.0, beta: float = 0.5,
                 norm_region: str = "ACROSS_CHANNELS") -> None:
        super().__init__()
        from mindjax.ops.operations.nn_ops import LRN as _LRNPrimitive

        self.lrn = _LRNPrimitive(depth_radius, bias, alpha, beta, norm_region)

    def construct(self, input_x: Any) -> jax.Array:
        return self.lrn(input_x)


def _fractional_tuple(value: Any, dims: int, cls: str) -> tuple[int, ...]:
    pair = "two" if dims == 2 else "three"
    ok = (isinstance(value, int) and not isinstance(value, bool) and value > 0) or (
        isinstance(value, (tuple, list)) and len(value) == dims
        and all(isinstance(v, int) and not isinstance(v, bool) and v > 0 for v in value))
    if not ok:
        raise ValueError(f"For '{cls}' attr 'ksize' must be an positive int number or a tuple of {pair} positive "
                         f"int numbers, but got {value}")
    return (value,) * dims if isinstance(value, int) else tuple(value)


class _FractionalMaxPool(Cell):
    _dims = 2
    _func = "fractional_max_pool2d"
    _kernel_op = "FractionalMaxPoolWithFixedKsize"

    def __init__(self, kernel_size: Any, output_size: Any = None, output_ratio: Any = None,
                 return_indices: bool = False, _random_samples: Any = None) -> None:
        super().__init__()
        dims, func = self._dims, self._func
        self._kernel = _fractional_tuple(kernel_size, dims, self._kernel_op)
        if output_size is None and output_ratio is None:
            raise ValueError(f"For {func}, 'output_size' and 'output_ratio' can not be None at the same time, "
                             f"but got None and None .")
        if output_size is None:
            self._ratios = _nn.check_fractional_output_ratio(output_ratio, dims, func)
            self._out = None
        else:
            self._out = _fractional_tuple(output_size, dims, self._kernel_op)
            self._ratios = None
        if not isinstance(return_indices, bool):
            raise TypeError(f"For '{func}', the type of 'return_indices' should be 'bool', "
                            f"but got type '{type(return_indices).__name__}'.")
        self.kernel_size = kernel_size
        self.output_size = output_size
        self.output_ratio = output_ratio
        self.return_indices = return_indices
        self._random_samples = _random_samples

    def construct(self, input: Any) -> Any:  # noqa: A002  (MindSpore's argument name)
        return getattr(_nn, self._func)(input, self.kernel_size, self.output_size, self.output_ratio,
                                        self.return_indices, self._random_samples)


class FractionalMaxPool2d(_FractionalMaxPool):
    """Fractional max pooling over ``(N, C, H, W)`` or ``(C, H, W)`` (MindSpore's ``FractionalMaxPool2d``).

    Each output cell is the max of a ``kernel_size`` window whose start along an axis is
    ``int((i + u) * alpha) - int(u * alpha)`` (the last one ``in - k``), with
    ``alpha = (in - k) / (out - 1)`` and ``u`` the per-(N, C) random offset:
    ``_random_samples[n, c] = (u_width, u_height)`` in ``[0, 1)``, drawn from MindJAX's key
    when not given.

    Arguments:
        kernel_size: an int or ``(kH, kW)``.
        output_size: an int or ``(oH, oW)``; or None to use ``output_ratio``.
        output_ratio: a float or ``(rH, rW)`` in (0, 1): ``out = int(in * ratio)``.
        return_indices: also return the flat ``H * W`` index of each max (int64). Default False.
        _random_samples: the offsets, a float Tensor ``(N, C, 2)``, or None. Default None.

    Outputs:
        the pooled Tensor (and the indices with ``return_indices``).

    Raises:
        ValueError: neither ``output_size`` nor ``output_ratio``, a ratio outside (0, 1), a
            non-positive size, ``ksize + out - 1 > in``, an input that is not 3-D or 4-D.
        TypeError: an int ``output_ratio``, ``return_indices`` not a bool.
    """


class FractionalMaxPool3d(_FractionalMaxPool):
    """Fractional max pooling over ``(N, C, D, H, W)`` or ``(C, D, H, W)`` (MindSpore's ``FractionalMaxPool3d``).

    As :class:`FractionalMaxPool2d`, with ``_random_samples[n, c] = (u_depth, u_height, u_width)``
    of shape ``(N, C, 3)`` (``(1, C, 3)`` for a 4-D input) and indices into ``D * H * W``.
    """

    _dims = 3
    _func = "fractional_max_pool3d"
    _kernel_op = "FractionalMaxPool3DWithFixedKsize"

