"""``Schema``: column names, types and shapes of a dataset, with MindSpore's JSON form."""
from __future__ import annotations

import json
from typing import Any

import numpy as np

from mindjax.dataset.rows import ArgTypeError

__all__ = ["Schema"]


def _type_name(de_type: Any) -> str:
    if isinstance(de_type, str):
        if de_type in ("string", "bytes"):
            return de_type
        try:
            return np.dtype(de_type).name
        except TypeError as err:
            raise ValueError(f"For 'Schema', unknown type {de_type!r}") from err
    try:
        return np.dtype(de_type).name
    except TypeError as err:
        raise ArgTypeError(f"For 'Schema', 'de_type' must be a mindjax/numpy dtype or a type name, "
                           f"got {de_type!r}") from err


class Schema:
    """The columns of a dataset: ``add_column``, ``parse_columns``, ``to_json``/``from_json``.

    Arguments:
        schema_file: a JSON file ``{"columns": {name: {"type": ..., "shape": [...]}}, "numRows": n}``.
    """

    def __init__(self, schema_file: str | None = None) -> None:
        self.columns: list[dict[str, Any]] = []
        self.num_rows = 0
        self.dataset_type = ""
        if schema_file is not None:
            if not isinstance(schema_file, str):
                raise ArgTypeError(f"For 'Schema', 'schema_file' must be a str, got {schema_file!r}")
            with open(schema_file, "r", encoding="utf-8") as f:
                self.from_json(json.load(f))

    def add_column(self, name: str, de_type: Any, shape: list[int] | None = None) -> None:
        """Add column ``name`` of type ``de_type`` (a dtype or ``'string'``) and optional ``shape``."""
        if not isinstance(name, str) or not name:
            raise ArgTypeError(f"For 'Schema.add_column', 'name' must be a non-empty str, got {name!r}")
        if shape is not None and (not isinstance(shape, list) or not all(
                isinstance(d, int) and not isinstance(d, bool) for d in shape)):
            raise ArgTypeError(f"For 'Schema.add_column', 'shape' must be a list of int, got {shape!r}")
        column: dict[str, Any] = {"name": name, "type": _type_name(de_type)}
        if shape is not None:
            column["shape"], column["rank"] = list(shape), len(shape)
        self.columns.append(column)

    def parse_columns(self, columns: Any) -> None:
        """Replace the columns with ``columns``.

        Arguments:
            columns: ``{name: {"type": ..., "shape": [...]}}`` or a list of ``{"name", "type", "shape"}`` dicts.
        """
        self.columns = []
        if isinstance(columns, dict):
            items = [dict(spec, name=name) for name, spec in columns.items()]
        elif isinstance(columns, list):
            items = columns
        else:
            raise ArgTypeError(f"For 'Schema.parse_columns', 'columns' must be a dict or a list, got {columns!r}")
        for spec in items:
            if not isinstance(spec, dict) or "name" not in spec or "type" not in spec:
                raise KeyError(f"For 'Schema.parse_columns', every column needs 'name' and 'type', got {spec!r}")
            self.add_column(spec["name"], spec["type"], spec.get("shape"))

    def to_json(self) -> str:
        """The schema as MindSpore's JSON text."""
        columns = {c["name"]: {k: v for k, v in c.items() if k != "name"} for c in self.columns}
        out: dict[str, Any] = {"columns": columns}
        if self.num_rows:
            out["numRows"] = self.num_rows
        if self.dataset_type:
            out["datasetType"] = self.dataset_type
        return json.dumps(out, indent=2)

    def from_json(self, json_obj: dict[str, Any]) -> None:
        """Load a schema from its JSON object (``{"columns": ..., "numRows": ...}``)."""
        if not isinstance(json_obj, dict) or "columns" not in json_obj:
            raise RuntimeError("For 'Schema.from_json', the JSON object needs a 'columns' entry")
        self.parse_columns(json_obj["columns"])
        self.num_rows = int(json_obj.get("numRows", 0))
        self.dataset_type = str(json_obj.get("datasetType", ""))

    def __str__(self) -> str:
        return self.to_json()

    def __repr__(self) -> str:
        return f"Schema({[(c['name'], c['type'], c.get('shape')) for c in self.columns]})"
