"""Sources that hold their own rows: ``PaddedDataset`` (given samples) and ``RandomDataset`` (random ones)."""
from __future__ import annotations

from typing import Any

import numpy as np

from mindjax.dataset.rows import ArgTypeError
from mindjax.dataset.schema import Schema
from mindjax.dataset.sources import MappableSourceDataset

__all__ = ["PaddedDataset", "RandomDataset"]


class _Samples:
    def __init__(self, rows: list[tuple[np.ndarray, ...]]) -> None:
        self.rows = rows

    def __len__(self) -> int:
        return len(self.rows)

    def __getitem__(self, idx: int) -> tuple[np.ndarray, ...]:
        return self.rows[idx]


class PaddedDataset(MappableSourceDataset):
    """The samples given, in order (e.g. to pad a dataset so it divides by the shards, with ``+``).

    Arguments:
        padded_samples: a non-empty list of dicts with the same keys (the columns, in the first dict's order).
    """

    _name = "PaddedDataset"

    def __init__(self, padded_samples: list[dict[str, Any]]) -> None:
        super().__init__(None, None, False, None, None)
        if not isinstance(padded_samples, list) or not padded_samples:
            raise ArgTypeError(f"For 'PaddedDataset', 'padded_samples' must be a non-empty list of dict, "
                               f"got {padded_samples!r}")
        for k, sample in enumerate(padded_samples):
            if not isinstance(sample, dict):
                raise ArgTypeError(f"For 'PaddedDataset', padded_samples[{k}] must be a dict, got "
                                   f"{type(sample).__name__}")
        names = list(padded_samples[0])
        for k, sample in enumerate(padded_samples):
            if sorted(sample) != sorted(names):
                raise ValueError(f"For 'PaddedDataset', padded_samples[{k}] has keys {sorted(sample)}, expected "
                                 f"{sorted(names)}")
        self.padded_samples = padded_samples
        self._reader = _Samples([tuple(np.asarray(s[n]) for n in names) for s in padded_samples])
        self._column_names = names


def _random_schema(rng: np.random.Generator) -> Schema:
    schema = Schema()
    for k in range(int(rng.integers(1, 5))):
        dtype = ("uint8", "int32", "float32")[int(rng.integers(3))]
        schema.add_column(f"c{k}", dtype, [int(d) for d in rng.integers(1, 9, size=int(rng.integers(1, 3)))])
    return schema


class _RandomRows:
    def __init__(self, n: int, columns: list[dict[str, Any]], seed: int) -> None:
        self.n, self.columns, self.seed = n, columns, seed

    def __len__(self) -> int:
        return self.n

    def __getitem__(self, idx: int) -> tuple[np.ndarray, ...]:
        rng = np.random.default_rng([self.seed, idx])
        out = []
        for c in self.columns:
            shape = tuple(c.get("shape") or ())
            dtype = np.dtype(c["type"])
            if dtype.kind == "f":
                out.append(rng.random(shape).astype(dtype))
            elif dtype.kind == "b":
                out.append(rng.integers(0, 2, shape).astype(bool))
            else:
                info = np.iinfo(dtype)
                out.append(rng.integers(max(info.min, -2 ** 31), min(info.max, 2 ** 31 - 1), shape,
                                        endpoint=True).astype(dtype))
        return tuple(out)


class RandomDataset(MappableSourceDataset):
    """Random rows following a schema (for tests and benchmarks); the same seed gives the same rows.

    Arguments:
        total_rows: the number of rows (default: random in [1, 1024]).
        schema: a :class:`Schema` or its JSON file path: the columns, types and shapes
            (default: 1 to 4 random columns).
        columns_list: the columns to keep, in this order.
        num_samples: rows to read (per shard).
        num_parallel_workers: workers (capped at the cores).
        cache: not supported (must be ``None``).
        shuffle: shuffle the rows (default ``True``).
        num_shards: number of shards...
        shard_id: ...and the one to read.
    """

    _name = "RandomDataset"

    def __init__(self, total_rows: int | None = None, schema: Any = None, columns_list: list[str] | None = None,
                 num_samples: int | None = None, num_parallel_workers: int | None = None, cache: Any = None,
                 shuffle: bool | None = None, num_shards: int | None = None, shard_id: int | None = None) -> None:
        from mindjax.dataset import config

        super().__init__(num_samples, num_parallel_workers, shuffle, num_shards, shard_id)
        if cache is not None:
            raise ValueError("For 'RandomDataset', 'cache' is not supported")
        seed = config.get_seed()
        rng = np.random.default_rng([seed, 17])
        if total_rows is None:
            total_rows = int(rng.integers(1, 1025))
        if not isinstance(total_rows, int) or isinstance(total_rows, bool) or total_rows < 1:
            raise ValueError(f"For 'RandomDataset', 'total_rows' must be a positive int, got {total_rows!r}")
        if isinstance(schema, str):
            schema = Schema(schema)
        if schema is None:
            schema = _random_schema(rng)
        if not isinstance(schema, Schema):
            raise ArgTypeError(f"For 'RandomDataset', 'schema' must be a Schema or a path, got {schema!r}")
        columns = schema.columns
        if columns_list is not None:
            by_name = {c["name"]: c for c in columns}
            missing = [c for c in columns_list if c not in by_name]
            if missing:
                raise ValueError(f"For 'RandomDataset', columns_list {missing} are not in the schema "
                                 f"{list(by_name)}")
            columns = [by_name[c] for c in columns_list]
        for c in columns:
            if c["type"] in ("string", "bytes"):
                raise ValueError(f"For 'RandomDataset', column '{c['name']}' has type {c['type']}; only numeric "
                                 "types can be generated")
        self.total_rows, self.schema, self.columns_list = total_rows, schema, columns_list
        self._reader = _RandomRows(total_rows, columns, seed)
        self._column_names = [c["name"] for c in columns]
