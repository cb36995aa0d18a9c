"""The chosen plan: Parameter layouts, constraints on intermediate values, and running it.

A :class:`Plan` holds, for a traced network, a PartitionSpec for every
Parameter and data input and a ``with_sharding_constraint`` for every
intermediate value (and for each use whose layout differs from its
producer's). Running the plan evaluates the traced program with those
constraints inside whatever ``jax.jit`` is tracing it; GSPMD partitions the
result. :class:`AutoParallelCell` wraps a network so that every call
(including inside ``TrainOneStepCell`` and ``Model``) runs its plan.

Example:
    >>> mesh = jax.sharding.Mesh(np.array(jax.devices()).reshape(1, 8), ("dp", "mp"))
    >>> net = auto_parallel(MLP(), x, mesh=mesh)        # doctest: +SKIP
    >>> get_strategy(net)["parameters"]["fc1.weight"]     # doctest: +SKIP
    "PartitionSpec('mp', None)"
"""
from __future__ import annotations

import dataclasses
import functools
import time
import weakref
from typing import Any, Sequence

import jax
import numpy as np
from jax.extend import core as jcore
from jax.sharding import Mesh, NamedSharding, PartitionSpec

from mindjax import context
from mindjax.cells.cell import Cell
from mindjax.parallel.auto.annotate import primitive_constraints
from mindjax.parallel.auto.cost import CostModel
from mindjax.parallel.auto.graph import TracedProgram, run_program, trace_cell
from mindjax.parallel.auto.rules import Spec, spec_to_split
from mindjax.parallel.auto.choose import choose_verified, default_memory_budget, zero_specs
from mindjax.parallel.auto.search import (SearchGraph, SearchResult, build_graph, force_data_axes,
                                          search)

__all__ = ["Plan", "search_plan", "AutoParallelCell", "auto_parallel", "get_strategy", "default_mesh",
           "find_plan", "record_plan", "AppliedLayout", "record_applied"]

_ANCHOR_OPS = ("dot_general", "conv_general_dilated", "gather")
_KEY_OPS = ("dot_general", "conv_general_dilated", "gather", "reduce_sum", "reduce_max",
            "sharding_constraint")


def default_mesh(device_num: int | None = None) -> Mesh:
    """A mesh over ``device_num`` devices (default: the context's, else all) for the search.

    The device count is factored into axes of size 2 (``d0``, ``d1`` ...; odd
    factors form one last axis), so that the search may split an op's
    dimensions by any power of two, as MindSpore's recursive partition does.
    A mesh built by the parallel context, when there is one, is used instead.
    """
    from mindjax.parallel.auto import _adapter

    found = _adapter.context_mesh()
    if found is not None:
        return found
    devices = jax.devices()
    n = device_num or (context.get_auto_parallel_context("device_num") or 1)
    n = len(devices) if n <= 1 else n
    sizes = []
    rest = n
    while rest % 2 == 0 and rest > 1:
        sizes.append(2)
        rest //= 2
    if rest > 1:
        sizes.append(rest)
    sizes = sizes or [1]
    names = tuple(f"d{k}" for k in range(len(sizes)))
    return Mesh(np.array(devices[:n]).reshape(sizes), names)


