"""MindJAX's MindRecord file format: what :class:`FileWriter` writes and ``MindDataset`` reads.

MindSpore's MindRecord is a paged binary format of its C++ core. MindJAX keeps
its API (schema types, shards, index fields, the ``.db`` index file) with a
simpler layout of its own, so files round-trip within MindJAX but are **not
byte-compatible** with MindSpore's. Nothing in a file is ever unpickled: the
header is JSON, every value is raw bytes interpreted through the schema.

One shard file::

    b"MJXMREC1"                                 magic
    record 0, record 1, ...                     one per row
    int64 little-endian offsets[rows + 1]       where each record starts (last: end)
    header JSON (utf-8)                         schema, desc, index fields, shard list
    uint64 header length, uint64 rows, b"MJXMREND"

A record holds the schema's fields in sorted name order, each as a uint64
byte length and the bytes: a scalar in its schema dtype, a string in utf-8,
bytes as given, an array flattened (C order) in its schema dtype (its shape
comes back from the schema, with ``-1`` resolved from the length).
"""
from __future__ import annotations

import json
import mmap
import os
import re
import struct
from typing import Any

import numpy as np

from mindjax.mindrecord.common.exceptions import MRMInvalidSchemaError

__all__ = ["MAGIC", "FORMAT_VERSION", "check_schema", "encode_record", "ShardFile", "write_footer",
           "is_blob_field", "SCALAR_TYPES", "ARRAY_TYPES"]

MAGIC = b"MJXMREC1"
_END = b"MJXMREND"
_TAIL = struct.Struct("<QQ8s")
_LEN = struct.Struct("<Q")
FORMAT_VERSION = 1
SCALAR_TYPES = ("int32", "int64", "float32", "float64", "string", "bytes")
ARRAY_TYPES = ("int32", "int64", "float32", "float64")
# Which schema types a Python value may fill, by its type's name (MindSpore's VALUE_TYPE_MAP).
_VALUE_TYPES = {"int": ("int32", "int64"), "float": ("float32", "float64"), "str": ("string",), "str_": ("string",),
                "bytes": ("bytes",), "bytes_": ("bytes",), "int32": ("int32",), "int64": ("int64",),
                "float32": ("float32",), "float64": ("float64",)}
_FIELD_NAME = re.compile(r"^[0-9a-zA-Z_]+$")


def check_schema(content: Any) -> dict[str, dict[str, Any]]:
    """Validate a schema as MindSpore's ``FileWriter.add_schema`` does and return it with sorted keys.

    Raises:
        MRMInvalidSchemaError: naming the field and what is wrong.
    """
    if not content:
        raise MRMInvalidSchemaError("Schema content is empty.")
    if not isinstance(content, dict):
        raise MRMInvalidSchemaError("Schema content should be dict.")
    out: dict[str, dict[str, Any]] = {}
    for name in sorted(content):
        spec = content[name]
        if not isinstance(name, str) or not _FIELD_NAME.match(name):
            raise MRMInvalidSchemaError(f"Field '{name}' should be composed of '0-9' or 'a-z' or 'A-Z' or '_'.")
        if not spec or not isinstance(spec, dict):
            raise MRMInvalidSchemaError(f"Field '{name}' should be dict.")
        if set(spec) == {"type"}:
            if spec["type"] not in SCALAR_TYPES:
                raise MRMInvalidSchemaError(f"Field '{name}' contain illegal attribute '{spec['type']}'.")
            out[name] = {"type": spec["type"]}
        elif set(spec) == {"type", "shape"}:
            if spec["type"] not in ARRAY_TYPES:
                raise MRMInvalidSchemaError(f"Field '{name}' contain illegal attribute '{spec['type']}'.")
            shape = spec["shape"]
            if not isinstance(shape, list) or not shape or not all(
                    isinstance(d, int) and not isinstance(d, bool) and (d > 0 or d == -1) for d in shape) \
                    or shape.count(-1) > 1:
                raise MRMInvalidSchemaError(f"Field '{name}' contain illegal attribute '{shape}': a shape is a "
                                            "list of positive ints with at most one -1.")
            out[name] = {"type": spec["type"], "shape": list(shape)}
        else:
            raise MRMInvalidSchemaError(f"Field '{spec}' contains illegal attributes.")
    return out


def is_blob_field(spec: dict[str, Any]) -> bool:
    """Whether a field holds a blob (bytes or an array), which cannot be an index field."""
    return spec["type"] == "bytes" or "shape" in spec


def _value_error(name: str, spec: dict[str, Any], value: Any) -> str | None:
    """Why ``value`` does not fit field ``name`` (MindSpore's rules), or ``None``."""
    kind = spec["type"]
    if "shape" in spec:
        if not isinstance(value, np.ndarray):
            return f"data type: '{type(value).__name__}' for field: '{name}' is not matched."
        if str(value.dtype) != kind:
            return f"data type: '{value.dtype}' for field: '{name}' is not matched."
        try:
            np.reshape(value, spec["shape"])
        except ValueError:
            return f"data shape: '{value.shape}' for field: '{name}' is not matched."
        return None
    allowed = _VALUE_TYPES.get(type(value).__name__)
    ok = allowed is not None and kind in allowed
    if not ok:
        return f"data type: '{type(value).__name__}' for field: '{name}' is not matched with '{kind}'."
    if kind == "int32" and not -2 ** 31 <= int(value) < 2 ** 31:
        return f"value {value} for field: '{name}' is out of the int32 range."
    return None


