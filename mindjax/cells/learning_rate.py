"""Learning-rate schedules: MindSpore's ``dynamic_lr`` lists and ``LearningRateSchedule`` Cells.

The ``*_lr`` functions return a Python list with one learning rate per step,
as MindSpore's ``mindspore.nn.dynamic_lr`` does; pass the list to an
optimizer and it takes element ``global_step`` at every step. The
:class:`LearningRateSchedule` Cells compute the rate from the step inside the
compiled program instead.

Example:
    >>> from mindjax import nn
    >>> nn.piecewise_constant_lr([2, 5], [0.1, 0.05])
    [0.1, 0.1, 0.05, 0.05, 0.05]
    >>> sched = nn.CosineDecayLR(0.01, 0.1, 4)
    >>> opt = nn.Momentum(net.trainable_params(), sched, 0.9)   # doctest: +SKIP
"""
from __future__ import annotations

import math
from typing import Any, Sequence

import jax.numpy as jnp

from mindjax.cells.cell import Cell

__all__ = ["piecewise_constant_lr", "exponential_decay_lr", "natural_exp_decay_lr",
           "inverse_decay_lr", "cosine_decay_lr", "polynomial_decay_lr", "warmup_lr",
           "LearningRateSchedule", "ExponentialDecayLR", "NaturalExpDecayLR", "InverseDecayLR",
           "CosineDecayLR", "PolynomialDecayLR", "WarmUpLR"]


# -- argument checks (MindSpore's error types: TypeError for a wrong type, ValueError for a value) --

def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_positive_int(value: Any, name: str, where: str) -> None:
    if not _is_int(value):
        raise TypeError(f"For '{where}', '{name}' must be an int, got {type(value).__name__} {value!r}")
    if value <= 0:
        raise ValueError(f"For '{where}', '{name}' must be a positive int, got {value}")


def _check_float(value: Any, name: str, where: str, allow_zero: bool) -> None:
    if not isinstance(value, float):
        raise TypeError(f"For '{where}', '{name}' must be a float, got {type(value).__name__} {value!r}")
    if value < 0.0 or (value == 0.0 and not allow_zero):
        bound = ">= 0" if allow_zero else "> 0"
        raise ValueError(f"For '{where}', '{name}' must be {bound}, got {value}")


def _check_bool(value: Any, name: str, where: str) -> None:
    if not isinstance(value, bool):
        raise TypeError(f"For '{where}', '{name}' must be a bool, got {type(value).__name__} {value!r}")


def _check_decay_inputs(learning_rate: Any, decay_rate: Any, total_step: Any, step_per_epoch: Any,
                        decay_epoch: Any, is_stair: Any, where: str) -> None:
    _check_positive_int(total_step, "total_step", where)
    _check_positive_int(step_per_epoch, "step_per_epoch", where)
    _check_positive_int(decay_epoch, "decay_epoch", where)
    _check_float(learning_rate, "learning_rate", where, allow_zero=False)
    _check_float(decay_rate, "decay_rate", where, allow_zero=False)
    _check_bool(is_stair, "is_stair", where)


# -- per-step lists ------------------------------------------------------------------

def piecewise_constant_lr(milestone: Sequence[int], learning_rates: Sequence[float]) -> list[float]:
    """A constant rate per interval: ``learning_rates[i]`` until step ``milestone[i]``.

    Arguments:
        milestone: increasing positive step counts; the last is the list's length.
        learning_rates: one float per milestone.

    Returns:
        a list of ``milestone[-1]`` learning rates.
    """
    where = "piecewise_constant_lr"
    if not isinstance(milestone, (tuple, list)):
        raise TypeError(f"For '{where}', 'milestone' must be a list or tuple, got {type(milestone).__name__}")
    if not isinstance(learning_rates, (tuple, list)):
        raise TypeError(f"For '{where}', 'learning_rates' must be a list or tuple, "
                        f"got {type(learning_rates).__name__}")
    if len(milestone) != len(learning_rates):
        raise ValueError(f"For '{where}', 'milestone' and 'learning_rates' must have the same length, "
                         f"got {len(milestone)} and {len(learning_rates)}")
    out: list[float] = []
    last = 0
    for i, item in enumerate(milestone):
        _check_positive_int(item, f"milestone[{i}]", where)
        if not isinstance(learning_rates[i], float):
            raise TypeError(f"For '{where}', 'learning_rates[{i}]' must be a float, "
                            f"got {type(learning_rates[i]).__name__}")
        if item < last:
            raise ValueError(f"For '{where}', milestone[{i}] must be >= milestone[{i - 1}], "
                             f"got {item} after {last}")
        out += [learning_rates[i]] * (item - last)
        last = item
    return out


