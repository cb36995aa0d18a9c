"""Pipeline parallelism: ``nn.PipelineCell(network, micro_size)`` over a mesh axis of stages.

Cells of the network are assigned to stages with ``cell.pipeline_stage = i``
(MindSpore's attribute). The network (with its loss) is traced once on one
micro-batch; every equation of the jaxpr belongs to the stage of the innermost
staged Cell it ran in (the jaxpr's name stack carries the Cell paths), and
untagged equations run in the latest stage among their inputs (a loss after
the last block runs in the last stage). The values crossing from one stage to
the next are packed into one float32 buffer, so every stage has the same
signature and one SPMD program, ``jax.shard_map`` over the ``stage`` axis with
``lax.switch`` on the stage index, runs them all; ``lax.ppermute`` moves the
buffers between neighbouring stages.

Two schedules (``set_auto_parallel_context(pipeline_config={"pipeline_scheduler":
...})`` or ``PipelineCell(..., schedule=...)``):

* ``"gpipe"``: all forward passes, micro-batch after micro-batch, in one
  ``lax.scan``; the backward pass is JAX's transpose of it (reverse order).
* ``"1f1b"``: a static one-forward-one-backward table; each stage runs the
  forward or the backward (a ``jax.vjp`` of its stage, recomputing from the
  stage input it kept) of one micro-batch per tick. The gradients come out of
  the schedule itself and reach the optimizer through a ``custom_vjp``.

The loss is the mean over micro-batches of the network's loss, equal to the
loss of the whole batch for mean-reduced losses.

Each stage holds only its own weights and their optimizer state: in a
compiled step the staged Parameters come in *stage groups* split over the
``stage`` axis (see :mod:`mindjax.parallel.stage_state`), each stage's
shard reads its block, and the gradients stay on the stage. Between steps a
Parameter lives on its stage's devices only. Values that no single stage owns
(a weight two stages share, the optimizer's hyper-parameters) are replicated
on every stage device, and their gradients are summed over the axis. A weight
of one stage that another stage reads as well is cut out of its group for the
step and reaches every stage whole.

Example:
    >>> ms.set_auto_parallel_context(pipeline_stages=2)
    >>> net.blocks[0].pipeline_stage = 0; net.blocks[1].pipeline_stage = 1   # doctest: +SKIP
    >>> loss = nn.PipelineCell(nn.WithLossCell(net, loss_fn), micro_size=4)  # doctest: +SKIP
"""
from __future__ import annotations

import functools
from typing import Any, Sequence

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax
from jax.extend import core as jcore
from jax.sharding import Mesh, PartitionSpec as P

from mindjax import context
from mindjax.cells.cell import Cell
from mindjax.cells.state import substituted
from mindjax.parallel import stage_state as _stage_state
from mindjax.parallel.auto.graph import TracedProgram, _bind, trace_cell

__all__ = ["PipelineCell", "pipeline_schedule_1f1b"]

_AXIS = "stage"
_REPLICA_AXIS = "stage_replica"


def _stage_mesh(stages: int, where: str) -> Mesh:
    """A ``(stage, stage_replica)`` mesh over every device of the parallel context, in rank order.

    The whole device set takes part, so the program runs on the same devices
    as the rest of the step (MindSpore's ``device_num=8, pipeline_stages=2``
    gives each stage 4 devices); the devices of one stage hold the same
    values and run the same stage.
    """
    from mindjax.parallel import mesh as _mesh  # the mesh module reads the context

    # Stand-alone runs hold their state on one device; the pipeline only needs one per stage.
    devices = (_mesh.get_devices() if context._PARALLEL["parallel_mode"] != "stand_alone"
               else jax.devices()[:stages])
    if len(devices) % stages:
        raise ValueError(f"{where}, pipeline_stages={stages} must divide the device number {len(devices)}")
    return Mesh(np.array(devices, dtype=object).reshape(stages, -1), (_AXIS, _REPLICA_AXIS))


def _stage_of_cells(network: Cell) -> dict[str, int]:
    found = {}
    for path, cell in network.cells_and_names():
        stage = cell.__dict__.get("pipeline_stage")
        if stage is not None:
            found[cell.__dict__.get("_cell_path") or type(cell).__name__] = int(stage)
            if path:
                found[path] = int(stage)
    return found


