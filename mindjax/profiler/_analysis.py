"""Per-Cell times from a recorded trace: the tables ``Profiler.analyse()`` writes.

Two sources, both in the ``.xplane.pb``:

- **XLA ops** that ran (events with ``hlo_op``/``hlo_module`` stats: thunks on
  XLA:CPU, kernels on GPU). Each is mapped, through its program's HLO, to the
  op's ``op_name``, the ``jax.named_scope`` stack under which it was traced:
  every Cell call opens a scope named by the Cell's path, so the innermost
  scope is the Cell that issued the op. Ops under ``transpose(...)`` belong to
  the backward pass. This covers compiled programs (GRAPH mode, ``Model.train``,
  ``ms.jit``).
- **Cell annotations**: while a profiler records, each Cell call is also a
  host event (``jax.profiler.TraceAnnotation``) carrying the Cell's class. In
  PYNATIVE mode it spans the call as run; in a compiled call, the trace of it.

Times are in milliseconds. ``device_ms`` is inclusive (the Cell and the Cells
below it), ``self_ms`` is the ops whose innermost Cell is this one.
"""
from __future__ import annotations

import bisect
import collections
import csv
import dataclasses
import gzip
import json
import os
import re
from typing import Any, Iterable

from mindjax.profiler._xplane import TraceEvent, XSpace, iter_cell_annotations

CELL_TABLE = "cell_statistic.csv"
OP_TABLE = "op_statistic.csv"
TIMELINE = "trace_view.json"
CELL_COLUMNS = ["cell", "type", "calls", "host_ms", "trace_ms", "device_ms", "self_ms", "forward_ms",
                "backward_ms", "ops", "device_share_pct"]
OP_COLUMNS = ["op", "cell", "program", "phase", "count", "total_ms", "avg_us"]
NO_CELL = "(no Cell)"

# JAX's own name-stack entries that are not user scopes (control flow, autodiff and remat wrappers).
_STRUCTURAL = re.compile(r"^(while|body|cond|scan|remat|checkpoint|rematted_computation|branch_\d+(_fun)?|"
                         r"custom_jvp_call|custom_vjp_call|custom_vjp_call_jaxpr|pure_callback|io_callback|"
                         r"shard_map|closed_call|core_call|named|jvp|vmap|transpose|pjit|jit)$")
_WRAPPER = re.compile(r"^([A-Za-z_][\w.]*)\((.*)\)$")


@dataclasses.dataclass
class _CellRow:
    type: str = ""
    calls: int = 0
    host_ns: float = 0.0
    trace_ns: float = 0.0
    device_ns: float = 0.0
    self_ns: float = 0.0
    forward_ns: float = 0.0
    backward_ns: float = 0.0
    ops: int = 0


def _split_scopes(op_name: str) -> list[str]:
    parts, depth, current = [], 0, []
    for ch in op_name:
        if ch == "/" and depth == 0:
            parts.append("".join(current))
            current = []
            continue
        depth += ch == "("
        depth -= ch == ")"
        current.append(ch)
    parts.append("".join(current))
    return parts


def cell_scopes(op_name: str) -> tuple[list[str], bool]:
    """The user scopes (Cell paths) of an HLO ``op_name``, outermost first, and whether it is backward.

    ``jit(step)/transpose(jvp(Net))/fc1/dot_general`` gives ``(["Net", "fc1"], True)``:
    program names (``jit(...)``) and JAX's structural entries are dropped, transform
    wrappers are unwrapped, and the last entry (the primitive) is not a scope.
    """
    scopes, backward = [], False
    for part in _split_scopes(op_name)[:-1]:
        program = False
        while True:
            match = _WRAPPER.match(part)
            if not match:
                break
            wrapper, part = match.group(1), match.group(2)
            backward |= wrapper == "transpose"
            program |= wrapper in ("jit", "pjit")
        if part and not program and not _STRUCTURAL.match(part):
            scopes.append(part)
    return scopes, backward


def _xla_op_events(space: XSpace) -> list[TraceEvent]:
    ops = [e for e in space.events if "hlo_op" in e.stats and "hlo_module" in e.stats and e.duration_ns > 0]
    device = [e for e in ops if e.plane.startswith("/device:")]
    return device or ops  # on an accelerator the host's launch events would count twice


