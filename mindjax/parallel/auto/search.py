"""The strategy search: choose one candidate strategy per op and a layout per input.

The program is a graph: sources (Parameters, data inputs, constants), ops (one
per jaxpr equation) and sinks (the outputs). Each node has candidate strategies
(:mod:`.rules`) with a local cost (compute, gradient reduction, memory) and each
edge a redistribution cost between the producer's result layout and the layout
the consumer needs (:mod:`.cost`). The total is minimised in time linear in
the number of ops:

1. a dynamic programme in topological order, exact where the graph is a tree
   (a value used ``k`` times hands ``1/k`` of its cost to each use);
2. backtracking in reverse topological order, each node choosing what is best
   for its already chosen consumers;
3. sweeps of coordinate descent that settle values used more than once
   (residual connections).

``recursive_programming`` decides one mesh axis at a time, largest first, each
step keeping the splits already chosen (MindSpore's recursive partition of
the device count). ``sharding_propagation`` decides all axes at once, keeping
the user's sharded ops fixed, so that the remaining ops follow them with the
least redistribution. Both raise the price of memory until the plan fits the
per-device budget. :func:`force_data_axes` restricts a search to plans whose
given mesh axes split the batch (data parallelism), leaving the other axes to
the cost model; :mod:`.choose` uses it to build its candidates.
"""
from __future__ import annotations

import dataclasses
import math
from typing import Any, Sequence

import numpy as np
from jax.extend import core as jcore

from mindjax.parallel.auto.cost import CostModel
from mindjax.parallel.auto.graph import TracedProgram
from mindjax.parallel.auto.rules import (OpRule, Spec, Strategy, _make_strategy, op_rule,
                                         source_rule, strategies)

__all__ = ["SearchGraph", "build_graph", "search", "evaluate", "force_data_axes"]

_SAVED_BY = ("dot_general", "conv_general_dilated")
_NO_GRAD_OPS = ("stop_gradient", "argmax", "argmin", "iota", "eq", "ne", "lt", "gt", "le", "ge",
                "is_finite", "sign", "floor", "ceil", "round", "and", "or", "not")


@dataclasses.dataclass
class _Node:
    kind: str                      # "param", "input", "const", "op", "output"
    rule: OpRule
    name: str
    eqn: Any = None
    var_index: int = -1            # the program input position of a source
    inputs: list[tuple[int, int, int]] = dataclasses.field(default_factory=list)  # (u, j, i)
    consumers: list[tuple[int, int, int]] = dataclasses.field(default_factory=list)  # (v, i, j)
    out_shapes: list[tuple[int, ...]] = dataclasses.field(default_factory=list)
    out_itemsize: list[int] = dataclasses.field(default_factory=list)
    grad: list[bool] = dataclasses.field(default_factory=list)  # per result: needs a gradient
    saved: list[bool] = dataclasses.field(default_factory=list)  # per result: kept for the backward
    fixed: Spec | None = None      # an imposed layout of result 0 (annotations, data inputs)
    trainable: bool = False
    forced: dict[str, int] | None = None  # mesh axis -> the loop dimension it must split (-1: none)


@dataclasses.dataclass
class SearchGraph:
    """The program as a graph of nodes in topological order.

    Attributes:
        nodes: sources, then one node per equation, then one per output.
        var_node: each jaxpr variable's ``(node, result index)``.
        program: the traced program.
    """

    nodes: list[_Node]
    var_node: dict[Any, tuple[int, int]]
    program: TracedProgram


def _itemsize(v: Any) -> int:
    return int(np.dtype(v.aval.dtype).itemsize) if hasattr(v.aval, "dtype") else 4


def _is_float(v: Any) -> bool:
    return hasattr(v.aval, "dtype") and np.issubdtype(np.dtype(v.aval.dtype), np.floating)


