"""The device mesh: every device JAX sees, over all processes, in MindSpore's rank order.

MindSpore describes a sharding by a *device matrix* laid row-major over the
ranks (rank ``r`` has coordinates ``np.unravel_index(r, device_matrix)``), and
every operator may use its own device matrix. GSPMD needs one mesh per
program, so MindJAX builds one *global mesh* whose axes are the prime factors
of the device count (8 devices: three axes ``d0, d1, d2`` of size 2, ``d0``
varying slowest). Any device matrix whose row-major layout fits is then a
grouping of those axes: ``(2, 4)`` is ``((d0,), (d1, d2))``. The same rank
always sits at the same mesh position, so strategies of different operators
agree about which device holds which slice, exactly as in MindSpore.

Example:
    >>> from mindjax.parallel import mesh
    >>> m = mesh.get_mesh()                                   # doctest: +SKIP
    >>> m.shape                                               # doctest: +SKIP
    OrderedDict([('d0', 2), ('d1', 2), ('d2', 2)])
    >>> mesh.device_matrix_axes((2, 4))                       # doctest: +SKIP
    [('d0',), ('d1', 'd2')]
"""
from __future__ import annotations

import functools
from typing import Sequence

import jax
import numpy as np
from jax.sharding import Mesh, NamedSharding, PartitionSpec

from mindjax import context

__all__ = ["get_device_num", "get_devices", "get_mesh", "create_mesh", "device_matrix_axes",
           "mesh_axis_names", "replicated", "named_sharding", "batch_sharding", "data_parallel_axes"]


def get_device_num() -> int:
    """The number of devices taking part in parallel training.

    ``device_num`` from ``set_auto_parallel_context`` when the user set it,
    otherwise every device JAX sees over all processes (``jax.device_count()``).

    Raises:
        ValueError: ``device_num`` is larger than the number of devices.
    """
    total = jax.device_count()
    if "device_num" not in context._PARALLEL_SET:
        return total
    num = context._PARALLEL["device_num"]
    if num > total:
        raise ValueError(f"For 'set_auto_parallel_context', 'device_num' must be at most the "
                         f"{total} device(s) JAX sees, got {num}")
    return num


def get_devices() -> list[jax.Device]:
    """The devices of the global mesh, in rank order (the first ``get_device_num()``)."""
    return list(jax.devices()[:get_device_num()])


def _prime_factors(n: int) -> list[int]:
    factors, p = [], 2
    while p * p <= n:
        while n % p == 0:
            factors.append(p)
            n //= p
        p += 1
    if n > 1:
        factors.append(n)
    return factors


@functools.lru_cache(maxsize=16)
def _global_mesh(device_ids: tuple[int, ...]) -> Mesh:
    by_id = {d.id: d for d in jax.devices()}
    devices = np.array([by_id[i] for i in device_ids], dtype=object)
    sizes = _prime_factors(len(device_ids)) or [1]
    names = tuple(f"d{i}" for i in range(len(sizes)))
    return Mesh(devices.reshape(sizes), names)


def get_mesh() -> Mesh:
    """The global mesh: axes ``d0, d1, ...`` of prime sizes over :func:`get_devices`.

    Returns:
        a ``jax.sharding.Mesh``; the same object for the same devices.
    """
    return _global_mesh(tuple(d.id for d in get_devices()))


def create_mesh(shape: Sequence[int], axis_names: Sequence[str]) -> Mesh:
    """A named mesh over the global devices in rank order, e.g. ``((2, 4), ("dp", "mp"))``.

    Arguments:
        shape: the mesh shape; its product must be the device count.
        axis_names: one name per axis.

    Returns:
        a ``jax.sharding.Mesh`` whose device at index ``i`` (row-major) is rank ``i``.

    Raises:
        ValueError: the shape does not multiply to the device count, or the
            names do not match the shape.
    """
    shape = tuple(int(s) for s in shape)
    names = tuple(axis_names)
    devices = get_devices()
    if len(shape) != len(names):
        raise ValueError(f"For 'create_mesh', 'axis_names' must name each of the {len(shape)} axes of "
                         f"{shape}, got {names}")
    if int(np.prod(shape)) != len(devices):
        raise ValueError(f"For 'create_mesh', the product of 'shape' {shape} must equal the device "
                         f"number {len(devices)}")
    return Mesh(np.array(devices, dtype=object).reshape(shape), names)


def mesh_axis_names() -> tuple[str, ...]:
    """The global mesh's axis names, slowest-varying first."""
    return tuple(get_mesh().axis_names)


def device_matrix_axes(device_matrix: Sequence[int]) -> list[tuple[str, ...]]:
    """Lay a MindSpore device matrix on the global mesh: one group of mesh axes per dimension.

    The device matrix is row-major over ranks, like the global mesh, so its
    dimensions take consecutive runs of the mesh's prime axes. A product
    smaller than the device count leaves the fastest-varying axes unused: the
    data is repeated over them (MindSpore puts the repeated dimension on the
    right of the device matrix by default).

    Arguments:
        device_matrix: split counts, slowest-varying first, e.g. ``(2, 1, 4)``.

    Returns:
        for each dimension the tuple of mesh axis names it spans (``()`` for 1).

    Raises:
        ValueError: the product does not divide the device count, or a
            dimension cannot be built from consecutive prime axes.
    """
    mesh = get_mesh()
    names = list(mesh.axis_names)
    sizes = [mesh.shape[n] for n in names]
    total = int(np.prod(sizes))
    product = int(np.prod(device_matrix)) if len(device_matrix) else 1
    if product > total or total % product:
        raise ValueError(f"the device matrix {tuple(device_matrix)} (product {product}) must divide the "
                         f"device number {total}")
    out: list[tuple[str, ...]] = []
    pos = 0
    for dim in device_matrix:
        group: list[str] = []
        left = int(dim)
        while left > 1:
            if pos >= len(sizes) or left % sizes[pos]:
                raise ValueError(f"the device matrix {tuple(device_matrix)} cannot be laid row-major on "
                                 f"the {total} devices (mesh axes {tuple(sizes)}): dimension {dim} does "
                                 f"not fit")
            group.append(names[pos])
            left //= sizes[pos]
            pos += 1
        out.append(tuple(group))
    return out


def data_parallel_axes() -> tuple[str, ...]:
    """Every mesh axis: the batch is split over all devices in data parallel."""
    return tuple(a for a in get_mesh().axis_names if get_mesh().shape[a] > 1)


def named_sharding(spec: PartitionSpec) -> NamedSharding:
    """``NamedSharding(get_mesh(), spec)``."""
    return NamedSharding(get_mesh(), spec)


def replicated() -> NamedSharding:
    """The fully replicated sharding on the global mesh."""
    return NamedSharding(get_mesh(), PartitionSpec())


def batch_sharding(ndim: int, dim: int = 0) -> NamedSharding:
    """Split dimension ``dim`` of a rank-``ndim`` array over every device."""
    if ndim == 0:
        return replicated()
    axes = data_parallel_axes()
    entries: list[object] = [None] * ndim
    entries[dim] = axes if axes else None
    return NamedSharding(get_mesh(), PartitionSpec(*entries))