@dataclasses.dataclass
class Plan:
    """The result of the search for one network and input signature.

    Attributes:
        mesh: the device mesh.
        program: the traced program the plan is for.
        graph: the search graph.
        result: the chosen strategies and modelled costs.
        search_mode: the search that ran: ``"recursive_programming"``, or
            ``"sharding_propagation"`` when there were annotations to propagate.
        search_seconds: how long the search took (tracing excluded).
        param_specs: a PartitionSpec per Parameter name.
        input_specs: a PartitionSpec per flat call input.
        value_specs: the constraint put on each intermediate jaxpr variable.
        use_specs: constraints put on single uses ``(eqn index, operand index)``
            whose layout differs from their producer's.
        memory_budget: the per-device budget searched under (None: none).
        label: which candidate this is (``"searched"``, ``"data=dp"``, ...; a
            ``"+zero"`` suffix: Parameters also split over the data axes; a
            ``"/propagated"`` suffix: only Parameters and inputs constrained,
            GSPMD propagates the rest).
        measured: XLA's report of the compiled step (see :func:`.verify.measure_plan`),
            when the plan was verified.
        candidates: when the plan was chosen among verified candidates, one row
            per compiled candidate: ``label``, ``peak_bytes``, ``modelled_bytes``,
            ``comm_bytes``, ``seconds``, ``fits``.
        skipped: the labels of candidates not compiled (see :func:`.choose.choose_verified`).
        verify_seconds: with ``verify``, how long searching the other candidates and
            compiling them took.
    """

    mesh: Mesh
    program: TracedProgram
    graph: SearchGraph
    result: SearchResult
    search_mode: str
    search_seconds: float
    param_specs: dict[str, PartitionSpec]
    input_specs: list[PartitionSpec]
    value_specs: dict[Any, PartitionSpec]
    use_specs: dict[tuple[int, int], PartitionSpec]
    memory_budget: float | None = None
    label: str = "searched"
    measured: dict[str, Any] | None = None
    candidates: list[dict[str, Any]] = dataclasses.field(default_factory=list)
    skipped: list[str] = dataclasses.field(default_factory=list)
    verify_seconds: float = 0.0

    @property
    def fits_budget(self) -> bool:
        """Whether the per-device memory is within the budget (measured when verified)."""
        if self.memory_budget is None:
            return True
        used = self.measured["peak_bytes"] if self.measured else self.result.memory_bytes
        return used <= self.memory_budget

    def key_constrained(self) -> "Plan":
        """This plan with only Parameters, inputs, and the matmuls' and gathers' operands and
        results constrained; GSPMD lays out the elementwise work in between."""
        invars = set(self.program.jaxpr.jaxpr.invars)
        eqns = self.program.jaxpr.jaxpr.eqns
        key = [k for k, e in enumerate(eqns) if e.primitive.name in _ANCHOR_OPS]
        produced = {v for k in key for v in eqns[k].outvars}
        operands = {v for k in key for v in eqns[k].invars if not isinstance(v, jcore.Literal)}
        keep = invars | produced | operands
        values = {v: s for v, s in self.value_specs.items() if v in keep}
        uses = {(k, i): s for (k, i), s in self.use_specs.items() if eqns[k].primitive.name in _ANCHOR_OPS}
        return dataclasses.replace(self, value_specs=values, use_specs=uses, measured=None,
                                   label=self.label + "/anchored", candidates=[], skipped=[])

    def propagated(self) -> "Plan":
        """This plan with only Parameters and inputs constrained; GSPMD lays out the rest."""
        invars = set(self.program.jaxpr.jaxpr.invars)
        values = {v: s for v, s in self.value_specs.items() if v in invars}
        return dataclasses.replace(self, value_specs=values, use_specs={}, measured=None,
                                   label=self.label + "/propagated", candidates=[], skipped=[])

    def op_strategies(self) -> list[dict[str, Any]]:
        """Per key op (matmuls, convolutions, gathers, reductions, constraints) its strategy.

        These are the search's strategies; a ``/propagated`` plan constrains
        only Parameters and inputs, and GSPMD may lay the ops out otherwise.

        Returns:
            dicts with ``op`` (the Cell path and primitive), ``strategy``
            (MindSpore's split counts per operand), ``inputs`` and ``output``
            (PartitionSpecs, partial-sum axes noted).
        """
        rows = []
        sizes = dict(self.mesh.shape)
        seen: dict[str, int] = {}
        for node, s in zip(self.graph.nodes, self.result.strategies):
            if node.kind != "op" or node.eqn.primitive.name not in _KEY_OPS:
                continue
            name = node.name
            seen[name] = seen.get(name, 0) + 1
            if seen[name] > 1:
                name = f"{name}:{seen[name]}"
            ins = [sp for sp in s.in_specs if sp is not None]
            out = s.out_specs[0]
            rows.append({"op": name,
                         "strategy": tuple(spec_to_split(sp, sizes) for sp in ins),
                         "inputs": tuple(str(sp.partition_spec()) for sp in ins),
                         "output": str(out.partition_spec()) + (
                             f" partial over {out.partial}" if out.partial else "")})
        return rows

    def table(self) -> str:
        """The plan as text: Parameters, key ops and the modelled costs."""
        lines = [f"search_mode={self.search_mode} mesh={dict(self.mesh.shape)} "
                 f"search={self.search_seconds * 1e3:.1f} ms",
                 f"modelled: compute {self.result.compute_s * 1e6:.1f} us, communication "
                 f"{self.result.comm_s * 1e6:.1f} us ({self.result.comm_bytes / 1e6:.3f} MB/device), "
                 f"memory {self.result.memory_bytes / 1e6:.3f} MB/device"]
        lines.append("parameters:")
        lines += [f"  {k}: {v}" for k, v in self.param_specs.items()]
        lines.append("ops:")
        lines += [f"  {r['op']}: strategy={r['strategy']} -> {r['output']}" for r in self.op_strategies()]
        return "\n".join(lines)


