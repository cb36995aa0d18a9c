"""``mindspore.mint.distributed``: the PyTorch-style process-group API over ``mindjax.communication``.

Process groups are MindJAX's communication groups (``group=None`` is the world group); the
collectives are those of :mod:`mindjax.communication.comm_func` (per device inside a per-device
run, the identity with one rank), with PyTorch's calling convention: the result is written into
the given output Tensor. They complete before they return; with ``async_op=True`` the returned
handle's ``wait()`` has nothing left to wait for.

The list and rooted variants (``all_gather``, ``gather``, ``scatter``, ``reduce``,
``reduce_scatter``, ``all_to_all``, ``all_to_all_single``, ``*_uneven``) are built on the same
collectives. One program serves every device of a per-device run, so every rank's tensors have
one shape: the uneven variants take equal splits (``all_gather_into_tensor_uneven`` also takes
the first ``output_split_sizes[r]`` rows of each rank), and a rooted result (``reduce``,
``gather``) lands on its root while the other ranks keep their tensors.

Point to point (``send``/``recv``/``isend``/``irecv``/``batch_isend_irecv``) runs inside a per-device
run, where every device runs both sides: a ``send`` posts its tensor, and the ``recv`` of the same
tag and group that follows it moves the tensor from the sender to the destination (the other
ranks keep theirs). Peers are world ranks (in each shifted copy of a group, its counterpart), or
traced ranks computed from ``get_rank()`` (``(rank + 1) % size``: a ring). An ``irecv`` before its
``isend`` completes at ``wait()``; ``batch_isend_irecv`` posts its sends first.

The object collectives and ``TCPStore`` are not here: they need Python objects pickled between
processes.
"""
from __future__ import annotations

import itertools
from typing import Any, Callable, Sequence

import jax.numpy as jnp

from mindjax.common.tensor import Tensor
from mindjax.ops import collectives as _coll
from mindjax.communication import comm_func as _comm
from mindjax.communication import management as _management
from mindjax.communication.management import GlobalComm

__all__ = ["is_available", "is_initialized", "init_process_group", "destroy_process_group", "new_group",
           "get_backend", "get_rank", "get_world_size", "get_global_rank", "get_group_rank",
           "get_process_group_ranks", "barrier", "all_reduce", "all_gather_into_tensor",
           "reduce_scatter_tensor", "broadcast", "all_gather", "all_gather_into_tensor_uneven",
           "reduce_scatter", "reduce_scatter_tensor_uneven", "reduce", "gather", "scatter", "all_to_all",
           "all_to_all_single", "send", "recv", "isend", "irecv", "P2POp", "batch_isend_irecv"]

_NEW_GROUPS = itertools.count()


class _Done:
    """The handle of a collective that has already completed (``async_op=True``)."""

    def wait(self) -> bool:
        """Nothing to wait for: the collective completed when it was called."""
        return True

    def is_completed(self) -> bool:
        """Always True."""
        return True


def _group(group: str | None) -> str:
    return GlobalComm.WORLD_COMM_GROUP if group is None else group


def _write(who: str, name: str, target: Any, value: Any) -> None:
    if not isinstance(target, Tensor):
        raise TypeError(f"For 'mint.distributed.{who}', '{name}' must be a Tensor (the result is written into it), "
                        f"but got {type(target).__name__}")
    if tuple(target.shape) != tuple(value.shape):
        raise ValueError(f"For 'mint.distributed.{who}', '{name}' must have shape {tuple(value.shape)}, "
                         f"but got {tuple(target.shape)}")
    target.assign_value(value)


def _handle(async_op: bool) -> Any:
    return _Done() if async_op else None


def is_available() -> bool:
    """Whether distributed communication is available (always, through ``jax.distributed``)."""
    return True


def is_initialized() -> bool:
    """Whether :func:`init_process_group` (or ``communication.init``) has run."""
    return _management.is_initialized()


def init_process_group(backend: str = "hccl", init_method: Any = None, timeout: Any = None, world_size: int = -1,
                       rank: int = -1, store: Any = None, group_name: str = "", pg_options: Any = None,
                       device_id: Any = None) -> None:
    """Join the job (``communication.init(backend)``); the job's size and this rank come from the launcher's
    environment, so ``world_size``/``rank``, when given, must agree with it."""
    _management.init(backend)
    for name, given, actual in (("world_size", world_size, get_world_size()), ("rank", rank, get_rank())):
        if given != -1 and given != actual:
            raise ValueError(f"For 'mint.distributed.init_process_group', '{name}' is {given}, but the job's "
                             f"environment says {actual}")


