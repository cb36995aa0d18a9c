"""Pipeline stages hold only their own state: each stage's Parameters and optimizer state on its devices.

A Parameter of a Cell with ``pipeline_stage = k`` (and every optimizer state
cloned from it) lives on the devices of stage ``k`` only, replicated over
them: its value is a ``jax.Array`` on the stage's sub-mesh, and
``p.value().addressable_shards`` names those devices alone.

One XLA program cannot take arguments on different device sets, so a compiled
step that runs a ``PipelineCell`` takes the staged state as *stage groups*:
global arrays whose leading axis is split over the ``stage`` mesh axis, so
that each stage's devices hold one block, that stage's own values. Two kinds:

* a **slot** stacks one Parameter per stage of equal shape (``layers.0`` ...
  ``layers.3`` of a stack of blocks): shape ``(S * n0, n1, ...)``. The block
  of stage ``k`` *is* the Parameter's buffer, so building the group before the
  step and taking it apart after it moves no data;
* a **flat** group holds the rest (an embedding on stage 0, a head on the
  last): per stage, its Parameters flattened end to end and padded to the
  largest stage, shape ``(S * W,)``. It costs a copy on each stage's devices
  before and after the step, and no device holds more than the largest stage.

Inside the program every Variable of a group carries the group's value; the
``PipelineCell`` reads its block per stage (:func:`bindings`), so the
gradient of the group's first Variable, its *leader*, is the whole group's
gradient, and the others' gradients are zero. An elementwise optimizer
(``SGD``, ``Momentum``, ``Adam``, ``AdamWeightDecay``, ``RMSProp``, ``Adagrad``)
then updates the leader's group exactly as it would update each Parameter;
only the leaders' new values leave the program, and the rest of the update is
dead code. Parameters whose optimizer is not elementwise (``Lamb``, a user's
own), which differ in learning rate or weight decay, or that two stages share,
form separate groups or stay replicated on every device as before.

A program that uses staged Parameters without a ``PipelineCell`` (evaluation
of the backbone in GRAPH mode) gets them replicated over the stage mesh for
the call.
"""
from __future__ import annotations

import functools
import weakref
from typing import Any, Sequence

import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P

from mindjax.common.upcalls import register_upcall
from mindjax.common.variable import Variable
from mindjax.parallel.shard import place

__all__ = ["register_pipeline", "stage_of_parameters", "layout_for", "StageLayout", "Binding", "bindings",
           "note_pipeline_traced", "true_structs"]

_AXIS = "stage"
_PIPELINES: "weakref.WeakSet[Any]" = weakref.WeakSet()
# Optimizers whose update is elementwise per Parameter (the same update on a group is exact).
_ELEMENTWISE = ("SGD", "Momentum", "Adam", "AdamWeightDecay", "RMSProp", "Adagrad")


def register_pipeline(cell: Any) -> None:
    """Make a ``PipelineCell`` known, so compiled calls lay its stages' state out per stage."""
    _PIPELINES.add(cell)


def stage_of_parameters(network: Any) -> dict[int, tuple[Variable, int]]:
    """``{id(param): (param, stage)}`` for the Parameters of Cells with ``pipeline_stage``.

    A Parameter belongs to the innermost staged Cell above it. One reached
    from Cells of two stages (a tied embedding) is shared and left out, as is
    one under no staged Cell.
    """
    found: dict[int, tuple[Variable, int]] = {}
    shared: set[int] = set()
    seen: set[tuple[int, Any]] = set()

    def walk(cell: Any, stage: int | None) -> None:
        own = cell.__dict__.get("pipeline_stage")
        stage = int(own) if own is not None else stage
        if (id(cell), stage) in seen:
            return
        seen.add((id(cell), stage))
        for p in cell.get_parameters(expand=False):
            if stage is None:
                shared.add(id(p))
            elif id(p) in found and found[id(p)][1] != stage:
                shared.add(id(p))
            else:
                found[id(p)] = (p, stage)
        for child in cell.cells():
            walk(child, stage)

    walk(network, None)
    return {k: v for k, v in found.items() if k not in shared}


