"""``Fbeta`` and ``F1``."""
from __future__ import annotations

import sys
from typing import Any

import numpy as np

from mindjax.train.metrics.metric import Metric, _check_two_inputs, _is_one_hot, rearrange_inputs

__all__ = ["Fbeta", "F1"]


class Fbeta(Metric):
    """``(1 + beta^2) TP / (beta^2 (TP + FN) + TP + FP)`` per class.

    Arguments:
        beta: the weight of recall against precision (> 0).
    """

    def __init__(self, beta: float) -> None:
        super().__init__()
        self.eps = sys.float_info.min
        if not isinstance(beta, (int, float)) or not beta > 0:
            raise ValueError(f"For 'Fbeta', 'beta' must be a number greater than 0, got {beta!r}")
        self.beta = beta
        self.clear()

    def clear(self) -> None:
        """Reset the counts."""
        self._true_positives = 0
        self._actual_positives = 0
        self._positives = 0
        self._class_num = 0

    @rearrange_inputs
    def update(self, *inputs: Any) -> None:
        """Accumulate ``(y_pred, y)``."""
        name = type(self).__name__
        _check_two_inputs(name, inputs)
        y_pred = self._convert_data(inputs[0])
        y = self._convert_data(inputs[1])
        if y_pred.ndim == y.ndim and _is_one_hot(y):
            y = y.argmax(axis=1)
        if self._class_num == 0:
            self._class_num = y_pred.shape[1]
        elif y_pred.shape[1] != self._class_num:
            raise ValueError(f"For '{name}.update', the class number changed from {self._class_num} to "
                             f"{y_pred.shape[1]}")
        if y.max() + 1 > self._class_num:
            raise ValueError(f"For '{name}.update', y holds class {int(y.max())} but y_pred has only "
                             f"{self._class_num} classes")
        y = np.eye(self._class_num)[y.reshape(-1)]
        y_pred = np.eye(self._class_num)[y_pred.argmax(axis=1).reshape(-1)]
        self._true_positives = self._true_positives + (y * y_pred).sum(axis=0)
        self._positives = self._positives + y_pred.sum(axis=0)
        self._actual_positives = self._actual_positives + y.sum(axis=0)

    def eval(self, average: bool = False) -> Any:
        """Per-class values, or their mean when ``average``."""
        if not isinstance(average, bool):
            raise TypeError(f"For '{type(self).__name__}.eval', 'average' must be a bool, got {average!r}")
        if self._class_num == 0:
            raise RuntimeError(f"The '{type(self).__name__}' can not be calculated: call update before eval")
        b2 = self.beta ** 2
        fbeta = (1.0 + b2) * self._true_positives / (b2 * self._actual_positives + self._positives + self.eps)
        return fbeta.mean() if average else fbeta


class F1(Fbeta):
    """The F1 score (``Fbeta`` with ``beta=1``)."""

    def __init__(self) -> None:
        super().__init__(1.0)
