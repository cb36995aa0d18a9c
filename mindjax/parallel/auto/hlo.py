"""Reading a compiled program back: collectives in the HLO, XLA's cost and memory analyses.

Bytes are counted per device with the same ring formulas as the cost model
(:class:`~mindjax.parallel.auto.cost.CostModel`), so a plan's modelled
communication and the compiled program's can be compared directly.

Example:
    >>> compiled = jax.jit(f).lower(x).compile()              # doctest: +SKIP
    >>> collective_stats(compiled.as_text())["all-reduce"]    # doctest: +SKIP
    {'count': 1, 'bytes': 57344.0, 'steps': 14}
"""
from __future__ import annotations

import re
from typing import Any

import numpy as np

__all__ = ["collective_stats", "xla_report"]

_KINDS = ("all-reduce", "all-gather", "reduce-scatter", "all-to-all", "collective-permute")
_LINE = re.compile(r"^\s*(?:ROOT\s+)?%?[\w.\-]+\s*=\s*(?P<shape>.*?)\s(?P<kind>all-reduce|all-gather|"
                   r"reduce-scatter|all-to-all|collective-permute)(?:-start)?\(")
_ARRAY = re.compile(r"(pred|[subf]\d+|bf16|f8\w*|c64|c128)\[([\d,]*)\]")
_DTYPE_BYTES = {"pred": 1, "bf16": 2, "c64": 8, "c128": 16}


def _bytes_of(shape_text: str) -> float:
    total = 0.0
    for dtype, dims in _ARRAY.findall(shape_text):
        size = int(np.prod([int(d) for d in dims.split(",") if d])) if dims else 1
        width = _DTYPE_BYTES.get(dtype)
        if width is None:
            width = max(1, int(re.sub(r"\D", "", dtype) or 32) // 8)
        total += size * width
    return total


def _group_size(line: str, default: int) -> int:
    iota = re.search(r"replica_groups=\[(\d+),(\d+)\]", line)
    if iota:
        return int(iota.group(2))
    explicit = re.search(r"replica_groups=\{\{([\d,]*)\}", line)
    if explicit:
        return len([t for t in explicit.group(1).split(",") if t])
    pairs = re.search(r"source_target_pairs=\{(.*?)\}\}", line)
    if pairs:
        return 2
    return default


def collective_stats(hlo_text: str, num_devices: int = 8) -> dict[str, dict[str, float]]:
    """Count the collectives of a compiled HLO module and the bytes each device moves.

    Arguments:
        hlo_text: ``compiled.as_text()``.
        num_devices: the group size assumed when the HLO gives none.

    Returns:
        ``{kind: {"count": n, "bytes": per-device bytes, "steps": ring steps}}`` for all-reduce,
        all-gather, reduce-scatter, all-to-all and collective-permute, plus
        ``"total"``.
    """
    stats = {k: {"count": 0, "bytes": 0.0, "steps": 0} for k in _KINDS}
    for line in hlo_text.splitlines():
        if "-done" in line.split("=")[-1][:40]:
            continue
        m = _LINE.search(line)
        if not m:
            continue
        kind = m.group("kind")
        result = _bytes_of(m.group("shape"))
        n = _group_size(line, num_devices)
        if n <= 1:
            continue
        frac = (n - 1) / n
        steps = n - 1
        if kind == "all-reduce":
            moved, steps = 2 * frac * result, 2 * (n - 1)
        elif kind == "reduce-scatter":
            moved = (n - 1) * result
        elif kind == "collective-permute":
            moved, steps = result, 1
        else:
            moved = frac * result
        stats[kind]["count"] += 1
        stats[kind]["bytes"] += moved
        stats[kind]["steps"] += steps
    stats["total"] = {key: sum(s[key] for s in stats.values()) for key in ("count", "bytes", "steps")}
    return stats


def xla_report(compiled: Any, num_devices: int = 8) -> dict[str, Any]:
    """XLA's own view of a compiled (partitioned) program.

    Arguments:
        compiled: ``jax.jit(...).lower(...).compile()``.
        num_devices: see :func:`collective_stats`.

    Returns:
        ``{"flops": per-device flops, "argument_bytes", "output_bytes",
        "temp_bytes", "peak_bytes" (arguments + outputs + temporaries - aliased),
        "collectives": collective_stats(...)}``.
    """
    cost = compiled.cost_analysis()
    if isinstance(cost, (list, tuple)):
        cost = cost[0] if cost else {}
    mem = compiled.memory_analysis()
    arg = float(getattr(mem, "argument_size_in_bytes", 0))
    out = float(getattr(mem, "output_size_in_bytes", 0))
    temp = float(getattr(mem, "temp_size_in_bytes", 0))
    alias = float(getattr(mem, "alias_size_in_bytes", 0))
    return {"flops": float((cost or {}).get("flops", 0.0)), "argument_bytes": arg,
            "output_bytes": out, "temp_bytes": temp, "peak_bytes": arg + out + temp - alias,
            "collectives": collective_stats(compiled.as_text(), num_devices)}