def _partition(program: TracedProgram, stage_of: dict[str, int], stages: int, where: str) -> list[int]:
    jaxpr = program.jaxpr.jaxpr
    producer: dict[Any, int] = {}
    result = []
    for k, eqn in enumerate(jaxpr.eqns):
        scopes = str(eqn.source_info.name_stack).split("/")
        tagged = [stage_of[s] for s in scopes if s in stage_of]
        inputs = [producer[v] for v in eqn.invars if not isinstance(v, jcore.Literal) and v in producer]
        earliest = max(inputs, default=0)
        stage = tagged[-1] if tagged else earliest
        if stage < earliest:
            raise ValueError(f"{where}, an op of stage {stage} ({eqn.primitive.name} in "
                             f"'{scopes[-1]}') uses a value computed in stage {earliest}: stages must "
                             f"run in increasing order of pipeline_stage")
        if stage >= stages:
            raise ValueError(f"{where}, a Cell has pipeline_stage={stage} but pipeline_stages is "
                             f"{stages}")
        for v in eqn.outvars:
            producer[v] = stage
        result.append(stage)
    return result


class _Staged:
    """The traced network cut into stage functions with one buffer signature."""

    def __init__(self, program: TracedProgram, stage_ids: list[int], stages: int) -> None:
        jaxpr = program.jaxpr.jaxpr
        self.program = program
        self.stages = stages
        self.eqns = [[e for e, s in zip(jaxpr.eqns, stage_ids) if s == k] for k in range(stages)]
        producer = {v: s for e, s in zip(jaxpr.eqns, stage_ids) for v in e.outvars}
        last_use: dict[Any, int] = {}
        for e, s in zip(jaxpr.eqns, stage_ids):
            for v in e.invars:
                if not isinstance(v, jcore.Literal) and v in producer:
                    last_use[v] = max(last_use.get(v, 0), s)
        for v in jaxpr.outvars[:program.num_outputs]:
            if not isinstance(v, jcore.Literal) and v in producer:
                last_use[v] = stages  # outputs leave through the last stage
        # Boundary k: produced at or before stage k and used after it.
        self.boundaries = [[v for v in producer if producer[v] <= k < last_use.get(v, -1)]
                           for k in range(stages - 1)]
        sizes = [sum(int(np.prod(v.aval.shape)) for v in b) for b in self.boundaries]
        self.width = max(sizes + [1])
        self.reads = [{v for e in stage for v in e.invars if not isinstance(v, jcore.Literal)}
                      for stage in self.eqns]

    def _pack(self, values: Sequence[Any]) -> Any:
        flat = [_to_f32(x).reshape(-1) for x in values]
        buf = jnp.concatenate(flat) if flat else jnp.zeros((0,), jnp.float32)
        return jnp.pad(buf, (0, self.width - buf.shape[0]))

    def _unpack(self, buf: Any, variables: Sequence[Any]) -> list[Any]:
        out, pos = [], 0
        for v in variables:
            n = int(np.prod(v.aval.shape))
            out.append(_from_f32(buf[pos:pos + n], v.aval))
            pos += n
        return out

    def stage_fn(self, k: int, binds: Sequence[Any], groups: Sequence[Any]) -> Any:
        """Stage ``k`` as ``(buffer, micro inputs, plain values, group blocks) -> (buffer, loss)``.

        ``binds`` says per Variable whether it is a plain value (``plain``
        holds those, in order) or lives in a stage group, whose block on this
        stage's devices is in ``blocks``.
        """
        jaxpr = self.program.jaxpr.jaxpr
        consts = self.program.jaxpr.consts
        nvars = len(self.program.variables)
        plain_pos = {i: j for j, i in enumerate(i for i, b in enumerate(binds) if b.group is None)}
        reads = self.reads[k]

        def run(buf: Any, inputs: Sequence[Any], plain: Sequence[Any], blocks: Sequence[Any]) -> tuple[Any, Any]:
            env: dict[Any, Any] = {}
            for var, val in zip(jaxpr.constvars, consts):
                env[var] = val
            for i, var in enumerate(jaxpr.invars[:nvars]):
                b = binds[i]
                if b.group is None:
                    env[var] = plain[plain_pos[i]]
                elif var in reads:
                    env[var] = groups[b.group].local(blocks[b.group], b.index, var.aval)
            for var, val in zip(jaxpr.invars[nvars:], inputs):
                env[var] = val
            if k > 0:
                for var, val in zip(self.boundaries[k - 1], self._unpack(buf, self.boundaries[k - 1])):
                    env[var] = val

            def read(v: Any) -> Any:
                return v.val if isinstance(v, jcore.Literal) else env[v]

            for eqn in self.eqns[k]:
                outs = _bind(eqn, [read(v) for v in eqn.invars])
                outs = outs if eqn.primitive.multiple_results else [outs]
                for var, val in zip(eqn.outvars, outs):
                    env[var] = val
            if k == self.stages - 1:
                loss = read(jaxpr.outvars[0]).astype(jnp.float32)
                return jnp.zeros((self.width,), jnp.float32), loss
            return self._pack([env[v] for v in self.boundaries[k]]), jnp.zeros((), jnp.float32)
        return run

    def read_elsewhere(self, index: int, stage: int) -> bool:
        """Whether a stage other than ``stage`` reads Variable ``index``."""
        var = self.program.jaxpr.jaxpr.invars[index]
        return any(var in reads for k, reads in enumerate(self.reads) if k != stage)


