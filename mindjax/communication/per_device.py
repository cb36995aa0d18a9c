"""Per-device execution: where a MindSpore rank is one device of the mesh.

MindSpore runs one copy of a network per rank, and its collectives
(``ops.AllReduce`` ...) combine the copies. MindJAX compiles one program for
every device; in ``DATA_PARALLEL`` and ``HYBRID_PARALLEL`` a Cell whose tree
holds a collective runs its ``construct`` per device (``jax.shard_map`` over
the mesh, see :mod:`mindjax.parallel.per_device`). While it does, a
:class:`DeviceFrame` is open: the collectives read it to know the devices,
and a *rank* is a device, counted row-major over the mesh axes (rank ``r``
is ``jax.devices()[r]``).

A group made by ``create_group`` names ranks. All devices run the same
program, so every device needs a group like it: the group's ranks shifted
by a constant must tile the devices (``[0, 1, 2, 3]`` and ``[4, 5, 6, 7]`` on
8 devices, or ``[0, 4]``, ``[1, 5]`` ...), and each device's collective runs
over the copy of the group it is in. A group that is a set of mesh axes
runs as one XLA collective over those axes; any other tiling group gathers
over the devices first.

Example:
    >>> frame = current_frame()
    >>> frame is None                 # outside a per-device run
    True
"""
from __future__ import annotations

import contextlib
import dataclasses
import functools
from typing import Any, Callable, Iterator, Sequence

import jax
import jax.numpy as jnp
import numpy as np

__all__ = ["DeviceFrame", "GroupLayout", "current_frame", "device_frame", "group_layout"]


@dataclasses.dataclass(frozen=True)
class DeviceFrame:
    """The devices a per-device run spans: mesh axes (slowest first) and their sizes.

    Attributes:
        axis_names: the mesh axes the run is mapped over.
        axis_sizes: their sizes; the product is the number of ranks.
        mailbox: per ``sr_tag``, what an ``ops.Send`` of this run posted, for the ``ops.Receive``
            of the same tag.
    """

    axis_names: tuple[str, ...]
    axis_sizes: tuple[int, ...]
    # What ``ops.Send`` posted in this run, per ``sr_tag``, for the ``ops.Receive`` of the same tag.
    mailbox: dict[Any, Any] = dataclasses.field(default_factory=dict, compare=False, hash=False, repr=False)

    @property
    def size(self) -> int:
        """The number of ranks (devices) in the run."""
        return int(np.prod(self.axis_sizes)) if self.axis_sizes else 1

    def rank(self) -> jax.Array:
        """This device's rank (a traced int32 scalar): row-major over the axes."""
        rank = jnp.zeros((), jnp.int32)
        for name, size in zip(self.axis_names, self.axis_sizes):
            rank = rank * size + jax.lax.axis_index(name)
        return rank


@dataclasses.dataclass(frozen=True)
class GroupLayout:
    """How a group's collective runs on every device of a frame.

    Attributes:
        members: the group's ranks, in group-rank order.
        table: ``table[d]`` lists the ranks of the copy of the group device ``d`` is in, in group order.
        position: ``position[d]`` is device ``d``'s rank within its copy.
        axes: the mesh axes the group spans when it is one (its copies are then XLA's replica
            groups over those axes), else None.
    """

    members: tuple[int, ...]
    table: np.ndarray
    position: np.ndarray
    axes: tuple[str, ...] | None

    @property
    def size(self) -> int:
        """The number of ranks in the group."""
        return len(self.members)


_FRAMES: list[DeviceFrame] = []



def current_frame() -> DeviceFrame | None:
    """The innermost open per-device frame, or None outside a per-device run."""
    return _FRAMES[-1] if _FRAMES else None


@contextlib.contextmanager
def device_frame(axis_names: Sequence[str], axis_sizes: Sequence[int]) -> Iterator[DeviceFrame]:
    """Open a frame for the body of a ``shard_map`` over ``axis_names`` (used by the parallel layer).

    Arguments:
        axis_names: the mesh axes the body is mapped over, slowest first.
        axis_sizes: their sizes.

    Yields:
        the frame.
    """
    frame = DeviceFrame(tuple(axis_names), tuple(int(s) for s in axis_sizes))
    _FRAMES.append(frame)
    try:
        yield frame
    finally:
        _FRAMES.pop()


def group_layout(frame: DeviceFrame, members: Sequence[int], group: str, who: str) -> GroupLayout:
    """Lay a group's ranks on the frame's devices (see the module docstring).

    Arguments:
        frame: the open frame.
        members: the group's ranks in group order.
        group: its name, for errors.
        who: the collective, for errors.

    Returns:
        the group's layout.

    Raises:
        ValueError: a rank outside the frame, or a group whose shifted copies do not tile the devices.
    """
    return _group_layout(frame, tuple(int(m) for m in members), group, who)


@functools.lru_cache(maxsize=256)
def _group_layout(frame: DeviceFrame, members: tuple[int, ...], group: str, who: str) -> GroupLayout:
    n = frame.size
    bad = [m for m in members if not 0 <= m < n]
    if bad:
        raise ValueError(f"For '{who}', group {group!r} holds ranks {bad} outside the {n} devices of this "
                         f"per-device run (a rank is a device of the mesh: 0 .. {n - 1})")
    base = min(members)
    offsets = [m - base for m in members]
    table = np.full((n, len(members)), -1, np.int64)
    position = np.full((n,), -1, np.int64)
    for d in range(n):
        if position[d] >= 0:
            continue
        copy = [d + o for o in offsets]
        if any(r >= n or position[r] >= 0 for r in copy):
            raise ValueError(
                f"For '{who}', group {group!r} {list(members)} can not run on every device: all {n} devices run "
                f"the same program, so copies of the group shifted by a constant must tile them, and device {d} "
                f"has no such copy ({copy}). Use groups like [0..k-1], [k..2k-1], ... or [0, k, 2k, ...]")
        for j, r in enumerate(copy):
            table[r] = copy
            position[r] = j
    return GroupLayout(members, table, position, _mesh_axes_of(frame, members))


def _mesh_axes_of(frame: DeviceFrame, members: tuple[int, ...]) -> tuple[str, ...] | None:
    """The frame axes the group spans, in order, when it is exactly the devices along them."""
    if list(members) != sorted(members):
        return None
    coords = np.array([np.unravel_index(m, frame.axis_sizes) for m in members]).reshape(len(members), -1)
    varying = [i for i in range(coords.shape[1]) if len(set(coords[:, i])) > 1]
    if len(members) != int(np.prod([frame.axis_sizes[i] for i in varying])):
        return None
    return tuple(frame.axis_names[i] for i in varying)
