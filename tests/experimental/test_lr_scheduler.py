"""experimental.optim: the PyTorch-style optimizers and schedulers (numbers from MindSpore 2.10 / PyTorch)."""
import math

import numpy as np
import pytest

import mindjax as ms
from mindjax import nn
from mindjax.experimental import optim


def _opt(lr=0.1, cls=optim.SGD, **kw):
    net = nn.Dense(3, 2)
    return cls(net.trainable_params(), lr=lr, **kw)


def _run(scheduler, n, *args):
    out = []
    for _ in range(n):
        scheduler.step(*args)
        out.append([float(lr) for lr in scheduler.get_last_lr()])
    return out


@pytest.mark.parametrize("make, expected", [
    (lambda o: optim.lr_scheduler.StepLR(o, step_size=2, gamma=0.1), [0.1, 0.01, 0.01, 0.001]),
    (lambda o: optim.lr_scheduler.MultiStepLR(o, milestones=[2, 4], gamma=0.1), [0.1, 0.01, 0.01, 0.001]),
    (lambda o: optim.lr_scheduler.ConstantLR(o, factor=0.5, total_iters=3), [0.05, 0.05, 0.1, 0.1]),
    (lambda o: optim.lr_scheduler.ExponentialLR(o, gamma=0.5), [0.05, 0.025, 0.0125, 0.00625]),
    (lambda o: optim.lr_scheduler.PolynomialLR(o, total_iters=4), [0.075, 0.05, 0.025, 0.0]),
    (lambda o: optim.lr_scheduler.LinearLR(o, start_factor=0.5, total_iters=2), [0.075, 0.1, 0.1, 0.1]),
    (lambda o: optim.lr_scheduler.CosineAnnealingLR(o, T_max=2), [0.05, 0.0, 0.05, 0.1]),
    (lambda o: optim.lr_scheduler.MultiplicativeLR(o, lr_lambda=lambda e: 0.5), [0.05, 0.025, 0.0125, 0.00625]),
    (lambda o: optim.lr_scheduler.LambdaLR(o, lr_lambda=lambda e: 1.0 / (e + 1)), [0.05, 1 / 30, 0.025, 0.02]),
])
def test_scheduler_rates_follow_pytorch_rules(make, expected):
    sched = make(_opt())
    np.testing.assert_allclose([r[0] for r in _run(sched, 4)], expected, rtol=1e-5, atol=1e-7)


def test_cyclic_lr_starts_at_base_lr_and_climbs():
    opt = _opt()
    sched = optim.lr_scheduler.CyclicLR(opt, base_lr=0.01, max_lr=0.1, step_size_up=4)
    assert float(opt.param_groups[0]["lr"]) == pytest.approx(0.01)
    np.testing.assert_allclose([r[0] for r in _run(sched, 6)], [0.0325, 0.055, 0.0775, 0.1, 0.0775, 0.055], rtol=1e-5)


def test_cosine_warm_restarts_with_fractional_epochs():
    sched = optim.lr_scheduler.CosineAnnealingWarmRestarts(_opt(), 2)
    lrs = [r[0] for r in (_run(sched, 1, e) for e in (0.5, 2.0, 3.0))]
    expected = [0.05 * (1 + math.cos(math.pi * t / 2)) for t in (0.5, 0.0, 1.0)]
    np.testing.assert_allclose([x[0] for x in lrs], expected, rtol=1e-5)


def test_reduce_on_plateau_cuts_after_patience():
    sched = optim.lr_scheduler.ReduceLROnPlateau(_opt(), "min", patience=0)
    out = [r[0] for r in (_run(sched, 1, m) for m in (1, 1.5, 1.8, 0.4, 0.5))]
    np.testing.assert_allclose([x[0] for x in out], [0.1, 0.01, 0.001, 0.001, 0.0001], rtol=1e-5)