def exponential_decay_lr(learning_rate: float, decay_rate: float, total_step: int, step_per_epoch: int,
                         decay_epoch: int, is_stair: bool = False) -> list[float]:
    """``learning_rate * decay_rate ** (epoch / decay_epoch)`` per step (floored when ``is_stair``).

    Arguments:
        learning_rate: the initial rate (> 0).
        decay_rate: the decay factor (> 0).
        total_step, step_per_epoch, decay_epoch: positive ints.
        is_stair: decay in whole ``decay_epoch`` steps.

    Returns:
        a list of ``total_step`` learning rates.
    """
    _check_decay_inputs(learning_rate, decay_rate, total_step, step_per_epoch, decay_epoch, is_stair,
                        "exponential_decay_lr")
    out = []
    for i in range(total_step):
        epoch = math.floor(i / step_per_epoch)
        p = math.floor(epoch / decay_epoch) if is_stair else epoch / decay_epoch
        out.append(learning_rate * decay_rate ** p)
    return out


def natural_exp_decay_lr(learning_rate: float, decay_rate: float, total_step: int, step_per_epoch: int,
                         decay_epoch: int, is_stair: bool = False) -> list[float]:
    """``learning_rate * e ** (-decay_rate * epoch)`` per step (epoch floored to ``decay_epoch`` when stair).

    Arguments:
        learning_rate: the initial rate (> 0).
        decay_rate: the decay rate (> 0).
        total_step, step_per_epoch, decay_epoch: positive ints.
        is_stair: hold the rate for ``decay_epoch`` epochs.

    Returns:
        a list of ``total_step`` learning rates.
    """
    _check_decay_inputs(learning_rate, decay_rate, total_step, step_per_epoch, decay_epoch, is_stair,
                        "natural_exp_decay_lr")
    out = []
    for i in range(total_step):
        epoch = math.floor(i / step_per_epoch)
        if is_stair:
            epoch = math.floor(epoch / decay_epoch) * decay_epoch
        out.append(learning_rate * math.e ** (-decay_rate * epoch))
    return out


def inverse_decay_lr(learning_rate: float, decay_rate: float, total_step: int, step_per_epoch: int,
                     decay_epoch: int, is_stair: bool = False) -> list[float]:
    """``learning_rate / (1 + decay_rate * epoch / decay_epoch)`` per step.

    Arguments:
        learning_rate: the initial rate (> 0).
        decay_rate: the decay rate (> 0).
        total_step, step_per_epoch, decay_epoch: positive ints.
        is_stair: floor ``epoch / decay_epoch``.

    Returns:
        a list of ``total_step`` learning rates.
    """
    _check_decay_inputs(learning_rate, decay_rate, total_step, step_per_epoch, decay_epoch, is_stair,
                        "inverse_decay_lr")
    out = []
    for i in range(total_step):
        epoch = math.floor(i / step_per_epoch)
        if is_stair:
            out.append(learning_rate / (1 + decay_rate * math.floor(epoch / decay_epoch)))
        else:
            out.append(learning_rate / (1 + decay_rate * epoch / decay_epoch))
    return out


