"""Optimizers and learning-rate schedules against MindSpore 2.10.

Both frameworks start from the same weights and get the same five gradients
through ``opt(grads)``; the parameters, the state Parameters and their names
must agree (values within 1e-5).
"""
import os

os.environ.setdefault("GLOG_v", "3")

import numpy as np  # noqa: E402
import pytest  # noqa: E402

mindspore = pytest.importorskip("mindspore")

import mindjax  # noqa: E402
from tests.parity.nets_optim_cases import CASES, gradient_sequence, initial_values  # noqa: E402


def _run(framework, case):
    init = initial_values()
    params = [framework.Parameter(framework.Tensor(value), name=name) for name, value in init.items()]
    opt = CASES[case](framework.nn, params)
    order = [list(init).index(p.name) for p in opt.parameters]
    for grads in gradient_sequence():
        opt(tuple(framework.Tensor(grads[i]) for i in order))
    return [(name, np.asarray(p.asnumpy())) for name, p in opt.parameters_and_names()]


@pytest.mark.parametrize("case", sorted(CASES))
def test_optimizer_matches_mindspore_after_five_steps(case):
    expected = _run(mindspore, case)
    got = _run(mindjax, case)
    assert [name for name, _ in got] == [name for name, _ in expected]
    for (name, want), (_, have) in zip(expected, got):
        assert have.shape == want.shape, name
        np.testing.assert_allclose(have, want, rtol=1e-5, atol=1e-5, err_msg=name)


def test_lamb_state_names_match_mindspore():
    def names(framework):
        params = [framework.Parameter(framework.Tensor(v), name=n) for n, v in initial_values().items()]
        opt = framework.nn.Lamb(params, 0.1, weight_decay=0.01)
        return [(n, tuple(p.shape)) for n, p in opt.parameters_and_names()]

    assert names(mindjax) == names(mindspore)


def test_group_learning_rates_and_lr_parameters_match_mindspore():
    def describe(framework):
        params = [framework.Parameter(framework.Tensor(v), name=n) for n, v in initial_values().items()]
        opt = framework.nn.Momentum([{"params": params[:2], "lr": 0.5}, {"params": params[2:]}], 0.1, 0.9)
        lrs = [(p.name, float(p.asnumpy())) for p in opt.get_lr()]
        one = opt.get_lr_parameter(params[0])
        return lrs, (one.name, float(one.asnumpy())), opt.decay_flags

    assert describe(mindjax) == describe(mindspore)


@pytest.mark.parametrize("name, args", [
    ("piecewise_constant_lr", ([2, 5, 6], [0.1, 0.05, 0.01])),
    ("exponential_decay_lr", (0.1, 0.9, 7, 2, 2)),
    ("exponential_decay_lr", (0.1, 0.9, 7, 2, 2, True)),
    ("natural_exp_decay_lr", (0.1, 0.9, 7, 2, 2)),
    ("natural_exp_decay_lr", (0.1, 0.9, 7, 2, 2, True)),
    ("inverse_decay_lr", (0.1, 0.5, 7, 2, 2)),
    ("inverse_decay_lr", (0.1, 0.5, 7, 2, 2, True)),
    ("cosine_decay_lr", (0.01, 0.1, 7, 2, 2)),
    ("polynomial_decay_lr", (0.1, 0.01, 9, 2, 2, 0.5)),
    ("polynomial_decay_lr", (0.1, 0.01, 9, 2, 2, 0.5, True)),
    ("warmup_lr", (0.1, 7, 2, 2)),
])
def test_dynamic_lr_lists_match_mindspore(name, args):
    assert getattr(mindjax.nn, name)(*args) == pytest.approx(getattr(mindspore.nn, name)(*args), rel=1e-12)


@pytest.mark.parametrize("name, args", [
    ("ExponentialDecayLR", (0.1, 0.9, 3)),
    ("ExponentialDecayLR", (0.1, 0.9, 3, True)),
    ("NaturalExpDecayLR", (0.1, 0.3, 3)),
    ("NaturalExpDecayLR", (0.1, 0.3, 3, True)),
    ("InverseDecayLR", (0.1, 0.5, 3)),
    ("InverseDecayLR", (0.1, 0.5, 3, True)),
    ("CosineDecayLR", (0.01, 0.1, 4)),
    ("PolynomialDecayLR", (0.1, 0.01, 4, 0.5)),
    ("PolynomialDecayLR", (0.1, 0.01, 4, 0.5, True)),
    ("WarmUpLR", (0.1, 4)),
])
def test_schedule_cells_match_mindspore(name, args):
    ms_sched = getattr(mindspore.nn, name)(*args)
    mj_sched = getattr(mindjax.nn, name)(*args)
    for step in range(7):
        want = ms_sched(mindspore.Tensor(np.array([step], np.int32))).asnumpy()
        have = np.asarray(mj_sched(mindjax.Tensor(np.array([step], np.int32))))
        np.testing.assert_allclose(have, want, rtol=1e-6, atol=1e-7, err_msg=f"step {step}")
