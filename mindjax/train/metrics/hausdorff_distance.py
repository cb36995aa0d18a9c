"""``HausdorffDistance``: the (percentile) Hausdorff distance between two segmentations."""
from __future__ import annotations

from typing import Any

import numpy as np

from mindjax.train.metrics._surface import _check_bool, _check_distance_metric, _edges, _SurfaceMetric
from mindjax.train.metrics.metric import rearrange_inputs

__all__ = ["HausdorffDistance"]


class HausdorffDistance(_SurfaceMetric):
    """The largest (or ``percentile``-th) distance between the surfaces of ``y_pred`` and ``y`` for one label.

    Arguments:
        distance_metric: ``'euclidean'`` (default), ``'chessboard'`` or ``'taxicab'``.
        percentile: a float in ``[0, 100]``, or ``None`` (default) for the maximum.
        directed: only the distance from ``y_pred`` to ``y`` (default ``False``: the larger of both ways).
        crop: crop both masks to the bounding box of their union first (default ``True``).

    Raises:
        TypeError / ValueError: arguments of the wrong type or value.
    """

    _owner = "HausdorffDistance"

    def __init__(self, distance_metric: str = "euclidean", percentile: float | None = None, directed: bool = False,
                 crop: bool = True) -> None:
        super().__init__()
        self.distance_metric = _check_distance_metric("HausdorffDistance", distance_metric)
        if percentile is not None and not isinstance(percentile, float):
            raise TypeError(f"For 'HausdorffDistance', the type of 'percentile' should be 'float', but got "
                            f"{type(percentile).__name__}")
        self.percentile = percentile
        self.directed = directed if directed is None else _check_bool("HausdorffDistance", "directed", directed)
        self.crop = crop if crop is None else _check_bool("HausdorffDistance", "crop", crop)
        self.clear()

    @rearrange_inputs
    def update(self, *inputs: Any) -> None:
        """Take ``(y_pred, y, label_idx)``: two label maps of one shape (or boolean masks) and the label."""
        self._is_update = True
        y_pred, y = self._masks(inputs)
        if self.crop:
            union = y_pred | y
            if not np.any(union):
                self._y_pred_edges, self._y_edges = np.zeros_like(y_pred), np.zeros_like(y)
                return
            box = tuple(slice(int(idx.min()), int(idx.max()) + 1) for idx in np.nonzero(union))
            y_pred, y = np.squeeze(y_pred[box]), np.squeeze(y[box])
        self._y_pred_edges, self._y_edges = _edges(y_pred), _edges(y)

    def _one_way(self, from_edges: np.ndarray, to_edges: np.ndarray) -> float:
        dist = self._distances(from_edges, to_edges)
        if dist.shape == (0,):
            return np.inf
        if not self.percentile:
            return dist.max()
        if 0 <= self.percentile <= 100:
            return np.percentile(dist, self.percentile)
        raise ValueError(f"For 'HausdorffDistance', the value of the argument 'percentile' must be [0, 100], but got "
                         f"{self.percentile}.")

    def eval(self) -> float:
        """The Hausdorff distance (``inf`` when a surface is empty)."""
        self._check_updated()
        forward = self._one_way(self._y_pred_edges, self._y_edges)
        if self.directed:
            return forward
        return max(forward, self._one_way(self._y_edges, self._y_pred_edges))
