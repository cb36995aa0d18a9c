"""The safetensors format, read and written with the ``safetensors`` package.

A JSON header and raw little-endian buffers: nothing is executed on load.
Files carry MindSpore's metadata (``{"format": "ms"}``, and ``crc_num`` when
written with ``crc_check``, the default, computed as MindSpore does over each
name and its bytes in sorted order; it is checked whenever a file has it). Strings from ``append_dict``, which safetensors cannot
hold as tensors (MindSpore fails to save them), go into the metadata under
``mindjax.strings`` as a JSON object.
"""
from __future__ import annotations

import binascii
import json
from typing import Any, Callable

import ml_dtypes
import numpy as np

from mindjax.train.serialization.atomic import atomic_write_bytes
from mindjax.train.serialization.ckpt_format import CheckpointFormatError

__all__ = ["write_safetensors", "read_safetensors"]

_STRINGS_KEY = "mindjax.strings"
_DTYPES: dict[str, np.dtype] = {
    "BOOL": np.dtype(np.bool_), "U8": np.dtype(np.uint8), "I8": np.dtype(np.int8),
    "U16": np.dtype(np.uint16), "I16": np.dtype(np.int16), "U32": np.dtype(np.uint32),
    "I32": np.dtype(np.int32), "U64": np.dtype(np.uint64), "I64": np.dtype(np.int64),
    "F16": np.dtype(np.float16), "BF16": np.dtype(ml_dtypes.bfloat16), "F32": np.dtype(np.float32),
    "F64": np.dtype(np.float64), "C64": np.dtype(np.complex64),
}
_NAMES = {dtype: name for name, dtype in _DTYPES.items()}


def _crc(items: list[tuple[str, bytes]]) -> int:
    crc = 0
    for name, data in items:
        crc = binascii.crc32(name.encode("utf-8"), crc)
        crc = binascii.crc32(data, crc)
    return crc


def write_safetensors(path: str, entries: list[tuple[str, Any]], crc_check: bool = True) -> None:
    """Write ``(name, numpy array | str)`` pairs as a safetensors file, atomically.

    Arguments:
        path: the file name.
        entries: the values.
        crc_check: store MindSpore's ``crc_num`` in the metadata.

    Raises:
        TypeError: a dtype safetensors cannot hold.
    """
    from safetensors.numpy import save

    tensors: dict[str, np.ndarray] = {}
    strings: dict[str, str] = {}
    for name, value in entries:
        if isinstance(value, str):
            strings[name] = value
            continue
        array = np.asarray(value, order="C")
        if array.dtype not in _NAMES:
            raise TypeError(f"For 'save_checkpoint', safetensors cannot hold '{name}' of dtype {array.dtype}")
        tensors[name] = array
    metadata = {"format": "ms"}
    for name in strings:
        if name in tensors:
            raise ValueError(f"For 'save_checkpoint', the name '{name}' is given twice")
    if crc_check:
        metadata["crc_num"] = str(_crc([(k, tensors[k].tobytes()) for k in sorted(tensors)]))
    if strings:
        metadata[_STRINGS_KEY] = json.dumps(strings)
    atomic_write_bytes(path, save(tensors, metadata=metadata))


def _fail(path: str, why: str) -> CheckpointFormatError:
    return CheckpointFormatError(f"Failed to read the safetensors file {path}: {why}")


