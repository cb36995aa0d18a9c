"""Sliced checkpoints and strategy files written by the real MindSpore 2.10, merged and re-sliced by MindJAX.

MindSpore writes the strategy files (its own ``node_strategy_pb2`` classes)
and cuts a whole checkpoint into per-rank files (``transform_checkpoints``,
``rank_<r>/net<r>.ckpt``) for 2 and 4 ranks; MindJAX reads them back whole,
and its own slicing must give MindSpore's files.
"""
import os

import mindspore
import numpy as np
import pytest
from mindspore.train import node_strategy_pb2

import mindjax as mj
from mindjax import nn as mj_nn

FULL = {"w": np.arange(48, dtype=np.float32).reshape(8, 6),
        "e": np.arange(32, dtype=np.float32).reshape(8, 4) - 7,
        "m": np.arange(16, dtype=np.float32).reshape(8, 2) * 0.5,
        "c": np.arange(3, dtype=np.float32) + 1}

# name -> (dev_matrix, tensor_map, opt_weight_shard_size, opt_weight_shard_step)
LAYOUTS = {
    4: {"w": ([2, 2], [1, 0], 0, 0),               # rows over dev dim 0, columns over dev dim 1
        "e": ([4], [-1, -1], 2, 1),                # replicated, optimizer shard of 2 on dim 0
        "m": ([2, 2], [[1, 0], [-1]], 0, 0),       # dim 0 over both device dimensions
        "c": ([4], [-1], 0, 0)},                   # replicated
    2: {"w": ([2], [-1, 0], 0, 0),                 # columns
        "e": ([2], [0, -1], 0, 0),                 # rows
        "m": ([2], [-1, -1], 2, 1),                # optimizer shard over both ranks
        "c": ([2], [-1], 0, 0)},
}


def write_strategy(path, layouts):
    """A strategy file written with MindSpore's own protobuf classes."""
    strategy = node_strategy_pb2.ParallelStrategyMap()
    strategy.current_stage = 0
    item = strategy.parallel_strategy_item.add()
    item.node_name = "Default/MatMul-op0"
    item.parallel_strategys.stage = 0
    item.parallel_strategys.parallel_strategy.add().dim.extend([2, 1])
    for name, (dev, tmap, size, step) in layouts.items():
        entry = strategy.parallel_layout_item.add()
        entry.param_name = name
        layout = entry.parallel_layouts
        layout.dev_matrix.add().dim.extend(dev)
        for dims in (tmap if any(isinstance(t, list) for t in tmap) else [tmap]):
            layout.tensor_map.add().dim.extend(dims)
        layout.param_split_shape.add()
        layout.indices_offset.add()
        layout.field, layout.opt_weight_shard_step, layout.opt_weight_shard_size = 0, step, size
    with open(path, "wb") as f:
        f.write(strategy.SerializeToString())


@pytest.fixture(params=[2, 4], ids=["2-ranks", "4-ranks"])
def sliced(request, tmp_path):
    """(rank count, strategy file, MindSpore's sliced checkpoint directory)."""
    ranks = request.param
    strategy = str(tmp_path / f"strategy{ranks}.ckpt")
    write_strategy(strategy, LAYOUTS[ranks])
    os.makedirs(tmp_path / "whole" / "rank_0")
    mindspore.save_checkpoint([{"name": k, "data": mindspore.Tensor(v)} for k, v in FULL.items()],
                              str(tmp_path / "whole" / "rank_0" / "net.ckpt"))
    mindspore.transform_checkpoints(str(tmp_path / "whole"), str(tmp_path / "sliced"), "net", None, strategy)
    return ranks, strategy, tmp_path / "sliced"


class Holder(mj_nn.Cell):
    """A Cell holding the four parameters, zero-initialised."""

    def __init__(self):
        super().__init__()
        for name, value in FULL.items():
            setattr(self, name, mj.Parameter(np.zeros_like(value), name=name))


def files_of(directory, ranks):
    return [str(directory / f"rank_{r}" / f"net{r}.ckpt") for r in range(ranks)]


def test_build_searched_strategy_reads_mindspores_file(sliced):
    ranks, strategy, _ = sliced
    ours = mj.build_searched_strategy(strategy)
    theirs = mindspore.build_searched_strategy(strategy)
    assert set(ours) == set(theirs)
    for name in theirs:
        assert ours[name].SerializeToString() == theirs[name].SerializeToString()


def test_load_distributed_checkpoint_merges_mindspores_slices(sliced):
    ranks, strategy, directory = sliced
    net = Holder()
    assert mj.load_distributed_checkpoint(net, files_of(directory, ranks), None, strategy) is True
    for name, value in FULL.items():
        np.testing.assert_array_equal(getattr(net, name).asnumpy(), value)


def test_merge_sliced_parameter_matches_mindspore(sliced):
    ranks, strategy, directory = sliced
    ours_strategy = mj.build_searched_strategy(strategy)
    theirs_strategy = mindspore.build_searched_strategy(strategy)
    for name in ("w", "c"):  # model-parallel slices (merge_sliced_parameter ignores the optimizer shard)
        parts = [mindspore.load_checkpoint(f)[name].asnumpy() for f in files_of(directory, ranks)]
        theirs = mindspore.merge_sliced_parameter([mindspore.Parameter(p, name) for p in parts], theirs_strategy)
        ours = mj.merge_sliced_parameter([mj.Parameter(p, name) for p in parts], ours_strategy)
        np.testing.assert_array_equal(ours.asnumpy(), theirs.asnumpy())
        np.testing.assert_array_equal(ours.asnumpy(), FULL[name])
        assert ours.name == name


