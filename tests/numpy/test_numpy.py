"""mindjax.numpy: MindSpore's signatures and default dtypes over jax.numpy."""
import numpy as np
import pytest

import mindjax as ms
import mindjax.numpy as mnp


def test_creation_defaults_are_float32_and_int32():
    assert mnp.zeros((2,)).dtype == np.float32 and mnp.ones((2,)).dtype == np.float32
    assert mnp.eye(2).dtype == np.float32 and mnp.identity(2).dtype == np.float32
    assert mnp.arange(5).dtype == np.int32 and mnp.arange(0, 3, 0.5).dtype == np.float32
    assert mnp.array([1, 2]).dtype == np.int32 and mnp.array([1.0, 2]).dtype == np.float32
    assert mnp.full((2,), 3).dtype == np.int32 and mnp.full((2,), 3.0).dtype == np.float32
    assert mnp.linspace(0, 1, 3).dtype == np.float32


def test_mindspore_argument_order():
    x = mnp.ones((2, 3))
    assert mnp.mean(x, 1, True).shape == (2, 1)  # (a, axis, keepdims, dtype)
    assert mnp.amax(mnp.array([[1, 5], [7, 2]]), 0, True).shape == (1, 2)
    assert float(mnp.std(mnp.array([1.0, 2, 3, 4]), None, 1)) == pytest.approx(np.std([1, 2, 3, 4], ddof=1))
    np.testing.assert_array_equal(np.asarray(mnp.clip(mnp.array([1, 5]), 2, 3)), [2, 3])
    assert mnp.reshape(mnp.arange(6), (2, 3)).shape == (2, 3)
    assert mnp.add(mnp.array([1]), 1, dtype=ms.float16).dtype == np.float16


def test_common_functions_match_numpy():
    a = np.arange(6).reshape(2, 3).astype(np.float32)
    np.testing.assert_array_equal(np.asarray(mnp.roll(a, 1, 1)), np.roll(a, 1, 1))
    np.testing.assert_array_equal(np.asarray(mnp.tile(a, (2, 1))), np.tile(a, (2, 1)))
    np.testing.assert_array_equal(np.asarray(mnp.concatenate((a, a), 1)), np.concatenate((a, a), 1))
    np.testing.assert_array_equal(np.asarray(mnp.stack((a, a))), np.stack((a, a)))
    np.testing.assert_array_equal(np.asarray(mnp.where(a > 2, a, 0)), np.where(a > 2, a, 0))
    np.testing.assert_allclose(np.asarray(mnp.norm(mnp.array([3.0, 4.0]))), 5.0)
    np.testing.assert_array_equal(np.asarray(mnp.in1d(mnp.array([1, 2]), mnp.array([2]))), [False, True])
    np.testing.assert_allclose(np.asarray(mnp.trapz(mnp.array([1.0, 2, 3]))), 4.0)
    np.testing.assert_array_equal(np.asarray(mnp.fix(mnp.array([-1.5, 1.5]))), [-1.0, 1.0])


def test_accepts_parameters_and_tensors():
    p = ms.Parameter(ms.Tensor([1.0, 2.0]), name="p")
    assert float(mnp.sum(p)) == 3.0
    assert mnp.concatenate((p, ms.Tensor([3.0]))).shape == (3,)


def test_random_functions_follow_set_seed():
    ms.set_seed(3)
    a = np.asarray(mnp.randn(3))
    ms.set_seed(3)
    np.testing.assert_array_equal(a, np.asarray(mnp.randn(3)))
    assert mnp.rand(2, 2).shape == (2, 2) and mnp.randint(0, 5, (4,)).dtype == np.int32


def test_bad_call_names_the_function_and_signature():
    with pytest.raises(TypeError, match=r"mindjax.numpy.mean.*mean\(a, axis=None, keepdims=False, dtype=None\)"):
        mnp.mean()
