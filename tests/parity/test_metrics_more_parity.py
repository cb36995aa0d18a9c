"""Dice, Perplexity, CosineSimilarity, BleuScore, ConfusionMatrixMetric, HausdorffDistance,
MeanSurfaceDistance and RootMeanSquareDistance against MindSpore 2.10's (numpy) metrics."""
import mindspore.train as mstrain
import numpy as np
import pytest

from mindjax import nn
from mindjax.train import metrics as mj_metrics

_RNG = np.random.default_rng(17)


def _run(metric, batches):
    metric.clear()
    for batch in batches:
        metric.update(*batch)
    return metric.eval()


def _seg(shape, seed):
    rng = np.random.default_rng(seed)
    return (rng.random(shape) > 0.5).astype(np.float32)


_PRED = _RNG.random((2, 3, 4)).astype(np.float32)
_PRED /= _PRED.sum(-1, keepdims=True)
_LAB = _RNG.integers(0, 4, (2, 3)).astype(np.int32)
_PRED2, _LAB2 = _PRED.reshape(6, 4), _LAB.reshape(6)
_ONEHOT_P = _seg((3, 2, 4, 4), 1)
_ONEHOT_Y = _seg((3, 2, 4, 4), 2)
_SEG_P = np.zeros((8, 9), np.float32)
_SEG_P[2:6, 1:5] = 1
_SEG_Y = np.zeros((8, 9), np.float32)
_SEG_Y[3:7, 2:8] = 1
_CAND = [["the", "cat", "sat", "on", "the", "mat"], ["a", "dog", "ran", "in", "the", "park", "today"]]
_REFS = [[["the", "cat", "is", "on", "the", "mat"], ["there", "is", "a", "cat", "on", "the", "mat"]],
         [["a", "dog", "ran", "in", "a", "park"]]]

CASES = [
    ("Dice", {}, [(_ONEHOT_P, _ONEHOT_Y), (_ONEHOT_Y, _ONEHOT_Y)]),
    ("Dice", {"smooth": 0.5}, [(_PRED, _PRED[::-1].copy())]),
    ("Perplexity", {}, [(_PRED2, _LAB2), (_PRED2[::-1].copy(), _LAB2)]),
    ("Perplexity", {"ignore_label": 1}, [(_PRED2, _LAB2)]),
    ("CosineSimilarity", {}, [(_PRED[0],)]),
    ("CosineSimilarity", {"similarity": "dot", "reduction": "mean", "zero_diagonal": False}, [(_PRED[0],)]),
    ("CosineSimilarity", {"reduction": "sum"}, [(_PRED[1],)]),
    ("BleuScore", {}, [(_CAND, _REFS)]),
    ("BleuScore", {"n_gram": 2, "smooth": True}, [(_CAND[:1], _REFS[:1]), (_CAND[1:], _REFS[1:])]),
    ("BleuScore", {"n_gram": 1}, [([["x", "y"]], [[["x", "y", "z", "w"]]])]),
    ("HausdorffDistance", {}, [(_SEG_P, _SEG_Y, 1)]),
    ("HausdorffDistance", {"distance_metric": "chessboard", "directed": True}, [(_SEG_P, _SEG_Y, 1)]),
    ("HausdorffDistance", {"percentile": 50.0, "crop": False, "distance_metric": "taxicab"}, [(_SEG_P, _SEG_Y, 1)]),
    ("MeanSurfaceDistance", {}, [(_SEG_P, _SEG_Y, 1)]),
    ("MeanSurfaceDistance", {"symmetric": True, "distance_metric": "taxicab"}, [(_SEG_P, _SEG_Y, 1)]),
    ("RootMeanSquareDistance", {}, [(_SEG_P, _SEG_Y, 1)]),
    ("RootMeanSquareDistance", {"symmetric": True, "distance_metric": "chessboard"}, [(_SEG_P, _SEG_Y, 1)]),
]
for _name in ("sensitivity", "precision", "f1 score", "mcc", "balanced accuracy", "fowlkes mallows index",
              "markedness", "prevalence threshold", "accuracy", "miss rate"):
    CASES.append(("ConfusionMatrixMetric", {"metric_name": _name}, [(_ONEHOT_P, _ONEHOT_Y), (_ONEHOT_Y, _ONEHOT_P)]))
