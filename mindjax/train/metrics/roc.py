"""``ROC`` and ``auc``."""
from __future__ import annotations

from typing import Any

import numpy as np

from mindjax.train.metrics.metric import Metric, _check_two_inputs, rearrange_inputs

__all__ = ["ROC", "auc"]


def _binary_clf_curve(preds: np.ndarray, target: np.ndarray, pos_label: int = 1) -> tuple[np.ndarray, ...]:
    if preds.ndim > target.ndim:
        preds = preds[:, 0]
    order = np.argsort(-preds, kind="stable")
    preds = preds[order]
    target = target[order]
    distinct = np.where(preds[1:] - preds[:-1])[0]
    threshold_idxs = np.pad(distinct, (0, 1), constant_values=target.shape[0] - 1)
    target = (target == pos_label).astype(np.int64)
    tps = np.cumsum(target, axis=0)[threshold_idxs]
    fps = 1 + threshold_idxs - tps
    return fps, tps, preds[threshold_idxs]


def _curve_inputs(y_pred: np.ndarray, y: np.ndarray, class_num: int | None,
                  pos_label: int | None) -> tuple[np.ndarray, np.ndarray, int, int | None]:
    if y_pred.ndim == y.ndim:
        if class_num is not None and class_num != 1:
            raise ValueError(f"For 'ROC', y_pred and y of the same rank mean a binary problem, but 'class_num' "
                             f"is {class_num}")
        return y_pred.flatten(), y.flatten(), 1, 1 if pos_label is None else pos_label
    if y_pred.ndim == y.ndim + 1:
        if pos_label is not None:
            raise ValueError("For 'ROC', 'pos_label' must be None in the multiclass case")
        if class_num != y_pred.shape[1]:
            raise ValueError(f"For 'ROC', 'class_num' must equal y_pred.shape[1] ({y_pred.shape[1]}), "
                             f"got {class_num}")
        return y_pred.reshape(-1, class_num), y.flatten(), class_num, pos_label
    raise ValueError(f"For 'ROC', y_pred must have y's rank or one more, got {y_pred.shape} and {y.shape}")


class ROC(Metric):
    """The receiver operating characteristic curve.

    Arguments:
        class_num: the number of classes (``None`` or 1 for a binary problem).
        pos_label: the positive class of a binary problem (1 when ``None``).

    ``eval()`` returns ``(fpr, tpr, thresholds)``; lists of them per class in
    the multiclass case.
    """

    def __init__(self, class_num: int | None = None, pos_label: int | None = None) -> None:
        super().__init__()
        for name, value in (("class_num", class_num), ("pos_label", pos_label)):
            if value is not None and (not isinstance(value, int) or isinstance(value, bool)):
                raise TypeError(f"For 'ROC', '{name}' must be an int or None, got {value!r}")
        self.class_num = class_num
        self.pos_label = pos_label
        self.clear()

    def clear(self) -> None:
        """Forget the inputs."""
        self.y_pred: Any = 0
        self.y: Any = 0
        self._is_update = False

    @rearrange_inputs
    def update(self, *inputs: Any) -> None:
        """Keep ``(y_pred, y)`` (the latest batch, as MindSpore does)."""
        _check_two_inputs("ROC", inputs)
        y_pred = self._convert_data(inputs[0])
        y = self._convert_data(inputs[1])
        self.y_pred, self.y, self.class_num, self.pos_label = _curve_inputs(y_pred, y, self.class_num,
                                                                             self.pos_label)
        self._is_update = True

    @staticmethod
    def _binary(y_pred: np.ndarray, y: np.ndarray, pos_label: int) -> tuple[np.ndarray, ...]:
        fps, tps, thresholds = _binary_clf_curve(y_pred, y, pos_label)
        tps = np.hstack([np.zeros(1, dtype=tps.dtype), tps])
        fps = np.hstack([np.zeros(1, dtype=fps.dtype), fps])
        thresholds = np.hstack([thresholds[0][None] + 1, thresholds])
        if fps[-1] <= 0 or tps[-1] <= 0:
            raise ValueError("For 'ROC', the inputs hold no negative or no positive sample; the curve is undefined")
        return fps / fps[-1], tps / tps[-1], thresholds

    def eval(self) -> Any:
        """``(fpr, tpr, thresholds)``."""
        if not self._is_update:
            raise RuntimeError("The 'ROC' can not be calculated: call update before eval")
        y_pred = np.squeeze(self.y_pred)
        y = np.squeeze(self.y)
        if self.class_num == 1:
            return self._binary(y_pred, y, self.pos_label)
        curves = [self._binary(y_pred[:, c], y, c) for c in range(self.class_num)]
        return [c[0] for c in curves], [c[1] for c in curves], [c[2] for c in curves]


def auc(x: np.ndarray, y: np.ndarray, reorder: bool = False) -> np.float64:
    """Area under a curve by the trapezoidal rule (for ROC: ``auc(fpr, tpr)``).

    Arguments:
        x: increasing (or decreasing) x coordinates.
        y: y coordinates.
        reorder: sort by ``x`` first.

    Returns:
        the area, a ``numpy.float64`` as MindSpore returns it.
    """
    if not isinstance(x, np.ndarray) or not isinstance(y, np.ndarray):
        raise TypeError(f"For 'auc', 'x' and 'y' must be numpy arrays, got {type(x).__name__} and "
                        f"{type(y).__name__}")
    x = np.ravel(x)
    y = np.ravel(y)
    if x.shape != y.shape:
        raise ValueError(f"For 'auc', 'x' and 'y' must have the same length, got {x.shape[0]} and {y.shape[0]}")
    if x.shape[0] < 2:
        raise ValueError(f"For 'auc', at least 2 points are needed, got {x.shape[0]}")
    direction = 1
    if reorder:
        order = np.lexsort((y, x))
        x, y = x[order], y[order]
    else:
        dx = np.diff(x)
        if np.any(dx < 0):
            if np.all(dx <= 0):
                direction = -1
            else:
                raise ValueError("For 'auc', 'x' is neither increasing nor decreasing; pass reorder=True")
    trapezoid = getattr(np, "trapezoid", None) or np.trapz
    return np.float64(direction * trapezoid(y, x))
