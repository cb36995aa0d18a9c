"""Parameter initializers with MindSpore's names, defaults and fan rules.

Values are drawn from the global numpy generator (seeded by ``ms.set_seed``),
as MindSpore does, so building a network compiles nothing.

Example:
    >>> import mindjax as ms
    >>> from mindjax.common.initializer import initializer, Normal
    >>> w = initializer(Normal(sigma=0.02), (4, 3), ms.float32)
    >>> w.shape, w.dtype == ms.float32
    ((4, 3), True)
    >>> initializer("zeros", (2,)).tolist()
    [0.0, 0.0]
"""
from __future__ import annotations

import math
import numbers
from typing import Any, Sequence

import jax
import jax.numpy as jnp
import numpy as np

from mindjax.common.dtype import to_jax_dtype
from mindjax.common.random import numpy_rng


def _fans(shape: Sequence[int]) -> tuple[int, int]:
    if len(shape) < 2:
        raise ValueError(f"'fan_in' and 'fan_out' can not be computed for a tensor with fewer than "
                         f"2 dimensions, got shape {tuple(shape)}")
    receptive = int(np.prod(shape[2:])) if len(shape) > 2 else 1
    return int(shape[1]) * receptive, int(shape[0]) * receptive


def calculate_gain(nonlinearity: str, param: float | None = None) -> float:
    """The recommended gain for a nonlinearity (MindSpore/PyTorch table)."""
    linear = ("linear", "conv1d", "conv2d", "conv3d", "conv_transpose1d", "conv_transpose2d",
              "conv_transpose3d", "sigmoid")
    if nonlinearity in linear:
        return 1.0
    if nonlinearity == "tanh":
        return 5.0 / 3
    if nonlinearity == "relu":
        return math.sqrt(2.0)
    if nonlinearity == "leaky_relu":
        slope = 0.01 if param is None else param
        if isinstance(slope, bool) or not isinstance(slope, numbers.Number):
            raise ValueError(f"For 'calculate_gain', 'param' must be a number, got {param!r}")
        return math.sqrt(2.0 / (1 + slope ** 2))
    if nonlinearity == "selu":
        return 3.0 / 4
    raise ValueError(f"For 'calculate_gain', unsupported nonlinearity {nonlinearity!r}")


class Initializer:
    """Base class: ``init(shape) -> numpy array`` of float64 values.

    Subclasses implement ``_sample(shape)``.
    """

    def __init__(self, **kwargs: Any) -> None:
        self._kwargs = kwargs

    def _sample(self, shape: tuple[int, ...]) -> np.ndarray:
        raise TypeError(f"{type(self).__name__} does not define _sample")

    def check_shape(self, shape: tuple[int, ...]) -> None:
        """Raise ``ValueError`` if this initializer cannot fill ``shape``.

        Called when a Tensor is built with the initializer, before its data is
        drawn (MindSpore refuses such shapes at ``initializer(...)`` too).
        """

    def __call__(self, shape: Sequence[int], dtype: Any = jnp.float32) -> Any:
        shape = tuple(int(s) for s in shape)
        values = np.asarray(self._sample(shape), dtype=np.dtype(to_jax_dtype(dtype)))
        # Cast on the host and transfer: jnp.asarray(values, dtype) compiles an XLA conversion
        # program per shape, one per Parameter of a new network.
        return jax.device_put(values.reshape(shape))

    def __repr__(self) -> str:
        args = ", ".join(f"{k}={v!r}" for k, v in self._kwargs.items())
        return f"{type(self).__name__}({args})"


class Zero(Initializer):
    """All zeros."""

    def _sample(self, shape: tuple[int, ...]) -> np.ndarray:
        return np.zeros(shape)


class One(Initializer):
    """All ones."""

    def _sample(self, shape: tuple[int, ...]) -> np.ndarray:
        return np.ones(shape)


class Constant(Initializer):
    """Every element ``value``."""

    def __init__(self, value: Any) -> None:
        super().__init__(value=value)
        self.value = value

    def _sample(self, shape: tuple[int, ...]) -> np.ndarray:
        return np.full(shape, np.asarray(self.value))


class Normal(Initializer):
    """N(mean, sigma^2); MindSpore's default sigma is 0.01."""

    def __init__(self, sigma: float = 0.01, mean: float = 0.0) -> None:
        super().__init__(sigma=sigma, mean=mean)
        self.sigma, self.mean = sigma, mean

    def _sample(self, shape: tuple[int, ...]) -> np.ndarray:
        return numpy_rng().normal(self.mean, self.sigma, shape)


