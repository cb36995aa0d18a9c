"""``Dice``: the mean Dice coefficient of the evaluated batches."""
from __future__ import annotations

from typing import Any

import numpy as np

from mindjax.train.metrics.metric import Metric, _check_samples, _check_two_inputs, rearrange_inputs

__all__ = ["Dice"]


class Dice(Metric):
    """``2 |y_pred . y| / (|y_pred|^2 + |y|^2 + smooth)`` per batch, summed and divided by the sample count.

    Arguments:
        smooth: a positive float added to the denominator (default ``1e-5``).

    Raises:
        TypeError / ValueError: ``smooth`` not a positive float.
    """

    def __init__(self, smooth: float = 1e-5) -> None:
        super().__init__()
        if isinstance(smooth, bool) or not isinstance(smooth, float):
            raise TypeError(f"For 'Dice', the type of 'smooth' should be 'float', but got {type(smooth).__name__}")
        if smooth <= 0:
            raise ValueError(f"For 'Dice', the 'smooth' must be a positive float, but got {smooth}")
        self.smooth = smooth
        self.clear()

    def clear(self) -> None:
        """Reset the sums."""
        self._dice_coeff_sum = 0.0
        self._samples_num = 0

    @rearrange_inputs
    def update(self, *inputs: Any) -> None:
        """Add one batch ``(y_pred, y)`` of equal shapes."""
        _check_two_inputs("Dice", inputs)
        y_pred, y = self._convert_data(inputs[0]), self._convert_data(inputs[1])
        self._samples_num += y.shape[0]
        if y_pred.shape != y.shape:
            raise ValueError(f"For 'Dice.update', predicted value (input[0]) and true value (input[1]) should have "
                             f"same shape, but got predicted value shape: {y_pred.shape}, true value shape: "
                             f"{y.shape}.")
        p, t = y_pred.ravel(), y.ravel()
        overlap = float(np.dot(p, t))
        self._dice_coeff_sum += 2 * overlap / float(np.dot(p, p) + np.dot(t, t) + self.smooth)

    def eval(self) -> float:
        """The summed coefficients divided by the number of samples."""
        _check_samples("Dice coefficient", self._samples_num)
        return self._dice_coeff_sum / float(self._samples_num)
