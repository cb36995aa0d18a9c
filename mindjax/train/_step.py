"""The compiled training step of ``Model``: one pure function over the whole state.

The state is every Variable of the training Cell's tree (parameters,
optimizer moments, BatchNorm statistics, the loss scale) plus the global
random key. A call passes their values in, donates the buffers, and writes
every returned value back into the Cell tree (pointer assignment). Returning
every Variable, changed or not, keeps donation exact: each donated buffer is
aliased to the output of the same Variable.

``run_sink`` runs N steps over a stacked block of batches in one
``lax.scan`` (traced once): sink mode on GPU and TPU. On XLA:CPU there is no
sink mode, as on MindSpore's CPU backend: ``Model`` trains step by step
(:func:`sink_runs_on_device`), which also measured faster there (a scan of a
conv step ran 1.5-1.9x slower than separate calls).

A step whose loss is not finite (NaN or Inf), or in which a value check failed
(an out-of-range label or index, see :mod:`mindjax.common.checks`), keeps the
state it started with: every Variable's new value goes through one select on
a scalar flag, which XLA fuses into the update. The flags come back with the
outputs (``last_report``) and ``Model`` raises from them at its next host sync.
"""
from __future__ import annotations

from typing import Any, Sequence

import jax
import jax.numpy as jnp
from jax import lax

from mindjax.cells.state import collect_variables
from mindjax.common import progress as _progress
from mindjax.common.checks import any_failed, checks_output, collect_checks
from mindjax.common.random import RNG_STATE
from mindjax.common.step_guard import step_guard
from mindjax.common.variable import Variable
from mindjax.parallel import data_parallel as _dp
from mindjax.parallel import stage_state  # noqa: F401 - fills the state_layout upcall that Program calls
from mindjax.parallel import strategy_file as _strategy_file
from mindjax.parallel.shard import place
from mindjax.transforms.jit import Program, run_over_state


def sink_runs_on_device() -> bool:
    """Whether ``dataset_sink_mode=True`` sinks: False where the steps run on XLA:CPU.

    MindSpore's CPU backend has no sink mode (``Model.train`` logs "The CPU
    cannot support dataset sink mode currently" and trains step by step), so
    there MindJAX trains step by step too: ``step_end`` callbacks see every
    step, and an epoch is the whole dataset whatever ``sink_size`` is.
    """
    device = jax.config.jax_default_device
    platform = getattr(device, "platform", device) or jax.default_backend()
    return platform != "cpu"


def _shapes(batch: tuple[Any, ...]) -> tuple[Any, ...]:
    return tuple((getattr(x, "shape", None), getattr(x, "dtype", type(x))) for x in batch)


def _strong(x: Any) -> Any:
    # A scan carry must keep its type exactly; weak types would flip between iterations.
    return lax.convert_element_type(x, x.dtype)


def _loss_of(out: Any) -> Any:
    """The loss in a training Cell's output: the output, or its first element."""
    while isinstance(out, (tuple, list)) and out:
        out = out[0]
    return out


def loss_is_finite(out: Any) -> Any:
    """A traced bool: the loss in ``out`` holds no NaN or Inf (True when it is not a float array)."""
    loss = _loss_of(out)
    if not hasattr(loss, "dtype") or not jnp.issubdtype(loss.dtype, jnp.inexact):
        return jnp.asarray(True)
    return jnp.all(jnp.isfinite(loss))


def _exempt_ids(cell: Any) -> set[int]:
    # The loss scale must still drop after an overflow that the step skips.
    exempt: set[int] = set()
    manager = getattr(cell, "loss_scaling_manager", None)
    if manager is not None:
        exempt.update(id(v) for v in collect_variables(manager))
    sense = getattr(cell, "scale_sense", None)
    if isinstance(sense, Variable):
        exempt.add(id(sense))
    return exempt


