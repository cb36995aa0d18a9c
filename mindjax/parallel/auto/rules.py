"""Per-op candidate strategies, derived from each jaxpr equation.

Every op is described by its *loop dimensions* (the iteration space: for a
``dot_general`` the batch, left-free, right-free and contracting dimensions),
how each operand and result dimension maps onto them, which loop dimensions
may be split, and which are reductions (splitting one leaves a partial sum in
the result). A strategy assigns each mesh axis to at most one loop dimension;
from that follow the layout every operand must arrive in, the layout (and
partial-sum axes) of every result, and the compute per device.

Example:
    >>> rule = op_rule(eqn)                                  # doctest: +SKIP
    >>> [s.out_specs[0] for s in strategies(rule, (("mp", 8),))]   # doctest: +SKIP
"""
from __future__ import annotations

import dataclasses
import functools
import itertools
import math
from typing import Any, Sequence

import numpy as np
from jax.extend import core as jcore

__all__ = ["Spec", "OpRule", "Strategy", "op_rule", "source_rule", "strategies", "spec_to_split"]

Axes = tuple[tuple[str, int], ...]


@dataclasses.dataclass(frozen=True)
class Spec:
    """A value's layout: the mesh axes sharding each dimension, and partial-sum axes.

    Attributes:
        dims: per dimension, the tuple of mesh axis names splitting it (major first).
        partial: mesh axes over which the value is an unreduced partial sum.
    """

    dims: tuple[tuple[str, ...], ...]
    partial: tuple[str, ...] = ()

    def axis_dim(self, axis: str) -> int | None:
        """The dimension ``axis`` splits, or None."""
        for i, names in enumerate(self.dims):
            if axis in names:
                return i
        return None

    def resolved(self) -> "Spec":
        """The same layout with partial sums reduced (replicated over those axes)."""
        return Spec(self.dims) if self.partial else self

    def partition_spec(self) -> Any:
        """This layout as a ``jax.sharding.PartitionSpec``."""
        from jax.sharding import PartitionSpec

        return PartitionSpec(*[(n[0] if len(n) == 1 else n) if n else None for n in self.dims])


@dataclasses.dataclass(frozen=True)
class OpRule:
    """How one op's operands and results map onto its loop dimensions.

    Attributes:
        name: the primitive's name.
        loop_sizes: the size of each loop dimension.
        in_maps: per operand, per operand dimension, its loop dimension (or None);
            None in place of the whole tuple for literal operands.
        out_maps: per result, per result dimension, its loop dimension (or None).
        splittable: per loop dimension, whether a mesh axis may split it.
        reductions: loop dimensions summed over (splitting one gives a partial result).
        flops: floating point operations of the whole op.
    """

    name: str
    loop_sizes: tuple[int, ...]
    in_maps: tuple[tuple[int | None, ...] | None, ...]
    out_maps: tuple[tuple[int | None, ...], ...]
    splittable: tuple[bool, ...]
    reductions: frozenset[int]
    flops: float


@dataclasses.dataclass(frozen=True)
class Strategy:
    """One candidate: which loop dimension each mesh axis splits (-1: none).

    Attributes:
        assign: per searched mesh axis, the loop dimension it splits or -1.
        in_specs: the layout each operand must arrive in (None for literals).
        out_specs: the layout of each result, partial sums included.
        shards: how many pieces the iteration space is cut into.
        broadcast_axes: per operand, mesh axes that split the work but not the
            operand (its gradient is a partial sum over them).
    """

    assign: tuple[int, ...]
    in_specs: tuple[Spec | None, ...]
    out_specs: tuple[Spec, ...]
    shards: int
    broadcast_axes: tuple[tuple[str, ...], ...]


def _size(shape: Sequence[int]) -> int:
    return int(np.prod(shape)) if len(shape) else 1


def _shape(v: Any) -> tuple[int, ...]:
    return tuple(getattr(v.aval, "shape", ()))


