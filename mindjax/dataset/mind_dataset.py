"""``MindDataset``: the rows of MindRecord files (``mindspore.dataset.MindDataset``).

It reads what :class:`mindjax.mindrecord.FileWriter` (and ``Dataset.save``)
wrote: MindJAX's own MindRecord layout, not MindSpore's bytes. Columns come
in sorted field order (as MindSpore's header stores the schema) unless
``columns_list`` orders them; numbers keep their schema dtype, strings are
numpy ``str`` arrays, bytes fields are ``uint8`` arrays.
"""
from __future__ import annotations

import enum
from typing import Any

import numpy as np

from mindjax.dataset.rows import ArgTypeError, DataError
from mindjax.dataset.samplers import BuiltinSampler, _rng
from mindjax.dataset.sources import MappableSourceDataset, _check_shards

__all__ = ["MindDataset", "Shuffle", "file_shuffle_mode", "FileOrderSampler"]


class Shuffle(str, enum.Enum):
    """Shuffle modes of file-based sources (``mindspore.dataset.Shuffle``).

    ``ADAPTIVE``, ``GLOBAL`` and ``PARTIAL`` shuffle every row (MindJAX's global
    shuffle is lazy, so it needs no partial mode for large data); ``FILES``
    shuffles the order of the files and keeps each file's rows in order;
    ``INFILE`` keeps the files in order and shuffles the rows inside each.
    """

    FALSE = "false"
    ADAPTIVE = "adaptive"
    GLOBAL = "global"
    PARTIAL = "partial"
    FILES = "files"
    INFILE = "infile"


class _Shards:
    """Random access over the rows of several shard files, then the padded samples."""

    def __init__(self, shards: list[Any], columns: list[str], padded: tuple[Any, ...] | None, num_padded: int) -> None:
        self.shards, self.columns = shards, columns
        self.offsets = np.cumsum([0] + [s.rows for s in shards])
        self.padded, self.num_padded = padded, num_padded

    def __len__(self) -> int:
        return int(self.offsets[-1]) + self.num_padded

    def __getitem__(self, idx: int) -> tuple[Any, ...]:
        idx = int(idx)
        if idx >= self.offsets[-1]:
            return tuple(np.array(v, copy=True) if isinstance(v, np.ndarray) else np.asarray(v)
                         for v in self.padded)
        k = int(np.searchsorted(self.offsets, idx, side="right")) - 1
        row = self.shards[k].record(idx - int(self.offsets[k]))
        return tuple(row[c] for c in self.columns)

    def _column_values(self, name: str) -> list[Any]:
        """Every row's value of column ``name`` (for a ``PKSampler``'s classes)."""
        k = self.columns.index(name)
        return [self[i][k] for i in range(len(self))]


def file_shuffle_mode(shuffle: Any, who: str) -> tuple[Shuffle | None, bool | None]:
    """(the per-file mode ``FILES``/``INFILE`` or None, the row shuffle flag) of a file source's ``shuffle``."""
    if shuffle is not None and not isinstance(shuffle, (bool, Shuffle)):
        raise ArgTypeError(f"For '{who}', 'shuffle' must be a bool, None or ds.Shuffle, got {shuffle!r}")
    if not isinstance(shuffle, Shuffle):
        return None, shuffle
    flag = None if shuffle != Shuffle.FALSE else False
    if shuffle in (Shuffle.ADAPTIVE, Shuffle.GLOBAL, Shuffle.PARTIAL, Shuffle.FALSE):
        return None, flag
    return shuffle, flag