def _optimizer_keys(params: dict[int, tuple[Variable, int]]) -> dict[int, Any]:
    """Per staged Parameter, what its update depends on besides its values (None: not groupable)."""
    from mindjax.cells.optim.optimizer import live_optimizers

    keys: dict[int, Any] = {pid: ("frozen",) for pid in params}
    claimed: dict[int, int] = {}
    for opt in live_optimizers():
        plist = list(getattr(opt, "parameters", ()))
        for i, p in enumerate(plist):
            if id(p) not in params:
                continue
            claimed[id(p)] = claimed.get(id(p), 0) + 1
            if type(opt).__name__ not in _ELEMENTWISE or type(opt).__module__.split(".")[0] != "mindjax":
                keys[id(p)] = None
                continue
            gc = bool(opt.grad_centralization_flags[i]) if getattr(opt, "is_group", False) else False
            wd = repr(opt.weight_decay[i]) if getattr(opt, "is_group", False) else repr(opt.weight_decay)
            lr = opt.learning_rate[i] if getattr(opt, "is_group_lr", False) else opt.learning_rate
            keys[id(p)] = None if gc else (id(opt), id(lr), bool(opt.decay_flags[i]), wd)
    for pid, n in claimed.items():
        if n > 1:  # two optimizers update it: keep it whole
            keys[pid] = None
    return keys


@functools.lru_cache(maxsize=256)
def _packer(sharding: NamedSharding, pad: int, dtype: str) -> Any:
    """A stage's values flattened end to end and padded, on its devices (shared by equal groups)."""
    def pack(values: list[Any]) -> Any:
        flat = [jnp.reshape(v, (-1,)).astype(dtype) for v in values]
        return jnp.concatenate(flat + [jnp.zeros((pad,), dtype)])
    return jax.jit(pack, out_shardings=sharding)


@functools.lru_cache(maxsize=256)
def _unpacker(sharding: NamedSharding, entries: tuple[tuple[int, tuple[int, ...], str], ...]) -> Any:
    """The inverse of :func:`_packer`: ``(offset, shape, dtype)`` per value."""
    def unpack(flat: Any) -> list[Any]:
        return [flat[off:off + int(np.prod(shape))].reshape(shape).astype(dtype) for off, shape, dtype in entries]
    return jax.jit(unpack, out_shardings=[sharding] * len(entries))


class _Group:
    """One stage group: global array ``(S * n0, ...)`` split over the stage axis; see the module doc.

    ``members[k]`` lists ``(variable index, offset, shape)`` for stage ``k``.
    """

    def __init__(self, kind: str, dtype: Any, members: list[list[tuple[int, int, tuple[int, ...]]]],
                 mesh: Mesh) -> None:
        self.kind = kind
        self.dtype = jnp.dtype(dtype)
        self.members = members
        self.mesh = mesh
        self.stages = len(members)
        self.indices = [i for stage in members for i, _, _ in stage]
        self.leader = self.indices[0]
        self.stage_of = {i: k for k, stage in enumerate(members) for i, _, _ in stage}
        self.entry = {i: (off, shape) for stage in members for i, off, shape in stage}
        if kind == "slot":
            self.block = members[0][0][2]
        else:
            width = max(sum(int(np.prod(s)) for _, _, s in stage) for stage in members)
            self.block = (max(width, 1),)
        self.shape = (self.stages * self.block[0],) + tuple(self.block[1:])
        self.sharding = NamedSharding(mesh, P(_AXIS))
        self.sub = [NamedSharding(Mesh(np.array(mesh.devices[k]).reshape(-1), (mesh.axis_names[1],)), P())
                    for k in range(self.stages)]
        self.tracer: Any = None

    # -- host side ------------------------------------------------------------------
    def _packer(self, k: int) -> Any:
        pad = self.block[0] - sum(int(np.prod(s)) for _, _, s in self.members[k])
        return _packer(self.sub[k], pad, self.dtype.name)

    def _unpacker(self, k: int) -> Any:
        entries = tuple((off, shape, jnp.dtype(self._dtypes[i]).name) for i, off, shape in self.members[k])
        return _unpacker(self.sub[k], entries)

    def _shards_on(self, k: int, array: Any) -> list[Any]:
        devices = list(self.sub[k].mesh.devices.flat)
        by_device = {s.device: s.data for s in array.addressable_shards}
        return [by_device[d] for d in devices]

    def assemble(self, values: Sequence[Any]) -> Any:
        """The group's global array from its members' values (placed on their stages first)."""
        blocks = []
        for k in range(self.stages):
            mine = [place(values[i], self.sub[k]) for i, _, _ in self.members[k]]
            blocks.append(mine[0] if self.kind == "slot" else self._packer(k)(mine))
        shards = [s for k, b in enumerate(blocks) for s in self._shards_on(k, b)]
        return jax.make_array_from_single_device_arrays(self.shape, self.sharding, shards)

    def split(self, array: Any) -> list[tuple[int, Any]]:
        """``(variable index, value on its stage)`` for each member, from the group's new global array."""
        out = []
        for k in range(self.stages):
            block = jax.make_array_from_single_device_arrays(self.block, self.sub[k], self._shards_on(k, array))
            if self.kind == "slot":
                out.append((self.members[k][0][0], block))
            else:
                out.extend(zip([i for i, _, _ in self.members[k]], self._unpacker(k)(block)))
        return out

    # -- inside the pipeline --------------------------------------------------------
    def global_value(self, array: Any, index: int, dtype: Any) -> Any:
        """Variable ``index``'s value cut from the group's global array (outside the stage shards)."""
        k = self.stage_of[index]
        off, shape = self.entry[index]
        if self.kind == "slot":
            n0 = self.block[0]
            return array[k * n0:(k + 1) * n0]
        start = k * self.block[0] + off
        return array[start:start + int(np.prod(shape))].reshape(shape).astype(dtype)

    def local(self, block: Any, index: int, aval: Any) -> Any:
        """Variable ``index``'s value from its stage's block (inside the stage's shard)."""
        if self.kind == "slot":
            return block
        off, shape = self.entry[index]
        return block[off:off + int(np.prod(shape))].reshape(shape).astype(aval.dtype)


