"""The optimizer-update Primitives (ApplyMomentum, Adam, SparseApplyFtrl ...) against mindspore 2.10.

Each case runs the real MindSpore and MindJAX on the same small Parameters and compares the
returned values and every Parameter after the update (they are updated in place). MindSpore 2.10
has no CPU kernel for a few of them; those are pinned against the documented formula in numpy.
"""
import mindspore
import numpy as np
import pytest
from mindspore import ops as ms_ops

import mindjax
from mindjax import nn as mj_nn
from mindjax import ops as mj_ops

RNG = np.random.default_rng(5)
VAR = (RNG.random((3, 2)) + 0.5).astype(np.float32)
ACC = (RNG.random((3, 2)) + 0.5).astype(np.float32)
ACC2 = (RNG.random((3, 2)) + 0.5).astype(np.float32)
ACC3 = (RNG.random((3, 2)) * 0.1).astype(np.float32)
GRAD = RNG.standard_normal((3, 2)).astype(np.float32)
ROWS = RNG.standard_normal((2, 2)).astype(np.float32)
IDX = np.array([2, 0], np.int32)
DUP = np.array([1, 1], np.int32)
PERM = np.array([2, 0, 1], np.int32)  # SparseApplyRMSProp/Adadelta take one index per row of var


def f(v):
    return np.float32(v)


