"""Reading the ``.xplane.pb`` that ``jax.profiler`` writes: its events and the HLO of its programs.

An XSpace is TensorFlow/XLA's profile format (``tsl/profiler/protobuf/xplane.proto``):
planes (``/host:CPU``, ``/device:GPU:0``, ``/host:metadata``) of lines (threads,
streams) of timed events, whose names and stats are interned in per-plane
metadata tables. With ``enable_hlo_proto`` (JAX's default) the metadata plane also
holds each executed program's ``HloProto``, where every instruction carries its
``op_name``: the ``jax.named_scope`` stack, i.e. the Cell paths.

The message types are declared here with protobuf's descriptor API, only the
fields read (field numbers as in ``xplane.proto`` and ``hlo.proto``); unknown
fields are skipped by the wire format, so newer files read as well.
"""
from __future__ import annotations

import dataclasses
from typing import Any, Iterator

from google.protobuf import descriptor_pb2, descriptor_pool, message_factory

_T = descriptor_pb2.FieldDescriptorProto
_SCALARS = {"int64": _T.TYPE_INT64, "uint64": _T.TYPE_UINT64, "double": _T.TYPE_DOUBLE,
            "string": _T.TYPE_STRING, "bytes": _T.TYPE_BYTES}

# message -> [(field name, number, type, repeated)]; a type that is not a scalar is a message here.
_SCHEMA: dict[str, list[tuple[str, int, str, bool]]] = {
    "XSpace": [("planes", 1, "XPlane", True), ("hostnames", 4, "string", True)],
    "XPlane": [("id", 1, "int64", False), ("name", 2, "string", False), ("lines", 3, "XLine", True),
               ("event_metadata", 4, "EventMetadataEntry", True), ("stat_metadata", 5, "StatMetadataEntry", True),
               ("stats", 6, "XStat", True)],
    "EventMetadataEntry": [("key", 1, "int64", False), ("value", 2, "XEventMetadata", False)],
    "StatMetadataEntry": [("key", 1, "int64", False), ("value", 2, "XStatMetadata", False)],
    "XLine": [("id", 1, "int64", False), ("name", 2, "string", False), ("timestamp_ns", 3, "int64", False),
              ("events", 4, "XEvent", True), ("display_name", 11, "string", False)],
    "XEvent": [("metadata_id", 1, "int64", False), ("offset_ps", 2, "int64", False),
               ("duration_ps", 3, "int64", False), ("stats", 4, "XStat", True)],
    "XStat": [("metadata_id", 1, "int64", False), ("double_value", 2, "double", False),
              ("uint64_value", 3, "uint64", False), ("int64_value", 4, "int64", False),
              ("str_value", 5, "string", False), ("bytes_value", 6, "bytes", False),
              ("ref_value", 7, "uint64", False)],
    "XEventMetadata": [("id", 1, "int64", False), ("name", 2, "string", False), ("metadata", 3, "bytes", False),
                       ("display_name", 4, "string", False), ("stats", 5, "XStat", True)],
    "XStatMetadata": [("id", 1, "int64", False), ("name", 2, "string", False)],
    "HloProto": [("hlo_module", 1, "HloModuleProto", False)],
    "HloModuleProto": [("name", 1, "string", False), ("computations", 3, "HloComputationProto", True),
                       ("id", 5, "int64", False)],
    "HloComputationProto": [("name", 1, "string", False), ("instructions", 2, "HloInstructionProto", True)],
    "HloInstructionProto": [("name", 1, "string", False), ("opcode", 2, "string", False),
                            ("metadata", 7, "OpMetadata", False)],
    "OpMetadata": [("op_type", 1, "string", False), ("op_name", 2, "string", False)],
}
_PACKAGE = "mindjax_profiler_xplane"
_CLASSES: dict[str, Any] = {}


def _message_class(name: str) -> Any:
    if not _CLASSES:
        proto = descriptor_pb2.FileDescriptorProto(name=f"{_PACKAGE}.proto", package=_PACKAGE, syntax="proto3")
        for message, fields in _SCHEMA.items():
            desc = proto.message_type.add(name=message)
            for field, number, kind, repeated in fields:
                entry = desc.field.add(name=field, number=number,
                                       label=_T.LABEL_REPEATED if repeated else _T.LABEL_OPTIONAL)
                if kind in _SCALARS:
                    entry.type = _SCALARS[kind]
                else:
                    entry.type, entry.type_name = _T.TYPE_MESSAGE, f".{_PACKAGE}.{kind}"
        pool = descriptor_pool.DescriptorPool()
        pool.Add(proto)
        for message in _SCHEMA:
            _CLASSES[message] = message_factory.GetMessageClass(pool.FindMessageTypeByName(f"{_PACKAGE}.{message}"))
    return _CLASSES[name]


