"""Checking a plan against XLA: compile its training step and read memory and collectives back.

The cost model is an estimate: XLA may reshard a value by copying it whole,
keep temporaries alive longer than the model assumes, or combine collectives.
:func:`measure_plan` compiles the step a plan will actually run (forward,
backward and an optimizer update with ``optimizer_states`` arrays per
trainable Parameter, every state laid out as its Parameter) and returns XLA's
own numbers; :func:`measured_seconds` prices them with the cost model's
machine constants, so that candidate plans can be ranked by what the compiler
emitted rather than by what the model predicted.

Example:
    >>> report = measure_plan(plan, optimizer_states=1)       # doctest: +SKIP
    >>> report["peak_bytes"], report["collectives"]["total"]["bytes"]   # doctest: +SKIP
"""
from __future__ import annotations

import concurrent.futures
import os
from typing import Any, Sequence

import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import NamedSharding, PartitionSpec

from mindjax.parallel.auto.cost import CostModel
from mindjax.parallel.auto.hlo import xla_report

__all__ = ["lower_plan", "measure_plan", "measure_plans", "measured_seconds"]


def _is_float(x: Any) -> bool:
    return np.issubdtype(np.dtype(x.dtype), np.floating)


def measure_plan(plan: Any, optimizer_states: int = 1, training: bool = True) -> dict[str, Any]:
    """Compile ``plan``'s step (not run) and return XLA's report of it.

    Arguments and returns as :func:`lower_plan`, compiled and read by
    :func:`~mindjax.parallel.auto.hlo.xla_report`: ``peak_bytes`` (arguments +
    outputs + temporaries - aliased, per device), ``collectives`` (counts and
    bytes per device), ``flops``.
    """
    return xla_report(lower_plan(plan, optimizer_states, training).compile(), plan.mesh.devices.size)


def measure_plans(plans: Sequence[Any], optimizer_states: int = 1, training: bool = True,
                  workers: int | None = None) -> list[dict[str, Any]]:
    """:func:`measure_plan` for several plans, compiling them on a thread pool.

    Lowering runs Python and goes one plan at a time; XLA compiles without the
    interpreter lock, so the compilations overlap on the host's cores.
    """
    lowered = [lower_plan(p, optimizer_states, training) for p in plans]
    workers = workers or max(1, min(len(plans), os.cpu_count() or 1))
    with concurrent.futures.ThreadPoolExecutor(workers) as pool:
        compiled = list(pool.map(lambda low: low.compile(), lowered))
    return [xla_report(c, p.mesh.devices.size) for c, p in zip(compiled, plans)]


def lower_plan(plan: Any, optimizer_states: int = 1, training: bool = True) -> Any:
    """Lower ``plan``'s training step for XLA (``.compile()`` it for the analyses).

    Arguments:
        plan: a :class:`~mindjax.parallel.auto.plan.Plan`.
        optimizer_states: arrays the optimizer keeps per trainable Parameter
            (1 for Momentum, 2 for Adam); each is an input and an output laid
            out as its Parameter, as ``Model.train`` keeps them.
        training: compile forward, backward and update; else the forward only.

    Returns:
        the ``jax.stages.Lowered`` step.
    """
    from mindjax.parallel.auto.plan import run_plan

    program = plan.program
    mesh = plan.mesh
    names = program.names
    values = [v._value for v in program.variables]
    value_sh = [NamedSharding(mesh, plan.param_specs.get(n, PartitionSpec())) for n in names]
    trained = [training and t and _is_float(v) for t, v in zip(program.trainable, values)]
    n_in = program.num_inputs
    in_avals = [v.aval for v in program.jaxpr.jaxpr.invars[len(values):len(values) + n_in]]
    in_sh = [NamedSharding(mesh, s) for s in plan.input_specs]
    state_sh = [[s for s, t in zip(value_sh, trained) if t] for _ in range(optimizer_states)]
    n_out = program.num_outputs

    def forward(vals: list[Any], flat: list[Any]) -> tuple[Any, list[Any]]:
        outs = run_plan(plan, vals, flat)
        loss = outs[0] if outs[0].ndim == 0 else jnp.sum(outs[0])
        return loss, outs[n_out:]

    def step(vals: list[Any], states: list[list[Any]], flat: list[Any]) -> Any:
        if not training:
            loss, new = forward(vals, flat)
            return loss, new, states

        def loss_of(train_vals: list[Any]) -> tuple[Any, list[Any]]:
            it = iter(train_vals)
            merged = [next(it) if t else v for v, t in zip(vals, trained)]
            return forward(merged, flat)

        (loss, new), grads = jax.value_and_grad(loss_of, has_aux=True)(
            [v for v, t in zip(vals, trained) if t])
        new_states = [[0.9 * s + g for s, g in zip(group, grads)] for group in states]
        update = grads if not new_states else [sum(parts) for parts in zip(*new_states)]
        it = iter(update)
        new = [v - 0.01 * next(it) if t else n for v, n, t in zip(vals, new, trained)]
        return loss, new, new_states

    def struct(x: Any, sharding: NamedSharding) -> jax.ShapeDtypeStruct:
        return jax.ShapeDtypeStruct(tuple(x.shape), x.dtype, sharding=sharding)

    replicated = NamedSharding(mesh, PartitionSpec())
    jitted = jax.jit(step, in_shardings=(value_sh, state_sh, in_sh),
                     out_shardings=(replicated, value_sh, state_sh))
    args = ([struct(v, s) for v, s in zip(values, value_sh)],
            [[struct(v, s) for v, s, t in zip(values, value_sh, trained) if t]
             for _ in range(optimizer_states)],
            [struct(a, s) for a, s in zip(in_avals, in_sh)])
    return jitted.lower(*args)


def measured_seconds(report: dict[str, Any], model: CostModel) -> float:
    """The step time of a compiled program by the cost model's constants.

    Compute is XLA's per-device flops over ``model.flops_per_second``; each
    collective costs ``alpha`` per ring step and ``beta`` per byte moved, with
    its steps and bytes as :func:`~mindjax.parallel.auto.hlo.collective_stats`
    read them from the HLO.
    """
    alpha = model.alpha if not isinstance(model.alpha, dict) else max(model.alpha.values())
    beta = model.beta if not isinstance(model.beta, dict) else max(model.beta.values())
    col = report["collectives"]["total"]
    return report["flops"] / model.flops_per_second + alpha * col.get("steps", 0) + beta * col["bytes"]