# Each case: (id, call(o, P, T)) where P(array, name) makes a Parameter and T a Tensor.
CASES = [
    ("ApplyMomentum", lambda o, P, T: o.ApplyMomentum()(P(VAR, "v"), P(ACC, "a"), T(f(.1)), T(GRAD), T(f(.9)))),
    ("ApplyAdagrad", lambda o, P, T: o.ApplyAdagrad()(P(VAR, "v"), P(ACC, "a"), T(f(.1)), T(GRAD))),
    ("ApplyAdagradV2", lambda o, P, T: o.ApplyAdagradV2(epsilon=1e-3)(P(VAR, "v"), P(ACC, "a"), T(f(.1)), T(GRAD))),
    ("ApplyAdaMax", lambda o, P, T: o.ApplyAdaMax()(P(VAR, "v"), P(ACC, "m"), P(ACC2, "s"), T(f(.9)), T(f(.01)),
                                                    T(f(.9)), T(f(.99)), T(f(1e-7)), T(GRAD))),
    ("ApplyAdadelta", lambda o, P, T: o.ApplyAdadelta()(P(VAR, "v"), P(ACC, "a"), P(ACC2, "u"), T(f(.1)),
                                                        T(f(.9)), T(f(1e-6)), T(GRAD))),
    ("ApplyRMSProp", lambda o, P, T: o.ApplyRMSProp()(P(VAR, "v"), P(ACC, "ms"), P(ACC3, "mom"), T(f(.1)), T(GRAD),
                                                      0.9, 0.8, 1e-6)),
    ("ApplyCenteredRMSProp", lambda o, P, T: o.ApplyCenteredRMSProp()(
        P(VAR, "v"), P(ACC3, "mg"), P(ACC, "ms"), P(ACC2, "mom"), T(GRAD), T(f(.1)), 0.9, 0.8, 1e-6)),
    ("ApplyGradientDescent", lambda o, P, T: o.ApplyGradientDescent()(P(VAR, "v"), T(f(.1)), T(GRAD))),
    ("ApplyProximalGradientDescent", lambda o, P, T: o.ApplyProximalGradientDescent()(
        P(VAR, "v"), T(f(.1)), T(f(.5)), T(f(.2)), T(GRAD))),
    ("ApplyProximalAdagrad", lambda o, P, T: o.ApplyProximalAdagrad()(
        P(VAR, "v"), P(ACC, "a"), T(f(.1)), T(f(.5)), T(f(.2)), T(GRAD))),
    ("ApplyAddSign", lambda o, P, T: o.ApplyAddSign()(P(VAR, "v"), P(GRAD[::-1].copy(), "m"), T(f(.1)), T(f(1.)),
                                                      T(f(.5)), T(f(.9)), T(GRAD))),
    ("ApplyPowerSign", lambda o, P, T: o.ApplyPowerSign()(P(VAR, "v"), P(GRAD[::-1].copy(), "m"), T(f(.1)),
                                                          T(f(2.718)), T(f(.5)), T(f(.9)), T(GRAD))),
    ("ApplyFtrl", lambda o, P, T: o.ApplyFtrl()(P(VAR, "v"), P(ACC, "a"), P(np.abs(GRAD) + 20, "l"),
                                                T(GRAD[::-1].copy()), T(f(.1)), T(f(.05)), T(f(.02)), T(f(-.5)))),
    ("ApplyAdamWithAmsgrad", lambda o, P, T: o.ApplyAdamWithAmsgrad()(
        P(VAR, "v"), P(ACC3, "m"), P(ACC, "s"), P(ACC2, "h"), T(f(.81)), T(f(.998)), T(f(.01)), T(GRAD))),
    ("ApplyAdamWithAmsgradV2", lambda o, P, T: o.ApplyAdamWithAmsgradV2()(
        P(VAR, "v"), P(ACC3, "m"), P(ACC, "s"), P(ACC2, "h"), T(f(.81)), T(f(.998)), T(f(.01)), T(f(.9)),
        T(f(.999)), T(f(1e-8)), T(GRAD))),
    ("ApplyAdagradDA", lambda o, P, T: o.ApplyAdagradDA()(
        P(VAR, "v"), P(np.abs(GRAD) + .5, "ga"), P(ACC, "gs"), T(GRAD), T(f(.1)), T(f(.05)), T(f(.02)),
        T(np.int32(2)))),
    ("Adam", lambda o, P, T: o.Adam()(P(VAR, "v"), P(ACC3, "m"), P(ACC, "s"), T(f(.81)), T(f(.998)), T(f(.01)),
                                      T(f(.9)), T(f(.999)), T(f(1e-8)), T(GRAD))),
    ("Adam_nesterov", lambda o, P, T: o.Adam(use_nesterov=True)(
        P(VAR, "v"), P(ACC3, "m"), P(ACC, "s"), T(f(.81)), T(f(.998)), T(f(.01)), T(f(.9)), T(f(.999)),
        T(f(1e-8)), T(GRAD))),
    ("AdamWeightDecay", lambda o, P, T: o.AdamWeightDecay()(P(VAR, "v"), P(ACC3, "m"), P(ACC, "s"), 0.01, 0.9,
                                                            0.999, 1e-8, 0.1, T(GRAD))),
    ("SGD_first_step", lambda o, P, T: o.SGD(weight_decay=0.1)(P(VAR, "p"), T(GRAD), T(f(.1)), P(ACC, "a"),
                                                               T(f(.9)), P(np.ones_like(VAR), "s"))),
    ("SGD_later_step", lambda o, P, T: o.SGD(dampening=0.2)(P(VAR, "p"), T(GRAD), T(f(.1)), P(ACC, "a"),
                                                            T(f(.9)), P(np.zeros_like(VAR), "s"))),
    ("SGD_nesterov", lambda o, P, T: o.SGD(nesterov=True)(P(VAR, "p"), T(GRAD), T(f(.1)), P(ACC, "a"), T(f(.9)),
                                                          P(np.zeros_like(VAR), "s"))),
    ("SparseApplyAdagrad", lambda o, P, T: o.SparseApplyAdagrad(lr=0.1)(P(VAR, "v"), P(ACC, "a"), T(ROWS), T(IDX))),
    ("SparseApplyAdagradV2", lambda o, P, T: o.SparseApplyAdagradV2(lr=0.1, epsilon=1e-7)(
        P(VAR, "v"), P(ACC, "a"), T(ROWS), T(IDX))),
    ("SparseApplyFtrl", lambda o, P, T: o.SparseApplyFtrl(lr=0.1, l1=0.05, l2=0.02, lr_power=-0.5)(
        P(VAR, "v"), P(ACC, "a"), P(GRAD, "l"), T(ROWS), T(IDX))),
    ("SparseApplyRMSProp", lambda o, P, T: o.SparseApplyRMSProp(0.9, 0.8, 1e-6)(
        P(VAR, "v"), P(ACC, "ms"), P(ACC3, "mom"), T(f(.1)), T(GRAD), T(PERM))),
    ("FusedSparseAdam", lambda o, P, T: o.FusedSparseAdam()(
        P(VAR, "v"), P(ACC3, "m"), P(ACC, "s"), T(f(.81)), T(f(.998)), T(f(.01)), T(f(.9)), T(f(.999)),
        T(f(1e-8)), T(ROWS), T(IDX))),
    ("FusedSparseAdam_repeated_index", lambda o, P, T: o.FusedSparseAdam()(
        P(VAR, "v"), P(ACC3, "m"), P(ACC, "s"), T(f(.81)), T(f(.998)), T(f(.01)), T(f(.9)), T(f(.999)),
        T(f(1e-8)), T(ROWS), T(DUP))),
    ("FusedSparseLazyAdam", lambda o, P, T: o.FusedSparseLazyAdam()(
        P(VAR, "v"), P(ACC3, "m"), P(ACC, "s"), T(f(.81)), T(f(.998)), T(f(.01)), T(f(.9)), T(f(.999)),
        T(f(1e-8)), T(ROWS), T(IDX))),
    ("FusedSparseFtrl", lambda o, P, T: o.FusedSparseFtrl(lr=0.1, l1=0.05, l2=0.02, lr_power=-0.5)(
        P(VAR, "v"), P(ACC, "a"), P(GRAD, "l"), T(ROWS), T(IDX))),
    ("FusedSparseProximalAdagrad", lambda o, P, T: o.FusedSparseProximalAdagrad()(
        P(VAR, "v"), P(ACC, "a"), T(f(.1)), T(f(.5)), T(f(.2)), T(ROWS), T(IDX))),
]


