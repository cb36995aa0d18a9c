"""A sharded save killed between its renames is recovered on the next load."""
import os

import numpy as np
import pytest

from mindjax.train.serialization import load_checkpoint, save_checkpoint
from mindjax.train.serialization import sharded
from tests.train.train_nets import make_model, weights


class _KilledBetweenRenames(BaseException):
    pass


@pytest.mark.parametrize("kill_at", [1, 2, 3])
def test_sharded_save_killed_between_renames_is_recovered_on_the_next_load(tmp_path, monkeypatch, kill_at):
    model, net, _ = make_model()
    path = str(tmp_path / "net.ckpt")
    save_checkpoint(net, path, integrated_save=False)
    old = weights(net)["fc2.bias"]
    net.fc2.bias.set_data(net.fc2.bias.value() + 1)
    new = weights(net)["fc2.bias"]
    real_replace = os.replace
    calls = []

    def replace(src, dst):
        calls.append((src, dst))
        if len(calls) == kill_at:
            raise _KilledBetweenRenames
        real_replace(src, dst)

    monkeypatch.setattr(sharded.os, "replace", replace)
    with pytest.raises(_KilledBetweenRenames):
        save_checkpoint(net, path, integrated_save=False)
    monkeypatch.setattr(sharded.os, "replace", real_replace)
    # The renames: staging -> ready, old -> retired, ready -> the name. Killed at the third,
    # no folder has the name; before it, the old checkpoint still does.
    assert os.path.exists(path) == (kill_at < 3)
    loaded = load_checkpoint(path)
    np.testing.assert_array_equal(loaded["fc2.bias"].asnumpy(), old if kill_at < 3 else new)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["net.ckpt"]



def test_pruning_a_sharded_checkpoint_killed_mid_delete_leaves_no_broken_folder_under_its_name(tmp_path, monkeypatch):
    from mindjax.train import CheckpointConfig, ModelCheckpoint

    batches = [(x, y) for x, y in _batches(3)]
    model, net, _ = make_model()
    cfg = CheckpointConfig(save_checkpoint_steps=1, keep_checkpoint_max=1, integrated_save=False)
    half_deleted = []

    def killed_mid_delete(path):  # the folder is half gone when the process dies
        half_deleted.append(path)
        import shutil
        shutil.rmtree(os.path.join(path, "extra"), ignore_errors=True)
        raise _KilledBetweenRenames

    monkeypatch.setattr(sharded, "_remove_tree", killed_mid_delete)
    with pytest.raises(_KilledBetweenRenames):
        model.train(1, batches, callbacks=[ModelCheckpoint(prefix="net", directory=str(tmp_path), config=cfg)],
                    dataset_sink_mode=False)
    assert half_deleted and ".deleting-" in half_deleted[0]
    # Every folder under a checkpoint's name loads; the half-deleted one is only under its '.deleting' name.
    named = [p for p in os.listdir(tmp_path) if p.endswith(".ckpt")]
    assert named == ["net-1_2.ckpt"]
    load_checkpoint(str(tmp_path / named[0]))
    monkeypatch.undo()
    sharded.remove_stale_sharded(str(tmp_path), "net")     # what the next ModelCheckpoint start runs
    assert sorted(os.listdir(tmp_path)) == ["net-1_2.ckpt"]  # removed, never restored


def _batches(n):
    from tests.train.train_nets import classification_batches

    return classification_batches(n_batches=n)