def cosine_decay_lr(min_lr: float, max_lr: float, total_step: int, step_per_epoch: int,
                    decay_epoch: int) -> list[float]:
    """Cosine decay from ``max_lr`` to ``min_lr`` over ``decay_epoch`` epochs.

    Arguments:
        min_lr: the final rate (>= 0, < ``max_lr``).
        max_lr: the initial rate (> 0).
        total_step, step_per_epoch, decay_epoch: positive ints.

    Returns:
        a list of ``total_step`` learning rates.
    """
    where = "cosine_decay_lr"
    _check_float(min_lr, "min_lr", where, allow_zero=True)
    _check_float(max_lr, "max_lr", where, allow_zero=False)
    _check_positive_int(total_step, "total_step", where)
    _check_positive_int(step_per_epoch, "step_per_epoch", where)
    _check_positive_int(decay_epoch, "decay_epoch", where)
    if min_lr >= max_lr:
        raise ValueError(f"For '{where}', 'max_lr' must be greater than 'min_lr', got max_lr {max_lr}, "
                         f"min_lr {min_lr}")
    delta = 0.5 * (max_lr - min_lr)
    out = []
    for i in range(total_step):
        epoch = min(math.floor(i / step_per_epoch), decay_epoch)
        out.append(min_lr + delta * (1 + math.cos(math.pi * epoch / decay_epoch)))
    return out


def polynomial_decay_lr(learning_rate: float, end_learning_rate: float, total_step: int, step_per_epoch: int,
                        decay_epoch: int, power: float, update_decay_epoch: bool = False) -> list[float]:
    """``(lr - end) * (1 - epoch / decay_epoch) ** power + end`` per step.

    Arguments:
        learning_rate: the initial rate (> 0).
        end_learning_rate: the final rate (>= 0).
        total_step, step_per_epoch, decay_epoch: positive ints.
        power: the polynomial power (> 0).
        update_decay_epoch: past ``decay_epoch``, grow it to the next multiple
            instead of holding ``end_learning_rate``.

    Returns:
        a list of ``total_step`` learning rates.
    """
    where = "polynomial_decay_lr"
    _check_float(learning_rate, "learning_rate", where, allow_zero=False)
    _check_float(end_learning_rate, "end_learning_rate", where, allow_zero=True)
    _check_float(power, "power", where, allow_zero=False)
    _check_positive_int(total_step, "total_step", where)
    _check_positive_int(step_per_epoch, "step_per_epoch", where)
    _check_positive_int(decay_epoch, "decay_epoch", where)
    _check_bool(update_decay_epoch, "update_decay_epoch", where)
    delta = learning_rate - end_learning_rate
    out = []
    for i in range(total_step):
        epoch = math.floor(i / step_per_epoch)
        if update_decay_epoch:
            span = decay_epoch * max(math.ceil(epoch / decay_epoch), 1)
        else:
            span, epoch = decay_epoch, min(epoch, decay_epoch)
        out.append(delta * (1 - epoch / span) ** power + end_learning_rate)
    return out


def warmup_lr(learning_rate: float, total_step: int, step_per_epoch: int, warmup_epoch: int) -> list[float]:
    """Linear warm-up: ``learning_rate * min(epoch, warmup_epoch) / warmup_epoch`` per step.

    Arguments:
        learning_rate: the rate reached after warm-up (>= 0).
        total_step, step_per_epoch, warmup_epoch: positive ints.

    Returns:
        a list of ``total_step`` learning rates.
    """
    where = "warmup_lr"
    _check_float(learning_rate, "learning_rate", where, allow_zero=True)
    _check_positive_int(warmup_epoch, "warmup_epoch", where)
    _check_positive_int(total_step, "total_step", where)
    _check_positive_int(step_per_epoch, "step_per_epoch", where)
    out = []
    for i in range(total_step):
        epoch = min(math.floor(i / step_per_epoch), warmup_epoch)
        out.append(learning_rate * epoch / warmup_epoch)
    return out


# -- schedule Cells --------------------------------------------------------------------

def _step_as_float(global_step: Any) -> Any:
    return jnp.asarray(global_step).astype(jnp.float32)