def _constraint_spec(eqn: Any) -> Spec | None:
    sharding = eqn.params.get("sharding")
    spec = getattr(sharding, "spec", None)
    if spec is None:
        return None
    rank = len(eqn.outvars[0].aval.shape)
    dims = []
    for k in range(rank):
        entry = spec[k] if k < len(spec) else None
        if entry is None:
            dims.append(())
        else:
            dims.append(tuple(entry) if isinstance(entry, (tuple, list)) else (entry,))
    return Spec(tuple(dims))


def build_graph(program: TracedProgram, training: bool = True,
                input_specs: Sequence[Spec | None] | None = None,
                output_specs: Sequence[Spec | None] | None = None) -> SearchGraph:
    """Turn a traced program into the search graph.

    Arguments:
        program: the traced forward computation.
        training: whether costs include the backward pass and optimizer state.
        input_specs: an imposed layout per flat call input (None: free).
        output_specs: an imposed layout per flat call output (None: free, but
            partial sums must be reduced).

    Returns:
        the :class:`SearchGraph`.
    """
    jaxpr = program.jaxpr.jaxpr
    nodes: list[_Node] = []
    var_node: dict[Any, tuple[int, int]] = {}
    n_vars = len(program.variables)
    for k, var in enumerate(jaxpr.invars):
        shape = tuple(var.aval.shape)
        if k < n_vars:
            node = _Node("param", source_rule(shape), program.names[k], var_index=k,
                         trainable=program.trainable[k] and _is_float(var))
            node.grad = [training and node.trainable]
        else:
            node = _Node("input", source_rule(shape), f"input[{k - n_vars}]", var_index=k)
            node.grad = [False]
            if input_specs is not None and k - n_vars < len(input_specs):
                node.fixed = input_specs[k - n_vars]
        node.out_shapes, node.out_itemsize = [shape], [_itemsize(var)]
        var_node[var] = (len(nodes), 0)
        nodes.append(node)
    for k, var in enumerate(jaxpr.constvars):
        node = _Node("const", source_rule(tuple(var.aval.shape)), f"const[{k}]", var_index=k)
        node.grad, node.out_shapes, node.out_itemsize = [False], [tuple(var.aval.shape)], [_itemsize(var)]
        var_node[var] = (len(nodes), 0)
        nodes.append(node)
    for eqn in jaxpr.eqns:
        rule = op_rule(eqn)
        scope = str(eqn.source_info.name_stack).rsplit("/", 1)[-1]
        node = _Node("op", rule, f"{scope}/{eqn.primitive.name}" if scope else eqn.primitive.name,
                     eqn=eqn)
        if eqn.primitive.name == "sharding_constraint":
            node.fixed = _constraint_spec(eqn)
        idx = len(nodes)
        any_grad = False
        for i, v in enumerate(eqn.invars):
            if isinstance(v, jcore.Literal) or v not in var_node:
                continue
            u, j = var_node[v]
            node.inputs.append((u, j, i))
            nodes[u].consumers.append((idx, i, j))
            any_grad = any_grad or nodes[u].grad[j]
        any_grad = any_grad and eqn.primitive.name not in _NO_GRAD_OPS
        node.grad = [any_grad and _is_float(v) for v in eqn.outvars]
        node.out_shapes = [tuple(v.aval.shape) for v in eqn.outvars]
        node.out_itemsize = [_itemsize(v) for v in eqn.outvars]
        for j, v in enumerate(eqn.outvars):
            if not isinstance(v, jcore.DropVar):
                var_node[v] = (idx, j)
        nodes.append(node)
    for k, var in enumerate(jaxpr.outvars[:program.num_outputs]):
        if isinstance(var, jcore.Literal) or var not in var_node:
            continue
        shape = tuple(var.aval.shape)
        rule = OpRule("output", shape, (tuple(range(len(shape))),), (), tuple(True for _ in shape),
                      frozenset(), 0.0)
        node = _Node("output", rule, f"output[{k}]")
        if output_specs is not None and k < len(output_specs):
            node.fixed = output_specs[k]
        u, j = var_node[var]
        node.inputs.append((u, j, 0))
        nodes[u].consumers.append((len(nodes), 0, j))
        nodes.append(node)
    # XLA fuses elementwise chains and recomputes them in the backward pass; what it
    # keeps are the operands of the matmuls and convolutions.
    for node in nodes:
        node.saved = [False] * len(node.out_shapes)
        for (c, _, j) in node.consumers:
            if nodes[c].kind == "op" and nodes[c].eqn.primitive.name in _SAVED_BY:
                node.saved[j] = node.kind == "op" and node.grad[j] or node.saved[j]
    return SearchGraph(nodes, var_node, program)


