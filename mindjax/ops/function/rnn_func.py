"""The recurrent computations behind MindSpore's RNN Primitives (``LSTM``, ``DynamicRNN``, ``DynamicGRUV2``,
``BasicLSTMCell``).

MindSpore has no functional form of these ops, so this module adds nothing to ``ops``'s namespace
(``__all__`` is empty); the Primitives of ``mindjax.ops.operations.nn_ops`` delegate to these functions.
Each time loop is one ``jax.lax.scan``: the step is traced once whatever the sequence length.

Gate orders are MindSpore's: ``LSTM`` (the oneDNN/cuDNN kernels) uses input, forget, cell, output;
``DynamicRNN`` and ``BasicLSTMCell`` (TensorFlow's LSTM block) use input, cell (``j``), forget, output;
``DynamicGRUV2`` uses reset, update, new (``gate_order='rzh'``) or update, reset, new (``'zrh'``).

Example:
    >>> import numpy as np
    >>> from mindjax.ops.function import rnn_func
    >>> x = np.ones((5, 2, 3), np.float32); h = np.zeros((1, 2, 4), np.float32)
    >>> w = np.zeros((rnn_func.lstm_weight_size(3, 4, 1, True, False), 1, 1), np.float32)
    >>> rnn_func.lstm(x, h, h, w, 3, 4, 1, True, False)[0].shape
    (5, 2, 4)
"""
from __future__ import annotations

from typing import Any

import jax
import jax.numpy as jnp

from mindjax.common import random as _random
from mindjax.common.tensor import as_array

__all__: list[str] = []


def _floating(op: str, name: str, value: Any) -> jax.Array:
    a = as_array(value)
    if not jnp.issubdtype(a.dtype, jnp.floating):
        raise TypeError(f"For '{op}', '{name}' must be a float16 or float32 tensor, but got {a.dtype}.")
    return a


def _expect_shape(op: str, name: str, a: jax.Array, shape: tuple[int, ...]) -> None:
    if tuple(a.shape) != tuple(shape):
        raise ValueError(f"For '{op}', '{name}' must have shape {tuple(shape)}, but got {tuple(a.shape)}.")


def _lstm_gates(z: jax.Array, c: jax.Array) -> tuple[jax.Array, jax.Array]:
    """One LSTM update from pre-activations ``z`` in (input, forget, cell, output) order."""
    i, f, g, o = jnp.split(z, 4, axis=-1)
    c = jax.nn.sigmoid(f) * c + jax.nn.sigmoid(i) * jnp.tanh(g)
    return jax.nn.sigmoid(o) * jnp.tanh(c), c


def lstm_weight_size(input_size: int, hidden_size: int, num_layers: int, has_bias: bool, bidirectional: bool,
                     separate_biases: bool = False) -> int:
    """The length of ``LSTM``'s flat weight.

    Arguments:
        input_size, hidden_size, num_layers, has_bias, bidirectional: the Primitive's arguments.
        separate_biases: two biases per layer and direction (``b_ih`` and ``b_hh``, MindSpore's GPU layout)
            instead of their sum (its CPU layout).

    Returns:
        the number of elements.
    """
    dirs = 2 if bidirectional else 1
    gate = 4 * hidden_size
    size = 0
    for layer in range(num_layers):
        layer_in = input_size if layer == 0 else hidden_size * dirs
        size += dirs * gate * (layer_in + hidden_size)
    if has_bias:
        size += num_layers * dirs * gate * (2 if separate_biases else 1)
    return size


