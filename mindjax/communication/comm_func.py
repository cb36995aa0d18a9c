"""MindSpore's ``mindspore.communication.comm_func``: functional collectives (deprecated there since 2.9).

``all_reduce``, ``all_gather_into_tensor`` and ``reduce_scatter_tensor``
return ``(output, None)``; ``broadcast`` returns the tensor; ``barrier``
returns None. The numbers are those of ``ops.AllReduce`` and its family: per
device inside a per-device run (a rank is a device), the identity with one rank.

Example:
    >>> import numpy as np
    >>> from mindjax.communication import comm_func
    >>> out, _ = comm_func.all_reduce(np.ones(2, np.float32))
    >>> out.shape
    (2,)
"""
from __future__ import annotations

from typing import Any

from mindjax.communication import management as _management
from mindjax.communication.management import GlobalComm
from mindjax.ops import collectives as _coll
from mindjax.ops.functional import tensor_op

__all__ = ["all_reduce", "all_gather_into_tensor", "reduce_scatter_tensor", "broadcast", "barrier"]


def _check(who: str, group: Any, async_op: Any = False) -> None:
    if not isinstance(group, str):
        raise TypeError(f"For '{who}', the argument 'group' must be type of string, but got 'group' type : "
                        f"{type(group)}.")
    if not isinstance(async_op, bool):
        raise TypeError(f"For '{who}', the argument 'async_op' must be a bool, but got {type(async_op)}.")


@tensor_op
def all_reduce(tensor: Any, op: str = "sum", group: str = GlobalComm.WORLD_COMM_GROUP,
               async_op: bool = False) -> tuple[Any, None]:
    """Reduce ``tensor`` over the group's ranks with ``op``.

    Returns:
        ``(output, None)``.
    """
    _check("all_reduce", group, async_op)
    op = _coll.check_reduce_op("all_reduce", op)
    return _coll.all_reduce(tensor, op, group, "all_reduce"), None


@tensor_op
def all_gather_into_tensor(tensor: Any, group: str = GlobalComm.WORLD_COMM_GROUP,
                           async_op: bool = False) -> tuple[Any, None]:
    """Concatenate the ranks' ``tensor`` along dimension 0.

    Returns:
        ``(output, None)``.
    """
    _check("all_gather_into_tensor", group, async_op)
    return _coll.all_gather(tensor, group, "all_gather_into_tensor"), None


@tensor_op
def reduce_scatter_tensor(tensor: Any, op: str = "sum", group: str = GlobalComm.WORLD_COMM_GROUP,
                          async_op: bool = False) -> tuple[Any, None]:
    """Reduce the ranks' ``tensor``; rank ``i`` gets slice ``i`` of dimension 0.

    Returns:
        ``(output, None)``.
    """
    _check("reduce_scatter_tensor", group, async_op)
    op = _coll.check_reduce_op("reduce_scatter_tensor", op)
    return _coll.reduce_scatter(tensor, op, group, "reduce_scatter_tensor"), None


@tensor_op
def broadcast(tensor: Any, src: int = 0, group: str = GlobalComm.WORLD_COMM_GROUP) -> Any:
    """Every rank of the group gets rank ``src``'s ``tensor`` (``src`` is a world rank).

    Returns:
        the tensor of rank ``src``.
    """
    if not isinstance(src, int) or isinstance(src, bool):
        raise TypeError(f"For 'broadcast', the src must be int, got {type(src).__name__}")
    _check("broadcast", group)
    return _coll.broadcast(tensor, src, group, "broadcast")


def barrier(group: str = GlobalComm.WORLD_COMM_GROUP) -> None:
    """Synchronise the group's ranks: the devices of one program are in step already."""
    _check("barrier", group)
    _management.group_ranks(group, "barrier")
