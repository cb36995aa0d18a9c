"""ops.function.nn_func.multi_head_attention_forward against a hand-written jnp attention: shapes, masks, errors."""
from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import mindjax
from mindjax.ops.function.nn_func import multi_head_attention_forward

L, S, N, E, H = 3, 4, 2, 8, 2
RNG = np.random.default_rng(1)
Q, K, V = (RNG.normal(size=shape).astype(np.float32) for shape in ((L, N, E), (S, N, E), (S, N, E)))
W_IN = (RNG.normal(size=(3 * E, E)) * 0.3).astype(np.float32)
B_IN = (RNG.normal(size=(3 * E,)) * 0.1).astype(np.float32)
W_OUT = (RNG.normal(size=(E, E)) * 0.3).astype(np.float32)
B_OUT = (RNG.normal(size=(E,)) * 0.1).astype(np.float32)


def _reference(q, k, v, additive=None):
    """Per batch and head: softmax(q k^T / sqrt(d) + mask) v, then the output projection."""
    d = E // H
    qp, kp, vp = (x @ W_IN[i * E:(i + 1) * E].T + B_IN[i * E:(i + 1) * E] for i, x in enumerate((q, k, v)))
    out = np.zeros((q.shape[0], N, E), np.float32)
    weights = np.zeros((N, H, q.shape[0], k.shape[0]), np.float32)
    for n in range(N):
        for h in range(H):
            sl = slice(h * d, (h + 1) * d)
            scores = qp[:, n, sl] @ kp[:, n, sl].T / np.sqrt(d)
            if additive is not None:
                scores = scores + additive[n, h]
            p = np.asarray(jax.nn.softmax(jnp.asarray(scores), axis=-1))
            weights[n, h] = p
            out[:, n, sl] = p @ vp[:, n, sl]
    return out @ W_OUT.T + B_OUT, weights


def _call(**kw):
    args = dict(query=Q, key=K, value=V, embed_dim_to_check=E, num_heads=H, in_proj_weight=W_IN, in_proj_bias=B_IN,
                bias_k=None, bias_v=None, add_zero_attn=False, dropout_p=0.0, out_proj_weight=W_OUT,
                out_proj_bias=B_OUT, training=False)
    args.update(kw)
    args = {k: mindjax.Tensor(v) if isinstance(v, np.ndarray) else v for k, v in args.items()}
    out, weights = multi_head_attention_forward(**args)
    return out.asnumpy(), weights.asnumpy()


