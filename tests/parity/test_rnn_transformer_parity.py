"""Parity of the recurrent and attention layers with MindSpore 2.10.

Each test builds the real MindSpore Cell, copies every Parameter into the
MindJAX Cell by name with ``set_data`` and compares outputs. MindSpore runs in
its GRAPH mode: several of its PYNATIVE kernels (ReverseV2, Zeros) fail under
numpy 2 here.
"""
import os

os.environ.setdefault("GLOG_v", "3")

import mindspore  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402

import mindjax as mj  # noqa: E402

ATOL = 1e-5


@pytest.fixture(autouse=True)
def _mindspore_graph_mode():
    mindspore.set_context(mode=mindspore.GRAPH_MODE)
    yield
    mindspore.set_context(mode=mindspore.PYNATIVE_MODE)


def _copy_weights(ms_net, mj_net):
    """Copy MindSpore's Parameters into ``mj_net`` by name after checking names and shapes agree."""
    ms_params = [(p.name, tuple(p.shape)) for p in ms_net.get_parameters()]
    mj_params = [(p.name, tuple(p.shape)) for p in mj_net.get_parameters()]
    assert mj_params == ms_params
    targets = {p.name: p for p in mj_net.get_parameters()}
    for p in ms_net.get_parameters():
        targets[p.name].set_data(mj.Tensor(p.asnumpy()))


def _ms(x):
    return None if x is None else mindspore.Tensor(x)


def _mj(x):
    return None if x is None else mj.Tensor(x)


def _close(ours, theirs, atol=ATOL):
    np.testing.assert_allclose(np.asarray(ours), theirs.asnumpy(), rtol=0, atol=atol)


def _rng(seed=0):
    return np.random.default_rng(seed)


@pytest.mark.parametrize("kind", ["LSTM", "GRU", "RNN", "RNN_relu"])
@pytest.mark.parametrize("batch_first,use_lengths", [(False, False), (True, True)],
                         ids=["time_major", "batch_first_with_seq_length"])
def test_stacked_bidirectional_rnn_matches_mindspore(kind, batch_first, use_lengths):
    rng = _rng()
    kwargs = dict(num_layers=2, has_bias=True, batch_first=batch_first, bidirectional=True)
    if kind == "RNN_relu":
        kwargs["nonlinearity"] = "relu"
    name = kind.split("_")[0]
    ms_net = getattr(mindspore.nn, name)(3, 5, **kwargs)
    mj_net = getattr(mj.nn, name)(3, 5, **kwargs)
    _copy_weights(ms_net, mj_net)
    seq, batch = 6, 4
    shape = (batch, seq, 3) if batch_first else (seq, batch, 3)
    x = rng.standard_normal(shape).astype(np.float32)
    h0 = rng.standard_normal((4, batch, 5)).astype(np.float32)
    c0 = rng.standard_normal((4, batch, 5)).astype(np.float32)
    lengths = np.array([6, 3, 1, 5], np.int32) if use_lengths else None
    if name == "LSTM":
        ms_out, (ms_h, ms_c) = ms_net(_ms(x), (_ms(h0), _ms(c0)), _ms(lengths))
        out, (h, c) = mj_net(_mj(x), (_mj(h0), _mj(c0)), _mj(lengths))
        _close(c, ms_c)
    else:
        ms_out, ms_h = ms_net(_ms(x), _ms(h0), _ms(lengths))
        out, h = mj_net(_mj(x), _mj(h0), _mj(lengths))
    assert out.shape == tuple(ms_out.shape) and h.shape == tuple(ms_h.shape)
    _close(out, ms_out)
    _close(h, ms_h)


@pytest.mark.parametrize("name", ["LSTM", "GRU", "RNN"])
def test_unidirectional_rnn_without_bias_matches_mindspore_in_graph_mode(name):
    mj.set_context(mode=mj.GRAPH_MODE)
    rng = _rng(1)
    ms_net = getattr(mindspore.nn, name)(4, 3, num_layers=2, has_bias=False)
    mj_net = getattr(mj.nn, name)(4, 3, num_layers=2, has_bias=False)
    _copy_weights(ms_net, mj_net)
    x = rng.standard_normal((5, 2, 4)).astype(np.float32)
    h0 = rng.standard_normal((2, 2, 3)).astype(np.float32)
    hx = (h0, h0 * 0.5) if name == "LSTM" else h0
    ms_hx = tuple(map(_ms, hx)) if name == "LSTM" else _ms(hx)
    mj_hx = tuple(map(_mj, hx)) if name == "LSTM" else _mj(hx)
    ms_out, ms_state = ms_net(_ms(x), ms_hx)
    out, state = mj_net(_mj(x), mj_hx)
    _close(out, ms_out)
    pairs = zip(state, ms_state) if name == "LSTM" else [(state, ms_state)]
    for ours, theirs in pairs:
        _close(ours, theirs)


@pytest.mark.parametrize("name", ["LSTMCell", "GRUCell", "RNNCell"])
def test_recurrent_cells_match_mindspore(name):
    rng = _rng(2)
    ms_net = getattr(mindspore.nn, name)(4, 3)
    mj_net = getattr(mj.nn, name)(4, 3)
    _copy_weights(ms_net, mj_net)
    x = rng.standard_normal((2, 4)).astype(np.float32)
    h = rng.standard_normal((2, 3)).astype(np.float32)
    if name == "LSTMCell":
        (ms_h, ms_c), (ours_h, ours_c) = ms_net(_ms(x), (_ms(h), _ms(h))), mj_net(_mj(x), (_mj(h), _mj(h)))
        _close(ours_h, ms_h)
        _close(ours_c, ms_c)
    else:
        _close(mj_net(_mj(x), _mj(h)), ms_net(_ms(x), _ms(h)))


