"""Activation Cells with MindSpore's names, defaults and numerics, and ``get_activation``.

Each Cell is a thin wrapper over ``jax.nn``/``jax.numpy``; the formulas are
those of MindSpore 2.10's primitives (``HSwish`` is ``x * relu6(x + 3) / 6``,
``GELU()`` is the tanh approximation, ``LeakyReLU`` takes ``max(alpha * x, x)``).

Example:
    >>> import mindjax as ms
    >>> from mindjax import nn
    >>> nn.ReLU()(ms.Tensor([-1.0, 2.0])).tolist()
    [0.0, 2.0]
    >>> type(nn.get_activation('gelu')).__name__
    'GELU'
"""
from __future__ import annotations

import numbers
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from mindjax.common.precision import run_as
from mindjax.common.tensor import Tensor
from mindjax.cells.cell import Cell
from mindjax.cells.layers._inputs import float_input
from mindjax.cells.parameter import Parameter
from mindjax.common.tensor import as_array as _arr
from mindjax.ops import functional as _F
from mindjax.ops import primitives as _prim

__all__ = ["ReLU", "ReLU6", "GELU", "FastGelu", "Sigmoid", "Tanh", "Softmax", "Softmin",
           "Softmax2d", "LogSoftmax", "LeakyReLU", "SiLU", "ELU", "CELU", "SeLU", "Softplus",
           "HSwish", "HSigmoid", "Mish", "PReLU", "Softsign", "Hardtanh", "LogSigmoid",
           "Tanhshrink", "SoftShrink", "HShrink", "Threshold", "GLU", "get_activation"]


def _check_number(value: Any, arg: str, cls_name: str) -> float:
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"For '{cls_name}', '{arg}' must be a float or int, got "
                        f"{type(value).__name__}")
    return value


class ReLU(Cell):
    """``max(x, 0)`` element-wise.

    Inputs:
        input: a Tensor of any shape. Returns a Tensor of the same shape and dtype.

    ``self.relu`` is MindSpore's ``ReLU`` Primitive attribute (subclasses call it).
    """

    def __init__(self) -> None:
        super().__init__()
        self.relu = _prim.ReLU()

    def construct(self, input: Any) -> jax.Array:  # noqa: A002 (MindSpore's argument name)
        return jax.nn.relu(_arr(input))


class ReLU6(Cell):
    """``min(max(x, 0), 6)`` element-wise."""

    def construct(self, x: Any) -> jax.Array:
        return jnp.clip(_arr(x), 0, 6)


class GELU(Cell):
    """Gaussian error linear unit.

    Arguments:
        approximate: ``True`` (MindSpore's default) uses the tanh approximation
            ``0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))``; ``False`` the exact erf form.
    """

    def __init__(self, approximate: bool = True) -> None:
        super().__init__()
        if not isinstance(approximate, bool):
            raise TypeError(f"For 'GELU', 'approximate' must be a bool, got "
                            f"{type(approximate).__name__}")
        self.approximate = "tanh" if approximate else "none"

    def construct(self, x: Any) -> jax.Array:
        return jax.nn.gelu(_arr(x), approximate=self.approximate == "tanh")


class FastGelu(Cell):
    """MindSpore's fast GELU: ``x / (1 + exp(-1.702 |x|)) * exp(0.851 (x - |x|))``."""

    def construct(self, x: Any) -> jax.Array:
        x = _arr(x)
        ax = jnp.abs(x)
        return x / (1 + jnp.exp(-1.702 * ax)) * jnp.exp(0.851 * (x - ax))


class Sigmoid(Cell):
    """``1 / (1 + exp(-x))`` element-wise; ``self.sigmoid`` is MindSpore's Primitive attribute."""

    def __init__(self) -> None:
        super().__init__()
        self.sigmoid = _prim.Sigmoid()

    def construct(self, x: Any) -> jax.Array:
        return jax.nn.sigmoid(_arr(x))


class Tanh(Cell):
    """Hyperbolic tangent element-wise; ``self.tanh`` is MindSpore's Primitive attribute."""

    def __init__(self) -> None:
        super().__init__()
        self.tanh = _prim.Tanh()

    def construct(self, x: Any) -> jax.Array:
        return jnp.tanh(_arr(x))


class Softmax(Cell):
    """Softmax along ``axis``.

    Arguments:
        axis: an int or a tuple of ints (default ``-1``).

    ``self.softmax`` is MindSpore's ``Softmax`` Primitive attribute, its axis a tuple.
    """

    def __init__(self, axis: int | tuple[int, ...] = -1) -> None:
        super().__init__()
        self.axis = axis
        self.softmax = _prim.Softmax(axis)

    def construct(self, input: Any) -> jax.Array:  # noqa: A002
        return run_as("Softmax", jax.nn.softmax, float_input(self._where(), "input", input), axis=self.axis)  # MindSpore's Softmax Primitive