# -- candidates and costs ------------------------------------------------------------

def _agrees(spec: Spec, target: Spec, axes: Sequence[str]) -> bool:
    return all(spec.axis_dim(a) == target.axis_dim(a) and a not in spec.partial for a in axes)


def _candidates(node: _Node, axes: tuple[tuple[str, int], ...], base: tuple[int, ...]) -> tuple[Strategy, ...]:
    cands = strategies(node.rule, axes, base)
    if node.forced:
        want = [(pos, node.forced[a]) for pos, (a, _) in enumerate(axes) if a in node.forced]
        kept = tuple(s for s in cands if all(s.assign[pos] == loop for pos, loop in want))
        if not kept:
            raise ValueError(f"For the auto-parallel search, '{node.name}' of shape "
                             f"{node.out_shapes[0] if node.out_shapes else ()} cannot split its batch "
                             f"over the data axes {sorted(node.forced)}")
        cands = kept
    if node.fixed is not None:
        names = [a for a, _ in axes]
        if node.kind == "output":
            kept = tuple(s for s in cands if _agrees(s.in_specs[0], node.fixed, names))
        else:
            kept = tuple(s for s in cands if _agrees(s.out_specs[0], node.fixed, names))
        if not kept:
            raise ValueError(f"For the auto-parallel search, the layout {node.fixed.partition_spec()} "
                             f"imposed on '{node.name}' of shape {node.out_shapes[0] if node.out_shapes else ''} "
                             f"cannot be laid out on the mesh axes {dict(axes)}")
        cands = kept
    return cands


def _local_costs(node: _Node, cands: Sequence[Strategy], model: CostModel, training: bool,
                 graph: SearchGraph) -> np.ndarray:
    out = np.zeros(len(cands))
    rule = node.rule
    for k, s in enumerate(cands):
        cost = 0.0
        if node.kind == "op":
            factor = 3.0 if any(node.grad) else 1.0
            cost += factor * rule.flops / s.shards / model.flops_per_second
            for (u, j, i) in node.inputs:
                if training and graph.nodes[u].grad[j] and s.broadcast_axes[i]:
                    spec = s.in_specs[i]
                    local = model.local_bytes(spec, graph.nodes[u].out_shapes[j],
                                              graph.nodes[u].out_itemsize[j])
                    # Uses of one value add their gradients before a single reduction.
                    cost += model.gradient_reduce(s.broadcast_axes[i], local)[0] / _uses(graph, u, j)
            for j, spec in enumerate(s.out_specs):
                if training and node.saved[j]:
                    cost += model.memory_weight * model.local_bytes(
                        spec, node.out_shapes[j], node.out_itemsize[j])
        elif node.kind == "param":
            copies = 2 + model.optimizer_states if training and node.trainable else 1
            cost += model.memory_weight * copies * model.local_bytes(
                s.out_specs[0], node.out_shapes[0], node.out_itemsize[0])
        out[k] = cost
    return out


def _into_matmul(node: _Node) -> bool:
    """Whether uses by ``node`` are operands XLA needs again in the backward pass."""
    return node.kind == "op" and node.eqn.primitive.name in _SAVED_BY and any(node.grad)


def _uses(graph: SearchGraph, u: int, j: int) -> int:
    return max(1, sum(1 for (_, _, jj) in graph.nodes[u].consumers if jj == j))


