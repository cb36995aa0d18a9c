"""File sources read row by row: ``TextFileDataset``, ``CSVDataset``, ``TFRecordDataset``.

The rows are read when the dataset is made; ``shuffle`` takes a bool or a
:class:`Shuffle` mode as in MindSpore (``FILES`` shuffles the file order,
``INFILE`` the rows inside each file, the others every row).
"""
from __future__ import annotations

import csv
import glob
import os
import struct
from typing import Any

import numpy as np

from mindjax.dataset.mind_dataset import FileOrderSampler, Shuffle, file_shuffle_mode
from mindjax.dataset.rows import ArgTypeError, DataError
from mindjax.dataset.schema import Schema
from mindjax.dataset.sources import MappableSourceDataset, _check_shards

__all__ = ["TextFileDataset", "CSVDataset", "TFRecordDataset", "resolve_files"]


def resolve_files(dataset_files: Any, who: str) -> list[str]:
    """The files of ``dataset_files`` (a path or glob pattern, or a list of them), sorted."""
    if isinstance(dataset_files, (str, os.PathLike)):
        patterns = [os.fspath(dataset_files)]
    elif isinstance(dataset_files, (list, tuple)) and dataset_files and all(
            isinstance(f, (str, os.PathLike)) for f in dataset_files):
        patterns = [os.fspath(f) for f in dataset_files]
    else:
        raise ArgTypeError(f"For '{who}', 'dataset_files' must be a str or a non-empty list of str, "
                           f"got {dataset_files!r}")
    files: list[str] = []
    for pattern in patterns:
        found = sorted(glob.glob(pattern)) if glob.has_magic(pattern) else [pattern]
        if not found:
            raise ValueError(f"For '{who}', the file pattern {pattern} matches no file")
        for path in found:
            if not os.path.isfile(path):
                raise ValueError(f"For '{who}', the file {path} does not exist or is not a file")
        files.extend(found)
    return sorted(files)


class _RowTable:
    """Rows held in memory: ``len()`` and ``table[i] -> tuple of arrays``."""

    def __init__(self, rows: list[tuple[np.ndarray, ...]]) -> None:
        self.rows = rows

    def __len__(self) -> int:
        return len(self.rows)

    def __getitem__(self, idx: int) -> tuple[np.ndarray, ...]:
        return self.rows[idx]


class _FileRowsDataset(MappableSourceDataset):
    """Base of sources whose rows come file by file; subclasses give ``_read(path) -> list of row tuples``."""

    def _setup(self, dataset_files: Any, num_samples: Any, num_parallel_workers: Any, shuffle: Any,
               num_shards: Any, shard_id: Any, cache: Any) -> None:
        if cache is not None:
            raise ValueError(f"For '{self._name}', 'cache' is not supported")
        mode, flag = file_shuffle_mode(shuffle, self._name)
        super().__init__(None if mode else num_samples, num_parallel_workers, False if mode else flag,
                         None if mode else num_shards, None if mode else shard_id)
        self.dataset_files = resolve_files(dataset_files, self._name)
        per_file = [self._read(path) for path in self.dataset_files]
        self._reader = _RowTable([row for rows in per_file for row in rows])
        if mode is not None:
            self.sampler = FileOrderSampler(mode, [len(r) for r in per_file], *_check_shards(self._name, num_shards,
                                                                                           shard_id),
                                            None if num_samples == 0 else num_samples)

    def _read(self, path: str) -> list[tuple[np.ndarray, ...]]:
        raise NotImplementedError


