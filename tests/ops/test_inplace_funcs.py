"""ops' in-place functions (normal_, uniform_, exponential_, random_, bernoulli_, bernoulli_ext, put_, erfinv_,
stop_gradient_): they write into the Tensor given and return it, as its methods do."""
import numpy as np
import pytest
from scipy import special

import mindjax as ms
from mindjax import ops


def zeros(*shape, dtype=np.float32):
    return ms.Tensor(np.zeros(shape, dtype))


def test_random_fills_write_into_and_return_the_tensor():
    for fill, args in ((ops.normal_, (3.0, 0.5)), (ops.uniform_, (2.0, 3.0)), (ops.exponential_, (2.0,)),
                       (ops.random_, (1, 4)), (ops.bernoulli_, (0.5,))):
        x = zeros(500)
        assert fill(x, *args) is x, fill.__name__
        assert x.shape == (500,) and x.dtype == ms.float32
    x = ops.uniform_(zeros(2000), 2.0, 3.0)
    assert 2.0 <= x.asnumpy().min() and x.asnumpy().max() < 3.0
    x = ops.normal_(zeros(4000), 3.0, 0.5).asnumpy()
    assert abs(x.mean() - 3.0) < 0.05 and abs(x.std() - 0.5) < 0.05
    x = ops.exponential_(zeros(4000), 4.0).asnumpy()
    assert x.min() >= 0 and abs(x.mean() - 0.25) < 0.03
    x = ops.random_(zeros(1000, dtype=np.int32), 1, 4).asnumpy()
    assert set(np.unique(x)) == {1, 2, 3}
    x = ops.random_(zeros(1000, dtype=np.int32), ms.Tensor(2), ms.Tensor([4])).asnumpy()  # one-element Tensors
    assert set(np.unique(x)) == {2, 3}
    x = ops.bernoulli_(zeros(3), ms.Tensor([0.0, 1.0, 1.0])).asnumpy()
    np.testing.assert_array_equal(x, [0.0, 1.0, 1.0])


def test_random_without_to_draws_up_to_the_dtypes_largest_value():
    x = ops.random_(zeros(2000, dtype=np.int8), 0).asnumpy()
    assert x.dtype == np.int8 and x.min() >= 0 and x.max() > 64  # [0, 127): the int8 range, not [0, from_)
    x = ops.random_(zeros(2000, dtype=np.float16), 10).asnumpy()
    assert x.min() >= 10 and x.max() > 1024  # float16 holds the integers up to 2**11 exactly


def test_a_generator_makes_the_fills_reproducible():
    a = ops.normal_(zeros(5), generator=ms.Generator().manual_seed(3)).asnumpy()
    b = ops.normal_(zeros(5), generator=ms.Generator().manual_seed(3)).asnumpy()
    c = ops.normal_(zeros(5), generator=ms.Generator().manual_seed(4)).asnumpy()
    np.testing.assert_array_equal(a, b)
    assert not np.array_equal(a, c)
    g = ms.Generator().manual_seed(1)
    first, second = ops.random_(zeros(8, dtype=np.int32), 0, 100, generator=g), \
        ops.random_(zeros(8, dtype=np.int32), 0, 100, generator=g)
    assert not np.array_equal(first.asnumpy(), second.asnumpy())  # the generator's offset moved on


def test_bernoulli_ext_draws_each_element_with_its_probability():
    out = ops.bernoulli_ext(ms.Tensor(np.array([[0.0, 1.0], [1.0, 0.0]], np.float32)))
    np.testing.assert_array_equal(out.asnumpy(), [[0.0, 1.0], [1.0, 0.0]])
    assert out.dtype == ms.float32
    half = ops.bernoulli_ext(ms.Tensor(np.full(4000, 0.25, np.float16))).asnumpy()
    assert half.dtype == np.float16 and abs(half.astype(np.float32).mean() - 0.25) < 0.03