def _numpy(value):
    if isinstance(value, (tuple, list)):
        return [_numpy(v) for v in value]
    return value.asnumpy() if hasattr(value, "asnumpy") else np.asarray(value)


def _run(case, o, T, P):
    params = []

    def make(array, name):
        p = P(T(np.array(array)), name=name)
        params.append(p)
        return p

    out = case(o, make, T)
    return _numpy(out), [p.asnumpy() for p in params]


def _assert_close(expected, got, name, tol=1e-5):
    if isinstance(expected, list):
        assert isinstance(got, list) and len(got) == len(expected), f"{name}: {got} vs {expected}"
        for e, g in zip(expected, got):
            _assert_close(e, g, name, tol)
        return
    assert got.shape == expected.shape and got.dtype == expected.dtype, \
        f"{name}: {got.shape} {got.dtype} vs {expected.shape} {expected.dtype}"
    np.testing.assert_allclose(got, expected, rtol=tol, atol=tol, err_msg=name)


# MindSpore 2.10's CPU kernels of these leave their outputs unset (zeros; "useless", the Fused* docs say):
# the Parameters are compared, and MindJAX returns the updated values its docs describe.
UNSET_OUTPUTS = {"ApplyRMSProp", "ApplyCenteredRMSProp", "Adam", "Adam_nesterov", "AdamWeightDecay",
                 "FusedSparseAdam", "FusedSparseAdam_repeated_index", "FusedSparseLazyAdam", "FusedSparseFtrl",
                 "FusedSparseProximalAdagrad"}


