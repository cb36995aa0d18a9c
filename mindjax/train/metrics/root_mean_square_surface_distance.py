"""``RootMeanSquareDistance``: the root-mean-square distance between two segmentations' surfaces."""
from __future__ import annotations

from typing import Any

import numpy as np

from mindjax.train.metrics._surface import _check_bool, _check_distance_metric, _edges, _SurfaceMetric
from mindjax.train.metrics.metric import rearrange_inputs

__all__ = ["RootMeanSquareDistance"]


class RootMeanSquareDistance(_SurfaceMetric):
    """Surface distances from ``y_pred`` to ``y`` for one label, squared and averaged.

    As in MindSpore 2.10, the one-way value (``symmetric=False``) is the mean squared distance; the
    symmetric value is the square root of the mean of both directions' mean squares.

    Arguments:
        symmetric: use both directions (default ``False``).
        distance_metric: ``'euclidean'`` (default), ``'chessboard'`` or ``'taxicab'``.
    """

    _owner = "RootMeanSquareDistance"
    _label_type_error = TypeError

    def __init__(self, symmetric: bool = False, distance_metric: str = "euclidean") -> None:
        super().__init__()
        self.distance_metric = _check_distance_metric("RootMeanSquareDistance", distance_metric)
        self.symmetric = _check_bool("RootMeanSquareDistance", "symmetric", symmetric)
        self.clear()

    @rearrange_inputs
    def update(self, *inputs: Any) -> None:
        """Take ``(y_pred, y, label_idx)``: two label maps of one shape (or boolean masks) and the label."""
        y_pred, y = self._masks(inputs)
        self._y_pred_edges, self._y_edges = _edges(y_pred), _edges(y)
        self._is_update = True

    def eval(self) -> float:
        """The (root) mean square surface distance (``inf`` when a surface is empty)."""
        self._check_updated()
        forward = self._distances(self._y_pred_edges, self._y_edges)
        if forward.shape == (0,):
            return np.inf
        if not self.symmetric:
            return (forward ** 2).mean()
        backward = self._distances(self._y_edges, self._y_pred_edges)
        if backward.shape == (0,):
            return np.inf
        return np.sqrt(np.mean(((forward ** 2).mean(), (backward ** 2).mean())))
