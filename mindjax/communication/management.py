"""``init``, ``release``, ``get_rank``, ``get_group_size``, ``get_local_rank`` on ``jax.distributed``.

Environment read by :func:`init` (``mindjax-run`` sets the first group):

- ``MINDJAX_COORDINATOR`` (``host:port``), ``MINDJAX_WORLD_SIZE``, ``MINDJAX_RANK``,
  ``MINDJAX_LOCAL_RANK``, ``MINDJAX_LOCAL_WORLD_SIZE``;
- MindSpore's ``msrun`` names: ``MS_SCHED_HOST``, ``MS_SCHED_PORT``, ``MS_WORKER_NUM``, ``MS_NODE_ID``;
- ``MINDJAX_HEARTBEAT_TIMEOUT`` (seconds, default 30): after that long without
  a heartbeat from a process, the others stop with an error naming it.

Without any of these, JAX's own cluster detection runs when it finds a
cluster; otherwise the job is one process and ``init`` only records it.

Example:
    >>> from mindjax.communication import init, get_rank, get_group_size
    >>> init()                                   # doctest: +SKIP
    >>> get_rank(), get_group_size()             # doctest: +SKIP
    (0, 2)
"""
from __future__ import annotations

import os
from typing import Any

import jax

__all__ = ["GlobalComm", "HCCL_WORLD_COMM_GROUP", "NCCL_WORLD_COMM_GROUP", "MCCL_WORLD_COMM_GROUP",
           "init", "release", "get_rank", "get_group_size", "get_local_rank", "get_local_rank_size",
           "get_process_group_ranks", "is_initialized"]

HCCL_WORLD_COMM_GROUP = "hccl_world_group"
NCCL_WORLD_COMM_GROUP = "nccl_world_group"
MCCL_WORLD_COMM_GROUP = "mccl_world_group"
_WORLD_GROUPS = (HCCL_WORLD_COMM_GROUP, NCCL_WORLD_COMM_GROUP, MCCL_WORLD_COMM_GROUP)
_BACKENDS = {None: None, "hccl": HCCL_WORLD_COMM_GROUP, "nccl": NCCL_WORLD_COMM_GROUP,
             "mccl": MCCL_WORLD_COMM_GROUP, "gloo": HCCL_WORLD_COMM_GROUP}


class GlobalComm:
    """The world group's name and backend (MindSpore's ``GlobalComm``)."""

    BACKEND = "gloo"
    WORLD_COMM_GROUP = HCCL_WORLD_COMM_GROUP
    INITED = False


_STATE: dict[str, Any] = {"rank": 0, "size": 1, "local_rank": 0, "local_size": 1, "distributed": False}


def _env_int(*names: str) -> int | None:
    for name in names:
        value = os.environ.get(name)
        if value not in (None, ""):
            try:
                return int(value)
            except ValueError:
                raise ValueError(f"For 'init', environment variable {name} must be an int, "
                                 f"got {value!r}") from None
    return None


def _coordinator() -> str | None:
    address = os.environ.get("MINDJAX_COORDINATOR")
    if address:
        return address
    host, port = os.environ.get("MS_SCHED_HOST"), os.environ.get("MS_SCHED_PORT")
    return f"{host}:{port}" if host and port else None


