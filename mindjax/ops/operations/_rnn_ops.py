"""MindSpore's recurrent Primitives: ``LSTM`` (flat weight), ``BasicLSTMCell``, ``DynamicRNN`` and ``DynamicGRUV2``.

Re-exported by ``mindjax.ops.operations.nn_ops`` (MindSpore's module for them). Each checks its
constructor arguments as MindSpore 2.10 does and delegates the computation to
``mindjax.ops.function.rnn_func``.

Example:
    >>> import numpy as np
    >>> from mindjax import ops
    >>> x = np.ones((5, 2, 10), np.float32); h = np.ones((1, 2, 2), np.float32)
    >>> out, hn, cn, _, _ = ops.LSTM(10, 2, 1, True, False, 0.0)(x, h, h, np.ones((112, 1, 1), np.float32))
    >>> round(float(out[0, 0, 0]), 4)
    0.964
"""
from __future__ import annotations

from typing import Any

import jax

from mindjax.ops.function import rnn_func as RF
from mindjax.ops.operations._base import Primitive, check_bool, check_int, record

_M = "mindjax.ops.operations.nn_ops"


def _positive_int(prim: str, name: str, value: Any) -> int:
    value = check_int(prim, name, value)
    if value <= 0:
        raise ValueError(f"For '{prim}', '{name}' must be a positive int, but got {value}.")
    return value


def _float_in(prim: str, name: str, value: Any, lo: float | None = None, hi: float | None = None) -> float:
    if isinstance(value, bool) or not isinstance(value, float):
        raise TypeError(f"For '{prim}', '{name}' must be a float, but got {type(value).__name__}.")
    if (lo is not None and value < lo) or (hi is not None and value > hi):
        raise ValueError(f"For '{prim}', '{name}' must be in [{lo}, {hi}], but got {value}.")
    return value


def _choice(prim: str, name: str, value: Any, allowed: tuple[str, ...]) -> str:
    if not isinstance(value, str):
        raise TypeError(f"For '{prim}', '{name}' must be a str, but got {type(value).__name__}.")
    if value not in allowed:
        raise ValueError(f"For '{prim}', '{name}' must be one of {list(allowed)}, but got '{value}'.")
    return value


class LSTM(Primitive):
    __module__ = _M
    """A multi-layer LSTM with all its weights in one flat tensor (``nn.LSTM``'s kernel on CPU and GPU).

    Arguments:
        input_size: features of the input. hidden_size: features of the hidden state.
        num_layers: stacked layers. has_bias: whether the weight holds biases.
        bidirectional: run a reverse direction too. dropout: dropout on each layer's output but the last,
            in [0, 1].
        proj_size: must be ``0`` here (MindSpore's CPU kernel also projects the hidden state; that layout is
            not implemented). Default: ``0``.

    Call: ``LSTM(...)(input, h, c, w)`` -> ``(output, h_n, c_n, reserve, state)``. ``input`` is
    (seq_len, batch, input_size), ``h`` and ``c`` (num_directions * num_layers, batch, hidden_size). ``w``
    holds, in MindSpore's CPU layout, every layer's ``w_ih`` (direction, 4 * hidden, in), then every layer's
    ``w_hh``, then one bias ``b_ih + b_hh`` per layer and direction; a ``w`` with separate ``b_ih`` and
    ``b_hh`` (the GPU layout: per layer and direction ``w_ih, w_hh``, then ``b_ih, b_hh``) is told apart by
    its size. Gates are (input, forget, cell, output). ``reserve`` and ``state`` are (1, 1) zeros.
    """

    _strategy_inputs = 4

    def __init__(self, input_size: int, hidden_size: int, num_layers: int, has_bias: bool, bidirectional: bool,
                 dropout: float, proj_size: int = 0) -> None:
        super().__init__()
        name = self.name
        input_size = _positive_int(name, "input_size", input_size)
        hidden_size = _positive_int(name, "hidden_size", hidden_size)
        proj_size = check_int(name, "proj_size", proj_size)
        if not 0 <= proj_size < hidden_size:
            raise ValueError(f"For '{name}', 'proj_size' must be in [0, {hidden_size}), but got {proj_size}.")
        if proj_size:
            raise ValueError(f"For '{name}', 'proj_size' > 0 is not supported by MindJAX, got {proj_size}.")
        record(self, input_size=input_size, hidden_size=hidden_size, proj_size=proj_size,
               num_layers=_positive_int(name, "num_layers", num_layers),
               has_bias=check_bool(name, "has_bias", has_bias),
               bidirectional=check_bool(name, "bidirectional", bidirectional),
               dropout=_float_in(name, "dropout", dropout, 0.0, 1.0))
        self.num_directions = 2 if bidirectional else 1

    def __call__(self, input: Any, h: Any, c: Any, w: Any) -> tuple[jax.Array, ...]:
        return RF.lstm(input, h, c, w, self.input_size, self.hidden_size, self.num_layers, self.has_bias,
                       self.bidirectional, self.dropout, op=self.name)


