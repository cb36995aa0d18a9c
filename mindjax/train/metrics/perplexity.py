"""``Perplexity``: ``exp`` of the mean negative log-probability of the labels."""
from __future__ import annotations

import math
from typing import Any

import numpy as np

from mindjax.train.metrics.metric import Metric, _check_samples, rearrange_inputs

__all__ = ["Perplexity"]


class Perplexity(Metric):
    """``exp(-mean(log p[label]))`` over every label seen (probabilities below ``1e-10`` are clipped).

    Arguments:
        ignore_label: a label left out of the mean, or ``None`` (default).

    Raises:
        TypeError: ``ignore_label`` not an int.
    """

    def __init__(self, ignore_label: int | None = None) -> None:
        super().__init__()
        if ignore_label is not None and (isinstance(ignore_label, bool) or not isinstance(ignore_label, int)):
            raise TypeError(f"For 'Perplexity', the type of 'ignore_label' should be 'int', but got "
                            f"{type(ignore_label).__name__}")
        self.ignore_label = ignore_label
        self.clear()

    def clear(self) -> None:
        """Reset the sums."""
        self._sum_metric = 0.0
        self._num_inst = 0

    @rearrange_inputs
    def update(self, *inputs: Any) -> None:
        """Add one batch ``(probabilities (..., C), labels (...))``."""
        if len(inputs) != 2:
            raise ValueError(f"For 'Perplexity.update', it needs 2 inputs (predicted value, label), but got "
                             f"{len(inputs)}.")
        pred, label = self._convert_data(inputs[0]), self._convert_data(inputs[1])
        if label.size != pred.size / pred.shape[-1]:
            raise RuntimeError(f"For 'Perplexity.update', predicted value (input[0]) and label (input[1]) should "
                               f"have the same shape, but got predicted value shape {pred.shape}, label shape "
                               f"{label.shape}.")
        label = label.reshape(-1)
        picked = np.squeeze(pred.reshape(-1, pred.shape[-1])[np.arange(label.size)[:, None],
                                                              label.astype(int)[:, None]])
        count = picked.size
        if self.ignore_label is not None:
            skip = (label == self.ignore_label).astype(picked.dtype)
            count -= np.sum(skip)
            picked = picked * (1 - skip) + skip
        self._sum_metric -= np.sum(np.log(np.maximum(1e-10, picked)))
        self._num_inst += count

    def eval(self) -> float:
        """``exp`` of the mean negative log-probability."""
        if self._num_inst == 0:
            raise RuntimeError("The 'Perplexity' can not be calculated, because the number of samples is 0, please "
                               "check whether the update method has been called before calling eval method.")
        return math.exp(self._sum_metric / self._num_inst)