class TextFileDataset(_FileRowsDataset):
    """One row per non-empty line of text files: column ``text`` (a string scalar).

    Arguments:
        dataset_files: a file or glob pattern, or a list of them (read in sorted order).
        num_samples: rows to read (per shard); None reads all.
        num_parallel_workers: workers (capped at the cores).
        shuffle: ``Shuffle.GLOBAL`` (default, as True), ``Shuffle.FILES``, ``Shuffle.INFILE`` or False.
        num_shards: number of shards...
        shard_id: ...and the one to read.
        cache: not supported (must be ``None``).
    """

    _name = "TextFileDataset"

    def __init__(self, dataset_files: Any, num_samples: int | None = None, num_parallel_workers: int | None = None,
                 shuffle: Any = Shuffle.GLOBAL, num_shards: int | None = None, shard_id: int | None = None,
                 cache: Any = None) -> None:
        self._setup(dataset_files, num_samples, num_parallel_workers, shuffle, num_shards, shard_id, cache)
        self._column_names = ["text"]

    def _read(self, path: str) -> list[tuple[np.ndarray, ...]]:
        with open(path, "r", encoding="utf-8") as f:
            lines = [line.rstrip("\n").rstrip("\r") for line in f]
        return [(np.array(line),) for line in lines if line]


def _csv_value(text: str, default: Any, path: str, line: int, column: str) -> np.ndarray:
    if isinstance(default, str) or default is None:
        return np.array(text)
    if text == "":
        return np.array(default, dtype=np.int32 if isinstance(default, int) else np.float32)
    try:
        if isinstance(default, int):
            return np.array(int(text), dtype=np.int32)
        return np.array(float(text), dtype=np.float32)
    except ValueError:
        kind = "int" if isinstance(default, int) else "float"
        raise DataError(f"For 'CSVDataset', {path} line {line} column '{column}': '{text}' is not a valid "
                        f"{kind} (the type of column_defaults)") from None


class CSVDataset(_FileRowsDataset):
    """Rows of CSV files; one scalar column per field.

    Arguments:
        dataset_files: a file or glob pattern, or a list of them (read in sorted order).
        field_delim: the one-character field separator. Default: ``','``.
        column_defaults: a default per field (int, float or str); its type is the column's type
            (int32, float32 or string) and it fills empty fields. Default: every column a string.
        column_names: the column names; None takes them from the first line, which
            each file then starts with.
        num_samples, num_parallel_workers, shuffle, num_shards, shard_id, cache: as
            :class:`TextFileDataset`.
    """

    _name = "CSVDataset"

    def __init__(self, dataset_files: Any, field_delim: str = ",", column_defaults: list[Any] | None = None,
                 column_names: list[str] | None = None, num_samples: int | None = None,
                 num_parallel_workers: int | None = None, shuffle: Any = Shuffle.GLOBAL,
                 num_shards: int | None = None, shard_id: int | None = None, cache: Any = None) -> None:
        if not isinstance(field_delim, str) or len(field_delim) != 1 or field_delim in ('"', "\r", "\n"):
            raise ValueError(f"For 'CSVDataset', 'field_delim' must be one character other than a quote or a "
                             f"newline, got {field_delim!r}")
        if column_defaults is not None:
            if not isinstance(column_defaults, list) or not all(
                    isinstance(d, (int, float, str)) and not isinstance(d, bool) for d in column_defaults):
                raise ArgTypeError(f"For 'CSVDataset', 'column_defaults' must be a list of int, float or str, "
                                   f"got {column_defaults!r}")
        if column_names is not None:
            if not isinstance(column_names, list) or not column_names or not all(
                    isinstance(c, str) for c in column_names):
                raise ArgTypeError(f"For 'CSVDataset', 'column_names' must be a non-empty list of str, "
                                   f"got {column_names!r}")
            if len(set(column_names)) != len(column_names):
                raise ValueError(f"For 'CSVDataset', 'column_names' has duplicates: {column_names}")
        self.field_delim, self.column_defaults = field_delim, column_defaults
        self._given_names = column_names
        self._names: list[str] | None = list(column_names) if column_names else None
        self._setup(dataset_files, num_samples, num_parallel_workers, shuffle, num_shards, shard_id, cache)
        self.column_names = self._names
        self._column_names = list(self._names or [])

    def _read(self, path: str) -> list[tuple[np.ndarray, ...]]:
        with open(path, "r", encoding="utf-8", newline="") as f:
            records = [r for r in csv.reader(f, delimiter=self.field_delim) if r]
        if self._given_names is None:
            if not records:
                raise DataError(f"For 'CSVDataset', {path} has no header line to take column names from")
            header, records = records[0], records[1:]
            if self._names is None:
                self._names = header
            elif header != self._names:
                raise DataError(f"For 'CSVDataset', the header of {path} is {header}, but the first file's is "
                                f"{self._names}")
        names = self._names
        defaults = self.column_defaults
        if defaults is not None and len(defaults) != len(names):
            raise ValueError(f"For 'CSVDataset', column_defaults has {len(defaults)} values but there are "
                             f"{len(names)} columns {names}")
        rows = []
        first_line = 2 if self._given_names is None else 1
        for k, record in enumerate(records):
            if len(record) != len(names):
                raise DataError(f"For 'CSVDataset', {path} line {k + first_line} has {len(record)} fields, "
                                f"expected {len(names)} ({names})")
            rows.append(tuple(_csv_value(v, None if defaults is None else defaults[c], path, k + first_line,
                                         names[c]) for c, v in enumerate(record)))
        return rows


