"""``ConfusionMatrix``."""
from __future__ import annotations

from typing import Any

import numpy as np

from mindjax.train.metrics.metric import Metric, _check_two_inputs, rearrange_inputs

__all__ = ["ConfusionMatrix"]


class ConfusionMatrix(Metric):
    """Counts of (true class, predicted class) pairs.

    Arguments:
        num_classes: the number of classes.
        normalize: ``'no_norm'``, ``'target'`` (rows sum to 1),
            ``'prediction'`` (columns sum to 1) or ``'all'``.
        threshold: for binary scores of ``y``'s shape, the cut between 0 and 1.
    """

    def __init__(self, num_classes: int, normalize: str = "no_norm", threshold: float = 0.5) -> None:
        super().__init__()
        if not isinstance(num_classes, int) or isinstance(num_classes, bool) or num_classes < 1:
            raise TypeError(f"For 'ConfusionMatrix', 'num_classes' must be a positive int, got {num_classes!r}")
        if normalize not in ("target", "prediction", "all", "no_norm"):
            raise ValueError(f"For 'ConfusionMatrix', 'normalize' must be 'no_norm', 'target', 'prediction' or "
                             f"'all', got {normalize!r}")
        if not isinstance(threshold, float):
            raise TypeError(f"For 'ConfusionMatrix', 'threshold' must be a float, got {threshold!r}")
        self.num_classes = num_classes
        self.normalize = normalize
        self.threshold = threshold
        self.clear()

    def clear(self) -> None:
        """Reset the matrix."""
        self.confusion_matrix = np.zeros((self.num_classes, self.num_classes))
        self._is_update = False

    @rearrange_inputs
    def update(self, *inputs: Any) -> None:
        """Accumulate ``(y_pred, y)``: scores ``(N, C, ...)`` or labels of ``y``'s shape."""
        _check_two_inputs("ConfusionMatrix", inputs)
        y_pred = self._convert_data(inputs[0])
        y = self._convert_data(inputs[1])
        if y_pred.ndim not in (y.ndim, y.ndim + 1):
            raise ValueError(f"For 'ConfusionMatrix.update', y_pred must have y's rank or one more, got "
                             f"{y_pred.shape} and {y.shape}")
        if y_pred.ndim == y.ndim + 1:
            y_pred = np.argmax(y_pred, axis=1)
        elif np.issubdtype(y_pred.dtype, np.floating):
            y_pred = (y_pred >= self.threshold).astype(int)
        codes = (y.reshape(-1) * self.num_classes + y_pred.reshape(-1)).astype(int)
        counts = np.bincount(codes, minlength=self.num_classes ** 2)
        self.confusion_matrix += counts.reshape(self.num_classes, self.num_classes)
        self._is_update = True

    def eval(self) -> np.ndarray:
        """The (optionally normalised) matrix."""
        if not self._is_update:
            raise RuntimeError("The 'ConfusionMatrix' can not be calculated: call update before eval")
        matrix = self.confusion_matrix.astype(float)
        if self.normalize == "no_norm":
            return matrix
        with np.errstate(divide="ignore", invalid="ignore"):
            if self.normalize == "target":
                matrix = matrix / matrix.sum(axis=1, keepdims=True)
            elif self.normalize == "prediction":
                matrix = matrix / matrix.sum(axis=0, keepdims=True)
            else:
                matrix = matrix / matrix.sum()
        matrix[np.isnan(matrix)] = 0
        return matrix