def _split_lstm_weight(w: jax.Array, input_size: int, hidden: int, num_layers: int, has_bias: bool, dirs: int,
                       separate: bool) -> list[list[tuple[jax.Array, jax.Array, jax.Array]]]:
    """``[layer][direction] -> (w_ih, w_hh, bias)`` from the flat weight.

    CPU layout (MindSpore's oneDNN kernel, checked against it): every layer's ``w_ih`` (direction, 4H, in),
    then every layer's ``w_hh`` (direction, 4H, H), then one bias (direction, 4H) per layer.
    GPU layout (cuDNN): per layer and direction ``w_ih, w_hh``, then per layer and direction ``b_ih, b_hh``.
    """
    gate = 4 * hidden
    flat = w.reshape(-1)
    pos = 0

    def take(n: int, shape: tuple[int, ...]) -> jax.Array:
        nonlocal pos
        piece = flat[pos:pos + n].reshape(shape)
        pos += n
        return piece

    ins = [input_size if layer == 0 else hidden * dirs for layer in range(num_layers)]
    zero = jnp.zeros((gate,), w.dtype)
    if not separate:
        w_ih = [take(dirs * gate * n, (dirs, gate, n)) for n in ins]
        w_hh = [take(dirs * gate * hidden, (dirs, gate, hidden)) for _ in ins]
        bias = [take(dirs * gate, (dirs, gate)) if has_bias else jnp.zeros((dirs, gate), w.dtype) for _ in ins]
        return [[(w_ih[layer][d], w_hh[layer][d], bias[layer][d]) for d in range(dirs)]
                for layer in range(num_layers)]
    mats = [[(take(gate * n, (gate, n)), take(gate * hidden, (gate, hidden))) for _ in range(dirs)] for n in ins]
    biases = [[take(gate, (gate,)) + take(gate, (gate,)) if has_bias else zero for _ in range(dirs)] for _ in ins]
    return [[(mats[layer][d][0], mats[layer][d][1], biases[layer][d]) for d in range(dirs)]
            for layer in range(num_layers)]


def _lstm_scan(x: jax.Array, h0: jax.Array, c0: jax.Array, w_ih: jax.Array, w_hh: jax.Array, bias: jax.Array,
               reverse: bool) -> tuple[jax.Array, jax.Array, jax.Array]:
    projected = jnp.einsum("tbi,gi->tbg", x, w_ih) + bias

    def step(carry: tuple[jax.Array, jax.Array], zx: jax.Array) -> tuple[tuple[jax.Array, jax.Array], jax.Array]:
        h, c = carry
        h, c = _lstm_gates(zx + h @ w_hh.T, c)
        return (h, c), h

    (h, c), ys = jax.lax.scan(step, (h0, c0), projected, reverse=reverse)
    return ys, h, c


def lstm(x: Any, h: Any, c: Any, w: Any, input_size: int, hidden_size: int, num_layers: int, has_bias: bool,
         bidirectional: bool, dropout: float = 0.0, op: str = "LSTM") -> tuple[jax.Array, ...]:
    """A multi-layer LSTM over ``x`` (seq_len, batch, input_size) with a flat weight (``ops.LSTM``).

    Arguments:
        x: the input, (seq_len, batch, input_size).
        h, c: the initial states, (num_directions * num_layers, batch, hidden_size).
        w: the flat weight, any shape with :func:`lstm_weight_size` elements (the CPU layout, one summed
            bias per layer and direction) or, with ``has_bias``, that plus ``4 * hidden_size`` per layer and
            direction (the GPU layout, ``b_ih`` and ``b_hh``).
        input_size, hidden_size, num_layers, has_bias, bidirectional: the Primitive's arguments.
        dropout: dropout on every layer's output but the last (from MindJAX's global key).
        op: the name used in errors.

    Returns:
        ``(output, h_n, c_n, reserve, state)``: ``output`` is (seq_len, batch, num_directions * hidden_size);
        ``reserve`` and ``state`` (MindSpore's kernel workspaces, meaningful only to its grad kernel) are
        zeros of shape (1, 1).
    """
    dirs = 2 if bidirectional else 1
    xa = _floating(op, "input", x)
    ha, ca, wa = _floating(op, "h", h), _floating(op, "c", c), _floating(op, "w", w)
    if xa.ndim != 3 or xa.shape[-1] != input_size:
        raise ValueError(f"For '{op}', 'input' must have shape (seq_len, batch_size, {input_size}), "
                         f"but got {tuple(xa.shape)}.")
    state_shape = (num_layers * dirs, xa.shape[1], hidden_size)
    _expect_shape(op, "h", ha, state_shape)
    _expect_shape(op, "c", ca, state_shape)
    cpu = lstm_weight_size(input_size, hidden_size, num_layers, has_bias, bidirectional)
    gpu = lstm_weight_size(input_size, hidden_size, num_layers, has_bias, bidirectional, True)
    if wa.size not in (cpu, gpu):
        expected = f"{cpu}" if cpu == gpu else f"{cpu} (one bias) or {gpu} (b_ih and b_hh)"
        raise ValueError(f"For '{op}', 'w' must have {expected} elements, but got {wa.size} (shape "
                         f"{tuple(wa.shape)}).")
    dtype = xa.dtype
    weights = _split_lstm_weight(wa.astype(dtype), input_size, hidden_size, num_layers, has_bias, dirs,
                                 separate=wa.size != cpu)
    layer_in = xa
    hn, cn = [], []
    for layer in range(num_layers):
        outs = []
        for d in range(dirs):
            k = layer * dirs + d
            w_ih, w_hh, b = weights[layer][d]
            ys, hl, cl = _lstm_scan(layer_in, ha[k].astype(dtype), ca[k].astype(dtype), w_ih, w_hh, b, d == 1)
            outs.append(ys)
            hn.append(hl)
            cn.append(cl)
        layer_in = jnp.concatenate(outs, axis=-1) if dirs == 2 else outs[0]
        if dropout > 0.0 and layer < num_layers - 1:
            keep = jax.random.bernoulli(_random.next_key(), 1.0 - dropout, layer_in.shape)
            layer_in = jnp.where(keep, layer_in / (1.0 - dropout), 0).astype(dtype)
    empty = jnp.zeros((1, 1), dtype)
    return layer_in, jnp.stack(hn), jnp.stack(cn), empty, empty