class Softmin(Cell):
    """``softmax(-x)`` along ``axis`` (default ``-1``)."""

    def __init__(self, axis: int | tuple[int, ...] = -1) -> None:
        super().__init__()
        self.axis = axis

    def construct(self, x: Any) -> jax.Array:
        return jax.nn.softmax(-_arr(x), axis=self.axis)


class Softmax2d(Cell):
    """Softmax over the channel axis (``-3``) of a 3-D ``(C, H, W)`` or 4-D ``(N, C, H, W)`` input."""

    def construct(self, x: Any) -> jax.Array:
        x = _arr(x)
        if x.ndim not in (3, 4):
            raise ValueError(f"{self._where()}, the input must have 3 or 4 dims, got shape "
                             f"{tuple(x.shape)}")
        return jax.nn.softmax(x, axis=-3)


class LogSoftmax(Cell):
    """``log(softmax(x))`` along ``axis`` (default ``-1``), computed stably.

    ``self.log_softmax`` is MindSpore's ``LogSoftmax`` Primitive attribute.
    """

    def __init__(self, axis: int = -1) -> None:
        super().__init__()
        self.axis = axis
        self.log_softmax = _prim.LogSoftmax(axis)

    def construct(self, x: Any) -> jax.Array:
        return run_as("LogSoftmax", jax.nn.log_softmax, float_input(self._where(), "x", x), axis=self.axis)  # MindSpore's LogSoftmax


class LeakyReLU(Cell):
    """``max(alpha * x, x)`` (``min`` when ``alpha > 1``), as MindSpore computes it.

    Arguments:
        alpha: the slope for negative inputs (default ``0.2``).
    """

    def __init__(self, alpha: float = 0.2) -> None:
        super().__init__()
        self.alpha = _check_number(alpha, "alpha", "LeakyReLU")

    def construct(self, x: Any) -> jax.Array:
        x = _arr(x)
        scaled = jnp.asarray(self.alpha, x.dtype) * x
        return jnp.minimum(scaled, x) if self.alpha > 1 else jnp.maximum(scaled, x)


class SiLU(Cell):
    """``x * sigmoid(x)``."""

    def construct(self, x: Any) -> jax.Array:
        return jax.nn.silu(_arr(x))


class ELU(Cell):
    """``x`` for ``x > 0``, else ``alpha * (exp(x) - 1)``.

    Arguments:
        alpha: default ``1.0``. MindSpore accepts only ``1.0``; MindJAX computes any value.
    """

    def __init__(self, alpha: float = 1.0) -> None:
        super().__init__()
        self.alpha = _check_number(alpha, "alpha", "ELU")

    def construct(self, x: Any) -> jax.Array:
        return jax.nn.elu(_arr(x), alpha=self.alpha)


class CELU(Cell):
    """``max(0, x) + min(0, alpha * (exp(x / alpha) - 1))``.

    Arguments:
        alpha: default ``1.0``; must not be 0.
    """

    def __init__(self, alpha: float = 1.0) -> None:
        super().__init__()
        self.alpha = _check_number(alpha, "alpha", "CELU")
        if self.alpha == 0:
            raise ValueError("For 'CELU', 'alpha' must not be 0")

    def construct(self, x: Any) -> jax.Array:
        return jax.nn.celu(_arr(x), alpha=self.alpha)


class SeLU(Cell):
    """Scaled ELU with the standard constants (scale 1.0507..., alpha 1.6732...)."""

    def construct(self, input_x: Any) -> jax.Array:
        return jax.nn.selu(_arr(input_x))


class Softplus(Cell):
    """``log(1 + exp(beta * x)) / beta``; linear where ``beta * x > threshold``.

    MindSpore 2.10 has no ``nn.Softplus``; this Cell follows ``ops.softplus``.

    Arguments:
        beta: default ``1``; must be non-zero.
        threshold: above it the input is returned unchanged (default ``20``).
    """

    def __init__(self, beta: float = 1, threshold: float = 20) -> None:
        super().__init__()
        self.beta = _check_number(beta, "beta", "Softplus")
        self.threshold = _check_number(threshold, "threshold", "Softplus")
        if self.beta == 0:
            raise ValueError("For 'Softplus', 'beta' must not be 0")

    def construct(self, x: Any) -> jax.Array:
        x = _arr(x)
        scaled = x * self.beta
        return jnp.where(scaled > self.threshold, x, jax.nn.softplus(scaled) / self.beta)