def _varint(buf: bytes, pos: int) -> tuple[int, int]:
    result = shift = 0
    while True:
        b = buf[pos]
        pos += 1
        result |= (b & 0x7F) << shift
        if not b & 0x80:
            return result, pos
        shift += 7


def _fields(buf: bytes) -> list[tuple[int, int, Any]]:
    """(field number, wire type, value) of a protobuf message: varints as ints, length-delimited as bytes."""
    out, pos = [], 0
    while pos < len(buf):
        key, pos = _varint(buf, pos)
        number, wire = key >> 3, key & 7
        if wire == 0:
            value, pos = _varint(buf, pos)
        elif wire == 2:
            size, pos = _varint(buf, pos)
            value, pos = buf[pos:pos + size], pos + size
        elif wire == 5:
            value, pos = buf[pos:pos + 4], pos + 4
        elif wire == 1:
            value, pos = buf[pos:pos + 8], pos + 8
        else:
            raise DataError(f"For 'TFRecordDataset', unsupported protobuf wire type {wire}")
        out.append((number, wire, value))
    return out


def _feature(buf: bytes) -> np.ndarray:
    """A ``tf.train.Feature``: a bytes, float or int64 list."""
    for number, _, payload in _fields(buf):
        values = [(w, v) for n, w, v in _fields(payload) if n == 1]
        if number == 1:
            return np.array([v for _, v in values], dtype=object).astype(np.bytes_)
        if number == 2:
            floats: list[float] = []
            for wire, v in values:
                floats.extend(struct.unpack(f"<{len(v) // 4}f", v) if wire == 2 else struct.unpack("<f", v))
            return np.array(floats, dtype=np.float32)
        if number == 3:
            ints: list[int] = []
            for wire, v in values:
                if wire == 2:
                    pos = 0
                    while pos < len(v):
                        x, pos = _varint(v, pos)
                        ints.append(x - (1 << 64) if x >= 1 << 63 else x)
                else:
                    ints.append(v - (1 << 64) if v >= 1 << 63 else v)
            return np.array(ints, dtype=np.int64)
    return np.zeros(0, np.float32)


def parse_example(record: bytes) -> dict[str, np.ndarray]:
    """The features of a serialized ``tf.train.Example`` by name."""
    features: dict[str, np.ndarray] = {}
    for number, _, payload in _fields(record):
        if number != 1:
            continue
        for entry_number, _, entry in _fields(payload):
            if entry_number != 1:
                continue
            key, value = b"", b""
            for n, _, v in _fields(entry):
                if n == 1:
                    key = v
                elif n == 2:
                    value = v
            features[key.decode("utf-8")] = _feature(value)
    return features


