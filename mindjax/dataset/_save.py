"""``Dataset.save``: one epoch of a pipeline into MindRecord files."""
from __future__ import annotations

from typing import Any

import numpy as np

from mindjax.dataset.rows import ArgTypeError, DataError

__all__ = ["save_mindrecord", "mindrecord_field"]

# MindSpore's implicit casts when saving (numpy dtype name -> MindRecord type).
_CAST = {"bool": "int32", "int8": "int32", "uint8": "int32", "int16": "int32", "uint16": "int32",
         "int32": "int32", "uint32": "int64", "int64": "int64", "uint64": "int64", "float16": "float32",
         "float32": "float32", "float64": "float64"}
_CHUNK = 256


def mindrecord_field(name: str, value: Any) -> dict[str, Any]:
    """The schema entry that holds column ``name`` whose first value is ``value``."""
    if isinstance(value, dict) or not isinstance(value, np.ndarray):
        raise DataError(f"For 'save', column '{name}' holds {type(value).__name__} values; MindRecord holds "
                        "numbers, arrays, strings and bytes")
    kind = value.dtype.kind
    if kind in "US":
        if value.ndim:
            raise DataError(f"For 'save', column '{name}' is a {value.ndim}-d {'string' if kind == 'U' else 'bytes'}"
                            " array; MindRecord does not support multi-dimensional strings or bytes")
        return {"type": "string" if kind == "U" else "bytes"}
    target = _CAST.get(value.dtype.name)
    if target is None:
        raise DataError(f"For 'save', column '{name}' has dtype {value.dtype}, which MindRecord cannot hold")
    if value.ndim == 0:
        return {"type": target}
    return {"type": target, "shape": [-1, *value.shape[1:]]}


def _field_value(spec: dict[str, Any], value: np.ndarray, name: str) -> Any:
    if spec["type"] == "string":
        return str(value)
    if spec["type"] == "bytes":
        return bytes(value)
    if "shape" not in spec:
        if np.ndim(value):
            raise DataError(f"For 'save', column '{name}' changes from a scalar to shape {np.shape(value)}")
        return np.asarray(value).astype(spec["type"]).reshape(())[()]
    array = np.asarray(value)
    if array.ndim != len(spec["shape"]) or list(array.shape[1:]) != spec["shape"][1:]:
        raise DataError(f"For 'save', column '{name}' has shape {array.shape}, but its first row had "
                        f"{spec['shape']} (only the first dimension may vary)")
    return array.astype(spec["type"])


def save_mindrecord(dataset: Any, file_name: str, num_files: int, file_type: str) -> None:
    """Implementation of :meth:`Dataset.save`."""
    from mindjax.mindrecord import FileWriter

    if file_type != "mindrecord":
        raise ValueError(f"For 'save', 'file_type' must be 'mindrecord', got {file_type!r}")
    if not isinstance(num_files, int) or isinstance(num_files, bool):
        raise ArgTypeError(f"For 'save', 'num_files' must be an int in [1, 1000], got {num_files!r}")
    if not 1 <= num_files <= 1000:
        raise ValueError(f"For 'save', 'num_files' must be an int in [1, 1000], got {num_files!r}")
    names = dataset.get_col_names()
    writer = FileWriter(file_name, shard_num=num_files, overwrite=False)
    schema: dict[str, dict[str, Any]] | None = None
    pending: list[dict[str, Any]] = []
    for row in dataset.create_tuple_iterator(output_numpy=True, num_epochs=1):
        if schema is None:
            schema = {n: mindrecord_field(n, v) for n, v in zip(names, row)}
            writer.add_schema(schema, "mindjax dataset")
        pending.append({n: _field_value(schema[n], v, n) for n, v in zip(names, row)})
        if len(pending) >= _CHUNK:
            writer.write_raw_data(pending)
            pending = []
    if schema is None:
        raise DataError("For 'save', the dataset is empty: there is no row to take the schema from")
    if pending:
        writer.write_raw_data(pending)
    writer.commit()