def _pspec(spec: Spec) -> PartitionSpec:
    return spec.resolved().partition_spec()


def _derive_constraints(graph: SearchGraph, result: SearchResult) -> tuple[
        dict[str, PartitionSpec], list[PartitionSpec], dict[Any, PartitionSpec],
        dict[tuple[int, int], PartitionSpec]]:
    nodes, chosen = graph.nodes, result.strategies
    program = graph.program
    jaxpr = program.jaxpr.jaxpr
    n_vars = len(program.variables)
    params: dict[str, PartitionSpec] = {}
    inputs: list[PartitionSpec] = []
    values: dict[Any, PartitionSpec] = {}
    uses: dict[tuple[int, int], PartitionSpec] = {}
    eqn_index = {id(e): k for k, e in enumerate(jaxpr.eqns)}
    for v, node in enumerate(nodes):
        if node.kind in ("op", "output"):
            continue
        spec = chosen[v].out_specs[0]
        if node.kind == "param":
            if program.names[node.var_index] != "<rng>":
                params[program.names[node.var_index]] = _pspec(spec)
        elif node.kind == "input":
            inputs.append(_pspec(spec))
    # Every value gets the layout all its uses agree on, else its producer's;
    # uses that want something else are constrained one by one.
    for var, (v, j) in graph.var_node.items():
        node = nodes[v]
        if not node.out_shapes[j] and node.kind == "op":
            continue
        produced = chosen[v].out_specs[j]
        wanted = [chosen[c].in_specs[i] for (c, i, jj) in node.consumers if jj == j]
        agreed = wanted[0] if wanted and all(w == wanted[0] for w in wanted) else produced.resolved()
        if node.kind != "op":
            agreed = produced
        if node.out_shapes[j]:
            values[var] = _pspec(agreed)
        for (c, i, jj) in node.consumers:
            if jj != j or nodes[c].kind != "op":
                continue
            need = chosen[c].in_specs[i]
            if need is not None and need != agreed and node.out_shapes[j]:
                uses[(eqn_index[id(nodes[c].eqn)], i)] = _pspec(need)
    del n_vars
    return params, inputs, values, uses


