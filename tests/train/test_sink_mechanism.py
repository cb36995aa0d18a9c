"""Sink mode: one lax.scan per sink on GPU and TPU; on XLA:CPU step by step, as MindSpore's CPU backend."""
import jax
import numpy as np
import pytest

import mindjax as ms
from mindjax.train import LambdaCallback, NonFiniteLossError
from mindjax.train import _step
from tests.train.train_nets import BNNet, classification_batches, make_model, weights


def test_sink_mode_sinks_everywhere_but_on_cpu():
    assert _step.sink_runs_on_device() == (jax.default_backend() != "cpu")


def test_sink_mode_on_cpu_trains_step_by_step_as_mindspore(monkeypatch):
    # MindSpore 2.10 on CPU, measured: Model.train(2, 5 batches, dataset_sink_mode=True, sink_size=3)
    # calls step_end after each of the 10 steps, every epoch reads the whole dataset, batch_num is 3
    # and cb_params.dataset_sink_mode is False.
    monkeypatch.setattr(_step, "sink_runs_on_device", lambda: False)
    data = classification_batches(n_batches=5)
    ms.set_seed(3)
    steps, steps_net, _ = make_model()
    ms.set_seed(3)
    sink, sink_net, _ = make_model()
    seen = []
    record = LambdaCallback(on_train_step_end=lambda rc: seen.append(
        (rc.original_args().cur_epoch_num, rc.original_args().cur_step_num, rc.original_args().batch_num,
         rc.original_args().dataset_sink_mode, float(np.asarray(rc.original_args().net_outputs)))))
    per_step = _losses_at_step_end(steps, data, 2, False)
    sink.train(2, data, callbacks=[record], dataset_sink_mode=True, sink_size=3)
    assert [s[:4] for s in seen] == [(1 + i // 5, i + 1, 3, False) for i in range(10)]
    np.testing.assert_allclose([s[4] for s in seen], per_step, rtol=1e-5)
    for name, want in weights(steps_net).items():
        np.testing.assert_allclose(weights(sink_net)[name], want, rtol=1e-5, atol=1e-6, err_msg=name)


def _losses_at_step_end(model, data, epochs, sink, sink_size=-1):
    seen = []
    record = LambdaCallback(on_train_step_end=lambda rc: seen.append(
        float(np.asarray(rc.original_args().net_outputs))))
    model.train(epochs, data, callbacks=[record], dataset_sink_mode=sink, sink_size=sink_size)
    return seen


def test_scan_sink_reaches_the_non_sink_weights_and_reports_the_last_step_loss(scan_sink):
    data = classification_batches(n_batches=5)
    ms.set_seed(1)
    steps, steps_net, _ = make_model(BNNet())
    ms.set_seed(1)
    sink, sink_net, _ = make_model(BNNet())
    per_step = _losses_at_step_end(steps, data, 2, False)
    per_sink = _losses_at_step_end(sink, data, 2, True)
    # step_end fires once per sink (one per epoch here) with the loss of the sink's last step.
    np.testing.assert_allclose(per_sink, [per_step[4], per_step[9]], rtol=1e-5)
    for name, want in weights(steps_net).items():
        np.testing.assert_allclose(weights(sink_net)[name], want, rtol=1e-5, atol=1e-6, err_msg=name)


def test_scan_sink_size_splits_the_data_across_epochs(scan_sink):
    data = classification_batches(n_batches=4)
    ms.set_seed(2)
    steps, steps_net, _ = make_model()
    ms.set_seed(2)
    sink, sink_net, _ = make_model()
    steps.train(3, data)  # 12 steps
    assert len(_losses_at_step_end(sink, data, 4, True, sink_size=3)) == 4  # 4 sinks of 3 steps
    for name, want in weights(steps_net).items():
        np.testing.assert_allclose(weights(sink_net)[name], want, rtol=1e-5, atol=1e-6, err_msg=name)


def test_nan_inside_a_sink_raises_naming_its_step_and_keeps_the_weights_before_it(scan_sink):
    batches = classification_batches(n_batches=4)
    x, y = batches[2]
    batches[2] = (np.full_like(x, np.nan), y)
    ms.set_seed(4)
    model, net, _ = make_model()
    ms.set_seed(4)
    clean, clean_net, _ = make_model()
    clean.train(1, batches[:2])
    with pytest.raises(NonFiniteLossError, match="step 3"):
        model.train(1, batches, dataset_sink_mode=True)
    # Step 3 and step 4, dispatched after it inside the same sink, changed nothing.
    for name, want in weights(clean_net).items():
        np.testing.assert_allclose(weights(net)[name], want, rtol=1e-6, err_msg=name)


def test_sink_mode_on_cpu_runs_the_non_sink_step_program_compiled_once(monkeypatch):
    monkeypatch.setattr(_step, "sink_runs_on_device", lambda: False)
    compiles = []

    def listen(event, duration, **kwargs):
        if event == "/jax/core/compile/backend_compile_duration" and kwargs.get("fun_name", "").startswith(
                "jit(_pure"):
            compiles.append(kwargs["fun_name"])
    jax.monitoring.register_event_duration_secs_listener(listen)
    model, _, _ = make_model()
    model.train(3, classification_batches(n_batches=4), dataset_sink_mode=True)
    model.train(1, classification_batches(n_batches=4), dataset_sink_mode=False)
    assert compiles == ["jit(_pure_single)"]
