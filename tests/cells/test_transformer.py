"""MultiheadAttention and the Transformer layers: structure, masks, modes and errors."""
import numpy as np
import pytest

import mindjax as ms
from mindjax import nn


def _x(shape, seed=0):
    return ms.Tensor(np.random.default_rng(seed).standard_normal(shape).astype(np.float32))


class _Holder(nn.Cell):
    """Puts a layer at a known path ('block') for error messages."""

    def __init__(self, layer):
        super().__init__()
        self.block = layer

    def construct(self, *args, **kwargs):
        return self.block(*args, **kwargs)


def test_attention_parameters_follow_mindspore_names_and_shapes():
    same = [(p.name, p.shape) for p in nn.MultiheadAttention(8, 2, add_bias_kv=True).get_parameters()]
    assert same == [("in_proj_weight", (24, 8)), ("in_proj_bias", (24,)), ("bias_k", (1, 1, 8)),
                    ("bias_v", (1, 1, 8)), ("out_proj.weight", (8, 8)), ("out_proj.bias", (8,))]
    split = [(p.name, p.shape) for p in nn.MultiheadAttention(8, 2, kdim=6, vdim=5, has_bias=False).get_parameters()]
    assert split == [("q_proj_weight", (8, 8)), ("k_proj_weight", (8, 6)), ("v_proj_weight", (8, 5)),
                     ("out_proj.weight", (8, 8))]


def test_attention_output_structure_and_shapes(mode):
    net = nn.MultiheadAttention(8, 2)
    q, kv = _x((4, 3, 8)), _x((6, 3, 8), 1)
    out, weights = net(q, kv, kv)
    assert out.shape == (4, 3, 8) and weights.shape == (3, 4, 6)
    per_head = net(q, kv, kv, average_attn_weights=False)[1]
    assert per_head.shape == (3, 2, 4, 6)
    np.testing.assert_allclose(per_head.mean(axis=1), weights, atol=1e-6)
    only_output = net(q, kv, kv, need_weights=False)
    assert isinstance(only_output, tuple) and len(only_output) == 1


def test_attention_batch_first_and_unbatched_agree_with_time_major():
    net = nn.MultiheadAttention(8, 2)
    first = nn.MultiheadAttention(8, 2, batch_first=True)
    for p, twin in zip(net.get_parameters(), first.get_parameters()):
        twin.set_data(p)
    q = _x((4, 3, 8))
    time_major = net(q, q, q)[0]
    np.testing.assert_allclose(first(q.swapaxes(0, 1), q.swapaxes(0, 1), q.swapaxes(0, 1))[0].swapaxes(0, 1),
                               time_major, atol=1e-6)
    np.testing.assert_allclose(net(q[:, 1], q[:, 1], q[:, 1])[0], time_major[:, 1], atol=1e-6)


def test_key_padding_and_causal_masks_zero_the_masked_weights(mode):
    net = nn.MultiheadAttention(8, 2)
    q = _x((4, 2, 8))
    padding = np.zeros((2, 4), bool)
    padding[1, -1] = True
    causal = np.triu(np.ones((4, 4), bool), k=1)
    weights = np.asarray(net(q, q, q, key_padding_mask=ms.Tensor(padding), attn_mask=ms.Tensor(causal))[1])
    assert (weights[:, causal] == 0).all()
    assert (weights[1, :, -1] == 0).all() and (weights[0, -1, -1] > 0)
    np.testing.assert_allclose(weights.sum(-1), 1, atol=1e-6)


def test_boolean_padding_mask_still_masks_next_to_a_float_attn_mask():
    # MindSpore 2.10 adds the boolean as +1.0 here; MindJAX removes the padded key.
    net = nn.MultiheadAttention(8, 2)
    q = _x((3, 2, 8))
    padding = np.array([[False, False, True], [False, False, False]])
    weights = net(q, q, q, key_padding_mask=ms.Tensor(padding),
                  attn_mask=ms.Tensor(np.zeros((3, 3), np.float32)))[1]
    assert (np.asarray(weights)[0, :, 2] == 0).all()


def test_attention_dropout_acts_only_in_training():
    ms.set_context(mode=ms.GRAPH_MODE)
    net = nn.MultiheadAttention(8, 2, dropout=0.5)
    q = _x((4, 2, 8))
    np.testing.assert_array_equal(net(q, q, q)[1], net(q, q, q)[1])
    net.set_train(True)
    assert (np.asarray(net(q, q, q, average_attn_weights=False)[1]) == 0).any()


def test_encoder_layer_parameters_follow_mindspore_names():
    names = [p.name for p in nn.TransformerEncoderLayer(8, 2, 16).get_parameters()]
    assert names == ["self_attn.in_proj_weight", "self_attn.in_proj_bias", "self_attn.out_proj.weight",
                     "self_attn.out_proj.bias", "dense1.weight", "dense1.bias", "dense2.weight",
                     "dense2.bias", "norm1.gamma", "norm1.beta", "norm2.gamma", "norm2.beta"]


