"""``ConfusionMatrix``."""
from __future__ import annotations

from typing import Any

import numpy as np

from mindjax.train.metrics.metric import Metric, _check_two_inputs, rearrange_inputs

__all__ = ["ConfusionMatrix", "ConfusionMatrixMetric"]


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


# Every accepted metric name (spaces become underscores, case is ignored) and its short name.
_METRIC_ALIASES = {
    "tpr": ("sensitivity", "recall", "hit_rate", "true_positive_rate", "tpr"),
    "tnr": ("specificity", "selectivity", "true_negative_rate", "tnr"),
    "ppv": ("precision", "positive_predictive_value", "ppv"),
    "npv": ("negative_predictive_value", "npv"),
    "fnr": ("miss_rate", "false_negative_rate", "fnr"),
    "fpr": ("fall_out", "false_positive_rate", "fpr"),
    "fdr": ("false_discovery_rate", "fdr"),
    "for": ("false_omission_rate", "for"),
    "pt": ("prevalence_threshold", "pt"),
    "ts": ("threat_score", "critical_success_index", "ts", "csi"),
    "acc": ("accuracy", "acc"),
    "ba": ("balanced_accuracy", "ba"),
    "f1": ("f1_score", "f1"),
    "mcc": ("matthews_correlation_coefficient", "mcc"),
    "fm": ("fowlkes_mallows_index", "fm"),
    "bm": ("informedness", "bookmaker_informedness", "bm"),
    "mk": ("markedness", "deltap", "mk"),
}
_SHORT_NAME = {alias: short for short, aliases in _METRIC_ALIASES.items() for alias in aliases}
_DECREASES = ["none", "mean", "sum", "mean_batch", "sum_batch", "mean_channel", "sum_channel"]


def _short_metric_name(name: str) -> str:
    short = _SHORT_NAME.get(name.replace(" ", "_").lower())
    if short is None:
        raise NotImplementedError("The metric is not implemented.")
    return short


def _ratio(num: np.ndarray, den: np.ndarray) -> np.ndarray:
    """``num / den`` where ``den > 0``, else NaN."""
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(den > 0, num / np.where(den > 0, den, 1), np.nan)


def _counts_per_class(y_pred: np.ndarray, y: np.ndarray, skip_channel: bool) -> np.ndarray:
    """``(batch, class, 4)``: each class's true/false positives, true negatives and false negatives."""
    if not skip_channel:
        y = y[:, 1:] if y.shape[1] > 1 else y
        y_pred = y_pred[:, 1:] if y_pred.shape[1] > 1 else y_pred
    if y.shape != y_pred.shape:
        raise ValueError(f"For 'ConfusionMatrixMetric.update', 'y_shape' should be equal to 'y_pred_shape' = "
                         f"{y_pred.shape}, but got {y.shape}.")
    batch, n_class = y_pred.shape[:2]
    y_pred = y_pred.astype(float).reshape(batch, n_class, -1)
    y = y.astype(float).reshape(batch, n_class, -1)
    tp = (y_pred + y == 2).sum(-1).astype(float)
    tn = (y_pred + y == 0).sum(-1).astype(float)
    pos = y.sum(-1)
    neg = y.shape[-1] - pos
    return np.stack([tp, neg - tn, tn, pos - tp], axis=-1)


def _metric_from_counts(short: str, counts: np.ndarray) -> np.ndarray:
    """One confusion-matrix metric from ``(..., 4)`` counts; NaN where it is undefined."""
    counts = counts[None] if counts.ndim == 1 else counts
    if counts.shape[-1] != 4:
        raise ValueError(f"For 'ConfusionMatrix', the size of the last dimension of confusion_matrix must be 4, but "
                         f"got {counts.shape[-1]}.")
    tp, fp, tn, fn = (counts[..., i] for i in range(4))
    pos, neg = tp + fn, fp + tn
    tpr, tnr, ppv, npv = _ratio(tp, pos), _ratio(tn, neg), _ratio(tp, tp + fp), _ratio(tn, tn + fn)
    direct = {"tpr": (tp, pos), "tnr": (tn, neg), "ppv": (tp, tp + fp), "npv": (tn, tn + fn), "fnr": (fn, pos),
              "fpr": (fp, neg), "fdr": (fp, fp + tp), "for": (fn, fn + tn), "ts": (tp, tp + fn + fp),
              "acc": (tp + tn, pos + neg), "f1": (2.0 * tp, 2.0 * tp + fn + fp),
              "pt": (np.sqrt(tpr * (1.0 - tnr)) + tnr - 1.0, tpr + tnr - 1.0),
              "mcc": (tp * tn - fp * fn, np.sqrt((tp + fp) * (tp + fn) * (tn + fp) * (tn + fn)))}
    if short in direct:
        num, den = direct[short]
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.where(den != 0, num / np.where(den != 0, den, 1), np.nan)
    with np.errstate(invalid="ignore"):
        return {"ba": (tpr + tnr) / 2.0, "fm": np.sqrt(ppv * tpr), "bm": tpr + tnr - 1.0,
                "mk": ppv + npv - 1.0}[short]


