"""MindSpore's ``.ckpt`` file format: a concatenation of serialized protobuf ``Checkpoint`` messages.

The schema (MindSpore's ``checkpoint.proto``, proto2)::

    message Checkpoint {
      message Value { required string tag = 1; oneof value { TensorProto tensor = 2; ... } }
      repeated Value value = 1;
    }
    message TensorProto {
      repeated int64 dims = 1; required string tensor_type = 2; required bytes tensor_content = 3;
    }

MindSpore writes one ``Checkpoint`` message per value (and per slice of a large
value: consecutive Values with the same tag are joined on reading). A scalar
has ``dims == []`` (``[0]`` is read as a scalar too, as MindSpore does), a
string has ``dims == [0]``, ``tensor_type == "str"`` and UTF-32 content. An
optional CRC32 trailer is ``b"crc_num"`` and ten big-endian bytes holding the
CRC32 of every byte before it (MindSpore accumulates it record by record,
which is the same number). MindJAX writes the trailer by default and checks
it whenever a file has one; MindSpore reads such files with or without its
``crc_check``.

The message classes are built here from a descriptor at import, in a private
descriptor pool, so neither ``protoc`` nor MindSpore is needed and MindSpore's
own ``checkpoint.proto`` can be loaded in the same process.
"""
from __future__ import annotations

import binascii
from typing import Any, Callable, Iterable, Iterator

import ml_dtypes
import numpy as np
from google.protobuf import descriptor_pb2, descriptor_pool, message_factory
from google.protobuf.message import DecodeError

from mindjax.train.serialization.atomic import atomic_write

__all__ = ["CheckpointFormatError", "TENSOR_TYPES", "tensor_type_of", "encode_ckpt", "write_ckpt", "read_ckpt"]

# MindSpore slices values above 512 MiB (its SLICE_SIZE is in KiB).
_SLICE_BYTES = 512 * 1024 * 1024
_CRC_MARK = b"crc_num"
_CRC_TRAILER = len(_CRC_MARK) + 10

TENSOR_TYPES: dict[str, np.dtype] = {
    "Int8": np.dtype(np.int8), "UInt8": np.dtype(np.uint8), "Int16": np.dtype(np.int16),
    "UInt16": np.dtype(np.uint16), "Int32": np.dtype(np.int32), "UInt32": np.dtype(np.uint32),
    "Int64": np.dtype(np.int64), "UInt64": np.dtype(np.uint64), "Float16": np.dtype(np.float16),
    "Float32": np.dtype(np.float32), "Float64": np.dtype(np.float64), "Bool": np.dtype(np.bool_),
    "BFloat16": np.dtype(ml_dtypes.bfloat16), "Complex64": np.dtype(np.complex64),
    "Complex128": np.dtype(np.complex128),
}
_TYPE_NAMES = {dtype: name for name, dtype in TENSOR_TYPES.items()}


class CheckpointFormatError(ValueError):
    """A checkpoint file that cannot be read: truncated, corrupted or not a checkpoint."""


def _build_messages() -> tuple[type, type]:
    field = descriptor_pb2.FieldDescriptorProto
    proto = descriptor_pb2.FileDescriptorProto(name="mindjax_checkpoint.proto", syntax="proto2")
    tensor = proto.message_type.add(name="TensorProto")
    tensor.field.add(name="dims", number=1, label=field.LABEL_REPEATED, type=field.TYPE_INT64)
    tensor.field.add(name="tensor_type", number=2, label=field.LABEL_REQUIRED, type=field.TYPE_STRING)
    tensor.field.add(name="tensor_content", number=3, label=field.LABEL_REQUIRED, type=field.TYPE_BYTES)
    maptensor = proto.message_type.add(name="MapTensorProto")
    maptensor.field.add(name="tensor", number=1, label=field.LABEL_REPEATED, type=field.TYPE_MESSAGE,
                        type_name=".TensorProto")
    checkpoint = proto.message_type.add(name="Checkpoint")
    checkpoint.field.add(name="value", number=1, label=field.LABEL_REPEATED, type=field.TYPE_MESSAGE,
                         type_name=".Checkpoint.Value")
    value = checkpoint.nested_type.add(name="Value")
    value.oneof_decl.add(name="value")
    value.field.add(name="tag", number=1, label=field.LABEL_REQUIRED, type=field.TYPE_STRING)
    value.field.add(name="tensor", number=2, label=field.LABEL_OPTIONAL, type=field.TYPE_MESSAGE,
                    type_name=".TensorProto", oneof_index=0)
    value.field.add(name="maptensor", number=3, label=field.LABEL_OPTIONAL, type=field.TYPE_MESSAGE,
                    type_name=".MapTensorProto", oneof_index=0)
    pool = descriptor_pool.DescriptorPool()
    pool.Add(proto)
    return (message_factory.GetMessageClass(pool.FindMessageTypeByName("Checkpoint")),
            message_factory.GetMessageClass(pool.FindMessageTypeByName("Checkpoint.Value")))