def _op_name(space: XSpace, event: TraceEvent) -> str:
    names = space.op_names_by_program.get(event.stats.get("program_id"))
    if names is None:
        names = space.op_names_by_module.get(str(event.stats["hlo_module"]), {})
    return names.get(str(event.stats["hlo_op"]), "")


class _HostNesting:
    """Which Cell calls (host annotations) enclose a moment on a thread: for eager (PYNATIVE) ops,
    whose programs carry no Cell scope, the Cell is the call that was running when they ran."""

    def __init__(self, annotations: Iterable[TraceEvent]) -> None:
        self._by_line: dict[tuple[str, str], tuple[list[float], list[TraceEvent], list[int]]] = {}
        grouped: dict[tuple[str, str], list[TraceEvent]] = collections.defaultdict(list)
        for event in annotations:
            grouped[(event.plane, event.line)].append(event)
        for key, events in grouped.items():
            events.sort(key=lambda e: (e.start_ns, -e.duration_ns))
            parents, stack = [], []
            for i, event in enumerate(events):
                end = event.start_ns + event.duration_ns
                while stack and events[stack[-1]].start_ns + events[stack[-1]].duration_ns < end:
                    stack.pop()
                parents.append(stack[-1] if stack else -1)
                stack.append(i)
            self._by_line[key] = ([e.start_ns for e in events], events, parents)

    def scopes(self, event: TraceEvent) -> list[str]:
        """The paths of the Cell calls enclosing ``event`` on its thread, outermost first ([] if none)."""
        found = self._by_line.get((event.plane, event.line))
        if found is None:
            return []
        starts, events, parents = found
        i = bisect.bisect_right(starts, event.start_ns) - 1
        end = event.start_ns + event.duration_ns
        while i >= 0 and events[i].start_ns + events[i].duration_ns < end:
            i = parents[i]
        chain = []
        while i >= 0:
            chain.append(events[i].name)
            i = parents[i]
        return chain[::-1]


