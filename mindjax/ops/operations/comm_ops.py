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

__all__ = ["ReduceOp", "AllReduce", "AllGather", "ReduceScatter", "Broadcast", "AlltoAll", "Barrier", "Send",
           "Receive", "NeighborExchange", "AllGatherV", "ReduceScatterV"]


class ReduceOp:
    """The reduction a collective applies: ``SUM``, ``MAX``, ``MIN``, ``PROD`` or ``AVG`` (strings, as in MindSpore)."""

    SUM = "sum"
    MAX = "max"
    MIN = "min"
    PROD = "prod"
    AVG = "avg"


def _check_rank_list(prim: str, name: str, value: Any) -> list[int]:
    if not isinstance(value, (list, tuple)) or not all(isinstance(v, int) and not isinstance(v, bool)
                                                       for v in value):
        raise TypeError(f"For '{prim}', '{name}' must be a list of ints, but got {value!r}")
    return list(value)


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


class Send(_Collective):
    """Send the input to group rank ``dest_rank``; the ``Receive`` with the same ``sr_tag`` gets it.

    MindSpore runs ``Send`` on one rank and ``Receive`` on another. Here one program runs on every
    device, so the construct holds both (``Send`` first): in each copy of the group, the rank that
    ``Receive`` names as ``src_rank`` sends, and ``dest_rank`` gets the value (one ``lax.ppermute``);
    the other ranks' ``Receive`` gives zeros. It needs a per-device run (a construct called in
    ``DATA_PARALLEL`` or ``HYBRID_PARALLEL`` on several devices).

    Arguments:
        sr_tag: the tag pairing this Send with its Receive.
        dest_rank: the receiving rank (a rank of ``group``).
        group, group_back: the communication group (``group_back`` is accepted for MindSpore).

    Call: ``Send(sr_tag, dest_rank)(input_x)`` -> ``input_x`` (keep it alive with ``ops.Depend``).
    """

    def __init__(self, sr_tag: int, dest_rank: int, group: str = GlobalComm.WORLD_COMM_GROUP,
                 group_back: str = GlobalComm.WORLD_COMM_GROUP) -> None:
        super().__init__(group)
        record(self, sr_tag=check_int(self.name, "sr_tag", sr_tag),
               dest_rank=check_int(self.name, "dest_rank", dest_rank),
               group_back=_check_group(self.name, group_back))

    def __call__(self, input_x: Any) -> Any:
        return _coll.send(input_x, ("sr_tag", self.sr_tag), self.dest_rank, self.group, self.name)


class Receive(_Collective):
    """Receive what the ``Send`` with the same ``sr_tag`` sent from group rank ``src_rank`` (see :class:`Send`).

    Arguments:
        sr_tag: the tag of the Send.
        src_rank: the sending rank.
        shape, dtype: the received tensor's; they must be the sent tensor's.
        group, group_back: the communication group (``group_back`` is accepted for MindSpore).

    Call: ``Receive(sr_tag, src_rank, shape, dtype)()`` -> the sent tensor on the destination rank,
    zeros on the others.
    """

    def __init__(self, sr_tag: int, src_rank: int, shape: Any, dtype: Any,
                 group: str = GlobalComm.WORLD_COMM_GROUP, group_back: str = GlobalComm.WORLD_COMM_GROUP) -> None:
        super().__init__(group)
        record(self, sr_tag=check_int(self.name, "sr_tag", sr_tag),
               src_rank=check_int(self.name, "src_rank", src_rank),
               shape=tuple(_check_rank_list(self.name, "shape", shape)), dtype=dtype,
               group_back=_check_group(self.name, group_back))

    def __call__(self, *inputs: Any) -> Any:
        from mindjax.common.dtype import to_jax_dtype

        return _coll.receive(("sr_tag", self.sr_tag), self.src_rank, self.shape, to_jax_dtype(self.dtype),
                             self.group, self.name)