@pytest.mark.parametrize("name,case", CASES, ids=[c[0] for c in CASES])
def test_update_primitive_matches_mindspore_outputs_and_parameters(name, case):
    ms_out, ms_params = _run(case, ms_ops, mindspore.Tensor, mindspore.Parameter)
    mj_out, mj_params = _run(case, mj_ops, mindjax.Tensor, mindjax.Parameter)
    _assert_close(ms_params, mj_params, name + " (parameters)")
    if name in UNSET_OUTPUTS:
        mj_out = mj_out if isinstance(mj_out, list) else [mj_out]
        _assert_close(mj_params[:len(mj_out)], mj_out, name + " (outputs are the new values)")
    else:
        _assert_close(ms_out, mj_out, name + " (outputs)")


def test_sparse_apply_proximal_adagrad_matches_mindsporess_fused_kernel():
    # MindSpore 2.10 has no CPU kernel for SparseApplyProximalAdagrad; FusedSparseProximalAdagrad is the same update.
    fused = [c for n, c in CASES if n == "FusedSparseProximalAdagrad"][0]
    _, expected = _run(fused, ms_ops, mindspore.Tensor, mindspore.Parameter)
    out, got = _run(lambda o, P, T: o.SparseApplyProximalAdagrad()(
        P(VAR, "v"), P(ACC, "a"), T(f(.1)), T(f(.5)), T(f(.2)), T(ROWS), T(IDX)), mj_ops, mindjax.Tensor,
        mindjax.Parameter)
    _assert_close(expected, got, "SparseApplyProximalAdagrad")
    _assert_close(got, out, "SparseApplyProximalAdagrad outputs")