class FileOrderSampler(BuiltinSampler):
    """``Shuffle.FILES``/``Shuffle.INFILE`` orders, then MindSpore's strided shards and ``num_samples``."""

    _salt = 11

    def __init__(self, mode: Shuffle, sizes: list[int], num_shards: int | None, shard_id: int | None,
                 num_samples: int | None) -> None:
        super().__init__(num_samples)
        self.mode, self.sizes = mode, sizes
        self.num_shards, self.shard_id = num_shards or 1, shard_id or 0

    def _own_size(self, n: int) -> int:
        return self._limit(-(-n // self.num_shards) if n else 0)

    def _own_positions(self, n: int, seed: int | None) -> np.ndarray:
        rng = _rng(seed, self._salt)
        starts = np.cumsum([0] + self.sizes)
        files = [np.arange(starts[k], starts[k + 1], dtype=np.int64) for k in range(len(self.sizes))]
        if self.mode == Shuffle.FILES:
            files = [files[k] for k in rng.permutation(len(files))]
        else:
            files = [rng.permutation(f) for f in files]
        padding = [np.arange(starts[-1], n, dtype=np.int64)]
        order = np.concatenate(files + padding) if n else np.zeros(0, np.int64)
        picks = (np.arange(self._own_size(n), dtype=np.int64) * self.num_shards + self.shard_id) % max(n, 1)
        return order[picks]

    def is_shuffled(self) -> bool:
        """``True``."""
        return True


class MindDataset(MappableSourceDataset):
    """Rows of MindRecord files written by MindJAX's ``FileWriter`` or ``Dataset.save``.

    Arguments:
        dataset_files: one file of a set (the other shards are found through its
            header), or a list of files read as given.
        columns_list: the columns to read, in this order (default: all, sorted by name).
        num_parallel_workers: workers (capped at the cores).
        shuffle: ``None``/``True`` (global shuffle), ``False``, or a :class:`Shuffle` mode.
        num_shards: shards for distributed reading (strided: shard ``s`` gets rows
            ``s, s + num_shards, ...``)...
        shard_id: ...and the one to read.
        sampler: a sampler (excludes ``shuffle`` and sharding).
        padded_sample: a dict with a value per column, appended ``num_padded`` times.
        num_padded: how many padded samples; with sharding, rows plus ``num_padded``
            must divide by ``num_shards``.
        num_samples: rows to read (per shard).
        cache: not supported (must be ``None``).

    Example:
        >>> # ds.MindDataset("data.mindrecord", shuffle=False)
    """

    _name = "MindDataset"

    def __init__(self, dataset_files: Any, columns_list: list[str] | None = None,
                 num_parallel_workers: int | None = None, shuffle: Any = None, num_shards: int | None = None,
                 shard_id: int | None = None, sampler: Any = None, padded_sample: dict[str, Any] | None = None,
                 num_padded: int | None = None, num_samples: int | None = None, cache: Any = None) -> None:
        from mindjax.mindrecord.filereader import open_shards

        if cache is not None:
            raise ValueError("For 'MindDataset', 'cache' is not supported")
        mode, shuffle = file_shuffle_mode(shuffle, self._name)
        file_mode = mode is not None and sampler is None
        super().__init__(None if file_mode else num_samples, num_parallel_workers,
                         False if file_mode else shuffle, None if file_mode else num_shards,
                         None if file_mode else shard_id, sampler)
        shards = open_shards(dataset_files, self._name)
        fields = list(shards[0].schema)
        if columns_list is None:
            columns = fields
        else:
            if not isinstance(columns_list, list) or not columns_list or not all(
                    isinstance(c, str) for c in columns_list):
                raise ArgTypeError(f"For 'MindDataset', 'columns_list' must be a non-empty list of str, "
                                   f"got {columns_list!r}")
            missing = [c for c in columns_list if c not in fields]
            if missing:
                raise ValueError(f"For 'MindDataset', columns_list {missing} are not in the files' schema {fields}")
            columns = list(columns_list)
        padded, count = self._padding(padded_sample, num_padded, columns, shards[0].schema)
        self.dataset_files, self.columns_list = dataset_files, columns
        self._reader = _Shards(shards, columns, padded, count)
        self._column_names = columns
        if file_mode:
            shards_checked = _check_shards(self._name, num_shards, shard_id)
            self.sampler = FileOrderSampler(mode, [s.rows for s in shards], *shards_checked,
                                             None if num_samples == 0 else num_samples)
        if count and self.num_shards and len(self._reader) % self.num_shards:
            raise DataError(f"For 'MindDataset', rows plus num_padded ({len(self._reader)}) must divide by "
                            f"num_shards={self.num_shards}")

    def _padding(self, padded_sample: Any, num_padded: Any, columns: list[str],
                 schema: dict[str, Any]) -> tuple[tuple[Any, ...] | None, int]:
        if padded_sample is None:
            if num_padded:
                raise ValueError("For 'MindDataset', 'num_padded' needs 'padded_sample'")
            return None, 0
        if not isinstance(padded_sample, dict):
            raise ArgTypeError(f"For 'MindDataset', 'padded_sample' must be a dict, got {type(padded_sample).__name__}")
        if num_padded is None:
            num_padded = 0
        if not isinstance(num_padded, int) or isinstance(num_padded, bool) or num_padded < 0:
            raise ArgTypeError(f"For 'MindDataset', 'num_padded' must be an int >= 0, got {num_padded!r}")
        missing = [c for c in columns if c not in padded_sample]
        if missing:
            raise ValueError(f"For 'MindDataset', padded_sample lacks columns {missing}")
        values = []
        for c in columns:
            v, kind = padded_sample[c], schema[c]["type"]
            if kind == "bytes":
                values.append(np.frombuffer(bytes(v), dtype=np.uint8))
            elif kind == "string":
                values.append(np.array(str(v)))
            else:
                values.append(np.asarray(v, dtype=kind))
        return tuple(values), num_padded