def _identity_rule(name: str, shape: tuple[int, ...], n_in: int, flops: float,
                   in_shapes: Sequence[tuple[int, ...] | None], n_out: int = 1,
                   frozen: Sequence[int] = ()) -> OpRule:
    in_maps = []
    for s in in_shapes:
        if s is None:
            in_maps.append(None)
        elif len(s) == len(shape):
            in_maps.append(tuple(k if s[k] == shape[k] else None for k in range(len(s))))
        else:
            in_maps.append(tuple(None for _ in s))
    split = tuple(k not in frozen for k in range(len(shape)))
    return OpRule(name, shape, tuple(in_maps), tuple(tuple(range(len(shape))) for _ in range(n_out)),
                  split, frozenset(), float(flops))


def _replicated_rule(name: str, in_shapes: Sequence[tuple[int, ...] | None],
                     out_shapes: Sequence[tuple[int, ...]]) -> OpRule:
    return OpRule(name, (), tuple(None if s is None else tuple(None for _ in s) for s in in_shapes),
                  tuple(tuple(None for _ in s) for s in out_shapes), (), frozenset(),
                  float(sum(_size(s) for s in out_shapes)))


def _dot_rule(eqn: Any, in_shapes: Sequence[tuple[int, ...]], out_shape: tuple[int, ...]) -> OpRule:
    (lc, rc), (lb, rb) = eqn.params["dimension_numbers"]
    ls, rs = in_shapes
    lfree = [d for d in range(len(ls)) if d not in lc and d not in lb]
    rfree = [d for d in range(len(rs)) if d not in rc and d not in rb]
    sizes = [ls[d] for d in lb] + [ls[d] for d in lfree] + [rs[d] for d in rfree] + [ls[d] for d in lc]
    nb, nl, nr = len(lb), len(lfree), len(rfree)
    lmap: list[int | None] = [None] * len(ls)
    rmap: list[int | None] = [None] * len(rs)
    for i, (a, b) in enumerate(zip(lb, rb)):
        lmap[a] = rmap[b] = i
    for i, d in enumerate(lfree):
        lmap[d] = nb + i
    for i, d in enumerate(rfree):
        rmap[d] = nb + nl + i
    for i, (a, b) in enumerate(zip(lc, rc)):
        lmap[a] = rmap[b] = nb + nl + nr + i
    out_map = tuple(range(nb + nl + nr))
    reductions = frozenset(range(nb + nl + nr, len(sizes)))
    return OpRule("dot_general", tuple(sizes), (tuple(lmap), tuple(rmap)), (out_map,),
                  tuple(True for _ in sizes), reductions, 2.0 * _size(sizes))


def _reshape_rule(in_shape: tuple[int, ...], out_shape: tuple[int, ...]) -> OpRule:
    # Dimensions are grouped where running products agree; within a group only the
    # major dimensions correspond (splitting a merged dimension splits its major part).
    in_map: list[int | None] = [None] * len(in_shape)
    i = j = 0
    while i < len(in_shape) and j < len(out_shape):
        gi, gj = i, j
        pi, pj = in_shape[i], out_shape[j]
        while pi != pj:
            if pi < pj:
                i += 1
                pi *= in_shape[i]
            else:
                j += 1
                pj *= out_shape[j]
        major_in = next((k for k in range(gi, i + 1) if in_shape[k] != 1), gi)
        major_out = next((k for k in range(gj, j + 1) if out_shape[k] != 1), gj)
        if in_shape[major_in] % out_shape[major_out] == 0 or out_shape[major_out] % in_shape[major_in] == 0:
            in_map[major_in] = major_out
        i += 1
        j += 1
    # A split may only use the part both sides share: the smaller major size.
    sizes = list(out_shape)
    for k, m in enumerate(in_map):
        if m is not None:
            sizes[m] = min(sizes[m], in_shape[k])
    split = tuple(True for _ in out_shape)
    return OpRule("reshape", tuple(sizes), (tuple(in_map),), (tuple(range(len(out_shape))),), split,
                  frozenset(), float(_size(out_shape)))


