"""multi_head_attention_forward (mindspore.ops.function.nn_func) against MindSpore 2.10's, mask by mask."""
from __future__ import annotations

import importlib
from typing import Any

import mindspore
import numpy as np
import pytest

import mindjax

L, S, N, E, H = 3, 4, 2, 8, 2
RNG = np.random.default_rng(0)
ARRAYS = {
    "q": RNG.normal(size=(L, N, E)), "k": RNG.normal(size=(S, N, E)), "v": RNG.normal(size=(S, N, E)),
    "w": RNG.normal(size=(3 * E, E)) * 0.3, "b": RNG.normal(size=(3 * E,)) * 0.1,
    "ow": RNG.normal(size=(E, E)) * 0.3, "ob": RNG.normal(size=(E,)) * 0.1,
    "bk": RNG.normal(size=(1, 1, E)), "bv": RNG.normal(size=(1, 1, E)),
    "amf": RNG.normal(size=(L, S)), "sk": RNG.normal(size=(N * H, 5, E // H)), "sv": RNG.normal(size=(N * H, 5, E // H)),
}
KPM = np.array([[False, False, True, False], [False, True, False, False]])
CAUSAL = np.triu(np.ones((L, S), bool), 1)

CASES = {
    "plain": {}, "key_padding_mask": {"key_padding_mask": KPM}, "bool_attn_mask": {"attn_mask": CAUSAL},
    "float_attn_mask": {"attn_mask": "amf"}, "uint8_attn_mask": {"attn_mask": CAUSAL.astype(np.uint8)},
    "3d_attn_mask": {"attn_mask": np.tile(CAUSAL[None], (N * H, 1, 1))},
    "both_bool_masks": {"attn_mask": CAUSAL, "key_padding_mask": KPM},
    "bias_kv": {"bias_k": "bk", "bias_v": "bv", "key_padding_mask": KPM},
    "zero_attn": {"add_zero_attn": True, "attn_mask": CAUSAL}, "per_head": {"average_attn_weights": False},
    "unbatched": {"query": ("q", 0), "key": ("k", 0), "value": ("v", 0), "key_padding_mask": KPM[0]},
    "separate_weights": {"use_separate_proj_weight": True, "q_proj_weight": ("w", slice(0, E)),
                         "k_proj_weight": ("w", slice(E, 2 * E)), "v_proj_weight": ("w", slice(2 * E, 3 * E))},
    "no_biases": {"in_proj_bias": None, "out_proj_bias": None}, "static_kv": {"static_k": "sk", "static_v": "sv"},
}


def _tensor(ms: Any, value: Any) -> Any:
    if isinstance(value, str):
        return ms.Tensor(ARRAYS[value].astype(np.float32))
    if isinstance(value, tuple):
        name, index = value
        data = ARRAYS[name][:, index] if name in "qkv" else ARRAYS[name][index]
        return ms.Tensor(np.ascontiguousarray(data).astype(np.float32))
    if isinstance(value, np.ndarray):
        return ms.Tensor(value)
    return value


def _run(ms: Any, case: dict) -> list[np.ndarray]:
    nn_func = importlib.import_module(ms.__name__ + ".ops.function.nn_func")
    kw = dict(query="q", key="k", value="v", embed_dim_to_check=E, num_heads=H, in_proj_weight="w",
              in_proj_bias="b", bias_k=None, bias_v=None, add_zero_attn=False, dropout_p=0.0, out_proj_weight="ow",
              out_proj_bias="ob", training=False)
    kw.update(case)
    out, weights = nn_func.multi_head_attention_forward(**{k: _tensor(ms, v) for k, v in kw.items()})
    return [out.asnumpy(), weights.asnumpy()]


@pytest.mark.parametrize("name", list(CASES))
def test_multi_head_attention_forward_matches_mindspore(name: str) -> None:
    expected, got = _run(mindspore, CASES[name]), _run(mindjax, CASES[name])
    for e, g in zip(expected, got):
        assert g.shape == e.shape and g.dtype == e.dtype
        np.testing.assert_allclose(g, e, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("kw", [{"embed_dim_to_check": 6}, {"num_heads": 3}, {"attn_mask": np.ones((2, 2), bool)}])
def test_bad_shapes_raise_value_error_like_mindspore(kw: dict) -> None:
    with pytest.raises(ValueError):
        _run(mindspore, kw)
    with pytest.raises(ValueError, match="multi_head_attention_forward"):
        _run(mindjax, kw)
