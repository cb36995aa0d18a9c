"""``init``, ``release``, ``get_rank``, ``get_group_size``, ``get_local_rank`` on ``jax.distributed``.

Environment read by :func:`init`, first match wins (``mindjax-run`` sets the
``MINDJAX_`` names; docs/cluster.md shows SLURM and Kubernetes):

=================  ==============================================================================
what               variables
=================  ==============================================================================
coordinator        ``MINDJAX_COORDINATOR`` (``host:port``); ``MS_SCHED_HOST`` + ``MS_SCHED_PORT``
                   (MindSpore's ``msrun``)
processes          ``MINDJAX_WORLD_SIZE``, ``MS_WORKER_NUM``, ``RANK_SIZE``, ``SLURM_NTASKS``
this rank          ``MINDJAX_RANK``, ``MS_NODE_ID``, ``RANK_ID``, ``SLURM_PROCID``,
                   ``JOB_COMPLETION_INDEX`` (a Kubernetes indexed Job, one process per pod)
rank on the host   ``MINDJAX_LOCAL_RANK``, ``LOCAL_RANK``, ``SLURM_LOCALID``
ranks on the host  ``MINDJAX_LOCAL_WORLD_SIZE``, ``LOCAL_WORLD_SIZE``, ``SLURM_NTASKS_PER_NODE``
lost process       ``MINDJAX_HEARTBEAT_TIMEOUT`` (s, default 30): after that long without a
                   heartbeat from a process the others stop, naming it
stuck process      ``MINDJAX_COLLECTIVE_TIMEOUT`` (s, default 45; else MindSpore's
                   ``HCCL_EXEC_TIMEOUT``): a rank that waits that long in a compiled program
                   stops the job, naming the ranks that do not wait (see ``_watchdog``)
stop reports       ``MINDJAX_REPORT_DIR``: where each rank writes why it stopped
=================  ==============================================================================

A coordinator, a process count and a rank must come together. Under
MindSpore's ``msrun`` the scheduler process (``MS_ROLE=MS_SCHED``) has nothing
to do, since rank 0 hosts the coordinator: its ``init`` ends the process.
Without a coordinator, JAX's own cluster detection runs when it finds a
cluster (SLURM, Open MPI ...); otherwise the job is one process and ``init``
only records it.

In a job of several processes, ``init`` also starts the job's watchdog: an
uncaught exception on any rank stops every rank within about a second, with
that rank named, instead of leaving them in ``jax.distributed``'s shutdown
barrier; a rank stuck outside the collectives the others wait in is named
after the collective timeout; so every rank ends within about 60 s by default.

Ranks: outside a per-device run, the world group's ``get_rank()`` and
``get_group_size()`` count processes (what a dataset shards by: one process
drives all its local devices). Inside a ``construct`` that runs per device
(see :mod:`mindjax.communication.per_device`) a rank is a device of the mesh:
``get_group_size()`` is the number of devices and ``get_rank()`` the traced
rank of the device running. The ranks of a group made by ``create_group``
always count devices, the ranks the collectives run over; with one process
per device (``mindjax-run`` on GPUs) the two countings agree.

Example:
    >>> from mindjax.communication import init, get_rank, get_group_size
    >>> init()                                   # doctest: +SKIP
    >>> get_rank(), get_group_size()             # doctest: +SKIP
    (0, 2)
"""
from __future__ import annotations

import os
import sys
from typing import Any

import jax

from mindjax.communication import _watchdog
from mindjax.communication import per_device as _per_device

__all__ = ["GlobalComm", "HCCL_WORLD_COMM_GROUP", "NCCL_WORLD_COMM_GROUP", "MCCL_WORLD_COMM_GROUP",
           "init", "release", "get_rank", "get_group_size", "get_local_rank", "get_local_rank_size",
           "get_process_group_ranks", "is_initialized", "create_group", "destroy_group", "get_comm_name",
           "get_world_rank_from_group_rank", "get_group_rank_from_world_rank", "group_ranks"]

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


# User groups (create_group): name -> world ranks (processes), in the order given.
_GROUPS: dict[str, list[int]] = {}
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


def _env_seconds(default: float, *names: str) -> float:
    for name in names:
        value = os.environ.get(name)
        if value not in (None, ""):
            try:
                seconds = float(value)
            except ValueError:
                seconds = -1.0
            if not seconds > 0:
                raise ValueError(f"For 'init', environment variable {name} must be a positive number of "
                                 f"seconds, got {value!r}")
            return seconds
    return default