class _EdgeCache:
    def __init__(self, model: CostModel) -> None:
        self.model = model
        self.store: dict[Any, np.ndarray] = {}
        self._alive: list[Any] = []  # keeps candidate tuples alive so that their ids stay unique

    def matrix(self, src: Sequence[Strategy], j: int, dst: Sequence[Strategy], i: int,
               shape: tuple[int, ...], itemsize: int, grad: bool, into_matmul: bool = False) -> np.ndarray:
        key = (id(src), j, id(dst), i, shape, itemsize, grad, into_matmul)
        found = self.store.get(key)
        if found is not None:
            return found
        mat = np.empty((len(src), len(dst)))
        outs = [s.out_specs[j] for s in src]
        ins = [d.in_specs[i] for d in dst]
        reshard = self.model.reshard
        for a, o in enumerate(outs):
            for b, n in enumerate(ins):
                mat[a, b] = reshard(o, n, shape, itemsize, grad, into_matmul)[0]
        self.store[key] = mat
        self._alive.append((src, dst))
        return mat


def _batch_loops(graph: SearchGraph) -> list[int | None]:
    """Per node, the loop dimension that carries the data inputs' leading (batch) dimension."""
    nodes = graph.nodes
    dim: dict[tuple[int, int], int] = {}
    loops: list[int | None] = []
    for v, node in enumerate(nodes):
        loop = None
        if node.kind == "input" and node.out_shapes[0]:
            loop = 0
        for (u, j, i) in node.inputs:
            k = dim.get((u, j))
            imap = node.rule.in_maps[i] if i < len(node.rule.in_maps) else None
            if k is not None and imap is not None and k < len(imap) and imap[k] is not None:
                loop = imap[k]
                break
        loops.append(loop)
        if loop is not None:
            for j, omap in enumerate(node.rule.out_maps):
                if loop in omap:
                    dim[(v, j)] = omap.index(loop)
    return loops


def force_data_axes(graph: SearchGraph, data_axes: Sequence[str]) -> None:
    """Make ``data_axes`` split the batch: the loop carrying the inputs' first dimension.

    Every node whose iteration space carries the batch must split it over
    ``data_axes``; every other node (Parameters, weight-only ops, the loss)
    is not split over them. The search then decides only the remaining axes,
    which is how data parallelism combines with tensor parallelism.
    """
    loops = _batch_loops(graph)
    for node, loop in zip(graph.nodes, loops):
        node.forced = {a: (-1 if loop is None else loop) for a in data_axes} if data_axes else None


def _seeds(graph: SearchGraph, cands: list[tuple[Strategy, ...]], seed_axes: Sequence[int]) -> list[list[int]]:
    loops = _batch_loops(graph)
    batch, replicated = [], []
    for v, cs in enumerate(cands):
        want = loops[v] if loops[v] is not None else -1
        b = next((k for k, s in enumerate(cs) if all(s.assign[a] == want for a in seed_axes)), None)
        r = next((k for k, s in enumerate(cs) if all(s.assign[a] == -1 for a in seed_axes)), 0)
        batch.append(r if b is None else b)
        replicated.append(r)
    return [batch, replicated]


def _total(graph: SearchGraph, choice: Sequence[int], local: list[np.ndarray],
           mats: dict[tuple[int, int, int], np.ndarray]) -> float:
    total = 0.0
    for v, node in enumerate(graph.nodes):
        total += local[v][choice[v]]
        for (u, j, i) in node.inputs:
            total += mats[(u, v, i)][choice[u], choice[v]]
    return float(total)


def _refine(graph: SearchGraph, choice: list[int], local: list[np.ndarray],
            mats: dict[tuple[int, int, int], np.ndarray], sweeps: int) -> list[int]:
    nodes = graph.nodes
    for sweep in range(sweeps):
        order = range(len(nodes)) if sweep % 2 == 0 else range(len(nodes) - 1, -1, -1)
        changed = False
        for v in order:
            acc = local[v].copy()
            for (u, j, i) in nodes[v].inputs:
                acc += mats[(u, v, i)][choice[u], :]
            for (c, i, j) in nodes[v].consumers:
                acc += mats[(v, c, i)][:, choice[c]]
            best = int(np.argmin(acc))
            if acc[best] < acc[choice[v]] - 1e-18:
                choice[v] = best
                changed = True
        if not changed:
            break
    return choice