@pytest.mark.parametrize("norm_first,batch_first", [(False, False), (True, True)])
def test_encoder_layer_keeps_the_input_shape_in_both_modes(mode, norm_first, batch_first):
    layer = nn.TransformerEncoderLayer(8, 2, 16, norm_first=norm_first, batch_first=batch_first,
                                       activation="gelu")
    x = _x((3, 5, 8))
    padding = ms.Tensor(np.zeros((5, 3) if not batch_first else (3, 5), bool))
    assert layer(x, src_key_padding_mask=padding).shape == (3, 5, 8)


def test_encoder_layer_dropout_is_identity_in_eval_and_random_in_training():
    ms.set_context(mode=ms.GRAPH_MODE)
    layer = nn.TransformerEncoderLayer(8, 2, 16, dropout=0.5)
    x = _x((5, 2, 8))
    np.testing.assert_array_equal(layer(x), layer(x))
    layer.set_train(True)
    first, second = layer(x), layer(x)
    assert not np.allclose(first, second)


def test_encoder_stack_starts_from_identical_layers_and_applies_the_norm():
    encoder = nn.TransformerEncoder(nn.TransformerEncoderLayer(8, 2, 16), 3,
                                    norm=nn.TransformerEncoderLayer(8, 2, 16).norm1)
    params = encoder.parameters_dict()
    assert "layers.2.dense2.bias" in params and "norm.gamma" in params
    np.testing.assert_array_equal(params["layers.0.dense1.weight"], params["layers.2.dense1.weight"])
    assert params["layers.0.dense1.weight"] is not params["layers.2.dense1.weight"]
    out = np.asarray(encoder(_x((5, 2, 8))))
    np.testing.assert_allclose(out.mean(-1), 0, atol=1e-5)


def test_decoder_and_full_transformer_run_in_both_modes(mode):
    net = nn.Transformer(8, 2, num_encoder_layers=1, num_decoder_layers=2, dim_feedforward=16)
    causal = ms.Tensor(np.triu(np.ones((4, 4), bool), k=1))
    assert net(_x((5, 2, 8)), _x((4, 2, 8), 1), tgt_mask=causal).shape == (4, 2, 8)
    assert "decoder.layers.1.multihead_attn.in_proj_weight" in net.parameters_dict()


# -- errors ---------------------------------------------------------------------
def test_attention_rejects_wrong_query_width_naming_the_cell():
    net = _Holder(nn.MultiheadAttention(8, 2))
    with pytest.raises(ValueError, match=r"For 'MultiheadAttention' at 'block'.*'query' with last dimension 8, "
                                         r"got \(4, 2, 6\)"):
        net(_x((4, 2, 6)), _x((4, 2, 8)), _x((4, 2, 8)))


def test_attention_rejects_bad_masks():
    net = nn.MultiheadAttention(8, 2)
    q = _x((4, 2, 8))
    with pytest.raises(ValueError, match=r"'key_padding_mask' of shape \(2, 4\), got \(4, 2\)"):
        net(q, q, q, key_padding_mask=ms.Tensor(np.zeros((4, 2), bool)))
    with pytest.raises(ValueError, match=r"'attn_mask' of shape \(4, 4\) or \(4, 4, 4\), got \(3, 3\)"):
        net(q, q, q, attn_mask=ms.Tensor(np.zeros((3, 3), bool)))
    with pytest.raises(ValueError, match="'key_padding_mask' must be bool or float"):
        net(q, q, q, key_padding_mask=ms.Tensor(np.zeros((2, 4), np.int32)))
    with pytest.raises(ValueError, match="rank of 'query'"):
        net(q, q[0], q[0])


def test_encoder_layer_rejects_wrong_width_naming_the_cell():
    with pytest.raises(ValueError, match=r"For 'TransformerEncoderLayer' at 'block'.*last dimension 8, got \(5, 2, 4\)"):
        _Holder(nn.TransformerEncoderLayer(8, 2, 16))(_x((5, 2, 4)))


@pytest.mark.parametrize("build,match", [
    (lambda: nn.MultiheadAttention(6, 4), "'embed_dim' \\(6\\) must be divisible by 'num_heads' \\(4\\)"),
    (lambda: nn.MultiheadAttention(8, 2, dropout=1.5), "'dropout'"),
    (lambda: nn.TransformerEncoderLayer(8, 2, activation="tanh"), "'activation'"),
    (lambda: nn.TransformerDecoderLayer(8, 2, activation=3), "'activation'"),
    (lambda: nn.TransformerEncoderLayer(8, 3), "'d_model' \\(8\\) must be divisible by 'nhead'"),
    (lambda: nn.TransformerEncoder(nn.MultiheadAttention(8, 2), 2), "'encoder_layer'"),
])
def test_bad_constructor_arguments_raise_value_error_naming_the_argument(build, match):
    with pytest.raises(ValueError, match=match):
        build()
