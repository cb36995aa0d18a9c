"""No checkpoint lost: write before pruning, stale temporaries removed, sharded swaps recoverable."""
import os
import subprocess
import sys

import numpy as np
import pytest

from mindjax.train import CheckpointConfig, ModelCheckpoint
from mindjax.train.callback import checkpoint as checkpoint_module
from mindjax.train.serialization import load_checkpoint, save_checkpoint
from mindjax.train.serialization import sharded
from tests.train.test_serialization_sharded_recovery import _KilledBetweenRenames
from mindjax.train.serialization.atomic import writer_tag
from tests.train.train_nets import classification_batches, make_model, weights


def _dead_pid():
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def _host():
    return writer_tag().rsplit("-", 1)[0]


def test_keep_checkpoint_max_1_keeps_the_old_file_until_the_new_one_is_written(tmp_path, monkeypatch):
    model, _, _ = make_model()
    real_save = checkpoint_module._save
    seen = []

    def save(network, path, config, append):
        seen.append(sorted(os.listdir(tmp_path)))
        if len(seen) == 3:
            raise KeyboardInterrupt("killed during the third save")
        real_save(network, path, config, append)

    monkeypatch.setattr(checkpoint_module, "_save", save)
    config = CheckpointConfig(save_checkpoint_steps=1, keep_checkpoint_max=1)
    with pytest.raises(KeyboardInterrupt):
        model.train(1, classification_batches(n_batches=4), callbacks=ModelCheckpoint("mlp", str(tmp_path), config))
    # While each save ran, the previous checkpoint was still there; the interrupted one left the last intact.
    assert seen == [[], ["mlp-1_1.ckpt"], ["mlp-1_2.ckpt"]]
    assert sorted(os.listdir(tmp_path)) == ["mlp-1_2.ckpt"]
    assert "fc1.weight" in load_checkpoint(str(tmp_path / "mlp-1_2.ckpt"))


def test_keep_checkpoint_max_still_prunes_to_the_limit_after_writing(tmp_path):
    model, net, _ = make_model()
    config = CheckpointConfig(save_checkpoint_steps=1, keep_checkpoint_max=2)
    model.train(1, classification_batches(n_batches=5), callbacks=ModelCheckpoint("mlp", str(tmp_path), config))
    assert sorted(os.listdir(tmp_path)) == ["mlp-1_4.ckpt", "mlp-1_5.ckpt"]
    loaded = load_checkpoint(str(tmp_path / "mlp-1_5.ckpt"))
    np.testing.assert_array_equal(loaded["fc2.bias"].asnumpy(), weights(net)["fc2.bias"])


def test_model_checkpoint_start_removes_temporaries_of_killed_saves_of_its_prefix(tmp_path):
    dead = _dead_pid()
    stale = tmp_path / f".mlp-1_3.ckpt.{_host()}-{dead}.abc123.tmp"
    live = tmp_path / f".mlp-1_4.ckpt.{_host()}-{os.getppid()}.abc123.tmp"  # a running writer
    other_prefix = tmp_path / f".other-1_1.ckpt.{_host()}-{dead}.abc123.tmp"
    other_host = tmp_path / f".mlp-1_5.ckpt.elsewhere-{dead}.abc123.tmp"
    for path in (stale, live, other_prefix, other_host):
        path.write_bytes(b"\0" * 64)
    model, _, _ = make_model()
    config = CheckpointConfig(save_checkpoint_steps=100)
    model.train(1, classification_batches(n_batches=1), callbacks=ModelCheckpoint("mlp", str(tmp_path), config))
    assert not stale.exists()
    assert live.exists() and other_prefix.exists() and other_host.exists()


def test_restart_under_a_renamed_prefix_still_removes_the_killed_runs_temporaries(tmp_path):
    # The killed run left mlp-1_3.ckpt complete and the temporary of mlp-1_4.ckpt; the restart writes as
    # mlp_1 (MindSpore's renaming) but the temporary belongs to a run given the same prefix.
    (tmp_path / "mlp-1_3.ckpt").write_bytes(b"complete")
    dead = _dead_pid()
    stale = tmp_path / f".mlp-1_4.ckpt.{_host()}-{dead}.abc123.tmp"
    stale_renamed = tmp_path / f".mlp_1-1_2.ckpt.{_host()}-{dead}.abc123.tmp"
    other = tmp_path / f".mlpx-1_1.ckpt.{_host()}-{dead}.abc123.tmp"
    for path in (stale, stale_renamed, other):
        path.write_bytes(b"\0" * 64)
    model, _, _ = make_model()
    config = CheckpointConfig(save_checkpoint_steps=100)
    callback = ModelCheckpoint("mlp", str(tmp_path), config)
    model.train(1, classification_batches(n_batches=1), callbacks=callback)
    assert os.path.basename(callback.latest_ckpt_file_name).startswith("mlp_")
    assert not stale.exists() and not stale_renamed.exists()
    assert other.exists() and (tmp_path / "mlp-1_3.ckpt").exists()


def test_model_checkpoint_start_finishes_a_sharded_swap_a_killed_run_left(tmp_path, monkeypatch):
    model, net, _ = make_model()
    path = str(tmp_path / "mlp-1_1.ckpt")
    save_checkpoint(net, path, integrated_save=False)
    real_replace = os.replace

    def replace(src, dst):
        if src.endswith(f".ready-{writer_tag()}"):
            raise _KilledBetweenRenames
        real_replace(src, dst)

    monkeypatch.setattr(sharded.os, "replace", replace)
    with pytest.raises(_KilledBetweenRenames):
        save_checkpoint(net, path, integrated_save=False)
    monkeypatch.setattr(sharded.os, "replace", real_replace)
    assert not os.path.exists(path)
    config = CheckpointConfig(save_checkpoint_steps=100, integrated_save=False)
    ModelCheckpoint("mlp", str(tmp_path), config).begin(None)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["mlp-1_1.ckpt"]
    assert "fc1.weight" in load_checkpoint(path)