def _block_lstm_step(x: jax.Array, h: jax.Array, c: jax.Array, w: jax.Array, b: jax.Array, forget_bias: float,
                     cell_clip: float) -> tuple[jax.Array, ...]:
    """TensorFlow's LSTM block step, gates (i, j, f, o): returns ``(h, c, i, j, f, o, tanh(c))``."""
    z = jnp.concatenate([x, h], axis=-1) @ w + b
    zi, zj, zf, zo = jnp.split(z, 4, axis=-1)
    i, j, f, o = jax.nn.sigmoid(zi), jnp.tanh(zj), jax.nn.sigmoid(zf + forget_bias), jax.nn.sigmoid(zo)
    c = f * c + i * j
    if cell_clip > 0:
        c = jnp.clip(c, -cell_clip, cell_clip)
    tanh_c = jnp.tanh(c)
    return o * tanh_c, c, i, j, f, o, tanh_c


def _check_block_weights(op: str, x: jax.Array, w: jax.Array, b: jax.Array, hidden: int) -> None:
    _expect_shape(op, "w", w, (x.shape[-1] + hidden, 4 * hidden))
    _expect_shape(op, "b", b, (4 * hidden,))


def basic_lstm_cell(x: Any, h: Any, c: Any, w: Any, b: Any, forget_bias: float = 1.0,
                    op: str = "BasicLSTMCell") -> tuple[jax.Array, ...]:
    """One step of TensorFlow's LSTM block (``ops.BasicLSTMCell``).

    Arguments:
        x: (batch, input_size). h, c: (batch, hidden_size).
        w: (input_size + hidden_size, 4 * hidden_size), gates (i, j, f, o). b: (4 * hidden_size,).
        forget_bias: added to the forget gate's pre-activation.
        op: the name used in errors.

    Returns:
        ``(ct, ht, it, jt, ft, ot, tanhct)``, each (batch, hidden_size); ``ht`` is float16 as in MindSpore.
    """
    xa, ha, ca = _floating(op, "x", x), _floating(op, "h", h), _floating(op, "c", c)
    wa, ba = _floating(op, "w", w), _floating(op, "b", b)
    for name, a, rank in (("x", xa, 2), ("h", ha, 2), ("c", ca, 2)):
        if a.ndim != rank:
            raise ValueError(f"For '{op}', '{name}' must be 2-D (batch, features), but got shape {tuple(a.shape)}.")
    if ha.shape[0] != xa.shape[0] or ca.shape != ha.shape:
        raise ValueError(f"For '{op}', 'h' and 'c' must have shape ({xa.shape[0]}, hidden_size) like each other, "
                         f"but got {tuple(ha.shape)} and {tuple(ca.shape)}.")
    _check_block_weights(op, xa, wa, ba, ha.shape[1])
    dtype = ca.dtype
    ht, ct, it, jt, ft, ot, tc = _block_lstm_step(xa.astype(dtype), ha.astype(dtype), ca, wa.astype(dtype),
                                                  ba.astype(dtype), forget_bias, -1.0)
    return ct, ht.astype(jnp.float16), it, jt, ft, ot, tc


