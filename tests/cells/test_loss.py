"""Loss Cells: reductions, formulas, defaults, gradients and errors."""
import jax
import jax.numpy as jnp
import numpy as np
import pytest

import mindjax as ms
from mindjax import nn

_A = jnp.array([[1.0, -2.0, 0.5], [0.0, 3.0, -1.0]], jnp.float32)
_B = jnp.array([[0.5, -1.0, 0.5], [2.0, 0.0, -1.5]], jnp.float32)
_AN, _BN = np.asarray(_A, np.float64), np.asarray(_B, np.float64)


def _log_softmax(x, axis=-1):
    return x - np.log(np.exp(x).sum(axis, keepdims=True))


def test_loss_base_get_loss_applies_weights_then_the_reduction():
    w = jnp.array([[1.0, 0.0, 2.0]])
    expected = np.asarray(_A) * np.asarray(w)
    np.testing.assert_allclose(nn.LossBase("none").get_loss(_A, w), expected)
    np.testing.assert_allclose(nn.LossBase("sum").get_loss(_A, w), expected.sum(), rtol=1e-6)
    np.testing.assert_allclose(nn.LossBase().get_loss(_A), np.asarray(_A).mean(), rtol=1e-6)


def test_get_loss_keeps_the_input_dtype():
    assert nn.LossBase().get_loss(_A.astype(jnp.float16)).dtype == jnp.float16


@pytest.mark.parametrize("cls", [nn.LossBase, nn.MSELoss, nn.L1Loss, nn.HuberLoss, nn.BCELoss,
                                 nn.NLLLoss, nn.CrossEntropyLoss, nn.KLDivLoss,
                                 nn.CosineEmbeddingLoss])
def test_bad_reduction_raises_value_error_naming_the_argument(cls):
    with pytest.raises(ValueError, match=rf"For '{cls.__name__}', the 'reduction' must be in"):
        cls(reduction="average")


def test_mse_and_l1_reduce_mean_sum_none(mode):
    sq, ab = (_AN - _BN) ** 2, np.abs(_AN - _BN)
    np.testing.assert_allclose(nn.MSELoss()(_A, _B), sq.mean(), rtol=1e-6)
    np.testing.assert_allclose(nn.MSELoss("sum")(_A, _B), sq.sum(), rtol=1e-6)
    np.testing.assert_allclose(nn.L1Loss("none")(_A, _B), ab, rtol=1e-6)


def test_smooth_l1_defaults_to_no_reduction_and_switches_at_beta(mode):
    d = np.abs(_AN - _BN)
    out = nn.SmoothL1Loss(beta=0.5)(_A, _B)
    assert out.shape == _A.shape
    np.testing.assert_allclose(out, np.where(d < 0.5, 0.5 * d * d / 0.5, d - 0.25), rtol=1e-6)
    np.testing.assert_allclose(nn.SmoothL1Loss(beta=0.0, reduction="sum")(_A, _B), d.sum(), rtol=1e-6)


def test_huber_uses_delta(mode):
    d = np.abs(_AN - _BN)
    expected = np.where(d < 2.0, 0.5 * d * d, 2.0 * (d - 1.0)).mean()
    np.testing.assert_allclose(nn.HuberLoss(delta=2.0)(_A, _B), expected, rtol=1e-6)


def test_softmax_cross_entropy_dense_and_sparse_agree(mode):
    labels = jnp.array([2, 1], jnp.int32)
    one_hot = jax.nn.one_hot(labels, 3)
    dense = nn.SoftmaxCrossEntropyWithLogits()(_A, one_hot)
    sparse = nn.SoftmaxCrossEntropyWithLogits(sparse=True)(_A, labels)
    expected = -_log_softmax(_AN)[[0, 1], [2, 1]]
    np.testing.assert_allclose(dense, expected, rtol=1e-6)
    np.testing.assert_allclose(sparse, expected, rtol=1e-6)
    np.testing.assert_allclose(nn.SoftmaxCrossEntropyWithLogits(True, "mean")(_A, labels),
                               expected.mean(), rtol=1e-6)


def test_cross_entropy_with_indices_weights_ignore_index_and_smoothing(mode):
    labels = jnp.array([2, -100], jnp.int32)
    np.testing.assert_allclose(nn.CrossEntropyLoss()(_A, labels), -_log_softmax(_AN)[0, 2], rtol=1e-6)
    w = jnp.array([1.0, 2.0, 3.0], jnp.float32)
    weighted = nn.CrossEntropyLoss(weight=w)(_A, jnp.array([2, 1], jnp.int32))
    logp = _log_softmax(_AN)
    expected = -(3.0 * logp[0, 2] + 2.0 * logp[1, 1]) / 5.0
    np.testing.assert_allclose(weighted, expected, rtol=1e-6)
    smooth = nn.CrossEntropyLoss(label_smoothing=0.3)(_A, jnp.array([2, 1], jnp.int32))
    nll = -(logp[0, 2] + logp[1, 1]) / 2
    uniform = -logp.sum(1).mean()
    np.testing.assert_allclose(smooth, 0.7 * nll + 0.1 * uniform, rtol=1e-6)


def test_cross_entropy_with_probability_targets(mode):
    target = jax.nn.softmax(_B)
    expected = -(_log_softmax(_AN) * np.asarray(target)).sum(1)
    np.testing.assert_allclose(nn.CrossEntropyLoss(reduction="none")(_A, target), expected, rtol=1e-5)


