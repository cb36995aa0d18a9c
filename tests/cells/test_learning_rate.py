"""Learning-rate lists and schedule Cells: values, both modes, argument errors."""
import math

import numpy as np
import pytest

import mindjax as ms
from mindjax import nn


def test_piecewise_constant_lr_repeats_each_rate_until_its_milestone():
    assert nn.piecewise_constant_lr([2, 5], [0.1, 0.05]) == [0.1, 0.1, 0.05, 0.05, 0.05]


def test_decay_lists_follow_mindspore_formulas():
    assert nn.exponential_decay_lr(0.1, 0.5, 4, 1, 2) == pytest.approx([0.1 * 0.5 ** (i / 2) for i in range(4)])
    assert nn.exponential_decay_lr(0.1, 0.5, 4, 1, 2, True) == pytest.approx([0.1, 0.1, 0.05, 0.05])
    assert nn.natural_exp_decay_lr(0.1, 0.5, 3, 2, 1) == pytest.approx([0.1, 0.1, 0.1 * math.exp(-0.5)])
    assert nn.inverse_decay_lr(0.1, 1.0, 3, 1, 1) == pytest.approx([0.1, 0.05, 0.1 / 3])
    assert nn.cosine_decay_lr(0.0, 0.2, 3, 1, 2) == pytest.approx([0.2, 0.1, 0.0])
    assert nn.polynomial_decay_lr(0.1, 0.0, 3, 1, 2, 1.0) == pytest.approx([0.1, 0.05, 0.0])
    assert nn.warmup_lr(0.2, 4, 1, 2) == pytest.approx([0.0, 0.1, 0.2, 0.2])


def test_lists_are_python_floats():
    lrs = nn.cosine_decay_lr(0.01, 0.1, 3, 1, 2)
    assert isinstance(lrs, list) and all(isinstance(x, float) for x in lrs)


@pytest.mark.parametrize("sched, expected", [
    (lambda: nn.ExponentialDecayLR(0.1, 0.5, 2), [0.1 * 0.5 ** (s / 2) for s in range(4)]),
    (lambda: nn.ExponentialDecayLR(0.1, 0.5, 2, True), [0.1, 0.1, 0.05, 0.05]),
    (lambda: nn.NaturalExpDecayLR(0.1, 0.5, 2, True), [0.1, 0.1, 0.1 * math.exp(-1.0), 0.1 * math.exp(-1.0)]),
    (lambda: nn.InverseDecayLR(0.1, 1.0, 1), [0.1, 0.05, 0.1 / 3, 0.025]),
    (lambda: nn.CosineDecayLR(0.0, 0.2, 2), [0.2, 0.1, 0.0, 0.0]),
    (lambda: nn.PolynomialDecayLR(0.1, 0.0, 2, 1.0), [0.1, 0.05, 0.0, 0.0]),
    (lambda: nn.PolynomialDecayLR(0.1, 0.0, 2, 1.0, True), [0.1, 0.05, 0.0, 0.025]),
    (lambda: nn.WarmUpLR(0.2, 2), [0.0, 0.1, 0.2, 0.2]),
])
def test_schedule_cells_compute_the_rate_from_the_step(sched, expected, mode):
    cell = sched()
    got = [float(np.asarray(cell(ms.Tensor(np.array([s], np.int32))))[0]) for s in range(4)]
    assert got == pytest.approx(expected, rel=1e-5, abs=1e-7)


def test_schedule_keeps_the_step_shape():
    out = nn.WarmUpLR(0.2, 2)(ms.Tensor(np.array([1], np.int32)))
    assert out.shape == (1,) and out.dtype == np.float32


@pytest.mark.parametrize("build, error, message", [
    (lambda: nn.ExponentialDecayLR(1, 0.9, 2), TypeError, r"For 'ExponentialDecayLR', 'learning_rate' must be a float"),
    (lambda: nn.ExponentialDecayLR(0.1, 0.9, 0), ValueError, r"'decay_steps' must be a positive int, got 0"),
    (lambda: nn.CosineDecayLR(0.2, 0.1, 2), ValueError, r"For 'CosineDecayLR', 'max_lr' must be greater than 'min_lr'"),
    (lambda: nn.WarmUpLR(-0.1, 2), ValueError, r"For 'WarmUpLR', 'learning_rate' must be >= 0"),
    (lambda: nn.PolynomialDecayLR(0.1, 0.0, 2, 0.0), ValueError, r"'power' must be > 0"),
    (lambda: nn.piecewise_constant_lr([2, 1], [0.1, 0.2]), ValueError, r"milestone\[1\] must be >= milestone\[0\]"),
    (lambda: nn.piecewise_constant_lr([2], [0.1, 0.2]), ValueError, r"must have the same length"),
    (lambda: nn.exponential_decay_lr(0.1, 0.9, 0, 1, 1), ValueError, r"'total_step' must be a positive int"),
    (lambda: nn.cosine_decay_lr(0.1, 0.1, 3, 1, 1), ValueError, r"'max_lr' must be greater than 'min_lr'"),
    (lambda: nn.warmup_lr(1, 3, 1, 1), TypeError, r"For 'warmup_lr', 'learning_rate' must be a float"),
    (lambda: nn.natural_exp_decay_lr(0.1, 0.9, 3, 1, 1, is_stair=1), TypeError, r"'is_stair' must be a bool"),
])
def test_bad_arguments_raise_naming_the_schedule(build, error, message):
    with pytest.raises(error, match=message):
        build()