class StageLayout:
    """How one compiled program's state travels: stage groups (pipeline) or replicated (gather).

    Arguments:
        variables: the program's Variables, in order.
        groups: the stage groups (empty in gather mode).
        gather: indices of staged Variables to replicate over ``mesh`` for the call.
        mesh: the ``(stage, stage_replica)`` mesh.
    """

    def __init__(self, variables: Sequence[Variable], groups: list[_Group], gather: list[int],
                 mesh: Mesh) -> None:
        self.groups = groups
        self.gather = gather
        self._gather_set = set(gather)
        self.mesh = mesh
        self.member_of: dict[int, _Group] = {i: g for g in groups for i in g.indices}
        self.members = [i for g in groups for i in g.indices if i != g.leader]
        self.saw_pipeline = False
        # Two layouts of the same structure trace the same program (the compiled caches key on it).
        self.token = (tuple((g.kind, g.shape, tuple(g.indices)) for g in groups), tuple(gather))
        self._vars = [weakref.ref(v) for v in variables]
        self._index = {id(v): i for i, v in enumerate(variables)}
        for g in groups:
            g._dtypes = {i: variables[i]._raw.dtype for i in g.indices}

    def index_of(self, var: Variable) -> int | None:
        """The position of ``var`` among the program's Variables (None: not one of them)."""
        i = self._index.get(id(var))
        return i if i is not None and self._vars[i]() is var else None

    def variable(self, index: int) -> Variable:
        """The program's Variable at ``index``."""
        var = self._vars[index]()
        assert var is not None, index  # the program holds its Variables
        return var

    def handled(self, index: int) -> bool:
        """Whether :meth:`pack` supplies value ``index`` (the caller need not place it)."""
        return index in self.member_of or index in self._gather_set

    def pack(self, values: Sequence[Any]) -> list[Any]:
        """Before the call: each group's leader gets the group's global array, other members None."""
        out = list(values)
        replicated = NamedSharding(self.mesh, P())
        for i in self.gather:
            out[i] = place(values[i], replicated)
        for g in self.groups:
            out[g.leader] = g.assemble(values)
        for i in self.members:
            out[i] = None
        return out

    def expand(self, values: Sequence[Any]) -> list[Any]:
        """Inside the trace: every member of a group carries the group's value."""
        out = list(values)
        for g in self.groups:
            g.tracer = values[g.leader]
            for i in g.indices:
                out[i] = g.tracer
        _TRACING[0] = self
        return out

    def finish(self, values: Sequence[Any], new_values: Sequence[Any]) -> list[Any]:
        """Inside the trace: only the leaders' new values leave (the members' are dead code).

        A leader's new value keeps the group's split over the stages, so no
        stage ever holds another's block.
        """
        _TRACING[0] = None
        out = list(new_values)
        for i in self.members:
            out[i] = values[i]
        for g in self.groups:
            if out[g.leader] is not values[g.leader]:
                out[g.leader] = jax.lax.with_sharding_constraint(out[g.leader], g.sharding)
        return out

    def store(self, variables: Sequence[Variable]) -> None:
        """After the call: split each leader's new group value into its members' stage values."""
        for g in self.groups:
            leader = variables[g.leader]
            raw = leader._raw
            if not (isinstance(raw, jax.Array) and tuple(raw.shape) == g.shape):
                continue  # not written: the members keep their own values
            for i, value in g.split(place(raw, g.sharding)):
                object.__setattr__(variables[i], "_raw", value)