def _coordinator() -> tuple[str | None, str]:
    """The coordinator's ``host:port`` and the variables it came from."""
    address = os.environ.get("MINDJAX_COORDINATOR")
    if address:
        return address, "MINDJAX_COORDINATOR"
    host, port = os.environ.get("MS_SCHED_HOST"), os.environ.get("MS_SCHED_PORT")
    return (f"{host}:{port}" if host and port else None), "MS_SCHED_HOST/MS_SCHED_PORT"


def _job_from_env() -> tuple[str | None, int | None, int | None, str]:
    """``(coordinator, processes, rank, source)`` from the environment.

    The bare ``RANK_SIZE``/``RANK_ID`` (also set on Ascend with a rank table),
    SLURM's and Kubernetes' names count only next to a coordinator; SLURM alone
    goes to JAX's own detection.
    """
    address, source = _coordinator()
    size = _env_int("MINDJAX_WORLD_SIZE", "MS_WORKER_NUM")
    rank = _env_int("MINDJAX_RANK", "MS_NODE_ID")
    if address is not None:
        size = size if size is not None else _env_int("RANK_SIZE", "SLURM_NTASKS")
        rank = rank if rank is not None else _env_int("RANK_ID", "SLURM_PROCID", "JOB_COMPLETION_INDEX")
    return address, size, rank, source


def _check_coordinator_port(address: str) -> None:
    from mindjax.communication.ports import port_in_use

    port_text = address.rsplit(":", 1)[-1]
    try:
        port = int(port_text)
    except ValueError:
        raise ValueError(f"For 'init', the coordinator address must be host:port, got {address!r}") from None
    if not 0 < port < 65536:
        raise ValueError(f"For 'init', the coordinator port must be in [1, 65535], got {port}")
    busy = port_in_use(port)
    if busy:
        raise RuntimeError(f"For 'init', rank 0 can not host the coordinator on port {port} ({address}): {busy}. "
                           f"Another job (or a process left over from one) holds it; free it or choose another "
                           f"port (mindjax-run --master_port)")


def init(backend_name: str | None = None) -> None:
    """Join the distributed job (MindSpore's ``communication.init``).

    Arguments:
        backend_name: ``"hccl"``, ``"nccl"``, ``"mccl"``, ``"gloo"`` or None;
            JAX picks the transport (gloo on CPU, NCCL on GPU), the name only
            sets ``GlobalComm.WORLD_COMM_GROUP``.

    Raises:
        ValueError: an unknown backend, or an incomplete or inconsistent environment.
        RuntimeError: on rank 0, the coordinator's port is taken.
    """
    if backend_name not in _BACKENDS:
        raise ValueError(f"For 'init', 'backend_name' must be one of hccl, nccl, mccl, gloo or None, "
                         f"got {backend_name!r}")
    if _BACKENDS[backend_name]:
        GlobalComm.WORLD_COMM_GROUP = _BACKENDS[backend_name]
    if GlobalComm.INITED:
        return
    if os.environ.get("MS_ROLE") == "MS_SCHED":
        # msrun's scheduler: MindSpore's init never returns there either; rank 0 is our coordinator.
        print("mindjax: MS_ROLE=MS_SCHED: the scheduler has nothing to do (rank 0 hosts the coordinator); "
              "exiting", file=sys.stderr, flush=True)
        sys.exit(0)
    address, size, rank, source = _job_from_env()
    heartbeat = _env_seconds(30, "MINDJAX_HEARTBEAT_TIMEOUT")
    collective = _env_seconds(45, "MINDJAX_COLLECTIVE_TIMEOUT", "HCCL_EXEC_TIMEOUT")
    started = False
    if address is not None or size is not None:
        if address is None or size is None or rank is None:
            raise ValueError(f"For 'init', set all of MINDJAX_COORDINATOR, MINDJAX_WORLD_SIZE and MINDJAX_RANK "
                             f"(or MindSpore's MS_SCHED_HOST/MS_SCHED_PORT, MS_WORKER_NUM, MS_NODE_ID), got "
                             f"coordinator {address!r}, processes {size!r}, rank {rank!r}; 'mindjax-run' sets them")
        if size < 1:
            raise ValueError(f"For 'init', the number of processes must be >= 1, got {size}")
        if not 0 <= rank < size:
            raise ValueError(f"For 'init', the rank must be in [0, {size}), got {rank}")
        if size > 1 and not jax.distributed.is_initialized():
            if rank == 0:
                _check_coordinator_port(address)
            _release_local_backend()
            hb = max(1, int(round(heartbeat)))
            jax.distributed.initialize(address, num_processes=size, process_id=rank,
                                       heartbeat_timeout_seconds=hb, shutdown_timeout_seconds=hb,
                                       initialization_timeout=max(hb * 4, 60))
            started = True
        _STATE.update(distributed=size > 1)
    elif _cluster_detected() and not jax.distributed.is_initialized():
        _release_local_backend()
        jax.distributed.initialize(heartbeat_timeout_seconds=max(1, int(round(heartbeat))))
        _STATE.update(distributed=True)
        started = True
    _STATE.update(rank=jax.process_index(), size=jax.process_count())
    _STATE["local_rank"] = _env_int("MINDJAX_LOCAL_RANK", "LOCAL_RANK", "SLURM_LOCALID") or 0
    _STATE["local_size"] = _env_int("MINDJAX_LOCAL_WORLD_SIZE", "LOCAL_WORLD_SIZE", "SLURM_NTASKS_PER_NODE") or 1
    if started and _STATE["size"] > 1:
        from jax._src import distributed as jax_distributed  # the client: the only handle on the KV store

        _STATE["guard"] = _watchdog.Guard(jax_distributed.global_state.client, _STATE["rank"], _STATE["size"],
                                          collective)
        _STATE["guard"].start()
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
    guard = _STATE.pop("guard", None)
    if guard is not None:
        guard.finish()
    if _STATE["distributed"] and jax.distributed.is_initialized():
        jax.distributed.shutdown()
    _STATE.update(rank=0, size=1, local_rank=0, local_size=1, distributed=False)
    _GROUPS.clear()
    GlobalComm.INITED = False


