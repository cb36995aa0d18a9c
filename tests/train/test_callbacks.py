"""Built-in callbacks: loss monitor, checkpoints, early stopping, learning-rate control, history, progress."""
import io
import os

import numpy as np
import pytest

import mindjax as ms
from mindjax.train import (BackupAndRestore, CheckpointConfig, EarlyStopping, History, LearningRateScheduler,
                           LossMonitor, ModelCheckpoint, ProgressBar, ReduceLROnPlateau, TimeMonitor)
from tests.train.train_nets import classification_batches, make_model, weights


def _lr(opt):
    return float(np.asarray(opt.learning_rate).reshape(-1)[0])


def test_loss_monitor_prints_epoch_step_and_loss(capsys):
    model, _, _ = make_model()
    model.train(1, classification_batches(n_batches=4), callbacks=LossMonitor(2))
    lines = capsys.readouterr().out.strip().splitlines()
    assert [line.split(",")[0] for line in lines] == ["epoch: 1 step: 2", "epoch: 1 step: 4"]
    assert all("loss is" in line for line in lines)


def test_loss_monitor_stops_on_nan_with_a_clear_message():
    model, _, _ = make_model()
    bad = [(np.full((4, 4), np.nan, np.float32), np.zeros(4, np.int32))]
    with pytest.raises(ValueError, match="In epoch: 1 step: 1, loss is NAN or INF"):
        model.train(1, bad, callbacks=LossMonitor())


def test_model_checkpoint_writes_mindspore_named_files_and_keeps_the_newest(tmp_path):
    model, _, _ = make_model()
    config = CheckpointConfig(save_checkpoint_steps=2, keep_checkpoint_max=3)
    ckpt = ModelCheckpoint(prefix="mlp", directory=str(tmp_path), config=config)
    model.train(2, classification_batches(n_batches=4), callbacks=ckpt)
    assert sorted(os.listdir(tmp_path)) == ["mlp-1_4.ckpt", "mlp-2_2.ckpt", "mlp-2_4.ckpt"]
    assert ckpt.latest_ckpt_file_name == str(tmp_path / "mlp-2_4.ckpt")
    second = ModelCheckpoint(prefix="mlp", directory=str(tmp_path), config=config)
    model.train(1, classification_batches(n_batches=2), callbacks=second)
    assert os.path.exists(tmp_path / "mlp_1-1_2.ckpt")


def test_checkpoint_config_rejects_bad_arguments():
    with pytest.raises(ValueError, match="For 'CheckpointConfig', 'save_checkpoint_steps' must be"):
        CheckpointConfig(save_checkpoint_steps=-1)
    with pytest.raises(ValueError, match="For 'ModelCheckpoint', 'prefix' must be a str without '/'"):
        ModelCheckpoint(prefix="a/b")


def test_early_stopping_on_the_training_loss_stops_and_restores_best_weights():
    model, net, _ = make_model(lr=0.0)
    stopper = EarlyStopping(monitor="loss", patience=1, restore_best_weights=True)
    history = History()
    model.train(10, classification_batches(n_batches=2), callbacks=[stopper, history])
    assert stopper.stopped_epoch == 2
    assert history.epoch["epoch"] == [1, 2]


def test_reduce_lr_on_plateau_multiplies_the_learning_rate():
    model, _, opt = make_model(lr=0.0)
    model.train(3, classification_batches(n_batches=2),
                callbacks=ReduceLROnPlateau(monitor="loss", factor=0.5, patience=1, min_lr=0.0))
    assert _lr(opt) == 0.0
    model, _, opt = make_model(lr=1e-9)
    model.train(4, classification_batches(n_batches=2),
                callbacks=ReduceLROnPlateau(monitor="loss", factor=0.5, patience=1, min_delta=1.0))
    assert _lr(opt) == pytest.approx(1e-9 * 0.5 ** 3)


def test_learning_rate_scheduler_changes_the_compiled_steps_learning_rate():
    model, net, opt = make_model(lr=0.1)
    model.train(1, classification_batches(n_batches=3),
                callbacks=LearningRateScheduler(lambda lr, step: lr * 0.5 if step % 1 == 0 else lr))
    assert _lr(opt) == pytest.approx(0.1 * 0.5 ** 3)
    before = weights(net)
    scheduler = LearningRateScheduler(lambda lr, step: 0.0)
    model.train(1, classification_batches(n_batches=1), callbacks=scheduler)
    model.train(1, classification_batches(n_batches=1, seed=5))
    after = weights(net)
    # momentum keeps moving the weights even at lr 0; the lr itself stays 0
    assert _lr(opt) == 0.0 and set(after) == set(before)


