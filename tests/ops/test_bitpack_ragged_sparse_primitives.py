"""CompareAndBitpack, RaggedRange, SparseGatherV2 and SparseToDense."""
import jax
import jax.numpy as jnp
import numpy as np
import pytest

import mindjax as ms
from mindjax import ops


def test_compare_and_bitpack_packs_the_comparison_first_element_highest():
    out = ops.CompareAndBitpack()(ms.Tensor(np.arange(16, dtype=np.float32).reshape(2, 8)), ms.Tensor(5.0))
    assert out.dtype == ms.uint8 and out.shape == (2, 1)
    np.testing.assert_array_equal(out.asnumpy(), [[0b00000011], [0b11111111]])
    with pytest.raises(ValueError, match=r"For 'CompareAndBitpack', the last dimension of 'x' must be a multiple of 8, "
                                         r"but got shape \(6,\)"):
        ops.CompareAndBitpack()(ms.Tensor(np.arange(6, dtype=np.float32)), ms.Tensor(5.0))


def test_ragged_range_concatenates_the_ranges_with_their_splits():
    splits, values = ops.RaggedRange(Tsplits=ms.int64)(ms.Tensor(np.array([2, 5, 8], np.int32)),
                                                        ms.Tensor(np.array([3, 5, 12], np.int32)),
                                                        ms.Tensor(np.array([1, 1, 1], np.int32)))
    assert splits.dtype == ms.int64 and values.dtype == ms.int32
    np.testing.assert_array_equal(splits.asnumpy(), [0, 1, 1, 5])
    np.testing.assert_array_equal(values.asnumpy(), [2, 8, 9, 10, 11])
    splits, values = ops.RaggedRange(ms.int32)(ms.Tensor(np.array([0.0, 3.0], np.float32)),
                                                ms.Tensor(np.array([1.0, 0.0], np.float32)),
                                                ms.Tensor(np.array([0.5, -1.5], np.float32)))
    np.testing.assert_array_equal(values.asnumpy(), [0.0, 0.5, 3.0, 1.5])
    np.testing.assert_array_equal(splits.asnumpy(), [0, 2, 4])


def test_ragged_range_checks_its_inputs():
    with pytest.raises(TypeError, match=r"For 'RaggedRange', 'Tsplits' must be int32 or int64, but got"):
        ops.RaggedRange(ms.float32)
    with pytest.raises(ValueError, match=r"'deltas' must not contain 0"):
        ops.RaggedRange(ms.int64)(ms.Tensor(np.array([0])), ms.Tensor(np.array([3])), ms.Tensor(np.array([0])))
    with pytest.raises(TypeError, match=r"the output's length depends on the input values: call it eagerly"):
        jax.jit(lambda a: ops.RaggedRange(ms.int64)(a, a + 3, a + 1))(jnp.array([0]))


def test_sparse_gather_v2_gathers_as_gather():
    x = ms.Tensor(np.arange(12, dtype=np.float32).reshape(3, 4))
    np.testing.assert_array_equal(ops.SparseGatherV2()(x, ms.Tensor(np.array([2, 0], np.int32)), 1).asnumpy(),
                                  np.arange(12).reshape(3, 4)[:, [2, 0]])


def test_sparse_to_dense_places_values_and_checks_indices():
    out = ops.SparseToDense()(ms.Tensor(np.array([[0, 1], [1, 2]], np.int32)), ms.Tensor(np.array([1.0, 2.0],
                                                                                              np.float32)), (3, 4))
    want = np.zeros((3, 4), np.float32)
    want[0, 1], want[1, 2] = 1, 2
    np.testing.assert_array_equal(out.asnumpy(), want)
    with pytest.raises(IndexError, match=r"For 'SparseToDense', the value of 'indices\[:, 0\]' must be in \[0, 3\), "
                                         r"but got 3 \(at position \(1,\)\)"):
        ops.SparseToDense()(ms.Tensor(np.array([[0, 1], [3, 0]], np.int32)), ms.Tensor(np.ones(2, np.float32)), (3, 4))
    with pytest.raises(ValueError, match=r"'values' must have shape \(2,\) \(one value per row of 'indices'\), got \(3,\)"):
        ops.SparseToDense()(ms.Tensor(np.array([[0, 1], [1, 0]], np.int32)), ms.Tensor(np.ones(3, np.float32)), (3, 4))
    # A list shape works, as in MindSpore.
    assert ops.SparseToDense()(ms.Tensor(np.array([[0, 1]], np.int32)), ms.Tensor(np.ones(1, np.float32)),
                               [3, 4]).shape == (3, 4)
