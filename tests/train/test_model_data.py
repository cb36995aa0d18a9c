"""Model reads a mindjax.dataset through one stream: new shuffles each epoch, sink blocks, positions, seeds."""
import numpy as np
import pytest

import mindjax as ms
import mindjax.dataset as ds
from mindjax import nn
from mindjax.common import random as ms_random
from mindjax.train import Callback, Model
from mindjax.train._data import DataSource


def _arrays(n=24):
    rng = np.random.default_rng(0)
    x = rng.normal(size=(n, 4)).astype(np.float32)
    y = (x @ rng.normal(size=(4, 2))).astype(np.float32)
    return x, y


def _pipeline(n=24, batch=4, shuffle=True, drop=True):
    x, y = _arrays(n)
    return ds.NumpySlicesDataset({"x": x, "y": y}, shuffle=shuffle).batch(batch, drop_remainder=drop)


def _model():
    ms.set_seed(5)
    net = nn.Dense(4, 2)
    return Model(net, nn.MSELoss(), nn.Momentum(net.trainable_params(), 0.05, 0.9)), net


def _weights(net):
    return [np.asarray(p._value) for p in net.get_parameters()]


class _Inputs(Callback):
    """Records the data of every step, epoch by epoch."""

    def __init__(self):
        super().__init__()
        self.epochs = []

    def on_train_epoch_begin(self, run_context):
        self.epochs.append([])

    def on_train_step_begin(self, run_context):
        self.epochs[-1].append(np.asarray(run_context.original_args().train_dataset_element[0]))


def test_shuffled_pipeline_gives_new_orders_each_epoch_and_trains_like_a_hand_fed_loop():
    model, net = _model()  # ms.set_seed seeds the dataset too: set its own seed after
    ds.config.set_seed(11)
    seen = _Inputs()
    model.train(3, _pipeline(), callbacks=seen)
    orders = [np.concatenate(e)[:, 0].tolist() for e in seen.epochs]
    assert len(seen.epochs) == 3 and all(len(e) == 6 for e in seen.epochs)
    assert orders[0] != orders[1] and orders[1] != orders[2]
    assert sorted(orders[0]) == sorted(orders[1]) == sorted(orders[2])
    # The same three orders, read on the host, fed as plain batches: the same weights, bit for bit.
    ds.config.set_seed(11)
    it = _pipeline().create_tuple_iterator(num_epochs=3, output_numpy=True)
    host = [batch for _ in range(3) for batch in it]  # each pass over the iterator is one epoch
    assert np.concatenate([b[0] for b in host])[:, 0].tolist() == sum(orders, [])
    hand, hand_net = _model()
    hand.train(1, [tuple(b) for b in host])
    for got, want in zip(_weights(net), _weights(hand_net)):
        np.testing.assert_array_equal(got, want)


def test_sink_and_non_sink_training_on_a_shuffled_pipeline_agree():
    steps, steps_net = _model()
    ds.config.set_seed(3)
    steps.train(3, _pipeline())
    sink, sink_net = _model()
    ds.config.set_seed(3)
    sink.train(3, _pipeline(), dataset_sink_mode=True)
    for got, want in zip(_weights(sink_net), _weights(steps_net)):
        np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-7)


def test_sink_size_blocks_straddle_epochs_and_short_batches_like_step_by_step_training(scan_sink):
    # 18 rows in batches of 4: 4, 4, 4, 4, 2 per epoch; sinks of 3 steps cut blocks across both.
    steps, steps_net = _model()
    ds.config.set_seed(2)
    steps.train(3, _pipeline(n=18, drop=False))
    sink, sink_net = _model()
    ds.config.set_seed(2)
    sink.train(5, _pipeline(n=18, drop=False), dataset_sink_mode=True, sink_size=3)
    assert int(np.asarray(sink.train_network.optimizer.global_step)[0]) == 15
    for got, want in zip(_weights(sink_net), _weights(steps_net)):
        np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-7)


def test_data_position_of_a_split_sink_block_resumes_at_the_next_unused_batch():
    data = _pipeline(n=18, drop=False)
    first = DataSource(data, "Model.train", "train_dataset", sink_size=3)
    first.sink(3)
    first.sink(3)  # the second sink used one batch of a three-batch block
    state = first.get_state()
    assert state["kind"] == "device_iterator" and state["skip"] == 1
    want = [np.asarray(b[0]) for b, _ in first.sink(3)]
    first.close()
    again = DataSource(data, "Model.train", "train_dataset", sink_size=3)
    again.set_state(state)
    got = [np.asarray(b[0]) for b, _ in again.sink(3)]
    again.close()
    assert [g.shape for g in got] == [w.shape for w in want]
    for g, w in zip(got, want):
        np.testing.assert_array_equal(g, w)


