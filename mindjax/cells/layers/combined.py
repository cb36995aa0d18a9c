"""MindSpore 2.10's combined layers ``Conv2dBnAct`` and ``DenseBnAct``, and ``TimeDistributed``.

``Conv2dBnAct``/``DenseBnAct`` chain a ``Conv2d``/``Dense``, an optional ``BatchNorm2d``/``BatchNorm1d``
and an optional activation under MindSpore's child names (``conv``/``dense``, ``batchnorm``,
``activation``), so their parameters are named as MindSpore names them (``conv.weight``,
``batchnorm.gamma`` ...). ``TimeDistributed`` applies a layer to every time step of its input.

Example:
    >>> import numpy as np
    >>> from mindjax import nn
    >>> nn.DenseBnAct(3, 2, activation="relu")(np.ones((4, 3), np.float32)).shape
    (4, 2)
"""
from __future__ import annotations

from typing import Any

import jax
import jax.numpy as jnp

from mindjax.cells.cell import Cell
from mindjax.cells.layers.activation import LeakyReLU, get_activation
from mindjax.cells.layers.basic import Dense
from mindjax.cells.layers.conv import Conv2d
from mindjax.cells.layers.normalization import BatchNorm1d, BatchNorm2d
from mindjax.common.tensor import Tensor
from mindjax.common.tensor import as_array as _arr
from mindjax.ops.primitives import Primitive

__all__ = ["Conv2dBnAct", "DenseBnAct", "TimeDistributed"]


def _check_bool(cls: str, name: str, value: Any) -> bool:
    if not isinstance(value, bool):
        raise TypeError(f"For '{cls}', the type of '{name}' should be 'bool', but got {type(value).__name__}.")
    return value


def _make_activation(cls: str, activation: Any, alpha: float) -> Any:
    if activation == "leakyrelu":
        return LeakyReLU(alpha)
    act = get_activation(activation) if isinstance(activation, str) else activation
    if activation is not None and not isinstance(act, (Cell, Primitive)):
        raise TypeError(f"For '{cls}', the 'activation' must be str or Cell or Primitive, but got "
                        f"{type(activation).__name__}.")
    return act


class Conv2dBnAct(Cell):
    """``Conv2d``, then optionally ``BatchNorm2d`` and an activation.

    Arguments:
        in_channels ... bias_init: as :class:`~mindjax.nn.Conv2d` (``pad_mode='same'``, no bias).
        has_bn: add ``BatchNorm2d(out_channels, eps, momentum)`` (default ``False``).
        momentum: the BatchNorm momentum (default ``0.997``).
        eps: the BatchNorm epsilon (default ``1e-5``).
        activation: a name (``'relu'``, ``'leakyrelu'`` ...), a Cell, a Primitive or ``None``.
        alpha: the slope of ``'leakyrelu'`` (default ``0.2``).
        after_fake: kept for MindSpore's signature (quantisation-aware training flag).

    Raises:
        TypeError: ``has_bn``/``after_fake`` not bools, or an ``activation`` that is not a str, Cell or
            Primitive.
    """

    def __init__(self, in_channels: int, out_channels: int, kernel_size: Any, stride: Any = 1,
                 pad_mode: str = "same", padding: Any = 0, dilation: Any = 1, group: int = 1, has_bias: bool = False,
                 weight_init: Any = "normal", bias_init: Any = "zeros", has_bn: bool = False,
                 momentum: float = 0.997, eps: float = 1e-5, activation: Any = None, alpha: float = 0.2,
                 after_fake: bool = True) -> None:
        super().__init__()
        self.conv = Conv2d(in_channels, out_channels, kernel_size=kernel_size, stride=stride, pad_mode=pad_mode,
                           padding=padding, dilation=dilation, group=group, has_bias=has_bias,
                           weight_init=weight_init, bias_init=bias_init)
        self.has_bn = _check_bool("Conv2dBnAct", "has_bn", has_bn)
        self.has_act = activation is not None
        self.after_fake = _check_bool("Conv2dBnAct", "after_fake", after_fake)
        if has_bn:
            self.batchnorm = BatchNorm2d(out_channels, eps, momentum)
        self.activation = _make_activation("Conv2dBnAct", activation, alpha)

    def construct(self, x: Any) -> Any:
        x = self.conv(x)
        if self.has_bn:
            x = self.batchnorm(x)
        if self.has_act:
            x = self.activation(x)
        return x