def test_put_and_erfinv_in_place():
    x = zeros(2, 3)
    assert ops.put_(x, ms.Tensor([1, -1]), ms.Tensor([5.0, 6.0])) is x
    np.testing.assert_array_equal(x.asnumpy(), [[0, 5, 0], [0, 0, 6]])
    ops.put_(x, ms.Tensor([1, 1]), ms.Tensor([1.0, 2.0]), accumulate=True)
    np.testing.assert_array_equal(x.asnumpy(), [[0, 8, 0], [0, 0, 6]])
    y = ms.Tensor(np.array([0.0, 0.5, -0.9], np.float32))
    assert ops.erfinv_(y) is y
    np.testing.assert_allclose(y.asnumpy(), special.erfinv([0.0, 0.5, -0.9]), rtol=1e-5)


def test_stop_gradient_in_place_cuts_the_tensor_from_the_gradient():
    def net(x, y):
        out1 = ops.matmul(x, y)
        out2 = ops.matmul(x, y)
        assert ops.stop_gradient_(out2) is None
        return out1, out2

    x = ms.Tensor([[0.5, 0.6, 0.4], [1.2, 1.3, 1.1]], ms.float32)
    y = ms.Tensor([[0.01, 0.3, 1.1], [0.1, 0.2, 1.3], [2.1, 1.2, 3.3]], ms.float32)
    want = ops.grad(lambda a, b: ops.matmul(a, b))(x, y).asnumpy()  # out1's gradient only
    np.testing.assert_allclose(ops.grad(net)(x, y).asnumpy(), want, rtol=1e-6)
    np.testing.assert_allclose(ms.jit(lambda a: ops.grad(net)(a, y))(x).asnumpy(), want, rtol=1e-6)


def test_bad_input_names_the_op_and_the_argument():
    with pytest.raises(TypeError, match=r"For 'normal_', 'input' must be a Tensor, but got ndarray"):
        ops.normal_(np.zeros(3))
    with pytest.raises(TypeError, match=r"For 'stop_gradient_', 'input' must be a Tensor, but got list"):
        ops.stop_gradient_([1.0])
    with pytest.raises(RuntimeError, match=r"For 'uniform_', 'from_' must not be larger than 'to', but got "
                                           r"from_=3, to=2"):
        ops.uniform_(zeros(2), 3, 2)
    with pytest.raises(ValueError, match=r"For 'random_', 'from_' must be less than 'to', but got the interval "
                                         r"\[4, 4\)"):
        ops.random_(zeros(2), 4, 4)
    with pytest.raises(TypeError, match=r"For 'random_', 'to' must be an int, but got float"):
        ops.random_(zeros(2), 0, 2.5)
    with pytest.raises(ValueError, match=r"For 'bernoulli_', 'p' must be in \[0, 1\], but got 1.5"):
        ops.bernoulli_(zeros(2), 1.5)
    with pytest.raises(ValueError, match=r"For 'exponential_', 'lambd' must be positive, but got -1"):
        ops.exponential_(zeros(2), -1)
    with pytest.raises(TypeError, match=r"For 'normal_', 'mean' must be a number or a Tensor, but got str"):
        ops.normal_(zeros(2), "0")
    with pytest.raises(TypeError, match=r"For 'normal_', 'generator' must be a mindspore.Generator or None, but "
                                        r"got int"):
        ops.normal_(zeros(2), generator=0)
    with pytest.raises(TypeError, match=r"For 'bernoulli_ext', the dtype of 'input' must be one of float16, "
                                        r"float32, float64, bfloat16, but got Int32"):
        ops.bernoulli_ext(zeros(2, dtype=np.int32))
    with pytest.raises(ValueError, match=r"For 'bernoulli_ext', every element of 'input' must be in \[0, 1\], but "
                                         r"got values in \[-0.5, 1.0\]"):
        ops.bernoulli_ext(ms.Tensor([-0.5, 1.0]))
    with pytest.raises(TypeError, match=r"For 'put_', 'input' must be a Tensor"):
        ops.put_(np.zeros(2), ms.Tensor([0]), ms.Tensor([1.0]))
