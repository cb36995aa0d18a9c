"""MindSpore's ``mindspore.parallel.checkpoint_transform`` helpers that need no checkpoint files.

MindJAX's parameters are global arrays and its checkpoints hold them whole,
so MindSpore's sliced checkpoints become conversions: ``merge_sliced_parameter``
joins the slices of one parameter, ``build_searched_strategy`` reads a
strategy file (see :mod:`.strategy_file`). The functions that read and
write checkpoint files (``load_distributed_checkpoint``,
``transform_checkpoints``, ``transform_checkpoint_by_rank``) are in
:mod:`mindjax.train.serialization.distributed`.

Example:
    >>> import numpy as np
    >>> from mindjax import Parameter
    >>> parts = [Parameter(np.full((2, 3), r, np.float32), "w") for r in range(4)]
    >>> merge_sliced_parameter(parts).shape
    (8, 3)
"""
from __future__ import annotations

from typing import Any, Mapping

import numpy as np

from mindjax.cells.parameter import Parameter
from mindjax.parallel.strategy_file import (build_searched_strategy, layouts_of, merge_pipeline_strategys,
                                            merge_slices, rank_list_for_transform, restore_group_info_list)

__all__ = ["merge_sliced_parameter", "build_searched_strategy", "merge_pipeline_strategys",
           "restore_group_info_list", "rank_list_for_transform"]


def merge_sliced_parameter(sliced_parameters: list[Parameter], strategy: Mapping[str, Any] | None = None) -> Parameter:
    """Merge one parameter's slices, given in rank order, into the whole parameter.

    Without ``strategy`` the slices are joined along dimension 0. With it
    (``build_searched_strategy``'s dict) they are placed by the parameter's
    ``dev_matrix``/``tensor_map``; slices of repeated ranks are the same data.
    As in MindSpore the slices are whole model-parallel slices (the optimizer
    shard gathered, as ``save_checkpoint(integrated_save=True)`` writes them).

    Arguments:
        sliced_parameters: the slices, one per rank (of one pipeline stage).
        strategy: ``{parameter name: ParallelLayouts}`` or None.

    Returns:
        a Parameter holding the whole value, with the first slice's name and ``requires_grad``.

    Raises:
        TypeError: not a list of Parameters, or a strategy that is not a dict.
        ValueError: an empty list, slices with different names or shapes, or a slice count
            that differs from the strategy's rank count.
        KeyError: the parameter is not in ``strategy``.
    """
    who = "merge_sliced_parameter"
    if not isinstance(sliced_parameters, list):
        raise TypeError(f"For '{who}', the argument 'sliced_parameters' should be list, but got "
                        f"{type(sliced_parameters)}.")
    if not sliced_parameters:
        raise ValueError(f"For '{who}', the argument 'sliced_parameters' should not be empty.")
    if strategy and not isinstance(strategy, Mapping):
        raise TypeError(f"For '{who}', the argument 'strategy' should be dict, but got {type(strategy)}.")
    for index, param in enumerate(sliced_parameters):
        if not isinstance(param, Parameter):
            raise TypeError(f"For '{who}', the element in 'sliced_parameters' should be 'Parameter', but got "
                            f"{type(param).__name__} at index {index}.")
    first = sliced_parameters[0]
    name, shape = first.name, tuple(first.shape)
    data = []
    for index, param in enumerate(sliced_parameters):
        if param.name != name or len(param.shape) != len(shape) or tuple(param.shape[1:]) != shape[1:]:
            raise ValueError(f"For '{who}', the elements of 'sliced_parameters' must have the same name, number of "
                             f"dimensions and shape except dimension 0: expected {name}, {len(shape)}, {shape[1:]}, "
                             f"got {param.name}, {len(param.shape)}, {tuple(param.shape[1:])} at index {index}.")
        data.append(np.asarray(param.asnumpy()))
    if not strategy:
        merged = np.concatenate(data) if shape else data[0]
    else:
        if name not in strategy and not any(k.split("-", 1)[-1] == name for k in strategy):
            raise KeyError(f"For '{who}', the parameter name {name} should be a key in the 'strategy'. Please check "
                           f"'sliced_parameter' and 'strategy'.")
        layout = layouts_of({k: v for k, v in strategy.items() if k == name or k.split("-", 1)[-1] == name},
                            who)[name]
        merged = merge_slices(name, data, layout, False, who, [f"slice {i}" for i in range(len(data))])
    return Parameter(merged, name, first.requires_grad)
