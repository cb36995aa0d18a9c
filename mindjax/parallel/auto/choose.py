"""Choosing among candidate plans by what XLA compiles, not only by what the model predicts.

The cost model cannot see everything GSPMD does (a reshard it carries out by
copying a value whole, temporaries kept alive across the backward pass), so
the automatic plan is chosen in two stages:

1. candidates: the free search, and for each run of leading mesh axes ``D``
   the search with the batch split over ``D`` and the other axes left to the
   cost model (``D`` = every axis is data parallelism; ``D`` = the first axis
   of a 2x4 mesh is where Megatron-style tensor parallelism comes from), each
   also at a higher price of memory (the next point of the model's
   memory/time frontier). The fallbacks are the same plans with only their
   Parameters and inputs constrained (GSPMD lays out the rest, often in less
   memory and more time) and ``+zero`` variants whose Parameters are split
   over ``D`` as well (ZeRO-3/FSDP within the data-parallel group);
2. verification: each distinct candidate's training step is compiled (not
   run) and its per-device peak memory, collectives and flops are read back
   (:func:`.verify.measure_plan`). The fallbacks are compiled only when no
   candidate fits the memory budget, and a plan whose *modelled* memory is
   over :data:`MODEL_MEMORY_MARGIN` times the budget is not compiled at all
   (compiling is most of the cost of choosing). The chosen plan is the
   fastest by the cost model's constants applied to the *measured* flops and
   collectives among those whose measured peak fits the memory budget; when
   none fits, the leanest.

The memory budget, unless given, is :data:`DEVICE_MEMORY_FRACTION` of the
device's memory when the device reports it (``bytes_limit`` of
``memory_stats()``, as on GPU and TPU), else there is none (CPU devices
report no limit).
"""
from __future__ import annotations

import dataclasses
from typing import Any, Sequence

from jax.sharding import PartitionSpec

from mindjax.parallel.auto.cost import CostModel
from mindjax.parallel.auto.verify import measure_plans, measured_seconds

__all__ = ["DEVICE_MEMORY_FRACTION", "MODEL_MEMORY_MARGIN", "default_memory_budget", "zero_specs",
           "choose_verified"]

DEVICE_MEMORY_FRACTION = 0.9
"""The share of a device's reported memory the plan may use (the rest: runtime, fragmentation)."""

MODEL_MEMORY_MARGIN = 1.5
"""A plan modelled at more than this times the budget is not compiled. The model
counts Parameters, gradients, optimizer state and matmul operands; XLA's peak
also holds temporaries the model does not see, and measured 0.9 to 1.45 times
the modelled memory on the benchmarks' plans."""


def default_memory_budget(mesh: Any) -> float | None:
    """The per-device budget: :data:`DEVICE_MEMORY_FRACTION` of the smallest reported device memory.

    Returns:
        bytes, or None when the devices report no memory limit (CPU).
    """
    limits = []
    for device in mesh.devices.flat:
        try:
            stats = device.memory_stats()
        except Exception:  # noqa: BLE001 - backends without memory statistics
            stats = None
        if not stats or not stats.get("bytes_limit"):
            return None
        limits.append(float(stats["bytes_limit"]))
    return DEVICE_MEMORY_FRACTION * min(limits) if limits else None


def zero_specs(param_specs: dict[str, PartitionSpec], shapes: dict[str, tuple[int, ...]],
               axes: Sequence[str], mesh_sizes: dict[str, int]) -> dict[str, PartitionSpec]:
    """Parameter layouts with ``axes`` added as well (ZeRO-3 within the data-parallel group).

    Each Parameter gets the axes on its largest dimension whose size divides
    by the existing split times the group size; a Parameter with no such
    dimension keeps its layout.
    """
    group = 1
    for a in axes:
        group *= mesh_sizes[a]
    out: dict[str, PartitionSpec] = {}
    for name, spec in param_specs.items():
        shape = shapes[name]
        entries = [spec[k] if k < len(spec) else None for k in range(len(shape))]
        if any(a in _names(e) for e in entries for a in axes):
            out[name] = spec
            continue
        for k in sorted(range(len(shape)), key=lambda k: -shape[k]):
            have = _names(entries[k])
            split = 1
            for a in have:
                split *= mesh_sizes[a]
            if shape[k] % (split * group) == 0:
                names = have + tuple(axes)
                entries[k] = names[0] if len(names) == 1 else names
                break
        out[name] = PartitionSpec(*entries)
    return out