def search_plan(network: Any, *inputs: Any, mesh: Mesh | None = None, search_mode: str | None = None,
                training: bool = True, memory_budget_bytes: float | None = None,
                cost_model: CostModel | None = None,
                input_specs: Sequence[PartitionSpec | None] | None = None,
                output_specs: Sequence[PartitionSpec | None] | None = None,
                param_specs: dict[str, PartitionSpec] | None = None,
                data_axes: Sequence[str] | None = None, verify: bool = False,
                optimizer_states: int | None = None) -> Plan:
    """Search a parallel plan for ``network(*inputs)``.

    Arguments:
        network: a Cell, typically the network with its loss (``WithLossCell``).
        inputs: example inputs (arrays or ``jax.ShapeDtypeStruct``).
        mesh: the device mesh (default: :func:`default_mesh`).
        search_mode: ``"recursive_programming"`` or ``"sharding_propagation"``
            (default: the parallel context's ``search_mode``). Propagation keeps
            the strategies of sharded Primitives and ``with_sharding_constraint``s;
            without any it searches as ``recursive_programming`` does.
        training: cost the backward pass and optimizer state too.
        memory_budget_bytes: per-device memory the plan must fit in (default:
            the context's ``memory_budget_bytes``; with ``verify``, else
            :func:`.choose.default_memory_budget`, a share of the device's memory).
        cost_model: machine constants (default :class:`CostModel` for ``mesh``).
        input_specs: PartitionSpecs imposed on the flat inputs (None entries: searched).
        output_specs: PartitionSpecs imposed on the flat outputs (None entries: searched).
        param_specs: PartitionSpecs imposed on Parameters by name; the search
            propagates them (this is how a hand-written plan is costed).
        data_axes: mesh axes that must split the batch (the loop carrying the
            inputs' first dimension) and no Parameter; the search decides the others.
        verify: search several candidates (see :mod:`.choose`), compile each and
            return the best by XLA's measured memory and collectives.
        optimizer_states: arrays the optimizer keeps per Parameter, for the
            verification (default: the cost model's ``optimizer_states``).

    Returns:
        the :class:`Plan`.

    Raises:
        ValueError: an unknown ``search_mode``, or an imposed layout the mesh cannot hold.
    """
    mesh = mesh if mesh is not None else default_mesh()
    mode = search_mode or context.get_auto_parallel_context("search_mode")
    if mode == "dynamic_programming":
        mode = "recursive_programming"
    if mode not in ("recursive_programming", "sharding_propagation"):
        raise ValueError(f"For 'search_plan', 'search_mode' must be 'recursive_programming' or "
                         f"'sharding_propagation', got {mode!r}")
    budget = memory_budget_bytes
    if budget is None:
        budget = context.get_auto_parallel_context("memory_budget_bytes")
    if budget is None and verify:
        budget = default_memory_budget(mesh)
    with primitive_constraints(network, mesh):
        program = trace_cell(network, inputs)
    model = cost_model or CostModel(dict(mesh.shape))
    options = dict(mesh=mesh, mode=mode, training=training, budget=budget, model=model,
                   input_specs=input_specs, output_specs=output_specs)
    plan = _search_program(program, param_specs=param_specs, data_axes=data_axes, **options)
    if not verify:
        return plan
    states = model.optimizer_states if optimizer_states is None else optimizer_states
    start = time.perf_counter()
    candidates, fallbacks = [plan], [plan.propagated()]
    if param_specs is None:
        more, more_fallbacks = _data_parallel_candidates(program, options)
        candidates += more
        fallbacks += more_fallbacks
    chosen = choose_verified(candidates, model, budget, states, training, fallbacks)
    chosen.search_seconds = plan.search_seconds
    chosen.verify_seconds = time.perf_counter() - start
    return chosen


