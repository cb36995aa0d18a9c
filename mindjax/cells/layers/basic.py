"""Basic layers: ``Dense``, ``Flatten``, ``Unflatten``, ``Dropout``, ``Identity``.

Names, defaults, weight layouts and initializers are MindSpore 2.10's:
``Dense`` keeps its weight as ``(out_channels, in_channels)`` initialised with
``HeUniform(sqrt(5))`` (uniform in ``+-1/sqrt(in_channels)``) and a bias uniform in
the same bound; ``Dropout`` takes ``p``, the drop probability, (or the older
``keep_prob``) and scales kept values by ``1 / (1 - p)`` in training only.

Example:
    >>> import mindjax as ms
    >>> from mindjax import nn
    >>> fc = nn.Dense(3, 4, activation='relu')
    >>> fc.weight.shape, fc(ms.Tensor([[1.0, 2.0, 3.0]])).shape
    ((4, 3), (1, 4))
"""
from __future__ import annotations

import math
import numbers
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from mindjax.common.tensor import Tensor
from mindjax.cells.cell import Cell
from mindjax.cells.layers.activation import get_activation
from mindjax.cells.parameter import Parameter
from mindjax.common import dtype as mstype
from mindjax.common.initializer import HeUniform, Uniform, initializer
from mindjax.common.precision import run_as
from mindjax.common.random import next_key
from mindjax.common.tensor import as_array as _arr
from mindjax.ops import primitives as _prim

__all__ = ["Dense", "Flatten", "Unflatten", "Dropout", "Identity"]


def _is_array(x: Any) -> bool:
    return isinstance(x, (jax.Array, np.ndarray, Tensor))


def _is_int(value: Any) -> bool:
    return isinstance(value, (int, np.integer)) and not isinstance(value, bool)


def _positive_int(value: Any, arg: str, cls_name: str) -> int:
    if not _is_int(value):
        raise TypeError(f"For '{cls_name}', '{arg}' must be an int, got {type(value).__name__}")
    if value <= 0:
        raise ValueError(f"For '{cls_name}', '{arg}' must be a positive int, got {value}")
    return int(value)


def _linear(x: Any, weight: Any, bias: Any | None) -> jax.Array:
    """``x @ weight^T + bias`` with MindSpore's ``(out, in)`` weight; ``weight`` may be stacked."""
    # MindSpore's nn.Dense: a MatMul Primitive, then BiasAdd (what mixed precision sees).
    y = run_as("MatMul", _matmul_t, x, _arr(weight))
    return y if bias is None else run_as("BiasAdd", jnp.add, y, _arr(bias))


def _matmul_t(x: Any, weight: Any) -> jax.Array:
    return jnp.matmul(x, jnp.swapaxes(weight, -1, -2))


def _dropout(x: jax.Array, drop: float) -> jax.Array:
    """Zero elements with probability ``drop`` and scale the rest by ``1 / (1 - drop)``.

    The mask draws from the global key, so the same seed gives the same mask in
    PYNATIVE and GRAPH mode; every dropout in the layers goes through here.
    """
    keep = 1.0 - drop
    mask = jax.random.bernoulli(next_key(), keep, x.shape)
    return jnp.where(mask, x / jnp.asarray(keep, x.dtype), jnp.zeros((), x.dtype))


