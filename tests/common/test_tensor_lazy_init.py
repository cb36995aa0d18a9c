"""``Tensor(shape=..., dtype=..., init=...)`` keeps its initializer until the data is read
(MindSpore 2.10: it prints ``<uninitialized>`` until ``init_data()`` or ``asnumpy()``)."""
import numpy as np
import pytest

import mindjax as ms
from mindjax import Tensor, ops
from mindjax.common.initializer import Normal, One


def _lazy(shape=(2, 2), init=None):
    return Tensor(shape=shape, dtype=ms.float32, init=One() if init is None else init)


def test_lazy_tensor_prints_uninitialized_until_init_data():
    t = _lazy()
    assert str(t) == "Tensor(shape=[2, 2], dtype=Float32, value=\n<uninitialized>)"
    assert repr(t) == str(t)
    assert str(_lazy((2,))) == "Tensor(shape=[2], dtype=Float32, value=<uninitialized>)"
    assert t.has_init and isinstance(t.init, One)
    assert t.init_data() is t
    assert not t.has_init and t.init is None
    assert str(t) == "[[1. 1.]\n [1. 1.]]"


def test_lazy_tensor_metadata_does_not_build_it():
    t = _lazy((2, 3))
    assert (t.shape, t.dtype, t.ndim, t.size, t.itemsize, t.nbytes) == ((2, 3), ms.float32, 2, 6, 4, 24)
    assert t.has_init


def test_lazy_tensor_is_built_by_its_first_read():
    t = _lazy()
    np.testing.assert_array_equal(t.asnumpy(), np.ones((2, 2), np.float32))
    assert not t.has_init
    u = _lazy()
    np.testing.assert_array_equal((u + 1).asnumpy(), np.full((2, 2), 2.0, np.float32))
    assert not u.has_init
    v = _lazy()
    np.testing.assert_array_equal(ops.matmul(v, v).asnumpy(), np.full((2, 2), 2.0, np.float32))
    w = _lazy()
    assert ms.jit(lambda a: a * 3)(w).asnumpy().tolist() == [[3.0, 3.0], [3.0, 3.0]]
    p = ms.Parameter(_lazy(), name="p")
    np.testing.assert_array_equal(p.asnumpy(), np.ones((2, 2), np.float32))


def test_lazy_random_tensor_draws_when_built():
    ms.set_seed(1)
    a = _lazy((3,), Normal()).init_data().asnumpy()
    ms.set_seed(1)
    b = _lazy((3,), Normal()).init_data().asnumpy()
    np.testing.assert_array_equal(a, b)
    assert a.std() > 0


def test_init_data_on_a_tensor_holding_data_is_an_error():
    t = _lazy()
    t.init_data()
    with pytest.raises(TypeError, match="init_data must be set Tensor.init, init can't be None"):
        t.init_data()
    with pytest.raises(TypeError, match="init_data must be set Tensor.init"):
        Tensor(np.ones(2)).init_data()


def test_lazy_tensor_bad_initializer_fails_at_construction():
    with pytest.raises(Exception):
        Tensor(shape=(2, 2), dtype=ms.float32, init="no_such_initializer")


def test_building_a_lazy_tensor_draws_nothing_until_read():
    ms.set_seed(2)
    plain = ops.standard_normal((3,)).asnumpy()
    ms.set_seed(2)
    lazy = _lazy((3,), Normal())
    after = ops.standard_normal((3,)).asnumpy()
    np.testing.assert_array_equal(after, plain)
    assert lazy.has_init