def _search_program(program: TracedProgram, *, mesh: Mesh, mode: str, training: bool,
                    budget: float | None, model: CostModel,
                    input_specs: Sequence[PartitionSpec | None] | None,
                    output_specs: Sequence[PartitionSpec | None] | None,
                    param_specs: dict[str, PartitionSpec] | None = None,
                    data_axes: Sequence[str] | None = None, label: str = "searched") -> Plan:
    graph = build_graph(program, training, _to_specs(input_specs, program, True),
                        _to_specs(output_specs, program, False))
    for node in graph.nodes:
        if node.kind == "param" and param_specs and program.names[node.var_index] in param_specs:
            node.fixed = _to_spec(param_specs[program.names[node.var_index]], len(node.out_shapes[0]))
    if data_axes:
        force_data_axes(graph, tuple(data_axes))
    has_fixed = any(n.fixed is not None for n in graph.nodes)
    effective = mode if has_fixed else "recursive_programming"
    model = dataclasses.replace(model)  # the search moves the price of memory; keep the caller's
    start = time.perf_counter()
    result = search(graph, dict(mesh.shape), model, mode=effective, training=training,
                    memory_budget=budget)
    elapsed = time.perf_counter() - start
    params, ins, values, uses = _derive_constraints(graph, result)
    return Plan(mesh, program, graph, result, effective, elapsed, params, ins, values, uses, budget,
                label=label)


def _data_parallel_candidates(program: TracedProgram,
                              options: dict[str, Any]) -> tuple[list[Plan], list[Plan]]:
    """For each run of leading mesh axes: the batch split over it, and a leaner plan.

    The leaner plan is the search at ten times the price of memory it settled
    at (the model's next point on the memory/time frontier): the model's
    memory is an estimate, so the verification gets to see both sides of it.

    Returns:
        ``(candidates, fallbacks)``: the searched plans with their intermediate
        layouts constrained; and the same with only Parameters and inputs
        constrained, plus a ZeRO-3 variant per run of axes.
    """
    mesh = options["mesh"]
    sizes = dict(mesh.shape)
    axes = [a for a in mesh.axis_names if sizes[a] > 1]
    shapes = {n: tuple(v._value.shape) for n, v in zip(program.names, program.variables)}
    out: list[Plan] = []
    fallbacks: list[Plan] = []
    for k in range(1, len(axes) + 1):
        data = tuple(axes[:k])
        label = "data=" + ",".join(data)
        try:
            base = _search_program(program, data_axes=data, label=label, **options)
        except ValueError:
            continue  # the batch does not divide over these axes
        out.append(base)
        fallbacks.append(base.propagated())
        lean_model = dataclasses.replace(options["model"],
                                         memory_weight=10.0 * base.result.memory_weight)
        lean = _search_program(program, data_axes=data, label=label + "/lean",
                               **dict(options, model=lean_model, budget=None))
        if lean.param_specs != base.param_specs:
            out.append(lean)
            fallbacks.append(lean.propagated())
        zero = zero_specs(base.param_specs, shapes, data, sizes)
        if zero != base.param_specs:
            try:
                fixed = dict(options, mode="sharding_propagation", input_specs=base.input_specs)
                plan = _search_program(program, param_specs=zero, label=label + "+zero", **fixed)
            except ValueError:
                continue
            fallbacks.append(plan.propagated())
    return out, fallbacks


def _to_spec(spec: PartitionSpec, rank: int) -> Spec:
    dims = []
    for k in range(rank):
        e = spec[k] if k < len(spec) else None
        dims.append(() if e is None else (tuple(e) if isinstance(e, (tuple, list)) else (e,)))
    return Spec(tuple(dims))


def _to_specs(specs: Sequence[PartitionSpec | None] | None, program: TracedProgram,
              inputs: bool) -> list[Spec | None] | None:
    if specs is None:
        return None
    out: list[Spec | None] = []
    jaxpr = program.jaxpr.jaxpr
    n_vars = len(program.variables)
    vars_ = jaxpr.invars[n_vars:] if inputs else jaxpr.outvars[:program.num_outputs]
    for spec, var in zip(specs, vars_):
        out.append(None if spec is None else _to_spec(spec, len(var.aval.shape)))
    return out


def _constraint(mesh: Mesh, spec: PartitionSpec, value: Any) -> Any:
    if not hasattr(value, "ndim") or value.ndim == 0:
        return value
    return jax.lax.with_sharding_constraint(value, NamedSharding(mesh, spec))


