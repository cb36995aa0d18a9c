"""ms.grad with a sparse tensor among the inputs: its gradient is a sparse tensor of its structure."""
import numpy as np
import pytest

import mindjax as ms
from mindjax import nn, ops


class CsrMv(nn.Cell):
    def construct(self, x, vec):
        return ops.csr_mv(x, vec).sum()


class CooScale(nn.Cell):
    def construct(self, x, scale):
        return (x.to_dense() * scale).sum()


def _csr():
    return ms.CSRTensor(ms.Tensor(np.array([0, 2, 2, 4], np.int32)), ms.Tensor(np.array([0, 2, 1, 3], np.int32)),
                        ms.Tensor(np.array([1.0, -2.0, 3.0, 0.5], np.float32)), (3, 4))


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE], ids=["pynative", "graph"])
def test_gradient_of_a_csr_input_holds_the_values_gradient_on_its_structure(mode):
    ms.set_context(mode=mode)
    try:
        vec = np.arange(4, dtype=np.float32).reshape(4, 1)
        g_x, g_vec = ms.grad(CsrMv(), grad_position=(0, 1))(_csr(), ms.Tensor(vec))
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    assert isinstance(g_x, ms.CSRTensor) and g_x.shape == (3, 4)
    assert g_x.indptr.asnumpy().tolist() == [0, 2, 2, 4] and g_x.indices.asnumpy().tolist() == [0, 2, 1, 3]
    np.testing.assert_array_equal(g_x.values.asnumpy(), vec[[0, 2, 1, 3], 0])
    np.testing.assert_array_equal(g_vec.asnumpy(), _csr().to_dense().asnumpy().sum(0).reshape(4, 1))


def test_gradient_of_a_coo_input_and_the_default_first_position():
    x = ms.COOTensor(ms.Tensor([[0, 1], [1, 0]]), ms.Tensor([2.0, 3.0]), (2, 2))
    scale = np.array([[1.0, 10.0], [100.0, 1000.0]], np.float32)
    g = ms.grad(CooScale())(x, ms.Tensor(scale))
    assert isinstance(g, ms.COOTensor) and g.indices.asnumpy().tolist() == [[0, 1], [1, 0]]
    np.testing.assert_array_equal(g.values.asnumpy(), [10.0, 100.0])