class LearningRateSchedule(Cell):
    """Base class of learning-rate schedules: ``construct(global_step)`` returns the rate.

    An optimizer given a schedule calls it with its ``global_step`` Parameter
    (shape ``(1,)``, int32) before every update.
    """

    def __init__(self) -> None:
        super().__init__()

    def construct(self, global_step: Any) -> Any:
        """The learning rate at ``global_step``."""
        raise TypeError(f"{self._where()}: a LearningRateSchedule must define construct(global_step)")


def _check_schedule_inputs(learning_rate: Any, decay_rate: Any, decay_steps: Any, is_stair: Any,
                           where: str) -> None:
    _check_positive_int(decay_steps, "decay_steps", where)
    _check_float(learning_rate, "learning_rate", where, allow_zero=False)
    _check_float(decay_rate, "decay_rate", where, allow_zero=False)
    _check_bool(is_stair, "is_stair", where)


class ExponentialDecayLR(LearningRateSchedule):
    """``learning_rate * decay_rate ** (step / decay_steps)`` (exponent floored when ``is_stair``).

    Arguments:
        learning_rate: the initial rate (float > 0).
        decay_rate: the decay factor (float > 0).
        decay_steps: a positive int.
        is_stair: floor the exponent.
    """

    def __init__(self, learning_rate: float, decay_rate: float, decay_steps: int, is_stair: bool = False) -> None:
        super().__init__()
        _check_schedule_inputs(learning_rate, decay_rate, decay_steps, is_stair, type(self).__name__)
        self.learning_rate = learning_rate
        self.decay_rate = decay_rate
        self.decay_steps = decay_steps
        self.is_stair = is_stair

    def construct(self, global_step: Any) -> Any:
        p = _step_as_float(global_step) / self.decay_steps
        if self.is_stair:
            p = jnp.floor(p)
        return self.learning_rate * jnp.power(jnp.float32(self.decay_rate), p)


class NaturalExpDecayLR(LearningRateSchedule):
    """``learning_rate * e ** (-decay_rate * step)`` (step floored to ``decay_steps`` when ``is_stair``).

    Arguments:
        learning_rate: the initial rate (float > 0).
        decay_rate: the decay rate (float > 0).
        decay_steps: a positive int.
        is_stair: hold the rate for ``decay_steps`` steps.
    """

    def __init__(self, learning_rate: float, decay_rate: float, decay_steps: int, is_stair: bool = False) -> None:
        super().__init__()
        _check_schedule_inputs(learning_rate, decay_rate, decay_steps, is_stair, type(self).__name__)
        self.learning_rate = learning_rate
        self.decay_rate = decay_rate
        self.decay_steps = decay_steps
        self.is_stair = is_stair

    def construct(self, global_step: Any) -> Any:
        p = _step_as_float(global_step)
        if self.is_stair:
            p = jnp.floor_divide(p, self.decay_steps) * self.decay_steps
        return self.learning_rate * jnp.power(jnp.float32(math.e), -self.decay_rate * p)


class InverseDecayLR(LearningRateSchedule):
    """``learning_rate / (1 + decay_rate * step / decay_steps)`` (ratio floored when ``is_stair``).

    Arguments:
        learning_rate: the initial rate (float > 0).
        decay_rate: the decay rate (float > 0).
        decay_steps: a positive int.
        is_stair: floor ``step / decay_steps``.
    """

    def __init__(self, learning_rate: float, decay_rate: float, decay_steps: int, is_stair: bool = False) -> None:
        super().__init__()
        _check_schedule_inputs(learning_rate, decay_rate, decay_steps, is_stair, type(self).__name__)
        self.learning_rate = learning_rate
        self.decay_rate = decay_rate
        self.decay_steps = decay_steps
        self.is_stair = is_stair

    def construct(self, global_step: Any) -> Any:
        p = _step_as_float(global_step) / self.decay_steps
        if self.is_stair:
            p = jnp.floor(p)
        return self.learning_rate / (1 + self.decay_rate * p)


