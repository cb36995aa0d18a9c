"""ms.recompute(block, *args): jax.checkpoint around the call; values and gradients of the plain call."""
import jax
import numpy as np
import pytest

import mindjax as ms
from mindjax import nn


def test_recompute_puts_the_block_in_a_checkpoint():
    def block(y):
        return (y.sin() * y).sum()

    jaxpr = str(jax.make_jaxpr(lambda a: ms.recompute(block, ms.Tensor(a))._raw)(np.ones(2, np.float32)))
    assert "checkpoint" in jaxpr or "remat" in jaxpr


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
def test_recompute_of_a_cell_gives_the_plain_calls_output_and_gradients(mode):
    ms.set_seed(0)
    net = nn.SequentialCell([nn.Dense(2, 4), nn.Tanh(), nn.Dense(4, 1)])
    x = ms.Tensor(np.array([[1.0, -2.0], [0.5, 3.0]], np.float32))
    ms.set_context(mode=mode)
    try:
        np.testing.assert_allclose(ms.recompute(net, x).asnumpy(), net(x).asnumpy(), rtol=1e-6)
        params = net.trainable_params()
        dx_r, dw_r = ms.grad(lambda x: ms.recompute(net, x).sum(), 0, params)(x)
        dx, dw = ms.grad(lambda x: net(x).sum(), 0, params)(x)
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    np.testing.assert_allclose(dx_r.asnumpy(), dx.asnumpy(), rtol=1e-6)
    for a, b in zip(dw_r, dw):
        np.testing.assert_allclose(a.asnumpy(), b.asnumpy(), rtol=1e-6)


def test_recompute_of_a_function_with_keyword_inputs():
    x = ms.Tensor(np.array([1.0, 2.0], np.float32))
    grad = ms.grad(lambda x: ms.recompute(lambda y, scale: (y * y * scale).sum(), x, scale=3.0,
                                          use_reentrant=False))(x)
    np.testing.assert_allclose(grad.asnumpy(), [6.0, 12.0])


def test_recompute_checks_its_arguments_as_mindspore():
    with pytest.raises(ValueError, match="^context_fn is only supported when use_reentrant=False.$"):
        ms.recompute(lambda y: y, ms.Tensor([1.0]), context_fn=lambda: None)
    out = ms.recompute(lambda y: y + 1, ms.Tensor([1.0]), output_recompute=True, context_fn=lambda: None)
    assert out.tolist() == [2.0]
    with pytest.raises(TypeError, match="For 'recompute', 'block' must be a Cell or a function, but got int."):
        ms.recompute(3, ms.Tensor([1.0]))
