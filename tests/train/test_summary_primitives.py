"""ScalarSummary, ImageSummary, TensorSummary and HistogramSummary: values recorded inside ``construct``
reach SummaryRecord.record (eagerly, in GRAPH mode, and through Model.train with SummaryCollector)."""
import numpy as np
import pytest

import mindjax as ms
from mindjax import nn, ops
from mindjax.train import SummaryCollector, SummaryRecord
from tests.train.test_summary import _values
from tests.train.train_nets import MLP, classification_batches, make_model


class _SummaryNet(nn.Cell):
    def __init__(self):
        super().__init__()
        self.scalar, self.histogram = ops.ScalarSummary(), ops.HistogramSummary()
        self.image, self.tensor = ops.ImageSummary(), ops.TensorSummary()

    def construct(self, x):
        y = x * 2
        self.scalar("y_sum", y.sum())
        self.histogram("y", y)
        self.tensor("x", x)
        self.image("img", y.reshape(1, 1, 2, 2))
        return y


class _LoggingMLP(MLP):
    def __init__(self):
        super().__init__()
        self.summary = ops.ScalarSummary()

    def construct(self, x):
        out = super().construct(x)
        self.summary("out_mean", out.mean())
        return out


@pytest.mark.parametrize("mode", ["PYNATIVE_MODE", "GRAPH_MODE"])
def test_summary_ops_in_construct_reach_summary_record(tmp_path, mode):
    ms.set_context(mode=getattr(ms, mode))
    try:
        with SummaryRecord(str(tmp_path)) as record:
            _SummaryNet()(ms.Tensor(np.arange(4, dtype=np.float32)))
            record.record(7)
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    found = _values(tmp_path)
    assert [(s, v.simple_value) for s, v in found["y_sum"]] == [(7, 12.0)]
    assert found["y"][0][1].histo.num == 4 and found["y"][0][1].histo.max == 6.0
    assert found["x"][0][1].histo.num == 4
    assert found["img"][0][0] == 7


def test_the_newest_value_of_a_tag_wins_and_record_empties_the_cache(tmp_path):
    summary = ops.ScalarSummary()
    with SummaryRecord(str(tmp_path)) as record:
        summary("v", ms.Tensor(1.0))
        summary("v", ms.Tensor(2.0))
        record.record(1)
        record.record(2)  # nothing new: nothing written
    found = _values(tmp_path)
    assert [(s, v.simple_value) for s, v in found["v"]] == [(1, 2.0)]


def test_values_recorded_before_a_summary_record_opens_are_dropped(tmp_path):
    ops.ScalarSummary()("early", ms.Tensor(1.0))
    with SummaryRecord(str(tmp_path)) as record:
        ops.ScalarSummary()("late", ms.Tensor(2.0))
        record.record(1)
    found = _values(tmp_path)
    assert "early" not in found and "late" in found


def test_summary_collector_writes_summary_ops_of_the_compiled_step_at_collection_steps(tmp_path):
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        model, _, _ = make_model(net=_LoggingMLP())
        model.train(1, classification_batches(n_batches=4), callbacks=SummaryCollector(str(tmp_path), collect_freq=2))
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    found = _values(tmp_path)
    # Collection steps 1 and 3, and the epoch's end (step 4), where the collector records its histograms.
    assert [s for s, _ in found["out_mean"]] == [1, 3, 4]
    assert all(np.isfinite(v.simple_value) for _, v in found["out_mean"])


def test_summary_ops_check_name_and_value_naming_the_op():
    with pytest.raises(TypeError, match=r"For 'ScalarSummary', the 'name' must be a non-empty str, but got ''"):
        ops.ScalarSummary()("", ms.Tensor(1.0))
    with pytest.raises(TypeError, match=r"For 'TensorSummary', the 'value' must be a Tensor, but got float"):
        ops.TensorSummary()("t", 1.0)
    with pytest.raises(ValueError, match=r"For 'ScalarSummary', the 'value' must be the v rank must be less"
                                         r".*but got shape \(3,\)"):
        ops.ScalarSummary()("s", ms.Tensor(np.ones(3, np.float32)))
    with pytest.raises(ValueError, match=r"For 'ImageSummary', the 'value' must be 4-D \(N, C, H, W\), but got "
                                         r"shape \(2, 2\)"):
        ops.ImageSummary()("i", ms.Tensor(np.ones((2, 2), np.float32)))
    with pytest.raises(ValueError, match=r"For 'HistogramSummary', the 'value' must be not empty"):
        ops.HistogramSummary()("h", ms.Tensor(1.0))


def test_summary_primitives_carry_mindspore_channel_attributes():
    assert ops.ScalarSummary().attrs["channel_name"] == "ms_scalar_summary"
    assert ops.HistogramSummary().attrs["channel_name"] == "ms_histogram_summary"
    assert ops.ImageSummary().attrs["side_effect_io"] is True