def run_plan(plan: Plan, values: Sequence[Any], flat_inputs: Sequence[Any]) -> list[Any]:
    """Evaluate the plan's program on Variable values and flat inputs, with its constraints.

    Returns:
        the flat outputs followed by the Variables' new values.
    """
    mesh = plan.mesh
    specs = plan.value_specs
    uses = plan.use_specs

    def after(var: Any, value: Any) -> Any:
        spec = specs.get(var)
        return value if spec is None else _constraint(mesh, spec, value)

    def before(eqn_index: int, operand: int, value: Any) -> Any:
        spec = uses.get((eqn_index, operand))
        return value if spec is None else _constraint(mesh, spec, value)

    return run_program(plan.program.jaxpr, list(values) + list(flat_inputs), after, before)


def _signature(args: tuple[Any, ...]) -> Any:
    leaves, tree = jax.tree_util.tree_flatten(args)
    return tree, tuple((tuple(getattr(x, "shape", ())), str(getattr(x, "dtype", type(x))))
                       for x in leaves)


# Every Cell inside a planned network, and every caller of a planned program (a training Cell, an
# ms.jit function) -> the latest plan covering it, so that get_strategy works on whatever was called.
_PLAN_OF: "weakref.WeakKeyDictionary[Any, Plan]" = weakref.WeakKeyDictionary()


def record_plan(owner: Any, plan: Plan) -> None:
    """Let ``get_strategy(owner)`` find ``plan`` (``owner``: what was called; ignored when it takes
    no weak reference)."""
    try:
        _PLAN_OF[owner] = plan
    except TypeError:
        pass


@dataclasses.dataclass
class AppliedLayout:
    """What a compiled call laid out without a search (DATA_PARALLEL, SEMI_AUTO_PARALLEL, HYBRID_PARALLEL,
    or AUTO_PARALLEL around a program with no Cell to search): ``get_strategy`` reports it.

    Attributes:
        mode: the parallel mode the program was planned in.
        mesh: the device mesh its layouts are over.
        cells: the Cells the program calls that hold Parameters (weakly).
        inputs: per Cell whose inputs were split, ``{"cell": its path, "inputs": specs (text), None
            for an input left whole}``.
        ops: the user strategies applied (``Primitive.shard``, ``Cell.shard``), as
            :func:`mindjax.parallel.shard.recording_strategies` rows.
    """

    mode: str
    mesh: Mesh
    cells: list[Any]
    inputs: list[dict[str, Any]]
    ops: list[dict[str, Any]]

    def parameters(self) -> dict[str, str]:
        """Per Parameter of the Cells, its current layout (PartitionSpec text; ``P()``: whole on each device)."""
        out: dict[str, str] = {}
        for ref in self.cells:
            cell = ref()
            if cell is None:
                continue
            for param in cell.get_parameters():
                raw = param._raw
                sharding = getattr(raw, "sharding", None)
                out[param.name] = str(sharding.spec) if isinstance(sharding, NamedSharding) else str(PartitionSpec())
        return out


# What was called -> its AppliedLayout (the latest signature's), for get_strategy.
_APPLIED_OF: "weakref.WeakKeyDictionary[Any, AppliedLayout]" = weakref.WeakKeyDictionary()


def record_applied(owner: Any, applied: AppliedLayout) -> None:
    """Let ``get_strategy(owner)`` report ``applied`` (ignored when ``owner`` takes no weak reference)."""
    try:
        _APPLIED_OF[owner] = applied
    except TypeError:
        pass


def _find_applied(net: Any) -> AppliedLayout | None:
    target = net.args[0] if isinstance(net, functools.partial) and net.args else net
    try:
        return _APPLIED_OF.get(target)
    except TypeError:
        return None


