"""The shared part of the segmentation-surface metrics (Hausdorff, mean and RMS surface distance)."""
from __future__ import annotations

from abc import abstractmethod
from typing import Any

import numpy as np

from mindjax.train.metrics.metric import Metric, rearrange_inputs

_DISTANCES = ["euclidean", "chessboard", "taxicab"]


def _check_distance_metric(owner: str, value: Any) -> str:
    if not isinstance(value, str):
        raise TypeError(f"For '{owner}', the type of 'distance_metric' should be 'str', but got "
                        f"{type(value).__name__}")
    if value not in _DISTANCES:
        raise ValueError(f"For '{owner}', the 'distance_metric' should be in {_DISTANCES}, but got {value!r}")
    return value


def _check_bool(owner: str, name: str, value: Any) -> bool:
    if not isinstance(value, bool):
        raise TypeError(f"For '{owner}', the type of '{name}' should be 'bool', but got {type(value).__name__}")
    return value


def _edges(mask: np.ndarray) -> np.ndarray:
    """The surface voxels of a boolean mask: those that erosion removes."""
    from scipy import ndimage  # imported on use: it costs every process ~0.3 s at import

    return ndimage.binary_erosion(mask) ^ mask


class _SurfaceMetric(Metric):
    """Keeps the predicted and true surfaces of one label after ``update(y_pred, y, label_idx)``."""

    _owner = ""
    _label_type_error: type = ValueError

    def clear(self) -> None:
        """Forget the last surfaces."""
        self._y_pred_edges: Any = 0
        self._y_edges: Any = 0
        self._is_update = False

    def _masks(self, inputs: tuple[Any, ...]) -> tuple[np.ndarray, np.ndarray]:
        owner = self._owner
        if len(inputs) != 3:
            raise ValueError(f"For '{owner}.update', it needs 3 inputs (predicted value, true value, label index), "
                             f"but got {len(inputs)}.")
        y_pred, y = self._convert_data(inputs[0]), self._convert_data(inputs[1])
        label = inputs[2]
        if isinstance(label, bool) or not isinstance(label, (int, float)):
            raise self._label_type_error(f"For '{owner}.update', the label index (input[2]) must be int or float, "
                                         f"but got {type(label)}.")
        if label not in y_pred and label not in y:
            raise ValueError(f"For '{owner}.update', the label index (input[2]) must be in predicted value "
                             f"(input[0]) or true value (input[1]), but {label} is not.")
        if y_pred.size == 0 or y_pred.shape != y.shape:
            raise ValueError(f"For '{owner}.update', the size of predicted value (input[0]) and true value (input[1]) "
                             f"must be greater than 0, and they must have the same shape, but got predicted value "
                             f"size: {y_pred.size}, shape: {y_pred.shape}, true value size: {y.size}, shape: "
                             f"{y.shape}.")
        y_pred = y_pred if y_pred.dtype == bool else y_pred == label
        y = y if y.dtype == bool else y == label
        return y_pred, y

    def _distances(self, from_edges: np.ndarray, to_edges: np.ndarray) -> np.ndarray:
        """The distance of each voxel of ``from_edges`` to the nearest voxel of ``to_edges``."""
        if not np.any(from_edges):
            return np.array([])
        if not np.any(to_edges):
            field = np.full(to_edges.shape, np.inf)
        elif self.distance_metric == "euclidean":
            from scipy import ndimage

            field = ndimage.distance_transform_edt(~to_edges)
        else:
            from scipy import ndimage

            field = ndimage.distance_transform_cdt(~to_edges, metric=self.distance_metric)
        return field[from_edges]

    def _check_updated(self) -> None:
        if not self._is_update:
            raise RuntimeError("Please call the 'update' method before calling 'eval' method.")


class _SymmetricSurfaceMetric(_SurfaceMetric):
    """A surface metric with MindSpore's ``(symmetric=False, distance_metric='euclidean')`` arguments:
    one value per direction (:meth:`_one_way`), both combined when symmetric (:meth:`_both_ways`)."""

    def __init__(self, symmetric: bool = False, distance_metric: str = "euclidean") -> None:
        super().__init__()
        self.distance_metric = _check_distance_metric(self._owner, distance_metric)
        self.symmetric = _check_bool(self._owner, "symmetric", symmetric)
        self.clear()

    @rearrange_inputs
    def update(self, *inputs: Any) -> None:
        """Take ``(y_pred, y, label_idx)``: two label maps of one shape (or boolean masks) and the label."""
        y_pred, y = self._masks(inputs)
        self._y_pred_edges, self._y_edges = _edges(y_pred), _edges(y)
        self._is_update = True

    def eval(self) -> float:
        """The metric's value (``inf`` when a surface is empty)."""
        self._check_updated()
        forward = self._distances(self._y_pred_edges, self._y_edges)
        if forward.shape == (0,):
            return np.inf
        if not self.symmetric:
            return self._one_way(forward)
        backward = self._distances(self._y_edges, self._y_pred_edges)
        if backward.shape == (0,):
            return np.inf
        return self._both_ways(forward, backward)

    @abstractmethod
    def _one_way(self, distances: np.ndarray) -> float:
        """The value from one direction's distances."""

    @abstractmethod
    def _both_ways(self, forward: np.ndarray, backward: np.ndarray) -> float:
        """The symmetric value from both directions' distances."""
