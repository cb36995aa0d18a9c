"""Recurrent layers: ``RNN``, ``LSTM``, ``GRU`` and the single-step cells.

Names, defaults, parameter names (``weight_ih_l0``, ``bias_hh_l1_reverse``),
gate order (LSTM: input, forget, cell, output; GRU: reset, update, new),
initialisation (U(-1/sqrt(hidden), 1/sqrt(hidden))) and the masking done by
``seq_length`` follow MindSpore 2.10.

The time loop is one ``jax.lax.scan`` per layer: the input projection of all
steps is a single matmul before the scan, both directions of a bidirectional
layer run in the same scan, and the step is traced once whatever the sequence
length, so GRAPH mode compiles in constant time.

Example:
    >>> import numpy as np, mindjax as ms
    >>> from mindjax import nn
    >>> net = nn.LSTM(10, 16, num_layers=2, batch_first=True, bidirectional=True)
    >>> x = ms.Tensor(np.ones((3, 5, 10), np.float32))
    >>> h0 = ms.Tensor(np.zeros((4, 3, 16), np.float32))
    >>> out, (hn, cn) = net(x, (h0, h0))
    >>> out.shape, hn.shape
    ((3, 5, 32), (4, 3, 16))
"""
from __future__ import annotations

import functools
import math
import numbers
from typing import Any, Callable

import jax
import jax.numpy as jnp

from mindjax.cells.cell import Cell
from mindjax.cells.layers.basic import _dropout, _linear
from mindjax.cells.parameter import Parameter, ParameterTuple
from mindjax.common.dtype import to_jax_dtype
from mindjax.common.initializer import Uniform

__all__ = ["RNN", "LSTM", "GRU", "RNNCell", "LSTMCell", "GRUCell"]

_GATES = {"RNN_TANH": 1, "RNN_RELU": 1, "LSTM": 4, "GRU": 3}


# -- argument checks ----------------------------------------------------------
def _check_positive_int(value: Any, name: str, cls_name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"For '{cls_name}', the '{name}' must be int, but got "
                        f"'{type(value).__name__}'")
    if value <= 0:
        raise ValueError(f"For '{cls_name}', the '{name}' must be int and must > 0, but got {value}")
    return int(value)


def _check_bool(value: Any, name: str, cls_name: str) -> bool:
    if not isinstance(value, bool):
        raise TypeError(f"For '{cls_name}', the '{name}' must be bool, but got '{type(value).__name__}'")
    return value


def _check_float_input(where: str, name: str, value: Any) -> None:
    if not hasattr(value, "dtype") or not jnp.issubdtype(value.dtype, jnp.floating):
        got = getattr(value, "dtype", type(value).__name__)
        raise TypeError(f"{where}, '{name}' must be a floating Tensor (float16 or float32), got {got}")


def _check_shape(where: str, name: str, value: Any, expected: tuple[int, ...]) -> None:
    if tuple(value.shape) != tuple(expected):
        raise ValueError(f"{where}, expected '{name}' of shape {tuple(expected)}, "
                         f"got {tuple(value.shape)}")


# -- the step functions (MindSpore's formulas, gates in MindSpore's order) ---
def _split(gates: Any, n: int) -> list[Any]:
    return jnp.split(gates, n, axis=-1)


def _step_rnn(act: Callable[[Any], Any]) -> Callable[..., Any]:
    def step(gi: Any, gh: Any, state: Any) -> tuple[Any, Any]:
        h = act(gi + gh)
        return h, h
    return step


def _step_lstm(gi: Any, gh: Any, state: Any) -> tuple[Any, Any]:
    _, c = state
    ingate, forgetgate, cellgate, outgate = _split(gi + gh, 4)
    cy = jax.nn.sigmoid(forgetgate) * c + jax.nn.sigmoid(ingate) * jnp.tanh(cellgate)
    hy = jax.nn.sigmoid(outgate) * jnp.tanh(cy)
    return hy, (hy, cy)