def row_error(schema: dict[str, dict[str, Any]], row: dict[str, Any], i: int) -> str | None:
    """Why ``row`` (the ``i``-th of a write) does not fit ``schema``, or ``None``."""
    for name, spec in schema.items():
        if name not in row:
            return f"for schema, {i} th data is wrong, there is not field: '{name}' in the raw data."
        why = _value_error(name, spec, row[name])
        if why is not None:
            return f"for schema, {i} th data is wrong, {why}"
    return None


def _payload(spec: dict[str, Any], value: Any) -> bytes:
    kind = spec["type"]
    if "shape" in spec:
        return np.ascontiguousarray(value, dtype=kind).tobytes()
    if kind == "string":
        return str(value).encode("utf-8")
    if kind == "bytes":
        return bytes(value)
    return np.asarray(value, dtype=kind).tobytes()


def encode_record(schema: dict[str, dict[str, Any]], row: dict[str, Any]) -> bytes:
    """One row (already checked with :func:`row_error`) as record bytes."""
    parts = []
    for name, spec in schema.items():
        data = _payload(spec, row[name])
        parts.append(_LEN.pack(len(data)))
        parts.append(data)
    return b"".join(parts)


def write_footer(f: Any, offsets: list[int], header: dict[str, Any]) -> None:
    """Finish a shard file open for writing at its end: offsets, header, tail."""
    f.write(np.asarray(offsets, dtype="<i8").tobytes())
    text = json.dumps(header, sort_keys=True).encode("utf-8")
    f.write(text)
    f.write(_TAIL.pack(len(text), len(offsets) - 1, _END))


def _decode(spec: dict[str, Any], data: memoryview) -> Any:
    kind = spec["type"]
    if "shape" in spec:
        return np.frombuffer(data, dtype=kind).reshape(spec["shape"]).copy()
    if kind == "string":
        return np.array(bytes(data).decode("utf-8"))
    if kind == "bytes":
        return np.frombuffer(data, dtype=np.uint8).copy()
    return np.frombuffer(data, dtype=kind).reshape(()).copy()


class ShardFile:
    """One committed shard file, read lazily (memory-mapped on first use, again in each process).

    Arguments:
        path: the file.

    Raises:
        RuntimeError: naming the file when it is not a MindJAX MindRecord file or is damaged.
    """

    def __init__(self, path: str) -> None:
        self.path = path
        size = os.path.getsize(path)
        with open(path, "rb") as f:
            head = f.read(len(MAGIC))
            if head != MAGIC or size < len(MAGIC) + _TAIL.size:
                raise RuntimeError(f"For 'MindDataset', '{path}' is not a MindRecord file written by MindJAX "
                                   "(MindJAX reads only its own MindRecord layout, not MindSpore's)")
            f.seek(size - _TAIL.size)
            header_len, rows, end = _TAIL.unpack(f.read(_TAIL.size))
            offsets_at = size - _TAIL.size - header_len - 8 * (rows + 1)
            if end != _END or offsets_at < len(MAGIC):
                raise RuntimeError(f"For 'MindDataset', '{path}' is damaged: its footer is missing or truncated "
                                   "(was the writer committed?)")
            f.seek(offsets_at)
            self.offsets = np.frombuffer(f.read(8 * (rows + 1)), dtype="<i8").astype(np.int64)
            try:
                self.header = json.loads(f.read(header_len).decode("utf-8"))
            except (UnicodeDecodeError, json.JSONDecodeError) as err:
                raise RuntimeError(f"For 'MindDataset', '{path}' has a damaged header: {err}") from err
        if self.header.get("version") != FORMAT_VERSION:
            raise RuntimeError(f"For 'MindDataset', '{path}' has format version {self.header.get('version')}, "
                               f"this MindJAX reads version {FORMAT_VERSION}")
        self.schema: dict[str, dict[str, Any]] = self.header["schema"]
        self.rows = int(rows)
        self._map: mmap.mmap | None = None

    def _buffer(self) -> memoryview:
        if self._map is None:
            with open(self.path, "rb") as f:
                self._map = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
        return memoryview(self._map)

    def record(self, i: int) -> dict[str, Any]:
        """Row ``i`` as a dict of numpy values (see the module docstring for the types)."""
        buf = self._buffer()
        pos, stop = int(self.offsets[i]), int(self.offsets[i + 1])
        out = {}
        for name, spec in self.schema.items():
            (n,) = _LEN.unpack_from(buf, pos)
            pos += _LEN.size
            if pos + n > stop:
                raise RuntimeError(f"For 'MindDataset', '{self.path}' is damaged at row {i}, field '{name}'")
            out[name] = _decode(spec, buf[pos:pos + n])
            pos += n
        return out

    def raw_records(self) -> bytes:
        """All records' bytes, as written (for appending)."""
        return bytes(self._buffer()[int(self.offsets[0]):int(self.offsets[-1])])

    def __getstate__(self) -> dict[str, Any]:
        state = self.__dict__.copy()
        state["_map"] = None
        return state