def test_history_records_the_loss_of_each_epoch_and_fit_metrics():
    model, _, _ = make_model(metrics={"acc"})
    history = History()
    data = classification_batches(n_batches=2)
    model.fit(2, data, valid_dataset=data, callbacks=history)
    assert history.epoch["epoch"] == [1, 2]
    assert len(history.history["net_output"]) == 2 and len(history.history["acc"]) == 2


def test_time_monitor_and_progress_bar_report(capsys):
    from rich.console import Console

    buffer = io.StringIO()
    bar = ProgressBar(update_freq=2, console=Console(file=buffer, force_terminal=False, width=120))
    model, _, _ = make_model()
    model.train(2, classification_batches(n_batches=4), callbacks=[TimeMonitor(), bar])
    out = capsys.readouterr().out
    assert out.count("Train epoch time:") == 2 and "per step time:" in out
    text = buffer.getvalue()
    assert "8/8" in text and "loss" in text and "step/s" in text
    assert " 0.0 step/s" not in text.splitlines()[-1]  # the closing refresh keeps the last speed
    assert isinstance(bar.last_loss, float)


def test_backup_and_restore_resumes_and_ends_where_an_uninterrupted_run_ends(tmp_path):
    data = classification_batches(n_batches=2)
    ms.set_seed(7)
    model, net, _ = make_model()
    model.train(4, data)
    want = weights(net)

    ms.set_seed(7)
    model, net, _ = make_model()

    class _Crash(Exception):
        pass

    from mindjax.train import LambdaCallback

    def crash(rc):
        if rc.original_args().cur_epoch_num == 2:
            raise _Crash()

    with pytest.raises(_Crash):
        model.train(4, data, callbacks=[BackupAndRestore(str(tmp_path)), LambdaCallback(on_train_epoch_end=crash)])
    ms.set_seed(7)
    model, net, _ = make_model()
    epochs = []
    model.train(4, data, callbacks=[BackupAndRestore(str(tmp_path)),
                                    LambdaCallback(on_train_epoch_begin=lambda rc: epochs.append(
                                        rc.original_args().cur_epoch_num))])
    assert epochs == [3, 4]  # the backup of epoch 2 was written before the crash
    for name, value in weights(net).items():
        np.testing.assert_allclose(value, want[name], rtol=1e-6, atol=1e-7, err_msg=name)
    assert not os.listdir(tmp_path)


def test_internal_callback_param_and_callback_manager_drive_callbacks_by_hand() -> None:
    from mindjax.train.callback import Callback, RunContext, _CallbackManager, _InternalCallbackParam

    seen = []

    class Record(Callback):
        def on_train_epoch_end(self, run_context):
            seen.append(run_context.original_args().cur_epoch_num)

    cb_params = _InternalCallbackParam()
    cb_params.cur_epoch_num = 3
    assert cb_params["cur_epoch_num"] == 3
    with _CallbackManager([Record()]) as callbacks:
        callbacks.on_train_epoch_end(RunContext(cb_params))
    with _CallbackManager(Record()) as callbacks:
        callbacks.on_train_epoch_end(RunContext(cb_params))
    _CallbackManager(None).on_train_begin(RunContext(cb_params))
    assert seen == [3, 3]
    with pytest.raises(TypeError, match="For 'CallbackManager', every element of 'callbacks' must be a Callback"):
        _CallbackManager([1])


def test_early_stopping_needs_no_network_unless_it_restores_weights() -> None:
    from mindjax.train.callback import EarlyStopping, RunContext, _CallbackManager, _InternalCallbackParam

    cb_params = _InternalCallbackParam()
    run_context = RunContext(cb_params)
    with _CallbackManager([EarlyStopping(monitor="eval_loss", patience=1)]) as callbacks:
        for epoch, loss in enumerate([1.0, 2.0, 3.0], start=1):
            cb_params.eval_results = {"eval_loss": loss}
            cb_params.cur_epoch_num = epoch
            callbacks.on_train_epoch_end(run_context)
    assert run_context.get_stop_requested()
    with pytest.raises(AttributeError, match="train_network"):
        cb_params.eval_results = {"eval_loss": 0.5}
        EarlyStopping(monitor="eval_loss", restore_best_weights=True).on_train_epoch_end(run_context)
