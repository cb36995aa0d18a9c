"""``mindspore.experimental.optim.lr_scheduler``: PyTorch-style learning-rate schedulers.

A scheduler changes the ``lr`` Parameter of each of its optimizer's ``param_groups``
when ``step()`` is called; ``get_last_lr()`` returns the current rates. Its own state
(``last_epoch`` and the like) is held in Parameters and every rule is written with
array operations, so ``step()`` also works inside a compiled ``construct`` (GRAPH
mode), where the Parameters it changes are written back after each call.

Example:
    >>> from mindjax import nn
    >>> from mindjax.experimental import optim
    >>> opt = optim.SGD(nn.Dense(2, 1).trainable_params(), lr=0.1)
    >>> sched = optim.lr_scheduler.StepLR(opt, step_size=2, gamma=0.5)
    >>> rates = []
    >>> for _ in range(4):
    ...     sched.step()
    ...     rates.append(round(float(sched.get_last_lr()[0]), 4))
    >>> rates
    [0.1, 0.05, 0.05, 0.025]
"""
from __future__ import annotations

import bisect
import math
from typing import Any, Callable, Sequence

import jax
import jax.numpy as jnp

from mindjax.cells.parameter import Parameter
from mindjax.common.tensor import as_array
from mindjax.experimental.optim.optimizer import Optimizer
from mindjax.ops.functional import assign

__all__ = ["LRScheduler", "StepLR", "LinearLR", "ExponentialLR", "PolynomialLR", "MultiplicativeLR", "ConstantLR",
           "MultiStepLR", "LambdaLR", "SequentialLR", "ReduceLROnPlateau", "CyclicLR", "CosineAnnealingWarmRestarts",
           "CosineAnnealingLR"]


def _check_optimizer(who: str, optimizer: Any) -> None:
    if not isinstance(optimizer, Optimizer):
        raise TypeError(f"For '{who}', 'optimizer' must be an experimental.optim.Optimizer, got "
                        f"{type(optimizer).__name__}")


def _f32(x: Any) -> jax.Array:
    return jnp.asarray(as_array(x) if hasattr(x, "shape") else x, jnp.float32)


class LRScheduler:
    """Base of the schedulers: holds the optimizer, ``base_lrs`` and the epoch counter.

    Arguments:
        optimizer: an ``experimental.optim`` optimizer.
        last_epoch: the index of the last epoch; ``-1`` starts from the groups' current ``lr``.

    Subclasses define ``get_lr()`` (the new rates from the current ones, PyTorch's
    chainable form) and may define ``_get_closed_form_lr()`` (the rates at
    ``last_epoch`` from ``base_lrs``), used by ``step(epoch)``.

    Raises:
        TypeError: ``optimizer`` is not an experimental optimizer, or ``last_epoch`` not an int.
        KeyError: ``last_epoch != -1`` but a group has no ``initial_lr``.
    """

    def __init__(self, optimizer: Optimizer, last_epoch: int = -1) -> None:
        _check_optimizer(type(self).__name__, optimizer)
        if isinstance(last_epoch, bool) or not isinstance(last_epoch, int) or last_epoch < -1:
            raise TypeError(f"For '{type(self).__name__}', 'last_epoch' must be an int >= -1, got {last_epoch!r}")
        self.optimizer = optimizer
        if last_epoch == -1:
            for group in optimizer.param_groups:
                group.setdefault("initial_lr", float(as_array(group["lr"])))
        else:
            for i, group in enumerate(optimizer.param_groups):
                if "initial_lr" not in group:
                    raise KeyError(f"For '{type(self).__name__}', param 'initial_lr' is not specified in "
                                   f"param_groups[{i}] when resuming an optimizer")
        self.base_lrs = [float(group["initial_lr"]) for group in optimizer.param_groups]
        self.last_epoch = Parameter(jnp.asarray(last_epoch, jnp.int32), name="last_epoch", requires_grad=False)
        self._initial_step()

    def _initial_step(self) -> None:
        self.step()

    def _lrs(self) -> list[jax.Array]:
        return [_f32(group["lr"]) for group in self.optimizer.param_groups]

    def _epoch(self) -> jax.Array:
        return _f32(self.last_epoch)

    def get_lr(self) -> list[Any]:
        """The new rates, computed from the current ones (defined by each scheduler)."""
        raise NotImplementedError(f"For '{type(self).__name__}', get_lr() is not defined")

    def get_last_lr(self) -> list[jax.Array]:
        """The current learning rate of each parameter group."""
        return [as_array(group["lr"]) for group in self.optimizer.param_groups]

    def _write(self, values: Sequence[Any]) -> None:
        for group, value in zip(self.optimizer.param_groups, values):
            assign(group["lr"], _f32(value))

    def step(self, epoch: Any = None) -> None:
        """Advance one epoch (or jump to ``epoch``) and write the new rates into the optimizer."""
        if epoch is None:
            assign(self.last_epoch, as_array(self.last_epoch) + 1)
            values = self.get_lr()
        else:
            assign(self.last_epoch, jnp.asarray(epoch, jnp.int32))
            closed = getattr(self, "_get_closed_form_lr", None)
            values = closed() if closed is not None else self.get_lr()
        self._write(values)