def _reduce(values: np.ndarray, decrease: str) -> tuple[np.ndarray, np.ndarray]:
    """Reduce ``(batch, class)`` values (NaNs left out) as ``decrease`` says: ``(value, count of non-NaNs)``."""
    values = np.array(values, dtype=float)
    valid = (~np.isnan(values)).astype(float)
    values[np.isnan(values)] = 0

    def mean(v: np.ndarray, n: np.ndarray, axis: int) -> tuple[np.ndarray, np.ndarray]:
        count = n.sum(axis=axis)
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.where(count > 0, v.sum(axis=axis) / np.where(count > 0, count, 1), 0.0), count

    if decrease == "mean":
        per_sample, count = mean(values, valid, 1)
        samples = (count > 0).astype(float).sum(axis=0)
        return (np.where(samples > 0, per_sample.sum(axis=0) / max(samples, 1), 0.0), samples)
    if decrease == "sum":
        return values.sum(axis=(0, 1)), valid.sum(axis=(0, 1))
    if decrease == "mean_batch":
        return mean(values, valid, 0)
    if decrease == "sum_batch":
        return values.sum(axis=0), valid.sum(axis=0)
    if decrease == "mean_channel":
        return mean(values, valid, 1)
    if decrease == "sum_channel":
        return values.sum(axis=1), valid.sum(axis=1)
    return values, valid


class ConfusionMatrixMetric(Metric):
    """Confusion-matrix metrics (sensitivity, precision, F1, MCC ... 17 families) of one-hot predictions.

    ``update(y_pred, y)`` takes binarised ``(N, C, ...)`` predictions and labels. With
    ``calculation_method=False`` (default) the counts of all batches are summed and the metric is
    computed once from them; with ``True`` it is computed per sample and class, reduced by
    ``decrease`` and averaged over the batches.

    Arguments:
        skip_channel: keep the first channel (``False`` drops it, for a background class).
        metric_name: e.g. ``'sensitivity'`` (default), ``'precision'``, ``'f1 score'``, ``'mcc'``.
        calculation_method: per-sample computation, as above (default ``False``).
        decrease: ``'none'``, ``'mean'`` (default), ``'sum'``, ``'mean_batch'``, ``'sum_batch'``,
            ``'mean_channel'`` or ``'sum_channel'``.

    Raises:
        TypeError: arguments of the wrong type. ValueError: an unknown ``decrease``.
        NotImplementedError: an unknown ``metric_name`` (when a value is computed).
    """

    def __init__(self, skip_channel: bool = True, metric_name: str = "sensitivity", calculation_method: bool = False,
                 decrease: str = "mean") -> None:
        super().__init__()
        for name, value, kind in (("skip_channel", skip_channel, bool), ("calculation_method", calculation_method, bool),
                                  ("metric_name", metric_name, str), ("decrease", decrease, str)):
            if not isinstance(value, kind):
                raise TypeError(f"For 'ConfusionMatrixMetric', the type of '{name}' should be '{kind.__name__}', but "
                                f"got {type(value).__name__}")
        if decrease not in _DECREASES:
            raise ValueError(f"For 'ConfusionMatrixMetric', the 'decrease' should be in {_DECREASES}, but got "
                             f"{decrease!r}")
        self.skip_channel = skip_channel
        self.metric_name = metric_name
        self.calculation_method = calculation_method
        self.decrease = decrease
        self.clear()

    def clear(self) -> None:
        """Reset the sums."""
        self._total_num = 0.0
        self._class_num = 0
        self._total_tp = self._total_fp = self._total_tn = self._total_fn = 0.0

    @rearrange_inputs
    def update(self, *inputs: Any) -> None:
        """Add one batch ``(y_pred, y)`` of binarised ``(N, C, ...)`` arrays."""
        if len(inputs) != 2:
            raise ValueError(f"For 'ConfusionMatrixMetric.update', it needs 2 inputs (predicted value, true value), "
                             f"but got {len(inputs)}.")
        y_pred, y = self._convert_data(inputs[0]), self._convert_data(inputs[1])
        if not np.all(y.astype(np.uint8) == y):
            raise ValueError("For 'ConfusionMatrix.update', the true value (input[1]) must be a binarized ndarray.")
        if y_pred.ndim < 2:
            raise ValueError(f"For 'ConfusionMatrix.update', the predicted value (input[0]) must have at least 2 "
                             f"dimensions, but got {y_pred.ndim}.")
        counts = _counts_per_class(y_pred, y, self.skip_channel)
        if self.calculation_method:
            score, valid = _reduce(_metric_from_counts(_short_metric_name(self.metric_name), counts), self.decrease)
            valid = int(np.asarray(valid).item())
            self._total_num += np.asarray(score).item() * valid
            self._class_num += valid
        else:
            summed, _ = _reduce(counts, "sum")
            self._total_tp += summed[0].item()
            self._total_fp += summed[1].item()
            self._total_tn += summed[2].item()
            self._total_fn += summed[3].item()

    def eval(self) -> Any:
        """The metric: of the summed counts, or the average of the per-batch values."""
        if self.calculation_method:
            if self._class_num == 0:
                raise RuntimeError("The 'ConfusionMatrixMetric' can not be calculated, because the number of samples "
                                   "is 0, please check whether your inputs(predicted value, true value) are empty, or "
                                   "has called update method before calling eval method.")
            return self._total_num / self._class_num
        counts = np.array([self._total_tp, self._total_fp, self._total_tn, self._total_fn])
        return _metric_from_counts(_short_metric_name(self.metric_name), counts)