def _step_gru(gi: Any, gh: Any, state: Any) -> tuple[Any, Any]:
    i_r, i_i, i_n = _split(gi, 3)
    h_r, h_i, h_n = _split(gh, 3)
    resetgate = jax.nn.sigmoid(i_r + h_r)
    inputgate = jax.nn.sigmoid(i_i + h_i)
    newgate = jnp.tanh(i_n + resetgate * h_n)
    hy = newgate + inputgate * (state - newgate)
    return hy, hy


_STEPS: dict[str, Callable[..., Any]] = {
    "RNN_TANH": _step_rnn(jnp.tanh), "RNN_RELU": _step_rnn(jax.nn.relu),
    "LSTM": _step_lstm, "GRU": _step_gru,
}


# -- the sequence machinery ---------------------------------------------------
def _reverse_sequence(x: Any, seq_length: Any | None) -> Any:
    """Reverse ``x`` (time, batch, ...) along time, only the first ``seq_length[b]`` steps of each batch."""
    if seq_length is None:
        return x[::-1]
    steps = x.shape[0]
    t = jnp.arange(steps)[:, None]
    lengths = jnp.minimum(seq_length.astype(jnp.int32), steps)[None, :]
    index = jnp.where(t < lengths, lengths - 1 - t, t)
    index = index.reshape(index.shape + (1,) * (x.ndim - 2))
    return jnp.take_along_axis(x, index, axis=0)


def _scan_layer(mode: str, gi: Any, state0: Any, w_hh: Any, b_hh: Any | None,
                mask: Any | None) -> tuple[Any, Any]:
    """Run the recurrence of one layer, all directions at once.

    Arguments:
        gi: the input projections, ``(time, directions, batch, gates)``.
        state0: ``(directions, batch, hidden)`` (a pair of them for LSTM).
        w_hh: ``(directions, gates, hidden)``; ``b_hh``: ``(directions, gates)`` or None.
        mask: ``(time, batch)`` booleans (a step counts where true) or None.

    Returns:
        ``(outputs (time, directions, batch, hidden), final state)``.
    """
    step = _STEPS[mode]
    is_lstm = mode == "LSTM"

    def body(state: Any, xs: Any) -> tuple[Any, Any]:
        gi_t, valid = xs
        h = state[0] if is_lstm else state
        gh = jnp.einsum("dbh,dgh->dbg", h, w_hh)
        if b_hh is not None:
            gh = gh + b_hh[:, None, :]
        out, new = step(gi_t, gh, state)
        if valid is None:
            return new, out
        keep = valid[None, :, None]
        # As MindSpore: padded steps keep the state and emit zeros.
        new = jax.tree_util.tree_map(lambda n, o: jnp.where(keep, n, o), new, state)
        return new, jnp.where(keep, out, jnp.zeros_like(out))

    final, outs = jax.lax.scan(body, state0, (gi, mask))
    return outs, final


@functools.partial(jax.jit, static_argnames=("mode",))
def _recurrent_layer(mode: str, x: Any, state0: Any, w_ih: Any, w_hh: Any, b_ih: Any | None,
                     b_hh: Any | None, seq_length: Any | None) -> tuple[Any, Any]:
    """One layer, every direction: ``(output (time, batch, dirs * hidden), final state)``.

    Jitted on its own so that PYNATIVE calls reuse one compiled program per
    shape instead of compiling the scan again on every call; inside a GRAPH
    mode trace it is inlined.
    """
    nd = w_ih.shape[0]
    if nd == 2:
        xs = jnp.stack([x, _reverse_sequence(x, seq_length)], axis=1)
    else:
        xs = x[:, None]
    gi = jnp.einsum("tdbi,dgi->tdbg", xs, w_ih)
    if b_ih is not None:
        gi = gi + b_ih[None, :, None, :]
    mask = None if seq_length is None else jnp.arange(x.shape[0])[:, None] < seq_length[None, :]
    outs, final = _scan_layer(mode, gi, state0, w_hh, b_hh, mask)
    if nd == 2:
        return jnp.concatenate([outs[:, 0], _reverse_sequence(outs[:, 1], seq_length)], axis=-1), final
    return outs[:, 0], final