@dataclasses.dataclass
class TraceEvent:
    """One timed event of a trace.

    Attributes:
        plane: the plane's name (``/host:CPU``, ``/device:GPU:0``).
        line: the line's (thread's or stream's) name.
        name: the event's name.
        start_ns: start, in ns since the epoch.
        duration_ns: duration in ns.
        stats: the event's stats (metadata stats first, the event's own override them).
    """

    plane: str
    line: str
    name: str
    start_ns: float
    duration_ns: float
    stats: dict[str, Any]


@dataclasses.dataclass
class XSpace:
    """A parsed ``.xplane.pb``: its events and, per program, ``{instruction name: op_name}``."""

    events: list[TraceEvent]
    op_names_by_program: dict[int, dict[str, str]]
    op_names_by_module: dict[str, dict[str, str]]


def _stat_value(stat: Any, names: dict[int, str]) -> Any:
    # The value is a oneof in xplane.proto; declared flat here, the one set is the one not zero.
    if stat.ref_value:  # a string interned in the plane's stat metadata
        return names.get(stat.ref_value, "")
    if stat.str_value:
        return stat.str_value
    if stat.bytes_value:
        return stat.bytes_value
    if stat.int64_value:
        return stat.int64_value
    if stat.uint64_value:
        return stat.uint64_value
    if stat.double_value:
        return stat.double_value
    return 0


def _stats(stats: Any, names: dict[int, str]) -> dict[str, Any]:
    return {names.get(s.metadata_id, str(s.metadata_id)): _stat_value(s, names) for s in stats}


def _hlo_op_names(serialized: bytes) -> tuple[str, int, dict[str, str]]:
    hlo = _message_class("HloProto")()
    hlo.ParseFromString(serialized)
    module = hlo.hlo_module
    names = {inst.name: inst.metadata.op_name for comp in module.computations for inst in comp.instructions
             if inst.metadata.op_name}
    return module.name, module.id, names


def read_xspace(path: str) -> XSpace:
    """Parse the ``.xplane.pb`` at ``path``.

    Arguments:
        path: the file ``jax.profiler.stop_trace`` wrote.

    Returns:
        its events (all planes) and the op names of the HLO programs it holds.
    """
    space = _message_class("XSpace")()
    with open(path, "rb") as f:
        space.ParseFromString(f.read())
    events: list[TraceEvent] = []
    by_program: dict[int, dict[str, str]] = {}
    by_module: dict[str, dict[str, str]] = {}
    for plane in space.planes:
        stat_names = {entry.key: entry.value.name for entry in plane.stat_metadata}
        metadata = {entry.key: entry.value for entry in plane.event_metadata}
        for meta in metadata.values():
            program_id, hlo = None, None
            for stat in meta.stats:
                stat_name = stat_names.get(stat.metadata_id)
                if stat_name in ("Hlo Proto", "hlo_proto") and stat.bytes_value:
                    hlo = stat.bytes_value
                elif stat_name == "program_id":
                    program_id = stat.int64_value or stat.uint64_value
            if hlo is not None:
                module, module_id, names = _hlo_op_names(hlo)
                by_program[program_id if program_id is not None else module_id] = names
                by_module.setdefault(module, {}).update(names)
        meta_stats = {key: _stats(meta.stats, stat_names) for key, meta in metadata.items() if meta.stats}
        for line in plane.lines:
            line_name = line.display_name or line.name
            for event in line.events:
                meta = metadata.get(event.metadata_id)
                stats = dict(meta_stats.get(event.metadata_id, ()))
                stats.update(_stats(event.stats, stat_names))
                events.append(TraceEvent(plane.name, line_name, (meta.display_name or meta.name) if meta else "",
                                         line.timestamp_ns + event.offset_ps / 1000.0,
                                         event.duration_ps / 1000.0, stats))
    return XSpace(events, by_program, by_module)


def iter_cell_annotations(space: XSpace) -> Iterator[TraceEvent]:
    """The events MindJAX's profiler recorded around Cell calls (they carry a ``cell`` stat)."""
    return (e for e in space.events if "cell" in e.stats)
