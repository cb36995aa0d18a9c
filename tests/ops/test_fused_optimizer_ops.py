"""Fused and gradient-only optimizer Primitives (LARSUpdate, AdamNoUpdateParam, FusedWeightScaleApplyMomentum,
FusedCastAdamWeightDecay, FusedAdaFactorWithGlobalNorm) and RmsNorm: formulas, in-place writes, errors."""
import numpy as np
import pytest

import mindjax
from mindjax import ops

F32 = np.float32


def _param(value, name):
    return mindjax.Parameter(mindjax.Tensor(np.asarray(value, F32).copy()), name=name)


def test_lars_update_matches_mindspore_docstring_example():
    w = np.array([[0.5, 0.8, 0.2], [0.6, 0.4, 0.2]], F32)
    g = np.array([[0.4, 0.4, 0.5], [0.2, 0.4, 0.3]], F32)
    out = ops.LARSUpdate()(w, g, np.sum(w * w), np.sum(g * g), 0.0, 1.0)
    np.testing.assert_allclose(out.asnumpy(), [[0.0005265, 0.0005265, 0.00065813], [0.00026325, 0.0005265,
                                                                                     0.00039488]], rtol=1e-4)


def test_lars_update_weight_decay_and_clip():
    w, g = np.array([3.0, 4.0], F32), np.array([0.6, 0.8], F32)
    coeff = 0.001 * 5.0 / (1.0 + 0.1 * 5.0 + 1e-5)
    out = ops.LARSUpdate()(w, g, F32(25.0), F32(1.0), 0.1, 0.5)
    np.testing.assert_allclose(out.asnumpy(), coeff * (g + 0.1 * w), rtol=1e-6)
    clipped = ops.LARSUpdate(hyperpara=10.0, use_clip=True)(w, g, F32(25.0), F32(1.0), 0.1, 0.5)
    np.testing.assert_allclose(clipped.asnumpy(), 0.5 * (g + 0.1 * w), rtol=1e-6)  # clip(coeff / lr, 0, 1) * lr
    with pytest.raises(ValueError, match=r"For 'LARSUpdate', 'gradient' must have shape \(2,\), but got \(3,\)"):
        ops.LARSUpdate()(w, np.ones(3, F32), F32(1), F32(1), 0.0, 1.0)
    with pytest.raises(TypeError, match="For 'LARSUpdate', 'use_clip' must be a bool"):
        ops.LARSUpdate(use_clip=1)


def test_fused_weight_scale_apply_momentum_updates_in_place():
    var, accum = _param([1.0, 2.0], "var"), _param([0.5, 0.5], "accum")
    g = np.array([0.2, -0.4], F32)
    out = ops.FusedWeightScaleApplyMomentum()(F32(0.1), F32(0.5), var, accum, F32(0.01), g, F32(0.9))
    acc = 0.9 * 0.5 + (g + 0.1 * np.array([1.0, 2.0])) * 0.5
    np.testing.assert_allclose(accum.asnumpy(), acc, rtol=1e-6)
    np.testing.assert_allclose(var.asnumpy(), np.array([1.0, 2.0]) - 0.01 * acc, rtol=1e-6)
    np.testing.assert_allclose(out.asnumpy(), var.asnumpy())
    with pytest.raises(TypeError, match="For 'FusedWeightScaleApplyMomentum', missing input"):
        ops.FusedWeightScaleApplyMomentum()(F32(0.1), F32(0.5), var, accum)


