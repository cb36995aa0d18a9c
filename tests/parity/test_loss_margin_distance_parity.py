"""``MultilabelMarginLoss`` and ``TripletMarginWithDistanceLoss`` (MindSpore 2.10's nn losses).

TripletMarginWithDistanceLoss runs on MindSpore's CPU and is compared with it; MultilabelMarginLoss
has no CPU kernel in 2.10 and is pinned against its definition in numpy.
"""
import jax.numpy as jnp
import mindspore
import mindspore.nn as msnn
import numpy as np
import pytest

from mindjax import nn

_RNG = np.random.default_rng(13)
_A, _P, _N = (_RNG.standard_normal((5, 4)).astype(np.float32) for _ in range(3))


def _ms(cell, *xs):
    for attempt in range(2):
        try:
            return cell(*[mindspore.Tensor(x) for x in xs]).asnumpy()
        except (SystemError, ImportError):
            if attempt:
                raise
    raise AssertionError("unreachable")


@pytest.mark.parametrize("kwargs", [{}, {"swap": True}, {"reduction": "none"}, {"reduction": "sum", "margin": 0.5}])
def test_triplet_margin_with_distance_loss_matches_mindspore(kwargs):
    theirs = _ms(msnn.TripletMarginWithDistanceLoss(**kwargs), _A, _P, _N)
    ours = nn.TripletMarginWithDistanceLoss(**kwargs)(jnp.asarray(_A), jnp.asarray(_P), jnp.asarray(_N))
    np.testing.assert_allclose(np.asarray(ours), theirs, rtol=1e-5, atol=1e-6)


def test_triplet_margin_with_distance_loss_custom_distance():
    def l1(x, y):
        return (x - y).abs().sum(-1) if hasattr(x, "abs") else jnp.abs(x - y).sum(-1)
    ours = nn.TripletMarginWithDistanceLoss(distance_function=l1, reduction="none")(
        jnp.asarray(_A), jnp.asarray(_P), jnp.asarray(_N))
    want = np.maximum(np.abs(_A - _P).sum(-1) - np.abs(_A - _N).sum(-1) + 1.0, 0)
    np.testing.assert_allclose(np.asarray(ours), want, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("make,pattern", [
    (lambda m: m.TripletMarginWithDistanceLoss(margin=1), "margin"),
    (lambda m: m.TripletMarginWithDistanceLoss(swap=1), "swap"),
    (lambda m: m.TripletMarginWithDistanceLoss(reduction="avg"), "reduction"),
    (lambda m: m.MultilabelMarginLoss(reduction="avg"), "reduction"),
])
def test_loss_bad_argument_raises_mindspores_error_type(make, pattern):
    with pytest.raises(Exception) as theirs:
        make(msnn)
    with pytest.raises(type(theirs.value), match=pattern):
        make(nn)


def _multilabel_margin_numpy(x, target):
    out = []
    for row, tgt in zip(x, target):
        labels = []
        for t in tgt:
            if t < 0:
                break
            labels.append(t)
        others = [j for j in range(len(row)) if j not in labels]
        out.append(sum(max(0.0, 1 - (row[t] - row[j])) for t in labels for j in others) / len(row))
    return np.array(out, np.float32)


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_multilabel_margin_loss_numbers(reduction):
    x = _RNG.standard_normal((3, 4)).astype(np.float32)
    t = np.array([[3, 0, -1, 1], [0, 1, 2, 3], [-1, 0, 0, 0]], np.int32)
    want = _multilabel_margin_numpy(x, t)
    want = {"mean": want.mean(), "sum": want.sum(), "none": want}[reduction]
    ours = nn.MultilabelMarginLoss(reduction)(jnp.asarray(x), jnp.asarray(t))
    np.testing.assert_allclose(np.asarray(ours), want, rtol=1e-5, atol=1e-6)
