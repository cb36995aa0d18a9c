"""``Precision`` and ``Recall`` (per class, or averaged)."""
from __future__ import annotations

import sys
from abc import abstractmethod
from typing import Any

import numpy as np

from mindjax.train.metrics.metric import _EvaluationBase, _check_two_inputs, _is_one_hot, rearrange_inputs

__all__ = ["Precision", "Recall"]


class _PerClassRate(_EvaluationBase):
    """``true positives / (denominator)`` per class; subclasses pick the denominator."""

    def __init__(self, eval_type: str = "classification") -> None:
        super().__init__(eval_type)
        self.eps = sys.float_info.min
        self.clear()

    def clear(self) -> None:
        """Reset the counts."""
        self._class_num = 0
        if self._type == "multilabel":
            self._true_positives = np.empty(0)
            self._denominator = np.empty(0)
            self._true_positives_average = 0.0
            self._denominator_average = 0
        else:
            self._true_positives = 0
            self._denominator = 0

    @abstractmethod
    def _denominator_of(self, y_pred: np.ndarray, y: np.ndarray) -> np.ndarray:
        """Predicted positives (precision) or actual positives (recall) per class."""

    @rearrange_inputs
    def update(self, *inputs: Any) -> None:
        """Accumulate ``(y_pred, y)``."""
        name = type(self).__name__
        _check_two_inputs(name, inputs)
        y_pred = self._convert_data(inputs[0])
        y = self._convert_data(inputs[1])
        if self._type == "classification" and y_pred.ndim == y.ndim and _is_one_hot(y):
            y = y.argmax(axis=1)
        self._check_shape(y_pred, y)
        self._check_value(y_pred, y)
        self._check_class_num(y_pred)
        class_num = self._class_num
        if self._type == "classification":
            if y.max() + 1 > class_num:
                raise ValueError(f"For '{name}.update', y holds class {int(y.max())} but y_pred has only "
                                 f"{class_num} classes")
            y = np.eye(class_num)[y.reshape(-1)]
            y_pred = np.eye(class_num)[y_pred.argmax(axis=1).reshape(-1)]
        else:
            y_pred = y_pred.swapaxes(1, 0).reshape(class_num, -1)
            y = y.swapaxes(1, 0).reshape(class_num, -1)
        denominator = self._denominator_of(y_pred, y)
        true_positives = (y * y_pred).sum(axis=0)
        if self._type == "multilabel":
            self._true_positives_average += np.sum(true_positives / (denominator + self.eps))
            self._denominator_average += len(denominator)
            self._true_positives = np.concatenate((self._true_positives, true_positives))
            self._denominator = np.concatenate((self._denominator, denominator))
        else:
            self._true_positives = self._true_positives + true_positives
            self._denominator = self._denominator + denominator

    def eval(self, average: bool = False) -> Any:
        """Per-class values, or their mean when ``average``."""
        name = type(self).__name__
        if self._class_num == 0:
            raise RuntimeError(f"The '{name}' can not be calculated: call update before eval")
        if not isinstance(average, bool):
            raise TypeError(f"For '{name}.eval', 'average' must be a bool, got {average!r}")
        result = self._true_positives / (self._denominator + self.eps)
        if average:
            if self._type == "multilabel":
                result = self._true_positives_average / (self._denominator_average + self.eps)
            return np.mean(result)
        return result


class Precision(_PerClassRate):
    """``TP / (TP + FP)`` per class.

    Arguments:
        eval_type: ``'classification'`` or ``'multilabel'``.
    """

    def _denominator_of(self, y_pred: np.ndarray, y: np.ndarray) -> np.ndarray:
        return y_pred.sum(axis=0)


class Recall(_PerClassRate):
    """``TP / (TP + FN)`` per class.

    Arguments:
        eval_type: ``'classification'`` or ``'multilabel'``.
    """

    def _denominator_of(self, y_pred: np.ndarray, y: np.ndarray) -> np.ndarray:
        return y.sum(axis=0)