class Dense(Cell):
    """Fully connected layer: ``activation(x @ weight.T + bias)``.

    Arguments:
        in_channels: the size of the input's last dimension.
        out_channels: the size of the output's last dimension.
        weight_init: initializer of the ``(out_channels, in_channels)`` weight
            (a name, an Initializer, a number or a Tensor). Default
            ``HeUniform(math.sqrt(5))``.
        bias_init: initializer of the ``(out_channels,)`` bias. Default
            ``Uniform(1 / sqrt(in_channels))``.
        has_bias: whether to add a bias (default ``True``).
        activation: ``None``, a name known to :func:`get_activation`
            (``'relu'`` ...), a Cell, or a callable applied to the output.
        dtype: dtype of the Parameters (a Tensor initializer keeps its own).

    Inputs:
        x: a Tensor of shape ``(*, in_channels)``.

    Returns:
        a Tensor of shape ``(*, out_channels)``.

    Raises:
        ValueError: non-positive channels, an unknown activation name, an
            initializer Tensor of the wrong shape, or an input whose last
            dimension is not ``in_channels``.
    """

    def __init__(self, in_channels: int, out_channels: int, weight_init: Any = None,
                 bias_init: Any = None, has_bias: bool = True, activation: Any = None,
                 dtype: Any = mstype.float32) -> None:
        super().__init__()
        self.in_channels = _positive_int(in_channels, "in_channels", "Dense")
        self.out_channels = _positive_int(out_channels, "out_channels", "Dense")
        if not isinstance(has_bias, bool):
            raise TypeError(f"For 'Dense', 'has_bias' must be a bool, got {type(has_bias).__name__}")
        self.has_bias = has_bias
        if weight_init is None:
            weight_init = HeUniform(math.sqrt(5))
        self.weight = Parameter(self._init(weight_init, (out_channels, in_channels), dtype,
                                           "weight_init"), name="weight")
        self.bias = None
        if has_bias:
            if bias_init is None:
                bias_init = Uniform(scale=1 / math.sqrt(in_channels))
            self.bias = Parameter(self._init(bias_init, (out_channels,), dtype, "bias_init"),
                                  name="bias")
        if isinstance(activation, str):
            self.activation = get_activation(activation, "Dense")
        elif activation is None or isinstance(activation, Cell) or callable(activation):
            self.activation = activation
        else:
            raise TypeError(f"For 'Dense', 'activation' must be a str, a Cell or a callable, got "
                            f"{type(activation).__name__}")
        self.activation_flag = self.activation is not None
        # MindSpore's Primitive attributes, which subclasses call.
        self.matmul = _prim.MatMul(transpose_b=True)
        self.bias_add = _prim.BiasAdd()

    @staticmethod
    def _init(init: Any, shape: tuple[int, ...], dtype: Any, arg: str) -> jax.Array:
        if _is_array(init):
            value = jnp.asarray(init)
            if tuple(value.shape) != shape:
                raise ValueError(f"For 'Dense', '{arg}' must have shape {shape}, got "
                                 f"{tuple(value.shape)}")
            return value
        return initializer(init, shape, dtype)

    def construct(self, x: Any) -> jax.Array:
        from mindjax.cells.layers._inputs import float_input

        x = float_input(self._where(), "x", x)
        if x.ndim == 0 or x.shape[-1] != self.in_channels:
            raise ValueError(f"{self._where()}, expected input of last dimension "
                             f"{self.in_channels}, got {tuple(x.shape)}")
        out = _linear(x, self.weight._value, self.bias._value if self.has_bias else None)
        if self.activation_flag:
            out = self.activation(out)
        return out

    def extend_repr(self) -> str:
        """``input_channels=..., output_channels=...[, has_bias=True][, activation=...]``."""
        s = f"input_channels={self.in_channels}, output_channels={self.out_channels}"
        if self.has_bias:
            s += f", has_bias={self.has_bias}"
        if self.activation_flag:
            s += f", activation={self.activation}"
        return s


class Flatten(Cell):
    """Flatten the dimensions ``start_dim`` to ``end_dim`` (inclusive) into one.

    Arguments:
        start_dim: the first dimension to flatten (default ``1``).
        end_dim: the last dimension to flatten (default ``-1``).

    Inputs:
        x: a Tensor; a 0-D Tensor is treated as 1-D and gives a 1-D result.

    Raises:
        ValueError: a dimension out of range for the input, or ``start_dim`` after ``end_dim``.
    """

    def __init__(self, start_dim: int = 1, end_dim: int = -1) -> None:
        super().__init__()
        for arg, value in (("start_dim", start_dim), ("end_dim", end_dim)):
            if isinstance(value, bool) or not isinstance(value, int):
                raise TypeError(f"For 'Flatten', '{arg}' must be an int, got {type(value).__name__}")
        self.start_dim = start_dim
        self.end_dim = end_dim

    def construct(self, x: Any) -> jax.Array:
        x = _arr(x)
        ndim = max(x.ndim, 1)
        for arg, value in (("start_dim", self.start_dim), ("end_dim", self.end_dim)):
            if not -ndim <= value < ndim:
                raise ValueError(f"{self._where()}, '{arg}' must be in [{-ndim}, {ndim - 1}] for an "
                                 f"input of shape {tuple(x.shape)}, got {value}")
        start, end = self.start_dim % ndim, self.end_dim % ndim
        if start > end:
            raise ValueError(f"{self._where()}, 'start_dim' ({self.start_dim}) must not come after "
                             f"'end_dim' ({self.end_dim}) for an input of shape {tuple(x.shape)}")
        if x.ndim == 0:
            return x.reshape((1,))
        shape = x.shape[:start] + (-1,) + x.shape[end + 1:]
        return x.reshape(shape)