Checkpoint, CheckpointValue = _build_messages()


def tensor_type_of(dtype: Any) -> str:
    """MindSpore's ``tensor_type`` string for a numpy/JAX dtype (``float32`` -> ``"Float32"``).

    Raises:
        TypeError: for a dtype MindSpore checkpoints cannot hold.
    """
    try:
        return _TYPE_NAMES[np.dtype(dtype)]
    except (KeyError, TypeError) as exc:
        raise TypeError(f"a MindSpore checkpoint cannot hold dtype {dtype}; supported: "
                        f"{', '.join(TENSOR_TYPES)} and str") from exc


def _value_message(tag: str, dims: list[int], tensor_type: str, content: bytes) -> bytes:
    message = Checkpoint()
    value = message.value.add()
    value.tag = tag
    value.tensor.dims.extend(dims)
    value.tensor.tensor_type = tensor_type
    value.tensor.tensor_content = content
    return message.SerializeToString()


def _entry_messages(tag: str, value: Any, slice_bytes: int) -> Iterator[bytes]:
    if isinstance(value, str):
        yield _value_message(tag, [0], "str", np.array(value).tobytes())
        return
    array = np.asarray(value, order="C")  # ascontiguousarray would turn a scalar into shape (1,)
    tensor_type = tensor_type_of(array.dtype)
    dims = [int(d) for d in array.shape]
    raw = memoryview(array.reshape(-1).view(np.uint8)) if array.size else memoryview(b"")
    if len(raw) <= slice_bytes:
        yield _value_message(tag, dims, tensor_type, raw.tobytes())
        return
    for start in range(0, len(raw), slice_bytes):
        yield _value_message(tag, dims, tensor_type, raw[start:start + slice_bytes].tobytes())


def encode_ckpt(entries: Iterable[tuple[str, Any]], crc_check: bool = True) -> Iterator[bytes]:
    """Serialize ``(name, numpy array | str)`` pairs as MindSpore checkpoint bytes, piece by piece.

    Arguments:
        entries: names and values, in file order.
        crc_check: append MindSpore's CRC32 trailer.

    Returns:
        An iterator of byte strings whose concatenation is the file.
    """
    crc = 0
    for tag, value in entries:
        for piece in _entry_messages(tag, value, _SLICE_BYTES):
            if crc_check:
                crc = binascii.crc32(piece, crc)
            yield piece
    if crc_check:
        yield _CRC_MARK + crc.to_bytes(10, byteorder="big")


def write_ckpt(path: str, entries: Iterable[tuple[str, Any]], crc_check: bool = True) -> None:
    """Write a MindSpore checkpoint file atomically (see ``atomic.atomic_write``).

    Arguments:
        path: the file name.
        entries: ``(name, numpy array | str)`` pairs.
        crc_check: append MindSpore's CRC32 trailer.
    """
    with atomic_write(path) as f:
        for piece in encode_ckpt(entries, crc_check):
            f.write(piece)


