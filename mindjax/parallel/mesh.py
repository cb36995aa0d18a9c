"""The device mesh: every device JAX sees, over all processes, in MindSpore's rank order.

MindSpore describes a sharding by a *device matrix* laid row-major over the
ranks (rank ``r`` has coordinates ``np.unravel_index(r, device_matrix)``), and
every operator may use its own device matrix. MindJAX builds one *global mesh*
whose axes are the prime factors of the device count in ascending order (8
devices: three axes ``d0, d1, d2`` of size 2, ``d0`` varying slowest). A device
matrix whose row-major layout fits is a grouping of those axes: ``(2, 4)`` is
``((d0,), (d1, d2))``.

Some device matrices fit no grouping of the global mesh: on 6 devices
(``d0: 2, d1: 3``) the matrix ``(3, 2)`` puts ranks 0 and 1 in one row, which
no mesh of shape ``(2, 3)`` can express. Such a matrix is laid on a *reordered
mesh*: the same devices in the same rank order, with the prime factors in
another order (``(3, 2)``), and axis names that say so (``d0_3x2``,
``d1_3x2``). jax.jit accepts ``NamedSharding``s on different meshes in one
program as long as they hold the same devices in the same order, which every
mesh here does; GSPMD sees only device tiles. :func:`named_sharding` finds the
mesh a ``PartitionSpec``'s axis names belong to. When the prime factors are
all equal (8 devices) there is no other order, so only the global mesh exists.

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
           "mesh_axis_names", "replicated", "named_sharding", "batch_sharding", "data_parallel_axes",
           "mesh_of_axes", "is_device_mesh"]


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


def _axis_names(order: tuple[int, ...], default: bool) -> tuple[str, ...]:
    if default:
        return tuple(f"d{i}" for i in range(len(order)))
    tag = "x".join(str(p) for p in order)
    return tuple(f"d{i}_{tag}" for i in range(len(order)))


@functools.lru_cache(maxsize=32)
def _ordered_mesh(device_ids: tuple[int, ...], order: tuple[int, ...]) -> Mesh:
    """The devices in rank order reshaped to ``order`` (a permutation of the prime factors)."""
    by_id = {d.id: d for d in jax.devices()}
    devices = np.array([by_id[i] for i in device_ids], dtype=object)
    default = tuple(_prime_factors(len(device_ids)) or [1])
    return Mesh(devices.reshape(order), _axis_names(order, order == default))


def _global_mesh(device_ids: tuple[int, ...]) -> Mesh:
    return _ordered_mesh(device_ids, tuple(_prime_factors(len(device_ids)) or [1]))


def get_mesh() -> Mesh:
    """The global mesh: axes ``d0, d1, ...`` of prime sizes, ascending, over :func:`get_devices`.

    Returns:
        a ``jax.sharding.Mesh``; the same object for the same devices.
    """
    return _global_mesh(_device_ids())


def _device_ids() -> tuple[int, ...]:
    return tuple(d.id for d in get_devices())


def _order_of_axis(name: object) -> tuple[int, ...] | None:
    """The prime order of the reordered mesh an axis name belongs to (None: the global mesh)."""
    if not isinstance(name, str) or "_" not in name or not name.startswith("d"):
        return None
    tag = name.split("_", 1)[1]
    try:
        return tuple(int(p) for p in tag.split("x"))
    except ValueError:
        return None


def mesh_of_axes(axis_names: Sequence[object]) -> Mesh:
    """The mesh (global or reordered) whose axes the given names are, over the current devices.

    Arguments:
        axis_names: names from :func:`device_matrix_axes` (any mix of one mesh's names).

    Returns:
        the global mesh when no name belongs to a reordered mesh, else that mesh.

    Raises:
        ValueError: the names belong to two different meshes.
    """
    orders = {o for o in (_order_of_axis(n) for n in axis_names) if o is not None}
    if not orders:
        return get_mesh()
    if len(orders) > 1:
        raise ValueError(f"the mesh axes {tuple(axis_names)} belong to different device orders {sorted(orders)}")
    ids = _device_ids()
    order = orders.pop()
    if int(np.prod(order)) != len(ids):
        raise ValueError(f"the mesh axes {tuple(axis_names)} are for {int(np.prod(order))} devices, but the "
                         f"device number is {len(ids)}")
    return _ordered_mesh(ids, order)


def is_device_mesh(mesh: Mesh) -> bool:
    """Whether ``mesh`` is the global mesh or one of its reorderings over the current devices."""
    try:
        return mesh == mesh_of_axes(mesh.axis_names)
    except ValueError:
        return False


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


def _lay_on(order: Sequence[int], device_matrix: Sequence[int]) -> list[list[int]] | None:
    """Consecutive runs of ``order`` (by index) that multiply to each dimension, or None."""
    out: list[list[int]] = []
    pos = 0
    for dim in device_matrix:
        group: list[int] = []
        left = int(dim)
        while left > 1:
            if pos >= len(order) or left % order[pos]:
                return None
            group.append(pos)
            left //= order[pos]
            pos += 1
        out.append(group)
    return out


def _order_for(primes: Sequence[int], device_matrix: Sequence[int]) -> tuple[int, ...]:
    """A prime order on which ``device_matrix`` (product dividing the count) lies in consecutive runs.

    Each dimension takes its own prime factors, ascending; the primes left
    over go last, so the repeated devices vary fastest (MindSpore's default).
    """
    left = list(primes)
    order: list[int] = []
    for dim in device_matrix:
        for p in _prime_factors(int(dim)):
            left.remove(p)
            order.append(p)
    return tuple(order + left)


def device_matrix_axes(device_matrix: Sequence[int]) -> list[tuple[str, ...]]:
    """Lay a MindSpore device matrix on the devices: one group of mesh axes per dimension.

    The device matrix is row-major over ranks, like the global mesh, so its
    dimensions take consecutive runs of the mesh's prime axes. A product
    smaller than the device count leaves the fastest-varying axes unused: the
    data is repeated over them (MindSpore puts the repeated dimension on the
    right of the device matrix by default). When no grouping of the global
    mesh fits (``(3, 2)`` on 6 devices) the axes come from a reordered mesh
    over the same devices; :func:`named_sharding` finds it from the names.

    Arguments:
        device_matrix: split counts, slowest-varying first, e.g. ``(2, 1, 4)``.

    Returns:
        for each dimension the tuple of mesh axis names it spans (``()`` for 1).

    Raises:
        ValueError: the product does not divide the device count.
    """
    mesh = get_mesh()
    names = list(mesh.axis_names)
    sizes = [mesh.shape[n] for n in names]
    total = int(np.prod(sizes))
    product = int(np.prod(device_matrix)) if len(device_matrix) else 1
    if product > total or total % product:
        raise ValueError(f"the device matrix {tuple(device_matrix)} (product {product}) must divide the "
                         f"device number {total}")
    runs = _lay_on(sizes, device_matrix)
    if runs is None:
        order = _order_for([s for s in sizes if s > 1], device_matrix)
        names = list(_ordered_mesh(_device_ids(), order).axis_names)
        runs = _lay_on(order, device_matrix)
        assert runs is not None, (order, device_matrix)  # the order is built so that it fits
    return [tuple(names[i] for i in group) for group in runs]


def data_parallel_axes() -> tuple[str, ...]:
    """Every mesh axis: the batch is split over all devices in data parallel."""
    return tuple(a for a in get_mesh().axis_names if get_mesh().shape[a] > 1)


def named_sharding(spec: PartitionSpec) -> NamedSharding:
    """The ``NamedSharding`` of ``spec`` on the mesh its axis names belong to.

    Arguments:
        spec: a spec over axes from :func:`device_matrix_axes` (or of the global mesh).

    Returns:
        ``NamedSharding(mesh, spec)``: the global mesh, or the reordered mesh
        over the same devices whose axes ``spec`` names.
    """
    names = [a for e in spec if e is not None for a in (e if isinstance(e, tuple) else (e,))]
    return NamedSharding(mesh_of_axes(names), spec)


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