def destroy_process_group(group: str | None = None) -> None:
    """Destroy ``group``, or (``None``) leave the job."""
    if group is None:
        _management.release()
    else:
        _management.destroy_group(group)


def new_group(ranks: list[int] | None = None, timeout: Any = None, backend: str | None = None,
              pg_options: Any = None, use_local_synchronization: bool = False, group_desc: str | None = None) -> str:
    """A new group of the world ranks ``ranks`` (all by default); returns its name."""
    ranks = list(range(get_world_size())) if ranks is None else list(ranks)
    name = group_desc or f"mint_group_{next(_NEW_GROUPS)}"
    _management.create_group(name, ranks, pg_options)
    return name


def get_backend(group: str | None = None) -> str:
    """The communication backend's name."""
    _management.get_group_size(_group(group))  # an unknown group is an error
    return GlobalComm.BACKEND


def get_rank(group: str | None = None) -> Any:
    """This rank in ``group`` (the world by default)."""
    return _management.get_rank(_group(group))


def get_world_size(group: str | None = None) -> int:
    """The number of ranks in ``group``."""
    return _management.get_group_size(_group(group))


def get_global_rank(group: str, group_rank: int) -> int:
    """The world rank of ``group``'s rank ``group_rank``."""
    return _management.get_world_rank_from_group_rank(_group(group), group_rank)


def get_group_rank(group: str, global_rank: int) -> int:
    """The rank in ``group`` of world rank ``global_rank``."""
    return _management.get_group_rank_from_world_rank(global_rank, _group(group))


def get_process_group_ranks(group: str | None = None) -> list[int]:
    """The world ranks of ``group``."""
    return _management.get_process_group_ranks(_group(group))


def barrier(group: str | None = None, async_op: bool = False, device_ids: Any = None) -> Any:
    """Wait for every rank of ``group``."""
    _comm.barrier(_group(group))
    return _handle(async_op)


def all_reduce(tensor: Any, op: str = "sum", group: str | None = None, async_op: bool = False) -> Any:
    """Reduce ``tensor`` over ``group`` with ``op``, in place."""
    out, _ = _comm.all_reduce(tensor, op, _group(group), async_op)
    _write("all_reduce", "tensor", tensor, out)
    return _handle(async_op)


def all_gather_into_tensor(output_tensor: Any, input_tensor: Any, group: str | None = None,
                           async_op: bool = False) -> Any:
    """The ranks' ``input_tensor`` concatenated along dimension 0, written into ``output_tensor``."""
    out, _ = _comm.all_gather_into_tensor(input_tensor, _group(group), async_op)
    _write("all_gather_into_tensor", "output_tensor", output_tensor, out)
    return _handle(async_op)


def reduce_scatter_tensor(output: Any, input: Any, op: str = "sum", group: str | None = None,  # noqa: A002
                          async_op: bool = False) -> Any:
    """Reduce the ranks' ``input``; this rank's slice of dimension 0 is written into ``output``."""
    out, _ = _comm.reduce_scatter_tensor(input, op, _group(group), async_op)
    _write("reduce_scatter_tensor", "output", output, out)
    return _handle(async_op)


def broadcast(tensor: Any, src: int, group: str | None = None, async_op: bool = False) -> Any:
    """Rank ``src``'s ``tensor`` (a world rank) written into every rank's ``tensor``."""
    out = _comm.broadcast(tensor, src, _group(group))
    _write("broadcast", "tensor", tensor, out)
    return _handle(async_op)


# -- list, rooted and uneven variants ---------------------------------------------------------------------

def _tensors(who: str, name: str, value: Any, count: int) -> list[Tensor]:
    if not isinstance(value, (list, tuple)) or not all(isinstance(t, Tensor) for t in value):
        raise TypeError(f"For 'mint.distributed.{who}', '{name}' must be a list of Tensors, but got "
                        f"{type(value).__name__}")
    if len(value) != count:
        raise TypeError(f"For 'mint.distributed.{who}', '{name}' must hold one Tensor per rank of the group "
                        f"({count}), but got {len(value)}")
    return list(value)


