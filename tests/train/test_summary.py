"""TensorBoard summaries: event files written by SummaryCollector / SummaryRecord, parsed back."""
import glob
import struct

import numpy as np
import pytest
from tensorboardX.proto import event_pb2

from mindjax.train import SummaryCollector, SummaryRecord
from tests.train.train_nets import classification_batches, make_model


def _read_events(path):
    """Every Event in a TFRecord event file."""
    events = []
    with open(path, "rb") as f:
        data = f.read()
    offset = 0
    while offset < len(data):
        (length,) = struct.unpack("<Q", data[offset:offset + 8])
        payload = data[offset + 12: offset + 12 + length]
        offset += 12 + length + 4
        event = event_pb2.Event()
        event.ParseFromString(payload)
        events.append(event)
    return events


def _values(directory):
    files = glob.glob(f"{directory}/events.out.tfevents.*")
    assert len(files) == 1
    found = {}
    for event in _read_events(files[0]):
        for value in event.summary.value:
            found.setdefault(value.tag, []).append((event.step, value))
    return found


def test_summary_collector_writes_loss_lr_metrics_histograms_and_hlo(tmp_path):
    model, net, _ = make_model(lr=0.05, metrics={"acc"})
    data = classification_batches(n_batches=4)
    collector = SummaryCollector(str(tmp_path), collect_freq=2)
    model.fit(2, data, valid_dataset=data, callbacks=collector)
    found = _values(tmp_path)
    assert [step for step, _ in found["loss"]] == [1, 3, 5, 7]
    assert all(np.isfinite(v.simple_value) for _, v in found["loss"])
    assert found["learning_rate"][0][1].simple_value == pytest.approx(0.05)
    assert [step for step, _ in found["eval/acc"]] == [4, 8]
    hist = found["fc1.weight/auto"][0][1].histo
    assert hist.num == 64 and hist.min <= hist.max
    hlo_tags = [tag for tag in found if tag.startswith("compiled_step_hlo")]
    assert hlo_tags
    text = found[hlo_tags[0]][0][1].tensor.string_val[0].decode()
    assert "func.func" in text or "HloModule" in text


def test_summary_collector_in_sink_mode_records_every_sink(tmp_path, scan_sink):
    model, _, _ = make_model()
    model.train(3, classification_batches(n_batches=2), callbacks=SummaryCollector(str(tmp_path), collect_freq=10,
                                                                                   collect_specified_data={
                                                                                       "collect_graph": False}),
                dataset_sink_mode=True)
    found = _values(tmp_path)
    assert [step for step, _ in found["loss"]] == [2, 4, 6]
    assert not any(tag.startswith("compiled_step_hlo") for tag in found)


def test_summary_record_writes_buffered_values_at_record(tmp_path):
    with SummaryRecord(str(tmp_path)) as record:
        record.add_value("scalar", "x", np.float32(1.5))
        record.add_value("histogram", "h", np.arange(10.0))
        record.record(3)
        record.add_value("scalar", "x", 2.5)
        record.record(4)
    found = _values(tmp_path)
    assert [(s, v.simple_value) for s, v in found["x"]] == [(3, 1.5), (4, 2.5)]
    assert found["h"][0][1].histo.num == 10
    with pytest.raises(ValueError, match="'plugin' must be one of"):
        SummaryRecord(str(tmp_path / "b")).add_value("audio", "a", 1)


def test_summary_collector_rejects_bad_arguments():
    with pytest.raises(ValueError, match="For 'SummaryCollector', 'collect_freq' must be a positive int"):
        SummaryCollector("./x", collect_freq=0)
    with pytest.raises(ValueError, match="unknown key 'collect_everything'"):
        SummaryCollector("./x", collect_specified_data={"collect_everything": True})


@pytest.mark.parametrize("sink", [False, True])
def test_summary_collector_records_the_rate_each_step_used_up_to_the_end_of_a_rate_list(tmp_path, sink, scan_sink):
    rates = [0.1, 0.08, 0.06, 0.04]  # one per step: after the last step the list is used up
    model, _, _ = make_model(lr=rates)
    model.train(2, classification_batches(n_batches=2), callbacks=SummaryCollector(str(tmp_path), collect_freq=1),
                dataset_sink_mode=sink)
    found = _values(tmp_path)["learning_rate"]
    expected = [(2, 0.1), (4, 0.06)] if sink else list(zip(range(1, 5), rates))
    assert [(step, pytest.approx(rate)) for step, rate in expected] == [(s, v.simple_value) for s, v in found]
