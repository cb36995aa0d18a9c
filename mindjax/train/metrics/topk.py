"""``TopKCategoricalAccuracy``, ``Top1CategoricalAccuracy``, ``Top5CategoricalAccuracy``."""
from __future__ import annotations

from typing import Any

import numpy as np

from mindjax.train.metrics.metric import Metric, _check_samples, _check_two_inputs, _is_one_hot, rearrange_inputs

__all__ = ["TopKCategoricalAccuracy", "Top1CategoricalAccuracy", "Top5CategoricalAccuracy"]


class TopKCategoricalAccuracy(Metric):
    """The fraction of samples whose true class is among the ``k`` highest scores.

    Arguments:
        k: how many of the top predictions count.
    """

    def __init__(self, k: int) -> None:
        super().__init__()
        if not isinstance(k, int) or isinstance(k, bool):
            raise TypeError(f"For 'TopKCategoricalAccuracy', 'k' must be an int, got {type(k).__name__}")
        if k < 1:
            raise ValueError(f"For 'TopKCategoricalAccuracy', 'k' must be at least 1, got {k}")
        self.k = k
        self.clear()

    def clear(self) -> None:
        """Reset the counts."""
        self._correct_num = 0
        self._samples_num = 0

    @rearrange_inputs
    def update(self, *inputs: Any) -> None:
        """Accumulate ``(y_pred, y)``."""
        _check_two_inputs(type(self).__name__, inputs)
        y_pred = self._convert_data(inputs[0])
        y = self._convert_data(inputs[1])
        if y_pred.ndim == y.ndim and _is_one_hot(y):
            y = y.argmax(axis=1)
        indices = np.argsort(-y_pred, axis=1)[:, :self.k]
        repeated = y.reshape(-1, 1).repeat(self.k, axis=1)
        self._correct_num += np.equal(indices, repeated).sum(axis=1).sum()
        self._samples_num += repeated.shape[0]

    def eval(self) -> float:
        """``correct / samples``."""
        _check_samples(type(self).__name__, self._samples_num)
        return self._correct_num / self._samples_num


class Top1CategoricalAccuracy(TopKCategoricalAccuracy):
    """Top-1 accuracy."""

    def __init__(self) -> None:
        super().__init__(1)


class Top5CategoricalAccuracy(TopKCategoricalAccuracy):
    """Top-5 accuracy."""

    def __init__(self) -> None:
        super().__init__(5)