class StepProgram(Program):
    """``cell(*batch)`` compiled over the Cell tree's state, with donation.

    A :class:`~mindjax.transforms.jit.Program` whose every Variable comes back
    from each call (so donation is exact), with a single-step and a sink entry.
    ``Model`` keeps it in the training Cell's program cache, keyed by the Cell's
    signature and these options.

    Arguments:
        cell: the training Cell (``TrainOneStepCell`` or any Cell).
        guard_loss: skip the update of a step whose loss is not finite (and
            report it); ``False`` applies every update, as MindSpore does.
    """

    def __init__(self, cell: Any, guard_loss: bool = True, halt_on_nonfinite: bool = True) -> None:
        # Set on the device by a failed step: later steps, dispatched before the host has looked,
        # skip their updates too, so the state stays that before the failure until release_halt().
        self._halt = Variable(jnp.asarray(False))
        super().__init__(collect_variables(cell) + [RNG_STATE, self._halt], cell._where(), owner=cell)
        self.cell = cell
        self.guard_loss = guard_loss
        self.halt_on_nonfinite = halt_on_nonfinite and guard_loss
        self._exempt = _exempt_ids(cell) | {id(self._halt)}
        # (loss finite, value checks) of the last call, on the device; stacked over steps after run_sink.
        self.last_report: Any = None
        self._single = jax.jit(self._pure_single, donate_argnums=(0,))
        self._sink = jax.jit(self._pure_sink, donate_argnums=(0,))
        # Per Variable, in a parallel mode: the batch is split and the state laid out on the mesh.
        self._shardings: list[Any] | None = None
        if _dp.parallel_active():
            _dp.configure_train_cell(cell)

    def _run(self, values: Sequence[Any], batch: tuple[Any, ...]) -> tuple[list[Any], Any]:
        shardings = self._shardings
        layout = self._layout
        if layout is not None:
            values = layout.expand(values)
        if shardings is not None:
            batch = _dp.constrain_batch(batch)
        halt_at = next(i for i, var in enumerate(self.variables) if var is self._halt)
        with collect_checks() as checks, self.planning.scope(), \
                step_guard(values[halt_at], checks, self.guard_loss) as guard:
            out, new_values = run_over_state(self.variables, values, self._ids,
                                             lambda: self.cell(*batch))
        if layout is not None:
            new_values = layout.finish(values, new_values)
        checked = checks_output(checks)
        finite = loss_is_finite(out) if self.guard_loss else jnp.asarray(True)
        if self.guard_loss or checked:
            halted, failed = values[halt_at], any_failed(checked)
            selected: dict[int, Any] = {}
            if guard.keep_value is not None and guard.checks_seen == len(checks) \
                    and guard.loss is getattr(_loss_of(out), "_raw", _loss_of(out)):
                # The flag the optimizer selected its new state on is the whole flag: what it
                # selected already needs no second select (which would bring XLA's copies back).
                keep, selected = guard.keep_value, guard.selected
            else:
                keep = jnp.logical_not(finite) | failed | halted
            new_values = [new if new is old or id(var) in self._exempt or selected.get(id(new)) is new
                          else jnp.where(keep, old, new)
                          for var, old, new in zip(self.variables, values, new_values)]
            latch = failed | jnp.logical_not(finite) if self.halt_on_nonfinite else failed
            new_values[halt_at] = halted | latch
        if shardings is not None:
            # Pins the output layout, so the next step's inputs need no move.
            new_values = [v if layout is not None and layout.handled(i) else lax.with_sharding_constraint(v, s)
                          for i, (v, s) in enumerate(zip(new_values, shardings))]
        if layout is not None:
            # A group leaves through its leader, split over the stages; the other members stay out.
            for i in layout.members:
                new_values[i] = None
            for g in layout.groups:
                new_values[g.leader] = lax.with_sharding_constraint(new_values[g.leader], g.sharding)
        # The state leads the outputs: JAX gives each donated buffer to the first output of its shape
        # and dtype, so an output before the state (the loss, a report flag) would take a scalar
        # Variable's buffer and XLA would copy that Variable's new value instead of aliasing it.
        return new_values, (out, (finite, checked))

    def _pure_single(self, values: list[Any], batch: tuple[Any, ...]) -> tuple[list[Any], Any]:
        return self._run(values, batch)

    def _pure_sink(self, values: list[Any], stacked: tuple[Any, ...]) -> tuple[list[Any], Any]:
        def body(carry: list[Any], batch: tuple[Any, ...]) -> tuple[list[Any], Any]:
            new, out = self._run(carry, batch)
            return [None if c is None else lax.convert_element_type(n, c.dtype) for n, c in zip(new, carry)], out

        return lax.scan(body, [None if v is None else _strong(v) for v in values], stacked)

    def _prepare(self, batch: tuple[Any, ...], dim: int) -> tuple[list[Any], tuple[Any, ...]]:
        variables = self.variables
        if not _dp.parallel_active():
            self._shardings = None
            return self.pack_state([v._value for v in variables]), batch
        # Pipeline stages' state travels in stage groups (see mindjax.parallel.stage_state).
        layout = self.state_layout()
        if self._plan_parallel(variables, layout, batch, dim):
            self._shardings = None  # the searched plan lays the state out anew
        if self._shardings is None or len(self._shardings) != len(variables):
            if self._shardings is None:
                _strategy_file.apply_loaded_strategy(self.cell)
            self._shardings = _dp.state_shardings(self.cell, variables)
            _strategy_file.save_parameter_strategy(variables, self._shardings, getattr(self.cell, "weights", None))
        if layout is None:
            return _dp.place_state(variables, self._shardings), _dp.shard_batch(batch, dim)
        # The layout places the staged Variables itself (each on its stage's devices).
        values = [v._value if layout.handled(i) else place(v._value, s)
                  for i, (v, s) in enumerate(zip(variables, self._shardings))]
        return layout.pack(values), _dp.shard_batch(batch, dim)

    def _plan_parallel(self, variables: Sequence[Variable], layout: Any, batch: tuple[Any, ...],
                       dim: int) -> bool:
        """Ask the parallel context's plan for one step on ``batch``'s shapes (a sink block's slice)."""
        structs = tuple(jax.ShapeDtypeStruct(tuple(x.shape)[dim:], x.dtype) if hasattr(x, "shape") else x
                        for x in batch)
        signature = _shapes(structs)
        if self.planning.planned(signature):
            return False

        def discover() -> Any:
            values = [v._value for v in variables]
            values = layout.pack(values) if layout is not None else values
            return jax.eval_shape(self._pure_single, values, structs)

        return self.planning.prepare(signature, discover)

    def _call(self, jitted: Any, batch: tuple[Any, ...], dim: int = 0) -> Any:
        def attempt() -> tuple[list[Variable], Any]:
            variables = list(self.variables)
            values, placed = self._prepare(batch, dim)
            with _progress.dispatching():
                return variables, jitted(values, placed)

        variables, (new, out) = self.grow_state(attempt)
        _progress.dispatched(out[1][0])  # the loss-is-finite flag: never donated
        for var, val in zip(variables, new):
            if val is not None:
                object.__setattr__(var, "_raw", val)
        if self._layout is not None:
            self._layout.store(variables)
        out, self.last_report = out
        return out

    def halted(self) -> bool:
        """Whether a step has failed since the last :meth:`release_halt` (waits for the steps dispatched).

        A failed value check latches the halt flag on the device, and so does a
        non-finite loss when ``halt_on_nonfinite`` is set: then one transfer
        answers for every step dispatched since the flag was last read.
        """
        return bool(jax.device_get(self._halt._raw))

    def release_halt(self) -> None:
        """Let later steps update the state again after a failure was reported."""
        object.__setattr__(self._halt, "_raw", jnp.asarray(False))

    def __call__(self, batch: tuple[Any, ...]) -> Any:
        """Run one step on ``batch``; return the Cell's output."""
        return self._call(self._single, batch)

    def run_sink(self, stacked: tuple[Any, ...]) -> Any:
        """Run one step per leading index of ``stacked`` in one ``lax.scan``; return the stacked outputs.

        ``last_report`` then holds the per-step reports, stacked the same way.
        """
        return self._call(self._sink, stacked, dim=1)

    def lowered_text(self, batch: tuple[Any, ...]) -> str:
        """The StableHLO text of the single step on ``batch``'s shapes."""
        values, batch = self._prepare(batch, 0)
        return self._single.lower(values, batch).as_text()

    def compile(self, batch: tuple[Any, ...]) -> Any:
        """The compiled single step on ``batch``'s shapes (``cost_analysis``, ``memory_analysis``)."""
        values, batch = self._prepare(batch, 0)
        return self._single.lower(values, batch).compile()