def dynamic_rnn(x: Any, w: Any, b: Any, seq_length: Any = None, init_h: Any = None, init_c: Any = None,
                forget_bias: float = 0.0, cell_clip: float = -1.0, op: str = "DynamicRNN") -> tuple[jax.Array, ...]:
    """A single-layer LSTM in TensorFlow's block form over ``x`` (num_step, batch, input_size) (``ops.DynamicRNN``).

    Arguments:
        x: (num_step, batch, input_size). w: (input_size + hidden_size, 4 * hidden_size), gates (i, j, f, o).
        b: (4 * hidden_size,). seq_length: must be ``None`` (as in MindSpore).
        init_h, init_c: (1, batch, hidden_size); zeros when ``None``.
        forget_bias: added to the forget gate. cell_clip: when positive, the cell state is clipped to
            ``[-cell_clip, cell_clip]``.
        op: the name used in errors.

    Returns:
        ``(y, output_h, output_c, i, j, f, o, tanhc)``, each (num_step, batch, hidden_size), in ``b``'s dtype
        (``output_h`` in float16, as in MindSpore).
    """
    xa, wa, ba = _floating(op, "x", x), _floating(op, "w", w), _floating(op, "b", b)
    if xa.ndim != 3:
        raise ValueError(f"For '{op}', 'x' must be 3-D (num_step, batch_size, input_size), but got shape "
                         f"{tuple(xa.shape)}.")
    if seq_length is not None:
        raise ValueError(f"For '{op}', 'seq_length' must be None (MindSpore supports only None), but got a tensor.")
    if wa.ndim != 2 or wa.shape[1] % 4:
        raise ValueError(f"For '{op}', 'w' must have shape (input_size + hidden_size, 4 * hidden_size), "
                         f"but got {tuple(wa.shape)}.")
    hidden = wa.shape[1] // 4
    _check_block_weights(op, xa, wa, ba, hidden)
    dtype = ba.dtype
    batch = xa.shape[1]
    states = []
    for name, init in (("init_h", init_h), ("init_c", init_c)):
        if init is None:
            states.append(jnp.zeros((batch, hidden), dtype))
            continue
        a = _floating(op, name, init)
        _expect_shape(op, name, a, (1, batch, hidden))
        states.append(a[0].astype(dtype))
    wd = wa.astype(dtype)
    bd = ba.astype(dtype)

    def step(carry: tuple[jax.Array, jax.Array], xt: jax.Array) -> tuple[tuple[jax.Array, jax.Array], tuple]:
        h, c = carry
        out = _block_lstm_step(xt, h, c, wd, bd, forget_bias, cell_clip)
        return (out[0], out[1]), out

    _, (hs, cs, i, j, f, o, tc) = jax.lax.scan(step, tuple(states), xa.astype(dtype))
    return hs, hs.astype(jnp.float16), cs, i, j, f, o, tc