def _check_group(who: str, group: str) -> None:
    if not isinstance(group, str):
        raise TypeError(f"For '{who}', 'group' must be a str, got {type(group).__name__}")
    if group not in _WORLD_GROUPS and group not in _GROUPS:
        raise ValueError(f"For '{who}', the group {group!r} does not exist: only the world group "
                         f"({', '.join(_WORLD_GROUPS)}) and groups made by create_group are known")
    if not GlobalComm.INITED:
        raise RuntimeError(f"For '{who}', call mindjax.communication.init() first")


def _world_ranks() -> int:
    """How many ranks a group may name: every device (at least one per process)."""
    return max(_STATE["size"], jax.device_count())


def _ranks_of(group: str) -> list[int]:
    if group in _GROUPS:
        return _GROUPS[group]
    frame = _per_device.current_frame()
    return list(range(frame.size if frame is not None else _STATE["size"]))


def group_ranks(group: str, who: str) -> list[int]:
    """The ranks a collective named ``who`` runs over for ``group`` (world: every rank of the run).

    Unlike the rank queries this needs no :func:`init` for the world group:
    a single process may run collectives over its local devices.

    Raises:
        TypeError, ValueError: a group that is not a str or does not exist.
    """
    if not isinstance(group, str):
        raise TypeError(f"For '{who}', 'group' must be a str, got {type(group).__name__}")
    if group in _WORLD_GROUPS:
        frame = _per_device.current_frame()
        return list(range(frame.size if frame is not None else 1))
    if group not in _GROUPS:
        raise ValueError(f"For '{who}', the group {group!r} does not exist: only the world group "
                         f"({', '.join(_WORLD_GROUPS)}) and groups made by create_group are known")
    return list(_GROUPS[group])


