"""Compiled programs return non-array outputs (strings, slices, Parameter names) as MindSpore's graph mode does."""
import numpy as np

import mindjax as ms
from mindjax import nn
from mindjax.transforms._static_outputs import box_static, unbox_static
from mindjax.transforms.grad import grad


def test_ms_jit_returns_strings_and_slices_beside_tensors():
    @ms.jit
    def f(x):
        return x * 2, "label", slice(1, 2), None

    for _ in range(2):  # the second call comes from the program cache
        out = f(ms.Tensor([1.0]))
        np.testing.assert_allclose(out[0].asnumpy(), [2.0])
        assert out[1:] == ("label", slice(1, 2), None)


def test_grad_with_return_ids_inside_a_compiled_cell_keeps_parameter_names():
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.w = ms.Parameter(ms.Tensor([2.0]), name="w")

        def construct(self, x):
            return x * self.w

    class GradNet(nn.Cell):
        def __init__(self, net):
            super().__init__()
            self.net = net

        def construct(self, x):
            return grad(self.net, 0, self.net.trainable_params(), return_ids=True)(x)

    net = Net()
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        (pos, dx), ((name, dw),) = GradNet(net)(ms.Tensor([3.0]))
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    assert type(pos) is int and pos == 0 and name == net.w.name
    np.testing.assert_allclose(dx.asnumpy(), [2.0])
    np.testing.assert_allclose(dw.asnumpy(), [3.0])


def test_box_and_unbox_leave_arrays_alone_and_restore_the_rest():
    out = (np.float32(1.0), [np.zeros(2)])
    assert box_static(out) is out
    assert unbox_static(box_static(("a", 1, 2.5))) == ("a", 1, 2.5)