def _same_shapes(who: str, name: str, tensors: Sequence[Tensor], like: Any) -> None:
    for i, t in enumerate(tensors):
        if tuple(t.shape) != tuple(like.shape) or t.dtype != like.dtype:
            raise TypeError(f"For 'mint.distributed.{who}', '{name}'[{i}] must have the shape and dtype of the "
                            f"tensor, {tuple(like.shape)} {like.dtype}, but got {tuple(t.shape)} {t.dtype}")


def _position(group: str | None) -> Any:
    """This rank's position in ``group`` (traced inside a per-device run)."""
    return _management.get_rank(_group(group))


def _root_position(who: str, root: Any, group: str | None) -> int:
    ranks = get_process_group_ranks(group)
    if not isinstance(root, int) or isinstance(root, bool):
        raise TypeError(f"For 'mint.distributed.{who}', the root rank must be an int, but got {type(root).__name__}")
    if root not in ranks:
        raise ValueError(f"For 'mint.distributed.{who}', rank {root} is not in group {_group(group)!r} {ranks}")
    return ranks.index(root)


def all_gather(tensor_list: list[Tensor], tensor: Tensor, group: str | None = None, async_op: bool = False) -> Any:
    """Every rank's ``tensor``, rank ``i``'s written into ``tensor_list[i]``."""
    size = get_world_size(group)
    targets = _tensors("all_gather", "tensor_list", tensor_list, size)
    _same_shapes("all_gather", "tensor_list", targets, tensor)
    out, _ = _comm.all_gather_into_tensor(tensor.reshape((1,) + tuple(tensor.shape)), _group(group), async_op)
    for i, target in enumerate(targets):
        target.assign_value(out[i])
    return _handle(async_op)


def all_gather_into_tensor_uneven(output: Tensor, input: Tensor,  # noqa: A002
                                  output_split_sizes: Sequence[int] | None = None, group: str | None = None,
                                  async_op: bool = False) -> Any:
    """The first ``output_split_sizes[r]`` rows of each rank ``r``'s ``input``, concatenated along dimension 0.

    Every rank's ``input`` has one shape here, with at least ``max(output_split_sizes)`` rows (``None``:
    all of them, an even gather).
    """
    size = get_world_size(group)
    sizes = [int(input.shape[0])] * size if output_split_sizes is None else list(output_split_sizes)
    out = _coll.all_gather_v(jnp.asarray(input), sizes, _group(group), "all_gather_into_tensor_uneven")
    _write("all_gather_into_tensor_uneven", "output", output, out)
    return _handle(async_op)


def reduce_scatter(output: Tensor, input_list: list[Tensor], op: str = "sum", group: str | None = None,
                   async_op: bool = False) -> Any:
    """Reduce the ranks' ``input_list[i]`` over the group; rank ``i`` gets the result in ``output``."""
    size = get_world_size(group)
    inputs = _tensors("reduce_scatter", "input_list", input_list, size)
    _same_shapes("reduce_scatter", "input_list", inputs, output)
    stacked = jnp.concatenate([jnp.asarray(t) for t in inputs], axis=0) if output.ndim else \
        jnp.stack([jnp.asarray(t) for t in inputs])
    out, _ = _comm.reduce_scatter_tensor(stacked, op, _group(group), async_op)
    _write("reduce_scatter", "output", output, out.reshape(output.shape))
    return _handle(async_op)