class _RNNBase(Cell):
    """Stacked, optionally bidirectional recurrent layers (shared by RNN, LSTM, GRU)."""

    def __init__(self, mode: str, input_size: int, hidden_size: int, num_layers: int = 1,
                 has_bias: bool = True, batch_first: bool = False, dropout: float = 0.0,
                 bidirectional: bool = False, dtype: Any = jnp.float32) -> None:
        super().__init__()
        cls_name = type(self).__name__
        hidden_size = _check_positive_int(hidden_size, "hidden_size", cls_name)
        input_size = _check_positive_int(input_size, "input_size", cls_name)
        num_layers = _check_positive_int(num_layers, "num_layers", cls_name)
        if not isinstance(dropout, float):
            raise TypeError(f"For '{cls_name}', the type of 'dropout' must be 'float', but got "
                            f"'{type(dropout).__name__}'.")
        _check_bool(has_bias, "has_bias", cls_name)
        _check_bool(batch_first, "batch_first", cls_name)
        _check_bool(bidirectional, "bidirectional", cls_name)
        if not 0 <= dropout < 1:
            raise ValueError(f"For '{cls_name}', the 'dropout' must be a number in range [0, 1) "
                             f"representing the probability of an element being zeroed, but got {dropout}.")
        self.mode = mode
        self.is_lstm = mode == "LSTM"
        self.input_size = input_size
        self.hidden_size = hidden_size
        self.num_layers = num_layers
        self.has_bias = has_bias
        self.batch_first = batch_first
        self.dropout = dropout
        self.bidirectional = bidirectional
        self.num_directions = 2 if bidirectional else 1
        gate_size = _GATES[mode] * hidden_size
        dtype = to_jax_dtype(dtype)
        init = Uniform(1 / math.sqrt(hidden_size))
        w_ih, w_hh, b_ih, b_hh = [], [], [], []
        for layer in range(num_layers):
            for direction in range(self.num_directions):
                layer_input = input_size if layer == 0 else hidden_size * self.num_directions
                suffix = f"l{layer}{'_reverse' if direction == 1 else ''}"
                w_ih.append(Parameter(init((gate_size, layer_input), dtype), name=f"weight_ih_{suffix}"))
                w_hh.append(Parameter(init((gate_size, hidden_size), dtype), name=f"weight_hh_{suffix}"))
                if has_bias:
                    b_ih.append(Parameter(init((gate_size,), dtype), name=f"bias_ih_{suffix}"))
                    b_hh.append(Parameter(init((gate_size,), dtype), name=f"bias_hh_{suffix}"))
        # Registered in MindSpore's order: every weight_ih, then weight_hh, bias_ih, bias_hh.
        self.w_ih_list = ParameterTuple(w_ih)
        self.w_hh_list = ParameterTuple(w_hh)
        self.b_ih_list = ParameterTuple(b_ih)
        self.b_hh_list = ParameterTuple(b_hh)

    def extend_repr(self) -> str:
        return (f"input_size={self.input_size}, hidden_size={self.hidden_size}, "
                f"num_layers={self.num_layers}, has_bias={self.has_bias}, "
                f"batch_first={self.batch_first}, dropout={self.dropout}, "
                f"bidirectional={self.bidirectional}")

    # -- input checks ----------------------------------------------------------
    def _check_inputs(self, x: Any, hx: Any, seq_length: Any) -> None:
        where = self._where()
        _check_float_input(where, "x", x)
        layout = "(batch_size, seq_len, input_size)" if self.batch_first \
            else "(seq_len, batch_size, input_size)"
        if x.ndim != 3 or x.shape[-1] != self.input_size:
            raise ValueError(f"{where}, expected 'x' of rank 3 {layout} with input_size "
                             f"{self.input_size}, got shape {tuple(x.shape)}")
        batch = x.shape[0] if self.batch_first else x.shape[1]
        expected = (self.num_layers * self.num_directions, batch, self.hidden_size)
        if hx is not None:
            if self.is_lstm:
                if not isinstance(hx, (tuple, list)) or len(hx) != 2:
                    raise TypeError(f"{where}, 'hx' must be a tuple (h_0, c_0) of two Tensors, "
                                    f"got {type(hx).__name__}")
                for i, part in enumerate(hx):
                    _check_float_input(where, f"hx[{i}]", part)
                    _check_shape(where, f"hx[{i}]", part, expected)
            else:
                _check_float_input(where, "hx", hx)
                _check_shape(where, "hx", hx, expected)
        if seq_length is not None:
            if not hasattr(seq_length, "dtype") or jnp.dtype(seq_length.dtype) not in (
                    jnp.dtype(jnp.int32), jnp.dtype(jnp.int64)):
                raise TypeError(f"{where}, 'seq_length' must be an int32 or int64 Tensor, got "
                                f"{getattr(seq_length, 'dtype', type(seq_length).__name__)}")
            if tuple(seq_length.shape) != (batch,):
                raise ValueError(f"{where}, batch size of x and seq_length must be equal: expected "
                                 f"'seq_length' of shape {(batch,)}, got {tuple(seq_length.shape)}")

    # -- the forward -------------------------------------------------------------
    def _layer_params(self, layer: int, dtype: Any) -> tuple[Any, Any, Any, Any]:
        lo, hi = layer * self.num_directions, (layer + 1) * self.num_directions

        def stack(params: ParameterTuple) -> Any:
            return jnp.stack([jnp.asarray(p).astype(dtype) for p in params[lo:hi]])

        w_ih, w_hh = stack(self.w_ih_list), stack(self.w_hh_list)
        if not self.has_bias:
            return w_ih, w_hh, None, None
        return w_ih, w_hh, stack(self.b_ih_list), stack(self.b_hh_list)

    def construct(self, x: Any, hx: Any = None, seq_length: Any = None) -> Any:
        """Run the stacked recurrence.

        Arguments:
            x: ``(seq_len, batch, input_size)``, or ``(batch, seq_len, input_size)``
                when ``batch_first``.
            hx: the initial state ``(num_directions * num_layers, batch, hidden_size)``
                (for LSTM a tuple ``(h_0, c_0)``); zeros when None.
            seq_length: int32/int64 ``(batch,)``, the real length of each sequence;
                later steps keep the state and output zeros, as in MindSpore.

        Returns:
            ``(output, h_n)``, for LSTM ``(output, (h_n, c_n))``; ``output`` has
            ``num_directions * hidden_size`` features and ``x``'s layout and dtype.
        """
        self._check_inputs(x, hx, seq_length)
        dtype = x.dtype
        if self.batch_first:
            x = jnp.swapaxes(x, 0, 1)
        batch = x.shape[1]
        nd = self.num_directions
        shape = (self.num_layers * nd, batch, self.hidden_size)
        if hx is None:
            zeros = jnp.zeros(shape, dtype)
            hx = (zeros, zeros) if self.is_lstm else zeros
        elif self.is_lstm:
            hx = (jnp.asarray(hx[0]).astype(dtype), jnp.asarray(hx[1]).astype(dtype))
        else:
            hx = jnp.asarray(hx).astype(dtype)
        layer_input = x
        finals = []
        for layer in range(self.num_layers):
            w_ih, w_hh, b_ih, b_hh = self._layer_params(layer, dtype)
            lo, hi = layer * nd, (layer + 1) * nd
            state0 = (hx[0][lo:hi], hx[1][lo:hi]) if self.is_lstm else hx[lo:hi]
            output, final = _recurrent_layer(self.mode, layer_input, state0, w_ih, w_hh, b_ih, b_hh,
                                             seq_length)
            finals.append(final)
            if self.training and self.dropout != 0 and layer < self.num_layers - 1:
                layer_input = _dropout(output, self.dropout)
            else:
                layer_input = output
        if self.batch_first:
            output = jnp.swapaxes(output, 0, 1)
        if self.is_lstm:
            h_n = jnp.concatenate([f[0] for f in finals], axis=0)
            c_n = jnp.concatenate([f[1] for f in finals], axis=0)
            return output.astype(dtype), (h_n.astype(dtype), c_n.astype(dtype))
        return output.astype(dtype), jnp.concatenate(finals, axis=0).astype(dtype)


