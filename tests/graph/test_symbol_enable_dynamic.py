"""ms.Symbol (a dynamic dimension with MindSpore's argument checks) and ms.enable_dynamic on @ms.jit."""
import numpy as np
import pytest

import mindjax as ms
from mindjax import nn


def test_symbol_dimensions_are_dynamic_in_shape_only_tensors_and_set_inputs():
    s = ms.Symbol(divisor=8, remainder=1)
    assert ms.Tensor(shape=(None, s, 3), dtype=ms.float32).shape == (-1, -1, 3)
    assert s.to_dict() == {"min": 1, "divisor": 8, "remainder": 1}
    assert str(ms.Symbol(max=32, min=2)) == "{'max': 32, 'min': 2, 'divisor': 1, 'remainder': 0}"

    class Net(nn.Cell):
        def construct(self, x):
            return x.abs()

    net = Net()
    net.set_inputs(ms.Tensor(shape=(s, 2), dtype=ms.float32))
    assert net(ms.Tensor(-np.ones((9, 2), np.float32))).shape == (9, 2)
    assert net(ms.Tensor(-np.ones((17, 2), np.float32))).shape == (17, 2)


@pytest.mark.parametrize("kwargs, error, message", [
    ({"max": 1.5}, TypeError, "For 'Symbol', the argument 'max' must be int, but got <class 'float'>"),
    ({"unique": 1}, TypeError, "For 'Symbol', the argument 'unique' must be bool, but got <class 'int'>"),
    ({"min": 0}, ValueError, "For 'Symbol', the 'min' value should be positive, but got 0"),
    ({"divisor": 0}, ValueError, "For 'Symbol', the 'divisor' value should be positive, but got 0"),
    ({"divisor": 4, "remainder": 4}, ValueError,
     r"For 'Symbol', the 'remainder' value should be in the range '\[0, 4\)', but got 4"),
])
def test_symbol_checks_its_arguments_as_mindspore(kwargs, error, message):
    with pytest.raises(error, match=message):
        ms.Symbol(**kwargs)


def test_enable_dynamic_traces_the_jit_function_once_over_sizes():
    traces = []

    @ms.enable_dynamic(y=ms.Tensor(shape=[None, 2], dtype=ms.float32))
    @ms.jit
    def f(x, y):
        traces.append(None)
        return x * y

    for rows in (3, 5, 7):
        out = f(ms.Tensor(np.float32(2.0)), ms.Tensor(np.ones((rows, 2), np.float32)))
        assert out.shape == (rows, 2) and float(out.sum()) == 4.0 * rows
    assert len(traces) == 1
    with pytest.raises(ValueError, match="does not match the input signature"):
        f(ms.Tensor(np.float32(2.0)), ms.Tensor(np.ones((5, 3), np.float32)))


def test_enable_dynamic_rejects_bad_use_with_mindspores_messages():
    with pytest.raises(ValueError, match="^When using decorator enable_dynamic, the input cannot be empty!$"):
        ms.enable_dynamic()
    with pytest.raises(TypeError, match="the shape of argument 'x' at least have one None."):
        ms.enable_dynamic(x=ms.Tensor(np.ones(2, np.float32)))
    dyn = ms.Tensor(shape=[None], dtype=ms.float32)
    with pytest.raises(ValueError, match="can only be used for function or method decorated by ms.jit"):
        ms.enable_dynamic(x=dyn)(lambda x: x)
    with pytest.raises(ValueError, match="the number of arguments 2 exceeds the number of function arguments 1."):
        ms.enable_dynamic(x=dyn, y=dyn)(ms.jit(lambda x: x))
    with pytest.raises(ValueError, match="the function has no argument 'z'"):
        ms.enable_dynamic(z=dyn)(ms.jit(lambda x: x))
