"""load_segmented_checkpoints: every .ckpt of a folder (one per pipeline stage, say) combined and loaded into a net."""
import os

import numpy as np
import pytest

import mindjax as ms
from mindjax import nn


class Two(nn.Cell):
    def __init__(self):
        super().__init__()
        self.first = nn.Dense(3, 4)
        self.second = nn.Dense(4, 2)

    def construct(self, x):
        return self.second(self.first(x))


def _segments(tmp_path):
    """A trained-looking net saved as two segments, one file per stage."""
    ms.set_seed(1)
    source = Two()
    params = {p.name: p for p in source.get_parameters()}
    first = [{"name": n, "data": p} for n, p in params.items() if n.startswith("first.")]
    second = [{"name": n, "data": p} for n, p in params.items() if n.startswith("second.")]
    ms.save_checkpoint(first, str(tmp_path / "stage0.ckpt"))
    ms.save_checkpoint(second, str(tmp_path / "stage1.ckpt"))
    (tmp_path / "notes.txt").write_text("not a checkpoint")
    return source


def test_segments_combine_and_load_into_the_net(tmp_path):
    source = _segments(tmp_path)
    ms.set_seed(2)
    net = Two()
    loaded = ms.load_segmented_checkpoints(str(tmp_path), net)
    assert sorted(loaded) == sorted(p.name for p in source.get_parameters())
    for a, b in zip(net.get_parameters(), source.get_parameters()):
        np.testing.assert_array_equal(a.asnumpy(), b.asnumpy())
    assert ms.parallel.load_segmented_checkpoints is ms.load_segmented_checkpoints


def test_filters_apply_to_each_segment_and_a_later_file_wins(tmp_path):
    source = _segments(tmp_path)
    only_bias = ms.load_segmented_checkpoints(str(tmp_path), choice_func=lambda name: name.endswith("bias"))
    assert sorted(only_bias) == ["first.bias", "second.bias"]
    ms.save_checkpoint([{"name": "first.bias", "data": ms.Tensor(np.full(4, 7, np.float32))}],
                       str(tmp_path / "stage2.ckpt"))
    again = ms.load_segmented_checkpoints(str(tmp_path))
    np.testing.assert_array_equal(again["first.bias"].asnumpy(), np.full(4, 7, np.float32))
    np.testing.assert_array_equal(again["second.weight"].asnumpy(), source.second.weight.asnumpy())


def test_bad_folders_are_named(tmp_path):
    with pytest.raises(TypeError, match="For 'load_segmented_checkpoints', 'ckpt_file_dir' must be a str, got int"):
        ms.load_segmented_checkpoints(3)
    missing = os.path.join(str(tmp_path), "nowhere")
    with pytest.raises(ValueError, match=f"'ckpt_file_dir' {missing!r} does not exist or is not a directory"):
        ms.load_segmented_checkpoints(missing)
    with pytest.warns(UserWarning, match="holds no .ckpt file: nothing is loaded"):
        assert ms.load_segmented_checkpoints(str(tmp_path)) == {}
    (tmp_path / "broken.ckpt").write_bytes(b"\x00garbage")
    with pytest.raises(ValueError, match="broken.ckpt"):
        ms.load_segmented_checkpoints(str(tmp_path))
