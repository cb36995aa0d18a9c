"""``mindspore.mint.distributed``: the PyTorch-style process-group API over ``mindjax.communication``.

Process groups are MindJAX's communication groups (``group=None`` is the world group); the
collectives are those of :mod:`mindjax.communication.comm_func` (per device inside a per-device
run, the identity with one rank), with PyTorch's calling convention: the result is written into
the given output Tensor. They complete before they return; with ``async_op=True`` the returned
handle's ``wait()`` has nothing left to wait for.

The point-to-point calls (``send``/``recv``/``isend``/``irecv``/``batch_isend_irecv``), the
object collectives, ``TCPStore``, and the list and uneven variants (``all_gather``, ``gather``,
``scatter``, ``reduce``, ``all_to_all*``, ``*_uneven``) are not here yet.
"""
from __future__ import annotations

import itertools
from typing import Any

from mindjax.common.tensor import Tensor
from mindjax.communication import comm_func as _comm
from mindjax.communication import management as _management
from mindjax.communication.management import GlobalComm

__all__ = ["is_available", "is_initialized", "init_process_group", "destroy_process_group", "new_group",
           "get_backend", "get_rank", "get_world_size", "get_global_rank", "get_group_rank",
           "get_process_group_ranks", "barrier", "all_reduce", "all_gather_into_tensor",
           "reduce_scatter_tensor", "broadcast"]

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
