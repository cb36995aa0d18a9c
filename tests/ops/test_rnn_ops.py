"""RNN Primitives: LSTM (flat weight), DynamicRNN, DynamicGRUV2, BasicLSTMCell — numbers against a numpy loop,
layouts, and errors naming the op and argument."""
import numpy as np
import pytest

import mindjax
from mindjax import ops

F32 = np.float32
RNG = np.random.default_rng(11)


def _sig(z):
    return 1 / (1 + np.exp(-z))


def _np_lstm(x, h, c, w_ih, w_hh, b, reverse=False):
    outs = [None] * x.shape[0]
    for t in (range(x.shape[0] - 1, -1, -1) if reverse else range(x.shape[0])):
        i, f, g, o = np.split(x[t] @ w_ih.T + h @ w_hh.T + b, 4, -1)
        c = _sig(f) * c + _sig(i) * np.tanh(g)
        h = _sig(o) * np.tanh(c)
        outs[t] = h
    return np.stack(outs), h, c


def test_lstm_docstring_example_of_mindspore():
    x = np.ones((5, 2, 10), F32)
    h = np.ones((1, 2, 2), F32)
    out, hn, cn, reserve, state = ops.LSTM(10, 2, 1, True, False, 0.0)(x, h, h, np.ones((112, 1, 1), F32))
    np.testing.assert_allclose(out.asnumpy()[:, 0, 0], [0.9640267, 0.9950539, 0.99932843, 0.9999084, 0.9999869],
                               rtol=1e-5)
    assert hn.shape == (1, 2, 2) and cn.shape == (1, 2, 2) and reserve.shape == (1, 1) and state.shape == (1, 1)