def cell_table(space: XSpace) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The per-Cell rows and the per-op rows of one recorded trace (dicts keyed by the columns)."""
    rows: dict[str, _CellRow] = collections.defaultdict(_CellRow)
    for event in iter_cell_annotations(space):
        row = rows[event.name]
        row.type = str(event.stats.get("cell", row.type))
        row.calls += 1
        if event.stats.get("phase") == "trace":
            row.trace_ns += event.duration_ns
        else:
            row.host_ns += event.duration_ns
    per_op: dict[tuple[str, str, str, str], list[float]] = collections.defaultdict(lambda: [0, 0.0])
    total_device = 0.0
    nesting = _HostNesting(iter_cell_annotations(space))
    for event in _xla_op_events(space):
        scopes, backward = cell_scopes(_op_name(space, event))
        scopes = scopes or nesting.scopes(event)
        duration = event.duration_ns
        total_device += duration
        innermost = scopes[-1] if scopes else NO_CELL
        for scope in dict.fromkeys(scopes or [NO_CELL]):
            row = rows[scope]
            row.device_ns += duration
            row.ops += 1
            if backward:
                row.backward_ns += duration
            else:
                row.forward_ns += duration
        rows[innermost].self_ns += duration
        key = (str(event.stats["hlo_op"]), innermost, str(event.stats["hlo_module"]),
               "backward" if backward else "forward")
        per_op[key][0] += 1
        per_op[key][1] += duration
    cells = [{"cell": name, "type": row.type, "calls": row.calls, "host_ms": row.host_ns / 1e6,
              "trace_ms": row.trace_ns / 1e6, "device_ms": row.device_ns / 1e6, "self_ms": row.self_ns / 1e6,
              "forward_ms": row.forward_ns / 1e6, "backward_ms": row.backward_ns / 1e6, "ops": row.ops,
              "device_share_pct": 100.0 * row.device_ns / total_device if total_device else 0.0}
             for name, row in rows.items()]
    cells.sort(key=lambda r: (-r["device_ms"], -r["host_ms"], -r["trace_ms"], r["cell"]))
    ops = [{"op": op, "cell": cell, "program": program, "phase": phase, "count": count, "total_ms": total / 1e6,
            "avg_us": total / count / 1e3}
           for (op, cell, program, phase), (count, total) in per_op.items()]
    ops.sort(key=lambda r: -r["total_ms"])
    return cells, ops


def _write_csv(path: str, columns: list[str], rows: Iterable[dict[str, Any]]) -> None:
    tmp = path + ".tmp"
    with open(tmp, "w", newline="", encoding="utf-8") as f:
        writer = csv.DictWriter(f, fieldnames=columns)
        writer.writeheader()
        for row in rows:
            writer.writerow({k: (f"{v:.4f}" if isinstance(v, float) else v) for k, v in row.items()})
    os.replace(tmp, path)  # atomic: a reader never sees half a table


def write_timeline(space: XSpace, path: str) -> None:
    """A Chrome/Perfetto trace (``trace_view.json``) of the XLA ops and Cell calls, ops named by their Cell."""
    events, pids, tids = [], {}, {}
    starts = [e.start_ns for e in space.events if e.duration_ns > 0]
    origin = min(starts) if starts else 0.0
    ops = set(map(id, _xla_op_events(space)))
    for event in space.events:
        is_op, is_cell = id(event) in ops, "cell" in event.stats
        if not (is_op or is_cell):
            continue
        pid = pids.setdefault(event.plane, len(pids) + 1)
        tid = tids.setdefault((event.plane, event.line), len(tids) + 1)
        if is_op:
            scopes, backward = cell_scopes(_op_name(space, event))
            args = {"cell": scopes[-1] if scopes else NO_CELL, "scope": "/".join(scopes),
                    "hlo_op": str(event.stats["hlo_op"]), "program": str(event.stats["hlo_module"]),
                    "phase": "backward" if backward else "forward"}
            name = f"{args['cell']}: {args['hlo_op']}"
        else:
            args = {"type": str(event.stats.get("cell")), "phase": str(event.stats.get("phase", "host"))}
            name = event.name
        events.append({"ph": "X", "name": name, "pid": pid, "tid": tid, "ts": (event.start_ns - origin) / 1e3,
                       "dur": event.duration_ns / 1e3, "args": args})
    events += [{"ph": "M", "name": "process_name", "pid": pid, "args": {"name": plane}} for plane, pid in pids.items()]
    events += [{"ph": "M", "name": "thread_name", "pid": pids[plane], "tid": tid, "args": {"name": line}}
               for (plane, line), tid in tids.items()]
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump({"displayTimeUnit": "ms", "traceEvents": events}, f)
    os.replace(tmp, path)


def write_tables(space: XSpace, directory: str) -> tuple[list[dict[str, Any]], str]:
    """Write ``cell_statistic.csv``, ``op_statistic.csv`` and ``trace_view.json`` into ``directory``.

    Returns:
        the per-Cell rows and the printed summary text.
    """
    cells, ops = cell_table(space)
    _write_csv(os.path.join(directory, CELL_TABLE), CELL_COLUMNS, cells)
    _write_csv(os.path.join(directory, OP_TABLE), OP_COLUMNS, ops)
    write_timeline(space, os.path.join(directory, TIMELINE))
    return cells, summary(cells, directory)


def summary(cells: list[dict[str, Any]], directory: str, limit: int = 20) -> str:
    """The per-Cell table as fixed-width text (the ``limit`` costliest Cells)."""
    header = f"{'Cell':<40} {'type':<22} {'calls':>6} {'host ms':>9} {'trace ms':>9} {'device ms':>10} " \
             f"{'self ms':>9} {'bwd ms':>9} {'share':>7}"
    lines = [f"MindJAX profile: per-Cell time ({directory})", header, "-" * len(header)]
    for row in cells[:limit]:
        lines.append(f"{row['cell'][:40]:<40} {row['type'][:22]:<22} {row['calls']:>6} {row['host_ms']:>9.3f} "
                     f"{row['trace_ms']:>9.3f} {row['device_ms']:>10.3f} {row['self_ms']:>9.3f} "
                     f"{row['backward_ms']:>9.3f} {row['device_share_pct']:>6.1f}%")
    if len(cells) > limit:
        lines.append(f"... {len(cells) - limit} more in {CELL_TABLE}")
    return "\n".join(lines)


def read_perfetto_names(path: str) -> set[str]:
    """The event names of a Chrome/Perfetto json trace (``.json`` or ``.json.gz``)."""
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8") as f:
        data = json.load(f)
    events = data["traceEvents"] if isinstance(data, dict) else data
    return {e.get("name", "") for e in events}