def _to_f32(x: Any) -> Any:
    x = jnp.asarray(x)
    if x.dtype == jnp.float32:
        return x
    if x.dtype.itemsize == 4:
        return lax.bitcast_convert_type(x, jnp.float32)
    return x.astype(jnp.float32)


def _from_f32(buf: Any, aval: Any) -> Any:
    dtype = jnp.dtype(aval.dtype)
    if dtype == jnp.float32:
        out = buf
    elif dtype.itemsize == 4:
        out = lax.bitcast_convert_type(buf, dtype)
    else:
        out = buf.astype(dtype)
    return out.reshape(aval.shape)


def pipeline_schedule_1f1b(stages: int, micro: int) -> tuple[np.ndarray, np.ndarray]:
    """The one-forward-one-backward table: per tick and stage, the action and its micro-batch.

    Arguments:
        stages: the number of stages.
        micro: the number of micro-batches.

    Returns:
        ``(kind, batch)`` arrays of shape ``(ticks, stages)``; kind 0 is idle,
        1 a forward and 2 a backward of micro-batch ``batch``.
    """
    plans = []
    for s in range(stages):
        warm = min(stages - s - 1, micro)
        order = [("f", m) for m in range(warm)]
        f, b = warm, 0
        while b < micro:
            if f < micro:
                order.append(("f", f))
                f += 1
            order.append(("b", b))
            b += 1
        plans.append(order)
    done: dict[tuple[str, int, int], int] = {}
    pos = [0] * stages
    kinds, batches = [], []
    t = 0
    while any(pos[s] < len(plans[s]) for s in range(stages)):
        row_k, row_b = [0] * stages, [0] * stages
        for s in range(stages):
            if pos[s] >= len(plans[s]):
                continue
            kind, m = plans[s][pos[s]]
            if kind == "f":
                ready = s == 0 or done.get(("f", s - 1, m), t) < t
            else:
                ready = (done.get(("f", s, m), t) < t if s == stages - 1
                         else done.get(("b", s + 1, m), t) < t)
            if ready:
                row_k[s], row_b[s] = (1 if kind == "f" else 2), m
        for s in range(stages):
            if row_k[s]:
                done[("f" if row_k[s] == 1 else "b", s, row_b[s])] = t
                pos[s] += 1
        kinds.append(row_k)
        batches.append(row_b)
        t += 1
    return np.array(kinds, np.int32), np.array(batches, np.int32)