def test_transform_checkpoints_to_whole_and_back_matches_mindspore(sliced, tmp_path):
    ranks, strategy, directory = sliced
    mj.transform_checkpoints(str(directory), str(tmp_path / "merged"), "whole", strategy, None)
    merged = mindspore.load_checkpoint(str(tmp_path / "merged" / "rank_0" / "whole0.ckpt"))
    for name, value in FULL.items():
        np.testing.assert_array_equal(merged[name].asnumpy(), value)
    # Slicing the whole checkpoint again gives MindSpore's own files, value for value.
    mj.transform_checkpoints(str(tmp_path / "merged"), str(tmp_path / "resliced"), "net", None, strategy)
    for r in range(ranks):
        ours = mindspore.load_checkpoint(str(tmp_path / "resliced" / f"rank_{r}" / f"net{r}.ckpt"))
        theirs = mindspore.load_checkpoint(str(directory / f"rank_{r}" / f"net{r}.ckpt"))
        assert set(ours) == set(theirs)
        for name in theirs:
            np.testing.assert_array_equal(ours[name].asnumpy(), theirs[name].asnumpy())


def test_transform_between_rank_counts_matches_mindspore(tmp_path):
    write_strategy(str(tmp_path / "s4.ckpt"), LAYOUTS[4])
    write_strategy(str(tmp_path / "s2.ckpt"), LAYOUTS[2])
    os.makedirs(tmp_path / "whole" / "rank_0")
    mindspore.save_checkpoint([{"name": k, "data": mindspore.Tensor(v)} for k, v in FULL.items()],
                              str(tmp_path / "whole" / "rank_0" / "net.ckpt"))
    mindspore.transform_checkpoints(str(tmp_path / "whole"), str(tmp_path / "four"), "net", None,
                                    str(tmp_path / "s4.ckpt"))
    mindspore.transform_checkpoints(str(tmp_path / "four"), str(tmp_path / "ms_two"), "two",
                                    str(tmp_path / "s4.ckpt"), str(tmp_path / "s2.ckpt"))
    mj.transform_checkpoints(str(tmp_path / "four"), str(tmp_path / "mj_two"), "two",
                             str(tmp_path / "s4.ckpt"), str(tmp_path / "s2.ckpt"))
    for r in range(2):
        theirs = mindspore.load_checkpoint(str(tmp_path / "ms_two" / f"rank_{r}" / f"two{r}.ckpt"))
        ours = mindspore.load_checkpoint(str(tmp_path / "mj_two" / f"rank_{r}" / f"two{r}.ckpt"))
        for name in FULL:
            np.testing.assert_array_equal(ours[name].asnumpy(), theirs[name].asnumpy())
    assert mj.rank_list_for_transform(1, str(tmp_path / "s4.ckpt"), str(tmp_path / "s2.ckpt")) == \
        mindspore.rank_list_for_transform(1, str(tmp_path / "s4.ckpt"), str(tmp_path / "s2.ckpt"))


def test_transform_checkpoint_by_rank_matches_mindspore(tmp_path):
    write_strategy(str(tmp_path / "s4.ckpt"), LAYOUTS[4])
    write_strategy(str(tmp_path / "s2.ckpt"), LAYOUTS[2])
    os.makedirs(tmp_path / "whole" / "rank_0")
    mindspore.save_checkpoint([{"name": k, "data": mindspore.Tensor(v)} for k, v in FULL.items()],
                              str(tmp_path / "whole" / "rank_0" / "net.ckpt"))
    mindspore.transform_checkpoints(str(tmp_path / "whole"), str(tmp_path / "four"), "net", None,
                                    str(tmp_path / "s4.ckpt"))
    files = {r: str(tmp_path / "four" / f"rank_{r}" / f"net{r}.ckpt") for r in range(4)}
    for rank in range(2):
        ours_file, theirs_file = str(tmp_path / f"mj{rank}.ckpt"), str(tmp_path / f"ms{rank}.ckpt")
        mj.transform_checkpoint_by_rank(rank, files, ours_file, str(tmp_path / "s4.ckpt"), str(tmp_path / "s2.ckpt"))
        mindspore.transform_checkpoint_by_rank(rank, files, theirs_file, str(tmp_path / "s4.ckpt"),
                                               str(tmp_path / "s2.ckpt"))
        ours, theirs = mindspore.load_checkpoint(ours_file), mindspore.load_checkpoint(theirs_file)
        for name in FULL:
            np.testing.assert_array_equal(ours[name].asnumpy(), theirs[name].asnumpy())


def test_merged_pipeline_strategies_match_mindspore(tmp_path):
    os.makedirs(tmp_path / "stages")
    for stage in range(2):
        path = str(tmp_path / "stages" / f"stage{stage}.ckpt")
        write_strategy(path, {f"layer{stage}.w": ([2], [0, -1], 0, 0)})
        strategy = node_strategy_pb2.ParallelStrategyMap()
        with open(path, "rb") as f:
            strategy.ParseFromString(f.read())
        strategy.parallel_strategy_item[0].parallel_strategys.stage = stage
        with open(path, "wb") as f:
            f.write(strategy.SerializeToString())
    mj.merge_pipeline_strategys(str(tmp_path / "stages"), str(tmp_path / "mj.ckpt"))
    mindspore.merge_pipeline_strategys(str(tmp_path / "stages"), str(tmp_path / "ms.ckpt"))
    ours = mindspore.build_searched_strategy(str(tmp_path / "mj.ckpt"))
    theirs = mindspore.build_searched_strategy(str(tmp_path / "ms.ckpt"))
    assert sorted(ours) == sorted(theirs) == ["0-layer0.w", "1-layer1.w"]
