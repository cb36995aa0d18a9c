"""ComputeAccidentalHits, CompareAndBitpack, RaggedRange, NoRepeatNGram, NonDeterministicInts and
ParameterizedTruncatedNormal: results and errors naming the op and argument."""
import numpy as np
import pytest

import mindjax
from mindjax import ops


def test_compute_accidental_hits_matches_mindspore_docstring_example():
    indices, ids, weights = ops.ComputeAccidentalHits(2)(np.array([[1, 2], [0, 4], [3, 3]], np.int64),
                                                         np.array([0, 1, 2, 3, 4], np.int64))
    assert indices.asnumpy().tolist() == [0, 0, 1, 1, 2, 2] and indices.dtype == mindjax.int32
    assert ids.asnumpy().tolist() == [1, 2, 0, 4, 3, 3] and ids.dtype == mindjax.int64
    assert (weights.asnumpy() == -np.finfo(np.float32).max).all()


def test_compute_accidental_hits_errors():
    with pytest.raises(ValueError, match=r"For 'ComputeAccidentalHits', 'true_classes' must have shape "
                                         r"\(batch_size, num_true=1\), but got \(3, 2\)"):
        ops.ComputeAccidentalHits()(np.ones((3, 2), np.int64), np.arange(4))
    with pytest.raises(TypeError, match="For 'ComputeAccidentalHits', 'sampled_candidates' must be an int32 or "
                                        "int64 tensor, but got float32"):
        ops.ComputeAccidentalHits()(np.ones((3, 1), np.int64), np.ones(4, np.float32))


def test_compare_and_bitpack_packs_most_significant_bit_first():
    out = ops.CompareAndBitpack()(np.arange(16, dtype=np.float32).reshape(1, 16), np.float32(3.0))
    assert out.dtype == mindjax.uint8 and out.asnumpy().tolist() == [[0b00001111, 0b11111111]]
    with pytest.raises(ValueError, match=r"For 'CompareAndBitpack', the last dimension of 'x' must be a multiple "
                                         r"of 8, but got shape \(6,\)"):
        ops.CompareAndBitpack()(np.ones(6, np.float32), np.float32(0))
    with pytest.raises(TypeError, match=r"For 'CompareAndBitpack', 'threshold' must have the dtype of 'x' "
                                        r"\(float32\), but got int32"):
        ops.CompareAndBitpack()(np.ones(8, np.float32), np.int32(0))


def test_ragged_range_errors():
    rr = ops.RaggedRange(mindjax.int64)
    with pytest.raises(ValueError, match=r"For 'RaggedRange', 'deltas' must not contain 0, but got \[1, 0\]"):
        rr(np.array([0, 0]), np.array([3, 3]), np.array([1, 0]))
    with pytest.raises(TypeError, match=r"For 'RaggedRange', 'limits' must have the dtype of 'starts' \(int32\)"):
        rr(np.array([0], np.int32), np.array([3.0], np.float32), np.array([1], np.int32))
    with pytest.raises(TypeError, match="For 'RaggedRange', 'Tsplits' must be int32 or int64"):
        ops.RaggedRange(mindjax.float32)
    with pytest.raises(TypeError, match="For 'RaggedRange', the output's length depends on the input values"):
        mindjax.jit(lambda s: rr(s, s + 2, s + 1))(np.array([0, 1], np.int32))


def test_no_repeat_ngram_bans_the_word_that_completes_a_seen_ngram():
    seq = np.array([[[1, 2, 3, 1, 2]]], np.int32)
    out = ops.NoRepeatNGram(3)(seq, np.zeros((1, 1, 5), np.float32)).asnumpy()
    assert (out[0, 0] == -np.finfo(np.float32).max).tolist() == [False, False, False, True, False]
    graph = mindjax.jit(lambda s, p: ops.NoRepeatNGram(3)(s, p))(seq, np.zeros((1, 1, 5), np.float32))
    np.testing.assert_array_equal(np.asarray(graph), out)
    with pytest.raises(ValueError, match=r"For 'NoRepeatNGram', 'ngram_size' \(6\) must be at most the sequence "
                                         r"length 5"):
        ops.NoRepeatNGram(6)(seq, np.zeros((1, 1, 5), np.float32))
    with pytest.raises(ValueError, match="For 'NoRepeatNGram', 'ngram_size' must be a positive int, but got 0"):
        ops.NoRepeatNGram(0)
    with pytest.raises(TypeError, match="For 'NoRepeatNGram', 'state_seq' must be an int tensor, but got float32"):
        ops.NoRepeatNGram(2)(seq.astype(np.float32), np.zeros((1, 1, 5), np.float32))


def test_non_deterministic_ints_cover_the_dtype_range():
    out = ops.NonDeterministicInts()(np.array([64, 8], np.int32))
    assert out.dtype == mindjax.int64 and out.shape == (64, 8)
    values = out.asnumpy()
    assert values.min() < -2 ** 40 and values.max() > 2 ** 40  # the whole int64 range, not int32's
    assert ops.NonDeterministicInts(mindjax.int32)(np.array([2, 3], np.int64)).dtype == mindjax.int32
    with pytest.raises(TypeError, match="For 'NonDeterministicInts', 'dtype' must be int32 or int64"):
        ops.NonDeterministicInts(mindjax.float32)
    with pytest.raises(ValueError, match="For 'NonDeterministicInts', 'shape' must be 1-D with at least 2 "
                                         "elements"):
        ops.NonDeterministicInts()(np.array([4], np.int32))


def test_parameterized_truncated_normal_stays_in_each_rows_bounds():
    out = ops.ParameterizedTruncatedNormal(seed=3)(np.array([2, 4000]), np.array([0., 5.], np.float32),
                                                   np.array([1., 2.], np.float32), np.array([-1., 4.], np.float32),
                                                   np.array([1., 9.], np.float32)).asnumpy()
    assert out.shape == (2, 4000) and out.dtype == np.float32
    assert out[0].min() >= -1 and out[0].max() <= 1 and abs(out[0].mean()) < 0.05
    assert out[1].min() >= 4 and out[1].max() <= 9
    with pytest.raises(ValueError, match=r"For 'ParameterizedTruncatedNormal', 'stdevs' must have shape \(\) or "
                                         r"\(2,\), but got \(3,\)"):
        ops.ParameterizedTruncatedNormal()(np.array([2, 3]), np.float32(0), np.ones(3, np.float32), np.float32(-1),
                                           np.float32(1))
    with pytest.raises(TypeError, match="For 'ParameterizedTruncatedNormal', 'max' must be a float tensor of the "
                                        r"dtype of 'mean' \(float32\), but got float64"):
        ops.ParameterizedTruncatedNormal()(np.array([2, 3]), np.float32(0), np.float32(1), np.float32(-1),
                                           np.float64(1))