def _solve(graph: SearchGraph, cands: list[tuple[Strategy, ...]], local: list[np.ndarray],
           edges: _EdgeCache, seed_axes: Sequence[int] = (), sweeps: int = 4) -> list[int]:
    nodes = graph.nodes
    mats: dict[tuple[int, int, int], np.ndarray] = {}
    for v, node in enumerate(nodes):
        for (u, j, i) in node.inputs:
            src = nodes[u]
            mats[(u, v, i)] = edges.matrix(cands[u], j, cands[v], i, src.out_shapes[j],
                                           src.out_itemsize[j], src.grad[j], _into_matmul(node))
    f: list[np.ndarray] = []
    for v, node in enumerate(nodes):
        acc = local[v].copy()
        for (u, j, i) in node.inputs:
            share = max(1, len(nodes[u].consumers))
            acc += (f[u][:, None] / share + mats[(u, v, i)]).min(axis=0)
        f.append(acc)
    choice = [-1] * len(nodes)
    for v in range(len(nodes) - 1, -1, -1):
        acc = f[v].copy()
        for (c, i, j) in nodes[v].consumers:
            acc += mats[(v, c, i)][:, choice[c]]
        choice[v] = int(np.argmin(acc))
    # The programme is exact on trees only; also start coordinate descent from the
    # data-parallel and the unsplit assignment of the axes being decided, keep the best.
    starts = [choice] + (_seeds(graph, cands, seed_axes) if seed_axes else [])
    best, best_cost = None, math.inf
    for start in starts:
        refined = _refine(graph, list(start), local, mats, sweeps)
        cost = _total(graph, refined, local, mats)
        if cost < best_cost - 1e-15:
            best, best_cost = refined, cost
    assert best is not None
    return best


@dataclasses.dataclass
class SearchResult:
    """The chosen strategy per node, with the search's own cost estimate.

    Attributes:
        strategies: per node of the graph, its chosen :class:`Strategy` on all mesh axes.
        cost: the modelled step time in seconds (compute + communication).
        comm_bytes: modelled bytes moved per device per step.
        memory_bytes: modelled per-device memory (parameters, gradients, optimizer
            state and saved activations).
        compute_s, comm_s: the parts of ``cost``.
        memory_weight: the price of memory the plan was found at.
    """

    strategies: list[Strategy]
    cost: float
    comm_bytes: float
    memory_bytes: float
    compute_s: float
    comm_s: float
    memory_weight: float


def evaluate(graph: SearchGraph, chosen: Sequence[Strategy], model: CostModel,
             training: bool) -> tuple[float, float, float, float]:
    """The modelled ``(compute_s, comm_s, comm_bytes, memory_bytes)`` of a full plan."""
    compute = comm = moved = memory = 0.0
    nodes = graph.nodes
    for v, node in enumerate(nodes):
        s = chosen[v]
        if node.kind == "op":
            factor = 3.0 if any(node.grad) else 1.0
            compute += factor * node.rule.flops / s.shards / model.flops_per_second
            for j, spec in enumerate(s.out_specs):
                if training and node.saved[j]:
                    memory += model.local_bytes(spec, node.out_shapes[j], node.out_itemsize[j])
        elif node.kind == "param":
            copies = 2 + model.optimizer_states if training and node.trainable else 1
            memory += copies * model.local_bytes(s.out_specs[0], node.out_shapes[0],
                                                 node.out_itemsize[0])
        for (u, j, i) in node.inputs:
            src = nodes[u]
            t, b = model.reshard(chosen[u].out_specs[j], s.in_specs[i], src.out_shapes[j],
                                 src.out_itemsize[j], training and src.grad[j],
                                 training and _into_matmul(node))
            comm, moved = comm + t, moved + b
            if node.kind == "op" and training and src.grad[j] and s.broadcast_axes[i]:
                local = model.local_bytes(s.in_specs[i], src.out_shapes[j], src.out_itemsize[j])
                t, b = model.gradient_reduce(s.broadcast_axes[i], local)
                k = _uses(graph, u, j)
                comm, moved = comm + t / k, moved + b / k
    return compute, comm, moved, memory


