"""Adadelta, FTRL and ProximalAdagrad: their numbers for l1/l2 against the documented formulas, and
bad arguments raise MindSpore 2.10's error types (five-step parity is in test_optim_parity.py)."""
import mindspore
import mindspore.nn as msnn
import numpy as np
import pytest

import mindjax as ms
from mindjax import nn


def _param(m):
    return m.Parameter(m.Tensor(np.array([0.5, -0.3, 0.02], np.float32)), name="w")


@pytest.mark.parametrize("make,pattern", [
    (lambda m, p: m.Adadelta(p, rho=1.5), "rho"), (lambda m, p: m.Adadelta(p, epsilon=1), "epsilon"),
    (lambda m, p: m.FTRL(p, lr_power=0.5), "lr_power"), (lambda m, p: m.FTRL(p, l1=-1.0), "l1"),
    (lambda m, p: m.FTRL(p, learning_rate=[0.1, 0.2]), "learning rate"),
    (lambda m, p: m.ProximalAdagrad(p, accum=1), "accum"), (lambda m, p: m.ProximalAdagrad(p, l2=-0.1), "l2"),
])
def test_optimizer_bad_argument_raises_mindspores_error_type(make, pattern):
    with pytest.raises(Exception) as theirs:
        make(msnn, [_param(mindspore)])
    with pytest.raises(type(theirs.value), match=pattern):
        make(nn, [_param(ms)])


def test_proximal_adagrad_l1_l2_follow_the_documented_formula():
    p = _param(ms)
    opt = nn.ProximalAdagrad([p], accum=0.3, learning_rate=0.1, l1=0.05, l2=0.1)
    g = np.array([0.2, 0.4, -0.1], np.float32)
    opt((ms.Tensor(g),))
    w = np.array([0.5, -0.3, 0.02])
    v = w - 0.1 * g / np.sqrt(0.3 + g * g)
    np.testing.assert_allclose(p.asnumpy(), np.sign(v) * np.maximum(np.abs(v) - 0.005, 0) / 1.01, rtol=1e-5)
    assert [s.name for s in opt.accum] == ["accum.w"]
