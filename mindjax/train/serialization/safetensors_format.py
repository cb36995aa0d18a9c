"""The safetensors format, read and written with the ``safetensors`` package.

A JSON header and raw little-endian buffers: nothing is executed on load.
Files carry MindSpore's metadata (``{"format": "ms"}``, and ``crc_num`` when
written with ``crc_check``, computed as MindSpore does over each name and its
bytes in sorted order). Strings from ``append_dict``, which safetensors cannot
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


def write_safetensors(path: str, entries: list[tuple[str, Any]], crc_check: bool = False) -> None:
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
    if crc_check:
        metadata["crc_num"] = str(_crc([(k, tensors[k].tobytes()) for k in sorted(tensors)]))
    if strings:
        metadata[_STRINGS_KEY] = json.dumps(strings)
    atomic_write_bytes(path, save(tensors, metadata=metadata))


def read_safetensors(path: str, crc_check: bool = False,
                     choose: Callable[[str], bool] | None = None) -> dict[str, Any]:
    """Read a safetensors file into ``{name: numpy array | str}``.

    Arguments:
        path: the file name.
        crc_check: verify MindSpore's ``crc_num`` metadata.
        choose: keep only names for which it returns True.

    Raises:
        CheckpointFormatError: the file is truncated, corrupted or fails the CRC;
            the message names the file.
    """
    from safetensors import deserialize, safe_open

    try:
        with open(path, "rb") as f:
            raw = f.read()
        with safe_open(path, framework="numpy") as f:
            metadata = f.metadata() or {}
        items = deserialize(raw)
    except Exception as exc:  # the Rust reader raises SafetensorError, OSError, ...
        raise CheckpointFormatError(f"Failed to read the safetensors file {path}: the file is truncated, "
                                    f"corrupted or not safetensors ({exc})") from exc
    if crc_check:
        if "crc_num" not in metadata:
            raise CheckpointFormatError(f"Failed to read the safetensors file {path}: crc_check=True but the "
                                        f"file holds no crc_num")
        ordered = sorted((name, bytes(info["data"])) for name, info in items)
        if _crc(ordered) != int(metadata["crc_num"]):
            raise CheckpointFormatError(f"Failed to read the safetensors file {path}: the CRC check failed, "
                                        f"the file is corrupted")
    out: dict[str, Any] = {}
    for name, info in sorted(items):
        if choose is not None and not choose(name):
            continue
        dtype = _DTYPES.get(info["dtype"])
        if dtype is None:
            raise CheckpointFormatError(f"Failed to read the safetensors file {path}: '{name}' has dtype "
                                        f"{info['dtype']}, which MindJAX does not read")
        out[name] = np.frombuffer(bytes(info["data"]), dtype).reshape(info["shape"])
    try:
        strings = json.loads(metadata.get(_STRINGS_KEY, "{}"))
    except json.JSONDecodeError as exc:
        raise CheckpointFormatError(f"Failed to read the safetensors file {path}: the '{_STRINGS_KEY}' "
                                    f"metadata is corrupted") from exc
    out.update({k: str(v) for k, v in strings.items() if choose is None or choose(k)})
    return out