def test_fused_cast_adam_weight_decay_keeps_float16_var_and_float32_moments():
    var = mindjax.Parameter(mindjax.Tensor(np.array([1.0, -1.0], np.float16)), name="var")
    m, v = _param([0.0, 0.0], "m"), _param([0.0, 0.0], "v")
    ops.FusedCastAdamWeightDecay()(var, m, v, 0.1, 0.9, 0.999, 1e-8, 0.0, np.array([1.0, 1.0], np.float16),
                                   F32(1.0))
    assert var.dtype == mindjax.float16 and m.dtype == mindjax.float32
    np.testing.assert_allclose(m.asnumpy(), [0.1, 0.1], rtol=1e-6)
    np.testing.assert_allclose(var.asnumpy().astype(F32), [1.0 - 0.1 * 0.1 / np.sqrt(0.001), -1.0 - 0.1 * 0.1 /
                                                           np.sqrt(0.001)], rtol=1e-3)
    with pytest.raises(ValueError, match=r"For 'FusedCastAdamWeightDecay', 'm' must have shape \(2,\)"):
        ops.FusedCastAdamWeightDecay()(var, np.zeros(3, F32), v, 0.1, 0.9, 0.999, 1e-8, 0.0, np.ones(2, F32), 1.0)


def test_fused_ada_factor_with_global_norm_divides_the_gradient_first():
    rng = np.random.default_rng(1)
    p0, g = rng.standard_normal((3, 2)).astype(F32), rng.standard_normal((3, 2)).astype(F32)
    states = lambda: [_param(p0, "p"), _param(np.zeros((3, 2)), "a"), _param(np.zeros(3), "r"),  # noqa: E731
                      _param(np.zeros(2), "c"), _param(np.zeros((3, 2)), "s")]
    eps = np.array([1e-30, 1e-3], F32)
    a, b = states(), states()
    ops.FusedAdaFactorWithGlobalNorm()(eps, 1.0, 0.9, 0.8, 0.0, 0.05, g, *a, F32(4.0))
    ops.FusedAdaFactor()(eps, 1.0, 0.9, 0.8, 0.0, 0.05, g / 4.0, *b)
    for x, y in zip(a, b):
        np.testing.assert_allclose(x.asnumpy(), y.asnumpy(), rtol=1e-6, atol=1e-7)
    with pytest.raises(ValueError, match="For 'FusedAdaFactor', 'epsilon' must hold two values"):
        ops.FusedAdaFactor()(np.ones(3, F32), 1.0, 0.9, 0.8, 0.0, 0.05, g, *states())


def test_adam_no_update_param_returns_the_step_and_leaves_no_parameter_input():
    m, v = _param([0.0], "m"), _param([0.0], "v")
    one = lambda x: np.array([x], F32)  # noqa: E731
    delta = ops.AdamNoUpdateParam()(m, v, one(0.9), one(0.999), one(0.1), one(0.9), one(0.999), one(1e-8),
                                    np.array([2.0], F32))
    np.testing.assert_allclose(m.asnumpy(), [0.2], rtol=1e-6)
    np.testing.assert_allclose(v.asnumpy(), [0.004], rtol=1e-4)
    expected = -0.1 * np.sqrt(1 - 0.999) / (1 - 0.9) * 0.2 / (np.sqrt(0.004) + 1e-8)
    np.testing.assert_allclose(delta.asnumpy(), [expected], rtol=1e-5)
    with pytest.raises(ValueError, match="For 'AdamNoUpdateParam', 'lr' must be a scalar"):
        ops.AdamNoUpdateParam()(m, v, one(0.9), one(0.999), np.ones(2, F32), one(0.9), one(0.999), one(1e-8),
                                np.array([2.0], F32))


def test_rms_norm_primitive_delegates_to_ops_rms_norm():
    x = np.random.default_rng(3).standard_normal((2, 4)).astype(F32)
    gamma = np.linspace(0.5, 2.0, 4).astype(F32)
    y, rstd = ops.RmsNorm(1e-5)(x, gamma)
    want = x / np.sqrt((x * x).mean(-1, keepdims=True) + 1e-5) * gamma
    np.testing.assert_allclose(y.asnumpy(), want, rtol=1e-5)
    assert rstd.shape == (2, 1)
    with pytest.raises(ValueError, match="For 'RmsNorm', 'gamma' shape"):
        ops.RmsNorm()(x, np.ones(3, F32))
    with pytest.raises(TypeError, match="For 'RmsNorm', 'epsilon' must be a float"):
        ops.RmsNorm("1e-6")