class Unflatten(Cell):
    """Split dimension ``axis`` into ``unflattened_size``.

    Arguments:
        axis: the dimension to split.
        unflattened_size: the new dimensions (tuple or list of ints); their
            product must equal the size of ``axis``.

    Raises:
        ValueError: the product of ``unflattened_size`` does not match the input.
    """

    def __init__(self, axis: int, unflattened_size: tuple[int, ...] | list[int]) -> None:
        super().__init__()
        if isinstance(axis, bool) or not isinstance(axis, int):
            raise TypeError(f"For 'Unflatten', 'axis' must be an int, got {type(axis).__name__}")
        if not isinstance(unflattened_size, (tuple, list)):
            raise TypeError(f"For 'Unflatten', 'unflattened_size' must be a tuple or list of ints, "
                            f"got {type(unflattened_size).__name__}")
        self.axis = axis
        self.unflattened_size = tuple(unflattened_size)

    def construct(self, input_x: Any) -> jax.Array:
        x = _arr(input_x)
        if not -x.ndim <= self.axis < x.ndim:
            raise ValueError(f"{self._where()}, 'axis' {self.axis} is out of range for an input of "
                             f"shape {tuple(x.shape)}")
        axis = self.axis % x.ndim
        size = self.unflattened_size
        if -1 not in size and int(np.prod(size)) != x.shape[axis]:
            raise ValueError(f"{self._where()}, the product of 'unflattened_size' {size} must equal "
                             f"dimension {self.axis} of the input, got shape {tuple(x.shape)}")
        return x.reshape(x.shape[:axis] + size + x.shape[axis + 1:])


class Dropout(Cell):
    """Zero each element with probability ``p`` in training; scale the rest by ``1 / (1 - p)``.

    In inference (``set_train(False)``, the default) the input is returned as is.
    The mask draws from the global key (:func:`mindjax.common.random.next_key`),
    so the same seed gives the same mask in PYNATIVE and GRAPH mode.

    Arguments:
        keep_prob: deprecated in MindSpore: the keep probability, in ``(0, 1]``
            (default ``0.5``); used only when ``p`` is ``None``.
        p: the drop probability, in ``[0, 1)``.
        dtype: accepted for MindSpore compatibility; unused.

    Raises:
        ValueError: ``p`` or ``keep_prob`` out of range.
    """

    def __init__(self, keep_prob: float = 0.5, p: float | None = None,
                 dtype: Any = mstype.float32) -> None:
        super().__init__()
        if p is None:
            if not isinstance(keep_prob, float):
                raise TypeError(f"For 'Dropout', 'keep_prob' must be a float, got "
                                f"{type(keep_prob).__name__}")
            if not 0 < keep_prob <= 1:
                raise ValueError(f"For 'Dropout', 'keep_prob' must be in range (0, 1], got {keep_prob}")
            drop = 1.0 - keep_prob
        else:
            if isinstance(p, bool) or not isinstance(p, numbers.Real):
                raise TypeError(f"For 'Dropout', 'p' must be a float or int, got {type(p).__name__}")
            if not 0 <= p < 1:
                raise ValueError(f"For 'Dropout', 'p' must be in range [0, 1), got {p}")
            drop = float(p)
        self.p = p
        self.keep_prob = keep_prob
        self._drop = drop

    def construct(self, x: Any) -> jax.Array:
        x = _arr(x)
        if not self.training or self._drop == 0:
            return x
        return _dropout(x, self._drop)

    def extend_repr(self) -> str:
        """``p=...`` or, for the deprecated form, ``keep_prob=...``."""
        return f"keep_prob={self.keep_prob}" if self.p is None else f"p={self.p}"


class Identity(Cell):
    """Return the input unchanged; any constructor arguments are ignored."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__()

    def construct(self, input: Any) -> Any:  # noqa: A002 (MindSpore's argument name)
        return input
