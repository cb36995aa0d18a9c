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

