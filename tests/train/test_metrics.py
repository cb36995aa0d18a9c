"""Metrics against numpy, and their MindSpore string names."""
import numpy as np
import pytest

import mindjax as ms
from mindjax.train import (F1, MAE, MSE, ROC, Accuracy, ConfusionMatrix, Loss, Precision, Recall,
                           Top1CategoricalAccuracy, Top5CategoricalAccuracy, auc, get_metric_fn, get_metrics, names)

RNG = np.random.default_rng(0)
Y_PRED = RNG.random((40, 6)).astype(np.float32)
Y = RNG.integers(0, 6, size=40)


def _split(*arrays):
    return [tuple(a[i:i + 10] for a in arrays) for i in range(0, 40, 10)]


def _accumulate(metric, *arrays):
    metric.clear()
    for batch in _split(*arrays):
        metric.update(*(ms.Tensor(b) for b in batch))
    return metric.eval()


def test_accuracy_over_batches_matches_numpy_and_accepts_one_hot_labels():
    want = np.mean(Y_PRED.argmax(1) == Y)
    assert _accumulate(Accuracy(), Y_PRED, Y) == pytest.approx(want)
    assert _accumulate(Accuracy(), Y_PRED, np.eye(6)[Y]) == pytest.approx(want)


def test_multilabel_accuracy_counts_rows_that_match_exactly():
    pred = np.array([[1, 0, 1], [0, 1, 1]])
    true = np.array([[1, 0, 1], [0, 1, 0]])
    assert Accuracy("multilabel")(pred, true) == 0.5


def test_top_k_accuracy_matches_numpy():
    top5 = np.argsort(-Y_PRED, axis=1)[:, :5]
    assert _accumulate(Top5CategoricalAccuracy(), Y_PRED, Y) == pytest.approx(np.mean((top5 == Y[:, None]).any(1)))
    assert _accumulate(Top1CategoricalAccuracy(), Y_PRED, Y) == pytest.approx(np.mean(Y_PRED.argmax(1) == Y))


def test_precision_recall_and_f1_per_class_match_numpy():
    pred = Y_PRED.argmax(1)
    tp = np.array([np.sum((pred == c) & (Y == c)) for c in range(6)], float)
    predicted = np.array([np.sum(pred == c) for c in range(6)], float)
    actual = np.array([np.sum(Y == c) for c in range(6)], float)
    precision = np.divide(tp, predicted, out=np.zeros(6), where=predicted > 0)
    recall = np.divide(tp, actual, out=np.zeros(6), where=actual > 0)
    np.testing.assert_allclose(_accumulate(Precision(), Y_PRED, Y), precision)
    np.testing.assert_allclose(_accumulate(Recall(), Y_PRED, Y), recall)
    f1 = np.divide(2 * tp, predicted + actual, out=np.zeros(6), where=(predicted + actual) > 0)
    np.testing.assert_allclose(_accumulate(F1(), Y_PRED, Y), f1)
    metric = Precision()
    _accumulate(metric, Y_PRED, Y)
    assert metric.eval(average=True) == pytest.approx(precision.mean())


def test_mae_and_mse_divide_the_error_sum_by_the_samples():
    pred = RNG.random((40, 3)).astype(np.float32)
    true = RNG.random((40, 3)).astype(np.float32)
    assert _accumulate(MAE(), pred, true) == pytest.approx(np.abs(true - pred).sum() / 40, rel=1e-5)
    assert _accumulate(MSE(), pred, true) == pytest.approx(((true - pred) ** 2).sum() / 40, rel=1e-5)


def test_loss_metric_averages_batch_losses():
    metric = Loss()
    for value in (1.0, 2.0, np.array([3.0, 5.0])):
        metric.update(ms.Tensor(np.asarray(value, np.float32)))
    assert metric.eval() == pytest.approx((1 + 2 + 4) / 3)


def test_confusion_matrix_matches_numpy_and_normalises():
    pred = Y_PRED.argmax(1)
    want = np.zeros((6, 6))
    for t, p in zip(Y, pred):
        want[t, p] += 1
    np.testing.assert_array_equal(_accumulate(ConfusionMatrix(6), Y_PRED, Y), want)
    rows = ConfusionMatrix(6, normalize="target")(Y_PRED, Y)
    np.testing.assert_allclose(rows.sum(1), np.where(want.sum(1) > 0, 1.0, 0.0))


def test_roc_and_auc_of_a_binary_problem():
    scores = np.array([0.1, 0.4, 0.35, 0.8])
    labels = np.array([0, 0, 1, 1])
    fpr, tpr, thresholds = ROC(pos_label=1)(scores, labels)
    np.testing.assert_allclose(fpr, [0, 0, 0.5, 0.5, 1])
    np.testing.assert_allclose(tpr, [0, 0.5, 0.5, 1, 1])
    assert auc(fpr, tpr) == pytest.approx(0.75)


def test_metric_names_and_set_indexes():
    assert {"acc", "accuracy", "loss", "top_5_accuracy", "mae", "F1"} <= set(names())
    metrics = get_metrics({"acc", "loss"})
    assert isinstance(metrics["acc"], Accuracy) and isinstance(metrics["loss"], Loss)
    metric = Accuracy().set_indexes([1, 2])
    metric.update(None, Y_PRED, Y)
    assert metric.eval() == pytest.approx(np.mean(Y_PRED.argmax(1) == Y))


def test_metric_errors_name_the_metric_and_argument():
    with pytest.raises(RuntimeError, match="'Accuracy' can not be calculated"):
        Accuracy().eval()
    with pytest.raises(ValueError, match="For 'Accuracy.update', it needs 2 inputs"):
        Accuracy().update(Y_PRED)
    with pytest.raises(KeyError, match="unsupported metric 'nope'"):
        get_metric_fn("nope")
    with pytest.raises(TypeError, match="'eval_type' must be one of"):
        Accuracy("regression")
    with pytest.raises(ValueError, match="'k' must be at least 1"):
        from mindjax.train import TopKCategoricalAccuracy
        TopKCategoricalAccuracy(0)


def test_set_indexes_rejects_non_int_indexes_with_mindspores_message():
    import pytest as _pytest
    from mindjax.train import Accuracy
    with _pytest.raises(ValueError, match="For 'set_indexes', the argument 'indexes' must be a list and all its "
                                          "elements must be int, please check whether it is correct"):
        Accuracy().set_indexes([0.0, 2.0])


def test_model_eval_reports_metrics_as_python_numbers():
    import numpy as _np
    import mindjax as _ms
    from mindjax import nn as _nn
    from mindjax.train import Model as _Model
    net = _nn.Dense(2, 1)
    model = _Model(net, _nn.MSELoss(), metrics={"mae"})
    data = [(_np.ones((2, 2), _np.float32), _np.zeros((2, 1), _np.float32))]
    result = model.eval(data)
    assert type(result["mae"]) is float and repr(result["mae"]) == repr(float(result["mae"]))
