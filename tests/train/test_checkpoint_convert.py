"""ckpt_to_safetensors / safetensors_to_ckpt: round trips through this package's readers and writers."""
import os

import numpy as np
import pytest

import mindjax as ms
from mindjax.train.serialization.ckpt_format import read_ckpt
from mindjax.train.serialization.safetensors_format import read_safetensors

_VALUES = {"fc.weight": np.arange(6, dtype=np.float32).reshape(2, 3), "fc.bias": np.array([1, -2], np.int64),
           "step": np.array(7, np.int32)}


def _save(path, fmt="ckpt"):
    ms.save_checkpoint({k: ms.Tensor(v) for k, v in _VALUES.items()}, str(path), format=fmt)


def _check(read, renamed=None):
    renamed = renamed or {}
    assert sorted(read) == sorted(renamed.get(name, name) for name in _VALUES)
    for name, value in _VALUES.items():
        got = read[renamed.get(name, name)]
        np.testing.assert_array_equal(got, value)
        assert got.dtype == value.dtype


def test_a_ckpt_file_converts_to_safetensors_and_back(tmp_path):
    _save(tmp_path / "net.ckpt")
    ms.ckpt_to_safetensors(str(tmp_path / "net.ckpt"))
    _check(read_safetensors(str(tmp_path / "net.safetensors")))
    os.remove(tmp_path / "net.ckpt")
    ms.safetensors_to_ckpt(str(tmp_path / "net.safetensors"), str(tmp_path / "back"))
    _check(read_ckpt(str(tmp_path / "back" / "net.ckpt")))
    loaded = ms.load_checkpoint(str(tmp_path / "back" / "net.ckpt"))
    np.testing.assert_array_equal(loaded["fc.weight"].asnumpy(), _VALUES["fc.weight"])


def test_name_map_renames_and_directories_convert_per_rank(tmp_path):
    for rank in ("rank0", "rank1"):
        os.makedirs(tmp_path / "src" / rank)
        _save(tmp_path / "src" / rank / "a.ckpt")
        _save(tmp_path / "src" / rank / "b.ckpt")
    ms.ckpt_to_safetensors(str(tmp_path / "src"), str(tmp_path / "dst"), name_map={"fc.weight": "w"},
                           file_name_regex="^a")
    for rank in ("rank0", "rank1"):
        assert sorted(os.listdir(tmp_path / "dst" / rank)) == ["a.safetensors"]
        _check(read_safetensors(str(tmp_path / "dst" / rank / "a.safetensors")), {"fc.weight": "w"})


def test_bad_arguments_raise_mindspores_errors(tmp_path):
    _save(tmp_path / "net.ckpt")
    with pytest.raises(ValueError, match="For ckpt_to_safetensors, the input path must be a valid path or file"):
        ms.ckpt_to_safetensors(str(tmp_path / "missing.ckpt"))
    with pytest.raises(ValueError, match="the save_path must be a directory, but got '.*out.st'"):
        ms.ckpt_to_safetensors(str(tmp_path / "net.ckpt"), str(tmp_path / "out.st"))
    with pytest.raises(ValueError, match="the type of 'name_map' must be a directory"):
        ms.ckpt_to_safetensors(str(tmp_path / "net.ckpt"), name_map=[1])
    with pytest.raises(ValueError, match="For safetensors_to_ckpt, the input file must be a .safetensors file"):
        ms.safetensors_to_ckpt(str(tmp_path / "net.ckpt"))
    with pytest.raises(ValueError, match="the input file does not match the regular expression."):
        ms.ckpt_to_safetensors(str(tmp_path / "net.ckpt"), file_name_regex="^zzz")
    with pytest.raises(ValueError, match="no directories starting with 'rank' found in"):
        ms.ckpt_to_safetensors(str(tmp_path))
    with pytest.raises(ValueError, match="'processes_num' must be a positive int, but got 0"):
        ms.ckpt_to_safetensors(str(tmp_path / "net.ckpt"), processes_num=0)
