"""MindSpore's ``mindspore.ops.function.comm_func``: the functional collectives (``ops.all_reduce`` ...).

MindSpore 2.10's forms return ``(output, handle)``; the handle is ``None``
(XLA schedules collectives itself, so every call completes in order, also
with ``async_op=True``). The numbers are those of the Primitives
(:mod:`mindjax.ops.operations.comm_ops`): per device inside a per-device run,
the identity with one rank.

Example:
    >>> import numpy as np
    >>> from mindjax import ops
    >>> out, handle = ops.all_reduce(np.ones(2, np.float32))
    >>> out.shape, handle
    ((2,), None)
"""
from __future__ import annotations

from typing import Any

from mindjax.communication.management import GlobalComm
from mindjax.ops import collectives as _coll
from mindjax.ops.functional import tensor_op

__all__ = ["all_reduce", "all_gather_into_tensor", "reduce_scatter_tensor"]


def _group(who: str, group: str | None) -> str:
    group = GlobalComm.WORLD_COMM_GROUP if group is None else group
    if not isinstance(group, str):
        raise TypeError(f"For '{who}', the argument 'group' must be type of string, but got 'group' type : "
                        f"{type(group)}.")
    return group


def _check_async(who: str, async_op: Any) -> None:
    if not isinstance(async_op, bool):
        raise TypeError(f"For '{who}', the argument 'async_op' must be a bool, but got {type(async_op)}.")


@tensor_op
def all_reduce(tensor: Any, op: str = "sum", group: str | None = None, async_op: bool = False) -> tuple[Any, None]:
    """Reduce ``tensor`` over the group's ranks (see ``ops.AllReduce``).

    Arguments:
        tensor: this rank's tensor.
        op: ``"sum"``, ``"prod"``, ``"min"``, ``"max"`` or ``"avg"``.
        group: the communication group (None: the world group).
        async_op: accepted; the handle is None.

    Returns:
        ``(output, None)``.
    """
    _check_async("all_reduce", async_op)
    op = _coll.check_reduce_op("all_reduce", op)
    return _coll.all_reduce(tensor, op, _group("all_reduce", group), "all_reduce"), None


@tensor_op
def all_gather_into_tensor(output_tensor: Any, input_tensor: Any, group: str | None = None,
                           async_op: bool = False) -> tuple[Any, None]:
    """Concatenate the ranks' ``input_tensor`` along dimension 0 (``output_tensor`` is unused: not in place).

    Returns:
        ``(output, None)``, output of shape ``(group size * x_1, x_2, ...)``.
    """
    _check_async("all_gather_into_tensor", async_op)
    return _coll.all_gather(input_tensor, _group("all_gather_into_tensor", group), "all_gather_into_tensor"), None


@tensor_op
def reduce_scatter_tensor(output: Any, input: Any, op: str = "sum", group: str | None = None,  # noqa: A002
                          async_op: bool = False) -> tuple[Any, None]:
    """Reduce the ranks' ``input`` and give rank ``i`` slice ``i`` of dimension 0 (``output`` unused).

    Returns:
        ``(output, None)``, output of shape ``(x_1 / group size, x_2, ...)``.
    """
    _check_async("reduce_scatter_tensor", async_op)
    op = _coll.check_reduce_op("reduce_scatter_tensor", op)
    return _coll.reduce_scatter(input, op, _group("reduce_scatter_tensor", group), "reduce_scatter_tensor"), None