class HSwish(Cell):
    """Hard swish: ``x * relu6(x + 3) / 6``."""

    def construct(self, input: Any) -> jax.Array:  # noqa: A002
        x = _arr(input)
        return x * jnp.clip(x + 3, 0, 6) / 6


class HSigmoid(Cell):
    """Hard sigmoid: ``relu6(x + 3) / 6``."""

    def construct(self, input: Any) -> jax.Array:  # noqa: A002
        return jnp.clip(_arr(input) + 3, 0, 6) / 6


class Mish(Cell):
    """``x * tanh(softplus(x))``."""

    def construct(self, input_x: Any) -> jax.Array:
        return _F.mish(input_x)


class Softsign(Cell):
    """``x / (1 + |x|)``."""

    def construct(self, x: Any) -> jax.Array:
        return jax.nn.soft_sign(_arr(x))


class Hardtanh(Cell):
    """Clamp to ``[min_val, max_val]``.

    Arguments:
        min_val: default ``-1.0``.
        max_val: default ``1.0``; must exceed ``min_val``.
    """

    def __init__(self, min_val: float = -1.0, max_val: float = 1.0) -> None:
        super().__init__()
        self.min_val = _check_number(min_val, "min_val", "Hardtanh")
        self.max_val = _check_number(max_val, "max_val", "Hardtanh")
        if self.min_val >= self.max_val:
            raise ValueError(f"For 'Hardtanh', 'min_val' must be less than 'max_val', got "
                             f"{min_val} and {max_val}")

    def construct(self, x: Any) -> jax.Array:
        x = _arr(x)
        return jnp.minimum(jnp.maximum(x, self.min_val), self.max_val).astype(x.dtype)


class LogSigmoid(Cell):
    """``log(sigmoid(x))``."""

    def construct(self, input_x: Any) -> jax.Array:
        return jax.nn.log_sigmoid(_arr(input_x))


class Tanhshrink(Cell):
    """``x - tanh(x)``."""

    def construct(self, x: Any) -> jax.Array:
        x = _arr(x)
        return x - jnp.tanh(x)


class SoftShrink(Cell):
    """``x - lambd`` above ``lambd``, ``x + lambd`` below ``-lambd``, else 0.

    Arguments:
        lambd: default ``0.5``; must be non-negative.
    """

    def __init__(self, lambd: float = 0.5) -> None:
        super().__init__()
        self.lambd = _check_number(lambd, "lambd", "SoftShrink")
        if self.lambd < 0:
            raise ValueError(f"For 'SoftShrink', 'lambd' must be >= 0, got {lambd}")

    def construct(self, input: Any) -> jax.Array:  # noqa: A002
        x = _arr(input)
        return jnp.where(x > self.lambd, x - self.lambd,
                         jnp.where(x < -self.lambd, x + self.lambd, jnp.zeros_like(x)))


class HShrink(Cell):
    """``x`` where ``|x| > lambd``, else 0 (``lambd`` default ``0.5``)."""

    def __init__(self, lambd: float = 0.5) -> None:
        super().__init__()
        self.lambd = _check_number(lambd, "lambd", "HShrink")

    def construct(self, input: Any) -> jax.Array:  # noqa: A002
        x = _arr(input)
        return jnp.where(jnp.abs(x) > self.lambd, x, jnp.zeros_like(x))


class Threshold(Cell):
    """``x`` where ``x > threshold``, else ``value``.

    Arguments:
        threshold: the cut-off.
        value: the replacement below (or at) the cut-off.
    """

    def __init__(self, threshold: float, value: float) -> None:
        super().__init__()
        self.threshold = _check_number(threshold, "threshold", "Threshold")
        self.value = _check_number(value, "value", "Threshold")

    def construct(self, input_x: Any) -> jax.Array:
        x = _arr(input_x)
        return jnp.where(x > self.threshold, x, jnp.asarray(self.value, x.dtype))


class GLU(Cell):
    """Gated linear unit: split in two halves ``a, b`` along ``axis``; ``a * sigmoid(b)``."""

    def __init__(self, axis: int = -1) -> None:
        super().__init__()
        self.dim = axis

    def construct(self, x: Any) -> jax.Array:
        x = _arr(x)
        if x.shape[self.dim] % 2:
            raise ValueError(f"{self._where()}, the size of axis {self.dim} must be even, got "
                             f"shape {tuple(x.shape)}")
        a, b = jnp.split(x, 2, axis=self.dim)
        return a * jax.nn.sigmoid(b)


