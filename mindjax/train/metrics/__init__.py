"""Evaluation metrics (``clear``/``update``/``eval``) and their MindSpore string names."""
from __future__ import annotations

from typing import Any

from mindjax.train.metrics.metric import Metric, rearrange_inputs
from mindjax.train.metrics.accuracy import Accuracy
from mindjax.train.metrics.topk import Top1CategoricalAccuracy, Top5CategoricalAccuracy, TopKCategoricalAccuracy
from mindjax.train.metrics.precision_recall import Precision, Recall
from mindjax.train.metrics.fbeta import F1, Fbeta
from mindjax.train.metrics.error import MAE, MSE
from mindjax.train.metrics.loss import Loss
from mindjax.train.metrics.confusion_matrix import ConfusionMatrix, ConfusionMatrixMetric
from mindjax.train.metrics.dice import Dice
from mindjax.train.metrics.perplexity import Perplexity
from mindjax.train.metrics.cosine_similarity import CosineSimilarity
from mindjax.train.metrics.bleu_score import BleuScore
from mindjax.train.metrics.hausdorff_distance import HausdorffDistance
from mindjax.train.metrics.mean_surface_distance import MeanSurfaceDistance
from mindjax.train.metrics.root_mean_square_surface_distance import RootMeanSquareDistance
from mindjax.train.metrics.roc import ROC, auc
from mindjax.train.metrics.occlusion_sensitivity import OcclusionSensitivity

__all__ = ["Metric", "rearrange_inputs", "Accuracy", "TopKCategoricalAccuracy", "Top1CategoricalAccuracy",
           "Top5CategoricalAccuracy", "Precision", "Recall", "Fbeta", "F1", "MAE", "MSE", "Loss",
           "ConfusionMatrix", "ConfusionMatrixMetric", "Dice", "Perplexity", "CosineSimilarity", "BleuScore",
           "HausdorffDistance", "MeanSurfaceDistance", "RootMeanSquareDistance", "ROC", "auc", "names", "get_metric_fn",
           "get_metrics", "OcclusionSensitivity"]

_FACTORY: dict[str, type] = {
    "accuracy": Accuracy, "acc": Accuracy, "precision": Precision, "recall": Recall, "F1": F1,
    "roc": ROC, "topk": TopKCategoricalAccuracy, "top_1_accuracy": Top1CategoricalAccuracy,
    "top_5_accuracy": Top5CategoricalAccuracy, "mae": MAE, "mse": MSE, "loss": Loss,
    "confusion_matrix": ConfusionMatrix, "dice": Dice, "bleu_score": BleuScore, "cosine_similarity": CosineSimilarity,
    "hausdorff_distance": HausdorffDistance, "mean_surface_distance": MeanSurfaceDistance,
    "root_mean_square_distance": RootMeanSquareDistance, "perplexity": Perplexity,
    "confusion_matrix_metric": ConfusionMatrixMetric,
}


def names() -> list[str]:
    """The metric names ``get_metric_fn`` and ``Model(metrics={...})`` accept."""
    return sorted(_FACTORY)


def get_metric_fn(name: str, *args: Any, **kwargs: Any) -> Metric:
    """A new metric from its MindSpore name (``'acc'``, ``'loss'``, ``'top_5_accuracy'`` ...)."""
    if name not in _FACTORY:
        raise KeyError(f"For 'get_metric_fn', unsupported metric {name!r}; supported: {names()}")
    return _FACTORY[name](*args, **kwargs)


def get_metrics(metrics: Any) -> dict[str, Metric] | None:
    """``{name: Metric}`` from a set of names or a dict of metrics (``None`` stays ``None``)."""
    if metrics is None:
        return None
    if isinstance(metrics, dict):
        for name, metric in metrics.items():
            if not isinstance(name, str) or not isinstance(metric, Metric):
                raise TypeError(f"For 'get_metrics', a dict of metrics must map str to Metric, got "
                                f"{type(name).__name__}: {type(metric).__name__}")
        return dict(metrics)
    if isinstance(metrics, (set, frozenset)):
        return {name: get_metric_fn(name) for name in sorted(metrics)}
    raise TypeError(f"For 'get_metrics', 'metrics' must be None, a dict or a set, got {type(metrics).__name__}")