def test_sequential_lr_switches_at_milestone():
    opt = _opt()
    s1 = optim.lr_scheduler.ConstantLR(opt, factor=0.1, total_iters=2)
    s2 = optim.lr_scheduler.ExponentialLR(opt, gamma=0.9)
    sched = optim.lr_scheduler.SequentialLR(opt, schedulers=[s1, s2], milestones=[2])
    assert float(opt.param_groups[0]["lr"]) == pytest.approx(0.01)
    np.testing.assert_allclose([r[0] for r in _run(sched, 4)], [0.01, 0.1, 0.09, 0.081], rtol=1e-5)


def test_scheduler_steps_inside_a_graph_mode_cell():
    opt = _opt()
    sched = optim.lr_scheduler.StepLR(opt, step_size=2, gamma=0.1)

    class Step(nn.Cell):
        def construct(self):
            sched.step()
            return sched.get_last_lr()

    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        step = Step()
        out = [float(step()[0]) for _ in range(4)]
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    np.testing.assert_allclose(out, [0.1, 0.01, 0.01, 0.001], rtol=1e-5)


def test_groups_keep_their_own_lr():
    net = nn.Dense(3, 2)
    opt = optim.Adam([{"params": [net.weight]}, {"params": [net.bias], "lr": 1.0}], lr=0.1)
    sched = optim.lr_scheduler.ExponentialLR(opt, gamma=0.5)
    np.testing.assert_allclose(_run(sched, 1)[0], [0.05, 0.5], rtol=1e-6)


def test_sgd_momentum_and_adam_steps():
    p = ms.Parameter(ms.Tensor(np.array([1.0, -2.0], np.float32)), name="p")
    sgd = optim.SGD([p], lr=0.1, momentum=0.9)
    for _ in range(2):
        sgd((ms.Tensor(np.array([1.0, 1.0], np.float32)),))
    # buf: 1, then 0.9 * 1 + 1 = 1.9; p = p - 0.1 * (1 + 1.9)
    np.testing.assert_allclose(p.asnumpy(), [1.0 - 0.29, -2.0 - 0.29], rtol=1e-6)
    q = ms.Parameter(ms.Tensor(np.array([1.0], np.float32)), name="q")
    adam = optim.Adam([q], lr=0.1)
    adam((ms.Tensor(np.array([3.0], np.float32)),))
    np.testing.assert_allclose(q.asnumpy(), [0.9], rtol=1e-5)  # the first Adam step moves by lr
    r = ms.Parameter(ms.Tensor(np.array([1.0], np.float32)), name="r")
    optim.AdamW([r], lr=0.1, weight_decay=0.5)((ms.Tensor(np.array([3.0], np.float32)),))
    np.testing.assert_allclose(r.asnumpy(), [0.95 - 0.1], rtol=1e-5)


def test_bad_arguments_name_the_class_and_argument():
    with pytest.raises(TypeError, match="'optimizer'"):
        optim.lr_scheduler.StepLR(object(), step_size=1)
    with pytest.raises(ValueError, match="StepLR.*step_size"):
        optim.lr_scheduler.StepLR(_opt(), step_size=0)
    with pytest.raises(ValueError, match="ReduceLROnPlateau.*factor"):
        optim.lr_scheduler.ReduceLROnPlateau(_opt(), factor=1.5)
    with pytest.raises(ValueError, match="SGD.*nesterov"):
        _opt(nesterov=True)
    with pytest.raises(ValueError, match="Adam.*betas"):
        _opt(cls=optim.Adam, betas=(1.5, 0.9))
    with pytest.raises(ValueError, match="more than one parameter group"):
        net = nn.Dense(2, 2)
        optim.SGD([{"params": [net.weight]}, {"params": [net.weight]}], lr=0.1)
    with pytest.raises(ValueError, match="expected 2 gradients"):
        opt = _opt()
        opt((ms.Tensor(np.zeros((2, 3), np.float32)),))