_TRACING: list[StageLayout | None] = [None]
_CACHE: "weakref.WeakKeyDictionary[Any, dict[Any, StageLayout | None]]" = weakref.WeakKeyDictionary()


def note_pipeline_traced() -> None:
    """Called by a ``PipelineCell`` while traced: the program runs a pipeline (lay it out so next time)."""
    if _TRACING[0] is not None:
        _TRACING[0].saw_pipeline = True


class Binding:
    """How a ``PipelineCell`` reads one Variable inside its stages: a group block or a plain value.

    Arguments:
        group: the group index (into the groups :func:`bindings` returns), or None for a plain value.
        stage: the stage whose devices hold it (groups only).
        index: its position in the program's Variables (groups only).
    """

    def __init__(self, group: int | None, stage: int = -1, index: int = -1) -> None:
        self.group = group
        self.stage = stage
        self.index = index


def bindings(variables: Sequence[Variable]) -> tuple[list[Binding], list[_Group], list[Any]]:
    """For a ``PipelineCell`` being traced: which of ``variables`` come as stage groups.

    Inside the program every member of a group holds the group's value; the
    pipeline reads each group through its leader, so the leader's gradient is
    the group's (under ``grad``, each Variable holds its own tracer).

    Returns:
        one :class:`Binding` per Variable, the groups in use, and each group's
        current value (its leader's).
    """
    layout = _TRACING[0]
    out: list[Binding] = []
    used: list[_Group] = []
    index_of: dict[int, int] = {}
    for v in variables:
        pos = layout.index_of(v) if layout is not None else None
        g = layout.member_of.get(pos) if pos is not None else None
        if g is None or tuple(jnp.shape(v._raw)) != g.shape:
            out.append(Binding(None))
            continue
        if id(g) not in index_of:
            index_of[id(g)] = len(used)
            used.append(g)
        out.append(Binding(index_of[id(g)], g.stage_of[pos], pos))
    values = [layout.variable(g.leader)._raw for g in used] if used else []
    return out, used, values


def true_structs(variables: Sequence[Variable]) -> list[Any]:
    """Each Variable's own shape and dtype, also while it carries its group's value in a trace."""
    layout = _TRACING[0]
    out = []
    for v in variables:
        pos = layout.index_of(v) if layout is not None else None
        g = layout.member_of.get(pos) if pos is not None else None
        if g is not None and tuple(jnp.shape(v._raw)) == g.shape:
            out.append(jax.ShapeDtypeStruct(g.entry[pos][1], g._dtypes[pos]))
        else:
            out.append(v._raw)
    return out


def layout_for(program: Any, variables: Sequence[Variable], owner: Any = None) -> StageLayout | None:
    """The state layout of a compiled program over ``variables`` (None: nothing staged).

    Arguments:
        program: the compiled program (caches the layout, weakly).
        variables: its Variables, in order.
        owner: the Cell it runs (``None`` for a function): a tree with a
            ``PipelineCell`` is laid out in stage groups from the first call; a
            function after its first trace showed one.
    """
    if not _PIPELINES:
        return None
    cache = _CACHE.setdefault(program, {})
    previous = cache.get("last")
    # Once a trace of this program ran a PipelineCell, it is laid out in stage groups from then on.
    if previous is not None and previous.saw_pipeline:
        cache["saw"] = True
    if "owner" not in cache:
        cache["owner"] = _contains_pipeline(owner)
    saw = bool(cache.get("saw")) and not cache["owner"]
    key = (len(variables), _pipelines_signature(), saw)
    if key in cache:
        layout = cache[key]
    else:
        layout = cache[key] = _build(variables, cache["owner"], saw)
    if layout is not None:
        cache["last"] = layout
    return layout