def _describe_foreign(head: bytes) -> str:
    if head[:1] == b"\x80" and head[1:2] in (b"\x02", b"\x03", b"\x04", b"\x05"):
        return ("it is a Python pickle, which MindJAX never loads (unpickling runs arbitrary code); "
                "convert it with the framework that wrote it to .ckpt or .safetensors")
    if head[:4] == b"PK\x03\x04":
        return "it is a zip archive (a PyTorch .pt/.pth file?), not a MindSpore checkpoint"
    if head[:8] == b"\x89HDF\r\n\x1a\n":
        return "it is an HDF5 file, not a MindSpore checkpoint"
    return f"it does not start with a checkpoint record (first bytes {head[:8]!r})"


def _read_varint(data: memoryview, pos: int, end: int) -> tuple[int, int]:
    result = shift = 0
    while pos < end:
        byte = data[pos]
        pos += 1
        result |= (byte & 0x7F) << shift
        if not byte & 0x80:
            return result, pos
        shift += 7
        if shift > 63:
            break
    raise IndexError


def _records(path: str, data: memoryview, end: int) -> Iterator[tuple[int, memoryview]]:
    """Walk the file's top-level records (each is ``Checkpoint.value``: field 1, length-delimited)."""
    pos = 0
    while pos < end:
        start = pos
        if data[pos] != 0x0A:
            if start == 0:
                raise CheckpointFormatError(f"Failed to read the checkpoint file {path}: "
                                            f"{_describe_foreign(bytes(data[:8]))}")
            raise CheckpointFormatError(f"Failed to read the checkpoint file {path}: the file is corrupted "
                                        f"(unexpected byte {data[pos]:#04x} at offset {pos})")
        try:
            length, pos = _read_varint(data, pos + 1, end)
        except IndexError:
            raise CheckpointFormatError(f"Failed to read the checkpoint file {path}: the file is truncated or "
                                        f"corrupted (bad record length at offset {start})") from None
        if pos + length > end:
            raise CheckpointFormatError(f"Failed to read the checkpoint file {path}: the file is truncated "
                                        f"(a record at offset {start} needs {pos + length - end} more bytes "
                                        f"than the file's {end})")
        yield start, data[pos:pos + length]
        pos += length


def _decode(path: str, tag: str, dims: list[int], tensor_type: str, content: bytes) -> Any:
    if tensor_type == "str":
        if len(content) % 4:
            raise CheckpointFormatError(f"Failed to read the checkpoint file {path}: the string '{tag}' is "
                                        f"corrupted ({len(content)} bytes is not UTF-32)")
        return str(np.frombuffer(content, f"<U{max(len(content) // 4, 1)}")[0]) if content else ""
    dtype = TENSOR_TYPES.get(tensor_type)
    if dtype is None:
        raise CheckpointFormatError(f"Failed to read the checkpoint file {path}: '{tag}' has tensor_type "
                                    f"{tensor_type!r}, which MindJAX does not read; supported: "
                                    f"{', '.join(TENSOR_TYPES)}, str")
    if dims == [0] and content:
        dims = []  # MindSpore's scalar convention
    bad = [d for d in dims if d < 0]
    if bad:
        raise CheckpointFormatError(f"Failed to read the checkpoint file {path}: '{tag}' has shape {tuple(dims)} "
                                    f"with a negative dimension ({bad[0]}); the file is corrupted")
    elements = 1
    for d in dims:  # Python ints: a corrupted huge shape must not wrap around as int64 does
        elements *= d
    expected = elements * dtype.itemsize
    if expected != len(content):
        raise CheckpointFormatError(f"Failed to read the checkpoint file {path}: '{tag}' has shape "
                                    f"{tuple(dims)} of {tensor_type} ({expected} bytes) but holds "
                                    f"{len(content)} bytes; the file is corrupted")
    return np.frombuffer(content, dtype).reshape(dims)