class Uniform(Initializer):
    """U(-scale, scale); MindSpore's default scale is 0.07."""

    def __init__(self, scale: float = 0.07) -> None:
        super().__init__(scale=scale)
        self.scale = scale

    def _sample(self, shape: tuple[int, ...]) -> np.ndarray:
        return numpy_rng().uniform(-self.scale, self.scale, shape)


class TruncatedNormal(Initializer):
    """N(mean, sigma^2) restricted to [a, b] (MindSpore: sigma=0.01, a=-2, b=2)."""

    def __init__(self, sigma: float = 0.01, mean: float = 0.0, a: float = -2.0, b: float = 2.0) -> None:
        super().__init__(sigma=sigma, mean=mean, a=a, b=b)
        self.sigma, self.mean, self.a, self.b = sigma, mean, a, b

    def _sample(self, shape: tuple[int, ...]) -> np.ndarray:
        rng = numpy_rng()
        n = int(np.prod(shape))
        out = np.empty(0)
        while out.size < n:
            draw = rng.normal(self.mean, self.sigma, max(2 * n, 16))
            out = np.concatenate([out, draw[(draw >= self.a) & (draw <= self.b)]])
        return out[:n].reshape(shape)


class XavierUniform(Initializer):
    """U(-b, b) with b = gain * sqrt(6 / (fan_in + fan_out))."""

    def __init__(self, gain: float = 1) -> None:
        super().__init__(gain=gain)
        self.gain = gain

    def check_shape(self, shape: tuple[int, ...]) -> None:
        _fans(shape)

    def _sample(self, shape: tuple[int, ...]) -> np.ndarray:
        fan_in, fan_out = _fans(shape)
        bound = self.gain * math.sqrt(6.0 / (fan_in + fan_out))
        return numpy_rng().uniform(-bound, bound, shape)


class XavierNormal(Initializer):
    """N(0, std^2) with std = gain * sqrt(2 / (fan_in + fan_out))."""

    def __init__(self, gain: float = 1) -> None:
        super().__init__(gain=gain)
        self.gain = gain

    def check_shape(self, shape: tuple[int, ...]) -> None:
        _fans(shape)

    def _sample(self, shape: tuple[int, ...]) -> np.ndarray:
        fan_in, fan_out = _fans(shape)
        return numpy_rng().normal(0.0, self.gain * math.sqrt(2.0 / (fan_in + fan_out)), shape)


class _HeBase(Initializer):
    def __init__(self, negative_slope: float = 0, mode: str = "fan_in",
                 nonlinearity: str = "leaky_relu") -> None:
        if mode not in ("fan_in", "fan_out"):
            raise ValueError(f"For '{type(self).__name__}', 'mode' must be 'fan_in' or 'fan_out', "
                             f"got {mode!r}")
        calculate_gain(nonlinearity, negative_slope)
        super().__init__(negative_slope=negative_slope, mode=mode, nonlinearity=nonlinearity)
        self.negative_slope, self.mode, self.nonlinearity = negative_slope, mode, nonlinearity

    def check_shape(self, shape: tuple[int, ...]) -> None:
        _fans(shape)

    def _std(self, shape: tuple[int, ...]) -> float:
        fan_in, fan_out = _fans(shape)
        fan = fan_in if self.mode == "fan_in" else fan_out
        return calculate_gain(self.nonlinearity, self.negative_slope) / math.sqrt(fan)


class HeUniform(_HeBase):
    """Kaiming uniform: U(-b, b), b = gain * sqrt(3 / fan)."""

    def _sample(self, shape: tuple[int, ...]) -> np.ndarray:
        bound = math.sqrt(3.0) * self._std(shape)
        return numpy_rng().uniform(-bound, bound, shape)


class HeNormal(_HeBase):
    """Kaiming normal: N(0, (gain / sqrt(fan))^2)."""

    def _sample(self, shape: tuple[int, ...]) -> np.ndarray:
        return numpy_rng().normal(0.0, self._std(shape), shape)


class Identity(Initializer):
    """The identity matrix (2-D shapes only)."""

    def check_shape(self, shape: tuple[int, ...]) -> None:
        if len(shape) != 2:
            raise ValueError(f"For 'Identity', the shape must be 2-D, got {shape}")

    def _sample(self, shape: tuple[int, ...]) -> np.ndarray:
        self.check_shape(shape)
        return np.eye(*shape)