def _bool_masks(tgt, src, batch):
    attn = np.triu(np.ones((tgt, src), bool), k=1)
    kpm = np.zeros((batch, src), bool)
    kpm[0, -2:] = True
    return attn, kpm


@pytest.mark.parametrize("case", ["bool_masks", "float_masks", "kdim_vdim_bias_kv_zero_attn",
                                  "batch_first_per_head_weights", "unbatched"])
def test_multihead_attention_matches_mindspore(case):
    rng = _rng(3)
    e, heads, tgt, src, batch = 8, 2, 4, 5, 3
    kwargs, kdim, vdim = {}, e, e
    if case == "kdim_vdim_bias_kv_zero_attn":
        kdim, vdim = 6, 7
        kwargs = dict(kdim=kdim, vdim=vdim, add_bias_kv=True, add_zero_attn=True)
    if case == "batch_first_per_head_weights":
        kwargs = dict(batch_first=True)
    ms_net = mindspore.nn.MultiheadAttention(e, heads, **kwargs)
    mj_net = mj.nn.MultiheadAttention(e, heads, **kwargs)
    _copy_weights(ms_net, mj_net)
    if case == "batch_first_per_head_weights":
        q_shape, k_shape, v_shape = (batch, tgt, e), (batch, src, kdim), (batch, src, vdim)
    elif case == "unbatched":
        q_shape, k_shape, v_shape = (tgt, e), (src, kdim), (src, vdim)
    else:
        q_shape, k_shape, v_shape = (tgt, batch, e), (src, batch, kdim), (src, batch, vdim)
    q = rng.standard_normal(q_shape).astype(np.float32)
    k = rng.standard_normal(k_shape).astype(np.float32)
    v = rng.standard_normal(v_shape).astype(np.float32)
    attn, kpm = _bool_masks(tgt, src, batch)
    if case == "float_masks":
        attn = rng.standard_normal((batch * heads, tgt, src)).astype(np.float32)
        kpm = np.where(kpm, -1e4, 0.0).astype(np.float32)
    if case == "unbatched":
        kpm = kpm[0]
    average = case != "batch_first_per_head_weights"
    ms_out, ms_w = ms_net(_ms(q), _ms(k), _ms(v), key_padding_mask=_ms(kpm), attn_mask=_ms(attn),
                          average_attn_weights=average)
    out, w = mj_net(_mj(q), _mj(k), _mj(v), key_padding_mask=_mj(kpm), attn_mask=_mj(attn),
                    average_attn_weights=average)
    assert out.shape == tuple(ms_out.shape) and w.shape == tuple(ms_w.shape)
    _close(out, ms_out)
    _close(w, ms_w)


@pytest.mark.parametrize("norm_first,activation,batch_first", [(False, "relu", False), (True, "gelu", True)])
def test_transformer_encoder_layer_matches_mindspore_in_eval_mode(norm_first, activation, batch_first):
    rng = _rng(4)
    kwargs = dict(dim_feedforward=16, dropout=0.1, activation=activation, norm_first=norm_first,
                  batch_first=batch_first)
    ms_net = mindspore.nn.TransformerEncoderLayer(8, 2, **kwargs)
    mj_net = mj.nn.TransformerEncoderLayer(8, 2, **kwargs)
    ms_net.set_train(False)
    _copy_weights(ms_net, mj_net)
    seq, batch = 5, 3
    x = rng.standard_normal((batch, seq, 8) if batch_first else (seq, batch, 8)).astype(np.float32)
    kpm = np.zeros((batch, seq), bool)
    kpm[1, -1] = True
    mask = np.triu(np.ones((seq, seq), bool), k=1)
    _close(mj_net(_mj(x), _mj(mask), _mj(kpm)), ms_net(_ms(x), _ms(mask), _ms(kpm)))


def test_transformer_encoder_and_decoder_stacks_match_mindspore():
    rng = _rng(5)
    ms_enc = mindspore.nn.TransformerEncoder(mindspore.nn.TransformerEncoderLayer(8, 2, 16), 2)
    mj_enc = mj.nn.TransformerEncoder(mj.nn.TransformerEncoderLayer(8, 2, 16), 2)
    ms_dec = mindspore.nn.TransformerDecoder(mindspore.nn.TransformerDecoderLayer(8, 2, 16), 2)
    mj_dec = mj.nn.TransformerDecoder(mj.nn.TransformerDecoderLayer(8, 2, 16), 2)
    for ms_net, mj_net in ((ms_enc, mj_enc), (ms_dec, mj_dec)):
        ms_net.set_train(False)
        _copy_weights(ms_net, mj_net)
    src = rng.standard_normal((5, 2, 8)).astype(np.float32)
    tgt = rng.standard_normal((4, 2, 8)).astype(np.float32)
    tgt_mask = np.triu(np.ones((4, 4), bool), k=1)
    ms_mem = ms_enc(_ms(src))
    mem = mj_enc(_mj(src))
    _close(mem, ms_mem)
    _close(mj_dec(_mj(tgt), mem, tgt_mask=_mj(tgt_mask)), ms_dec(_ms(tgt), ms_mem, tgt_mask=_ms(tgt_mask)))