class StepLR(LRScheduler):
    """Multiply the rate by ``gamma`` every ``step_size`` epochs."""

    def __init__(self, optimizer: Optimizer, step_size: int, gamma: float = 0.1, last_epoch: int = -1) -> None:
        if isinstance(step_size, bool) or not isinstance(step_size, int) or step_size < 1:
            raise ValueError(f"For 'StepLR', 'step_size' must be a positive int, got {step_size!r}")
        self.step_size, self.gamma = step_size, float(gamma)
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[Any]:
        e = as_array(self.last_epoch)
        hit = (e != 0) & (e % self.step_size == 0)
        return [jnp.where(hit, lr * self.gamma, lr) for lr in self._lrs()]

    def _get_closed_form_lr(self) -> list[Any]:
        k = (as_array(self.last_epoch) // self.step_size).astype(jnp.float32)
        return [base * self.gamma ** k for base in self.base_lrs]


class MultiStepLR(LRScheduler):
    """Multiply the rate by ``gamma`` at each epoch in ``milestones`` (repeated milestones compound)."""

    def __init__(self, optimizer: Optimizer, milestones: Sequence[int], gamma: float = 0.1,
                 last_epoch: int = -1) -> None:
        if not isinstance(milestones, (list, tuple)) or not all(isinstance(m, int) for m in milestones):
            raise TypeError(f"For 'MultiStepLR', 'milestones' must be a list of ints, got {milestones!r}")
        self.milestones = sorted(milestones)
        self.gamma = float(gamma)
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[Any]:
        e = as_array(self.last_epoch)
        count = sum((e == m).astype(jnp.float32) for m in self.milestones) if self.milestones else 0.0
        return [lr * self.gamma ** count for lr in self._lrs()]

    def _get_closed_form_lr(self) -> list[Any]:
        e = as_array(self.last_epoch)
        passed = sum((m <= e).astype(jnp.float32) for m in self.milestones) if self.milestones else 0.0
        return [base * self.gamma ** passed for base in self.base_lrs]


class ConstantLR(LRScheduler):
    """Scale the rate by ``factor`` until epoch ``total_iters``, then restore it."""

    def __init__(self, optimizer: Optimizer, factor: float = 1.0 / 3, total_iters: int = 5,
                 last_epoch: int = -1) -> None:
        if not 0 < factor <= 1:
            raise ValueError(f"For 'ConstantLR', 'factor' must be in (0, 1], got {factor!r}")
        self.factor, self.total_iters = float(factor), int(total_iters)
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[Any]:
        e = as_array(self.last_epoch)
        return [jnp.where(e == 0, lr * self.factor, jnp.where(e == self.total_iters, lr / self.factor, lr))
                for lr in self._lrs()]

    def _get_closed_form_lr(self) -> list[Any]:
        e = as_array(self.last_epoch)
        return [base * jnp.where(e >= self.total_iters, 1.0, self.factor) for base in self.base_lrs]


class LinearLR(LRScheduler):
    """Scale the rate linearly from ``start_factor`` to ``end_factor`` over ``total_iters`` epochs."""

    def __init__(self, optimizer: Optimizer, start_factor: float = 1.0 / 3, end_factor: float = 1.0,
                 total_iters: int = 5, last_epoch: int = -1) -> None:
        if not 0 < start_factor <= 1:
            raise ValueError(f"For 'LinearLR', 'start_factor' must be in (0, 1], got {start_factor!r}")
        if not 0 <= end_factor <= 1:
            raise ValueError(f"For 'LinearLR', 'end_factor' must be in [0, 1], got {end_factor!r}")
        self.start_factor, self.end_factor, self.total_iters = float(start_factor), float(end_factor), int(total_iters)
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[Any]:
        e = self._epoch()
        s, t, d = self.start_factor, self.total_iters, self.end_factor - self.start_factor
        ratio = 1.0 + d / (t * s + (e - 1.0) * d)
        return [jnp.where(e == 0, lr * s, jnp.where(e > t, lr, lr * ratio)) for lr in self._lrs()]

    def _get_closed_form_lr(self) -> list[Any]:
        e = jnp.minimum(self._epoch(), self.total_iters)
        factor = self.start_factor + (self.end_factor - self.start_factor) * e / self.total_iters
        return [base * factor for base in self.base_lrs]


class ExponentialLR(LRScheduler):
    """Multiply the rate by ``gamma`` every epoch."""

    def __init__(self, optimizer: Optimizer, gamma: float, last_epoch: int = -1) -> None:
        self.gamma = float(gamma)
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[Any]:
        e = as_array(self.last_epoch)
        return [jnp.where(e == 0, lr, lr * self.gamma) for lr in self._lrs()]

    def _get_closed_form_lr(self) -> list[Any]:
        return [base * self.gamma ** self._epoch() for base in self.base_lrs]


class PolynomialLR(LRScheduler):
    """Decay the rate to 0 over ``total_iters`` epochs as ``(1 - epoch / total_iters) ** power``."""

    def __init__(self, optimizer: Optimizer, total_iters: int = 5, power: float = 1.0, last_epoch: int = -1) -> None:
        self.total_iters, self.power = int(total_iters), float(power)
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[Any]:
        e, t = self._epoch(), float(self.total_iters)
        factor = ((1.0 - e / t) / jnp.maximum(1.0 - (e - 1.0) / t, 1e-30)) ** self.power
        return [jnp.where((e == 0) | (e > t), lr, lr * factor) for lr in self._lrs()]

    def _get_closed_form_lr(self) -> list[Any]:
        e = jnp.minimum(self._epoch(), self.total_iters)
        return [base * (1.0 - e / self.total_iters) ** self.power for base in self.base_lrs]


def _lambdas(who: str, lr_lambda: Any, n: int) -> list[Callable[[Any], Any]]:
    fns = list(lr_lambda) if isinstance(lr_lambda, (list, tuple)) else [lr_lambda] * n
    if len(fns) != n:
        raise ValueError(f"For '{who}', expected {n} lr_lambdas (one per param group), got {len(fns)}")
    if not all(callable(f) for f in fns):
        raise TypeError(f"For '{who}', 'lr_lambda' must be a function or a list of functions")
    return fns


class LambdaLR(LRScheduler):
    """Set the rate to ``base_lr * lr_lambda(epoch)`` (one function, or one per group)."""

    def __init__(self, optimizer: Optimizer, lr_lambda: Any, last_epoch: int = -1) -> None:
        _check_optimizer("LambdaLR", optimizer)
        self.lr_lambdas = _lambdas("LambdaLR", lr_lambda, len(optimizer.param_groups))
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[Any]:
        e = as_array(self.last_epoch)
        return [base * fn(e) for base, fn in zip(self.base_lrs, self.lr_lambdas)]


class MultiplicativeLR(LRScheduler):
    """Multiply the rate by ``lr_lambda(epoch)`` every epoch after the first."""

    def __init__(self, optimizer: Optimizer, lr_lambda: Any, last_epoch: int = -1) -> None:
        _check_optimizer("MultiplicativeLR", optimizer)
        self.lr_lambdas = _lambdas("MultiplicativeLR", lr_lambda, len(optimizer.param_groups))
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[Any]:
        e = as_array(self.last_epoch)
        return [jnp.where(e > 0, lr * fn(e), lr) for lr, fn in zip(self._lrs(), self.lr_lambdas)]


class CosineAnnealingLR(LRScheduler):
    """Cosine annealing between the base rate and ``eta_min`` with half-period ``T_max``."""

    def __init__(self, optimizer: Optimizer, T_max: int, eta_min: float = 0.0,  # noqa: N803
                 last_epoch: int = -1) -> None:
        self.T_max, self.eta_min = int(T_max), float(eta_min)
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[Any]:
        e, t, lo = self._epoch(), float(self.T_max), self.eta_min
        restart = jnp.mod(e - 1.0 - t, 2.0 * t) == 0
        out = []
        for lr, base in zip(self._lrs(), self.base_lrs):
            bump = lr + (base - lo) * (1.0 - math.cos(math.pi / t)) / 2.0
            ratio = (1.0 + jnp.cos(jnp.pi * e / t)) / (1.0 + jnp.cos(jnp.pi * (e - 1.0) / t))
            out.append(jnp.where(e == 0, lr, jnp.where(restart, bump, ratio * (lr - lo) + lo)))
        return out

    def _get_closed_form_lr(self) -> list[Any]:
        e = self._epoch()
        return [self.eta_min + (base - self.eta_min) * (1.0 + jnp.cos(jnp.pi * e / self.T_max)) / 2.0
                for base in self.base_lrs]


class CyclicLR(LRScheduler):
    """Cycle the rate between ``base_lr`` and ``max_lr`` (modes ``triangular``, ``triangular2``, ``exp_range``)."""

    def __init__(self, optimizer: Optimizer, base_lr: Any, max_lr: Any, step_size_up: int = 2000,
                 step_size_down: int | None = None, mode: str = "triangular", gamma: float = 1.0,
                 scale_fn: Callable[[Any], Any] | None = None, scale_mode: str = "cycle",
                 last_epoch: int = -1) -> None:
        _check_optimizer("CyclicLR", optimizer)
        n = len(optimizer.param_groups)
        base_lrs = list(base_lr) if isinstance(base_lr, (list, tuple)) else [base_lr] * n
        self.max_lrs = [float(v) for v in (list(max_lr) if isinstance(max_lr, (list, tuple)) else [max_lr] * n)]
        if len(base_lrs) != n or len(self.max_lrs) != n:
            raise ValueError(f"For 'CyclicLR', expected {n} values of base_lr and max_lr, one per param group")
        if mode not in ("triangular", "triangular2", "exp_range") and scale_fn is None:
            raise ValueError(f"For 'CyclicLR', 'mode' must be 'triangular', 'triangular2' or 'exp_range', got {mode!r}")
        if last_epoch == -1:
            for group, lr in zip(optimizer.param_groups, base_lrs):
                assign(group["lr"], _f32(float(lr)))
                group["initial_lr"] = float(lr)
        up = float(step_size_up)
        down = float(step_size_down) if step_size_down is not None else up
        self.total_size = up + down
        self.step_ratio = up / self.total_size
        self.mode, self.gamma = mode, float(gamma)
        if scale_fn is None:
            self._scale_fn = {"triangular": lambda x: 1.0, "triangular2": lambda x: 1.0 / (2.0 ** (x - 1.0)),
                              "exp_range": lambda x: self.gamma ** x}[mode]
            self.scale_mode = "iterations" if mode == "exp_range" else "cycle"
        else:
            self._scale_fn, self.scale_mode = scale_fn, scale_mode
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[Any]:
        e = self._epoch()
        cycle = jnp.floor(1.0 + e / self.total_size)
        x = 1.0 + e / self.total_size - cycle
        scale = jnp.where(x <= self.step_ratio, x / self.step_ratio, (x - 1.0) / (self.step_ratio - 1.0))
        at = cycle if self.scale_mode == "cycle" else e
        return [base + (top - base) * scale * self._scale_fn(at) for base, top in zip(self.base_lrs, self.max_lrs)]


class CosineAnnealingWarmRestarts(LRScheduler):
    """Cosine annealing restarted every ``T_i`` epochs, ``T_i`` growing by ``T_mult`` after each restart."""

    def __init__(self, optimizer: Optimizer, T_0: int, T_mult: int = 1, eta_min: float = 0.0,  # noqa: N803
                 last_epoch: int = -1) -> None:
        if isinstance(T_0, bool) or not isinstance(T_0, int) or T_0 <= 0:
            raise ValueError(f"For 'CosineAnnealingWarmRestarts', 'T_0' must be a positive int, got {T_0!r}")
        if isinstance(T_mult, bool) or not isinstance(T_mult, int) or T_mult < 1:
            raise ValueError(f"For 'CosineAnnealingWarmRestarts', 'T_mult' must be an int >= 1, got {T_mult!r}")
        self.T_0, self.T_mult, self.eta_min = T_0, T_mult, float(eta_min)
        self.T_i = Parameter(jnp.asarray(float(T_0), jnp.float32), name="T_i", requires_grad=False)
        self.T_cur = Parameter(jnp.asarray(float(last_epoch), jnp.float32), name="T_cur", requires_grad=False)
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[Any]:
        t_cur, t_i = _f32(self.T_cur), _f32(self.T_i)
        return [self.eta_min + (base - self.eta_min) * (1.0 + jnp.cos(jnp.pi * t_cur / t_i)) / 2.0
                for base in self.base_lrs]

    def step(self, epoch: Any = None) -> None:
        """Advance one epoch, or set the (possibly fractional) ``epoch``."""
        if epoch is None:
            assign(self.last_epoch, as_array(self.last_epoch) + 1)
            t_cur, t_i = _f32(self.T_cur) + 1.0, _f32(self.T_i)
            wrap = t_cur >= t_i
            assign(self.T_cur, jnp.where(wrap, t_cur - t_i, t_cur))
            assign(self.T_i, jnp.where(wrap, t_i * self.T_mult, t_i))
        else:
            e = _f32(epoch)
            if self.T_mult == 1:
                t_cur, t_i = jnp.where(e >= self.T_0, jnp.mod(e, self.T_0), e), jnp.asarray(float(self.T_0))
            else:
                m = float(self.T_mult)
                n = jnp.floor(jnp.log(e / self.T_0 * (m - 1.0) + 1.0) / jnp.log(m))
                t_cur = jnp.where(e >= self.T_0, e - self.T_0 * (m ** n - 1.0) / (m - 1.0), e)
                t_i = jnp.where(e >= self.T_0, self.T_0 * m ** n, float(self.T_0))
            assign(self.T_cur, t_cur)
            assign(self.T_i, t_i)
            assign(self.last_epoch, jnp.floor(e).astype(jnp.int32))
        self._write(self.get_lr())


class SequentialLR(LRScheduler):
    """Run ``schedulers`` one after another, switching at each epoch of ``milestones``.

    The switch is decided in Python on the epoch counter, so this scheduler steps in
    PYNATIVE mode (as MindSpore's does).
    """

    def __init__(self, optimizer: Optimizer, schedulers: Sequence[LRScheduler], milestones: Sequence[int],
                 last_epoch: int = -1) -> None:
        _check_optimizer("SequentialLR", optimizer)
        schedulers = list(schedulers)
        if not schedulers:
            raise ValueError("For 'SequentialLR', 'schedulers' must not be empty")
        for i, s in enumerate(schedulers):
            if not isinstance(s, LRScheduler) or s.optimizer is not optimizer:
                raise ValueError(f"For 'SequentialLR', schedulers[{i}] must be a scheduler of the same optimizer")
        if len(milestones) != len(schedulers) - 1:
            raise ValueError(f"For 'SequentialLR', expected {len(schedulers) - 1} milestones, got {len(milestones)}")
        self.optimizer = optimizer
        self._schedulers = schedulers
        self._milestones = [int(m) for m in milestones]
        self.base_lrs = [float(g["initial_lr"]) for g in optimizer.param_groups]
        self.last_epoch = Parameter(jnp.asarray(last_epoch + 1, jnp.int32), name="last_epoch", requires_grad=False)
        # undo the initial steps of the schedulers and start the first one again
        self._write(self.base_lrs)
        for s in schedulers:
            assign(s.last_epoch, as_array(s.last_epoch) - 1)
        schedulers[0]._initial_step()

    def step(self) -> None:  # type: ignore[override]
        """Advance one epoch in the scheduler whose turn it is."""
        value = as_array(self.last_epoch)
        if isinstance(value, jax.core.Tracer):
            raise RuntimeError("For 'SequentialLR', step() chooses its scheduler in Python; call it in PYNATIVE "
                               "mode, outside compiled code")
        epoch = int(value) + 1
        assign(self.last_epoch, jnp.asarray(epoch, jnp.int32))
        idx = bisect.bisect_right(self._milestones, epoch)
        scheduler = self._schedulers[idx]
        if idx > 0 and self._milestones[idx - 1] == epoch:
            scheduler.step(0)
        else:
            scheduler.step()


class ReduceLROnPlateau:
    """Reduce the rate by ``factor`` when a metric has stopped improving for ``patience`` steps.

    Arguments:
        optimizer: an ``experimental.optim`` optimizer.
        mode: ``'min'`` (lower is better) or ``'max'``.
        factor: the multiplier (< 1). patience: steps without improvement tolerated.
        threshold, threshold_mode: what counts as an improvement (``'rel'`` or ``'abs'``).
        cooldown: steps to wait after a reduction. min_lr: a floor (one value or one per group).
        eps: reductions smaller than this are skipped.
    """

    def __init__(self, optimizer: Optimizer, mode: str = "min", factor: float = 0.1, patience: int = 10,
                 threshold: float = 1e-4, threshold_mode: str = "rel", cooldown: int = 0, min_lr: Any = 0,
                 eps: float = 1e-8) -> None:
        _check_optimizer("ReduceLROnPlateau", optimizer)
        if factor >= 1.0:
            raise ValueError(f"For 'ReduceLROnPlateau', 'factor' must be < 1.0, got {factor!r}")
        if mode not in ("min", "max"):
            raise ValueError(f"For 'ReduceLROnPlateau', 'mode' must be 'min' or 'max', got {mode!r}")
        if threshold_mode not in ("rel", "abs"):
            raise ValueError(f"For 'ReduceLROnPlateau', 'threshold_mode' must be 'rel' or 'abs', "
                             f"got {threshold_mode!r}")
        n = len(optimizer.param_groups)
        self.min_lrs = [float(v) for v in (list(min_lr) if isinstance(min_lr, (list, tuple)) else [min_lr] * n)]
        if len(self.min_lrs) != n:
            raise ValueError(f"For 'ReduceLROnPlateau', expected {n} min_lr values, got {len(self.min_lrs)}")
        self.optimizer = optimizer
        self.mode, self.factor, self.patience = mode, float(factor), int(patience)
        self.threshold, self.threshold_mode = float(threshold), threshold_mode
        self.cooldown, self.eps = int(cooldown), eps
        worst = math.inf if mode == "min" else -math.inf
        self.best = Parameter(jnp.asarray(worst, jnp.float32), name="best", requires_grad=False)
        self.num_bad_epochs = Parameter(jnp.asarray(0, jnp.int32), name="num_bad_epochs", requires_grad=False)
        self.cooldown_counter = Parameter(jnp.asarray(0, jnp.int32), name="cooldown_counter", requires_grad=False)
        self.last_epoch = Parameter(jnp.asarray(0, jnp.int32), name="last_epoch", requires_grad=False)

    def _better(self, current: jax.Array, best: jax.Array) -> jax.Array:
        if self.mode == "min":
            edge = best * (1.0 - self.threshold) if self.threshold_mode == "rel" else best - self.threshold
            return current < edge
        edge = best * (1.0 + self.threshold) if self.threshold_mode == "rel" else best + self.threshold
        return current > edge

    def step(self, metrics: Any) -> None:
        """Record ``metrics`` for this step and reduce the rates if it has not improved for too long."""
        current = _f32(metrics)
        assign(self.last_epoch, as_array(self.last_epoch) + 1)
        best = _f32(self.best)
        better = self._better(current, best)
        assign(self.best, jnp.where(better, current, best))
        bad = jnp.where(better, 0, as_array(self.num_bad_epochs) + 1)
        cooling = as_array(self.cooldown_counter) > 0
        counter = jnp.where(cooling, as_array(self.cooldown_counter) - 1, as_array(self.cooldown_counter))
        bad = jnp.where(cooling, 0, bad)
        reduce = bad > self.patience
        for group, floor in zip(self.optimizer.param_groups, self.min_lrs):
            old = _f32(group["lr"])
            new = jnp.maximum(old * self.factor, floor)
            assign(group["lr"], jnp.where(reduce & (old - new > self.eps), new, old))
        assign(self.cooldown_counter, jnp.where(reduce, self.cooldown, counter))
        assign(self.num_bad_epochs, jnp.where(reduce, 0, bad))

    def get_last_lr(self) -> list[jax.Array]:
        """The current learning rate of each parameter group."""
        return [as_array(group["lr"]) for group in self.optimizer.param_groups]