def test_cross_entropy_rejects_mismatched_labels_naming_the_cell():
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.loss_fn = nn.CrossEntropyLoss()

        def construct(self, x, y):
            return self.loss_fn(x, y)

    with pytest.raises(ValueError, match=r"For 'CrossEntropyLoss' at 'loss_fn', class-index "
                                         r"'labels' must have shape \(2,\)"):
        Net()(_A, jnp.array([0, 1, 2], jnp.int32))
    with pytest.raises(ValueError, match="'label_smoothing'"):
        nn.CrossEntropyLoss(label_smoothing=1.5)
    with pytest.raises(TypeError, match="'ignore_index'"):
        nn.CrossEntropyLoss(ignore_index=1.0)


def test_nll_loss_picks_negative_log_probabilities():
    logp = jnp.asarray(_log_softmax(_AN), jnp.float32)
    out = nn.NLLLoss(reduction="none")(logp, jnp.array([0, 2], jnp.int32))
    np.testing.assert_allclose(out, -_log_softmax(_AN)[[0, 1], [0, 2]], rtol=1e-6)


def test_bce_and_bce_with_logits_agree_through_sigmoid(mode):
    y = jnp.array([[1.0, 0.0, 0.3], [0.0, 1.0, 0.5]])
    via_probs = nn.BCELoss()(jax.nn.sigmoid(_A), y)
    via_logits = nn.BCEWithLogitsLoss()(_A, y)
    np.testing.assert_allclose(via_probs, via_logits, rtol=1e-5)


def test_bce_with_logits_pos_weight_scales_positive_terms():
    y = jnp.ones_like(_A)
    plain = nn.BCEWithLogitsLoss(reduction="none")(_A, y)
    weighted = nn.BCEWithLogitsLoss(reduction="none", pos_weight=jnp.array([2.0, 1.0, 3.0]))(_A, y)
    np.testing.assert_allclose(weighted, plain * jnp.array([2.0, 1.0, 3.0]), rtol=1e-6)
    with pytest.raises(TypeError, match="'pos_weight' must be a Tensor"):
        nn.BCEWithLogitsLoss(pos_weight=[1.0, 2.0])


def test_bce_with_logits_is_stable_for_large_logits():
    big = jnp.array([100.0, -100.0])
    out = nn.BCEWithLogitsLoss(reduction="none")(big, jnp.array([1.0, 0.0]))
    assert np.all(np.isfinite(out)) and float(out.max()) < 1e-30


def test_kl_div_reductions_and_zero_labels():
    logp = jnp.asarray(_log_softmax(_AN), jnp.float32)
    labels = jnp.array([[0.0, 0.5, 0.5], [0.2, 0.8, 0.0]])
    lab = np.asarray(labels, np.float64)
    terms = np.where(lab > 0, lab * (np.log(np.where(lab > 0, lab, 1)) - _log_softmax(_AN)), 0)
    np.testing.assert_allclose(nn.KLDivLoss("none")(logp, labels), terms, rtol=1e-5, atol=1e-7)
    np.testing.assert_allclose(nn.KLDivLoss()(logp, labels), terms.sum() / 6, rtol=1e-5)
    np.testing.assert_allclose(nn.KLDivLoss("batchmean")(logp, labels), terms.sum() / 2, rtol=1e-5)


def test_cosine_embedding_loss_uses_label_sign_and_margin():
    labels = jnp.array([1, -1])
    cos = (_AN * _BN).sum(1) / np.linalg.norm(_AN, axis=1) / np.linalg.norm(_BN, axis=1)
    expected = np.array([1 - cos[0], max(cos[1] - 0.1, 0.0)])
    np.testing.assert_allclose(nn.CosineEmbeddingLoss(0.1, "none")(_A, _B, labels), expected,
                               rtol=1e-5, atol=1e-7)
    with pytest.raises(ValueError, match="'margin'"):
        nn.CosineEmbeddingLoss(margin=2.0)


def test_loss_gradient_matches_the_analytic_softmax_gradient():
    labels = jnp.array([2, 1], jnp.int32)
    grad = jax.grad(lambda x: nn.CrossEntropyLoss()(x, labels))(_A)
    expected = (np.exp(_log_softmax(_AN)) - np.eye(3)[[2, 1]]) / 2
    np.testing.assert_allclose(grad, expected, rtol=1e-5, atol=1e-7)


def test_loss_accepts_parameters_as_inputs():
    p = nn.Parameter(_A, name="p")
    np.testing.assert_allclose(nn.MSELoss()(p, _B), nn.MSELoss()(_A, _B))


def test_focal_loss_with_fewer_label_rows_uses_the_leading_logit_rows():
    # MindSpore gathers with GatherD, whose output takes the index's shape.
    logits = np.array([[0.8, 1.4], [0.5, 0.9], [1.2, 0.9]], np.float32)
    loss = nn.FocalLoss(gamma=2.0)(ms.Tensor(logits), ms.Tensor(np.array([[1]], np.int32)))
    p = np.exp(logits[0, 1]) / np.exp(logits[0]).sum()
    assert float(loss) == pytest.approx(-(1 - p) ** 2 * np.log(p), rel=1e-5)
