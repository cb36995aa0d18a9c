"""MindSpore ``ms.parallel`` helpers with no counterpart here, each naming what to do instead.

MindJAX's parameters are global ``jax.Array``s: a checkpoint holds every
parameter whole, whatever the mesh, and loads onto any mesh. The helpers
that cut, merge or convert per-rank checkpoint slices, or read MindSpore's
strategy files, therefore have nothing to work on; they raise
``NotImplementedError`` with the way to get the same result.
"""
from __future__ import annotations

from typing import Any, Callable, NoReturn

__all__ = ["build_searched_strategy", "merge_pipeline_strategys", "merge_sliced_parameter",
           "load_distributed_checkpoint", "load_segmented_checkpoints", "transform_checkpoints",
           "transform_checkpoint_by_rank", "convert_checkpoints", "convert_checkpoint_by_rank",
           "rank_list_for_transform", "rank_list_for_convert", "unified_safetensors",
           "restore_group_info_list", "set_op_strategy_config", "parameter_broadcast",
           "sync_pipeline_shared_parameters"]

_WHOLE = ("MindJAX checkpoints hold every parameter whole (global arrays), on any mesh: save with "
          "ms.save_checkpoint and load with ms.load_checkpoint + ms.load_param_into_net")
_PLAN = "MindJAX keeps no strategy files; ms.parallel.get_strategy(net) returns the plan in use"


def _unsupported(name: str, alternative: str) -> Callable[..., NoReturn]:
    def raise_it(*args: Any, **kwargs: Any) -> NoReturn:
        raise NotImplementedError(f"'mindjax.parallel.{name}' is not supported: {alternative}")

    raise_it.__name__ = raise_it.__qualname__ = name
    raise_it.__doc__ = (f"MindSpore's ``{name}``; not supported here.\n\nRaises:\n    NotImplementedError: "
                        f"always, naming the alternative: {alternative}.")
    return raise_it


build_searched_strategy = _unsupported("build_searched_strategy", _PLAN)
merge_pipeline_strategys = _unsupported("merge_pipeline_strategys",
                                        "checkpoints hold each weight whole (a stage's weights are global arrays "
                                        "on its stage's devices), so there is nothing to merge; "
                                        + _PLAN)
merge_sliced_parameter = _unsupported("merge_sliced_parameter", _WHOLE)
load_distributed_checkpoint = _unsupported("load_distributed_checkpoint", _WHOLE)
load_segmented_checkpoints = _unsupported("load_segmented_checkpoints", _WHOLE)
transform_checkpoints = _unsupported("transform_checkpoints", _WHOLE)
transform_checkpoint_by_rank = _unsupported("transform_checkpoint_by_rank", _WHOLE)
convert_checkpoints = _unsupported("convert_checkpoints", _WHOLE)
convert_checkpoint_by_rank = _unsupported("convert_checkpoint_by_rank", _WHOLE)
rank_list_for_transform = _unsupported("rank_list_for_transform", _WHOLE)
rank_list_for_convert = _unsupported("rank_list_for_convert", _WHOLE)
unified_safetensors = _unsupported("unified_safetensors", _WHOLE)
restore_group_info_list = _unsupported("restore_group_info_list",
                                       "MindJAX has no communication-group files; every rank is in the world group")
set_op_strategy_config = _unsupported("set_op_strategy_config",
                                      "set strategies in code with Primitive.shard / Cell.shard, and read the "
                                      "plan with ms.parallel.get_strategy(net)")
parameter_broadcast = _unsupported("parameter_broadcast",
                                   "call ms.set_seed(n) with the same n on every rank before building the "
                                   "network: parameters then start equal and are laid out as global arrays")


def sync_pipeline_shared_parameters(net: Any) -> None:
    """MindSpore's ``sync_pipeline_shared_parameters``: nothing to do here.

    A weight that the Cells of two stages share (a tied embedding) is left out
    of the stage layout: it stays whole on every stage device and its
    gradients are summed over the stages, so it is always equal.

    Arguments:
        net: the network (unused).
    """
    return None