class CosineDecayLR(LearningRateSchedule):
    """Cosine decay from ``max_lr`` to ``min_lr`` over ``decay_steps`` steps, then ``min_lr``.

    Arguments:
        min_lr: the final rate (float >= 0).
        max_lr: the initial rate (float > ``min_lr``).
        decay_steps: a positive int.
    """

    def __init__(self, min_lr: float, max_lr: float, decay_steps: int) -> None:
        super().__init__()
        where = type(self).__name__
        _check_float(min_lr, "min_lr", where, allow_zero=True)
        _check_float(max_lr, "max_lr", where, allow_zero=False)
        _check_positive_int(decay_steps, "decay_steps", where)
        if min_lr >= max_lr:
            raise ValueError(f"For '{where}', 'max_lr' must be greater than 'min_lr', got max_lr {max_lr}, "
                             f"min_lr {min_lr}")
        self.min_lr = min_lr
        self.max_lr = max_lr
        self.decay_steps = decay_steps
        self.delta = 0.5 * (max_lr - min_lr)

    def construct(self, global_step: Any) -> Any:
        p = jnp.minimum(jnp.asarray(global_step), self.decay_steps).astype(jnp.float32)
        # MindSpore writes cos(x) as sin(x + pi/2); keep its form for bit-level parity.
        return self.min_lr + self.delta * (1.0 + jnp.sin(math.pi * (p / self.decay_steps + 0.5)))


class PolynomialDecayLR(LearningRateSchedule):
    """``(lr - end) * (1 - step / decay_steps) ** power + end``.

    Arguments:
        learning_rate: the initial rate (float > 0).
        end_learning_rate: the final rate (float >= 0).
        decay_steps: a positive int.
        power: the polynomial power (float > 0).
        update_decay_steps: past ``decay_steps``, grow it to the next multiple
            instead of holding ``end_learning_rate``.
    """

    def __init__(self, learning_rate: float, end_learning_rate: float, decay_steps: int, power: float,
                 update_decay_steps: bool = False) -> None:
        super().__init__()
        where = type(self).__name__
        _check_float(learning_rate, "learning_rate", where, allow_zero=False)
        _check_float(end_learning_rate, "end_learning_rate", where, allow_zero=True)
        _check_positive_int(decay_steps, "decay_steps", where)
        _check_bool(update_decay_steps, "update_decay_steps", where)
        _check_float(power, "power", where, allow_zero=False)
        self.decay_steps = decay_steps
        self.start_learning_rate = learning_rate
        self.end_learning_rate = end_learning_rate
        self.diff_learning_rate = learning_rate - end_learning_rate
        self.power = power
        self.update_decay_steps = update_decay_steps

    def construct(self, global_step: Any) -> Any:
        step = _step_as_float(global_step)
        span: Any = self.decay_steps
        if self.update_decay_steps:
            span = span * jnp.maximum(jnp.ceil(step / span), 1)
        else:
            step = jnp.minimum(step, span)
        p = step / span
        return self.diff_learning_rate * jnp.power(1.0 - p, self.power) + self.end_learning_rate


class WarmUpLR(LearningRateSchedule):
    """Linear warm-up: ``learning_rate * min(step, warmup_steps) / warmup_steps``.

    Arguments:
        learning_rate: the rate after warm-up (float >= 0).
        warmup_steps: a positive int.
    """

    def __init__(self, learning_rate: float, warmup_steps: int) -> None:
        super().__init__()
        where = type(self).__name__
        _check_float(learning_rate, "learning_rate", where, allow_zero=True)
        _check_positive_int(warmup_steps, "warmup_steps", where)
        self.warmup_steps = warmup_steps
        self.learning_rate = learning_rate

    def construct(self, global_step: Any) -> Any:
        pct = jnp.minimum(jnp.asarray(global_step), self.warmup_steps).astype(jnp.float32) / self.warmup_steps
        return self.learning_rate * pct