class Orthogonal(Initializer):
    """A (semi-)orthogonal matrix scaled by ``gain``, over the flattened trailing dims."""

    def __init__(self, gain: float = 1.0) -> None:
        super().__init__(gain=gain)
        self.gain = gain

    def check_shape(self, shape: tuple[int, ...]) -> None:
        if len(shape) < 2:
            raise ValueError(f"For 'Orthogonal', the shape must have at least 2 dims, got {shape}")

    def _sample(self, shape: tuple[int, ...]) -> np.ndarray:
        self.check_shape(shape)
        rows, cols = shape[0], int(np.prod(shape[1:]))
        flat = numpy_rng().normal(0.0, 1.0, (max(rows, cols), min(rows, cols)))
        q, r = np.linalg.qr(flat)
        q = q * np.sign(np.diag(r))
        if rows < cols:
            q = q.T
        return self.gain * q[:rows, :cols].reshape(shape)


_ALIASES: dict[str, type[Initializer]] = {
    "zeros": Zero, "zero": Zero, "ones": One, "one": One,
    "normal": Normal, "uniform": Uniform, "truncatednormal": TruncatedNormal,
    "truncated_normal": TruncatedNormal, "xavier_uniform": XavierUniform,
    "xavieruniform": XavierUniform, "xavier_normal": XavierNormal, "xaviernormal": XavierNormal,
    "he_uniform": HeUniform, "heuniform": HeUniform, "he_normal": HeNormal, "henormal": HeNormal,
    "identity": Identity, "orthogonal": Orthogonal,
}


def initializer(init: Any, shape: Sequence[int] | int | None = None, dtype: Any = jnp.float32) -> Any:
    """Build an initial value (MindSpore's ``mindspore.common.initializer.initializer``).

    Arguments:
        init: an :class:`Initializer`, a name (``'normal'``, ``'zeros'``,
            ``'xavier_uniform'``, ``'he_uniform'`` ...), a number (a constant),
            or a Tensor / numpy array used as the explicit value.
        shape: the shape (an int for 1-D).
        dtype: the dtype of the result.

    Returns:
        a Tensor of ``shape`` and ``dtype``. As in MindSpore, user code gets a
        Tensor that keeps the initializer (``has_init`` is True, ``init`` is the
        Initializer) until its data is first read or ``init_data()`` builds it;
        an explicit value is returned as it is. Inside MindJAX the result is the
        built ``jax.Array``.

    Raises:
        ValueError: an unknown name, or an explicit value whose shape is not ``shape``.

    Example:
        >>> w = initializer(XavierUniform(), (4, 3), mindjax.float32)
        >>> w.has_init, w.init_data().has_init, w.shape
        (True, False, (4, 3))
    """
    from mindjax.common.tensor import Tensor, _out, in_user_code  # lazy: tensor builds Tensors with initializers

    init, shape, dtype = _resolved(init, shape, dtype)
    if isinstance(init, jax.Array):
        return _out(init)
    if in_user_code():
        return Tensor(shape=shape, dtype=dtype, init=init)
    return init(shape, dtype)


def _resolved(init: Any, shape: Sequence[int] | int | None, dtype: Any) -> tuple[Any, Any, Any]:
    """``(init, shape, dtype)`` checked, without building anything: ``init`` an Initializer (or
    the explicit value as a ``jax.Array``), ``shape`` a tuple, ``dtype`` a JAX dtype."""
    if isinstance(shape, (int, np.integer)):
        shape = (int(shape),)
    dtype = to_jax_dtype(dtype)
    from mindjax.common.tensor import Tensor  # lazy: tensor builds Tensors with initializers

    if isinstance(init, Tensor):
        init = init._value
    if isinstance(init, (jax.Array, np.ndarray)):
        if shape is not None and tuple(init.shape) != tuple(shape):
            raise ValueError(f"For 'initializer', the explicit value has shape {tuple(init.shape)} "
                             f"but the shape asked for is {tuple(shape)}")
        return jnp.asarray(init, dtype=dtype), shape, dtype
    if shape is None:
        raise ValueError("For 'initializer', 'shape' is required unless 'init' is a Tensor")
    if any((not isinstance(s, (int, np.integer))) or s < 0 for s in shape):
        raise ValueError(f"For 'initializer', 'shape' must hold non-negative ints, got {tuple(shape)}")
    if isinstance(init, str):
        cls = _ALIASES.get(init.lower())
        if cls is None:
            raise ValueError(f"For 'initializer', 'init' {init!r} is not a known initializer name; "
                             f"known: {sorted(_ALIASES)}")
        init = cls()
    elif isinstance(init, numbers.Number) and not isinstance(init, bool):
        init = Constant(init)
    elif isinstance(init, type) and issubclass(init, Initializer):
        init = init()
    if not isinstance(init, Initializer):
        raise TypeError(f"For 'initializer', 'init' must be an Initializer, a name, a number or a "
                        f"Tensor, got {type(init).__name__}")
    init.check_shape(tuple(shape))
    return init, tuple(shape), dtype
