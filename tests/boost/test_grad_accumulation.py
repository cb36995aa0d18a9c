"""boost.GradientAccumulation: the optimizer runs on the mean gradient every N steps (MindSpore 2.10's numbers)."""
import numpy as np
import pytest

import mindjax as ms
from mindjax import nn
from mindjax.boost import GradientAccumulation
from mindjax.boost.grad_accumulation import gradient_accumulation_op, gradient_clear_op

# MindSpore 2.10 (GRAPH mode; its PYNATIVE path fails on CPU): weights and step counter after each call.
EXPECTED = [[1.0, 2.0, 1], [0.85, 1.85, 0], [0.85, 1.85, 1], [0.365, 1.365, 0], [0.365, 1.365, 1]]


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
def test_momentum_every_second_step_matches_mindspore(mode):
    ms.set_context(mode=mode)
    try:
        net = nn.Dense(2, 1, weight_init=ms.Tensor(np.array([[1.0, 2.0]], np.float32)), bias_init="zeros")
        acc = GradientAccumulation(2, nn.Momentum(net.trainable_params(), 0.1, 0.9))
        out = []
        for i in range(5):
            grads = tuple(ms.Tensor(np.full(p.shape, i + 1.0, np.float32)) for p in net.trainable_params())
            acc(ms.Tensor(1.0), grads)
            out.append(net.weight.asnumpy().ravel().tolist() + [int(acc._accumulation_step.asnumpy())])
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    np.testing.assert_allclose(np.array(out), np.array(EXPECTED), rtol=1e-5)


def test_ops_are_registered_for_mindspore_types():
    p = ms.Parameter(ms.Tensor(np.zeros(2, np.float32)), name="acc")
    gradient_accumulation_op(2, p, ms.Tensor(np.ones(2, np.float32)))
    np.testing.assert_allclose(p.asnumpy(), [0.5, 0.5])
    gradient_clear_op(p)
    np.testing.assert_allclose(p.asnumpy(), [0.0, 0.0])


def test_bad_step_count():
    net = nn.Dense(2, 1)
    with pytest.raises(TypeError, match="max_accumulation_step"):
        GradientAccumulation(0, nn.SGD(net.trainable_params(), 0.1))
