"""The compiled training step of ``Model``: one pure function over the whole state.

The state is every Variable of the training Cell's tree (parameters,
optimizer moments, BatchNorm statistics, the loss scale) plus the global
random key. A call passes their values in, donates the buffers, and writes
every returned value back into the Cell tree (pointer assignment). Returning
every Variable, changed or not, keeps donation exact: each donated buffer is
aliased to the output of the same Variable.

``run_sink`` runs ``lax.scan`` of the same step over a stacked block of
batches: N steps in one XLA call, traced once.
"""
from __future__ import annotations

from typing import Any, Sequence

import jax
from jax import lax

from mindjax.cells.state import collect_variables
from mindjax.common.random import RNG_STATE
from mindjax.common.variable import Variable
from mindjax.parallel import data_parallel as _dp
from mindjax.parallel.auto import training as _auto_training
from mindjax.transforms.jit import _NewVariables, add_new_variables, run_over_state


def _strong(x: Any) -> Any:
    # A scan carry must keep its type exactly; weak types would flip between iterations.
    return lax.convert_element_type(x, x.dtype)


class StepProgram:
    """``cell(*batch)`` compiled over the Cell tree's state, with donation.

    Arguments:
        cell: the training Cell (``TrainOneStepCell`` or any Cell).
    """

    def __init__(self, cell: Any) -> None:
        self.cell = cell
        self.variables: list[Variable] = collect_variables(cell) + [RNG_STATE]
        self._ids = {id(v) for v in self.variables}
        self._single = jax.jit(self._pure_single, donate_argnums=(0,))
        self._sink = jax.jit(self._pure_sink, donate_argnums=(0,))
        # Per Variable, in a parallel mode: the batch is split and the state laid out on the mesh.
        self._shardings: list[Any] | None = None
        if _dp.parallel_active():
            _dp.configure_train_cell(cell)

    def _run(self, values: Sequence[Any], batch: tuple[Any, ...]) -> tuple[Any, list[Any]]:
        shardings = self._shardings
        if shardings is not None:
            batch = _dp.constrain_batch(batch)
        out, new_values = run_over_state(self.variables, values, self._ids,
                                         lambda: self.cell._call_impl(tuple(batch), {}))
        if shardings is not None:
            # Pins the output layout, so the next step's inputs need no move.
            new_values = [lax.with_sharding_constraint(v, s) for v, s in zip(new_values, shardings)]
        return out, new_values

    def _pure_single(self, values: list[Any], batch: tuple[Any, ...]) -> tuple[Any, list[Any]]:
        return self._run(values, batch)

    def _pure_sink(self, values: list[Any], stacked: tuple[Any, ...]) -> tuple[Any, list[Any]]:
        def body(carry: list[Any], batch: tuple[Any, ...]) -> tuple[list[Any], Any]:
            out, new = self._run(carry, batch)
            return [lax.convert_element_type(n, c.dtype) for n, c in zip(new, carry)], out

        final, outs = lax.scan(body, [_strong(v) for v in values], stacked)
        return outs, final

    def _prepare(self, batch: tuple[Any, ...], dim: int) -> tuple[list[Any], tuple[Any, ...]]:
        variables = self.variables
        if not _dp.parallel_active():
            self._shardings = None
            return [v._value for v in variables], batch
        if _auto_training.prepare_train_cell(self.cell, batch, dim):
            self._shardings = None  # the searched plan lays the state out anew
        if self._shardings is None or len(self._shardings) != len(variables):
            self._shardings = _dp.state_shardings(self.cell, variables)
        return _dp.place_state(variables, self._shardings), _dp.shard_batch(batch, dim)

    def _call(self, jitted: Any, batch: tuple[Any, ...], dim: int = 0) -> Any:
        while True:
            variables = self.variables
            values, batch = self._prepare(batch, dim)
            try:
                out, new = jitted(values, batch)
            except _NewVariables as grow:
                add_new_variables(self.variables, self._ids, grow, self.cell._where())
                continue
            break
        for var, val in zip(variables, new):
            object.__setattr__(var, "_raw", val)
        return out

    def __call__(self, batch: tuple[Any, ...]) -> Any:
        """Run one step on ``batch``; return the Cell's output."""
        return self._call(self._single, batch)

    def run_sink(self, stacked: tuple[Any, ...]) -> Any:
        """Run one step per leading index of ``stacked``; return the stacked outputs."""
        return self._call(self._sink, stacked, dim=1)

    def lowered_text(self, batch: tuple[Any, ...]) -> str:
        """The StableHLO text of the single step on ``batch``'s shapes."""
        values, batch = self._prepare(batch, 0)
        return self._single.lower(values, batch).as_text()

    def compile(self, batch: tuple[Any, ...]) -> Any:
        """The compiled single step on ``batch``'s shapes (``cost_analysis``, ``memory_analysis``)."""
        values, batch = self._prepare(batch, 0)
        return self._single.lower(values, batch).compile()
