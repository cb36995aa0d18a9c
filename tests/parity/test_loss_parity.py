"""Losses against the real MindSpore 2.10: values and input gradients within 1e-5."""
import inspect

import jax
import jax.numpy as jnp
import mindspore
import mindspore.nn as msnn
import numpy as np
import pytest

from mindjax import nn
from tests.parity.nets_basic_ms import GetLoss, ms_forward, ms_input_grad

_RNG = np.random.default_rng(3)
_A = _RNG.standard_normal((4, 5)).astype(np.float32)
_B = _RNG.standard_normal((4, 5)).astype(np.float32)
_PROBS = _RNG.uniform(0.05, 0.95, (4, 5)).astype(np.float32)
_TARGET01 = _RNG.uniform(0.0, 1.0, (4, 5)).astype(np.float32)
_SOFT = np.exp(_B) / np.exp(_B).sum(1, keepdims=True)
_IDX = np.array([0, 3, 4, 1], np.int32)
_IDX_IGNORED = np.array([0, -100, 4, 1], np.int32)
_LOGITS4 = _RNG.standard_normal((2, 3, 2, 2)).astype(np.float32)
_IDX4 = _RNG.integers(0, 3, (2, 2, 2)).astype(np.int32)
_LOGITS3 = _RNG.standard_normal((2, 3, 4)).astype(np.float32)
_IDX3 = _RNG.integers(0, 3, (2, 4)).astype(np.int32)
_LOGP = np.log(np.exp(_A) / np.exp(_A).sum(1, keepdims=True)).astype(np.float32)
_W5 = np.array([0.5, 1.0, 2.0, 1.5, 0.2], np.float32)
_W3 = np.array([0.3, 1.0, 2.0], np.float32)
_COS_LABELS = np.array([1, -1, 1, -1], np.int32)


def _both(name, **kwargs):
    """(theirs, ours); Tensor keyword arguments are given to each as its own array type."""
    theirs_kw = {k: mindspore.Tensor(v) if isinstance(v, np.ndarray) else v for k, v in kwargs.items()}
    ours_kw = {k: jnp.asarray(v) if isinstance(v, np.ndarray) else v for k, v in kwargs.items()}
    return getattr(msnn, name)(**theirs_kw), getattr(nn, name)(**ours_kw)