_LAYER_DOC = """
    Arguments:
        input_size: features of the input.
        hidden_size: features of the hidden state.
        num_layers: stacked layers. Default ``1``.
        has_bias: whether each layer has ``bias_ih`` and ``bias_hh``. Default ``True``.
        batch_first: inputs and outputs are ``(batch, seq, feature)``. Default ``False``.
        dropout: a float in [0, 1): dropout on the outputs of every layer but the
            last, in training. Default ``0.0``.
        bidirectional: add a reverse direction (parameters ``*_reverse``). Default ``False``.
        dtype: the Parameters' dtype. Default ``float32``.

    Inputs are ``(x, hx=None, seq_length=None)``; see :meth:`construct`.
"""


class RNN(_RNNBase):
    __doc__ = """Stacked Elman RNN: ``h_t = act(W_ih x_t + b_ih + W_hh h_{t-1} + b_hh)``.

    ``nonlinearity`` (keyword only) is ``'tanh'`` (default) or ``'relu'``.
    """ + _LAYER_DOC + """
    Returns:
        ``(output, h_n)``.

    Example:
        >>> net = RNN(10, 16, 2, batch_first=True)   # doctest: +SKIP
        >>> output, hn = net(x, h0)                  # doctest: +SKIP
    """

    def __init__(self, *args: Any, nonlinearity: str = "tanh", **kwargs: Any) -> None:
        if nonlinearity == "tanh":
            mode = "RNN_TANH"
        elif nonlinearity == "relu":
            mode = "RNN_RELU"
        else:
            raise ValueError(f"For 'RNN', the 'nonlinearity' must be in ['tanh', 'relu'], but got "
                             f"{nonlinearity!r}.")
        super().__init__(mode, *args, **kwargs)
        self.nonlinearity = nonlinearity


