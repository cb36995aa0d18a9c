"""Tensor control flow in GRAPH mode against MindSpore 2.10's GRAPH mode.

The same nets (``nets_cf_ms.py``, ``nets_cf_mj.py``, same seeds) run with
inputs that take different paths; outputs and gradients with respect to the
input and every Parameter must agree within 1e-5.
"""
import mindspore
import numpy as np
import pytest

import mindjax
import nets_cf_mj as mj
import nets_cf_ms as ms
from mindjax.transforms import grad as mjgrad

INPUTS = {
    "BranchNet": [np.array([[0.9, 0.8, 0.3]], np.float32), np.array([[0.1, -0.2, 0.3]], np.float32),
                  np.array([[-0.9, -0.8, -0.3]], np.float32)],
    "WhileNet": [np.array([0.1, -0.2, 0.3, 0.05], np.float32), np.array([2.0, 3.0, -2.0, 1.0], np.float32)],
    "ForBreakNet": [np.array([[0.5, 0.4, 0.3, 0.9]], np.float32),
                    np.array([[-0.5, -0.4, -0.3, -0.9]], np.float32)],
}
CASES = [(name, i) for name, xs in INPUTS.items() for i in range(len(xs))]


def _run_mindspore(name, x):
    mindspore.set_context(mode=mindspore.GRAPH_MODE)
    net = getattr(ms, name)()
    out = net(mindspore.Tensor(x))
    dx, dw = mindspore.grad(net, 0, net.trainable_params())(mindspore.Tensor(x))
    return out.asnumpy(), dx.asnumpy(), [g.asnumpy() for g in dw]


@pytest.mark.parametrize("name,index", CASES, ids=[f"{n}-{i}" for n, i in CASES])
def test_tensor_control_flow_matches_mindspore_graph_mode(name, index):
    x = INPUTS[name][index]
    expected_out, expected_dx, expected_dw = _run_mindspore(name, x)
    mindjax.set_context(mode=mindjax.GRAPH_MODE)
    net = getattr(mj, name)()
    np.testing.assert_allclose(np.asarray(net(mindjax.Tensor(x))), expected_out, rtol=1e-5, atol=1e-5)
    dx, dw = mjgrad.grad(net, 0, net.trainable_params())(mindjax.Tensor(x))
    np.testing.assert_allclose(np.asarray(dx), expected_dx, rtol=1e-5, atol=1e-5)
    assert len(dw) == len(expected_dw)
    for got, want in zip(dw, expected_dw):
        np.testing.assert_allclose(np.asarray(got), want, rtol=1e-5, atol=1e-5)
