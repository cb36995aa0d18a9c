"""``MAE`` and ``MSE``."""
from __future__ import annotations

from abc import abstractmethod
from typing import Any

import numpy as np

from mindjax.train.metrics.metric import Metric, _check_samples, _check_two_inputs, rearrange_inputs

__all__ = ["MAE", "MSE"]


class _ErrorMetric(Metric):
    """Sum of per-element errors divided by the number of samples (MindSpore's definition)."""

    def __init__(self) -> None:
        super().__init__()
        self.clear()

    def clear(self) -> None:
        """Reset the sums."""
        self._error_sum = 0.0
        self._samples_num = 0

    @staticmethod
    @abstractmethod
    def _error(diff: np.ndarray) -> np.ndarray:
        """The per-sample error of ``diff = y_pred - y``."""

    @rearrange_inputs
    def update(self, *inputs: Any) -> None:
        """Accumulate ``(y_pred, y)``."""
        _check_two_inputs(type(self).__name__, inputs)
        y_pred = self._convert_data(inputs[0])
        y = self._convert_data(inputs[1])
        self._error_sum += self._error(y.reshape(y_pred.shape) - y_pred).sum()
        self._samples_num += y.shape[0]

    def eval(self) -> float:
        """The mean error per sample."""
        _check_samples(type(self).__name__, self._samples_num)
        return self._error_sum / self._samples_num


class MAE(_ErrorMetric):
    """Mean absolute error: ``sum |y - y_pred| / samples``."""

    @staticmethod
    def _error(diff: np.ndarray) -> np.ndarray:
        return np.abs(diff)


class MSE(_ErrorMetric):
    """Mean squared error: ``sum (y - y_pred)^2 / samples``."""

    @staticmethod
    def _error(diff: np.ndarray) -> np.ndarray:
        return np.power(diff, 2)