def _reduce_rule(name: str, eqn: Any, in_shape: tuple[int, ...]) -> OpRule:
    axes = tuple(eqn.params.get("axes", ()))
    kept = tuple(k for k in range(len(in_shape)) if k not in axes)
    arg = name in ("argmax", "argmin", "reduce_and", "reduce_or", "reduce_xor")
    split = tuple(not (arg and k in axes) for k in range(len(in_shape)))
    return OpRule(name, in_shape, (tuple(range(len(in_shape))),), (kept,), split,
                  frozenset(axes), float(_size(in_shape)))


def _gather_rule(eqn: Any, in_shapes: Sequence[tuple[int, ...]], out_shape: tuple[int, ...]) -> OpRule:
    dn = eqn.params["dimension_numbers"]
    op_shape, idx_shape = in_shapes
    offset = tuple(dn.offset_dims)
    collapsed = tuple(dn.collapsed_slice_dims)
    op_batching = tuple(getattr(dn, "operand_batching_dims", ()))
    idx_batching = tuple(getattr(dn, "start_indices_batching_dims", ()))
    slice_sizes = tuple(eqn.params["slice_sizes"])
    out_batch = [d for d in range(len(out_shape)) if d not in offset]
    idx_dims = list(range(len(idx_shape) - 1))  # jax keeps the index vector last
    op_map: list[int | None] = [None] * len(op_shape)
    idx_map: list[int | None] = [None] * len(idx_shape)
    sizes = list(out_shape)
    idx_to_out = dict(zip(idx_dims, out_batch)) if len(out_batch) == len(idx_dims) else {}
    for idd, od in idx_to_out.items():
        idx_map[idd] = od
    for opd, idd in zip(op_batching, idx_batching):
        if idd in idx_to_out:
            op_map[opd] = idx_to_out[idd]
    window = [d for d in range(len(op_shape)) if d not in collapsed and d not in op_batching]
    for od, opd in zip(offset, window):
        if slice_sizes[opd] == op_shape[opd] == out_shape[od]:
            op_map[opd] = od
    # The gathered operand dimension may be split too (a vocabulary-parallel
    # embedding): each device gathers the rows it holds and the results are summed.
    reductions = set()
    for opd in collapsed:
        op_map[opd] = len(sizes)
        reductions.add(len(sizes))
        sizes.append(op_shape[opd])
    split = tuple(True for _ in sizes)
    return OpRule("gather", tuple(sizes), (tuple(op_map), tuple(idx_map)),
                  (tuple(range(len(out_shape))),), split, frozenset(reductions),
                  float(_size(out_shape)))


def _conv_rule(eqn: Any, in_shapes: Sequence[tuple[int, ...]], out_shape: tuple[int, ...]) -> OpRule:
    dn = eqn.params["dimension_numbers"]
    ls, rs = in_shapes
    lhs_spec, rhs_spec, out_spec = dn.lhs_spec, dn.rhs_spec, dn.out_spec
    groups = eqn.params.get("feature_group_count", 1)
    bgroups = eqn.params.get("batch_group_count", 1)
    sizes = [out_shape[out_spec[0]], out_shape[out_spec[1]], ls[lhs_spec[1]]]
    lmap: list[int | None] = [None] * len(ls)
    rmap: list[int | None] = [None] * len(rs)
    omap: list[int | None] = [None] * len(out_shape)
    lmap[lhs_spec[0]], omap[out_spec[0]] = 0, 0
    rmap[rhs_spec[0]], omap[out_spec[1]] = 1, 1
    lmap[lhs_spec[1]], rmap[rhs_spec[1]] = 2, 2
    kernel = _size([rs[d] for d in rhs_spec[2:]])
    flops = 2.0 * _size(out_shape) * (rs[rhs_spec[1]]) * kernel
    split = (bgroups == 1, groups == 1, groups == 1)
    return OpRule("conv_general_dilated", tuple(sizes), (tuple(lmap), tuple(rmap)), (tuple(omap),),
                  split, frozenset({2}), flops)