class PReLU(Cell):
    """``x`` for ``x > 0``, else ``w * x`` with a learnable ``w`` per channel (axis 1).

    Arguments:
        channel: the number of channels, or 1 to share one slope (default ``1``).
        w: the initial slope: a float, a list of ``channel`` floats, or a 1-D
            float Tensor of length ``channel`` (default ``0.25``).

    The Parameter is stored as ``self.w`` and named ``'a'``, as in MindSpore
    (inside a network it becomes ``<path>.w``).
    """

    def __init__(self, channel: int = 1, w: Any = 0.25) -> None:
        super().__init__()
        if isinstance(channel, bool) or not isinstance(channel, int):
            raise TypeError(f"For 'PReLU', 'channel' must be an int, got {type(channel).__name__}")
        if channel <= 0:
            raise ValueError(f"For 'PReLU', 'channel' must be a positive int, got {channel}")
        if isinstance(w, (float, np.floating)):
            value = jnp.full((channel,), w, jnp.float32)
        elif isinstance(w, list):
            if len(w) != channel:
                raise ValueError(f"For 'PReLU', the length of 'w' must equal 'channel' ({channel}), "
                                 f"got {len(w)}")
            if not all(isinstance(i, (float, np.floating)) for i in w):
                raise ValueError(f"For 'PReLU', every element of 'w' must be a float, got {w}")
            value = jnp.asarray(w, jnp.float32)
        elif isinstance(w, (jax.Array, Tensor)):
            value = jnp.asarray(w)
            if value.dtype not in (jnp.float16, jnp.float32):
                raise ValueError(f"For 'PReLU', the dtype of 'w' must be float16 or float32, "
                                 f"got {value.dtype}")
            if value.ndim != 1 or value.shape[0] != channel:
                raise ValueError(f"For 'PReLU', 'w' must have shape ({channel},), got "
                                 f"{tuple(value.shape)}")
        else:
            raise TypeError(f"For 'PReLU', 'w' must be a float, a list or a Tensor, got "
                            f"{type(w).__name__}")
        self.w = Parameter(value, name="a")

    def construct(self, x: Any) -> jax.Array:
        x = _arr(x)
        w = self.w._value.astype(x.dtype)
        if x.ndim >= 2 and w.shape[0] != 1:
            if x.shape[1] != w.shape[0]:
                raise ValueError(f"{self._where()}, expected {w.shape[0]} channels on axis 1, got "
                                 f"input shape {tuple(x.shape)}")
            w = w.reshape((1, -1) + (1,) * (x.ndim - 2))
        elif w.shape[0] != 1 and (x.ndim == 0 or x.shape[-1] != w.shape[0]):
            raise ValueError(f"{self._where()}, expected {w.shape[0]} channels, got input shape "
                             f"{tuple(x.shape)}")
        return jnp.where(x > 0, x, w * x)


class _UnknownActivation(KeyError, ValueError):
    """MindSpore raises KeyError for an unknown name; ValueError is what callers of layers expect."""

    def __str__(self) -> str:
        return str(self.args[0])


_ACTIVATIONS: dict[str, type[Cell]] = {
    "softmin": Softmin, "softmax": Softmax, "softmax2d": Softmax2d, "logsoftmax": LogSoftmax,
    "relu": ReLU, "relu6": ReLU6, "silu": SiLU, "tanh": Tanh, "tanhshrink": Tanhshrink,
    "hardtanh": Hardtanh, "gelu": GELU, "fast_gelu": FastGelu, "elu": ELU, "sigmoid": Sigmoid,
    "softsign": Softsign, "prelu": PReLU, "leakyrelu": LeakyReLU, "hswish": HSwish,
    "hsigmoid": HSigmoid, "logsigmoid": LogSigmoid, "softshrink": SoftShrink, "hshrink": HShrink,
    "mish": Mish, "celu": CELU, "selu": SeLU, "softplus": Softplus,
}


def get_activation(name: str | None, prim_name: str | None = None) -> Cell | None:
    """The activation Cell for a MindSpore name (``'relu'``, ``'gelu'``, ``'sigmoid'`` ...).

    Arguments:
        name: the name, or ``None``.
        prim_name: the caller's name, used in the error message.

    Returns:
        a new Cell built with its defaults, or ``None`` when ``name`` is ``None``.

    Raises:
        KeyError (also a ValueError): ``name`` is not a known activation.
    """
    if name is None:
        return None
    if not isinstance(name, str) or name not in _ACTIVATIONS:
        prefix = f"For '{prim_name}', the" if prim_name else "The"
        raise _UnknownActivation(f"{prefix} 'activation' name must be one of "
                                 f"{sorted(_ACTIVATIONS)}, got {name!r}")
    return _ACTIVATIONS[name]()
