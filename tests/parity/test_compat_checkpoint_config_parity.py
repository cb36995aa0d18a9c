"""CheckpointConfig's reported policy against MindSpore 2.10."""
import os

os.environ.setdefault("GLOG_v", "3")

import pytest  # noqa: E402

mindspore = pytest.importorskip("mindspore")

import mindjax  # noqa: E402


@pytest.mark.parametrize("kwargs", [
    dict(save_checkpoint_steps=4, keep_checkpoint_max=3, append_info=["epoch_num", "step_num", {"lr": 0.01}]),
    dict(save_checkpoint_steps=0, save_checkpoint_seconds=30, keep_checkpoint_max=0,
         keep_checkpoint_per_n_minutes=2),
])
def test_checkpoint_config_reports_its_policy_as_mindspore(kwargs):
    want = mindspore.train.CheckpointConfig(**kwargs)
    got = mindjax.train.CheckpointConfig(**kwargs)
    for name in ("save_checkpoint_steps", "save_checkpoint_seconds", "keep_checkpoint_max",
                 "keep_checkpoint_per_n_minutes", "append_dict", "saved_network", "integrated_save", "format"):
        assert getattr(got, name) == getattr(want, name), name
    assert got.get_checkpoint_policy() == want.get_checkpoint_policy()