CASES = [
    ("MSELoss", {}, (_A, _B)),
    ("MSELoss", {"reduction": "none"}, (_A, _B)),
    ("L1Loss", {"reduction": "sum"}, (_A, _B)),
    ("L1Loss", {}, (_A, _B)),
    ("SmoothL1Loss", {}, (_A, _B)),
    ("SmoothL1Loss", {"beta": 0.5, "reduction": "mean"}, (_A, _B)),
    ("HuberLoss", {}, (_A, _B)),
    ("HuberLoss", {"delta": 0.5, "reduction": "none"}, (_A, _B)),
    ("SoftmaxCrossEntropyWithLogits", {}, (_A, _SOFT)),
    ("SoftmaxCrossEntropyWithLogits", {"reduction": "mean"}, (_A, _SOFT)),
    ("SoftmaxCrossEntropyWithLogits", {"sparse": True, "reduction": "mean"}, (_A, _IDX)),
    ("SoftmaxCrossEntropyWithLogits", {"sparse": True}, (_A, _IDX)),
    ("SoftmaxCrossEntropyWithLogits", {"sparse": True, "reduction": "sum"}, (_A, _IDX)),
    ("CrossEntropyLoss", {}, (_A, _IDX)),
    ("CrossEntropyLoss", {"reduction": "none"}, (_A, _IDX_IGNORED)),
    ("CrossEntropyLoss", {"weight": _W5, "label_smoothing": 0.1}, (_A, _IDX_IGNORED)),
    ("CrossEntropyLoss", {"weight": _W5, "reduction": "sum"}, (_A, _IDX)),
    ("CrossEntropyLoss", {}, (_A, _SOFT)),
    ("CrossEntropyLoss", {"weight": _W5, "label_smoothing": 0.2, "reduction": "none"}, (_A, _SOFT)),
    ("CrossEntropyLoss", {"label_smoothing": 0.1}, (_LOGITS4, _IDX4)),
    ("CrossEntropyLoss", {"weight": _W3, "reduction": "none"}, (_LOGITS3, _IDX3)),
    ("NLLLoss", {}, (_LOGP, _IDX)),
    ("NLLLoss", {"weight": _W5, "ignore_index": 4}, (_LOGP, _IDX)),
    ("NLLLoss", {"reduction": "none"}, (_LOGP, _IDX_IGNORED)),
    ("BCELoss", {}, (_PROBS, _TARGET01)),
    # MindSpore's BCE gradient kernel reads garbage when 'weight' needs broadcasting (its
    # documentation asks for the logits' shape), so the weight here is full-shaped.
    ("BCELoss", {"weight": np.abs(_B), "reduction": "none"}, (_PROBS, _TARGET01)),
    ("BCEWithLogitsLoss", {}, (_A, _TARGET01)),
    ("BCEWithLogitsLoss", {"weight": _W5, "pos_weight": _W5[::-1].copy(), "reduction": "sum"},
     (_A, _TARGET01)),
    ("BCEWithLogitsLoss", {"pos_weight": _W5, "reduction": "none"}, (_A, _TARGET01)),
    ("KLDivLoss", {}, (_LOGP, _SOFT)),
    ("KLDivLoss", {"reduction": "batchmean"}, (_LOGP, _SOFT)),
    ("KLDivLoss", {"reduction": "none"}, (_LOGP, np.where(_SOFT > 0.3, 0.0, _SOFT).astype(np.float32))),
    ("CosineEmbeddingLoss", {}, (_A, _B, _COS_LABELS)),
    ("CosineEmbeddingLoss", {"margin": 0.2, "reduction": "none"}, (_A, _B, _COS_LABELS)),
]


def _case_id(case):
    name, kwargs, _ = case
    return name + "-" + ",".join(f"{k}" if isinstance(v, np.ndarray) else f"{k}={v}"
                                 for k, v in kwargs.items())


@pytest.mark.parametrize("case", CASES, ids=[_case_id(c) for c in CASES])
def test_loss_value_and_input_gradient_match_mindspore(case):
    name, kwargs, inputs = case
    theirs, ours = _both(name, **kwargs)
    arrays = [jnp.asarray(x) for x in inputs]
    np.testing.assert_allclose(np.asarray(ours(*arrays)), ms_forward(theirs, *inputs),
                               rtol=1e-5, atol=1e-5)

    def total(first):
        return jnp.sum(ours(first, *arrays[1:]))

    ours_grad = np.asarray(jax.grad(total)(arrays[0]))
    np.testing.assert_allclose(ours_grad, ms_input_grad(theirs, *inputs), rtol=1e-5, atol=1e-5)


def test_loss_get_loss_weights_and_reductions_match_mindspore():
    x = _A
    w = np.abs(_B)
    for reduction in ("mean", "sum", "none"):
        theirs = ms_forward(GetLoss(reduction), x, w)
        ours = nn.LossBase(reduction).get_loss(jnp.asarray(x), jnp.asarray(w))
        np.testing.assert_allclose(np.asarray(ours), theirs, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("name", ["LossBase", "L1Loss", "MSELoss", "SmoothL1Loss", "HuberLoss",
                                  "SoftmaxCrossEntropyWithLogits", "CrossEntropyLoss", "NLLLoss",
                                  "BCELoss", "BCEWithLogitsLoss", "KLDivLoss",
                                  "CosineEmbeddingLoss"])
def test_loss_constructor_arguments_and_defaults_match_mindspore(name):
    def spec(cls):
        return [(p.name, p.default) for p in list(inspect.signature(cls.__init__).parameters.values())[1:]]

    assert spec(getattr(nn, name)) == spec(getattr(msnn, name))
