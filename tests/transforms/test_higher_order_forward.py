"""jet, derivative and linearize (MindSpore's higher-order forward mode) on jax.experimental.jet/jax.linearize."""
import numpy as np
import pytest

import mindjax as ms
from mindjax import nn, ops


def test_derivatives_of_a_polynomial_are_exact():
    x = ms.Tensor([2.0, -1.0])
    out, d = ops.derivative(lambda v: v ** 3, x, 1)
    np.testing.assert_allclose(d.asnumpy(), [12.0, 3.0])
    _, d2 = ops.derivative(lambda v: v ** 3, x, 2)
    np.testing.assert_allclose(d2.asnumpy(), [12.0, -6.0])
    _, d4 = ops.derivative(lambda v: v ** 3, x, 4)
    np.testing.assert_allclose(d4.asnumpy(), [0.0, 0.0], atol=1e-6)
    _, series = ops.jet(lambda v: v ** 3, x, ms.Tensor([[1.0, 1.0], [0.0, 0.0], [0.0, 0.0]]))
    np.testing.assert_allclose(series.asnumpy(), [[12.0, 3.0], [12.0, -6.0], [6.0, 6.0]])
    np.testing.assert_allclose(out.asnumpy(), [8.0, -1.0])


def test_jet_reads_a_cells_parameters_and_runs_under_jit():
    class Scale(nn.Cell):
        def __init__(self):
            super().__init__()
            self.w = ms.Parameter(ms.Tensor([3.0]), name="w")

        def construct(self, x):
            return self.w * x * x

    net = Scale()
    _, d = ops.derivative(net, ms.Tensor([2.0]), 1)
    np.testing.assert_allclose(d.asnumpy(), [12.0])
    compiled = ms.jit(lambda x: ops.derivative(net, x, 2)[1])
    np.testing.assert_allclose(np.asarray(compiled(ms.Tensor([2.0]))), [6.0])


def test_linearize_evaluates_the_product_many_times():
    out, jvp_fn = ops.linearize(lambda a, b: a * b, [ms.Tensor([2.0]), ms.Tensor([5.0])])
    np.testing.assert_allclose(out.asnumpy(), [10.0])
    np.testing.assert_allclose(jvp_fn((ms.Tensor([1.0]), ms.Tensor([0.0]))).asnumpy(), [5.0])
    np.testing.assert_allclose(jvp_fn([ms.Tensor([0.0]), ms.Tensor([1.0])]).asnumpy(), [2.0])


def test_bad_arguments_name_the_function():
    x = ms.Tensor([1.0])
    with pytest.raises(TypeError, match=r"For 'jet', 'primals' and 'series' must be both Tensor or both tuple, but "
                                        r"got Tensor and list"):
        ops.jet(ops.sin, x, [x])
    with pytest.raises(ValueError, match=r"For 'jet', each order in series\[0\] must have the shape of primals\[0\], "
                                         r"\(1,\), but got series of shape \(2, 2\)"):
        ops.jet(ops.sin, x, ms.Tensor(np.ones((2, 2), np.float32)))
    with pytest.raises(TypeError, match=r"For 'jet', primals\[0\] and series\[0\] must have one dtype, but got "
                                        r"float32 and int32"):
        ops.jet(ops.sin, x, ms.Tensor([[1]], ms.int32))
    with pytest.raises(TypeError, match=r"For 'jet', the elements of 'primals' must be int32, int64, float32 or "
                                        r"float64, but got float16"):
        ops.jet(ops.sin, ms.Tensor([1.0], ms.float16), ms.Tensor([[1.0]], ms.float16))
    with pytest.raises(ValueError, match=r"For 'jet', 'primals' and 'series' must have one length, but got 2 and 1"):
        ops.jet(ops.add, (x, x), (x,))
    with pytest.raises(TypeError, match=r"For 'derivative', 'order' must be an int, but got float"):
        ops.derivative(ops.sin, x, 2.0)
    with pytest.raises(ValueError, match=r"For 'derivative', 'order' must be at least 1, but got 0"):
        ops.derivative(ops.sin, x, 0)
    with pytest.raises(TypeError, match=r"For 'linearize', 'inputs' must be a Tensor, or a tuple or list of "
                                        r"Tensors, but got int"):
        ops.linearize(ops.sin, 1)
    _, jvp_fn = ops.linearize(ops.sin, x)
    with pytest.raises(ValueError, match=r"For 'linearize', the tangents must be 1, one per input, but got 2"):
        jvp_fn((x, x))
