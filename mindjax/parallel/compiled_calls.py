"""The parallel context in every compiled call: plans asked once per signature, before the trace.

As in MindSpore, ``set_auto_parallel_context`` governs every graph that is
compiled: ``Model.train``'s step, a ``TrainOneStepCell`` (or any Cell) called
in GRAPH mode, and ``ms.jit`` functions and methods. Each of these compiled
programs asks this module (through ``UPCALLS.parallel_plan``, see
:class:`mindjax.transforms.jit.ParallelPlanning`) for its plan once per input
signature, before it is traced:

1. the program is traced abstractly while :class:`_Discovery` watches the Cells
   it calls: the outermost Cells holding trainable Parameters are planned,
   looking through training wrappers (``TrainOneStepCell``: its ``network`` is
   planned, as MindSpore plans the forward graph and derives the backward);
   optimizers and Cells without Parameters run as written;
2. in ``AUTO_PARALLEL`` each planned Cell gets an
   :class:`~mindjax.parallel.auto.plan.AutoParallelCell` whose plan is searched
   (and verified against XLA) on the shapes seen, and its Parameters, and the
   optimizer states that follow them, are laid out as the plan says. In
   ``DATA_PARALLEL``, ``SEMI_AUTO_PARALLEL`` and ``HYBRID_PARALLEL`` a planned
   Cell's inputs are split over the devices as ``Model.train`` splits its batch
   (``dataset_strategy``, ``full_batch``); a training wrapper lays its own batch
   out, so a program run through one needs nothing here;
3. the real trace runs in the plan's scope, where those Cells' calls run their
   plans (:class:`_Routes`), and the program's written state keeps its layout.

A Cell called eagerly in PYNATIVE mode gets none of this: under
``AUTO_PARALLEL`` it is not searched, under the other modes its inputs are not
split. ``Cell.__call__`` tells this module of the outermost eager call
(``UPCALLS.eager_parallel_call``), which warns once per mode, naming why, where
the mode would have applied to a compiled call. ``get_strategy`` shows a
program planned without a search too (its Parameters' layouts, its split
inputs and the ``shard()`` strategies its abstract trace applied). An input that cannot be split (its
first dimension does not divide over the devices) is left whole, with a
warning naming the Cell and the shape.

Example:
    >>> ms.set_context(mode=ms.GRAPH_MODE)                                   # doctest: +SKIP
    >>> ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.AUTO_PARALLEL,
    ...                              search_mode="recursive_programming")   # doctest: +SKIP
    >>> step = nn.TrainOneStepCell(nn.WithLossCell(net, loss), opt)          # doctest: +SKIP
    >>> step(x, y); get_strategy(step)["parameters"]                         # doctest: +SKIP
"""
from __future__ import annotations

import functools
import warnings
import weakref
from typing import Any, Callable, Sequence

import jax
from jax.sharding import NamedSharding, PartitionSpec

from mindjax import context
from mindjax.cells.cell import Cell
from mindjax.cells.optim.optimizer import Optimizer
from mindjax.common.tensor import Tensor
from mindjax.common.upcalls import NOT_PLANNED, UPCALLS, register_upcall
from mindjax.common.variable import Variable
from mindjax.communication import per_device as _frames
from mindjax.parallel import data_parallel as _dp
from mindjax.parallel import mesh as _mesh
from mindjax.parallel.auto.cost import CostModel
from mindjax.parallel.auto.plan import AppliedLayout, AutoParallelCell, default_mesh, record_applied, record_plan
from mindjax.parallel.per_device import holds_collectives
from mindjax.parallel.shard import recording_strategies

__all__ = ["auto_parallel_active", "CallPlan", "plan_compiled_call"]


def auto_parallel_active() -> bool:
    """Whether the parallel context is in ``AUTO_PARALLEL`` mode."""
    return context.get_auto_parallel_context("parallel_mode") == "auto_parallel"


def _is_training_wrapper(cell: Cell) -> bool:
    """A Cell that runs ``network`` and then ``optimizer`` (``TrainOneStepCell`` and its kin)."""
    d = cell.__dict__
    return isinstance(d.get("network"), Cell) and d.get("optimizer") is not None