def _unique_object(path: str) -> Callable[[list[tuple[str, Any]]], dict[str, Any]]:
    def build(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for key, value in pairs:
            if key in out:
                raise _fail(path, f"the header names '{key}' twice; the file is corrupted")
            out[key] = value
        return out
    return build


def _header(path: str, raw: bytes) -> tuple[dict[str, Any], dict[str, str], int]:
    """The tensor entries, the metadata and where the data starts, each checked."""
    if len(raw) < 8:
        raise _fail(path, f"the file is truncated ({len(raw)} bytes; a safetensors file starts with an 8-byte "
                          f"header length)")
    size = int.from_bytes(raw[:8], "little")
    if size > len(raw) - 8:
        raise _fail(path, f"the header length {size} is beyond the file's {len(raw)} bytes; the file is "
                          f"truncated or not safetensors")
    try:
        header = json.loads(raw[8:8 + size].decode("utf-8"), object_pairs_hook=_unique_object(path))
    except CheckpointFormatError:
        raise
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise _fail(path, f"the header is not valid JSON ({exc}); the file is corrupted or not safetensors") from exc
    if not isinstance(header, dict):
        raise _fail(path, f"the header must be a JSON object, got {type(header).__name__}")
    metadata = header.pop("__metadata__", None) or {}
    if not isinstance(metadata, dict) or not all(isinstance(k, str) and isinstance(v, str)
                                                 for k, v in metadata.items()):
        raise _fail(path, f"'__metadata__' must be a JSON object of strings, got "
                          f"{type(metadata).__name__ if not isinstance(metadata, dict) else 'non-string values'}")
    return header, metadata, 8 + size


def _tensor(path: str, name: str, info: Any, buffer: memoryview) -> np.ndarray:
    if not isinstance(info, dict):
        raise _fail(path, f"the entry of '{name}' must be a JSON object, got {type(info).__name__}")
    dtype = _DTYPES.get(info.get("dtype")) if isinstance(info.get("dtype"), str) else None
    if dtype is None:
        raise _fail(path, f"'{name}' has dtype {info.get('dtype')!r}, which MindJAX does not read; "
                          f"supported: {', '.join(_DTYPES)}")
    shape, offsets = info.get("shape"), info.get("data_offsets")
    if not isinstance(shape, list) or not all(isinstance(d, int) and not isinstance(d, bool) for d in shape):
        raise _fail(path, f"'{name}' has shape {shape!r}; it must be a list of ints")
    if any(d < 0 for d in shape):
        raise _fail(path, f"'{name}' has shape {tuple(shape)} with a negative dimension; the file is corrupted")
    if (not isinstance(offsets, list) or len(offsets) != 2
            or not all(isinstance(o, int) and not isinstance(o, bool) for o in offsets)):
        raise _fail(path, f"'{name}' has data_offsets {offsets!r}; they must be [begin, end]")
    begin, end = offsets
    if not 0 <= begin <= end <= len(buffer):
        raise _fail(path, f"'{name}' has data_offsets [{begin}, {end}] outside the {len(buffer)} data bytes; "
                          f"the file is truncated or corrupted")
    elements = 1
    for d in shape:
        elements *= d
    if elements * dtype.itemsize != end - begin:
        raise _fail(path, f"'{name}' has shape {tuple(shape)} of {info['dtype']} ({elements * dtype.itemsize} "
                          f"bytes) but holds {end - begin} bytes; the file is corrupted")
    return np.frombuffer(buffer[begin:end], dtype).reshape(shape)


def _check_disjoint(path: str, header: dict[str, Any]) -> None:
    """No two tensors share bytes (as the safetensors format requires): a header whose offsets overlap is damaged."""
    spans = sorted((info["data_offsets"][0], info["data_offsets"][1], name) for name, info in header.items()
                   if info["data_offsets"][0] != info["data_offsets"][1])
    for (_, end, first), (begin, _, second) in zip(spans, spans[1:]):
        if begin < end:
            raise _fail(path, f"'{first}' and '{second}' overlap in the data (bytes {begin} to {end}); the header "
                              f"is corrupted")


def read_safetensors(path: str, crc_check: bool | None = None,
                     choose: Callable[[str], bool] | None = None, shown: str | None = None) -> dict[str, Any]:
    """Read a safetensors file into ``{name: numpy array | str}``.

    The header is parsed and checked here (JSON only; nothing is executed):
    every entry's dtype, shape and byte range, and the metadata's type.

    Arguments:
        path: the file name.
        crc_check: ``None`` verifies MindSpore's ``crc_num`` metadata when the file
            has it; ``True`` also requires it; ``False`` skips the check.
        choose: keep only names for which it returns True.
        shown: how errors name the file (``path`` when ``None``).

    Raises:
        CheckpointFormatError: the file is truncated, corrupted or fails the CRC;
            the message names the file and the tensor.
    """
    try:
        with open(path, "rb") as f:
            raw = f.read()
    except OSError as exc:
        path = shown or path
        raise _fail(path, str(exc)) from exc
    path = shown or path
    header, metadata, start = _header(path, raw)
    buffer = memoryview(raw)[start:]
    arrays = {name: _tensor(path, name, info, buffer) for name, info in header.items()}
    _check_disjoint(path, header)
    if crc_check is not False and "crc_num" in metadata:
        try:
            stored = int(metadata["crc_num"])
        except ValueError:
            raise _fail(path, f"the crc_num metadata {metadata['crc_num']!r} is not a number; the file is "
                              f"corrupted") from None
        actual = _crc([(name, arrays[name].tobytes()) for name in sorted(arrays)])
        if actual != stored:
            raise _fail(path, f"the CRC check failed: the tensors have CRC32 {actual:#010x} but the metadata "
                              f"records {stored:#010x}, so the file is corrupted (a changed byte or a damaged "
                              f"copy); restore it from a good copy, or pass crc_check=False to read it anyway")
    elif crc_check:
        raise _fail(path, "crc_check=True but the file holds no crc_num")
    out: dict[str, Any] = {name: arrays[name] for name in sorted(arrays) if choose is None or choose(name)}
    try:
        strings = json.loads(metadata.get(_STRINGS_KEY, "{}"))
    except json.JSONDecodeError as exc:
        raise _fail(path, f"the '{_STRINGS_KEY}' metadata is corrupted") from exc
    if not isinstance(strings, dict):
        raise _fail(path, f"the '{_STRINGS_KEY}' metadata must be a JSON object, got {type(strings).__name__}")
    for name, value in strings.items():
        if name in out or name in arrays:
            raise _fail(path, f"the name '{name}' is both a tensor and a string; the file is corrupted")
        if choose is None or choose(name):
            out[name] = str(value)
    return out