class AutoParallelCell(Cell):
    """Runs ``network`` under an automatically searched parallel plan.

    The plan is searched on the first call for each input signature (or given
    up front) and kept. Parameter names are those of ``network``, so
    optimizers and checkpoints see the same names.

    Arguments:
        network: the Cell to parallelise.
        mesh: the device mesh (default: :func:`default_mesh`).
        search_mode, training, memory_budget_bytes, cost_model, input_specs,
        output_specs, verify, optimizer_states: as for :func:`search_plan`.
    """

    # Called eagerly it still runs its plan as one compiled program (no PYNATIVE warning).
    _compiles_itself = True

    def __init__(self, network: Cell, mesh: Mesh | None = None, **search_options: Any) -> None:
        super().__init__(auto_prefix=False)
        if not isinstance(network, Cell):
            raise TypeError(f"For 'AutoParallelCell', 'network' must be a Cell, got "
                            f"{type(network).__name__}")
        self.network = network
        self.__dict__["_mesh"] = mesh if mesh is not None else default_mesh()
        self.__dict__["_options"] = search_options
        self.__dict__["_plans"] = {}
        self.__dict__["_jitted"] = {}

    @property
    def plan(self) -> Plan | None:
        """The most recently searched plan (None before the first call)."""
        plans = self.__dict__["_plans"]
        return plans[next(reversed(plans))] if plans else None

    def plan_for(self, *inputs: Any) -> Plan:
        """The plan for inputs shaped like ``inputs`` (searched and placed if new)."""
        key = _signature(inputs)
        plans = self.__dict__["_plans"]
        if key not in plans:
            plan = search_plan(self.network, *inputs, mesh=self.__dict__["_mesh"],
                               **self.__dict__["_options"])
            _place_parameters(plan)
            plans[key] = plan
            for _, cell in self.network.cells_and_names():
                _PLAN_OF[cell] = plan
        return plans[key]

    def construct(self, *inputs: Any) -> Any:
        return self._run_planned(inputs)

    def _run_planned(self, inputs: tuple[Any, ...]) -> Any:
        plan = self.plan_for(*inputs)
        program = plan.program
        variables = program.variables
        values = [v._value for v in variables]
        flat = jax.tree_util.tree_leaves(inputs)
        traced = any(isinstance(x, jax.core.Tracer) for x in list(values) + list(flat))
        if traced:
            outs = run_plan(plan, values, flat)
        else:
            key = id(plan)
            fn = self.__dict__["_jitted"].get(key)
            if fn is None:
                fn = self.__dict__["_jitted"][key] = jax.jit(lambda v, x: run_plan(plan, v, x))
            outs = fn(values, flat)
        n_out = program.num_outputs
        jaxpr = program.jaxpr.jaxpr
        for k, var in enumerate(variables):
            if jaxpr.outvars[n_out + k] is not jaxpr.invars[k]:
                var._value = outs[n_out + k]
        return jax.tree_util.tree_unflatten(program.out_tree, outs[:n_out])


def _place_parameters(plan: Plan) -> None:
    """Lay each Parameter out as the plan says (done once, outside any trace).

    The layout is also recorded as the Parameter's ``sharding``, so a training
    step (``Model``, ``TrainOneStepCell``) keeps it between steps, and the
    optimizer states cloned from the Parameter follow it.
    """
    program = plan.program
    for var, name in zip(program.variables, program.names):
        spec = plan.param_specs.get(name)
        raw = var._raw
        if spec is None or raw is None or isinstance(raw, jax.core.Tracer):
            continue
        sharding = NamedSharding(plan.mesh, spec)
        if "sharding" in var.__dict__:
            var.__dict__["sharding"] = sharding
        object.__setattr__(var, "_raw", jax.device_put(raw, sharding))


def auto_parallel(network: Cell, *inputs: Any, mesh: Mesh | None = None,
                  **search_options: Any) -> AutoParallelCell:
    """Wrap ``network`` in an :class:`AutoParallelCell`, searching its plan now when given inputs.

    Arguments:
        network: the Cell (usually network plus loss).
        inputs: example inputs; without them the plan is searched on the first call.
        mesh: the device mesh.
        search_options: see :func:`search_plan`.

    Returns:
        the wrapping Cell.
    """
    cell = AutoParallelCell(network, mesh=mesh, **search_options)
    if inputs:
        cell.plan_for(*inputs)
    return cell


