"""``MeanSurfaceDistance``: the average distance between two segmentations' surfaces."""
from __future__ import annotations

import numpy as np

from mindjax.train.metrics._surface import _SymmetricSurfaceMetric

__all__ = ["MeanSurfaceDistance"]


class MeanSurfaceDistance(_SymmetricSurfaceMetric):
    """The mean distance from the surface of ``y_pred`` to that of ``y`` for one label.

    Arguments:
        symmetric: average the means of both directions (default ``False``).
        distance_metric: ``'euclidean'`` (default), ``'chessboard'`` or ``'taxicab'``.
    """

    _owner = "MeanSurfaceDistance"

    def _one_way(self, distances: np.ndarray) -> float:
        return distances.mean()

    def _both_ways(self, forward: np.ndarray, backward: np.ndarray) -> float:
        return np.mean((forward.mean(), backward.mean()))