class BasicLSTMCell(Primitive):
    __module__ = _M
    """One LSTM step in TensorFlow's block form (deprecated in MindSpore in favour of ``DynamicRNN``).

    Arguments:
        keep_prob: in [0, 1]; recorded (Ascend's kernel drops out inside, this one does not). Default: ``1.0``.
        forget_bias: added to the forget gate. Default: ``1.0``.
        state_is_tuple: must be ``True``. Default: ``True``.
        activation: must be ``'tanh'``. Default: ``'tanh'``.

    Call: ``BasicLSTMCell()(x, h, c, w, b)`` -> ``(ct, ht, it, jt, ft, ot, tanhct)``; ``w`` is
    (input_size + hidden_size, 4 * hidden_size) with gates (i, j, f, o); ``ht`` is float16.
    """

    _strategy_inputs = 5

    def __init__(self, keep_prob: float = 1.0, forget_bias: float = 1.0, state_is_tuple: bool = True,
                 activation: str = "tanh") -> None:
        super().__init__()
        name = self.name
        if not check_bool(name, "state_is_tuple", state_is_tuple):
            raise ValueError(f"For '{name}', 'state_is_tuple' must be True, but got False.")
        record(self, keep_prob=_float_in(name, "keep_prob", keep_prob, 0.0, 1.0),
               forget_bias=_float_in(name, "forget_bias", forget_bias), state_is_tuple=state_is_tuple,
               activation=_choice(name, "activation", activation, ("tanh",)))

    def __call__(self, x: Any, h: Any, c: Any, w: Any, b: Any) -> tuple[jax.Array, ...]:
        return RF.basic_lstm_cell(x, h, c, w, b, self.forget_bias, op=self.name)


class DynamicRNN(Primitive):
    __module__ = _M
    """A single-layer LSTM over a sequence in TensorFlow's block form (gates i, j, f, o).

    Arguments (MindSpore's; it supports only the defaults of ``cell_type``, ``direction``, ``time_major``
    and ``activation``, and so does this one):
        cell_type: ``'LSTM'``. direction: ``'UNIDIRECTIONAL'``. cell_depth: recorded. use_peephole: must be
        ``False``. keep_prob: in [0, 1], recorded. cell_clip: when positive, the cell state is clipped to
        ``[-cell_clip, cell_clip]``. num_proj: must be ``0`` (no projection weight is an input).
        time_major: ``True``. activation: ``'tanh'``. forget_bias: added to the forget gate.
        is_training: recorded.

    Call: ``DynamicRNN()(x, w, b, seq_length, init_h, init_c)`` -> ``(y, output_h, output_c, i, j, f, o,
    tanhc)``, each (num_step, batch, hidden); ``seq_length`` must be ``None``.
    """

    _strategy_inputs = 6

    def __init__(self, cell_type: str = "LSTM", direction: str = "UNIDIRECTIONAL", cell_depth: int = 1,
                 use_peephole: bool = False, keep_prob: float = 1.0, cell_clip: float = -1.0, num_proj: int = 0,
                 time_major: bool = True, activation: str = "tanh", forget_bias: float = 0.0,
                 is_training: bool = True) -> None:
        super().__init__()
        name = self.name
        num_proj = check_int(name, "num_proj", num_proj)
        if num_proj < 0:
            raise ValueError(f"For '{name}', 'num_proj' must be a non-negative int, but got {num_proj}.")
        if num_proj:
            raise ValueError(f"For '{name}', 'num_proj' > 0 is not supported by MindJAX, got {num_proj}.")
        if not check_bool(name, "time_major", time_major):
            raise ValueError(f"For '{name}', 'time_major' must be True (the only supported value), but got False.")
        if check_bool(name, "use_peephole", use_peephole):
            raise ValueError(f"For '{name}', 'use_peephole' must be False (no peephole weight is an input).")
        record(self, cell_type=_choice(name, "cell_type", cell_type, ("LSTM",)),
               direction=_choice(name, "direction", direction, ("UNIDIRECTIONAL",)),
               cell_depth=check_int(name, "cell_depth", cell_depth), use_peephole=use_peephole,
               keep_prob=_float_in(name, "keep_prob", keep_prob, 0.0, 1.0),
               cell_clip=_float_in(name, "cell_clip", cell_clip), num_proj=num_proj, time_major=time_major,
               activation=_choice(name, "activation", activation, ("tanh",)),
               forget_bias=_float_in(name, "forget_bias", forget_bias),
               is_training=check_bool(name, "is_training", is_training))

    def __call__(self, x: Any, w: Any, b: Any, seq_length: Any = None, init_h: Any = None,
                 init_c: Any = None) -> tuple[jax.Array, ...]:
        return RF.dynamic_rnn(x, w, b, seq_length, init_h, init_c, self.forget_bias, self.cell_clip, op=self.name)