def init(backend_name: str | None = None) -> None:
    """Join the distributed job (MindSpore's ``communication.init``).

    Arguments:
        backend_name: ``"hccl"``, ``"nccl"``, ``"mccl"``, ``"gloo"`` or None;
            JAX picks the transport (gloo on CPU, NCCL on GPU), the name only
            sets ``GlobalComm.WORLD_COMM_GROUP``.

    Raises:
        ValueError: an unknown backend, or an incomplete or inconsistent environment.
    """
    if backend_name not in _BACKENDS:
        raise ValueError(f"For 'init', 'backend_name' must be one of hccl, nccl, mccl, gloo or None, "
                         f"got {backend_name!r}")
    if _BACKENDS[backend_name]:
        GlobalComm.WORLD_COMM_GROUP = _BACKENDS[backend_name]
    if GlobalComm.INITED:
        return
    address = _coordinator()
    size = _env_int("MINDJAX_WORLD_SIZE", "MS_WORKER_NUM")
    rank = _env_int("MINDJAX_RANK", "MS_NODE_ID")
    heartbeat = _env_int("MINDJAX_HEARTBEAT_TIMEOUT") or 30
    if address is not None or size is not None:
        if address is None or size is None or rank is None:
            raise ValueError("For 'init', set all of MINDJAX_COORDINATOR, MINDJAX_WORLD_SIZE and MINDJAX_RANK "
                             f"(got {address!r}, {size!r}, {rank!r}); 'mindjax-run' sets them")
        if not 0 <= rank < size:
            raise ValueError(f"For 'init', MINDJAX_RANK must be in [0, {size}), got {rank}")
        if size > 1 and not jax.distributed.is_initialized():
            _release_local_backend()
            jax.distributed.initialize(address, num_processes=size, process_id=rank,
                                       heartbeat_timeout_seconds=heartbeat,
                                       shutdown_timeout_seconds=heartbeat, initialization_timeout=heartbeat * 4)
        _STATE.update(distributed=size > 1)
    elif _cluster_detected() and not jax.distributed.is_initialized():
        _release_local_backend()
        jax.distributed.initialize(heartbeat_timeout_seconds=heartbeat)
        _STATE.update(distributed=True)
    _STATE.update(rank=jax.process_index(), size=jax.process_count())
    _STATE["local_rank"] = _env_int("MINDJAX_LOCAL_RANK", "LOCAL_RANK") or 0
    _STATE["local_size"] = _env_int("MINDJAX_LOCAL_WORLD_SIZE", "LOCAL_WORLD_SIZE") or 1
    GlobalComm.INITED = True


def _release_local_backend() -> None:
    """Drop a backend started before ``init`` so the distributed one can replace it, with gloo.

    CPU collectives across processes need gloo (the default has none); the
    setting only concerns the CPU backend, and is read when it starts.
    Importing mindjax starts JAX's local backend; arrays made before ``init``
    (none in a MindSpore-style script, which calls ``init()`` first) would be lost.
    """
    from jax._src import xla_bridge  # the only way to ask whether a backend is running

    jax.config.update("jax_cpu_collectives_implementation", "gloo")
    if xla_bridge.backends_are_initialized():
        from jax.extend import backend as jax_backend

        jax_backend.clear_backends()


def _cluster_detected() -> bool:
    return any(name in os.environ for name in ("SLURM_JOB_ID", "OMPI_COMM_WORLD_SIZE", "PMI_SIZE",
                                               "MEGASCALE_COORDINATOR_ADDRESS"))


def is_initialized() -> bool:
    """Whether :func:`init` has run."""
    return GlobalComm.INITED


def release() -> None:
    """Leave the job (``jax.distributed.shutdown``)."""
    if _STATE["distributed"] and jax.distributed.is_initialized():
        jax.distributed.shutdown()
    _STATE.update(rank=0, size=1, local_rank=0, local_size=1, distributed=False)
    GlobalComm.INITED = False


def _check_group(who: str, group: str) -> None:
    if not isinstance(group, str):
        raise TypeError(f"For '{who}', 'group' must be a str, got {type(group).__name__}")
    if group not in _WORLD_GROUPS:
        raise ValueError(f"For '{who}', only the world group ({', '.join(_WORLD_GROUPS)}) is supported, "
                         f"got {group!r}")
    if not GlobalComm.INITED:
        raise RuntimeError(f"For '{who}', call mindjax.communication.init() first")


def get_rank(group: str = HCCL_WORLD_COMM_GROUP) -> int:
    """This process's rank in the job (0 .. ``get_group_size() - 1``)."""
    _check_group("get_rank", group)
    return _STATE["rank"]


def get_group_size(group: str = HCCL_WORLD_COMM_GROUP) -> int:
    """The number of processes in the job."""
    _check_group("get_group_size", group)
    return _STATE["size"]


def get_local_rank(group: str = HCCL_WORLD_COMM_GROUP) -> int:
    """This process's rank among the processes of its host."""
    _check_group("get_local_rank", group)
    return _STATE["local_rank"]


def get_local_rank_size(group: str = HCCL_WORLD_COMM_GROUP) -> int:
    """The number of processes on this host."""
    _check_group("get_local_rank_size", group)
    return _STATE["local_size"]


def get_process_group_ranks(group: str = HCCL_WORLD_COMM_GROUP) -> list[int]:
    """The ranks of ``group`` (every rank for the world group)."""
    _check_group("get_process_group_ranks", group)
    return list(range(_STATE["size"]))