def dynamic_gru_v2(x: Any, weight_input: Any, weight_hidden: Any, bias_input: Any = None, bias_hidden: Any = None,
                   seq_length: Any = None, init_h: Any = None, gate_order: str = "rzh", reset_after: bool = True,
                   cell_clip: float = -1.0, op: str = "DynamicGRUV2") -> tuple[jax.Array, ...]:
    """A single-layer GRU over ``x`` (num_step, batch, input_size) (``ops.DynamicGRUV2``).

    Arguments:
        x: (num_step, batch, input_size). weight_input: (input_size, 3 * hidden_size).
        weight_hidden: (hidden_size, 3 * hidden_size). bias_input, bias_hidden: (3 * hidden_size,) or ``None``.
        seq_length: must be ``None``. init_h: (batch, hidden_size).
        gate_order: ``'rzh'`` (reset, update, new) or ``'zrh'`` (update, reset, new), the gates' order in the
            weights and biases.
        reset_after: apply the reset gate after the hidden matmul (``r * (W_hn h + b_hn)``) rather than before
            (``W_hn (r * h) + b_hn``).
        cell_clip: when positive, the hidden state is clipped to ``[-cell_clip, cell_clip]``.
        op: the name used in errors.

    Returns:
        ``(y, output_h, update, reset, new, hidden_new)``, each (num_step, batch, hidden_size); ``hidden_new``
        is ``W_hn h + b_hn`` of each step. The dtype is ``bias_input``'s, else ``bias_hidden``'s, else ``init_h``'s.
    """
    xa = _floating(op, "x", x)
    wi, wh = _floating(op, "weight_input", weight_input), _floating(op, "weight_hidden", weight_hidden)
    if xa.ndim != 3:
        raise ValueError(f"For '{op}', 'x' must be 3-D (num_step, batch_size, input_size), but got shape "
                         f"{tuple(xa.shape)}.")
    if seq_length is not None:
        raise ValueError(f"For '{op}', 'seq_length' must be None (MindSpore supports only None), but got a tensor.")
    if init_h is None:
        raise TypeError(f"For '{op}', 'init_h' must be a tensor of shape (batch_size, hidden_size), but got None.")
    ha = _floating(op, "init_h", init_h)
    if ha.ndim != 2 or ha.shape[0] != xa.shape[1]:
        raise ValueError(f"For '{op}', 'init_h' must have shape ({xa.shape[1]}, hidden_size), but got "
                         f"{tuple(ha.shape)}.")
    hidden = ha.shape[1]
    _expect_shape(op, "weight_input", wi, (xa.shape[2], 3 * hidden))
    _expect_shape(op, "weight_hidden", wh, (hidden, 3 * hidden))
    biases = []
    for name, bias in (("bias_input", bias_input), ("bias_hidden", bias_hidden)):
        if bias is None:
            biases.append(None)
            continue
        a = _floating(op, name, bias)
        _expect_shape(op, name, a, (3 * hidden,))
        biases.append(a)
    dtype = next((bb.dtype for bb in biases if bb is not None), ha.dtype)
    bi, bh = (jnp.zeros((3 * hidden,), dtype) if bb is None else bb.astype(dtype) for bb in biases)
    order = (0, 1) if gate_order == "rzh" else (1, 0)
    wi, wh = wi.astype(dtype), wh.astype(dtype)
    projected = xa.astype(dtype) @ wi + bi

    def split(v: jax.Array) -> tuple[jax.Array, jax.Array, jax.Array]:
        parts = jnp.split(v, 3, axis=-1)
        return parts[order[0]], parts[order[1]], parts[2]

    w_r, w_z, w_n = split(wh)
    b_r, b_z, b_n = split(bh)

    def step(h: jax.Array, zx: jax.Array) -> tuple[jax.Array, tuple]:
        x_r, x_z, x_n = split(zx)
        r = jax.nn.sigmoid(x_r + h @ w_r + b_r)
        z = jax.nn.sigmoid(x_z + h @ w_z + b_z)
        hidden_new = h @ w_n + b_n
        n = jnp.tanh(x_n + (r * hidden_new if reset_after else (r * h) @ w_n + b_n))
        h = (1 - z) * n + z * h
        if cell_clip > 0:
            h = jnp.clip(h, -cell_clip, cell_clip)
        return h, (h, z, r, n, hidden_new)

    _, (hs, z, r, n, hidden_new) = jax.lax.scan(step, ha.astype(dtype), projected)
    return hs, hs, z, r, n, hidden_new
