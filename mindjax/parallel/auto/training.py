"""AUTO_PARALLEL in ``Model.train``: search the plan on the first batch and run it.

With ``ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.AUTO_PARALLEL)``
the training Cell's loss network (``TrainOneStepCell.network``) is wrapped in
an :class:`~mindjax.parallel.auto.plan.AutoParallelCell` whose plan is searched
(and verified against XLA) on the first batch's shapes. Each Parameter, and
each optimizer state of a Parameter, is then laid out as the plan says, so
the compiled step keeps them there between steps.

Example:
    >>> ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.AUTO_PARALLEL,
    ...                              search_mode="recursive_programming")   # doctest: +SKIP
    >>> Model(net, loss, opt).train(1, dataset)                              # doctest: +SKIP
"""
from __future__ import annotations

from typing import Any, Sequence

import jax

from mindjax import context
from mindjax.cells.cell import Cell
from mindjax.cells.state import bump_structure_version
from mindjax.parallel.auto.cost import CostModel
from mindjax.parallel.auto.plan import AutoParallelCell, default_mesh

__all__ = ["auto_parallel_active", "prepare_train_cell"]


def auto_parallel_active() -> bool:
    """Whether the parallel context is in ``AUTO_PARALLEL`` mode."""
    return context.get_auto_parallel_context("parallel_mode") == "auto_parallel"


def _optimizers(cell: Cell) -> list[Any]:
    from mindjax.cells.optim.optimizer import Optimizer

    return [sub for _, sub in cell.cells_and_names() if isinstance(sub, Optimizer)]


def _states_per_weight(cell: Cell) -> int:
    counts = []
    for opt in _optimizers(cell):
        weights = list(opt.parameters)
        ids = {id(w) for w in weights}
        states = [p for p in opt.get_parameters() if id(p) not in ids and p.ndim > 0]
        if weights:
            counts.append(round(len(states) / len(weights)))
    return max(counts) if counts else 1


def prepare_train_cell(cell: Cell, batch: Sequence[Any], dim: int = 0) -> bool:
    """In ``AUTO_PARALLEL``, wrap ``cell``'s loss network in its searched plan (once).

    Arguments:
        cell: the training Cell (``TrainOneStepCell`` or any Cell with ``network``
            and ``optimizer``).
        batch: the first batch (arrays), or a stacked sink block when ``dim`` is 1.
        dim: the batch dimension of the arrays (1 for a sink block).

    Returns:
        True when the Cell was wrapped now (its state layouts changed).
    """
    if not auto_parallel_active():
        return False
    network = getattr(cell, "network", None)
    if not isinstance(network, Cell) or isinstance(network, AutoParallelCell) \
            or getattr(cell, "optimizer", None) is None:
        return False
    structs = [jax.ShapeDtypeStruct(tuple(x.shape)[dim:], x.dtype) for x in batch]
    mesh = default_mesh()
    states = _states_per_weight(cell)
    mode = context.get_auto_parallel_context("search_mode")
    wrapped = AutoParallelCell(network, mesh=mesh, search_mode=mode, verify=True,
                               optimizer_states=states,
                               cost_model=CostModel(dict(mesh.shape), optimizer_states=states))
    wrapped.plan_for(*structs)  # lays the Parameters out; their optimizer states follow
    # Registered by hand: assigning through Cell.__setattr__ would prefix the
    # Parameters' names when the owner uses auto_prefix.
    _, cells = cell._registries()
    cells["network"] = wrapped
    cell.__dict__["network"] = wrapped
    bump_structure_version()
    return True
