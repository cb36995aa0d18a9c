"""Sliced per-rank checkpoints in MindSpore's layout: merging, re-slicing, and the errors for bad input."""
import os

import numpy as np
import pytest

import mindjax as ms
from mindjax import nn
from mindjax.parallel.strategy_file import ParamLayout, cut_slice, save_strategy_file
from mindjax.train.serialization.ckpt_format import read_ckpt, write_ckpt

WEIGHT = np.arange(24, dtype=np.float32).reshape(4, 6)
BIAS = np.arange(6, dtype=np.float32)
# 4 ranks, dev_matrix (2, 2): the weight's rows over device dimension 0, columns over 1; the bias
# replicated with an optimizer shard of 2 (its slices hold half of it).
LAYOUTS = {"weight": ParamLayout((2, 2), ((1,), (0,))),
           "bias": ParamLayout((2, 2), ((),), opt_shard_size=2, opt_shard_step=1)}


class Holder(nn.Cell):
    def __init__(self, weight_shape=(4, 6)):
        super().__init__()
        self.weight = ms.Parameter(np.zeros(weight_shape, np.float32), name="weight")
        self.bias = ms.Parameter(np.zeros(6, np.float32), name="bias")


def write_sliced(root, layouts=LAYOUTS, ranks=4, extra=None):
    """The strategy file and rank_<r>/net.ckpt slices MindSpore's layout puts on each rank."""
    strategy = str(root / "strategy.ckpt")
    save_strategy_file(strategy, layouts)
    files = []
    for r in range(ranks):
        entries = [("weight", cut_slice(WEIGHT, layouts["weight"], r, False)),
                   ("bias", cut_slice(BIAS, layouts["bias"], r, True))] + list((extra or {}).get(r, []))
        path = root / f"rank_{r}" / "net.ckpt"
        os.makedirs(path.parent, exist_ok=True)
        write_ckpt(str(path), entries)
        files.append(str(path))
    return strategy, files


def test_slices_follow_mindspores_rank_layout():
    # rank 3 has coordinates (1, 1): the lower right block; its bias half is the second (3 % 2).
    np.testing.assert_array_equal(cut_slice(WEIGHT, LAYOUTS["weight"], 3, False), WEIGHT[2:, 3:])
    np.testing.assert_array_equal(cut_slice(BIAS, LAYOUTS["bias"], 3, True), BIAS[3:])
    np.testing.assert_array_equal(cut_slice(BIAS, LAYOUTS["bias"], 2, True), BIAS[:3])


def test_load_distributed_checkpoint_merges_into_whole_parameters(tmp_path):
    strategy, files = write_sliced(tmp_path)
    net = Holder()
    assert ms.load_distributed_checkpoint(net, files, None, strategy)
    np.testing.assert_array_equal(net.weight.asnumpy(), WEIGHT)
    np.testing.assert_array_equal(net.bias.asnumpy(), BIAS)
    merged = ms.load_distributed_checkpoint(Holder(), files, None, strategy, return_param_dict=True)
    assert sorted(merged) == ["bias", "weight"]


def test_the_strategy_comes_from_strategy_ckpt_config_when_not_given(tmp_path):
    strategy, files = write_sliced(tmp_path)
    ms.set_auto_parallel_context(strategy_ckpt_config={"load_file": strategy})
    net = Holder()
    ms.load_distributed_checkpoint(net, files)
    np.testing.assert_array_equal(net.weight.asnumpy(), WEIGHT)


def test_a_missing_rank_file_is_named(tmp_path):
    strategy, files = write_sliced(tmp_path)
    os.remove(files[2])
    with pytest.raises(ValueError, match=r"For 'load_distributed_checkpoint', the checkpoint file of rank 2 does "
                                         r"not exist: .*rank_2/net.ckpt"):
        ms.load_distributed_checkpoint(Holder(), files, None, strategy)


def test_a_wrong_number_of_rank_files_says_expected_and_got(tmp_path):
    strategy, files = write_sliced(tmp_path)
    with pytest.raises(ValueError, match=r"lays parameters over 4 ranks, but got 3 file\(s\)"):
        ms.load_distributed_checkpoint(Holder(), files[:3], None, strategy)


def test_a_slice_of_the_wrong_shape_names_the_file_and_both_shapes(tmp_path):
    strategy, files = write_sliced(tmp_path)
    write_ckpt(files[1], [("weight", np.zeros((2, 2), np.float32)), ("bias", BIAS[3:])])
    with pytest.raises(ValueError, match=r"parameter 'weight' in .*rank_1/net.ckpt has shape \(2, 2\), expected "
                                         r"\(2, 3\) as in .*rank_0/net.ckpt"):
        ms.load_distributed_checkpoint(Holder(), files, None, strategy)


def test_slices_that_do_not_merge_to_the_networks_shape_say_both(tmp_path):
    strategy, files = write_sliced(tmp_path)
    with pytest.raises(ValueError, match=r"parameter 'weight' .* merge to shape \(4, 6\), but the network's "
                                         r"parameter has shape \(4, 5\)"):
        ms.load_distributed_checkpoint(Holder((4, 5)), files, None, strategy)


def test_a_parameter_missing_from_one_rank_names_that_file(tmp_path):
    strategy, files = write_sliced(tmp_path)
    write_ckpt(files[3], [("weight", WEIGHT[2:, 3:])])
    with pytest.raises(ValueError, match=r"parameter 'bias' is sliced over ranks 0..3, but it is missing from "
                                         r".*rank_3/net.ckpt \(rank 3\)"):
        ms.load_distributed_checkpoint(Holder(), files, None, strategy)


