"""nn.Jvp and nn.Vjp (mindspore.nn.grad)."""
import numpy as np
import pytest

import mindjax as ms
from mindjax import nn


def test_jvp_one_and_two_inputs():
    x = ms.Tensor(np.array([2.0, 3.0], np.float32))
    v = ms.Tensor(np.array([1.0, 1.0], np.float32))
    out, tangent = nn.Jvp(lambda a: a ** 3)(x, v)
    np.testing.assert_allclose(np.asarray(out), [8.0, 27.0])
    np.testing.assert_allclose(np.asarray(tangent), [12.0, 27.0])
    out, tangent = nn.Jvp(lambda a, b: a * b)(x, x, (v, v))
    np.testing.assert_allclose(np.asarray(tangent), [4.0, 6.0])


def test_vjp_one_and_two_inputs():
    x = ms.Tensor(np.array([2.0, 3.0], np.float32))
    v = ms.Tensor(np.array([1.0, 2.0], np.float32))
    out, grad = nn.Vjp(lambda a: a ** 2)(x, v)
    np.testing.assert_allclose(np.asarray(grad), [4.0, 12.0])
    _, grads = nn.Vjp(lambda a, b: a * b)(x, x, v)
    assert len(grads) == 2
    np.testing.assert_allclose(np.asarray(grads[1]), [2.0, 6.0])


def test_bad_inputs():
    with pytest.raises(TypeError, match="'fn'"):
        nn.Jvp(3)
    with pytest.raises(ValueError, match="Jvp.*tangent"):
        nn.Jvp(lambda a: a)(ms.Tensor([1.0]))
