"""unified_safetensors: MindSpore's per-rank sliced safetensors merged into whole parameters, laid out as MindSpore
writes them (part<i>.safetensors, param_name_map.json, hyper_param.safetensors)."""
import json
import os

import numpy as np
import pytest

import mindjax as ms
from mindjax.parallel.strategy_file import cut_slice, save_strategy_file
from mindjax.train.serialization.safetensors_format import read_safetensors, write_safetensors
from tests.train.test_distributed_checkpoint import BIAS, LAYOUTS, WEIGHT


def write_sliced_safetensors(root, ranks=4):
    strategy = str(root / "strategy.ckpt")
    save_strategy_file(strategy, LAYOUTS)
    for r in range(ranks):
        entries = [("weight", cut_slice(WEIGHT, LAYOUTS["weight"], r, False)),
                   ("bias", cut_slice(BIAS, LAYOUTS["bias"], r, True)),
                   ("global_step", np.array([7], np.int32))]
        os.makedirs(root / "src" / f"rank_{r}", exist_ok=True)
        write_safetensors(str(root / "src" / f"rank_{r}" / "net.safetensors"), entries)
    return strategy


def test_merges_every_parameter_whole_with_the_name_map_and_hyper_parameters(tmp_path):
    strategy = write_sliced_safetensors(tmp_path)
    dst = tmp_path / "unified"
    ms.unified_safetensors(str(tmp_path / "src"), strategy, str(dst))
    assert sorted(os.listdir(dst)) == ["hyper_param.safetensors", "param_name_map.json", "part0.safetensors"]
    whole = read_safetensors(str(dst / "part0.safetensors"))
    np.testing.assert_array_equal(whole["weight"], WEIGHT)
    np.testing.assert_array_equal(whole["bias"], BIAS)
    mapping = json.loads((dst / "param_name_map.json").read_text())
    assert mapping == {"metadata": {"total_size": WEIGHT.nbytes + BIAS.nbytes},
                       "weight_map": {"bias": "part0.safetensors", "weight": "part0.safetensors"}}
    np.testing.assert_array_equal(read_safetensors(str(dst / "hyper_param.safetensors"))["global_step"], [7])
    assert ms.parallel.unified_safetensors is ms.unified_safetensors


def test_choice_func_filters_or_renames(tmp_path):
    strategy = write_sliced_safetensors(tmp_path)
    ms.unified_safetensors(str(tmp_path / "src"), strategy, str(tmp_path / "a"),
                           choice_func=lambda name: name == "weight")
    assert sorted(read_safetensors(str(tmp_path / "a" / "part0.safetensors"))) == ["weight"]
    ms.unified_safetensors(str(tmp_path / "src"), strategy, str(tmp_path / "b"),
                           choice_func=lambda name: "net." + name)
    renamed = read_safetensors(str(tmp_path / "b" / "part0.safetensors"))
    np.testing.assert_array_equal(renamed["net.weight"], WEIGHT)


def test_bad_sources_are_named(tmp_path):
    strategy = write_sliced_safetensors(tmp_path)
    os.remove(tmp_path / "src" / "rank_2" / "net.safetensors")
    with pytest.raises(ValueError, match=r"For 'unified_safetensors', parameter '(weight|bias)' is sliced over ranks "
                                         r"0..3, but it is missing from no checkpoint of rank\(s\) \[2\]"):
        ms.unified_safetensors(str(tmp_path / "src"), strategy, str(tmp_path / "out"))
    with pytest.raises(ValueError, match=r"the 'src_dir' .*nowhere' does not exist"):
        ms.unified_safetensors(str(tmp_path / "nowhere"), strategy, str(tmp_path / "out"))
    with pytest.raises(NotImplementedError, match="merge_with_redundancy=False"):
        ms.unified_safetensors(str(tmp_path / "src"), strategy, str(tmp_path / "out"), merge_with_redundancy=False)