def find_plan(net: Any) -> Plan | None:
    """The searched plan of ``net`` (as :func:`get_strategy` finds it), or None.

    Arguments:
        net: a :class:`Plan`, an :class:`AutoParallelCell` or a Cell holding one, a Cell
            inside a planned network, or anything called under ``AUTO_PARALLEL`` (a
            ``TrainOneStepCell``, a GRAPH-mode Cell, an ``ms.jit`` function; a method's
            plan is found through its Cell).
    """
    if isinstance(net, Plan):
        return net
    if isinstance(net, Cell):
        for _, cell in net.cells_and_names():
            if isinstance(cell, AutoParallelCell) and cell.plan is not None:
                return cell.plan
    target = net
    if isinstance(net, functools.partial) and net.args:  # a bound ms.jit method: its instance
        target = net.args[0]
    try:
        return _PLAN_OF.get(target)
    except TypeError:
        return None


def get_strategy(net: Any) -> dict[str, Any]:
    """The chosen plan of an auto-parallel network, per Parameter and per key op.

    Arguments:
        net: an :class:`AutoParallelCell`, a Cell holding one, a Cell inside a planned
            network, anything called under ``AUTO_PARALLEL`` (``Model.train``'s training Cell,
            a ``TrainOneStepCell`` or other Cell called in GRAPH mode, an ``ms.jit`` function),
            or a :class:`Plan`.

    Returns:
        ``{"search_mode": ..., "candidate": the chosen candidate's label, "measured": XLA's
        peak, communicated bytes, collective count and flops of the step (None unless
        verified), "mesh": {...}, "parameters": {name: PartitionSpec text},
        "ops": [{"op", "strategy", "inputs", "output"}, ...], "modelled": {...}}``.

    For a program compiled in ``DATA_PARALLEL``, ``SEMI_AUTO_PARALLEL`` or
    ``HYBRID_PARALLEL`` (or in ``AUTO_PARALLEL`` with no Cell to search, a plain
    function of sharded ops) there is no search: ``search_mode`` and ``modelled`` are
    None, ``candidate`` is the mode, ``parameters`` the Parameters' current layouts,
    ``ops`` the user strategies applied, and ``inputs`` how the Cells' inputs were split.

    Raises:
        ValueError: when the network has no searched plan yet.
    """
    plan = find_plan(net)
    if plan is None:
        applied = _find_applied(net)
        if applied is not None:
            return {"search_mode": None, "candidate": applied.mode, "measured": None,
                    "mesh": dict(applied.mesh.shape), "parameters": applied.parameters(),
                    "ops": list(applied.ops), "inputs": list(applied.inputs), "modelled": None}
        raise ValueError(f"For 'get_strategy', the network {type(net).__name__} has no searched plan; "
                         f"call it under AUTO_PARALLEL (GRAPH mode, ms.jit or Model.train) or wrap it "
                         f"with auto_parallel(network, *inputs) first")
    res = plan.result
    measured = None
    if plan.measured is not None:
        col = plan.measured["collectives"]["total"]
        measured = {"peak_bytes": plan.measured["peak_bytes"], "comm_bytes": col["bytes"],
                    "collectives": col["count"], "flops": plan.measured["flops"]}
    return {
        "search_mode": plan.search_mode,
        "candidate": plan.label,
        "measured": measured,
        "mesh": dict(plan.mesh.shape),
        "parameters": {k: str(v) for k, v in plan.param_specs.items()},
        "ops": plan.op_strategies(),
        "modelled": {"compute_s": res.compute_s, "comm_s": res.comm_s,
                     "comm_bytes": res.comm_bytes, "memory_bytes": res.memory_bytes,
                     "fits_budget": plan.fits_budget, "search_seconds": plan.search_seconds},
    }