class DenseBnAct(Cell):
    """``Dense``, then optionally ``BatchNorm1d`` and an activation.

    Arguments:
        in_channels, out_channels, weight_init, bias_init, has_bias: as :class:`~mindjax.nn.Dense`.
        has_bn: add ``BatchNorm1d(out_channels, eps, momentum)`` (default ``False``).
        momentum: the BatchNorm momentum (default ``0.9``).
        eps: the BatchNorm epsilon (default ``1e-5``).
        activation: a name, a Cell, a Primitive or ``None``; alpha: the slope of ``'leakyrelu'``.
        after_fake: kept for MindSpore's signature.

    Raises:
        TypeError: as :class:`Conv2dBnAct`.
    """

    def __init__(self, in_channels: int, out_channels: int, weight_init: Any = "normal", bias_init: Any = "zeros",
                 has_bias: bool = True, has_bn: bool = False, momentum: float = 0.9, eps: float = 1e-5,
                 activation: Any = None, alpha: float = 0.2, after_fake: bool = True) -> None:
        super().__init__()
        self.dense = Dense(in_channels, out_channels, weight_init, bias_init, has_bias)
        self.has_bn = _check_bool("DenseBnAct", "has_bn", has_bn)
        self.has_act = activation is not None
        self.after_fake = _check_bool("DenseBnAct", "after_fake", after_fake)
        if has_bn:
            self.batchnorm = BatchNorm1d(out_channels, eps, momentum)
        self.activation = _make_activation("DenseBnAct", activation, alpha)

    def construct(self, x: Any) -> Any:
        x = self.dense(x)
        if self.has_bn:
            x = self.batchnorm(x)
        if self.has_act:
            x = self.activation(x)
        return x


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _is_tensor(v: Any) -> bool:
    return isinstance(v, (Tensor, jax.Array))


class TimeDistributed(Cell):
    """Apply ``layer`` to every slice of the input along ``time_axis`` and stack the results there.

    With ``reshape_with_axis`` the time axis is instead folded into that axis, ``layer`` runs once on
    the folded input, and the output is unfolded (the faster path, for layers that treat that axis
    as a batch axis).

    Arguments:
        layer: a Cell or Primitive.
        time_axis: the time axis of the input (at least 3-D).
        reshape_with_axis: the axis to fold the time axis into, or ``None`` (default).

    Raises:
        TypeError: ``layer`` not a Cell/Primitive, axes not ints, or an input/output that is not a Tensor.
        ValueError: an input of rank below 3, or a layer whose output does not keep the folded axis.
    """

    def __init__(self, layer: Any, time_axis: int, reshape_with_axis: int | None = None) -> None:
        if not isinstance(layer, (Cell, Primitive)):
            raise TypeError(f"For 'TimeDistributed', the 'layer' must be Cell or Primitive instance, but got "
                            f"type: {type(layer).__name__}.")
        super().__init__()
        if not _is_int(time_axis):
            raise TypeError(f"For 'TimeDistributed', the type of 'time_axis' should be 'int', but got "
                            f"{type(time_axis).__name__}.")
        if reshape_with_axis is not None and not _is_int(reshape_with_axis):
            raise TypeError(f"For 'TimeDistributed', the type of 'reshape_with_axis' should be 'int', but got "
                            f"{type(reshape_with_axis).__name__}.")
        self.layer = layer
        self.time_axis = time_axis
        self.reshape_with_axis = reshape_with_axis

    def _checked(self, value: Any) -> jax.Array:
        if not _is_tensor(value):
            raise TypeError("For 'TimeDistributed', the inputs and outputs must be a Tensor.")
        return _arr(value)

    def construct(self, inputs: Any) -> jax.Array:
        x = self._checked(inputs)
        if x.ndim < 3:
            raise ValueError(f"For 'TimeDistributed', the inputs shape must be at least 3D, but got {x.ndim}.")
        nd = x.ndim
        t = self.time_axis % nd
        if self.reshape_with_axis is None:
            outs = [self._checked(self.layer(x[(slice(None),) * t + (i,)])) for i in range(x.shape[t])]
            if t > outs[0].ndim:
                raise ValueError(f"For 'TimeDistributed', the value of 'time_axis' must be in range of "
                                 f"[{-outs[0].ndim - 1}, {outs[0].ndim}], but got {t}.")
            return jnp.stack(outs, axis=t)
        r = self.reshape_with_axis % nd
        # Bring the time axis next to the fold axis, then merge the two.
        t_new = nd - 2 if r == nd - 1 else (r + 1 if t > r else r - 1)
        pos = min(t_new, r)
        lo, hi = min(t_new, t), max(t_new, t)
        order = list(range(nd))
        perm = order[:lo] + [order[hi]] + order[lo:hi] + order[hi + 1:]
        x = jnp.transpose(x, perm)
        moved = x.shape
        folded = jnp.reshape(x, moved[:pos] + (-1,) + moved[pos + 2:])
        y = self._checked(self.layer(folded))
        if pos >= y.ndim or folded.shape[pos] != y.shape[pos]:
            raise ValueError(f"For 'TimeDistributed', the 'reshape_with_axis' is invalid in the input and output. "
                             f"The 'reshape_pos' must be less than the length of 'outputs_shape', and the "
                             f"'inputs_shape[reshape_pos]' must be equal to 'outputs_shape[reshape_pos]', but got "
                             f"'reshape_pos': {pos}, 'inputs_shape': {tuple(folded.shape)}, 'outputs_shape': "
                             f"{tuple(y.shape)}. You may try pass parameters without 'reshape_with_axis'.")
        shape = tuple(y.shape[:pos]) + tuple(moved[pos:pos + 2]) + tuple(y.shape[pos + 1:])
        return jnp.reshape(y, (-1,) + shape[1:])
