"""Model.train / eval / predict / fit: learning, sink mode, callback order and counts."""
import numpy as np
import pytest

import mindjax as ms
from mindjax import nn
from mindjax.train import Callback, LambdaCallback, Model
from tests.train.train_nets import BNNet, MLP, classification_batches, make_model, weights


class _Recorder(Callback):
    """Records every hook call as (hook, epoch, step)."""

    def __init__(self):
        super().__init__()
        self.calls = []

    def _log(self, name, run_context):
        cb = run_context.original_args()
        self.calls.append((name, cb.get("cur_epoch_num"), cb.get("cur_step_num")))

    def on_train_begin(self, rc): self._log("train_begin", rc)
    def on_train_epoch_begin(self, rc): self._log("epoch_begin", rc)
    def on_train_step_begin(self, rc): self._log("step_begin", rc)
    def on_train_step_end(self, rc): self._log("step_end", rc)
    def on_train_epoch_end(self, rc): self._log("epoch_end", rc)
    def on_train_end(self, rc): self._log("train_end", rc)
    def on_eval_begin(self, rc): self._log("eval_begin", rc)
    def on_eval_step_end(self, rc): self._log("eval_step_end", rc)
    def on_eval_end(self, rc): self._log("eval_end", rc)


def test_training_an_mlp_reduces_the_loss():
    data = classification_batches()
    model, _, _ = make_model(metrics={"loss"})
    before = model.eval(data)["loss"]
    model.train(5, data)
    after = model.eval(data)["loss"]
    assert after < 0.7 * before


def test_sink_and_non_sink_training_end_with_the_same_weights():
    data = classification_batches()
    ms.set_seed(3)
    model_a, net_a, _ = make_model(BNNet())
    ms.set_seed(3)
    model_b, net_b, _ = make_model(BNNet())
    for name, value in weights(net_a).items():
        np.testing.assert_array_equal(value, weights(net_b)[name])
    model_a.train(3, data, dataset_sink_mode=False)
    model_b.train(3, data, dataset_sink_mode=True)
    got, want = weights(net_b), weights(net_a)
    assert set(got) == set(want)
    assert any("moving_mean" in n for n in got)
    for name in want:
        np.testing.assert_allclose(got[name], want[name], rtol=1e-5, atol=1e-6, err_msg=name)


def test_sink_size_runs_that_many_steps_per_epoch_continuing_through_the_data(scan_sink):
    data = classification_batches(n_batches=4)
    ms.set_seed(1)
    model_a, net_a, opt_a = make_model()
    ms.set_seed(1)
    model_b, net_b, opt_b = make_model()
    model_a.train(1, data * 2)          # 8 steps over the data twice
    model_b.train(4, data, dataset_sink_mode=True, sink_size=2)
    assert int(np.asarray(opt_b.global_step)[0]) == 8
    for name, want in weights(net_a).items():
        np.testing.assert_allclose(weights(net_b)[name], want, rtol=1e-5, atol=1e-6, err_msg=name)


def test_callback_order_and_counts_without_sink():
    rec = _Recorder()
    model, _, _ = make_model()
    model.train(2, classification_batches(n_batches=3), callbacks=rec)
    names = [c[0] for c in rec.calls]
    assert names == (["train_begin"]
                     + (["epoch_begin"] + ["step_begin", "step_end"] * 3 + ["epoch_end"]) * 2
                     + ["train_end"])
    assert [c[2] for c in rec.calls if c[0] == "step_end"] == [1, 2, 3, 4, 5, 6]
    assert [c[1] for c in rec.calls if c[0] == "epoch_end"] == [1, 2]


def test_callback_order_and_counts_in_sink_mode_fire_step_end_once_per_sink(scan_sink):
    rec = _Recorder()
    model, _, _ = make_model()
    model.train(2, classification_batches(n_batches=3), callbacks=[rec], dataset_sink_mode=True)
    names = [c[0] for c in rec.calls]
    assert names == ["train_begin"] + ["epoch_begin", "step_begin", "step_end", "epoch_end"] * 2 + ["train_end"]
    assert [c[2] for c in rec.calls if c[0] == "step_end"] == [3, 6]


def test_run_context_exposes_the_training_state_and_request_stop_ends_training():
    seen = {}

    def step_end(rc):
        cb = rc.original_args()
        seen.update(epoch_num=cb.epoch_num, batch_num=cb.batch_num, optimizer=cb.optimizer,
                    train_network=cb.train_network, loss=float(cb.net_outputs), step=cb.cur_step_num)
        if cb.cur_step_num == 2:
            rc.request_stop()

    model, _, opt = make_model()
    model.train(3, classification_batches(n_batches=4), callbacks=LambdaCallback(on_train_step_end=step_end))
    assert seen["step"] == 2 and seen["epoch_num"] == 3 and seen["batch_num"] == 4
    assert seen["optimizer"] is opt and seen["train_network"] is model.train_network
    assert np.isfinite(seen["loss"])


