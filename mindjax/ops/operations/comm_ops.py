"""MindSpore's ``mindspore.ops.operations.comm_ops``: collective Primitives and ``ReduceOp``.

Used in a ``construct``: in ``DATA_PARALLEL`` and ``HYBRID_PARALLEL`` such a
Cell runs per device, each device is a rank, and ``AllReduce`` combines the
devices' values as MindSpore's ranks' (see :mod:`mindjax.ops.collectives`).
With one rank (stand-alone, or one device) they are the identity, as in
MindSpore. ``group`` names the world group or a group made by
``communication.create_group`` (ranks count devices).

Example:
    >>> import numpy as np
    >>> from mindjax import ops
    >>> ops.AllReduce()(np.ones(2, np.float32)).asnumpy()      # one rank
    array([1., 1.], dtype=float32)
"""
from __future__ import annotations

from typing import Any, Sequence

from mindjax.communication.management import GlobalComm
from mindjax.ops import collectives as _coll
from mindjax.ops.operations._base import Primitive, check_int, record

__all__ = ["ReduceOp", "AllReduce", "AllGather", "ReduceScatter", "Broadcast", "AlltoAll", "Barrier"]


class ReduceOp:
    """The reduction a collective applies: ``SUM``, ``MAX``, ``MIN``, ``PROD`` or ``AVG`` (strings, as in MindSpore)."""

    SUM = "sum"
    MAX = "max"
    MIN = "min"
    PROD = "prod"
    AVG = "avg"


def _check_group(prim: str, group: Any) -> str:
    if not isinstance(group, str):
        raise TypeError(f"For '{prim}', the 'group' must be str, but got {type(group).__name__}")
    return group


class _Collective(Primitive):
    """A collective over ``group``: records MindSpore's attributes."""

    def __init__(self, group: str) -> None:
        super().__init__()
        record(self, group=_check_group(self.name, group), fusion=0, index=0, no_eliminate=True)

    def rank_size(self) -> int:
        """The group's size where this runs now (1 outside a per-device run)."""
        from mindjax.communication import management

        return len(management.group_ranks(self.group, self.name))


class AllReduce(_Collective):
    """Reduce the input over the group's ranks; every rank gets the result.

    Arguments:
        op: ``ReduceOp.SUM`` (default), ``MAX``, ``MIN``, ``PROD`` or ``AVG``.
        group: the communication group.

    Call: ``AllReduce(op, group)(input_x)`` -> array of ``input_x``'s shape.
    """

    def __init__(self, op: str = ReduceOp.SUM, group: str = GlobalComm.WORLD_COMM_GROUP) -> None:
        super().__init__(group)
        record(self, op=_coll.check_reduce_op(self.name, op))

    def __call__(self, input_x: Any) -> Any:
        return _coll.all_reduce(input_x, self.op, self.group, self.name)


class AllGather(_Collective):
    """Concatenate the ranks' inputs along dimension 0, in rank order.

    Call: ``AllGather(group)(input_x)`` -> shape ``(rank_size * x_1, x_2, ...)``.
    """

    def __init__(self, group: str = GlobalComm.WORLD_COMM_GROUP) -> None:
        super().__init__(group)
        record(self, mean_flag=False)

    def __call__(self, input_x: Any) -> Any:
        return _coll.all_gather(input_x, self.group, self.name)


class ReduceScatter(_Collective):
    """Reduce the ranks' inputs, then scatter: rank ``i`` gets slice ``i`` of dimension 0.

    Arguments:
        op: the reduction (``ReduceOp.SUM`` by default).
        group: the communication group.

    Call: ``ReduceScatter(op, group)(input_x)`` -> shape ``(x_1 / rank_size, x_2, ...)``.
    """

    def __init__(self, op: str = ReduceOp.SUM, group: str = GlobalComm.WORLD_COMM_GROUP) -> None:
        super().__init__(group)
        record(self, op=_coll.check_reduce_op(self.name, op))

    def __call__(self, input_x: Any) -> Any:
        return _coll.reduce_scatter(input_x, self.op, self.group, self.name)


class Broadcast(_Collective):
    """Send the inputs of rank ``root_rank`` to every rank of the group.

    Arguments:
        root_rank: the sending rank (a world rank in ``group``).
        group: the communication group.

    Call: ``Broadcast(root_rank, group)(input_x)`` with ``input_x`` a tuple of
    arrays -> a tuple of arrays of the same shapes.
    """

    def __init__(self, root_rank: int, group: str = GlobalComm.WORLD_COMM_GROUP) -> None:
        super().__init__(group)
        record(self, root_rank=check_int(self.name, "root_rank", root_rank))

    def __call__(self, input_x: Sequence[Any]) -> tuple[Any, ...]:
        if not isinstance(input_x, (tuple, list)):
            raise TypeError(f"For '{self.name}', the input must be a tuple of tensors, got "
                            f"{type(input_x).__name__}")
        return tuple(_coll.broadcast(x, self.root_rank, self.group, self.name) for x in input_x)


class AlltoAll(_Collective):
    """Split along ``split_dim`` into ``split_count`` blocks, send block ``j`` to rank ``j``, and
    concatenate what arrives along ``concat_dim`` in rank order.

    Arguments:
        split_count: the number of blocks; must be the group size.
        split_dim: the dimension split.
        concat_dim: the dimension the received blocks are joined on.
        group: the communication group.

    Call: ``AlltoAll(split_count, split_dim, concat_dim, group)(x)``.
    """

    def __init__(self, split_count: int, split_dim: int, concat_dim: int,
                 group: str = GlobalComm.WORLD_COMM_GROUP) -> None:
        super().__init__(group)
        record(self, split_count=check_int(self.name, "split_count", split_count),
               split_dim=check_int(self.name, "split_dim", split_dim),
               concat_dim=check_int(self.name, "concat_dim", concat_dim))
        if self.split_count < 1:
            raise ValueError(f"For '{self.name}', 'split_count' must be positive, got {split_count}")

    def __call__(self, x: Any) -> Any:
        return _coll.all_to_all(x, self.split_count, self.split_dim, self.concat_dim, self.group, self.name)


class Barrier(_Collective):
    """Synchronise the group's ranks. Devices of one program are in step already: the call returns its input.

    Call: ``Barrier(group)()`` -> None, or ``Barrier(group)(x)`` -> ``x``.
    """

    def __init__(self, group: str = GlobalComm.WORLD_COMM_GROUP) -> None:
        super().__init__(group)

    def __call__(self, *inputs: Any) -> Any:
        from mindjax.communication import management

        management.group_ranks(self.group, self.name)  # the group must exist
        return inputs[0] if len(inputs) == 1 else (inputs or None)