def _names(entry: Any) -> tuple[str, ...]:
    if entry is None:
        return ()
    return tuple(entry) if isinstance(entry, (tuple, list)) else (entry,)


def _key(plan: Any) -> Any:
    return (tuple(sorted((k, str(v)) for k, v in plan.param_specs.items())),
            tuple(str(s) for s in plan.input_specs), bool(plan.value_specs.keys()
                                                          - set(plan.program.jaxpr.jaxpr.invars)))


def _distinct(plans: Sequence[Any], exclude: set[Any] = frozenset()) -> list[Any]:
    seen: dict[Any, Any] = {}
    for plan in plans:
        key = _key(plan)
        if key not in exclude:
            seen.setdefault(key, plan)
    return list(seen.values())


def _verify(plans: Sequence[Any], model: CostModel, budget: float | None, optimizer_states: int,
            training: bool) -> list[dict[str, Any]]:
    rows = []
    for plan, report in zip(plans, measure_plans(plans, optimizer_states, training)):
        plan.measured = report
        peak = report["peak_bytes"]
        rows.append({"label": plan.label, "peak_bytes": peak,
                     "modelled_bytes": plan.result.memory_bytes,
                     "comm_bytes": report["collectives"]["total"]["bytes"],
                     "seconds": measured_seconds(report, model),
                     "fits": budget is None or peak <= budget, "plan": plan})
    return rows


def choose_verified(candidates: Sequence[Any], model: CostModel, budget: float | None,
                    optimizer_states: int, training: bool = True,
                    fallbacks: Sequence[Any] = ()) -> Any:
    """Compile the distinct candidates and return the best by the measured numbers.

    Arguments:
        candidates: :class:`~mindjax.parallel.auto.plan.Plan` objects, always compiled
            (unless modelled far over the budget, see :data:`MODEL_MEMORY_MARGIN`).
        model: machine constants for pricing the measured collectives and flops.
        budget: per-device bytes the measured peak must fit in (None: no limit).
        optimizer_states: arrays the optimizer keeps per trainable Parameter.
        training: compile the training step (else the forward only).
        fallbacks: plans compiled only when no candidate fits the budget.

    Returns:
        the chosen plan, with ``measured`` set, ``candidates`` listing every
        verified plan (``label``, ``peak_bytes``, ``modelled_bytes``,
        ``comm_bytes``, ``seconds``, ``fits``) and ``skipped`` the labels of
        those not compiled.
    """
    first = _distinct(candidates)
    second = _distinct(fallbacks, {_key(p) for p in first})
    skipped: list[str] = []
    if budget is not None:
        limit = MODEL_MEMORY_MARGIN * budget
        leanest = min(first + second, key=lambda p: p.result.memory_bytes)
        over = {id(p) for p in first + second if p.result.memory_bytes > limit and p is not leanest}
        skipped = [p.label for p in first + second if id(p) in over]
        first = [p for p in first if id(p) not in over]
        second = [p for p in second if id(p) not in over]
        if not first:
            first, second = second, []
    rows = _verify(first, model, budget, optimizer_states, training)
    if second and not any(r["fits"] for r in rows):
        rows += _verify(second, model, budget, optimizer_states, training)
    else:
        skipped += [p.label for p in second]
    fitting = [r for r in rows if r["fits"]]
    if fitting:
        best = min(fitting, key=lambda r: (r["seconds"], r["peak_bytes"]))
    else:
        best = min(rows, key=lambda r: (r["peak_bytes"], r["seconds"]))
    table = [{k: v for k, v in r.items() if k != "plan"} for r in rows]
    chosen = best["plan"]
    return dataclasses.replace(chosen, candidates=table, memory_budget=budget, skipped=skipped)