def test_eval_with_metrics_matches_numpy_and_fit_reports_eval_results():
    data = classification_batches()
    model, net, _ = make_model(metrics={"acc", "loss"})
    logits = np.concatenate([np.asarray(model.predict(ms.Tensor(x))) for x, _ in data])
    labels = np.concatenate([y for _, y in data])
    result = model.eval(data)
    assert result["acc"] == pytest.approx(np.mean(logits.argmax(1) == labels))
    results = []
    model.fit(2, data, valid_dataset=data,
              callbacks=LambdaCallback(on_train_epoch_end=lambda rc: results.append(
                  dict(rc.original_args().eval_results))))
    assert [sorted(r) for r in results] == [["acc", "eval_loss", "loss"]] * 2
    # As MindSpore 2.10: eval_loss is the last batch's loss, the 'loss' metric the mean over batches.
    last_x, last_y = data[-1]
    last_loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")(
        model.predict(ms.Tensor(last_x)), ms.Tensor(last_y))
    assert results[1]["eval_loss"] == pytest.approx(float(last_loss), rel=1e-5)


def test_model_accepts_dict_batches_and_one_shot_iterators():
    data = classification_batches(n_batches=2)
    model, _, opt = make_model()
    model.train(2, iter([{"x": x, "y": y} for x, y in data]))
    assert int(np.asarray(opt.global_step)[0]) == 4


def test_model_without_loss_fn_trains_a_network_returning_the_loss():
    net = MLP()
    with_loss = nn.WithLossCell(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"))
    opt = nn.SGD(net.trainable_params(), 0.1)
    model = Model(with_loss, optimizer=opt)
    data = classification_batches(n_batches=2)
    first = float(with_loss(*map(ms.Tensor, data[0])))
    model.train(5, data)
    assert float(with_loss(*map(ms.Tensor, data[0]))) < first


def test_model_rejects_bad_arguments_naming_the_argument():
    net = MLP()
    with pytest.raises(TypeError, match="For 'Model', 'network' must be a Cell"):
        Model(lambda x: x)
    with pytest.raises(ValueError, match="'amp_level' 'O2' needs an 'optimizer'"):
        Model(net, amp_level="O2")
    with pytest.raises(ValueError, match="keyword argument 'foo'"):
        Model(net, foo=1)
    with pytest.raises(ValueError, match="'eval_network' or 'loss_fn'"):
        Model(net, metrics={"acc"})
    model, _, _ = make_model()
    with pytest.raises(ValueError, match="For 'Model.train', 'epoch' must be an int >= 1"):
        model.train(0, classification_batches())
    with pytest.raises(ValueError, match="'sink_size' must be -1 or a positive int"):
        model.train(1, classification_batches(), dataset_sink_mode=True, sink_size=0)
    with pytest.raises(ValueError, match="each batch must have 2 elements"):
        model.train(1, [(np.ones((2, 4), np.float32),)])
    with pytest.raises(ValueError, match="For 'Model.eval', the model has no metrics"):
        model.eval(classification_batches())


def test_train_epoch_arguments_follow_mindspores_validator_error_types():
    model, _, _ = make_model()
    with pytest.raises(TypeError, match="For 'Model.train', 'initial_epoch' must be an int >= 0, got str '123'"):
        model.train(3, classification_batches(), initial_epoch="123")
    with pytest.raises(TypeError, match="'epoch' must be an int >= 1, got float 2.0"):
        model.train(2.0, classification_batches())
    with pytest.raises(ValueError, match="'initial_epoch' must be an int >= 0, got -1"):
        model.train(3, classification_batches(), initial_epoch=-1)
    with pytest.raises(ValueError, match="'initial_epoch' must be less than 'epoch' \\(3\\), got 4"):
        model.train(3, classification_batches(), initial_epoch=4)


class _SelfIteratingData:
    """A dataset object that is its own iterator and starts over only on reset(), as MindSpore's mocks."""

    def __init__(self, batches):
        self.batches, self.at, self.resets = batches, 0, 0

    def get_dataset_size(self):
        return len(self.batches)

    def create_tuple_iterator(self, num_epochs=-1, do_copy=True):
        return self

    def __iter__(self):
        return self

    def __next__(self):
        if self.at >= len(self.batches):
            raise StopIteration
        self.at += 1
        return self.batches[self.at - 1]

    def reset(self):
        self.at, self.resets = 0, self.resets + 1


def test_train_resets_a_self_iterating_dataset_after_each_epoch_like_mindspore():
    model, _, _ = make_model()
    data = _SelfIteratingData(list(classification_batches()))
    steps = []

    class Count(ms.train.Callback):
        def on_train_step_end(self, run_context):
            steps.append(run_context.original_args().cur_epoch_num)

    model.train(2, data, callbacks=Count(), dataset_sink_mode=False)
    model.train(2, data, callbacks=Count(), dataset_sink_mode=False, initial_epoch=1)
    n = len(data.batches)
    assert steps == [1] * n + [2] * n + [2] * n and data.resets == 3