for _dec in ("mean", "sum"):  # the other reductions give arrays, which MindSpore 2.10's update cannot sum
    CASES.append(("ConfusionMatrixMetric", {"metric_name": "tpr", "calculation_method": True, "decrease": _dec,
                                            "skip_channel": _dec != "sum"}, [(_ONEHOT_P, _ONEHOT_Y)]))


@pytest.mark.parametrize("name,kwargs,batches", CASES, ids=[f"{n}-{i}" for i, (n, _, _) in enumerate(CASES)])
def test_metric_matches_mindspore(name, kwargs, batches):
    theirs = _run(getattr(mstrain, name)(**kwargs), batches)
    ours = _run(getattr(nn, name)(**kwargs), batches)
    np.testing.assert_allclose(np.asarray(ours, float), np.asarray(theirs, float), rtol=1e-6, atol=1e-9)


@pytest.mark.parametrize("name", ["dice", "perplexity", "bleu_score", "cosine_similarity", "hausdorff_distance",
                                  "mean_surface_distance", "root_mean_square_distance", "confusion_matrix_metric"])
def test_metric_names_resolve(name):
    assert type(mj_metrics.get_metric_fn(name)).__name__ == type(mstrain.get_metric_fn(name)).__name__


@pytest.mark.parametrize("make,pattern", [
    (lambda m: m.Dice(smooth=0), "smooth"), (lambda m: m.Dice(smooth=1), "smooth"),
    (lambda m: m.Perplexity(ignore_label=1.0), "ignore_label"),
    (lambda m: m.CosineSimilarity(similarity="l2"), "similarity"),
    (lambda m: m.CosineSimilarity(reduction=1), "reduction"),
    (lambda m: m.BleuScore(n_gram=5), "n_gram"), (lambda m: m.BleuScore(smooth=1), "smooth"),
    (lambda m: m.HausdorffDistance(distance_metric="l1"), "distance_metric"),
    (lambda m: m.HausdorffDistance(percentile=50), "percentile"),
    (lambda m: m.MeanSurfaceDistance(symmetric=1), "symmetric"),
    (lambda m: m.RootMeanSquareDistance(distance_metric=3), "distance_metric"),
    (lambda m: m.ConfusionMatrixMetric(decrease="avg"), "decrease"),
    (lambda m: m.ConfusionMatrixMetric(skip_channel=1), "skip_channel"),
])
def test_metric_bad_argument_raises_mindspores_error_type(make, pattern):
    with pytest.raises(Exception) as theirs:
        make(mstrain)
    with pytest.raises(type(theirs.value), match=pattern):
        make(nn)


@pytest.mark.parametrize("make,args", [
    (lambda m: m.Dice(), (_PRED, _PRED[0])),
    (lambda m: m.Perplexity(), (_PRED, _LAB[0])),
    (lambda m: m.HausdorffDistance(), (_SEG_P, _SEG_Y, 3)),
    (lambda m: m.RootMeanSquareDistance(), (_SEG_P, _SEG_Y, "1")),
    (lambda m: m.MeanSurfaceDistance(), (_SEG_P, _SEG_Y[:4], 1)),
    (lambda m: m.ConfusionMatrixMetric(), (_ONEHOT_P, _ONEHOT_Y * 0.5)),
])
def test_metric_bad_update_raises_mindspores_error_type(make, args):
    with pytest.raises(Exception) as theirs:
        make(mstrain).update(*args)
    with pytest.raises(type(theirs.value)):
        make(nn).update(*args)


def test_perplexity_takes_labels_of_any_rank():
    ours = _run(nn.Perplexity(), [(_PRED, _LAB)])
    assert ours == pytest.approx(_run(mstrain.Perplexity(), [(_PRED2, _LAB2)]))


def test_confusion_matrix_metric_per_channel_reduction_over_batches():
    metric = nn.ConfusionMatrixMetric(metric_name="tpr", calculation_method=True, decrease="mean_batch")
    with pytest.raises(ValueError):  # a vector per batch cannot be one running sum, as in MindSpore
        metric.update(_ONEHOT_P, _ONEHOT_Y)


def test_eval_before_update_raises_runtime_error():
    for make in (nn.Dice, nn.Perplexity, nn.CosineSimilarity, nn.BleuScore, nn.HausdorffDistance,
                 nn.MeanSurfaceDistance, nn.RootMeanSquareDistance):
        with pytest.raises(RuntimeError):
            make().eval()
    with pytest.raises(RuntimeError):
        nn.ConfusionMatrixMetric(calculation_method=True).eval()