def test_matches_reference_attention_without_masks() -> None:
    out, weights = _call(average_attn_weights=False)
    ref_out, ref_w = _reference(Q, K, V)
    assert out.shape == (L, N, E) and weights.shape == (N, H, L, S)
    np.testing.assert_allclose(out, ref_out, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(weights, ref_w, rtol=1e-5, atol=1e-6)


def test_weights_are_averaged_over_heads_by_default() -> None:
    _, weights = _call()
    assert weights.shape == (N, L, S)
    np.testing.assert_allclose(weights, _reference(Q, K, V)[1].mean(axis=1), rtol=1e-5, atol=1e-6)


def test_boolean_masks_remove_keys() -> None:
    kpm = np.array([[False, False, True, False], [False, True, False, False]])
    causal = np.triu(np.ones((L, S), bool), 1)
    out, weights = _call(key_padding_mask=kpm, attn_mask=causal, average_attn_weights=False)
    additive = np.where(kpm[:, None, None, :] | causal[None, None], -np.inf, 0.0)
    ref_out, ref_w = _reference(Q, K, V, np.broadcast_to(additive, (N, H, L, S)))
    np.testing.assert_allclose(out, ref_out, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(weights, ref_w, rtol=1e-5, atol=1e-6)
    assert np.all(weights[0, :, :, 2] == 0) and np.all(weights[1, :, :, 1] == 0)


def test_float_mask_per_batch_head_is_added() -> None:
    mask = RNG.normal(size=(N * H, L, S)).astype(np.float32)
    out, _ = _call(attn_mask=mask)
    np.testing.assert_allclose(out, _reference(Q, K, V, mask.reshape(N, H, L, S))[0], rtol=1e-5, atol=1e-5)


def test_is_causal_masks_later_keys() -> None:
    out, weights = _call(is_causal=True, average_attn_weights=False)
    causal = np.where(np.triu(np.ones((L, S), bool), 1), -np.inf, 0.0)
    np.testing.assert_allclose(out, _reference(Q, K, V, np.broadcast_to(causal, (N, H, L, S)))[0], rtol=1e-5,
                               atol=1e-5)
    assert np.all(weights[..., 0, 1:] == 0)


def test_bias_kv_and_zero_attn_append_keys() -> None:
    bias = RNG.normal(size=(1, 1, E)).astype(np.float32)
    _, weights = _call(bias_k=bias, bias_v=bias, add_zero_attn=True)
    assert weights.shape == (N, L, S + 2)
    np.testing.assert_allclose(weights.sum(-1), 1.0, rtol=1e-5)


def test_unbatched_inputs_drop_the_batch_axis() -> None:
    out, weights = _call(query=Q[:, 0], key=K[:, 0], value=V[:, 0])
    ref_out, ref_w = _call()
    assert out.shape == (L, E) and weights.shape == (L, S)
    np.testing.assert_allclose(out, ref_out[:, 0], rtol=1e-5, atol=1e-6)


def test_dropout_only_in_training() -> None:
    mindjax.set_seed(0)
    _, kept = _call(dropout_p=0.5, training=False)
    _, dropped = _call(dropout_p=0.5, training=True, average_attn_weights=False)
    np.testing.assert_allclose(kept, _reference(Q, K, V)[1].mean(axis=1), rtol=1e-5, atol=1e-6)
    assert np.any(dropped == 0)


def test_grad_flows_to_projection_weights() -> None:
    def loss(w):
        out, _ = multi_head_attention_forward(mindjax.Tensor(Q), mindjax.Tensor(K), mindjax.Tensor(V), E, H, w,
                                              None, None, None, False, 0.0, mindjax.Tensor(W_OUT), None,
                                              training=False)
        return out.sum()
    g = mindjax.grad(loss)(mindjax.Tensor(W_IN))
    assert g.shape == (3 * E, E) and np.all(np.isfinite(g.asnumpy())) and np.abs(g.asnumpy()).sum() > 0


@pytest.mark.parametrize("kw,match", [
    ({"embed_dim_to_check": 6}, r"'embed_dim' should be 6, but got 8"),
    ({"num_heads": 3}, r"'embed_dim' 8 can not be divisible by 'num_heads' 3"),
    ({"attn_mask": np.ones((2, 2), bool)}, r"shape of the 'attn_mask' should be \(3, 4\), but got \(2, 2\)"),
    ({"attn_mask": np.ones((L, S), np.int32)}, r"'attn_mask' only supports float, byte, and bool"),
    ({"key_padding_mask": np.ones((N, 3), bool)}, r"'key_padding_mask' should be \(2, 4\), but got \(2, 3\)"),
    ({"key_padding_mask": np.ones((N, S), np.int32)}, r"'key_padding_mask' only supports bool and floating"),
    ({"query": Q[..., None]}, r"'query' should be unbatched 2D or batched 3D"),
    ({"key": K[:, 0]}, r"the 'key' and 'value' must be 3D"),
    ({"in_proj_weight": None}, r"'in_proj_weight' got None"),
    ({"in_proj_weight": W_IN[:E]}, r"'in_proj_weight' of shape \(24, 8\), but got \(8, 8\)"),
    ({"use_separate_proj_weight": True}, r"'q_proj_weight' got None"),
    ({"bias_k": np.zeros((1, 1, E), np.float32)}, r"'bias_k' and 'bias_v' should be None at the same time"),
    ({"static_k": np.zeros((3, S, 4), np.float32)}, r"'static_k' must be of shape \(4, src_len, 4\)"),
])
def test_bad_input_names_the_op_and_argument(kw: dict, match: str) -> None:
    with pytest.raises(ValueError, match="For 'multi_head_attention_forward'.*" + match):
        _call(**kw)