def read_ckpt(path: str, crc_check: bool | None = None,
              choose: Callable[[str], bool] | None = None, shown: str | None = None) -> dict[str, Any]:
    """Read a MindSpore checkpoint file into ``{name: numpy array | str}`` (file order).

    Nothing in the file is executed: records are framed by hand and each is
    parsed as a protobuf ``Checkpoint.Value``.

    Arguments:
        path: the file name.
        crc_check: ``None`` verifies the CRC32 trailer when the file has one;
            ``True`` also requires one; ``False`` skips the check.
        choose: keep only names for which it returns True.
        shown: how errors name the file (``path`` when ``None``).

    Returns:
        The values; numpy arrays are read-only views of the file content.

    Raises:
        CheckpointFormatError: the file is empty, truncated, corrupted, fails
            the CRC or is not a checkpoint; the message names the file.
    """
    try:
        with open(path, "rb") as f:
            raw = f.read()
    except OSError as exc:
        raise CheckpointFormatError(f"Failed to read the checkpoint file {shown or path}: {exc}") from exc
    path = shown or path
    if not raw:
        raise CheckpointFormatError(f"Failed to read the checkpoint file {path}: the file is empty")
    end = len(raw)
    if end >= _CRC_TRAILER and raw[end - _CRC_TRAILER:end - 10] == _CRC_MARK:
        end -= _CRC_TRAILER
        if crc_check is not False:
            stored = int.from_bytes(raw[end + len(_CRC_MARK):], byteorder="big")
            actual = binascii.crc32(memoryview(raw)[:end])
            if actual != stored:
                raise CheckpointFormatError(
                    f"Failed to read the checkpoint file {path}: the CRC check failed: the file's content "
                    f"({end} bytes) has CRC32 {actual:#010x} but its trailer records {stored:#010x}, so the file "
                    f"is corrupted (a changed byte or a damaged copy); restore it from a good copy, or pass "
                    f"crc_check=False to read it anyway")
    elif crc_check:
        raise CheckpointFormatError(f"Failed to read the checkpoint file {path}: crc_check=True but the file "
                                    f"holds no CRC (save it with crc_check=True)")
    data = memoryview(raw)
    out: dict[str, Any] = {}
    pending: list[bytes] = []
    pending_key: tuple[str, list[int], str] | None = None
    first_offset: dict[str, int] = {}
    current: tuple[Any, ...] = (None,)

    def flush() -> None:
        if pending_key is not None:
            tag, dims, tensor_type = pending_key
            out[tag] = _decode(path, tag, dims, tensor_type, b"".join(pending))
            pending.clear()

    for offset, record in _records(path, data, end):
        value = CheckpointValue()
        try:
            value.ParseFromString(record)
        except DecodeError as exc:
            raise CheckpointFormatError(f"Failed to read the checkpoint file {path}: the record at offset "
                                        f"{offset} is corrupted ({exc})") from exc
        if value.WhichOneof("value") != "tensor":
            kind = "a map tensor" if value.HasField("maptensor") else "no tensor"
            raise CheckpointFormatError(f"Failed to read the checkpoint file {path}: '{value.tag}' holds {kind}, "
                                        f"which MindJAX does not read")
        if not value.tensor.HasField("tensor_type"):
            raise CheckpointFormatError(f"Failed to read the checkpoint file {path}: '{value.tag}' has no "
                                        f"tensor_type; the file is corrupted")
        key = (value.tag, list(value.tensor.dims), value.tensor.tensor_type)
        if key[0] != current[0]:
            # Slices of one value are consecutive; a name seen before is a second value.
            if key[0] in first_offset:
                raise CheckpointFormatError(f"Failed to read the checkpoint file {path}: the name '{key[0]}' "
                                            f"appears twice (records at offsets {first_offset[key[0]]} and "
                                            f"{offset}); the file is corrupted or was concatenated")
            first_offset[key[0]] = offset
            flush()
            current = key
            pending_key = key if choose is None or choose(key[0]) else None
        elif key != current:
            raise CheckpointFormatError(f"Failed to read the checkpoint file {path}: the slices of '{key[0]}' "
                                        f"disagree on shape or type ({current[1:]} and {key[1:]})")
        if pending_key is None:
            continue
        pending.append(value.tensor.tensor_content)
    flush()
    return out