class GRU(_RNNBase):
    __doc__ = """Stacked GRU layers (gates reset, update, new; MindSpore's formula).
    """ + _LAYER_DOC + """
    Returns:
        ``(output, h_n)``.
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__("GRU", *args, **kwargs)


class LSTM(_RNNBase):
    __doc__ = """Stacked LSTM layers (gates input, forget, cell, output).
    """ + _LAYER_DOC + """
    Returns:
        ``(output, (h_n, c_n))``.
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__("LSTM", *args, **kwargs)


# -- single-step cells ---------------------------------------------------------
class _RNNCellBase(Cell):
    """One recurrent step; Parameters ``weight_ih``, ``weight_hh``, ``bias_ih``, ``bias_hh``."""

    _mode = "RNN_TANH"

    def __init__(self, input_size: int, hidden_size: int, has_bias: bool, num_chunks: int,
                 dtype: Any = jnp.float32) -> None:
        super().__init__()
        cls_name = type(self).__name__
        _check_bool(has_bias, "has_bias", cls_name)
        self.hidden_size = _check_positive_int(hidden_size, "hidden_size", cls_name)
        self.input_size = _check_positive_int(input_size, "input_size", cls_name)
        self.has_bias = has_bias
        dtype = to_jax_dtype(dtype)
        init = Uniform(1 / math.sqrt(hidden_size))
        gates = num_chunks * hidden_size
        self.weight_ih = Parameter(init((gates, input_size), dtype))
        self.weight_hh = Parameter(init((gates, hidden_size), dtype))
        if has_bias:
            self.bias_ih = Parameter(init((gates,), dtype))
            self.bias_hh = Parameter(init((gates,), dtype))
        else:
            self.bias_ih = None
            self.bias_hh = None

    def extend_repr(self) -> str:
        return f"input_size={self.input_size}, hidden_size={self.hidden_size}, has_bias={self.has_bias}"

    def _check_step(self, x: Any, states: list[tuple[str, Any]]) -> None:
        where = self._where()
        _check_float_input(where, "x", x)
        if x.ndim != 2 or x.shape[-1] != self.input_size:
            raise ValueError(f"{where}, expected 'x' of shape (batch_size, {self.input_size}), "
                             f"got {tuple(x.shape)}")
        for name, h in states:
            _check_float_input(where, name, h)
            _check_shape(where, name, h, (x.shape[0], self.hidden_size))

    def _step(self, x: Any, state: Any) -> Any:
        b_ih = None if self.bias_ih is None else jnp.asarray(self.bias_ih)
        b_hh = None if self.bias_hh is None else jnp.asarray(self.bias_hh)
        h = state[0] if isinstance(state, tuple) else state
        gi = _linear(x, jnp.asarray(self.weight_ih), b_ih)
        gh = _linear(h, jnp.asarray(self.weight_hh), b_hh)
        return _STEPS[self._mode](gi, gh, state)[1]