class NeighborExchange(_Collective):
    """Send input ``i`` to ``send_rank_ids[i]`` and receive output ``j`` from ``recv_rank_ids[j]``.

    One program serves every device, so the ids are those of group rank 0, and every rank applies
    the same offsets around the group: rank ``r`` sends input ``i`` to ``(r + send_rank_ids[i]) %
    size`` (on two ranks, ``send_rank_ids=[1], recv_rank_ids=[1]`` swaps the ranks' tensors, as in
    MindSpore's example). See :func:`mindjax.ops.collectives.neighbor_exchange`.

    Arguments:
        send_rank_ids, recv_rank_ids: the ranks sent to and received from.
        recv_shapes, send_shapes: the shapes received and sent.
        recv_type: the dtype received.
        group: the communication group.

    Call: ``NeighborExchange(...)(input_x)`` with a tuple of tensors -> a tuple of tensors.
    """

    def __init__(self, send_rank_ids: Any, recv_rank_ids: Any, recv_shapes: Any, send_shapes: Any,
                 recv_type: Any, group: str = GlobalComm.WORLD_COMM_GROUP) -> None:
        super().__init__(group)
        record(self, send_rank_ids=_check_rank_list(self.name, "send_rank_ids", send_rank_ids),
               recv_rank_ids=_check_rank_list(self.name, "recv_rank_ids", recv_rank_ids),
               recv_shapes=tuple(tuple(_check_rank_list(self.name, "recv_shapes", s)) for s in recv_shapes),
               send_shapes=tuple(tuple(_check_rank_list(self.name, "send_shapes", s)) for s in send_shapes),
               recv_type=recv_type)
        if len(self.send_shapes) != len(self.send_rank_ids):
            raise ValueError(f"For '{self.name}', 'send_shapes' must hold one shape per 'send_rank_ids' "
                             f"({len(self.send_rank_ids)}), got {len(self.send_shapes)}")

    def __call__(self, input_x: Sequence[Any]) -> tuple[Any, ...]:
        from mindjax.common.dtype import to_jax_dtype

        if not isinstance(input_x, (tuple, list)):
            raise TypeError(f"For '{self.name}', the input must be a tuple of tensors, got {type(input_x).__name__}")
        for i, (x, shape) in enumerate(zip(input_x, self.send_shapes)):
            if tuple(x.shape) != shape:
                raise ValueError(f"For '{self.name}', input {i} must have 'send_shapes'[{i}] = {shape}, got "
                                 f"{tuple(x.shape)}")
        return _coll.neighbor_exchange(input_x, self.send_rank_ids, self.recv_rank_ids, self.recv_shapes,
                                       to_jax_dtype(self.recv_type), self.group, self.name)


class AllGatherV(_Collective):
    """Gather uneven 1-D tensors: rank ``r`` contributes ``output_split_sizes[r]`` elements.

    One program serves every device, so every rank's input has one length (at least the largest
    size); rank ``r``'s first ``output_split_sizes[r]`` elements are its part.

    Call: ``AllGatherV(group)(input_x, output_split_sizes)`` -> shape ``(sum(output_split_sizes),)``.
    """

    def __init__(self, group: str = GlobalComm.WORLD_COMM_GROUP) -> None:
        super().__init__(group)

    def __call__(self, input_x: Any, output_split_sizes: Any) -> Any:
        if len(input_x.shape) != 1:
            raise ValueError(f"For '{self.name}', the input must be 1-D (flatten and concatenate first), got shape "
                             f"{tuple(input_x.shape)}")
        return _coll.all_gather_v(input_x, output_split_sizes, self.group, self.name)


class ReduceScatterV(_Collective):
    """Reduce the ranks' 1-D tensors and give rank ``r`` segment ``r`` of ``input_split_sizes``.

    One program serves every device, so the segments must be of equal size (uneven sizes raise).

    Arguments:
        op: ``ReduceOp.SUM`` (default), ``MAX``, ``MIN`` or ``AVG`` (``PROD`` is not supported, as in MindSpore).
        group: the communication group.

    Call: ``ReduceScatterV(op, group)(input_x, input_split_sizes)``.
    """

    def __init__(self, op: str = ReduceOp.SUM, group: str = GlobalComm.WORLD_COMM_GROUP) -> None:
        super().__init__(group)
        record(self, op=_coll.check_reduce_op(self.name, op))

    def __call__(self, input_x: Any, input_split_sizes: Any) -> Any:
        return _coll.reduce_scatter_v(input_x, self.op, input_split_sizes, self.group, self.name)
