"""RNNTLoss against a brute-force sum over all alignments, its gradient, lengths shorter than the padding,
and errors."""
import itertools

import numpy as np
import pytest

import mindjax
from mindjax import ops

RNG = np.random.default_rng(9)


def _log_softmax(x):
    x = x - x.max(-1, keepdims=True)
    return x - np.log(np.exp(x).sum(-1, keepdims=True))


def _brute_force(acts, labels, t_len, u_len, blank):
    """-log sum over every path of T blanks and U labels through the (t, u) lattice."""
    lp = _log_softmax(acts.astype(np.float64))
    total = []
    for emits_at in itertools.combinations_with_replacement(range(t_len), u_len):
        # emits_at[k]: the frame where label k is emitted; a blank leaves each frame
        score, u = 0.0, 0
        for t in range(t_len):
            while u < u_len and emits_at[u] == t:
                score += lp[t, u, labels[u]]
                u += 1
            score += lp[t, u, blank]
        total.append(score)
    return -np.logaddexp.reduce(total)


def test_rnnt_loss_matches_the_sum_over_alignments_with_padding():
    acts = RNG.standard_normal((2, 4, 3, 5)).astype(np.float32)
    labels = np.array([[1, 3], [2, 0]], np.int32)
    t_len, u_len = np.array([4, 3], np.int32), np.array([2, 1], np.int32)
    costs, grads = ops.RNNTLoss(blank_label=0)(acts, labels, t_len, u_len)
    for i in range(2):
        assert costs.asnumpy()[i] == pytest.approx(_brute_force(acts[i], labels[i], t_len[i], u_len[i], 0), rel=1e-5)
    assert grads.shape == acts.shape and grads.dtype == mindjax.float32
    # The gradient of each cost: finite differences on one logit.
    eps = 1e-2
    bumped = acts.copy()
    bumped[0, 1, 1, 3] += eps
    numeric = (_brute_force(bumped[0], labels[0], 4, 2, 0) - _brute_force(acts[0], labels[0], 4, 2, 0)) / eps
    assert grads.asnumpy()[0, 1, 1, 3] == pytest.approx(numeric, rel=2e-2, abs=1e-3)
    # Padding past the lengths gets no gradient.
    assert np.abs(grads.asnumpy()[1, 3]).max() == 0


def test_rnnt_loss_with_a_non_zero_blank():
    acts = RNG.standard_normal((1, 3, 2, 4)).astype(np.float32)
    costs, _ = ops.RNNTLoss(3)(acts, np.array([[1]], np.int32), np.array([3], np.int32), np.array([1], np.int32))
    assert costs.asnumpy()[0] == pytest.approx(_brute_force(acts[0], [1], 3, 1, 3), rel=1e-5)


def test_rnnt_loss_errors_name_the_op_and_argument():
    acts = np.zeros((1, 3, 2, 4), np.float32)
    one = np.array([1], np.int32)
    with pytest.raises(ValueError, match=r"For 'RNNTLoss', 'labels' must have shape \(B, U - 1\) = \(1, 1\), but "
                                         r"got \(1, 2\)"):
        ops.RNNTLoss()(acts, np.ones((1, 2), np.int32), one, one)
    with pytest.raises(TypeError, match="For 'RNNTLoss', 'input_lengths' must be an int32 tensor, but got int64"):
        ops.RNNTLoss()(acts, np.ones((1, 1), np.int32), one.astype(np.int64), one)
    with pytest.raises(ValueError, match=r"For 'RNNTLoss', 'blank_label' must be in \[0, 4\), but got 4"):
        ops.RNNTLoss(4)(acts, np.ones((1, 1), np.int32), one, one)