_SCAN_AXIS = {"cumsum": "axis", "cumprod": "axis", "cummax": "axis", "cummin": "axis",
              "cumlogsumexp": "axis", "sort": "dimension", "rev": "dimensions"}
_REDUCE = ("reduce_sum", "reduce_max", "reduce_min", "reduce_prod", "argmax", "argmin",
           "reduce_and", "reduce_or", "reduce_xor")


def op_rule(eqn: Any) -> OpRule:
    """The :class:`OpRule` of one jaxpr equation (a generic rule for unknown ops).

    Arguments:
        eqn: a JaxprEqn of a flat jaxpr (see :func:`~mindjax.parallel.auto.graph.inline_jaxpr`).

    Returns:
        the rule; ops the search cannot split get a rule whose only strategy is replication.
    """
    name = eqn.primitive.name
    in_shapes = [None if isinstance(v, jcore.Literal) else _shape(v) for v in eqn.invars]
    out_shapes = [_shape(v) for v in eqn.outvars]
    return _rule_cached(name, tuple(in_shapes), tuple(out_shapes), _param_key(eqn), eqn)


def _param_key(eqn: Any) -> Any:
    name = eqn.primitive.name
    if name == "dot_general":
        return eqn.params["dimension_numbers"]
    if name in _REDUCE:
        return tuple(eqn.params.get("axes", ()))
    if name in ("transpose",):
        return tuple(eqn.params["permutation"])
    if name == "broadcast_in_dim":
        return tuple(eqn.params["broadcast_dimensions"])
    if name in _SCAN_AXIS:
        return repr(eqn.params.get(_SCAN_AXIS[name]))
    if name in ("gather", "conv_general_dilated"):
        return repr(sorted((k, repr(v)) for k, v in eqn.params.items()))
    return None


def _rule_cached(name: str, in_shapes: tuple[Any, ...], out_shapes: tuple[Any, ...], key: Any,
                 eqn: Any) -> OpRule:
    try:
        return _RULES[(name, in_shapes, out_shapes, key)]
    except KeyError:
        pass
    rule = _build_rule(name, list(in_shapes), list(out_shapes), eqn)
    _RULES[(name, in_shapes, out_shapes, key)] = rule
    return rule


_RULES: dict[Any, OpRule] = {}


def _build_rule(name: str, in_shapes: list[Any], out_shapes: list[Any], eqn: Any) -> OpRule:
    out = out_shapes[0] if out_shapes else ()
    if name == "dot_general":
        return _dot_rule(eqn, in_shapes, out)
    if name in _REDUCE and in_shapes[0] is not None:
        return _reduce_rule(name, eqn, in_shapes[0])
    if name == "transpose":
        perm = eqn.params["permutation"]
        in_map = [None] * len(perm)
        for k, p in enumerate(perm):
            in_map[p] = k
        return OpRule(name, out, (tuple(in_map),), (tuple(range(len(out))),),
                      tuple(True for _ in out), frozenset(), float(_size(out)))
    if name == "broadcast_in_dim":
        bd = eqn.params["broadcast_dimensions"]
        src = in_shapes[0]
        in_map = None if src is None else tuple(bd[k] if src[k] == out[bd[k]] else None
                                                for k in range(len(src)))
        maps = (in_map,) + tuple(None if s is None else tuple(None for _ in s) for s in in_shapes[1:])
        return OpRule(name, out, maps, (tuple(range(len(out))),), tuple(True for _ in out),
                      frozenset(), float(_size(out)))
    if name == "reshape" and in_shapes[0] is not None and _size(in_shapes[0]) == _size(out):
        if len(in_shapes) == 1:
            return _reshape_rule(in_shapes[0], out)
    if name == "gather" and len(in_shapes) == 2:
        return _gather_rule(eqn, in_shapes, out)
    if name == "conv_general_dilated" and len(in_shapes) == 2:
        return _conv_rule(eqn, in_shapes, out)
    same_rank = all(len(s) == len(out) for s in out_shapes) and \
        all(s is None or len(s) in (0, len(out)) for s in in_shapes)
    if out_shapes and same_rank:
        # Dimensions whose size changes (a split, a concatenation, a slice) stay whole.
        frozen_dims = {k for k in range(len(out)) if any(s[k] != out[k] for s in out_shapes)
                       or any(s is not None and len(s) == len(out) and s[k] != out[k]
                              and s[k] != 1 for s in in_shapes)}
        if name in _SCAN_AXIS:
            val = eqn.params.get(_SCAN_AXIS[name])
            frozen_dims |= set(val) if isinstance(val, (tuple, list)) else {val}
        frozen = tuple(sorted(frozen_dims))
        flops = _size(out) * max(1, sum(1 for s in in_shapes if s is not None))
        return _identity_rule(name, out, len(in_shapes), flops, in_shapes, len(out_shapes), frozen)
    return _replicated_rule(name, in_shapes, out_shapes)


