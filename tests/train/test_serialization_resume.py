"""Exact resume: training state saved with the parameters; SIGKILL mid-epoch, then resume bit-for-bit."""
import json
import os
import signal
import subprocess
import sys
import textwrap
import time

import jax
import numpy as np
import pytest

import mindjax as ms
from mindjax import nn
from mindjax.common.random import RNG_STATE, next_key
from mindjax.train.serialization import (load_checkpoint, restore_training_state, save_training_state,
                                         training_state_append_dict)

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _train_cell():
    net = nn.SequentialCell([nn.Dense(4, 8), nn.BatchNorm1d(8), nn.Dense(8, 3)])
    loss = nn.WithLossCell(net, nn.MSELoss())
    return nn.TrainOneStepCell(loss, nn.Adam(net.trainable_params(), 0.01))


def test_training_state_round_trips_every_variable_and_the_random_key(tmp_path):
    cell = _train_cell()
    x, y = ms.Tensor(np.ones((4, 4), np.float32)), ms.Tensor(np.zeros((4, 3), np.float32))
    cell(x, y)
    next_key()
    saved = {p.name: np.asarray(p.value()).copy() for _, p in cell.parameters_and_names()}
    saved_key = np.asarray(RNG_STATE._value).copy()
    path = str(tmp_path / "state.ckpt")
    save_training_state(path, cell, {"epoch": 2, "data_position": {"shard": 1, "offset": 96}})
    cell(x, y)
    next_key()
    extra = restore_training_state(path, cell)
    assert extra == {"epoch": 2, "data_position": {"shard": 1, "offset": 96}}
    for _, p in cell.parameters_and_names():
        np.testing.assert_array_equal(np.asarray(p.value()), saved[p.name], err_msg=p.name)
    np.testing.assert_array_equal(np.asarray(RNG_STATE._value), saved_key)
    assert "optimizer.moment1.0.weight" in dict(cell.parameters_and_names())  # optimizer state is covered
    # The file is an ordinary checkpoint: the weights load with load_checkpoint.
    assert "0.weight" in load_checkpoint(path)


def test_restore_validates_everything_before_writing(tmp_path):
    path = str(tmp_path / "state.ckpt")
    save_training_state(path, _train_cell())
    other = nn.TrainOneStepCell(nn.WithLossCell(
        nn.SequentialCell([nn.Dense(4, 8), nn.BatchNorm1d(8), nn.Dense(8, 5)]), nn.MSELoss()),
        nn.Momentum(nn.Dense(1, 1).trainable_params(), 0.1, 0.9))
    with pytest.raises(ValueError, match="lacks"):
        restore_training_state(path, other)
    cell = _train_cell()
    cell.network._backbone[2].bias.set_data(ms.Tensor(np.zeros(4, np.float32)))
    before = np.asarray(cell.network._backbone[0].weight.value()).copy()
    with pytest.raises(ValueError, match=r"'2.bias' is float32\(3,\) in .* but float32\(4,\) in the training "
                                         r"Cell; nothing was restored"):
        restore_training_state(path, cell)
    np.testing.assert_array_equal(np.asarray(cell.network._backbone[0].weight.value()), before)


def test_training_state_append_dict_rejects_non_json_extra():
    with pytest.raises(TypeError, match="'extra' must be JSON-serialisable"):
        training_state_append_dict({"x": object()})


