"""MindSpore's strategy files: the message classes, JSON, the slicing they describe, and saving a plan's file."""
import json

import numpy as np
import pytest

import mindjax as ms
from mindjax import nn
from mindjax.parallel import strategy_file as sf
from tests.parallel.nets import MegatronMLP


def test_protobuf_and_json_strategy_files_read_the_same(tmp_path):
    layouts = {"w": sf.ParamLayout((2, 4), ((1,), (0,)), opt_shard_size=0),
               "emb": sf.ParamLayout((2, 2, 2), ((2, 0), ()), opt_shard_size=2, opt_shard_step=2)}
    sf.save_strategy_file(str(tmp_path / "s.ckpt"), layouts)
    sf.save_strategy_file(str(tmp_path / "s.json"), layouts)
    from_pb = sf.layouts_of(str(tmp_path / "s.ckpt"), "test")
    from_json = sf.layouts_of(str(tmp_path / "s.json"), "test")
    assert from_pb == from_json == layouts
    content = json.loads((tmp_path / "s.json").read_text())
    assert content["parallel_layout_item"]["emb"]["tensor_map"] == [[2, 0], [-1]]
    assert content["parallel_layout_item"]["w"]["dev_matrix"] == [2, 4]


@pytest.mark.parametrize("layout,opt", [
    (sf.ParamLayout((2, 4), ((1,), (0,))), False),
    (sf.ParamLayout((2, 4), ((0,), ())), False),                                  # repeated over dim 0
    (sf.ParamLayout((2, 2, 2), ((2, 0), ())), False),                             # one dim over two device dims
    (sf.ParamLayout((2, 4), ((), (1,)), opt_shard_size=4, opt_shard_step=1), True),  # optimizer shard
    (sf.ParamLayout((2, 4), ((1,), ()), opt_shard_size=-1), True),                   # shard over every repeat
])
def test_slices_cut_and_merge_back_to_the_whole(layout, opt):
    whole = np.arange(16 * 12, dtype=np.float32).reshape(16, 12)
    slices = [sf.cut_slice(whole, layout, r, opt) for r in range(layout.device_num)]
    np.testing.assert_array_equal(sf.merge_slices("p", slices, layout, opt, "test"), whole)
    assert layout.full_shape(slices[0].shape, opt) == whole.shape


def test_an_optimizer_shard_larger_than_the_repeats_is_an_error():
    layout = sf.ParamLayout((2, 4), ((1,), (0,)), opt_shard_size=2)
    with pytest.raises(ValueError, match=r"optimizer shard size 2 is larger than the repeated devices"):
        layout.opt_factor()


def test_uneven_first_dimension_slices_follow_param_split_shape():
    layout = sf.ParamLayout((2,), ((0,), ()), split_shape=(3, 5))
    whole = np.arange(16, dtype=np.float32).reshape(8, 2)
    slices = [whole[:3], whole[3:]]
    np.testing.assert_array_equal(sf.merge_slices("p", slices, layout, False, "test"), whole)


def test_restore_group_info_list_reads_the_restore_ranks(tmp_path):
    group_map = sf.ParallelGroupMap()
    group_map.ckpt_restore_rank_list.dim.extend([0, 4])
    item = group_map.parallel_group_item.add(group_name="g")
    item.parallel_group_ranks.dim.extend([0, 4])
    (tmp_path / "group.pb").write_bytes(group_map.SerializeToString())
    assert ms.parallel.restore_group_info_list(str(tmp_path / "group.pb")) == [0, 4]
    with pytest.raises(ValueError, match=r"no such group information file"):
        ms.parallel.restore_group_info_list(str(tmp_path / "none.pb"))


def test_merge_pipeline_strategys_prefixes_each_stage(tmp_path):
    (tmp_path / "stages").mkdir()
    for stage in range(2):
        sf.save_strategy_file(str(tmp_path / "stages" / f"s{stage}.ckpt"),
                              {"w": sf.ParamLayout((2,), ((0,),))}, stage=stage)
    ms.merge_pipeline_strategys(str(tmp_path / "stages"), str(tmp_path / "merged.ckpt"))
    assert sorted(ms.build_searched_strategy(str(tmp_path / "merged.ckpt"))) == ["0-w", "1-w"]
    layouts = sf.layouts_of(str(tmp_path / "merged.ckpt"), "test")
    assert layouts["w"].stages == (0, 1)
    with pytest.raises(NotADirectoryError):
        ms.merge_pipeline_strategys(str(tmp_path / "nowhere"), str(tmp_path / "x.ckpt"))


def test_model_train_writes_the_strategy_file_of_its_plan(tmp_path):
    """strategy_ckpt_config's save_file holds each trainable Parameter's layout, as MindSpore writes it."""
    path = str(tmp_path / "strategy.ckpt")
    ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.SEMI_AUTO_PARALLEL,
                                 strategy_ckpt_config={"save_file": path})
    net = MegatronMLP(d=16, mp=4, dp=2)
    net.shard(in_strategy=((2, 1),), parameter_plan={"w1": (1, 4), "w2": (4, 1)})
    model = ms.Model(net, nn.MSELoss(), nn.SGD(net.trainable_params(), 0.1))
    x = np.ones((8, 16), np.float32)
    model.train(1, [(x, x)], dataset_sink_mode=False)
    layouts = sf.layouts_of(path, "test")
    assert set(layouts) == {"w1", "w2"}
    w1 = layouts["w1"]
    # w1's columns split 4 ways: merging the 8 ranks' slices of the trained weight gives it back.
    slices = [sf.cut_slice(np.asarray(net.w1), w1, r, False) for r in range(w1.device_num)]
    assert slices[0].shape == (16, 16)
    np.testing.assert_array_equal(sf.merge_slices("w1", slices, w1, False, "test"), np.asarray(net.w1))


def test_model_train_lays_parameters_out_as_the_loaded_strategy_file(tmp_path):
    path = str(tmp_path / "load.ckpt")
    # w1: columns over 4 (dev_matrix (2, 4), device dimension 0 from the right); w2 rows over 2.
    sf.save_strategy_file(path, {"w1": sf.ParamLayout((2, 4), ((), (0,))), "w2": sf.ParamLayout((2, 4), ((1,), ()))})
    ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.SEMI_AUTO_PARALLEL,
                                 strategy_ckpt_config={"load_file": path})
    net = MegatronMLP(d=16)
    model = ms.Model(net, nn.MSELoss(), nn.SGD(net.trainable_params(), 0.1))
    x = np.ones((8, 16), np.float32)
    model.train(1, [(x, x)], dataset_sink_mode=False)
    w1 = net.w1._value.sharding
    assert w1.shard_shape(net.w1.shape) == (16, 16)
    assert net.w2._value.sharding.shard_shape(net.w2.shape) == (32, 16)


def test_a_loaded_strategy_for_other_devices_is_an_error_naming_the_file(tmp_path):
    path = str(tmp_path / "load.ckpt")
    sf.save_strategy_file(path, {"w1": sf.ParamLayout((4,), ((), (0,)))})
    ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.SEMI_AUTO_PARALLEL,
                                 strategy_ckpt_config={"load_file": path})
    net = MegatronMLP(d=16)
    model = ms.Model(net, nn.MSELoss(), nn.SGD(net.trainable_params(), 0.1))
    x = np.ones((8, 16), np.float32)
    with pytest.raises(ValueError, match=r"For the strategy file .*load.ckpt: parameter 'w1' is laid out over "
                                         r"dev_matrix \[4\] \(4 devices\), but this job has 8"):
        model.train(1, [(x, x)], dataset_sink_mode=False)