def test_unknown_names_are_reported(tmp_path):
    """A checkpoint name the network lacks comes back unloaded; with strict_load a strategy name no file holds fails."""
    strategy, files = write_sliced(tmp_path, extra={r: [("step", np.array(7, np.int32))] for r in range(4)})
    merged = ms.load_distributed_checkpoint(Holder(), files, None, strategy, return_param_dict=True)
    assert int(merged["step"].asnumpy()) == 7  # not in the strategy: rank 0's value as it is
    layouts = dict(LAYOUTS, ghost=ParamLayout((2, 2), ((1,),)))
    save_strategy_file(strategy, layouts)
    with pytest.raises(ValueError, match=r"names parameter\(s\) \['ghost'\] that no checkpoint file holds"):
        ms.load_distributed_checkpoint(Holder(), files, None, strategy, strict_load=True)


def test_bad_strategy_files_are_named(tmp_path):
    _, files = write_sliced(tmp_path)
    with pytest.raises(ValueError, match=r"For 'load_distributed_checkpoint', no such strategy file: .*nope.ckpt"):
        ms.load_distributed_checkpoint(Holder(), files, None, str(tmp_path / "nope.ckpt"))
    garbage = tmp_path / "garbage.ckpt"
    garbage.write_bytes(b"\xff\xff\xff\xff not a strategy")
    with pytest.raises(TypeError, match=r"garbage.ckpt is not a strategy file"):
        ms.build_searched_strategy(str(garbage))
    with pytest.raises(ValueError, match=r"no training strategy"):
        ms.load_distributed_checkpoint(Holder(), files)


def test_merge_sliced_parameter_without_strategy_joins_dimension_0():
    parts = [ms.Parameter(np.full((2, 3), r, np.float32), "emb") for r in range(4)]
    merged = ms.merge_sliced_parameter(parts)
    assert merged.shape == (8, 3) and merged.name == "emb"
    np.testing.assert_array_equal(merged.asnumpy()[::2, 0], [0, 1, 2, 3])


def test_merge_sliced_parameter_rejects_bad_input_naming_it(tmp_path):
    with pytest.raises(TypeError, match=r"'sliced_parameters' should be list"):
        ms.merge_sliced_parameter((ms.Parameter(np.ones(2), "a"),))
    with pytest.raises(ValueError, match=r"should not be empty"):
        ms.merge_sliced_parameter([])
    with pytest.raises(ValueError, match=r"expected a, 1, \(\), got b, 1, \(\) at index 1"):
        ms.merge_sliced_parameter([ms.Parameter(np.ones(2), "a"), ms.Parameter(np.ones(2), "b")])
    strategy, _ = write_sliced(tmp_path)
    layouts = ms.build_searched_strategy(strategy)
    with pytest.raises(KeyError, match=r"the parameter name other should be a key in the 'strategy'"):
        ms.merge_sliced_parameter([ms.Parameter(np.ones(2), "other")], layouts)
    with pytest.raises(ValueError, match=r"parameter 'weight' is laid out over 4 ranks .* but 2 slice\(s\)"):
        ms.merge_sliced_parameter([ms.Parameter(np.ones((2, 3)), "weight")] * 2, layouts)


def test_transform_checkpoints_reslices_and_names_a_missing_rank(tmp_path):
    strategy, _ = write_sliced(tmp_path / "src")
    ms.transform_checkpoints(str(tmp_path / "src"), str(tmp_path / "whole"), "net_", strategy, None)
    whole = read_ckpt(str(tmp_path / "whole" / "rank_0" / "net_0.ckpt"))
    np.testing.assert_array_equal(whole["weight"], WEIGHT)
    np.testing.assert_array_equal(whole["bias"], BIAS)
    two = str(tmp_path / "two.ckpt")
    save_strategy_file(two, {"weight": ParamLayout((2,), ((), (0,))), "bias": ParamLayout((2,), ((0,),))})
    ms.transform_checkpoints(str(tmp_path / "src"), str(tmp_path / "two"), "net_", strategy, two)
    np.testing.assert_array_equal(read_ckpt(str(tmp_path / "two" / "rank_1" / "net_1.ckpt"))["weight"], WEIGHT[:, 3:])
    np.testing.assert_array_equal(read_ckpt(str(tmp_path / "two" / "rank_1" / "net_1.ckpt"))["bias"], BIAS[3:])
    os.remove(tmp_path / "src" / "rank_3" / "net.ckpt")
    with pytest.raises(ValueError, match=r"the checkpoint file of rank3 is needed for converting rank1's "
                                         r"checkpoint, but it is missing"):
        ms.transform_checkpoints(str(tmp_path / "src"), str(tmp_path / "again"), "net_", strategy, two)


def test_transform_checkpoint_by_rank_needs_the_listed_ranks(tmp_path):
    strategy, files = write_sliced(tmp_path)
    with pytest.raises(ValueError, match=r"should end with .ckpt"):
        ms.transform_checkpoint_by_rank(0, dict(enumerate(files)), str(tmp_path / "out.bin"), strategy, None)
    with pytest.raises(ValueError, match=r"source rank\(s\) \[1, 2, 3\] are needed for rank 0"):
        ms.transform_checkpoint_by_rank(0, {0: files[0]}, str(tmp_path / "out.ckpt"), strategy, None)
    assert ms.rank_list_for_transform(0, strategy, None) == [3, 2, 1, 0]
