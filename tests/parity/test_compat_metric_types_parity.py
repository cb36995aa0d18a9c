"""Metric return types against MindSpore 2.10 (numpy scalars, not Python floats)."""
import os

os.environ.setdefault("GLOG_v", "3")

import numpy as np  # noqa: E402
import pytest  # noqa: E402

mindspore = pytest.importorskip("mindspore")

import mindjax  # noqa: E402


def test_loss_metric_and_auc_return_mindspores_numpy_scalar_types():
    def run(framework):
        train = framework.train
        metric = train.Loss()
        metric.update(framework.Tensor(np.float32(0.3)))
        metric.update(framework.Tensor(np.array([0.1, 0.2], np.float32)))
        roc = train.ROC(pos_label=1)
        roc.update(framework.Tensor(np.array([0.1, 0.8, 0.4, 0.6, 0.3], np.float32)),
                   framework.Tensor(np.array([0, 1, 1, 0, 1], np.int32)))
        fpr, tpr, _ = roc.eval()
        return metric.eval(), train.auc(fpr, tpr)

    (want_loss, want_auc), (got_loss, got_auc) = run(mindspore), run(mindjax)
    assert type(got_loss) is type(want_loss) is np.float32
    assert got_loss == want_loss
    assert type(got_auc) is type(want_auc) is np.float64
    assert got_auc == pytest.approx(want_auc)
