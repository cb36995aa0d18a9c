"""``RootMeanSquareDistance``: the root-mean-square distance between two segmentations' surfaces."""
from __future__ import annotations

import numpy as np

from mindjax.train.metrics._surface import _SymmetricSurfaceMetric

__all__ = ["RootMeanSquareDistance"]


class RootMeanSquareDistance(_SymmetricSurfaceMetric):
    """Surface distances from ``y_pred`` to ``y`` for one label, squared and averaged.

    As in MindSpore 2.10, the one-way value (``symmetric=False``) is the mean squared distance; the
    symmetric value is the square root of the mean of both directions' mean squares.

    Arguments:
        symmetric: use both directions (default ``False``).
        distance_metric: ``'euclidean'`` (default), ``'chessboard'`` or ``'taxicab'``.
    """

    _owner = "RootMeanSquareDistance"
    _label_type_error = TypeError

    def _one_way(self, distances: np.ndarray) -> float:
        return (distances ** 2).mean()

    def _both_ways(self, forward: np.ndarray, backward: np.ndarray) -> float:
        return np.sqrt(np.mean(((forward ** 2).mean(), (backward ** 2).mean())))