def test_lstm_two_layers_gpu_layout_matches_numpy():
    I, H, T, B = 3, 4, 5, 2
    x = RNG.standard_normal((T, B, I)).astype(F32)
    h0, c0 = (RNG.standard_normal((2, B, H)).astype(F32) for _ in range(2))
    layers = [(RNG.standard_normal((4 * H, n)).astype(F32) * .4, RNG.standard_normal((4 * H, H)).astype(F32) * .4,
               RNG.standard_normal(4 * H).astype(F32), RNG.standard_normal(4 * H).astype(F32)) for n in (I, H)]
    flat = np.concatenate([p.ravel() for lay in layers for p in lay[:2]] + [p for lay in layers for p in lay[2:]])
    out, hn, cn, _, _ = ops.LSTM(I, H, 2, True, False, 0.0)(x, h0, c0, flat.reshape(-1, 1, 1))
    y, h1, c1 = _np_lstm(x, h0[0], c0[0], layers[0][0], layers[0][1], layers[0][2] + layers[0][3])
    y, h2, c2 = _np_lstm(y, h0[1], c0[1], layers[1][0], layers[1][1], layers[1][2] + layers[1][3])
    np.testing.assert_allclose(out.asnumpy(), y, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(hn.asnumpy(), np.stack([h1, h2]), rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(cn.asnumpy(), np.stack([c1, c2]), rtol=1e-5, atol=1e-5)


def test_lstm_runs_under_jit_like_eagerly():
    x = RNG.standard_normal((4, 2, 3)).astype(F32)
    h = np.zeros((2, 2, 5), F32)
    w = RNG.standard_normal((2 * 20 * 8 + 40, 1, 1)).astype(F32) * .3
    prim = ops.LSTM(3, 5, 1, True, True, 0.0)
    eager = prim(x, h, h, w)[0].asnumpy()
    graph = np.asarray(mindjax.jit(lambda *a: prim(*a)[0])(x, h, h, w))
    np.testing.assert_allclose(graph, eager, rtol=1e-6, atol=1e-6)
    assert eager.shape == (4, 2, 10)


def test_lstm_rejects_bad_arguments_naming_the_op():
    with pytest.raises(TypeError, match="For 'LSTM', 'has_bias' must be a bool"):
        ops.LSTM(3, 5, 1, 1, False, 0.0)
    with pytest.raises(ValueError, match=r"For 'LSTM', 'dropout' must be in \[0.0, 1.0\], but got 1.5"):
        ops.LSTM(3, 5, 1, True, False, 1.5)
    with pytest.raises(TypeError, match="For 'LSTM', 'dropout' must be a float, but got int"):
        ops.LSTM(3, 5, 1, True, False, 0)
    with pytest.raises(ValueError, match=r"For 'LSTM', 'proj_size' must be in \[0, 5\), but got 5"):
        ops.LSTM(3, 5, 1, True, False, 0.0, proj_size=5)
    x, h = np.ones((4, 2, 3), F32), np.zeros((1, 2, 5), F32)
    with pytest.raises(ValueError, match=r"For 'LSTM', 'w' must have 180 \(one bias\) or 200 "
                                         r"\(b_ih and b_hh\) elements, but got 7"):
        ops.LSTM(3, 5, 1, True, False, 0.0)(x, h, h, np.ones((7, 1, 1), F32))
    with pytest.raises(ValueError, match=r"For 'LSTM', 'h' must have shape \(1, 2, 5\), but got \(2, 2, 5\)"):
        ops.LSTM(3, 5, 1, True, False, 0.0)(x, np.zeros((2, 2, 5), F32), h, np.ones((180, 1, 1), F32))
    with pytest.raises(TypeError, match="For 'LSTM', 'input' must be a float16 or float32 tensor, but got int32"):
        ops.LSTM(3, 5, 1, True, False, 0.0)(x.astype(np.int32), h, h, np.ones((180, 1, 1), F32))


def _np_block(x, h, c, w, b, forget_bias):
    i, j, f, o = np.split(np.concatenate([x, h], -1) @ w + b, 4, -1)
    c = _sig(f + forget_bias) * c + _sig(i) * np.tanh(j)
    return _sig(o) * np.tanh(c), c, _sig(i), np.tanh(j), _sig(f + forget_bias), _sig(o)


def test_dynamic_rnn_matches_the_tensorflow_block_lstm():
    T, B, I, H = 3, 2, 4, 5
    x = RNG.standard_normal((T, B, I)).astype(F32)
    w = (RNG.standard_normal((I + H, 4 * H)) * .4).astype(F32)
    b = RNG.standard_normal(4 * H).astype(F32)
    h0, c0 = (RNG.standard_normal((1, B, H)).astype(F32) for _ in range(2))
    y, out_h, out_c, i, j, f, o, tanhc = ops.DynamicRNN(forget_bias=0.5)(x, w, b, None, h0, c0)
    h, c = h0[0], c0[0]
    for t in range(T):
        h, c, it, jt, ft, ot = _np_block(x[t], h, c, w, b, 0.5)
        for got, want in ((y, h), (out_c, c), (i, it), (j, jt), (f, ft), (o, ot), (tanhc, np.tanh(c))):
            np.testing.assert_allclose(got.asnumpy()[t], want, rtol=1e-5, atol=1e-5)
    assert out_h.dtype == mindjax.float16 and y.dtype == mindjax.float32


def test_dynamic_rnn_cell_clip_bounds_the_cell_state():
    x = np.full((4, 1, 2), 3.0, F32)
    out_c = ops.DynamicRNN(cell_clip=0.5)(x, np.ones((3, 4), F32), np.ones(4, F32))[2]
    assert float(np.abs(out_c.asnumpy()).max()) == pytest.approx(0.5)


def test_dynamic_rnn_rejects_what_mindspore_rejects():
    with pytest.raises(ValueError, match=r"For 'DynamicRNN', 'cell_type' must be one of \['LSTM'\], but got 'GRU'"):
        ops.DynamicRNN(cell_type="GRU")
    with pytest.raises(ValueError, match="For 'DynamicRNN', 'time_major' must be True"):
        ops.DynamicRNN(time_major=False)
    with pytest.raises(ValueError, match=r"For 'DynamicRNN', 'w' must have shape \(7, 12\), but got \(6, 12\)"):
        ops.DynamicRNN()(np.ones((2, 1, 4), F32), np.ones((6, 12), F32), np.ones(12, F32))
    with pytest.raises(ValueError, match="For 'DynamicRNN', 'seq_length' must be None"):
        ops.DynamicRNN()(np.ones((2, 1, 4), F32), np.ones((7, 12), F32), np.ones(12, F32), np.ones(1, np.int32))


@pytest.mark.parametrize("gate_order", ["rzh", "zrh"])
@pytest.mark.parametrize("reset_after", [True, False])
def test_dynamic_gru_v2_matches_numpy(gate_order, reset_after):
    T, B, I, H = 3, 2, 4, 3
    x = RNG.standard_normal((T, B, I)).astype(F32)
    wi, wh = (RNG.standard_normal((n, 3 * H)).astype(F32) * .5 for n in (I, H))
    bi, bh = (RNG.standard_normal(3 * H).astype(F32) for _ in range(2))
    h = RNG.standard_normal((B, H)).astype(F32)
    y, out_h, z_all, r_all, n_all, hn_all = ops.DynamicGRUV2(gate_order=gate_order, reset_after=reset_after)(
        x, wi, wh, bi, bh, None, h)

    def split(v):
        a, b_, c = np.split(v, 3, -1)
        return (a, b_, c) if gate_order == "rzh" else (b_, a, c)
    for t in range(T):
        xr, xz, xn = split(x[t] @ wi + bi)
        (wr, wz, wn), (br, bz, bn) = split(wh), split(bh)
        r, z = _sig(xr + h @ wr + br), _sig(xz + h @ wz + bz)
        n = np.tanh(xn + (r * (h @ wn + bn) if reset_after else (r * h) @ wn + bn))
        h = (1 - z) * n + z * h
        for got, want in ((y, h), (out_h, h), (z_all, z), (r_all, r), (n_all, n)):
            np.testing.assert_allclose(got.asnumpy()[t], want, rtol=1e-5, atol=1e-5)


def test_dynamic_gru_v2_rejects_bad_inputs():
    with pytest.raises(ValueError, match=r"For 'DynamicGRUV2', 'gate_order' must be one of \['zrh', 'rzh'\]"):
        ops.DynamicGRUV2(gate_order="hzr")
    x = np.ones((2, 1, 4), F32)
    with pytest.raises(ValueError, match=r"For 'DynamicGRUV2', 'weight_hidden' must have shape \(3, 9\), "
                                         r"but got \(3, 6\)"):
        ops.DynamicGRUV2()(x, np.ones((4, 9), F32), np.ones((3, 6), F32), None, None, None, np.ones((1, 3), F32))
    with pytest.raises(TypeError, match="For 'DynamicGRUV2', 'init_h' must be a tensor"):
        ops.DynamicGRUV2()(x, np.ones((4, 9), F32), np.ones((3, 9), F32))


def test_basic_lstm_cell_is_one_block_step_with_float16_ht():
    x, h, c = (RNG.standard_normal((2, n)).astype(F32) for n in (3, 4, 4))
    w, b = (RNG.standard_normal((7, 16)) * .4).astype(F32), RNG.standard_normal(16).astype(F32)
    ct, ht, it, jt, ft, ot, tanhct = ops.BasicLSTMCell()(x, h, c, w, b)
    want_h, want_c, i, j, f, o = _np_block(x, h, c, w, b, 1.0)
    for got, want in ((ct, want_c), (it, i), (jt, j), (ft, f), (ot, o), (tanhct, np.tanh(want_c))):
        np.testing.assert_allclose(got.asnumpy(), want, rtol=1e-5, atol=1e-5)
    assert ht.dtype == mindjax.float16
    np.testing.assert_allclose(ht.asnumpy().astype(F32), want_h, atol=2e-3)
    with pytest.raises(ValueError, match=r"For 'BasicLSTMCell', 'b' must have shape \(16,\), but got \(12,\)"):
        ops.BasicLSTMCell()(x, h, c, w, np.ones(12, F32))
    with pytest.raises(ValueError, match=r"For 'BasicLSTMCell', 'activation' must be one of \['tanh'\]"):
        ops.BasicLSTMCell(activation="relu")
