"""RNN and fused-optimizer Primitives (LSTM with a flat weight, FusedCastAdamWeightDecay, FusedAdaFactor,
AdamNoUpdateParam, RmsNorm) against mindspore 2.10 on CPU, where it has kernels for them."""
import mindspore
import numpy as np
import pytest
from mindspore import ops as ms_ops

import mindjax
from mindjax import ops as mj_ops

F32 = np.float32


def _lstm_case(bidirectional, has_bias, seed):
    rng = np.random.default_rng(seed)
    dirs = 2 if bidirectional else 1
    x = rng.standard_normal((4, 2, 3)).astype(F32)
    h = rng.standard_normal((dirs, 2, 5)).astype(F32)
    c = rng.standard_normal((dirs, 2, 5)).astype(F32)
    size = dirs * 20 * (3 + 5) + (dirs * 20 if has_bias else 0)
    w = (rng.standard_normal((size, 1, 1)) * 0.5).astype(F32)
    return x, h, c, w


@pytest.mark.parametrize("bidirectional", [False, True])
@pytest.mark.parametrize("has_bias", [True, False])
def test_lstm_flat_weight_matches_mindspore_cpu_layout(bidirectional, has_bias):
    x, h, c, w = _lstm_case(bidirectional, has_bias, 3)
    expected = ms_ops.LSTM(3, 5, 1, has_bias, bidirectional, 0.0)(*map(mindspore.Tensor, (x, h, c, w)))
    got = mj_ops.LSTM(3, 5, 1, has_bias, bidirectional, 0.0)(*map(mindjax.Tensor, (x, h, c, w)))
    for e, g in zip(expected[:3], got[:3]):
        assert g.shape == e.shape
        np.testing.assert_allclose(g.asnumpy(), e.asnumpy(), rtol=1e-5, atol=1e-5)


def _param(module, value, name):
    return module.Parameter(module.Tensor(value.copy()), name=name)


def test_fused_cast_adam_weight_decay_matches_mindspore():
    rng = np.random.default_rng(5)
    var0 = rng.standard_normal((2, 3)).astype(F32)
    grad = rng.standard_normal((2, 3)).astype(np.float16)
    results = []
    for mod, op in ((mindspore, ms_ops), (mindjax, mj_ops)):
        var, m, v = _param(mod, var0, "var"), _param(mod, np.full((2, 3), .1, F32), "m"), \
            _param(mod, np.full((2, 3), .2, F32), "v")
        op.FusedCastAdamWeightDecay()(var, m, v, 0.01, 0.9, 0.999, 1e-8, 0.1, mod.Tensor(grad),
                                      mod.Tensor(2.0, mod.float32))
        results.append([p.asnumpy() for p in (var, m, v)])
    for e, g in zip(*results):
        np.testing.assert_allclose(g, e, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("flags", [(False, False, False), (True, True, True), (True, False, False), (True, False, True),
                                   (False, True, False), (False, False, True)])
@pytest.mark.parametrize("shape", [(4, 3), (5,)])
def test_fused_ada_factor_matches_mindspore(flags, shape):
    rng = np.random.default_rng(7)
    p0 = rng.standard_normal(shape).astype(F32)
    grad = rng.standard_normal(shape).astype(F32)
    avg0 = (rng.standard_normal(shape) * 0.1).astype(F32)
    row0 = rng.random(shape[:-1] or (1,)).astype(F32) if len(shape) > 1 else np.zeros((1,), F32)
    col0 = rng.random(shape[-1:]).astype(F32) if len(shape) > 1 else np.zeros((1,), F32)
    sq0 = rng.random(shape).astype(F32)
    results = []
    for mod, op in ((mindspore, ms_ops), (mindjax, mj_ops)):
        states = [_param(mod, a, n) for a, n in ((p0, "p"), (avg0, "avg"), (row0, "row"), (col0, "col"),
                                                  (sq0, "sq"))]
        op.FusedAdaFactor(*flags)(mod.Tensor(np.array([1e-30, 1e-3], F32)), 1.0, 0.9, 0.8, 0.01, 0.05,
                                  mod.Tensor(grad), *states)
        results.append([s.asnumpy() for s in states])
    for name, e, g in zip(("param", "exp_avg", "row", "col", "sq"), *results):
        np.testing.assert_allclose(g, e, rtol=1e-5, atol=1e-6, err_msg=name)


def test_adam_no_update_param_matches_mindspore():
    f = lambda mod, x: mod.Tensor(np.array([x], F32))  # noqa: E731
    grad = np.random.default_rng(2).standard_normal((2, 2)).astype(F32)
    results = []
    for mod, op in ((mindspore, ms_ops), (mindjax, mj_ops)):
        m, v = _param(mod, np.full((2, 2), .1, F32), "m"), _param(mod, np.full((2, 2), .2, F32), "v")
        delta = op.AdamNoUpdateParam()(m, v, f(mod, .9), f(mod, .999), f(mod, .001), f(mod, .9), f(mod, .999),
                                       f(mod, 1e-8), mod.Tensor(grad))
        results.append([delta.asnumpy(), m.asnumpy(), v.asnumpy()])
    for e, g in zip(*results):
        np.testing.assert_allclose(g, e, rtol=1e-5, atol=1e-7)
