"""``Accuracy``."""
from __future__ import annotations

from typing import Any

import numpy as np

from mindjax.train.metrics.metric import (_EvaluationBase, _check_samples, _check_two_inputs, _is_one_hot,
                                          rearrange_inputs)

__all__ = ["Accuracy"]


class Accuracy(_EvaluationBase):
    """The fraction of correct predictions.

    Arguments:
        eval_type: ``'classification'`` (``y`` holds class indices or one-hot
            rows) or ``'multilabel'`` (a sample counts when every label matches).
    """

    def __init__(self, eval_type: str = "classification") -> None:
        super().__init__(eval_type)
        self.clear()

    def clear(self) -> None:
        """Reset the counts."""
        self._correct_num = 0
        self._total_num = 0
        self._class_num = 0

    @rearrange_inputs
    def update(self, *inputs: Any) -> None:
        """Accumulate ``(y_pred, y)``."""
        _check_two_inputs("Accuracy", inputs)
        y_pred = self._convert_data(inputs[0])
        y = self._convert_data(inputs[1])
        if self._type == "classification" and y_pred.ndim == y.ndim and _is_one_hot(y):
            y = y.argmax(axis=1)
        self._check_shape(y_pred, y)
        self._check_value(y_pred, y)
        self._check_class_num(y_pred)
        if self._type == "classification":
            result = (np.equal(y_pred.argmax(axis=1), y) * 1).reshape(-1)
        else:
            last = y_pred.ndim - 1
            y_pred = y_pred.swapaxes(1, last).reshape(-1, self._class_num)
            y = y.swapaxes(1, last).reshape(-1, self._class_num)
            result = np.equal(y_pred, y).all(axis=1) * 1
        self._correct_num += result.sum()
        self._total_num += result.shape[0]

    def eval(self) -> float:
        """``correct / total``."""
        _check_samples("Accuracy", self._total_num)
        return self._correct_num / self._total_num