def search(graph: SearchGraph, mesh_sizes: dict[str, int], model: CostModel, *,
           mode: str = "recursive_programming", training: bool = True,
           memory_budget: float | None = None) -> SearchResult:
    """Choose a strategy for every node of ``graph``.

    Arguments:
        graph: from :func:`build_graph`.
        mesh_sizes: ``{axis: size}`` in mesh order; axes of size 1 are ignored.
        model: the cost model (its ``memory_weight`` is the starting price of memory).
        mode: ``"recursive_programming"`` (one axis at a time) or
            ``"sharding_propagation"`` (all axes at once around the fixed ops).
        training: whether costs include the backward pass.
        memory_budget: per-device bytes the plan must fit in, or None.

    Returns:
        the :class:`SearchResult`; if no price of memory makes the plan fit, the
        leanest plan found, whose ``memory_bytes`` exceeds the budget.
    """
    axes = tuple((a, n) for a, n in mesh_sizes.items() if n > 1)
    start = model.memory_weight

    def run(weight: float) -> SearchResult:
        model.memory_weight = weight
        chosen = _search_once(graph, axes, model, mode, training)
        compute, comm, moved, memory = evaluate(graph, chosen, model, training)
        return SearchResult(chosen, compute + comm, moved, memory, compute, comm, weight)

    result = run(start)
    if memory_budget is None or result.memory_bytes <= memory_budget:
        return result
    # Raise the price of memory until the plan fits, then bisect (in log space)
    # for the lowest price that still fits: the fastest plan within the budget.
    low, high, fitting, leanest = start, None, None, result
    weight = max(start, 1e-14)
    for _ in range(10):
        weight *= 10.0
        found = run(weight)
        if found.memory_bytes < leanest.memory_bytes:
            leanest = found
        if found.memory_bytes <= memory_budget:
            high, fitting = weight, found
            break
        low = weight
    if high is None or fitting is None:
        model.memory_weight = leanest.memory_weight
        return leanest
    for _ in range(5):
        mid = math.sqrt(max(low, 1e-18) * high)
        found = run(mid)
        if found.memory_bytes <= memory_budget:
            high = mid
            if found.cost < fitting.cost:
                fitting = found
        else:
            low = mid
    model.memory_weight = fitting.memory_weight
    return fitting


def _search_once(graph: SearchGraph, axes: tuple[tuple[str, int], ...], model: CostModel,
                 mode: str, training: bool) -> list[Strategy]:
    nodes = graph.nodes
    edges = _EdgeCache(model)
    if not axes:
        return [strategies(n.rule, (), ())[0] for n in nodes]
    if mode == "sharding_propagation":
        cands = [_candidates(n, axes, ()) for n in nodes]
        local = [_local_costs(n, c, model, training, graph) for n, c in zip(nodes, cands)]
        choice = _solve(graph, cands, local, edges, seed_axes=(0,))
        return [c[k] for c, k in zip(cands, choice)]
    # Recursive: largest axis first, each step extending the previous assignment.
    order = sorted(range(len(axes)), key=lambda k: -axes[k][1])
    ordered = tuple(axes[k] for k in order)
    assign: list[tuple[int, ...]] = [() for _ in nodes]
    for step in range(len(ordered)):
        sub = ordered[:step + 1]
        cands = [_candidates(n, sub, a) for n, a in zip(nodes, assign)]
        local = [_local_costs(n, c, model, training, graph) for n, c in zip(nodes, cands)]
        choice = _solve(graph, cands, local, edges, seed_axes=(step,))
        assign = [c[k].assign for c, k in zip(cands, choice)]
    result = []
    for node, a in zip(nodes, assign):
        in_mesh_order = [0] * len(axes)
        for pos, k in enumerate(order):
            in_mesh_order[k] = a[pos]
        result.append(_make_strategy(node.rule, axes, tuple(in_mesh_order)))
    return result