_SCRIPT = textwrap.dedent("""
    import json, os, sys, time
    import numpy as np
    import mindjax as ms
    from mindjax import nn
    from mindjax.train import Callback, DynamicLossScaleManager, Model
    from mindjax.train.serialization import restore_training_state, save_training_state

    role, work = sys.argv[1], sys.argv[2]
    EPOCHS, BATCHES = 4, 5
    state_path = os.path.join(work, "state.ckpt")
    rng = np.random.default_rng(0)
    xs = rng.normal(size=(BATCHES * 8, 4)).astype(np.float32)
    data = [(xs[i:i + 8], (xs[i:i + 8, 0] > 0).astype(np.int32)) for i in range(0, len(xs), 8)]

    def build():
        ms.set_seed(0)
        net = nn.SequentialCell([nn.Dense(4, 16), nn.BatchNorm1d(16), nn.ReLU(), nn.Dropout(p=0.3),
                                 nn.Dense(16, 2)])
        loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
        opt = nn.Adam(net.trainable_params(), 0.01)
        manager = DynamicLossScaleManager(init_loss_scale=2 ** 10, scale_window=3)
        return Model(net, loss, opt, loss_scale_manager=manager)

    class SaveState(Callback):
        def on_train_epoch_end(self, run_context):
            cb = run_context.original_args()
            save_training_state(state_path, cb.train_network,
                                {"epoch": cb.cur_epoch_num, "cur_step_num": cb.cur_step_num,
                                 "data_position": {"epoch": cb.cur_epoch_num, "batch": 0}})

    class WaitForKill(Callback):
        def on_train_step_end(self, run_context):
            cb = run_context.original_args()
            if cb.cur_epoch_num == 3 and cb.cur_step_num == 2 * BATCHES + 3:
                open(os.path.join(work, "mid_epoch_3"), "w").close()
                time.sleep(300)

    class StepCounter(Callback):
        def __init__(self, start):
            self.start = start

        def on_train_begin(self, run_context):
            run_context.original_args().cur_step_num = self.start

    def state(model):
        return {p.name: np.asarray(p.value()) for _, p in model.train_network.parameters_and_names()}

    if role == "killed":
        build().train(EPOCHS, data, callbacks=[SaveState(), WaitForKill()])
        raise SystemExit("not killed")
    model = build()
    extra = restore_training_state(state_path, model.train_network)
    model.train(EPOCHS, data, callbacks=[StepCounter(extra["cur_step_num"])], initial_epoch=extra["epoch"])
    resumed = state(model)
    straight = build()
    straight.train(EPOCHS, data)
    np.savez(os.path.join(work, "resumed.npz"), **resumed)
    np.savez(os.path.join(work, "straight.npz"), **state(straight))
    print(json.dumps(extra))
""")


def test_sigkill_mid_epoch_then_resume_matches_an_uninterrupted_run_bit_for_bit(tmp_path):
    # The three runs compile the same step: a shared persistent cache compiles it once.
    env = dict(os.environ, PYTHONPATH=REPO, JAX_PLATFORMS="cpu", JAX_COMPILATION_CACHE_DIR=str(tmp_path / "xla"),
               JAX_PERSISTENT_CACHE_MIN_COMPILE_TIME_SECS="0", JAX_PERSISTENT_CACHE_MIN_ENTRY_SIZE_BYTES="0")
    marker = tmp_path / "mid_epoch_3"
    child = subprocess.Popen([sys.executable, "-c", _SCRIPT, "killed", str(tmp_path)], env=env,
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 240
        while not marker.exists():
            assert child.poll() is None, child.stdout.read().decode()
            assert time.monotonic() < deadline, "training never reached the middle of epoch 3"
            time.sleep(0.05)
        child.send_signal(signal.SIGKILL)
        child.wait(30)
    finally:
        if child.poll() is None:
            child.kill()
    assert child.returncode == -signal.SIGKILL

    result = subprocess.run([sys.executable, "-c", _SCRIPT, "resume", str(tmp_path)], env=env,
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr
    extra = json.loads(result.stdout.strip().splitlines()[-1])
    assert extra["epoch"] == 2 and extra["data_position"] == {"epoch": 2, "batch": 0}
    resumed, straight = np.load(tmp_path / "resumed.npz"), np.load(tmp_path / "straight.npz")
    assert sorted(resumed.files) == sorted(straight.files)
    assert any("moment1" in n for n in resumed.files) and "scale_sense" in resumed.files
    for name in straight.files:
        np.testing.assert_array_equal(resumed[name], straight[name], err_msg=name)
    assert int(straight["global_step"][0]) == 20