class PipelineCell(Cell):
    """MindSpore's ``nn.PipelineCell``: run ``network`` as a pipeline of stages over micro-batches.

    Arguments:
        network: the network with its loss (returns a scalar mean loss); its
            Cells carry ``pipeline_stage``.
        micro_size: how many micro-batches each batch is cut into (along dimension 0).
        stage_config: accepted for MindSpore compatibility (``{cell path: stage}``,
            applied to the named Cells).
        schedule: ``"gpipe"`` or ``"1f1b"``; by default the context's
            ``pipeline_config["pipeline_scheduler"]``, else ``"1f1b"`` as in MindSpore.

    Raises:
        ValueError: a bad ``micro_size`` or ``schedule``; at the first call, a batch
            that ``micro_size`` does not divide, or stages out of order.
    """

    # Called eagerly it still runs its schedule over the stage devices (one shard_map): no PYNATIVE warning.
    _compiles_itself = True

    def __init__(self, network: Cell, micro_size: int, stage_config: dict[str, int] | None = None,
                 schedule: str | None = None) -> None:
        super().__init__(auto_prefix=False)
        if not isinstance(micro_size, int) or isinstance(micro_size, bool) or micro_size < 1:
            raise ValueError(f"For 'PipelineCell', 'micro_size' must be a positive int, got {micro_size!r}")
        if schedule is not None and schedule not in ("gpipe", "1f1b"):
            raise ValueError(f"For 'PipelineCell', 'schedule' must be 'gpipe' or '1f1b', got {schedule!r}")
        self.network = network
        self.micro_size = micro_size
        self.__dict__["_schedule"] = schedule
        self.__dict__["_cache"] = {}
        _stage_state.register_pipeline(self)
        if stage_config:
            cells = dict(network.cells_and_names())
            for path, stage in stage_config.items():
                if path not in cells:
                    raise ValueError(f"For 'PipelineCell', 'stage_config' names no Cell '{path}'")
                cells[path].pipeline_stage = int(stage)

    @property
    def schedule(self) -> str:
        """The schedule in use: ``"gpipe"`` or ``"1f1b"``."""
        if self.__dict__["_schedule"]:
            return self.__dict__["_schedule"]
        return str(context.get_auto_parallel_context("pipeline_scheduler")).lower()

    def construct(self, *inputs: Any) -> Any:
        return self._run(inputs)

    def _stages(self) -> int:
        stages = context.get_auto_parallel_context("pipeline_stages")
        if stages <= 1:
            stages = max(_stage_of_cells(self.network).values(), default=0) + 1
        if stages > jax.device_count():
            raise ValueError(f"{self._where()}, pipeline_stages={stages} needs as many devices, "
                             f"JAX sees {jax.device_count()}")
        return stages

    def _mesh(self, stages: int) -> Mesh:
        """The ``(stage, stage_replica)`` mesh of ``stages`` stages over the context's devices."""
        return _stage_mesh(stages, self._where())

    def _prepared(self, inputs: tuple[Any, ...]) -> tuple[_Staged, Mesh]:
        stages = self._stages()
        micro = self.micro_size
        shapes = []
        for k, x in enumerate(inputs):
            shape = tuple(jnp.shape(x))
            if not shape or shape[0] % micro:
                raise ValueError(f"{self._where()}, input {k} of shape {shape} cannot be cut into "
                                 f"micro_size={micro} micro-batches along dimension 0")
            shapes.append(jax.ShapeDtypeStruct((shape[0] // micro,) + shape[1:], jnp.result_type(x)))
        key = (stages, tuple((s.shape, str(s.dtype)) for s in shapes))
        cache = self.__dict__["_cache"]
        if key not in cache:
            variables = [p for _, p in self.network.parameters_and_names()]
            # Inside a step laid out in stage groups the Variables carry their groups' values:
            # the network is traced on their own shapes.
            with substituted(variables, _stage_state.true_structs(variables)):
                program = trace_cell(self.network, shapes)
            ids = _partition(program, _stage_of_cells(self.network), stages, self._where())
            mesh = _stage_mesh(stages, self._where())
            cache[key] = (_Staged(program, ids, stages), mesh)
        return cache[key]

    def _run(self, inputs: tuple[Any, ...]) -> Any:
        staged, mesh = self._prepared(inputs)
        _stage_state.note_pipeline_traced()
        variables = staged.program.variables
        binds, groups, group_values = _stage_state.bindings(variables)
        override = {}
        for i, b in enumerate(binds):
            if b.group is not None and staged.read_elsewhere(i, b.stage):
                # Read by another stage too (a weight used by two stages): every stage gets the whole
                # value, cut from its group out of the schedule; the gradient flows back into the group.
                override[i] = groups[b.group].global_value(group_values[b.group], b.index,
                                                           jnp.result_type(variables[i]._raw.dtype))
                binds[i] = _stage_state.Binding(None)
        plain = [override[i] if i in override else v._value
                 for i, (v, b) in enumerate(zip(variables, binds)) if b.group is None]
        micro = self.micro_size
        batches = [jnp.reshape(x, (micro, -1) + tuple(jnp.shape(x)[1:])) for x in inputs]
        fns = [staged.stage_fn(k, binds, groups) for k in range(staged.stages)]
        if self.schedule == "gpipe":
            return _gpipe(fns, staged, mesh, plain, group_values, batches, micro)
        state = plain + group_values
        diff = [i for i, v in enumerate(state) if jnp.issubdtype(jnp.result_type(v), jnp.floating)]
        return _one_f_one_b(tuple(fns), staged.width, staged.stages, mesh, micro, tuple(diff), len(plain),
                            state, batches)


def _gpipe(fns: list[Any], staged: _Staged, mesh: Mesh, plain: list[Any], group_values: list[Any],
           batches: list[Any], micro: int) -> Any:
    stages = staged.stages

    def body(vals: list[Any], blocks: list[Any], mbs: list[Any]) -> Any:
        s = lax.axis_index(_AXIS)

        def tick(carry: tuple[Any, Any], t: Any) -> tuple[tuple[Any, Any], None]:
            buf, acc = carry
            m = jnp.clip(t - s, 0, micro - 1)
            valid = (t - s >= 0) & (t - s < micro)
            # A stage idle this tick runs nothing: computing it on the empty buffer and masking the
            # result would let a 0/0 there (a loss normalised by label weights) poison the gradients.
            def live(_: Any) -> tuple[Any, Any]:
                return lax.switch(s, fns, buf, [x[m] for x in mbs], vals, blocks)

            def idle(_: Any) -> tuple[Any, Any]:
                return jnp.zeros((staged.width,), jnp.float32), jnp.zeros((), jnp.float32)

            out, loss = lax.cond(valid, live, idle, None)
            acc = acc + jnp.where(s == stages - 1, loss, 0.0)
            nxt = lax.ppermute(out, _AXIS, [(i, i + 1) for i in range(stages - 1)])
            return (nxt, acc), None

        init = (jnp.zeros((staged.width,), jnp.float32), jnp.zeros((), jnp.float32))
        (_, acc), _ = lax.scan(tick, init, jnp.arange(micro + stages - 1))
        return lax.psum(acc, _AXIS) / micro

    # Stage groups are split over the stage axis: each stage sees its own block.
    run = jax.shard_map(body, mesh=mesh, in_specs=(P(), P(_AXIS), P()), out_specs=P(), check_vma=False)
    return run(plain, group_values, batches)


@functools.partial(jax.custom_vjp, nondiff_argnums=(0, 1, 2, 3, 4, 5, 6))
def _one_f_one_b(fns: tuple[Any, ...], width: int, stages: int, mesh: Mesh, micro: int,
                 diff: tuple[int, ...], nplain: int, values: list[Any], batches: list[Any]) -> Any:
    return _run_1f1b(fns, width, stages, mesh, micro, diff, nplain, values, batches)[0]


def _one_f_one_b_fwd(fns: tuple[Any, ...], width: int, stages: int, mesh: Mesh, micro: int,
                     diff: tuple[int, ...], nplain: int, values: list[Any], batches: list[Any]) -> Any:
    loss, grads = _run_1f1b(fns, width, stages, mesh, micro, diff, nplain, values, batches)
    return loss, (grads, values, batches)


def _zero_cotangent(x: Any) -> Any:
    if jnp.issubdtype(jnp.result_type(x), jnp.floating):
        return jnp.zeros_like(x)
    return np.zeros(jnp.shape(x), jax.dtypes.float0)


def _one_f_one_b_bwd(fns: tuple[Any, ...], width: int, stages: int, mesh: Mesh, micro: int,
                     diff: tuple[int, ...], nplain: int, res: Any, g: Any) -> Any:
    grads, values, batches = res
    cot = [_zero_cotangent(v) for v in values]
    for i, gr in zip(diff, grads):
        cot[i] = (g * gr).astype(jnp.result_type(values[i]))
    return cot, [_zero_cotangent(b) for b in batches]


_one_f_one_b.defvjp(_one_f_one_b_fwd, _one_f_one_b_bwd)


def _run_1f1b(fns: tuple[Any, ...], width: int, stages: int, mesh: Mesh, micro: int,
              diff: tuple[int, ...], nplain: int, values: list[Any],
              batches: list[Any]) -> tuple[Any, list[Any]]:
    """The 1F1B table run in one ``lax.scan``: the mean loss and the gradients of ``values[diff]``.

    ``values`` holds ``nplain`` replicated values, then the stage groups (split
    over the stage axis); a group's gradient stays on its stage, a plain
    value's is summed over the stages.
    """
    kinds, mbs_table = pipeline_schedule_1f1b(stages, micro)
    kinds_j, mbs_j = jnp.asarray(kinds), jnp.asarray(mbs_table)
    specs = [P() if i < nplain else P(_AXIS) for i in range(len(values))]

    def body(vals: list[Any], mbs: list[Any]) -> tuple[Any, list[Any]]:
        s = lax.axis_index(_AXIS)
        dvals = [vals[i] for i in diff]

        def stage(x: Any, d: list[Any], m: Any) -> tuple[Any, Any]:
            full = list(vals)
            for i, v in zip(diff, d):
                full[i] = v
            return lax.switch(s, list(fns), x, [b[m] for b in mbs], full[:nplain], full[nplain:])

        def tick(carry: Any, t: Any) -> tuple[Any, None]:
            acts, cots, acc, grads, recv_f, recv_b = carry
            # What the neighbours sent last tick lands in the slot of its micro-batch.
            prev = jnp.maximum(t - 1, 0)
            src_f = jnp.clip(s - 1, 0, stages - 1)
            src_b = jnp.clip(s + 1, 0, stages - 1)
            got_f = (t > 0) & (s > 0) & (kinds_j[prev, src_f] == 1)
            got_b = (t > 0) & (s < stages - 1) & (kinds_j[prev, src_b] == 2)
            acts = jnp.where(got_f, acts.at[mbs_j[prev, src_f]].set(recv_f), acts)
            cots = jnp.where(got_b, cots.at[mbs_j[prev, src_b]].set(recv_b), cots)
            kind, m = kinds_j[t, s], mbs_j[t, s]
            zeros = jnp.zeros((width,), jnp.float32)
            zero_grads = [jnp.zeros_like(v) for v in dvals]

            def idle(_: Any) -> Any:
                return zeros, zeros, jnp.zeros((), jnp.float32), zero_grads

            def forward(_: Any) -> Any:
                out, loss = stage(acts[m], dvals, m)
                return out, zeros, jnp.where(s == stages - 1, loss, 0.0), zero_grads

            def backward(_: Any) -> Any:
                _, pull = jax.vjp(lambda x, d: stage(x, d, m), acts[m], dvals)
                loss_cot = jnp.where(s == stages - 1, 1.0 / micro, 0.0).astype(jnp.float32)
                gx, gd = pull((cots[m], loss_cot))
                return zeros, gx, jnp.zeros((), jnp.float32), list(gd)

            send_f, send_b, dloss, dgrads = lax.switch(kind, [idle, forward, backward], None)
            acc = acc + dloss
            grads = [a + b for a, b in zip(grads, dgrads)]
            recv_f = lax.ppermute(send_f, _AXIS, [(i, i + 1) for i in range(stages - 1)])
            recv_b = lax.ppermute(send_b, _AXIS, [(i + 1, i) for i in range(stages - 1)])
            return (acts, cots, acc, grads, recv_f, recv_b), None

        buf = jnp.zeros((micro, width), jnp.float32)
        zero = jnp.zeros((width,), jnp.float32)
        init = (buf, buf, jnp.zeros((), jnp.float32), [jnp.zeros_like(v) for v in dvals], zero, zero)
        (_, _, acc, grads, _, _), _ = lax.scan(tick, init, jnp.arange(kinds.shape[0]))
        return lax.psum(acc, _AXIS) / micro, [lax.psum(g, _AXIS) if i < nplain else g
                                              for i, g in zip(diff, grads)]

    run = jax.shard_map(body, mesh=mesh, in_specs=(specs, P()),
                        out_specs=(P(), [specs[i] for i in diff]), check_vma=False)
    return run(values, batches)
