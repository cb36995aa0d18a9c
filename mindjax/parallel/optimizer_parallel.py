"""Optimizer parallel (``enable_parallel_optimizer=True``): ZeRO-1 and ZeRO-2 on GSPMD.

The optimizer's own state (moments, accumulators) is split over the
data-parallel devices along its first dimension that divides, so each device
keeps ``1/n`` of it (ZeRO-1). With ``parallel_optimizer_config={"optimizer_level":
"level2"}`` the gradients are split the same way before the update (ZeRO-2),
so backends with a reduce-scatter pass (GPU, TPU) reduce-scatter them instead
of all-reducing; XLA on CPU keeps the all-reduce and slices it. The weights stay as
their own plan says (replicated in data parallel), so the forward pass is
unchanged; GSPMD all-gathers the updated slices.

Example:
    >>> ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.DATA_PARALLEL,
    ...                              enable_parallel_optimizer=True)   # doctest: +SKIP
"""
from __future__ import annotations

from typing import Any, Callable, Sequence

import jax
from jax.sharding import NamedSharding, PartitionSpec

from mindjax import context
from mindjax.common.variable import Variable
from mindjax.parallel import mesh as _mesh

__all__ = ["optimizer_parallel_active", "optimizer_level", "optimizer_state_ids", "zero_sharding",
           "sharded_grad_reducer"]

_LEVELS = ("level1", "level2")


def optimizer_parallel_active() -> bool:
    """Whether ``enable_parallel_optimizer`` is on in a parallel mode."""
    return bool(context._PARALLEL["enable_parallel_optimizer"]) and \
        context._PARALLEL["parallel_mode"] != "stand_alone"


def optimizer_level() -> str:
    """``"level1"`` (optimizer state only, the default) or ``"level2"`` (and gradients).

    Raises:
        ValueError: another ``optimizer_level`` in ``parallel_optimizer_config``.
    """
    config = context._PARALLEL["parallel_optimizer_config"] or {}
    level = config.get("optimizer_level", "level1")
    if level not in _LEVELS:
        raise ValueError(f"For 'set_auto_parallel_context', parallel_optimizer_config['optimizer_level'] "
                         f"must be one of {list(_LEVELS)}, got {level!r}")
    return level


def optimizer_state_ids(cell: Any) -> set[int]:
    """The ids of the optimizer-state Variables in ``cell``'s tree (not the weights it updates)."""
    from mindjax.cells.optim.optimizer import Optimizer  # lazy: only for cells that have one

    ids: set[int] = set()
    for _, sub in cell.cells_and_names():
        if isinstance(sub, Optimizer) and getattr(sub, "_support_parallel_optimizer", True) is not None:
            weights = {id(p) for p in sub.parameters}
            ids.update(id(p) for p in sub.get_parameters() if id(p) not in weights)
    return ids


def zero_sharding(shape: Sequence[int], base: NamedSharding | None = None) -> NamedSharding:
    """Split the first dimension of ``shape`` that the data-parallel devices divide.

    Arguments:
        shape: the array's shape.
        base: the weight's own sharding; its split dimensions are kept and
            the free mesh axes are used for the optimizer split.

    Returns:
        the sharding (replicated when no dimension divides).
    """
    # A plan whose device matrix needed a reordered mesh (6 devices, (3, 2)) keeps that mesh.
    mesh = base.mesh if base is not None and _mesh.is_device_mesh(base.mesh) else _mesh.get_mesh()
    entries = list(base.spec) if base is not None else []
    entries += [None] * (len(shape) - len(entries))
    used = {a for e in entries if e is not None for a in (e if isinstance(e, tuple) else (e,))}
    free = tuple(a for a in mesh.axis_names if mesh.shape[a] > 1 and a not in used)
    size = 1
    for a in free:
        size *= mesh.shape[a]
    if size > 1:
        for d, n in enumerate(shape):
            if entries[d] is None and n % size == 0:
                entries[d] = free if len(free) > 1 else free[0]
                break
    return NamedSharding(mesh, PartitionSpec(*entries))


def sharded_grad_reducer(weights: Sequence[Variable],
                         shardings: Sequence[NamedSharding]) -> Callable[[tuple[Any, ...]], tuple[Any, ...]]:
    """A ``TrainOneStepCell.grad_reducer`` that splits each gradient as its optimizer state (ZeRO-2)."""
    from mindjax.parallel.data_parallel import reduce_training_gradients

    def reducer(grads: tuple[Any, ...]) -> tuple[Any, ...]:
        grads = reduce_training_gradients(grads)
        return tuple(jax.lax.with_sharding_constraint(g, s) for g, s in zip(grads, shardings))
    return reducer