def test_plain_iterables_keep_working_and_their_position_is_a_batch_index():
    x, y = _arrays()
    batches = [(x[i:i + 4], y[i:i + 4]) for i in range(0, 24, 4)]
    source = DataSource(batches, "Model.train", "train_dataset")
    assert next(source.epoch())[0] is batches[0][0]
    assert source.get_state()["position"] == 1
    with pytest.raises(ValueError, match="saved data position must come from a iterable dataset"):
        source.set_state({"version": 1, "kind": "device_iterator", "iterator": None, "skip": 0})


def test_eval_and_fit_read_a_pipeline_like_arrays():
    model, net = _model()
    model = Model(net, nn.MSELoss(), nn.Momentum(net.trainable_params(), 0.05, 0.9), metrics={"loss"})
    x, y = _arrays()
    arrays = [(x[i:i + 4], y[i:i + 4]) for i in range(0, 24, 4)]
    assert model.eval(_pipeline(shuffle=False))["loss"] == pytest.approx(model.eval(arrays)["loss"], rel=1e-6)
    seen = []

    class _Metrics(Callback):
        def on_train_epoch_end(self, run_context):
            seen.append(run_context.original_args().metrics["loss"])

    model.fit(2, _pipeline(), valid_dataset=_pipeline(shuffle=False), callbacks=_Metrics())
    assert len(seen) == 2 and seen[1] == pytest.approx(model.eval(arrays)["loss"], rel=1e-6)


def test_ms_set_seed_seeds_the_dataset_through_its_hook_every_time():
    ms.set_seed(3)
    assert ds.config.get_seed() == 3
    ds.config.set_seed(9)
    assert ds.config.get_seed() == 9
    ms.set_seed(3)  # the same global seed again still reseeds the dataset, as MindSpore's set_seed does
    assert ds.config.get_seed() == 3
    calls = []
    hook = calls.append
    ms_random.add_seed_hook(hook)
    ms_random.add_seed_hook(hook)
    try:
        ms.set_seed(4)
    finally:
        ms_random.remove_seed_hook(hook)
    ms.set_seed(6)
    assert calls == [4]
    with pytest.raises(TypeError, match="For 'add_seed_hook', 'hook' must be callable, got int"):
        ms_random.add_seed_hook(1)


def _square_losses(dataset, epochs, initial_epoch=0, sink=False):
    """The net_outputs a callback sees per step of a Model whose network squares its input."""
    class Square(ms.nn.Cell):
        def construct(self, x):
            return x * x

    class Record(ms.train.Callback):
        def __init__(self):
            super().__init__()
            self.seen = []

        def on_train_step_end(self, run_context):
            out = run_context.original_args().net_outputs
            assert isinstance(out, ms.Tensor)  # MindSpore's callbacks call out.asnumpy()
            self.seen.append(out.asnumpy().tolist())

    record = Record()
    ms.train.Model(Square()).train(epochs, dataset, callbacks=record, dataset_sink_mode=sink,
                                   initial_epoch=initial_epoch)
    return record.seen


def test_resume_mid_epoch_with_set_init_step_reads_the_rest_of_that_epoch_only():
    import mindjax.dataset as ds

    ds.config.set_seed(0)
    data = ds.NumpySlicesDataset(np.arange(10, dtype=np.int32), shuffle=True)
    full = _square_losses(data, 2)
    data.set_init_step(15)
    resumed = _square_losses(data, 2, initial_epoch=1)
    assert len(full) == 20 and resumed == full[15:]


def test_sink_mode_on_cpu_resumes_with_set_init_step_giving_one_loss_per_step(monkeypatch):
    # MindSpore's CPU backend trains sink mode step by step: one loss per step, and set_init_step
    # resumes at that very step (tests/st/dataset/test_set_init_step.py, the CPU cases).
    import mindjax.dataset as ds
    from mindjax.train import _step

    monkeypatch.setattr(_step, "sink_runs_on_device", lambda: False)
    ds.config.set_seed(0)
    data = ds.NumpySlicesDataset(np.arange(10, dtype=np.int32), shuffle=True)
    full = _square_losses(data, 2, sink=True)
    data.set_init_step(15)
    resumed = _square_losses(data, 2, initial_epoch=1, sink=True)
    assert len(full) == 20 and resumed == full[15:]