def test_sparse_apply_ftrl_v2_without_shrinkage_is_sparse_apply_ftrl_and_with_it_follows_the_formula():
    # MindSpore 2.10 has no CPU kernel for SparseApplyFtrlV2 (deprecated since 2.1).
    _, expected = _run(lambda o, P, T: o.SparseApplyFtrl(0.1, 0.05, 0.02, -0.5)(
        P(VAR, "v"), P(ACC, "a"), P(GRAD, "l"), T(ROWS), T(IDX)), ms_ops, mindspore.Tensor, mindspore.Parameter)
    _, got = _run(lambda o, P, T: o.SparseApplyFtrlV2(0.1, 0.05, 0.02, 0.0, -0.5)(
        P(VAR, "v"), P(ACC, "a"), P(GRAD, "l"), T(ROWS), T(IDX)), mj_ops, mindjax.Tensor, mindjax.Parameter)
    _assert_close(expected, got, "SparseApplyFtrlV2 (no shrinkage)")
    _, (var, accum, linear) = _run(lambda o, P, T: o.SparseApplyFtrlV2(0.1, 0.05, 0.02, 0.3, -0.5)(
        P(VAR, "v"), P(ACC, "a"), P(GRAD, "l"), T(ROWS), T(IDX)), mj_ops, mindjax.Tensor, mindjax.Parameter)
    v, a, lin, g = VAR[IDX].astype(np.float64), ACC[IDX], GRAD[IDX], ROWS
    new_a = a + g * g
    lin = lin + g + 2 * 0.3 * v - (np.sqrt(new_a) - np.sqrt(a)) / 0.1 * v
    quadratic = np.sqrt(new_a) / 0.1 + 2 * 0.02
    new_v = np.where(np.abs(lin) > 0.05, (np.sign(lin) * 0.05 - lin) / quadratic, 0)
    np.testing.assert_allclose(var[IDX], new_v, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(linear[IDX], lin, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(accum[IDX], new_a, rtol=1e-6)
    np.testing.assert_array_equal(var[1], VAR[1])  # a row without an index keeps its value


def _mj_run(case):
    return _run(case, mj_ops, mindjax.Tensor, mindjax.Parameter)


def test_momentum_nesterov_and_keras_momentum_follow_mindsporess_formulas():
    # MindSpore 2.10's CPU ApplyMomentum ignores use_nesterov, and it has no CPU ApplyKerasMomentum kernel:
    # these are pinned against the formulas of nn.Momentum and ApplyKerasMomentum's docs.
    out, (var, accum) = _mj_run(lambda o, P, T: o.ApplyMomentum(use_nesterov=True)(
        P(VAR, "v"), P(ACC, "a"), T(f(.1)), T(GRAD), T(f(.9))))
    new_accum = 0.9 * ACC + GRAD
    np.testing.assert_allclose(accum, new_accum, rtol=1e-6)
    np.testing.assert_allclose(var, VAR - 0.1 * (GRAD + 0.9 * new_accum), rtol=1e-6)
    np.testing.assert_allclose(out, var)
    for nesterov in (False, True):
        (o_var, o_acc), (var, accum) = _mj_run(lambda o, P, T: o.ApplyKerasMomentum(use_nesterov=nesterov)(
            P(VAR, "v"), P(ACC, "a"), T(f(.1)), T(GRAD), T(f(.9))))
        new_accum = ACC * 0.9 - GRAD * 0.1
        expected = VAR + new_accum * 0.9 - GRAD * 0.1 if nesterov else VAR + new_accum
        np.testing.assert_allclose(accum, new_accum, rtol=1e-6)
        np.testing.assert_allclose(var, expected, rtol=1e-6)
        np.testing.assert_allclose(o_var, var)
        np.testing.assert_allclose(o_acc, accum)


def test_adagrad_without_update_slots_keeps_accum():
    # MindSpore 2.10's CPU kernel ignores update_slots=False; its docs (and TensorFlow's op) keep accum then.
    (o_var, o_acc), (var, accum) = _mj_run(lambda o, P, T: o.ApplyAdagrad(update_slots=False)(
        P(VAR, "v"), P(ACC, "a"), T(f(.1)), T(GRAD)))
    np.testing.assert_array_equal(accum, ACC)
    np.testing.assert_allclose(var, VAR - 0.1 * GRAD / np.sqrt(ACC), rtol=1e-6)
    np.testing.assert_allclose(o_var, var)


def test_ftrl_and_adagrad_da_shrink_negative_values_by_their_sign():
    # MindSpore 2.10's CPU ApplyFtrl and ApplyAdagradDA take the sign of a negative linear/accumulator
    # term as +1 (its sparse FTRL kernels do not): the documented formula is pinned for negative values.
    lin0 = -np.abs(GRAD) - 1
    _, (var, accum, linear) = _mj_run(lambda o, P, T: o.ApplyFtrl()(
        P(VAR, "v"), P(ACC, "a"), P(lin0, "l"), T(GRAD), T(f(.1)), T(f(.05)), T(f(.02)), T(f(-.5))))
    new_a = ACC + GRAD ** 2
    lin = lin0 + GRAD - (np.sqrt(new_a) - np.sqrt(ACC)) / 0.1 * VAR
    expected = np.where(np.abs(lin) > 0.05, (np.sign(lin) * 0.05 - lin) / (np.sqrt(new_a) / 0.1 + 0.04), 0)
    np.testing.assert_allclose(linear, lin, rtol=1e-5)
    np.testing.assert_allclose(var, expected, rtol=1e-5)
    ga0 = -np.abs(GRAD) - 1
    _, (var, ga, gs) = _mj_run(lambda o, P, T: o.ApplyAdagradDA()(
        P(VAR, "v"), P(ga0, "ga"), P(ACC, "gs"), T(GRAD), T(f(.1)), T(f(.05)), T(f(.02)), T(np.int32(2))))
    acc, sq = ga0 + GRAD, ACC + GRAD ** 2
    shrunk = np.sign(acc) * np.maximum(np.abs(acc) - 0.05 * 2, 0)
    np.testing.assert_allclose(var, -0.1 * shrunk / (0.02 * 2 * 0.1 + np.sqrt(sq)), rtol=1e-5)
    np.testing.assert_allclose(ga, acc, rtol=1e-6)


def test_sparse_apply_adadelta_follows_the_formula_on_indexed_rows():
    # MindSpore 2.10 has no CPU kernel for SparseApplyAdadelta: pinned against its documented formula.
    idx = np.array([2, 0], np.int32)
    outs, (var, accum, update) = _mj_run(lambda o, P, T: o.SparseApplyAdadelta(1e-6)(
        P(VAR, "v"), P(ACC, "a"), P(ACC2, "u"), T(f(.1)), T(f(.9)), T(ROWS), T(idx)))
    a = 0.9 * ACC[idx] + 0.1 * ROWS ** 2
    step = np.sqrt(ACC2[idx] + 1e-6) * ROWS / np.sqrt(a + 1e-6)
    np.testing.assert_allclose(accum[idx], a, rtol=1e-6)
    np.testing.assert_allclose(var[idx], VAR[idx] - 0.1 * step, rtol=1e-6)
    np.testing.assert_allclose(update[idx], 0.9 * ACC2[idx] + 0.1 * step ** 2, rtol=1e-6)
    np.testing.assert_array_equal(var[1], VAR[1])
    _assert_close([var, accum, update], outs, "SparseApplyAdadelta outputs")


def test_fused_sparse_lazy_adam_leaves_unindexed_rows_and_fused_sparse_adam_moves_them():
    lazy = [c for n, c in CASES if n == "FusedSparseLazyAdam"][0]
    eager = [c for n, c in CASES if n == "FusedSparseAdam"][0]
    _, (lazy_var, lazy_m, _) = _mj_run(lazy)
    _, (eager_var, eager_m, _) = _mj_run(eager)
    np.testing.assert_array_equal(lazy_var[1], VAR[1])
    np.testing.assert_array_equal(lazy_m[1], ACC3[1])
    assert not np.allclose(eager_var[1], VAR[1]) and np.allclose(eager_m[1], 0.9 * ACC3[1])


# --- GRAPH mode ------------------------------------------------------------------------------------

def _graph_steps(fw, nets):
    fw.set_context(mode=fw.GRAPH_MODE)
    try:
        net = nets.UpdateNet(VAR, ACC, ACC3, ACC2)
        outs = [net(fw.Tensor(GRAD * (i + 1)), fw.Tensor(ROWS), fw.Tensor(IDX)).asnumpy() for i in range(2)]
        return outs, [p.asnumpy() for p in net.get_parameters()], [p.name for p in net.get_parameters()]
    finally:
        fw.set_context(mode=fw.PYNATIVE_MODE)


def test_update_primitives_write_parameters_in_graph_mode_like_mindspore():
    import nets_optim_prims_mj
    import nets_optim_prims_ms

    ms_outs, ms_params, ms_names = _graph_steps(mindspore, nets_optim_prims_ms)
    mj_outs, mj_params, mj_names = _graph_steps(mindjax, nets_optim_prims_mj)
    assert mj_names == ms_names
    for name, e, g in zip(ms_names, ms_params, mj_params):
        np.testing.assert_allclose(g, e, rtol=1e-5, atol=1e-6, err_msg=name)
    # (MindSpore's ApplyMomentum output aliases its Parameter, so it shows Adam's later write too; the
    # outputs are compared in PYNATIVE above.)
    assert not np.allclose(mj_params[0], VAR) and len(mj_outs) == 2


def test_update_primitive_inside_jitted_cell_construct_updates_parameters():
    class Step(mj_nn.Cell):
        def __init__(self):
            super().__init__()
            self.var = mindjax.Parameter(mindjax.Tensor(VAR), name="var")
            self.accum = mindjax.Parameter(mindjax.Tensor(ACC), name="accum")
            self.opt = mj_ops.ApplyAdagradV2(epsilon=1e-6)

        @mindjax.jit
        def construct(self, grad):
            return self.opt(self.var, self.accum, 0.1, grad)

    net = Step()
    var, accum = net(mindjax.Tensor(GRAD))
    new_accum = ACC + GRAD ** 2
    np.testing.assert_allclose(net.accum.asnumpy(), new_accum, rtol=1e-6)
    np.testing.assert_allclose(net.var.asnumpy(), VAR - 0.1 * GRAD / (np.sqrt(new_accum) + 1e-6), rtol=1e-6)
    np.testing.assert_allclose(var.asnumpy(), net.var.asnumpy())


# --- bad arguments ---------------------------------------------------------------------------------

def _params(*arrays):
    return [mindjax.Parameter(mindjax.Tensor(a), name=f"p{i}") for i, a in enumerate(arrays)]


def test_update_primitives_reject_bad_arguments_naming_the_op_and_argument():
    var, accum = _params(VAR, ACC)
    with pytest.raises(ValueError, match=r"For 'ApplyAdagrad', 'grad' must have the shape of 'var' \(3, 2\), "
                                         r"but got \(2,\)"):
        mj_ops.ApplyAdagrad()(var, accum, 0.1, mindjax.Tensor(np.ones(2, np.float32)))
    with pytest.raises(ValueError, match=r"For 'ApplyMomentum', 'learning_rate' must be a scalar, but got a tensor "
                                         r"of shape \(2,\)"):
        mj_ops.ApplyMomentum()(var, accum, np.ones(2, np.float32), GRAD, 0.9)
    with pytest.raises(TypeError, match="For 'ApplyMomentum', 'use_nesterov' must be a bool, got int"):
        mj_ops.ApplyMomentum(use_nesterov=1)
    with pytest.raises(TypeError, match="For 'SGD', 'dampening' must be a float, but got int"):
        mj_ops.SGD(dampening=1)
    with pytest.raises(ValueError, match="For 'SGD', 'dampening' must be 0 when 'nesterov' is True, but got 0.5"):
        mj_ops.SGD(dampening=0.5, nesterov=True)
    with pytest.raises(TypeError, match="For 'ApplyAdagradV2', 'epsilon' must be a float, but got str"):
        mj_ops.ApplyAdagradV2(epsilon="small")
    with pytest.raises(TypeError, match="For 'ApplyGradientDescent', 'var' must be a float tensor, but got int32"):
        mj_ops.ApplyGradientDescent()(np.ones((2,), np.int32), 0.1, np.ones((2,), np.int32))
    with pytest.raises(TypeError, match="For 'ApplyGradientDescent', missing input\\(s\\): delta"):
        mj_ops.ApplyGradientDescent()(var, 0.1)
    np.testing.assert_array_equal(var.asnumpy(), VAR)  # nothing was written by the failed calls


def test_sparse_update_primitives_reject_bad_indices_and_rows():
    var, accum = _params(VAR, ACC)
    prim = mj_ops.SparseApplyAdagrad(lr=0.1)
    with pytest.raises(TypeError, match="For 'SparseApplyAdagrad', 'indices' must be an int32 or int64 tensor, "
                                        "but got float32"):
        prim(var, accum, ROWS, IDX.astype(np.float32))
    with pytest.raises(ValueError, match=r"For 'SparseApplyAdagrad', 'grad' must have shape \(2, 2\)"):
        prim(var, accum, GRAD, IDX)
    with pytest.raises(ValueError, match="For 'SparseApplyAdagrad', 'indices' must be 1-D"):
        prim(var, accum, ROWS, IDX.reshape(2, 1))


def test_update_primitives_keep_mindsporess_constructor_defaults():
    assert (mj_ops.ApplyMomentum().use_nesterov, mj_ops.ApplyMomentum().gradient_scale) == (False, 1.0)
    assert mj_ops.ApplyAdagrad().update_slots is True
    amsgrad = mj_ops.ApplyAdamWithAmsgrad()
    assert (amsgrad.beta1, amsgrad.beta2, amsgrad.epsilon, amsgrad.use_locking) == (0.9, 0.999, 1e-8, False)
    sgd = mj_ops.SGD()
    assert (sgd.dampening, sgd.weight_decay, sgd.nesterov) == (0.0, 0.0, False)
    assert mj_ops.SparseApplyAdagradV2(0.1, 1e-6).update_slots is True
    assert mj_ops.operations.nn_ops.FusedSparseLazyAdam is mj_ops.FusedSparseLazyAdam