def _pipelines_signature() -> tuple[Any, ...]:
    from mindjax import context

    return (context._PARALLEL["parallel_mode"], context._PARALLEL["pipeline_stages"],
            tuple(sorted(id(c) for c in _PIPELINES)))


def _contains_pipeline(owner: Any) -> bool:
    if owner is None or not hasattr(owner, "cells_and_names"):
        return False
    return any(c in _PIPELINES for _, c in owner.cells_and_names())


def _build(variables: Sequence[Variable], has_pipeline: bool, saw: bool) -> StageLayout | None:
    position = {id(v): i for i, v in enumerate(variables)}
    for pipe in list(_PIPELINES):
        staged = {pid: pv for pid, pv in stage_of_parameters(pipe.network).items() if pid in position}
        if not staged:
            continue
        try:
            stages = pipe._stages()
            mesh = pipe._mesh(stages)
        except ValueError:
            return None  # the PipelineCell raises its own error when it runs
        if stages < 2:
            return None
        followers = [i for i, v in enumerate(variables) if _source_id(v) in staged]
        if not (has_pipeline or saw):
            gather = sorted({position[pid] for pid in staged} | set(followers))
            return StageLayout(variables, [], gather, mesh)
        return StageLayout(variables, _groups(variables, staged, position, stages, mesh), [], mesh)
    return None


def _source_id(var: Variable) -> int | None:
    follow = getattr(var, "_followed_layout", None)
    source = follow() if follow is not None else None
    return id(source) if source is not None else None


def _family(state: Variable, param: Variable) -> str:
    name, pname = getattr(state, "name", ""), getattr(param, "name", "")
    return name[:-len(pname)] if pname and name.endswith(pname) else name


def _groups(variables: Sequence[Variable], staged: dict[int, tuple[Variable, int]], position: dict[int, int],
            stages: int, mesh: Mesh) -> list[_Group]:
    keys = _optimizer_keys(staged)
    # The optimizer states of each staged Parameter, by family ("moments.", "moment1.", ...).
    states: dict[int, dict[str, int]] = {}
    for i, v in enumerate(variables):
        sid = _source_id(v)
        if sid in staged:
            states.setdefault(sid, {})[_family(v, staged[sid][0])] = i
    classes: dict[Any, list[list[int]]] = {}
    for pid, (p, stage) in staged.items():
        if keys.get(pid) is None:
            continue
        raw = p._raw
        families = tuple(sorted(states.get(pid, {})))
        if any(variables[states[pid][f]]._raw.dtype != raw.dtype for f in families):
            continue
        cls = (jnp.dtype(raw.dtype).name, keys[pid], families)
        classes.setdefault(cls, [[] for _ in range(stages)])[stage].append(position[pid])
    groups: list[_Group] = []
    for (dtype, _, families), per_stage in classes.items():
        for stage in per_stage:
            stage.sort()
        rest: list[list[int]] = [[] for _ in range(stages)]
        # Slots: one Parameter of the same shape (ndim >= 1) per stage, stacked with no copy.
        by_shape: dict[tuple[int, ...], list[list[int]]] = {}
        for k, stage in enumerate(per_stage):
            for i in stage:
                shape = tuple(variables[i]._raw.shape)
                by_shape.setdefault(shape, [[] for _ in range(stages)])[k].append(i)
        layouts: list[tuple[str, list[list[tuple[int, int, tuple[int, ...]]]]]] = []
        for shape, lists in by_shape.items():
            n = min(len(x) for x in lists) if shape else 0
            for j in range(n):
                layouts.append(("slot", [[(lists[k][j], 0, shape)] for k in range(stages)]))
            for k in range(stages):
                rest[k].extend(lists[k][n:])
        if any(rest):
            members = []
            for k in range(stages):
                off, entries = 0, []
                for i in sorted(rest[k]):
                    shape = tuple(variables[i]._raw.shape)
                    entries.append((i, off, shape))
                    off += int(np.prod(shape))
                members.append(entries)
            layouts.append(("flat", members))
        for kind, members in layouts:
            groups.append(_Group(kind, dtype, members, mesh))
            for fam in families:
                twin = [[(states[id(variables[i])][fam], off, shape) for i, off, shape in stage]
                        for stage in members]
                groups.append(_Group(kind, dtype, twin, mesh))
    return groups


register_upcall("state_layout", layout_for)