class DynamicGRUV2(Primitive):
    __module__ = _M
    """A single-layer GRU over a sequence.

    Arguments:
        direction: ``'UNIDIRECTIONAL'``. cell_depth: recorded. keep_prob: in [0, 1], recorded.
        cell_clip: when positive, the hidden state is clipped. num_proj: must be ``0``.
        time_major: ``True``. activation: ``'tanh'``.
        gate_order: ``'rzh'`` (reset, update, new) or ``'zrh'``. Default: ``'rzh'``.
        reset_after: apply the reset gate after the hidden matmul. Default: ``True``.
        is_training: recorded.

    Call: ``DynamicGRUV2()(x, weight_input, weight_hidden, bias_input, bias_hidden, seq_length, init_h)`` ->
    ``(y, output_h, update, reset, new, hidden_new)``, each (num_step, batch, hidden).
    """

    _strategy_inputs = 7

    def __init__(self, direction: str = "UNIDIRECTIONAL", cell_depth: int = 1, keep_prob: float = 1.0,
                 cell_clip: float = -1.0, num_proj: int = 0, time_major: bool = True, activation: str = "tanh",
                 gate_order: str = "rzh", reset_after: bool = True, is_training: bool = True) -> None:
        super().__init__()
        name = self.name
        num_proj = check_int(name, "num_proj", num_proj)
        if num_proj < 0:
            raise ValueError(f"For '{name}', 'num_proj' must be a non-negative int, but got {num_proj}.")
        if num_proj:
            raise ValueError(f"For '{name}', 'num_proj' > 0 is not supported by MindJAX, got {num_proj}.")
        if not check_bool(name, "time_major", time_major):
            raise ValueError(f"For '{name}', 'time_major' must be True (the only supported value), but got False.")
        record(self, direction=_choice(name, "direction", direction, ("UNIDIRECTIONAL",)),
               cell_depth=check_int(name, "cell_depth", cell_depth),
               keep_prob=_float_in(name, "keep_prob", keep_prob, 0.0, 1.0),
               cell_clip=_float_in(name, "cell_clip", cell_clip), num_proj=num_proj, time_major=time_major,
               activation=_choice(name, "activation", activation, ("tanh",)),
               gate_order=_choice(name, "gate_order", gate_order, ("zrh", "rzh")),
               reset_after=check_bool(name, "reset_after", reset_after),
               is_training=check_bool(name, "is_training", is_training))

    def __call__(self, x: Any, weight_input: Any, weight_hidden: Any, bias_input: Any = None,
                 bias_hidden: Any = None, seq_length: Any = None, init_h: Any = None) -> tuple[jax.Array, ...]:
        return RF.dynamic_gru_v2(x, weight_input, weight_hidden, bias_input, bias_hidden, seq_length, init_h,
                                 self.gate_order, self.reset_after, self.cell_clip, op=self.name)