def create_group(group: str, rank_ids: list[int], options: Any = None) -> None:
    """Name a group of ranks (MindSpore's ``create_group``); ranks count devices.

    The group serves the collectives (``ops.AllReduce(group=...)`` in a
    construct that runs per device), ``get_rank``/``get_group_size``/
    ``get_process_group_ranks`` and the rank conversions. Rank ``r`` is the
    device ``jax.devices()[r]``, row-major over the mesh.

    Arguments:
        group: the new group's name.
        rank_ids: the world ranks in it, at least 2 and each once, in group-rank order.
        options: accepted for MindSpore compatibility.

    Raises:
        TypeError, ValueError: a bad name, an existing or world group, or bad ranks.
    """
    if not GlobalComm.INITED:
        raise RuntimeError("For 'create_group', call mindjax.communication.init() first")
    if not isinstance(group, str) or not group:
        raise TypeError(f"For 'create_group', 'group' must be a non-empty str, got {group!r}")
    if group in _WORLD_GROUPS or group in _GROUPS:
        raise ValueError(f"For 'create_group', the group {group!r} already exists")
    if not isinstance(rank_ids, list) or not all(isinstance(r, int) and not isinstance(r, bool) for r in rank_ids):
        raise TypeError(f"For 'create_group', 'rank_ids' must be a list of ints, got {rank_ids!r}")
    if len(rank_ids) < 2 or len(set(rank_ids)) != len(rank_ids):
        raise ValueError(f"For 'create_group', 'rank_ids' must hold at least 2 distinct ranks, got {rank_ids}")
    world = _world_ranks()
    bad = [r for r in rank_ids if not 0 <= r < world]
    if bad:
        raise ValueError(f"For 'create_group', ranks {bad} are not in [0, {world}) (a rank is a device: "
                         f"{jax.device_count()} device(s) over {_STATE['size']} process(es))")
    _GROUPS[group] = list(rank_ids)


def destroy_group(group: str) -> None:
    """Forget a group made by :func:`create_group`.

    Raises:
        ValueError: the world group, or a group that does not exist.
    """
    if group in _WORLD_GROUPS:
        raise ValueError(f"For 'destroy_group', the world group {group!r} can not be destroyed")
    if group not in _GROUPS:
        raise ValueError(f"For 'destroy_group', the group {group!r} does not exist")
    del _GROUPS[group]


def get_comm_name(group: str = HCCL_WORLD_COMM_GROUP) -> str:
    """The group's communicator name (its group name here)."""
    _check_group("get_comm_name", group)
    return group


def get_world_rank_from_group_rank(group: str, group_rank_id: int) -> int:
    """The world rank of rank ``group_rank_id`` of ``group``.

    Raises:
        ValueError: a rank out of the group's range.
    """
    _check_group("get_world_rank_from_group_rank", group)
    ranks = _ranks_of(group)
    if not isinstance(group_rank_id, int) or not 0 <= group_rank_id < len(ranks):
        raise ValueError(f"For 'get_world_rank_from_group_rank', 'group_rank_id' must be in [0, {len(ranks)}), "
                         f"got {group_rank_id!r}")
    return ranks[group_rank_id]


def get_group_rank_from_world_rank(world_rank_id: int, group: str) -> int:
    """The rank in ``group`` of world rank ``world_rank_id``.

    Raises:
        ValueError: a world rank that is not in the group.
    """
    _check_group("get_group_rank_from_world_rank", group)
    ranks = _ranks_of(group)
    if world_rank_id not in ranks:
        raise ValueError(f"For 'get_group_rank_from_world_rank', world rank {world_rank_id!r} is not in group "
                         f"{group!r} {ranks}")
    return ranks.index(world_rank_id)


def get_rank(group: str = HCCL_WORLD_COMM_GROUP) -> Any:
    """This rank's number in ``group`` (0 .. ``get_group_size(group) - 1``).

    Outside a per-device run: the process's rank for the world group, and for a
    created group the group rank of the process's rank. Inside a construct that
    runs per device: the running device's rank, a traced int32 scalar (it
    differs per device, so Python ``if`` on it is not possible; use it in
    arithmetic or ``ops.select``).

    Raises:
        ValueError: the rank (outside a per-device run, the process's) is not in ``group``.
    """
    _check_group("get_rank", group)
    frame = _per_device.current_frame()
    if frame is not None:
        rank = frame.rank()
        if group in _WORLD_GROUPS:
            return rank
        layout = _per_device.group_layout(frame, _GROUPS[group], group, "get_rank")
        return jax.numpy.asarray(layout.position, jax.numpy.int32)[rank]
    if group in _GROUPS:
        return get_group_rank_from_world_rank(_STATE["rank"], group)
    return _STATE["rank"]


def get_group_size(group: str = HCCL_WORLD_COMM_GROUP) -> int:
    """The number of ranks in ``group``: for the world group the processes, or the devices inside a per-device run."""
    _check_group("get_group_size", group)
    return len(_ranks_of(group))


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
    return list(_ranks_of(group))  # a copy: the caller's edits must not change the group
