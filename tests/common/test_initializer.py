"""Initializers: MindSpore's names, defaults, fan rules and errors."""
import math

import numpy as np
import pytest

import mindjax as ms
from mindjax.common.initializer import (Constant, HeNormal, HeUniform, Normal, One, Orthogonal,
                                        TruncatedNormal, Uniform, XavierNormal, XavierUniform, Zero,
                                        initializer)


def test_string_names_build_the_matching_initializer():
    assert float(initializer("zeros", (3,)).sum()) == 0
    assert float(initializer("ones", (3,)).sum()) == 3
    assert initializer("normal", (8, 8)).shape == (8, 8)
    for name in ("xavier_uniform", "xavier_normal", "he_uniform", "he_normal", "truncatedNormal",
                 "uniform"):
        assert initializer(name, (4, 5)).shape == (4, 5)


def test_defaults_match_mindspore():
    ms.set_seed(1)
    normal = np.asarray(initializer(Normal(), (200, 200)))
    assert abs(normal.std() - 0.01) < 5e-4
    uniform = np.asarray(initializer(Uniform(), (200, 200)))
    assert uniform.max() <= 0.07 and uniform.min() >= -0.07 and uniform.max() > 0.069


def test_xavier_uniform_bound_uses_fan_in_plus_fan_out():
    w = np.asarray(initializer(XavierUniform(), (30, 20, 3, 3)))
    bound = math.sqrt(6.0 / (20 * 9 + 30 * 9))
    assert w.max() <= bound and w.max() > 0.95 * bound


def test_he_uniform_defaults_to_leaky_relu_gain_with_zero_slope_on_fan_in():
    w = np.asarray(initializer(HeUniform(), (64, 100)))
    bound = math.sqrt(2.0) * math.sqrt(3.0 / 100)
    assert w.max() <= bound and w.max() > 0.95 * bound
    w5 = np.asarray(initializer(HeUniform(negative_slope=math.sqrt(5)), (64, 100)))
    assert w5.max() <= 1 / math.sqrt(100) + 1e-7


def test_normal_family_spreads():
    ms.set_seed(0)
    assert abs(float(initializer(XavierNormal(), (300, 300)).std()) - math.sqrt(2 / 600)) < 2e-3
    assert abs(float(initializer(HeNormal(mode="fan_out"), (200, 300)).std())
               - math.sqrt(2 / 200)) < 5e-3
    t = np.asarray(initializer(TruncatedNormal(sigma=1.0), (1000,)))
    assert t.max() <= 2 and t.min() >= -2


def test_constant_number_and_tensor_values():
    np.testing.assert_array_equal(initializer(Constant(2.5), (2,)), [2.5, 2.5])
    np.testing.assert_array_equal(initializer(7, (2,), ms.int32), [7, 7])
    explicit = ms.Tensor(np.arange(4.0).reshape(2, 2))
    np.testing.assert_array_equal(initializer(explicit, (2, 2)), np.arange(4.0).reshape(2, 2))
    assert initializer(One(), 3, ms.float16).dtype == ms.float16
    assert float(initializer(Zero, (2,)).sum()) == 0


def test_orthogonal_rows_are_orthonormal():
    q = np.asarray(initializer(Orthogonal(), (4, 6)))
    np.testing.assert_allclose(q @ q.T, np.eye(4), atol=1e-5)


def test_same_seed_same_values():
    ms.set_seed(3)
    a = initializer("normal", (5,)).asnumpy()
    ms.set_seed(3)
    b = initializer("normal", (5,)).asnumpy()
    np.testing.assert_array_equal(a, b)


def test_initializer_keeps_its_init_until_the_data_is_first_read():
    # As MindSpore 2.10: initializer() returns a Tensor that draws when it is first read, so two
    # Tensors made after the same seed but read later draw one after the other.
    ms.set_seed(3)
    a = initializer(Normal(), (5,))
    assert a.has_init and isinstance(a.init, Normal) and a.shape == (5,)
    ms.set_seed(3)
    b = initializer(Normal(), (5,))
    assert not np.array_equal(a.asnumpy(), b.asnumpy())
    assert not a.has_init and a.init is None
    w = initializer(XavierUniform(), (4, 6), ms.float16)
    assert w.init_data() is w and not w.has_init and w.dtype == ms.float16
    with pytest.raises(TypeError, match="init_data must be set Tensor.init"):
        w.init_data()


def test_bad_inputs_name_the_argument():
    with pytest.raises(ValueError, match="'init' 'nope' is not a known initializer"):
        initializer("nope", (2,))
    with pytest.raises(ValueError, match=r"explicit value has shape \(2, 2\).*\(3, 3\)"):
        initializer(ms.Tensor(np.ones((2, 2))), (3, 3))
    with pytest.raises(ValueError, match="fewer than 2 dimensions"):
        initializer("xavier_uniform", (5,))
    with pytest.raises(ValueError, match="'mode' must be 'fan_in' or 'fan_out'"):
        HeUniform(mode="fan_avg")
    with pytest.raises(TypeError, match="'init' must be an Initializer"):
        initializer(object(), (2,))
    with pytest.raises(ValueError, match="'shape' must hold non-negative ints"):
        initializer("zeros", (-1, 2))