class RNNCell(_RNNCellBase):
    """An Elman RNN cell: ``h' = act(W_ih x + b_ih + W_hh h + b_hh)``.

    Arguments:
        input_size: features of ``x``.
        hidden_size: features of the hidden state.
        has_bias: whether to add ``bias_ih`` and ``bias_hh``. Default ``True``.
        nonlinearity: ``'tanh'`` (default) or ``'relu'``.
        dtype: the Parameters' dtype. Default ``float32``.

    Inputs ``(x, hx)``: ``(batch, input_size)`` and ``(batch, hidden_size)``.

    Returns:
        ``h'`` of shape ``(batch, hidden_size)``.
    """

    def __init__(self, input_size: int, hidden_size: int, has_bias: bool = True,
                 nonlinearity: str = "tanh", dtype: Any = jnp.float32) -> None:
        super().__init__(input_size, hidden_size, has_bias, num_chunks=1, dtype=dtype)
        if not isinstance(nonlinearity, str) or nonlinearity not in ("tanh", "relu"):
            raise ValueError(f"For 'RNNCell', the 'nonlinearity' must be in ['tanh', 'relu'], but got "
                             f"{nonlinearity!r}.")
        self.nonlinearity = nonlinearity
        self._mode = "RNN_TANH" if nonlinearity == "tanh" else "RNN_RELU"

    def construct(self, x: Any, hx: Any) -> Any:
        """One step; see the class docstring."""
        self._check_step(x, [("hx", hx)])
        return self._step(x, hx)


class LSTMCell(_RNNCellBase):
    """An LSTM cell (gates input, forget, cell, output).

    Arguments:
        input_size: features of ``x``.
        hidden_size: features of the hidden and cell states.
        has_bias: whether to add ``bias_ih`` and ``bias_hh``. Default ``True``.
        dtype: the Parameters' dtype. Default ``float32``.

    Inputs ``(x, (h, c))``: ``(batch, input_size)`` and two ``(batch, hidden_size)``.

    Returns:
        ``(h', c')``, each ``(batch, hidden_size)``.
    """

    _mode = "LSTM"

    def __init__(self, input_size: int, hidden_size: int, has_bias: bool = True,
                 dtype: Any = jnp.float32) -> None:
        super().__init__(input_size, hidden_size, has_bias, num_chunks=4, dtype=dtype)

    def construct(self, x: Any, hx: Any) -> Any:
        """One step; see the class docstring."""
        if not isinstance(hx, (tuple, list)) or len(hx) != 2:
            raise TypeError(f"{self._where()}, 'hx' must be a tuple (h, c) of two Tensors, "
                            f"got {type(hx).__name__}")
        self._check_step(x, [("hx[0]", hx[0]), ("hx[1]", hx[1])])
        return self._step(x, (jnp.asarray(hx[0]), jnp.asarray(hx[1])))


class GRUCell(_RNNCellBase):
    """A GRU cell (gates reset, update, new).

    Arguments:
        input_size: features of ``x``.
        hidden_size: features of the hidden state.
        has_bias: whether to add ``bias_ih`` and ``bias_hh``. Default ``True``.
        dtype: the Parameters' dtype. Default ``float32``.

    Inputs ``(x, hx)``: ``(batch, input_size)`` and ``(batch, hidden_size)``.

    Returns:
        ``h'`` of shape ``(batch, hidden_size)``.
    """

    _mode = "GRU"

    def __init__(self, input_size: int, hidden_size: int, has_bias: bool = True,
                 dtype: Any = jnp.float32) -> None:
        super().__init__(input_size, hidden_size, has_bias, num_chunks=3, dtype=dtype)

    def construct(self, x: Any, hx: Any) -> Any:
        """One step; see the class docstring."""
        self._check_step(x, [("hx", hx)])
        return self._step(x, jnp.asarray(hx))