def reduce_scatter_tensor_uneven(output: Tensor, input: Tensor,  # noqa: A002
                                 input_split_sizes: Sequence[int] | None = None, op: str = "sum",
                                 group: str | None = None, async_op: bool = False) -> Any:
    """Reduce ``input`` over the group; rank ``r`` gets rows ``input_split_sizes[r]`` of it in ``output``.

    One program serves every device, so the splits must be equal (uneven ones raise, naming why).
    """
    size = get_world_size(group)
    sizes = [int(input.shape[0]) // size] * size if input_split_sizes is None else list(input_split_sizes)
    rows = jnp.asarray(input)
    flat = rows.reshape(-1)
    per_row = int(flat.shape[0] // max(rows.shape[0], 1)) if rows.ndim else 1
    out = _coll.reduce_scatter_v(flat, op, [n * per_row for n in sizes], _group(group),
                                 "reduce_scatter_tensor_uneven")
    _write("reduce_scatter_tensor_uneven", "output", output, out.reshape(output.shape))
    return _handle(async_op)


def reduce(tensor: Tensor, dst: int, op: str = "sum", group: str | None = None, async_op: bool = False) -> Any:
    """Reduce ``tensor`` over the group into rank ``dst``'s ``tensor``; the others keep theirs."""
    root = _root_position("reduce", dst, group)
    out, _ = _comm.all_reduce(tensor, op, _group(group), async_op)
    tensor.assign_value(jnp.where(_position(group) == root, jnp.asarray(out), jnp.asarray(tensor)))
    return _handle(async_op)


def gather(tensor: Tensor, gather_list: list[Tensor] | None, dst: int = 0, group: str | None = None,
           async_op: bool = False) -> Any:
    """Every rank's ``tensor`` written into rank ``dst``'s ``gather_list`` (rank ``i``'s at ``i``)."""
    root = _root_position("gather", dst, group)
    size = get_world_size(group)
    targets = _tensors("gather", "gather_list", gather_list, size)
    _same_shapes("gather", "gather_list", targets, tensor)
    out, _ = _comm.all_gather_into_tensor(tensor.reshape((1,) + tuple(tensor.shape)), _group(group), async_op)
    mine = _position(group) == root
    for i, target in enumerate(targets):
        target.assign_value(jnp.where(mine, jnp.asarray(out[i]), jnp.asarray(target)))
    return _handle(async_op)


def scatter(tensor: Tensor, scatter_list: list[Tensor], src: int = 0, group: str | None = None,
            async_op: bool = False) -> Any:
    """Rank ``i`` gets ``scatter_list[i]`` of rank ``src`` in ``tensor``."""
    root = get_process_group_ranks(group)[_root_position("scatter", src, group)]
    size = get_world_size(group)
    sources = _tensors("scatter", "scatter_list", scatter_list, size)
    _same_shapes("scatter", "scatter_list", sources, tensor)
    stacked = _comm.broadcast(jnp.stack([jnp.asarray(t) for t in sources]), root, _group(group))
    tensor.assign_value(jnp.asarray(stacked)[_position(group)])
    return _handle(async_op)


def all_to_all(output_tensor_list: list[Tensor], input_tensor_list: list[Tensor], group: str | None = None,
               async_op: bool = False) -> Any:
    """Rank ``j`` gets this rank's ``input_tensor_list[j]`` in its ``output_tensor_list[i]`` (``i`` this rank)."""
    size = get_world_size(group)
    inputs = _tensors("all_to_all", "input_tensor_list", input_tensor_list, size)
    outputs = _tensors("all_to_all", "output_tensor_list", output_tensor_list, size)
    _same_shapes("all_to_all", "input_tensor_list", inputs, inputs[0])
    _same_shapes("all_to_all", "output_tensor_list", outputs, inputs[0])
    stacked = jnp.stack([jnp.asarray(t) for t in inputs])
    out = _coll.all_to_all(stacked, size, 0, 0, _group(group), "all_to_all")
    for i, target in enumerate(outputs):
        target.assign_value(out[i])
    return _handle(async_op)


def all_to_all_single(output: Tensor, input: Tensor, output_split_sizes: Sequence[int] | None = None,  # noqa: A002
                      input_split_sizes: Sequence[int] | None = None, group: str | None = None,
                      async_op: bool = False) -> Any:
    """Split ``input`` along dimension 0, send block ``j`` to rank ``j``, and join what arrives in ``output``.

    One program serves every device, so the splits must be equal (uneven ones raise, naming why).
    """
    size = get_world_size(group)
    for name, sizes in (("input_split_sizes", input_split_sizes), ("output_split_sizes", output_split_sizes)):
        if sizes is not None and len(set(sizes)) > 1:
            raise ValueError(f"For 'mint.distributed.all_to_all_single', uneven '{name}' {list(sizes)} would give "
                             f"the ranks tensors of different shapes, but every device runs one program here; "
                             f"use equal splits")
    out = _coll.all_to_all(jnp.asarray(input), size, 0, 0, _group(group), "all_to_all_single")
    _write("all_to_all_single", "output", output, out)
    return _handle(async_op)


# -- point to point ---------------------------------------------------------------------------------

def _p2p_tensor(who: str, tensor: Any) -> None:
    if not isinstance(tensor, Tensor):
        raise TypeError(f"For 'mint.distributed.{who}', 'tensor' must be a Tensor, but got {type(tensor).__name__}")


def send(tensor: Tensor, dst: Any = 0, group: str | None = None, tag: int = 0) -> None:
    """Send ``tensor`` to rank ``dst``; the ``recv`` of the same tag and group that follows receives it."""
    _p2p_tensor("send", tensor)
    _coll.send(jnp.asarray(tensor), ("mint", tag), dst, _group(group), "mint.distributed.send", global_rank=True)


def recv(tensor: Tensor, src: Any = 0, group: str | None = None, tag: int = 0) -> int:
    """Receive into ``tensor`` what rank ``src`` sent (on the sender's destination; the others keep theirs).

    Returns:
        0, as MindSpore.
    """
    _p2p_tensor("recv", tensor)
    out = _coll.receive(("mint", tag), src, tuple(tensor.shape), jnp.asarray(tensor).dtype, _group(group),
                        "mint.distributed.recv", into=jnp.asarray(tensor), global_rank=True)
    tensor.assign_value(out)
    return 0


class _PendingRecv:
    """The handle of an ``irecv`` whose ``isend`` comes later in the program: it completes at ``wait()``."""

    def __init__(self, tensor: Tensor, src: Any, group: str | None, tag: int) -> None:
        self._args: tuple[Any, ...] | None = (tensor, src, group, tag)

    def wait(self) -> bool:
        """Receive now (the matching ``isend`` must have run)."""
        if self._args is not None:
            tensor, src, group, tag = self._args
            recv(tensor, src, group, tag)
            self._args = None
        return True

    def is_completed(self) -> bool:
        """Whether the receive has happened."""
        return self._args is None


def isend(tensor: Tensor, dst: Any = 0, group: str | None = None, tag: int = 0) -> _Done:
    """``send``, returning a handle (it is posted when called)."""
    send(tensor, dst, group, tag)
    return _Done()


def irecv(tensor: Tensor, src: Any = 0, group: str | None = None, tag: int = 0) -> Any:
    """``recv``, returning a handle; before its ``isend`` has run it completes at ``wait()``."""
    _p2p_tensor("irecv", tensor)
    if _coll.has_post(("mint", tag), _group(group)):
        recv(tensor, src, group, tag)
        return _Done()
    return _PendingRecv(tensor, src, group, tag)


class P2POp:
    """One operation of :func:`batch_isend_irecv`.

    Arguments:
        op: ``isend`` or ``irecv`` (the function or its name).
        tensor: the tensor sent, or received into.
        peer: the world rank sent to or received from (or a traced rank from ``get_rank()``).
        group: the communication group.
        tag: must be 0 (as MindSpore).
    """

    def __init__(self, op: str | Callable[..., Any], tensor: Tensor, peer: Any, group: str | None = None,
                 tag: int = 0) -> None:
        name = op if isinstance(op, str) else getattr(op, "__name__", None)
        if name not in ("isend", "irecv"):
            raise TypeError(f"For 'mint.distributed.P2POp', 'op' must be 'isend' or 'irecv' (or those functions), "
                            f"but got {op!r}")
        if not isinstance(tensor, Tensor):
            raise TypeError(f"For 'mint.distributed.P2POp', 'tensor' must be a Tensor, but got {type(tensor).__name__}")
        if tag != 0:
            raise NotImplementedError("For 'mint.distributed.P2POp', 'tag' other than 0 is not supported (as in "
                                      "MindSpore)")
        self.op, self.tensor, self.peer, self.group, self.tag = name, tensor, peer, group, tag


def batch_isend_irecv(p2p_op_list: list[P2POp]) -> list[Any]:
    """Run the sends, then the receives, of ``p2p_op_list``.

    Returns:
        one handle (already completed), as MindSpore.
    """
    if not isinstance(p2p_op_list, (list, tuple)) or not p2p_op_list \
            or not all(isinstance(op, P2POp) for op in p2p_op_list):
        raise TypeError("For 'mint.distributed.batch_isend_irecv', 'p2p_op_list' must be a non-empty list of P2POp")
    if len({_group(op.group) for op in p2p_op_list}) > 1:
        raise TypeError("For 'mint.distributed.batch_isend_irecv', the P2POps must all use one group")
    for op in p2p_op_list:
        if op.op == "isend":
            send(op.tensor, op.peer, op.group, op.tag)
    for op in p2p_op_list:
        if op.op == "irecv":
            recv(op.tensor, op.peer, op.group, op.tag)
    return [_Done()]
