"""Candidate samplers and choice_with_mask: support, uniqueness, TensorFlow's expected counts, seeds, errors."""
import numpy as np
import pytest

import mindjax
from mindjax import ops

TRUE = np.array([[1], [3], [4], [6], [3]], np.int64)


def test_uniform_sampler_without_unique_counts_p_times_num_sampled():
    cand, true_count, cand_count = ops.uniform_candidate_sampler(TRUE, 1, 3, False, 4, 1)
    assert cand.shape == (3,) and cand.dtype == mindjax.int64
    assert set(cand.asnumpy().tolist()) <= {0, 1, 2, 3}
    np.testing.assert_allclose(true_count.asnumpy(), np.full((5, 1), 0.75))
    np.testing.assert_allclose(cand_count.asnumpy(), np.full(3, 0.75))


def test_uniform_sampler_unique_and_removing_accidental_hits():
    for seed in range(1, 6):
        cand, true_count, cand_count = ops.UniformCandidateSampler(1, 3, True, 8, seed, True)(TRUE)
        values = cand.asnumpy().tolist()
        assert len(set(values)) == 3 and not set(values) & {1, 3, 4, 6}
        # TensorFlow's rule: p * num_sampled when no draw was rejected, else 1 - (1 - p) ** num_tries.
        count = true_count.asnumpy()[0, 0]
        tries = np.log1p(-count) / np.log1p(-1 / 8)
        assert count == pytest.approx(3 / 8) or (tries == pytest.approx(round(tries), abs=1e-3) and tries > 3)
        np.testing.assert_allclose(cand_count.asnumpy(), np.full(3, true_count.asnumpy()[0, 0]))


def test_log_uniform_sampler_expected_counts_follow_one_number_of_tries():
    true = np.array([[1, 7], [0, 4], [3, 3]], np.int64)
    cand, true_count, cand_count = ops.LogUniformCandidateSampler(2, 5, True, 5, 1)(true)
    assert sorted(cand.asnumpy().tolist()) == [0, 1, 2, 3, 4]
    p = lambda k: np.log((k + 2.0) / (k + 1.0)) / np.log(6.0)  # noqa: E731
    tries = np.log1p(-cand_count.asnumpy()[0]) / np.log1p(-p(cand.asnumpy()[0]))
    np.testing.assert_allclose(true_count.asnumpy(), -np.expm1(round(tries) * np.log1p(-p(true.astype(float)))),
                               rtol=1e-5)


def test_log_uniform_sampler_prefers_small_classes():
    cand = np.concatenate([ops.log_uniform_candidate_sampler(TRUE, 1, 50, False, 100, s)[0].asnumpy()
                           for s in range(1, 21)])
    assert (cand < 10).mean() > 0.35 and (cand >= 50).mean() < 0.25  # P(k < 10) = log 11 / log 101 ~ 0.52


def test_samplers_are_reproducible_with_a_seed():
    a = ops.uniform_candidate_sampler(TRUE, 1, 4, True, 10, 7)[0].asnumpy()
    b = ops.uniform_candidate_sampler(TRUE, 1, 4, True, 10, 7)[0].asnumpy()
    mindjax.set_seed(3)
    c = ops.uniform_candidate_sampler(TRUE, 1, 4, True, 10, 7)[0].asnumpy()
    mindjax.set_seed(3)
    d = ops.uniform_candidate_sampler(TRUE, 1, 4, True, 10, 7)[0].asnumpy()
    assert a.shape == b.shape == (4,) and (c == d).all()


def test_sampler_errors_name_the_op_and_argument():
    with pytest.raises(ValueError, match=r"For 'UniformCandidateSampler', 'num_sampled' \(5\) must be at most "
                                         r"'range_max' \(3\) when 'unique' is True"):
        ops.UniformCandidateSampler(1, 5, True, 3)
    with pytest.raises(TypeError, match="For 'LogUniformCandidateSampler', 'unique' must be a bool"):
        ops.LogUniformCandidateSampler(unique=1)
    with pytest.raises(ValueError, match="For 'LogUniformCandidateSampler', 'seed' must be at least 0, got -1"):
        ops.LogUniformCandidateSampler(seed=-1)
    with pytest.raises(ValueError, match=r"For 'uniform_candidate_sampler', 'true_classes' must have shape "
                                         r"\(batch_size, num_true=1\), got \(2, 2\)"):
        ops.uniform_candidate_sampler(np.ones((2, 2), np.int64), 1, 2, True, 3)
    with pytest.raises(TypeError, match="For 'log_uniform_candidate_sampler', 'true_classes' must be a int64"):
        ops.log_uniform_candidate_sampler(np.ones((2, 1), np.float32))


def test_choice_with_mask_picks_true_coordinates_and_pads():
    x = np.array([[0, 1, 1], [1, 0, 1]], bool)
    index, mask = ops.choice_with_mask(x, 6, seed=2)
    assert index.shape == (6, 2) and index.dtype == mindjax.int32 and mask.dtype == mindjax.bool_
    assert mask.asnumpy().tolist() == [True] * 4 + [False] * 2
    chosen = {tuple(r) for r in index.asnumpy()[:4].tolist()}
    assert chosen == {(0, 1), (0, 2), (1, 0), (1, 2)} and index.asnumpy()[4:].tolist() == [[0, 0], [0, 0]]
    index, mask = ops.RandomChoiceWithMask(2, 1, 2)(x)
    assert mask.asnumpy().all() and all(x[tuple(r)] for r in index.asnumpy().tolist())


def test_choice_with_mask_rejects_non_bool_input():
    with pytest.raises(TypeError, match="For 'RandomChoiceWithMask', 'input_x' must be a bool tensor, got float32"):
        ops.RandomChoiceWithMask()(np.ones(3, np.float32))
    with pytest.raises(ValueError, match="For 'RandomChoiceWithMask', 'count' must be a positive int, but got 0"):
        ops.RandomChoiceWithMask(0)
    with pytest.raises(ValueError, match="For 'choice_with_mask', 'input_x' must have 1 to 5 dimensions"):
        ops.choice_with_mask(np.ones((1,) * 6, bool))
