"""Loss-scale managers: ``FixedLossScaleManager`` and ``DynamicLossScaleManager``.

A manager describes the policy; ``get_update_cell()`` gives the Cell that
applies it inside the compiled step (see
:class:`mindjax.nn.TrainOneStepWithLossScaleCell`). Once ``Model`` has built
its training network, ``get_loss_scale()`` reads the scale the step is using,
without a device sync per step.
"""
from __future__ import annotations

from abc import ABCMeta, abstractmethod

from typing import Any

import numpy as np

from mindjax.cells.wrap.loss_scale import DynamicLossScaleUpdateCell, FixedLossScaleUpdateCell

__all__ = ["LossScaleManager", "FixedLossScaleManager", "DynamicLossScaleManager"]


class LossScaleManager(metaclass=ABCMeta):
    """Base class of loss-scale managers."""

    _scale_source: Any = None

    @abstractmethod
    def get_loss_scale(self) -> float:
        """The current loss scale."""

    @abstractmethod
    def update_loss_scale(self, overflow: bool) -> None:
        """Update the host-side scale after a step (``overflow``: the step overflowed)."""

    @abstractmethod
    def get_update_cell(self) -> Any:
        """The Cell that updates the scale inside the training step, or ``None``."""

    def _bind(self, scale_parameter: Any) -> None:
        """Read the scale from the training step's ``scale_sense`` Parameter from now on."""
        self._scale_source = scale_parameter

    def _bound_scale(self) -> float | None:
        if self._scale_source is None:
            return None
        return float(np.asarray(self._scale_source).reshape(-1)[0])


class FixedLossScaleManager(LossScaleManager):
    """A constant loss scale.

    Arguments:
        loss_scale: the scale (> 1).
        drop_overflow_update: skip the update of steps whose gradients
            overflow (through ``TrainOneStepWithLossScaleCell``); when false
            the scale is passed as ``sens`` and the optimizer must divide by
            it (its ``loss_scale`` argument).
    """

    def __init__(self, loss_scale: float = 128.0, drop_overflow_update: bool = True) -> None:
        if not isinstance(loss_scale, (int, float)) or isinstance(loss_scale, bool) or loss_scale < 1:
            raise ValueError(f"For 'FixedLossScaleManager', 'loss_scale' must be a number >= 1, got {loss_scale!r}")
        if not isinstance(drop_overflow_update, bool):
            raise TypeError(f"For 'FixedLossScaleManager', 'drop_overflow_update' must be a bool, "
                            f"got {drop_overflow_update!r}")
        self._loss_scale = float(loss_scale)
        self._drop_overflow_update = drop_overflow_update

    def get_loss_scale(self) -> float:
        """The scale."""
        return self._loss_scale

    def get_drop_overflow_update(self) -> bool:
        """Whether overflowing steps are skipped."""
        return self._drop_overflow_update

    def update_loss_scale(self, overflow: bool) -> None:
        """A fixed scale does not change."""

    def get_update_cell(self) -> Any:
        """A ``FixedLossScaleUpdateCell``, or ``None`` when overflows are not dropped."""
        if not self._drop_overflow_update:
            return None
        return FixedLossScaleUpdateCell(self._loss_scale)


class DynamicLossScaleManager(LossScaleManager):
    """A scale that halves on overflow and doubles after ``scale_window`` clean steps.

    Arguments:
        init_loss_scale: the initial scale.
        scale_factor: the factor to lower or raise the scale by (> 1).
        scale_window: clean steps before the scale is raised.
    """

    def __init__(self, init_loss_scale: float = 2 ** 24, scale_factor: int = 2, scale_window: int = 2000) -> None:
        if not isinstance(init_loss_scale, (int, float)) or init_loss_scale < 1:
            raise ValueError(f"For 'DynamicLossScaleManager', 'init_loss_scale' must be >= 1, "
                             f"got {init_loss_scale!r}")
        if not isinstance(scale_factor, (int, float)) or scale_factor <= 1:
            raise ValueError(f"For 'DynamicLossScaleManager', 'scale_factor' must be > 1, got {scale_factor!r}")
        if not isinstance(scale_window, int) or isinstance(scale_window, bool) or scale_window <= 0:
            raise ValueError(f"For 'DynamicLossScaleManager', 'scale_window' must be a positive int, "
                             f"got {scale_window!r}")
        self.loss_scale = float(init_loss_scale)
        self.scale_factor = scale_factor
        self.scale_window = scale_window
        self.increase_ratio = scale_factor
        self.decrease_ratio = 1 / scale_factor
        self.cur_iter = 1
        self.last_overflow_iter = 0
        self.bad_step_max = 1000
        self.bad_step = 0

    def get_loss_scale(self) -> float:
        """The current scale (read from the training step once ``Model`` has built it)."""
        bound = self._bound_scale()
        return self.loss_scale if bound is None else bound

    def update_loss_scale(self, overflow: bool) -> None:
        """MindSpore's host-side rule, for loops that do not use the update Cell."""
        if overflow:
            self.loss_scale = max(self.loss_scale * self.decrease_ratio, 1)
            self.last_overflow_iter = self.cur_iter
            self.bad_step += 1
        else:
            if (self.cur_iter - self.last_overflow_iter) % self.scale_window == 0:
                self.loss_scale *= self.increase_ratio
            self.bad_step = 0
        if self.bad_step > self.bad_step_max:
            raise RuntimeError(f"Dynamic loss scale: {self.bad_step} consecutive overflowing steps, the maximum "
                               f"is {self.bad_step_max}")
        self.cur_iter += 1

    def get_drop_overflow_update(self) -> bool:
        """Overflowing steps are always skipped."""
        return True

    def get_update_cell(self) -> DynamicLossScaleUpdateCell:
        """The ``DynamicLossScaleUpdateCell`` applying this policy inside the step."""
        return DynamicLossScaleUpdateCell(self.loss_scale, self.scale_factor, self.scale_window)
