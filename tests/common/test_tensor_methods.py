"""Tensor methods whose MindSpore 2.10 CPU build has no kernel (so the parity tests skip them),
pinned against numpy, and the errors of the methods written in ``_tensor_methods``."""
import numpy as np
import pytest

import mindjax as ms

X = np.array([[1.5, -2.0, 3.0], [0.5, 4.0, -1.0]], np.float32)


def test_kthvalue_gives_kth_smallest_and_its_int64_index():
    values, indices = ms.Tensor(X).kthvalue(2, 1)
    np.testing.assert_array_equal(values.asnumpy(), np.sort(X, 1)[:, 1])
    np.testing.assert_array_equal(indices.asnumpy(), np.argsort(X, 1)[:, 1])
    assert str(indices.dtype) == "Int64"


def test_roll_matches_numpy():
    np.testing.assert_array_equal(ms.Tensor(X).roll(1, 1).asnumpy(), np.roll(X, 1, 1))


def test_scatter_add_along_dim_adds_src_at_index():
    out = ms.Tensor(X).scatter_add(1, ms.Tensor(np.array([[0], [2]])), ms.Tensor(np.array([[9.0], [8.0]], np.float32)))
    want = X.copy()
    want[0, 0] += 9
    want[1, 2] += 8
    np.testing.assert_array_equal(out.asnumpy(), want)


def test_scatter_add_inplace_writes_the_tensor():
    t = ms.Tensor(X)
    assert t.scatter_add_(1, ms.Tensor(np.array([[1]])), ms.Tensor(np.array([[1.0]], np.float32))) is t
    assert t.asnumpy()[0, 1] == X[0, 1] + 1


def test_clone_is_an_independent_copy():
    t = ms.Tensor(X)
    c = t.clone()
    t[0, 0] = 100.0
    np.testing.assert_array_equal(c.asnumpy(), X)


def test_new_full_keeps_dtype_and_fills():
    out = ms.Tensor(X).new_full((2,), 3)
    assert str(out.dtype) == "Float32"
    np.testing.assert_array_equal(out.asnumpy(), [3.0, 3.0])


def test_quantile_matches_numpy_linear():
    np.testing.assert_allclose(ms.Tensor(X).quantile(0.25, 1).asnumpy(), np.quantile(X, 0.25, 1), rtol=1e-6)


def test_floor_divide_int_by_scalar_floors():
    x = np.array([7, -7, 3], np.int32)
    out = ms.Tensor(x).floor_divide(2)
    np.testing.assert_array_equal(out.asnumpy(), x // 2)
    assert str(out.dtype) == "Int32"


def test_triangular_solve_solves_upper_system():
    a = np.triu(np.array([[2.0, 1.0], [0.0, 4.0]], np.float32))
    b = np.array([[3.0], [8.0]], np.float32)
    sol, a_out = ms.Tensor(b).triangular_solve(ms.Tensor(a))
    np.testing.assert_allclose(a @ sol.asnumpy(), b, rtol=1e-6)
    np.testing.assert_array_equal(a_out.asnumpy(), a)


def test_put_and_zero_inplace():
    t = ms.Tensor(X)
    assert t.put_(ms.Tensor(np.array([0, 5])), ms.Tensor(np.array([9.0, 8.0], np.float32))) is t
    assert t.asnumpy().reshape(-1)[[0, 5]].tolist() == [9.0, 8.0]
    t.put_(ms.Tensor(np.array([0])), ms.Tensor(np.array([1.0], np.float32)), accumulate=True)
    assert t.asnumpy()[0, 0] == 10.0
    t.zero_()
    assert not t.asnumpy().any()


def test_fill_diagonal_wrap_restarts_in_tall_matrices():
    out = ms.Tensor(np.zeros((5, 2), np.float32)).fill_diagonal(1.0, True)
    want = np.zeros((5, 2), np.float32)
    np.fill_diagonal(want, 1.0, wrap=True)
    np.testing.assert_array_equal(out.asnumpy(), want)


def test_delegated_method_is_a_class_attribute_calling_the_op():
    assert hasattr(ms.Tensor, "flip")
    np.testing.assert_array_equal(ms.Tensor.flip(ms.Tensor(X), (0,)).asnumpy(), X[::-1])


def test_diag_rejects_nonzero_diagonal():
    with pytest.raises(ValueError, match="Tensor.diag.*'diagonal' should be '0', but got 1"):
        ms.Tensor(X).diag(1)


def test_fill_diagonal_rejects_1d_input():
    with pytest.raises(ValueError, match="Tensor.fill_diagonal_.*at least 2 dimensions, got 1"):
        ms.Tensor(X[0]).fill_diagonal(1.0)


def test_masked_scatter_rejects_short_source():
    with pytest.raises(ValueError, match="Tensor.masked_scatter.*'source' has 1 elements but the mask selects 3"):
        ms.Tensor(X[0]).masked_scatter(ms.Tensor(np.array([True, True, True])), ms.Tensor(np.ones(1, np.float32)))


def test_sum_to_size_rejects_more_dimensions():
    with pytest.raises(ValueError, match="Tensor.sum_to_size.*more dimensions than the input"):
        ms.Tensor(X[0]).sum_to_size(1, 1, 3)


def test_dlpack_round_trip_keeps_values_and_dtype():
    t = ms.Tensor(X)
    t.data_sync()
    back = ms.Tensor.from_dlpack(t.to_dlpack())
    assert str(back.dtype) == "Float32"
    np.testing.assert_array_equal(back.asnumpy(), X)
    np.testing.assert_array_equal(ms.Tensor.from_dlpack(np.arange(3.0)).asnumpy(), np.arange(3.0))
