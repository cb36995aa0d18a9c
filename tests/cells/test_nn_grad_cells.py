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


@pytest.mark.parametrize("mode", [ms.GRAPH_MODE, ms.PYNATIVE_MODE])
@pytest.mark.parametrize("call", ["one_input_two_tangents", "one_input_tuple_of_one", "two_inputs_one_tangent",
                                  "inputs_as_a_tuple"])
def test_jvp_cell_rejects_a_tangent_whose_structure_differs_from_the_inputs(mode, call):
    ms.set_context(mode=mode)
    x = ms.Tensor(np.ones((2, 2), np.float32))
    one = nn.Jvp(lambda a: a ** 3)
    two = nn.Jvp(lambda a, b: 2 * a + 3 * b)
    calls = {"one_input_two_tangents": lambda: one(x, (x, x)), "one_input_tuple_of_one": lambda: one(x, (x,)),
             "two_inputs_one_tangent": lambda: two(x, x, x), "inputs_as_a_tuple": lambda: two((x, x), (x, x))}
    # inputs_as_a_tuple passes one input that fn cannot take: Python's own TypeError, as in MindSpore
    with pytest.raises(TypeError, match="For 'Jvp', 'v' must be a" if call != "inputs_as_a_tuple" else ""):
        calls[call]()


@pytest.mark.parametrize("mode", [ms.GRAPH_MODE, ms.PYNATIVE_MODE])
def test_vjp_cell_rejects_a_cotangent_whose_structure_differs_from_the_output(mode):
    ms.set_context(mode=mode)
    x = ms.Tensor(np.ones((2, 2), np.float32))
    single = nn.Vjp(lambda a: a ** 3)
    double = nn.Vjp(lambda a, b: (2 * a, b ** 3))
    with pytest.raises(TypeError, match="For 'Vjp', 'v' must be a Tensor matching the output of 'fn'"):
        single(x, (x, x))
    with pytest.raises(TypeError, match="must be a tuple of 2 Tensors"):
        double(x, x, x)
    out, grads = double(x, x, (x, x))
    np.testing.assert_allclose(grads[1].asnumpy(), np.full((2, 2), 3.0))