def source_rule(shape: tuple[int, ...]) -> OpRule:
    """The rule of a program input (a Parameter or data): any layout of its own dims."""
    return OpRule("input", tuple(shape), (), (tuple(range(len(shape))),),
                  tuple(True for _ in shape), frozenset(), 0.0)


def _spec_of(dim_map: Sequence[int | None], assign: Sequence[int], axes: Axes,
             reductions: frozenset[int] = frozenset(), mapped: frozenset[int] = frozenset(),
             with_partial: bool = False) -> Spec:
    dims = []
    for loop in dim_map:
        dims.append(tuple(a for (a, _), l in zip(axes, assign) if loop is not None and l == loop))
    partial: tuple[str, ...] = ()
    if with_partial:
        partial = tuple(a for (a, _), l in zip(axes, assign) if l in reductions and l not in mapped)
    return Spec(tuple(dims), partial)


@functools.lru_cache(maxsize=None)
def strategies(rule: OpRule, axes: Axes, base: tuple[int, ...] = ()) -> tuple[Strategy, ...]:
    """Every valid strategy of ``rule`` on the mesh ``axes``.

    Arguments:
        rule: the op's rule.
        axes: ``((name, size), ...)`` of the mesh axes the search decides about.
        base: assignments already fixed for the first ``len(base)`` axes (the
            recursive search decides one axis at a time).

    Returns:
        the strategies, replication (no split) first when it is valid.
    """
    options = [[b] for b in base] + [[-1] + [k for k, ok in enumerate(rule.splittable) if ok]
                                     for _ in axes[len(base):]]
    found = []
    for assign in itertools.product(*options):
        per_loop: dict[int, int] = {}
        for (_, size), loop in zip(axes, assign):
            if loop >= 0:
                per_loop[loop] = per_loop.get(loop, 1) * size
        if any(rule.loop_sizes[l] % n for l, n in per_loop.items()):
            continue
        found.append(_make_strategy(rule, axes, tuple(assign)))
    return tuple(found)


def _make_strategy(rule: OpRule, axes: Axes, assign: tuple[int, ...]) -> Strategy:
    in_specs = []
    bcast = []
    used = {l for l in assign if l >= 0}
    for m in rule.in_maps:
        if m is None:
            in_specs.append(None)
            bcast.append(())
            continue
        in_specs.append(_spec_of(m, assign, axes))
        present = {l for l in m if l is not None}
        bcast.append(tuple(a for (a, _), l in zip(axes, assign) if l >= 0 and l not in present))
    out_specs = []
    for m in rule.out_maps:
        present = frozenset(l for l in m if l is not None)
        out_specs.append(_spec_of(m, assign, axes, rule.reductions, present, with_partial=True))
    shards = math.prod(size for (_, size), l in zip(axes, assign) if l >= 0) if used else 1
    return Strategy(assign, tuple(in_specs), tuple(out_specs), shards, tuple(bcast))


def spec_to_split(spec: Spec, mesh_sizes: dict[str, int]) -> tuple[int, ...]:
    """MindSpore's tuple form of a layout: how many pieces each dimension is cut into."""
    return tuple(math.prod(mesh_sizes[a] for a in names) for names in spec.dims)