def read_tfrecords(path: str, compression_type: str | None = None) -> list[bytes]:
    """The records of a TFRecord file (length-prefixed, CRC-framed)."""
    if compression_type == "GZIP":
        import gzip

        with gzip.open(path, "rb") as f:
            data = f.read()
    elif compression_type == "ZLIB":
        import zlib

        with open(path, "rb") as f:
            data = zlib.decompress(f.read())
    else:
        with open(path, "rb") as f:
            data = f.read()
    records, pos = [], 0
    while pos < len(data):
        if pos + 12 > len(data):
            raise DataError(f"For 'TFRecordDataset', {path} is truncated at byte {pos}")
        (length,) = struct.unpack("<Q", data[pos:pos + 8])
        start = pos + 12
        if start + length + 4 > len(data):
            raise DataError(f"For 'TFRecordDataset', {path} is truncated: a record of {length} bytes at byte {pos}")
        records.append(data[start:start + length])
        pos = start + length + 4
    return records


class TFRecordDataset(_FileRowsDataset):
    """Rows of TFRecord files of ``tf.train.Example`` protos, read without TensorFlow.

    Each feature is a column: an int64 list gives int64, a float list float32, a
    bytes list a bytes array (1-D, the list's length). CRCs are not checked.

    Arguments:
        dataset_files: a file or glob pattern, or a list of them (read in sorted order).
        schema: a :class:`Schema` or the path of its JSON file: the columns, with their
            types (cast) and shapes (reshaped). Default: every feature, sorted by name.
        columns_list: the columns to read, in this order.
        num_samples, num_parallel_workers, shuffle, num_shards, shard_id, cache: as
            :class:`TextFileDataset`.
        shard_equal_rows: accepted; rows are already spread evenly over shards.
        compression_type: ``None``/``''``, ``'GZIP'`` or ``'ZLIB'``.
    """

    _name = "TFRecordDataset"

    def __init__(self, dataset_files: Any, schema: Any = None, columns_list: list[str] | None = None,
                 num_samples: int | None = None, num_parallel_workers: int | None = None,
                 shuffle: Any = Shuffle.GLOBAL, num_shards: int | None = None, shard_id: int | None = None,
                 shard_equal_rows: bool = False, cache: Any = None, compression_type: str | None = None) -> None:
        if compression_type not in (None, "", "GZIP", "ZLIB"):
            raise ValueError(f"For 'TFRecordDataset', 'compression_type' must be None, '', 'GZIP' or 'ZLIB', "
                             f"got {compression_type!r}")
        if isinstance(schema, str):
            schema = Schema(schema)
        if schema is not None and not isinstance(schema, Schema):
            raise ArgTypeError(f"For 'TFRecordDataset', 'schema' must be a Schema or a path, got {schema!r}")
        if columns_list is not None and (not isinstance(columns_list, list) or not all(
                isinstance(c, str) for c in columns_list)):
            raise ArgTypeError(f"For 'TFRecordDataset', 'columns_list' must be a list of str, got {columns_list!r}")
        self.schema, self.columns_list, self.compression_type = schema, columns_list, compression_type or None
        self.shard_equal_rows = shard_equal_rows
        self._names: list[str] | None = None
        if columns_list:
            self._names = list(columns_list)
        elif schema is not None:
            self._names = [c["name"] for c in schema.columns]
        self._setup(dataset_files, num_samples, num_parallel_workers, shuffle, num_shards, shard_id, cache)
        self._column_names = list(self._names or [])

    def _read(self, path: str) -> list[tuple[np.ndarray, ...]]:
        rows = []
        specs = {c["name"]: c for c in self.schema.columns} if self.schema is not None else {}
        for k, record in enumerate(read_tfrecords(path, self.compression_type)):
            features = parse_example(record)
            if self._names is None:
                self._names = sorted(features)
            row = []
            for name in self._names:
                if name not in features:
                    raise DataError(f"For 'TFRecordDataset', record {k} of {path} has no feature '{name}' "
                                    f"(it has {sorted(features)})")
                value = features[name]
                spec = specs.get(name)
                if spec is not None:
                    if spec["type"] not in ("string", "bytes"):
                        value = value.astype(spec["type"])
                    if spec.get("shape"):
                        value = value.reshape(spec["shape"])
                row.append(value)
            rows.append(tuple(row))
        return rows


