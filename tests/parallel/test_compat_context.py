"""The auto-parallel context reads back as MindSpore 2.10's does: defaults, types, coupled keys, checks."""
import numpy as np
import pytest

import mindjax as ms


@pytest.fixture(autouse=True)
def _reset():
    ms.reset_auto_parallel_context()
    yield
    ms.reset_auto_parallel_context()


def test_defaults_match_mindspore_2_10():
    get = ms.get_auto_parallel_context
    assert get("search_mode") == get("auto_parallel_search_mode") == "recursive_programming"
    assert get("device_num") == 1 and get("global_rank") == 0 and get("gradients_mean") is False
    assert get("dataset_strategy") == "data_parallel" and get("full_batch") is False
    assert get("full_batch_is_set") is False and get("sharding_propagation") is False
    assert get("strategy_ckpt_config") == {"load_file": "", "save_file": "", "only_trainable_params": True}
    assert get("comm_fusion")["allreduce"] == {"mode": "auto", "config": None}
    assert get("pipeline_scheduler") == "1f1b" and get("pipeline_interleave") is False
    assert get("optimizer_weight_shard_size") == -1 and get("communi_parallel_mode") == "all_group_parallel"
    assert get("auto_pipeline") is False and get("force_fp32_communication") is False


def test_full_batch_and_string_dataset_strategy_set_each_other():
    ms.set_auto_parallel_context(full_batch=True)
    assert ms.get_auto_parallel_context("dataset_strategy") == "full_batch"
    assert ms.get_auto_parallel_context("full_batch_is_set") is True
    ms.set_auto_parallel_context(dataset_strategy="data_parallel")
    assert ms.get_auto_parallel_context("full_batch") is False
    ms.set_auto_parallel_context(dataset_strategy="full_batch")
    assert ms.get_auto_parallel_context("full_batch") is True


def test_tuple_dataset_strategy_reads_back_as_lists_and_wins_over_full_batch():
    ms.set_auto_parallel_context(parallel_mode="semi_auto_parallel", full_batch=True,
                                 dataset_strategy=((2, 1), (2,)))
    assert ms.get_auto_parallel_context("dataset_strategy") == [[2, 1], [2]]
    x, y = ms.parallel.shard_batch((np.zeros((8, 4), np.float32), np.zeros((8,), np.int32)))
    assert x.sharding.spec[0] == "d0" and y.sharding.spec[0] == "d0"
    # Set after the strategy, in the same call or a later one, full_batch keeps it too.
    ms.set_auto_parallel_context(dataset_strategy=((4, 1), (4,)), full_batch=False)
    assert ms.get_auto_parallel_context("dataset_strategy") == [[4, 1], [4]]
    ms.set_auto_parallel_context(full_batch=True)
    assert ms.get_auto_parallel_context("dataset_strategy") == [[4, 1], [4]]


def test_layout_dataset_strategy_splits_the_batch():
    layout = ms.Layout((2, 4), ("dp", "mp"))
    ms.set_auto_parallel_context(parallel_mode="semi_auto_parallel", dataset_strategy=(layout("dp", "mp"),))
    (x,) = ms.parallel.shard_batch((np.zeros((8, 4), np.float32),))
    assert tuple(x.sharding.spec) == ("d0", ("d1", "d2"))


def test_bad_dataset_strategies_are_rejected():
    with pytest.raises(ValueError, match="'dataset_strategy' must be 'full_batch', 'data_parallel'"):
        ms.set_auto_parallel_context(dataset_strategy="bogus")
    with pytest.raises(TypeError, match="'dataset_strategy' must be a str or a tuple"):
        ms.set_auto_parallel_context(dataset_strategy=[[2, 1]])


def test_values_of_the_wrong_type_raise_type_error_naming_the_key():
    with pytest.raises(TypeError, match="'gradients_mean' must be bool, but got int"):
        ms.set_auto_parallel_context(gradients_mean=1)
    with pytest.raises(TypeError, match="'device_num' must be int"):
        ms.set_auto_parallel_context(device_num="8")


def test_pipeline_config_sets_the_scheduler_read_back_and_used_by_pipeline_cell():
    ms.set_auto_parallel_context(pipeline_config={"pipeline_interleave": False, "pipeline_scheduler": "gpipe"})
    assert ms.get_auto_parallel_context("pipeline_scheduler") == "gpipe"
    assert ms.nn.PipelineCell(ms.nn.Dense(2, 2), 2).schedule == "gpipe"
    with pytest.raises(ValueError, match="'pipeline_config' has unknown keys \\['stages'\\]"):
        ms.set_auto_parallel_context(pipeline_config={"stages": 2})
    with pytest.raises(ValueError, match="'pipeline_scheduler' is not recognized"):
        ms.set_auto_parallel_context(pipeline_scheduler="gpipe")


def test_parallel_optimizer_config_is_checked_and_shard_size_read_back():
    ms.set_auto_parallel_context(parallel_optimizer_config={"parallel_optimizer_threshold": 24,
                                                            "optimizer_weight_shard_size": 2})
    assert ms.get_auto_parallel_context("optimizer_weight_shard_size") == 2
    with pytest.raises(ValueError, match="unknown keys \\['bogus'\\]"):
        ms.set_auto_parallel_context(parallel_optimizer_config={"bogus": 1})
    with pytest.raises(NotImplementedError, match="'level3'.*use 'level2'"):
        ms.set_auto_parallel_context(parallel_optimizer_config={"optimizer_level": "level3"})


def test_strategy_ckpt_files_and_config_stay_in_step():
    ms.set_auto_parallel_context(strategy_ckpt_config={"save_file": "/tmp/s.ckpt", "only_trainable_params": False})
    assert ms.get_auto_parallel_context("strategy_ckpt_save_file") == "/tmp/s.ckpt"
    ms.set_auto_parallel_context(strategy_ckpt_load_file="/tmp/l.ckpt")
    assert ms.get_auto_parallel_context("strategy_ckpt_config") == {
        "load_file": "/tmp/l.ckpt", "save_file": "/tmp/s.ckpt", "only_trainable_params": False}


def test_comm_fusion_merges_into_the_defaults_and_reads_back_copies():
    ms.set_auto_parallel_context(comm_fusion={"allreduce": {"mode": "size", "config": 32}})
    fusion = ms.get_auto_parallel_context("comm_fusion")
    assert fusion["allreduce"] == {"mode": "size", "config": 32} and fusion["allgather"]["mode"] == "auto"
    fusion["allreduce"]["config"] = 1
    assert ms.get_auto_parallel_context("comm_fusion")["allreduce"]["config"] == 32


def test_grad_accumulation_step_points_to_grad_accumulation_cell():
    with pytest.raises(ValueError, match="GradAccumulationCell"):
        ms.set_auto_parallel_context(grad_accumulation_step=4)


def test_old_search_mode_switches_select_the_search():
    ms.set_auto_parallel_context(auto_parallel_search_mode="dynamic_programming")
    assert ms.get_auto_parallel_context("search_mode") == "dynamic_programming"
    ms.set_auto_parallel_context(sharding_propagation=True)
    assert ms.get_auto_parallel_context("search_mode") == "sharding_propagation"


def test_reset_restores_fresh_dicts():
    ms.set_auto_parallel_context(strategy_ckpt_config={"save_file": "x"}, full_batch=True)
    ms.reset_auto_parallel_context()
    assert ms.get_auto_parallel_context("strategy_ckpt_config")["save_file"] == ""
    assert ms.get_auto_parallel_context("full_batch_is_set") is False