def _states_per_weight(optimizers: Sequence[Optimizer]) -> int:
    """How many arrays the optimizers keep per weight (Momentum 1, Adam 2)."""
    counts = []
    for opt in optimizers:
        weights = list(opt.parameters)
        ids = {id(w) for w in weights}
        states = [p for p in opt.get_parameters() if id(p) not in ids and p.ndim > 0]
        if weights:
            counts.append(round(len(states) / len(weights)))
    return max(counts) if counts else 1


def _struct(x: Any) -> Any:
    raw = x._raw if isinstance(x, Tensor) else x
    if hasattr(raw, "shape") and hasattr(raw, "dtype"):
        return jax.ShapeDtypeStruct(tuple(raw.shape), raw.dtype)
    return raw


def _is_tensor(x: Any) -> bool:
    return isinstance(x, Tensor)


class _Discovery:
    """Watches the Cells an abstract trace of a program calls; records those to plan."""

    def __init__(self) -> None:
        # (Cell, input structs, whether a training wrapper called it)
        self.found: list[tuple[Cell, tuple[Any, ...], bool]] = []
        self.optimizers: list[Optimizer] = []
        self.wrappers: list[Cell] = []
        self._suspended = False
        self._in_wrapper = 0
        self._skip: set[int] = set()

    def __call__(self, cell: Cell, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        if self._suspended or id(cell) in self._skip:
            return NOT_PLANNED
        if isinstance(cell, Optimizer):
            self.optimizers.append(cell)
            return self._run_as_written(cell, args, kwargs)
        if _is_training_wrapper(cell):
            self.wrappers.append(cell)
            self.optimizers.append(cell.__dict__["optimizer"])
            self._in_wrapper += 1
            try:  # its construct runs; the Cells it calls are watched
                return self._run_unwatched(cell, args, kwargs)
            finally:
                self._in_wrapper -= 1
        if not isinstance(cell, AutoParallelCell) and not kwargs and cell.trainable_params():
            structs = jax.tree_util.tree_map(_struct, args, is_leaf=_is_tensor)
            if all(isinstance(x, jax.ShapeDtypeStruct) for x in jax.tree_util.tree_leaves(structs)):
                self.found.append((cell, structs, self._in_wrapper > 0))
        return self._run_as_written(cell, args, kwargs)

    def _run_unwatched(self, cell: Cell, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        # This Cell as written, the Cells it calls still watched: out of the slot for this one call.
        self._skip.add(id(cell))
        try:
            return cell(*args, **kwargs)
        finally:
            self._skip.discard(id(cell))

    def _run_as_written(self, cell: Cell, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        self._suspended = True
        try:
            return cell(*args, **kwargs)
        finally:
            self._suspended = False

    def __enter__(self) -> "_Discovery":
        self._previous = UPCALLS.planned_cell_call
        register_upcall("planned_cell_call", self)
        return self

    def __exit__(self, *exc: Any) -> None:
        register_upcall("planned_cell_call", self._previous)


Runner = Callable[[tuple[Any, ...]], Any]


class _Routes:
    """While a planned program traces: its planned Cells' calls run their plans.

    Arguments:
        runners: per planned Cell (by id), what runs its call on the call's arguments.
    """

    def __init__(self, runners: dict[int, Runner]) -> None:
        self.runners = runners
        self._suspended = False
        self._previous: list[Any] = []

    def __call__(self, cell: Cell, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        run = None if self._suspended or kwargs else self.runners.get(id(cell))
        if run is None:
            return NOT_PLANNED
        self._suspended = True  # the runner calls the Cell (or its plan's trace does) as written
        try:
            return run(args)
        finally:
            self._suspended = False

    def __enter__(self) -> None:
        current = UPCALLS.planned_cell_call
        self._previous.append(current)
        if not isinstance(current, _Discovery):  # an abstract trace for a new signature: no routes
            register_upcall("planned_cell_call", self)

    def __exit__(self, *exc: Any) -> None:
        register_upcall("planned_cell_call", self._previous.pop())


class CallPlan:
    """The plans of one compiled program: which Cells run which plan, and the state's layouts.

    Arguments:
        runners: per planned Cell (by id), what runs its call (its :class:`AutoParallelCell`,
            or the Cell on inputs split over the devices).
        pinned: per Variable laid out by a plan (by id), its sharding.
    """

    def __init__(self, runners: dict[int, Runner], pinned: dict[int, NamedSharding]) -> None:
        self.routes = _Routes(runners)
        self.pinned = pinned

    def add(self, other: "CallPlan") -> "CallPlan":
        """This plan extended by another signature's."""
        self.routes.runners.update(other.routes.runners)
        self.pinned.update(other.pinned)
        return self

    def scope(self) -> _Routes:
        """The context the program's real trace runs in."""
        return self.routes

    def pin(self, variables: Sequence[Variable], values: list[Any]) -> list[Any]:
        """The Variables' new values, each constrained to the layout its plan gave it."""
        pinned = self.pinned
        return [val if id(var) not in pinned or not hasattr(val, "ndim")
                else jax.lax.with_sharding_constraint(val, pinned[id(var)])
                for var, val in zip(variables, values)]


# A planned Cell -> its AutoParallelCell per (training, optimizer states): a Cell called by several
# programs is searched once per signature and way of use.
_PLANNERS: "weakref.WeakKeyDictionary[Cell, dict[tuple[bool, int, bool], AutoParallelCell]]" = \
    weakref.WeakKeyDictionary()
# Per caller, the CallPlan so far: a program's plans for several signatures share the routes.
_CALL_PLANS: "weakref.WeakKeyDictionary[Any, CallPlan]" = weakref.WeakKeyDictionary()


# Outputs that leave a planned Cell for code the search does not see (an ms.jit function's loss, the
# user of a GRAPH-mode call) are whole arrays: the search prices gathering them.
_WHOLE_OUTPUTS = (PartitionSpec(),) * 64


def _planner(cell: Cell, training: bool, states: int, in_wrapper: bool) -> AutoParallelCell:
    per_use = _PLANNERS.setdefault(cell, {})
    use = (training, states, in_wrapper)
    planner = per_use.get(use)
    if planner is None:
        mesh = default_mesh()
        mode = context.get_auto_parallel_context("search_mode")
        outputs = None if in_wrapper else _WHOLE_OUTPUTS
        planner = per_use[use] = AutoParallelCell(
            cell, mesh=mesh, search_mode=mode, verify=True, training=training, optimizer_states=states,
            cost_model=CostModel(dict(mesh.shape), optimizer_states=states), output_specs=outputs)
    return planner


def _follow_weights(optimizers: Sequence[Optimizer], pinned: dict[int, NamedSharding]) -> None:
    """Lay each optimizer state out as the weight it was cloned from (MindSpore's rule)."""
    for opt in optimizers:
        for state in opt.get_parameters():
            follow = getattr(state, "_followed_layout", None)
            weight = follow() if follow is not None else None
            if weight is None or id(weight) not in pinned or id(state) in pinned:
                continue
            raw = state._raw
            if raw is None or isinstance(raw, jax.core.Tracer) or tuple(raw.shape) != tuple(weight.shape):
                continue
            sharding = pinned[id(weight)]
            object.__setattr__(state, "_raw", jax.device_put(raw, sharding))
            pinned[id(state)] = sharding


def plan_compiled_call(caller: Any, discover: Callable[[], Any]) -> CallPlan | None:
    """The ``parallel_plan`` upcall: plan the Cells a compiled program calls, in the context's mode.

    Arguments:
        caller: what the user called (a Cell, an ``ms.jit`` function, ``Model``'s training Cell);
            ``get_strategy(caller)`` then shows the plan.
        discover: traces the program abstractly (see :class:`mindjax.transforms.jit.ParallelPlanning`).

    Returns:
        the program's :class:`CallPlan` (all its signatures so far), or None when nothing is planned.
    """
    mode = context._PARALLEL["parallel_mode"]
    auto = mode == "auto_parallel"
    if mode == "stand_alone":
        return None
    with _Discovery() as seen, recording_strategies() as applied_ops:
        discover()
    # A training wrapper lays its batch out itself (TrainOneStepCell.construct): the Cells it calls
    # are searched in AUTO_PARALLEL only.
    found = seen.found if auto else [f for f in seen.found if not f[2]]
    if not auto or not found:
        _record_applied(caller, mode, seen, found, applied_ops)
    if not found:
        return None
    runners: dict[int, Runner] = {}
    pinned: dict[int, NamedSharding] = {}
    if not auto:
        for cell, _, _ in found:
            runners[id(cell)] = functools.partial(_run_on_split_inputs, cell)
        return _remember(caller, CallPlan(runners, pinned))
    training = bool(seen.optimizers)
    states = _states_per_weight(seen.optimizers)
    for cell, structs, in_wrapper in found:
        planner = _planner(cell, training, states, in_wrapper)
        plan = planner.plan_for(*structs)  # searched once per signature; lays the Parameters out
        runners[id(cell)] = functools.partial(_run_planner, planner)
        for var, name in zip(plan.program.variables, plan.program.names):
            spec = plan.param_specs.get(name)
            if spec is not None:
                pinned[id(var)] = NamedSharding(plan.mesh, spec)
        for owner in [caller, *seen.wrappers]:
            if owner is not None:
                record_plan(owner, plan)
    _follow_weights(seen.optimizers, pinned)
    return _remember(caller, CallPlan(runners, pinned))


def _record_applied(caller: Any, mode: str, seen: _Discovery, split: list[tuple[Cell, Any, bool]],
                    ops: list[dict[str, Any]]) -> None:
    """Let ``get_strategy(caller)`` show what a program planned without a search lays out."""
    cells: list[Any] = []
    for cell in [c for c, _, _ in seen.found] + list(seen.optimizers):
        if not any(ref() is cell for ref in cells):
            cells.append(weakref.ref(cell))
    inputs = [{"cell": cell._cell_path or type(cell).__name__, "inputs": _split_specs(cell, structs)}
              for cell, structs, _ in split]
    applied = AppliedLayout(mode, _mesh.get_mesh(), cells, inputs, list(ops))
    for owner in [caller, *seen.wrappers]:
        if owner is not None:
            record_applied(owner, applied)


def _split_specs(cell: Cell, structs: Any) -> list[str | None]:
    """The layouts :func:`_run_on_split_inputs` gives the array inputs (None: left whole)."""
    specs: list[str | None] = []
    for index, leaf in enumerate(jax.tree_util.tree_leaves(structs)):
        if not isinstance(leaf, jax.ShapeDtypeStruct) or not leaf.shape:
            specs.append(None)
            continue
        try:
            specs.append(str(_dp.batch_sharding_for(leaf.shape, index, 0, who=type(cell).__name__).spec))
        except ValueError:
            specs.append(None)
    return specs


def _run_planner(planner: AutoParallelCell, args: tuple[Any, ...]) -> Any:
    return planner(*args)


def _run_on_split_inputs(cell: Cell, args: tuple[Any, ...]) -> Any:
    """``cell(*args)`` with its array inputs split over the devices as ``Model.train`` splits a batch."""
    if jax.process_count() > 1 or _frames.current_frame() is not None:
        return cell(*args)  # each process (each device of a per-device run) passes its own part already
    leaves, tree = jax.tree_util.tree_flatten(args, is_leaf=_is_tensor)
    split = []
    for index, leaf in enumerate(leaves):
        raw = leaf._raw if isinstance(leaf, Tensor) else leaf
        if not isinstance(raw, jax.Array) or raw.ndim == 0:
            split.append(leaf)
            continue
        try:
            sharding = _dp.batch_sharding_for(raw.shape, index, 0, who=type(cell).__name__)
        except ValueError as err:
            _warn_unsplit(cell, raw.shape, err)
            split.append(leaf)
            continue
        raw = jax.lax.with_sharding_constraint(raw, sharding)
        split.append(Tensor._wrap(raw) if isinstance(leaf, Tensor) else raw)
    return cell(*jax.tree_util.tree_unflatten(tree, split))


_UNSPLIT_WARNED: set[tuple[int, tuple[int, ...]]] = set()


def _warn_unsplit(cell: Cell, shape: tuple[int, ...], err: ValueError) -> None:
    key = (id(cell), tuple(shape))
    if key in _UNSPLIT_WARNED:
        return
    _UNSPLIT_WARNED.add(key)
    warnings.warn(f"{cell._where()}: in {context._PARALLEL['parallel_mode'].upper()} an input of shape "
                  f"{tuple(shape)} stays whole on every device, not split: {err}", UserWarning, stacklevel=2)


def _remember(caller: Any, call_plan: CallPlan) -> CallPlan:
    """``call_plan`` joined with the plans of the caller's other signatures."""
    if caller is None:
        return call_plan
    try:
        known = _CALL_PLANS.get(caller)
        if known is not None:
            call_plan = known.add(call_plan)
        _CALL_PLANS[caller] = call_plan
    except TypeError:  # a caller that takes no weak reference keeps no history
        pass
    return call_plan


register_upcall("parallel_plan", plan_compiled_call)


# -- eager calls (PYNATIVE_MODE) under a parallel mode -----------------------------------------------
# The modes already warned about: each warns once per process.
_EAGER_WARNED: set[str] = set()


def _warn_eager_call(cell: Cell, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    """The ``eager_parallel_call`` upcall: warn once per mode when it cannot apply to an eager Cell call.

    * ``AUTO_PARALLEL``: the search needs the whole compiled graph; an eager call is never searched.
    * ``DATA_PARALLEL``, ``SEMI_AUTO_PARALLEL``, ``HYBRID_PARALLEL``: only a compiled call splits its
      inputs over the devices (those of the Cells holding trainable Parameters); an eager call runs
      them whole. Not warned where the mode does apply eagerly: a training wrapper lays its batch out
      itself, a Cell holding collectives runs per device, one device (or ``full_batch``) has nothing
      to split, and ``shard()`` strategies apply op by op.
    """
    mode = context._PARALLEL["parallel_mode"]
    if mode in _EAGER_WARNED or getattr(type(cell), "_compiles_itself", False):
        return
    if mode == "auto_parallel":
        _EAGER_WARNED.add(mode)
        warnings.warn(f"{cell._where()}: AUTO_PARALLEL is set but the Cell runs in PYNATIVE_MODE, op by op: the "
                      f"strategy search needs the whole compiled graph, so this call is not searched and runs "
                      f"with its Parameters' current layouts. Set GRAPH_MODE, decorate the step with ms.jit, or "
                      f"train through Model.train for the searched plan", UserWarning, stacklevel=4)
        return
    devices = _mesh.get_device_num()
    if devices <= 1 or _frames.current_frame() is not None or _is_training_wrapper(cell) \
            or holds_collectives(cell):
        return
    split = _first_split(cell, args)
    if split is None or not cell.trainable_params():  # a compiled call splits the inputs of Cells with weights
        return
    _EAGER_WARNED.add(mode)
    shape, spec = split
    strategies = (" (the shard() strategies of its ops still apply, op by op)"
                  if mode != "data_parallel" else "")
    warnings.warn(f"{cell._where()}: {mode.upper()} is set but the Cell runs in PYNATIVE_MODE, op by op: only a "
                  f"compiled call splits its inputs over the {devices} devices (the input of shape {shape} would "
                  f"be laid out as {spec}), so this call runs on whole inputs{strategies}. Set GRAPH_MODE, "
                  f"decorate the step with ms.jit, or train through Model.train or a TrainOneStepCell for the "
                  f"split", UserWarning, stacklevel=4)


def _first_split(cell: Cell, args: tuple[Any, ...]) -> tuple[tuple[int, ...], str] | None:
    """The first array input a compiled call would split, and its layout; None when none would be."""
    for index, leaf in enumerate(jax.tree_util.tree_leaves(args, is_leaf=_is_tensor)):
        raw = leaf._raw if isinstance(leaf, Tensor) else leaf
        shape = tuple(getattr(raw, "shape", ()))
        if not shape or not hasattr(raw, "dtype"):
            continue
        try:
            spec = _dp.batch_sharding_for(shape, index, 0, who=type(cell).__name__).spec
        except ValueError:
            continue
        if any(axis is not None for axis in spec):
            return shape, str(spec)
    return None


register_upcall("eager_parallel_call", _warn_eager_call)
