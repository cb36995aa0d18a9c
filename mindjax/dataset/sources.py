"""Sources: ``GeneratorDataset``, ``NumpySlicesDataset`` and the sampling they share.

A random-access source is read through :class:`SampledMapDataset`, a grain
``MapDataset`` that shuffles lazily with grain's ``index_shuffle`` (a new
permutation each epoch), shards by ``num_shards``/``shard_id`` (each shard
gets ``ceil(n / num_shards)`` rows, the last wrapping around as MindSpore
pads), and limits to ``num_samples``. Under ``jax.distributed`` with several
processes, sources shard by process unless told otherwise. A ``sampler``
(see :mod:`mindjax.dataset.samplers`) replaces all of that: it gives each
epoch's source positions as one array.
"""
from __future__ import annotations

import warnings
from typing import Any, Callable, Iterator, Sequence

import grain
import numpy as np

from mindjax.dataset._batched import GatherRows
from mindjax.dataset._grain import IterableSourceIterDataset, permutation_position, permutation_positions
from mindjax.dataset.dataset import Dataset, ceil_div
from mindjax.dataset.rows import (ArgTypeError, BuildContext, DataError, Row, as_column_list, check_positive_int,
                                  to_row)
from mindjax.dataset.samplers import BuiltinSampler, SubsetSampler

__all__ = ["GeneratorDataset", "NumpySlicesDataset", "MappableSourceDataset", "SampledMapDataset"]


def _default_shards(num_shards: int | None, shard_id: int | None) -> tuple[int | None, int | None]:
    """Shard by process under ``jax.distributed`` when the caller did not choose."""
    if num_shards is None and shard_id is None:
        import jax

        if jax.distributed.is_initialized() and jax.process_count() > 1:
            return jax.process_count(), jax.process_index()
    return num_shards, shard_id


def _check_shards(who: str, num_shards: Any, shard_id: Any) -> tuple[int | None, int | None]:
    if (num_shards is None) != (shard_id is None):
        raise DataError(f"For '{who}', 'num_shards' and 'shard_id' must be given together, "
                         f"got num_shards={num_shards!r}, shard_id={shard_id!r}")
    if num_shards is None:
        return None, None
    num_shards = check_positive_int(num_shards, who, "num_shards", allow_none=False)
    if not isinstance(shard_id, (int, np.integer)) or isinstance(shard_id, bool):
        raise ArgTypeError(f"For '{who}', 'shard_id' must be an int in [0, {num_shards}), got {shard_id!r}")
    if not 0 <= shard_id < num_shards:
        raise ValueError(f"For '{who}', 'shard_id' must be an int in [0, {num_shards}), got {shard_id!r}")
    return num_shards, int(shard_id)


class _ReadSample:
    """Reads sample ``idx`` of a random-access source into a row, naming the index on failure."""

    def __init__(self, source: Any, who: str, columns: list[str], converts: bool) -> None:
        self.source, self.who, self.columns, self.converts = source, who, columns, converts

    def __call__(self, idx: int) -> Row:
        try:
            item = self.source[idx]
        except Exception as err:
            raise RuntimeError(f"For '{self.who}', reading sample index {idx} failed: "
                               f"{type(err).__name__}: {err}") from err
        if self.converts:
            return to_row(item, self.columns, self.who, idx)
        return Row(item, idx)


class SampledMapDataset(grain.MapDataset):
    """Rows of a random-access source in sampled order (see the module docstring).

    Arguments:
        read: ``read(idx) -> Row``.
        n: the source length.
        shuffle_seed: the seed of this epoch's permutation, or ``None`` for source order.
        num_shards: shards, or ``None``.
        shard_id: this shard.
        num_samples: the limit, or ``None``.
        sampler: a built-in sampler that gives this epoch's positions instead
            (``shuffle_seed`` is then its seed; the shard and limit arguments are unused).
    """

    def __init__(self, read: Callable[[int], Row], n: int, shuffle_seed: int | None, num_shards: int | None,
                 shard_id: int | None, num_samples: int | None, sampler: BuiltinSampler | None = None) -> None:
        super().__init__([])
        self._read, self._n, self._seed = read, int(n), shuffle_seed
        self._shards = num_shards or 1
        self._shard_id = shard_id or 0
        self._sampler = sampler
        self._len = sampled_length(n, num_shards, num_samples) if sampler is None else sampler._epoch_size(n)
        self._cache: dict[str, Any] = {}

    def _sampled(self) -> np.ndarray:
        # Drawn once per epoch build, on first use; a rebuilt copy (a worker) draws the same array.
        table = self._cache.get("sampled")
        if table is None:
            table = np.asarray(self._sampler._epoch_positions(self._n, self._seed), dtype=np.int64)
            if len(table) != self._len:
                raise RuntimeError(f"the sampler gave {len(table)} positions, expected {self._len}")
            self._cache["sampled"] = table
        return table

    def __len__(self) -> int:
        return self._len

    def __getitem__(self, index: Any) -> Any:
        if isinstance(index, slice):
            return self.slice(index)
        if self._sampler is not None:
            return self._read(int(self._sampled()[int(index) % max(self._len, 1)]))
        position = (self._shard_id + (int(index) % max(self._len, 1)) * self._shards) % self._n
        if self._seed is not None and self._n > 1:
            position = permutation_position(position, self._n, self._seed, self._cache)
        return self._read(position)

    def positions(self, indices: np.ndarray) -> np.ndarray:
        """The source positions of rows ``indices`` (int64), as ``__getitem__`` reads them."""
        if self._sampler is not None:
            return self._sampled()[np.asarray(indices, dtype=np.int64) % max(self._len, 1)]
        position = (self._shard_id + (np.asarray(indices, dtype=np.int64) % max(self._len, 1)) * self._shards) % self._n
        if self._seed is not None and self._n > 1:
            position = permutation_positions(position, self._n, self._seed, self._cache)
        return position

    def __getstate__(self) -> dict[str, Any]:
        state = self.__dict__.copy()
        state["_cache"] = {}
        return state

    def __str__(self) -> str:
        return f"SampledMapDataset(n={self._n}, shards={self._shards})"


def sampled_length(n: int, num_shards: int | None, num_samples: int | None) -> int:
    """Rows one shard reads per epoch."""
    length = ceil_div(n, num_shards) if num_shards else n
    if n == 0:
        length = 0
    return min(length, num_samples) if num_samples else length


def _select_sampler(who: str, sampler: Any, num_samples: Any, shuffle: Any, num_shards: Any, shard_id: Any,
                    list_takes_num_samples: bool) -> BuiltinSampler | None:
    """The sampler a source uses for ``sampler=`` (``None``: shuffle, shards and ``num_samples`` decide).

    As in MindSpore, a sampler excludes ``shuffle`` and sharding; it also excludes
    ``num_samples``, except that ``GeneratorDataset`` limits an index list with it.
    """
    if sampler is None:
        return None
    if shuffle is not None:
        raise DataError(f"For '{who}', sampler and shuffle cannot be specified at the same time, "
                        f"got shuffle={shuffle!r}")
    if num_shards is not None or shard_id is not None:
        raise DataError(f"For '{who}', sampler and sharding cannot be specified at the same time, got "
                        f"num_shards={num_shards!r}, shard_id={shard_id!r}; use ds.DistributedSampler")
    if isinstance(sampler, BuiltinSampler):
        if num_samples is not None:
            raise DataError(f"For '{who}', sampler and num_samples cannot be specified at the same time, got "
                            f"num_samples={num_samples!r}; give num_samples to the sampler")
        return sampler
    if num_samples is not None and not list_takes_num_samples:
        raise DataError(f"For '{who}', sampler and num_samples cannot be specified at the same time, got "
                        f"num_samples={num_samples!r}")
    indexable = hasattr(sampler, "__iter__") or isinstance(sampler, (int, np.integer))
    if isinstance(sampler, (str, bytes)) or not indexable:
        raise ArgTypeError(f"For '{who}', 'sampler' must be a sampler from mindjax.dataset or an iterable of "
                           f"indices, got {type(sampler).__name__}")
    # A user iterable is read once here, so that every epoch and every worker sees the same indices.
    return SubsetSampler(sampler, num_samples or None)


class _LabelsOf:
    """The class of each row of a random-access source, read once (per process) for a ``PKSampler``."""

    def __init__(self, reader: Any, columns: list[str], column: str, who: str, converts: bool) -> None:
        if column not in columns:
            raise DataError(f"For 'PKSampler', class_column '{column}' is not a column of '{who}': {columns}")
        self.reader, self.k, self.who, self.converts, self.columns = reader, columns.index(column), who, converts, columns
        self._labels: list[Any] | None = None

    def __call__(self) -> list[Any]:
        if self._labels is None:
            values = getattr(self.reader, "_column_values", None)
            if values is not None:
                raw = values(self.columns[self.k])
            elif getattr(self.reader, "_gather_rows", None) is not None:
                raw = list(self.reader._gather_rows(np.arange(len(self.reader), dtype=np.int64))[self.k])
            else:
                read = _ReadSample(self.reader, self.who, self.columns, self.converts)
                raw = [read(i)[self.k] for i in range(len(self.reader))]
            self._labels = [_hashable(v) for v in raw]
        return self._labels

    def __getstate__(self) -> dict[str, Any]:
        state = self.__dict__.copy()
        state["_labels"] = None
        return state


def _hashable(value: Any) -> Any:
    array = np.asarray(value)
    if array.ndim:
        raise DataError(f"For 'PKSampler', a class label must be a scalar, got shape {array.shape}")
    return array.item()


class MappableSourceDataset(Dataset):
    """Base of random-access sources: shuffle, shards and ``num_samples`` as MindSpore defines them.

    Subclasses set ``self._reader`` (``len()`` and ``reader[i] -> tuple of arrays``) and
    ``self._column_names``.
    """

    _name = "MappableSourceDataset"

    def __init__(self, num_samples: int | None, num_parallel_workers: int | None, shuffle: bool | None,
                 num_shards: int | None, shard_id: int | None, sampler: Any = None,
                 python_multiprocessing: bool = False) -> None:
        super().__init__([], num_parallel_workers, python_multiprocessing)
        self.sampler = _select_sampler(self._name, sampler, num_samples, shuffle, num_shards, shard_id,
                                       list_takes_num_samples=isinstance(self, GeneratorDataset))
        if self.sampler is not None:
            num_samples = shuffle = None
        if shuffle is not None and not isinstance(shuffle, bool):
            raise ArgTypeError(f"For '{self._name}', 'shuffle' must be a bool or None, got {shuffle!r}")
        # MindSpore reads num_samples=0 as "all the samples".
        self.num_samples = check_positive_int(None if num_samples == 0 else num_samples, self._name, "num_samples")
        self.shuffle_flag = True if shuffle is None else shuffle
        if self.sampler is None:
            num_shards, shard_id = _default_shards(num_shards, shard_id)
        self.num_shards, self.shard_id = _check_shards(self._name, num_shards, shard_id)
        self._reader: Any = None
        self._column_names: list[str] = []
        self._converts = False

    def _columns(self) -> list[str]:
        return list(self._column_names)

    def _mappable(self) -> bool:
        return True

    def _bind_samplers(self) -> None:
        """Give the samplers that need them (``PKSampler``) the class of each row, once."""
        sampler = self.sampler
        while sampler is not None:
            if getattr(sampler, "_needs_labels", False) and getattr(sampler, "_labels_owner", None) != id(self):
                sampler._bind_labels(_LabelsOf(self._reader, self._column_names, sampler.class_column, self._name,
                                               self._converts))
                sampler._labels_owner = id(self)
            sampler = sampler.child_sampler

    def _size(self) -> int:
        if self.sampler is not None:
            self._bind_samplers()
            return self.sampler._epoch_size(len(self._reader))
        return sampled_length(len(self._reader), self.num_shards, self.num_samples)

    def _build(self, ctx: BuildContext, path: tuple[int, ...]) -> grain.MapDataset:
        read = _ReadSample(self._reader, self._name, self._column_names, self._converts)
        if self.sampler is not None:
            self._bind_samplers()
            return SampledMapDataset(read, len(self._reader), ctx.seed_at(path), None, None, None, self.sampler)
        seed = ctx.seed_at(path) if self.shuffle_flag else None
        return SampledMapDataset(read, len(self._reader), seed, self.num_shards, self.shard_id, self.num_samples)

    def _batch_reader(self, ctx: BuildContext, path: tuple[int, ...]) -> GatherRows | None:
        # Readers holding their data as arrays define ``_gather_rows(positions)``.
        gather = getattr(self._reader, "_gather_rows", None)
        if gather is None or not self._mappable():
            return None
        return GatherRows(MappableSourceDataset._build(self, ctx, path), gather)


class _CallIterable:
    """A fresh iterator over the source each epoch (a generator function is called again)."""

    def __init__(self, source: Any) -> None:
        self.source = source

    def __call__(self) -> Iterator[Any]:
        if hasattr(self.source, "__iter__"):
            return iter(self.source)
        return iter(self.source())


class _ConvertItem:
    def __init__(self, who: str, columns: list[str]) -> None:
        self.who, self.columns = who, columns

    def __call__(self, item: Any, position: int) -> Row:
        return to_row(item, self.columns, self.who, position)


class _CheckedIterable:
    """Wraps an iterable source so that an exception names the sample index it broke at."""

    def __init__(self, make: _CallIterable, who: str) -> None:
        self.make, self.who = make, who

    def __call__(self) -> Iterator[Any]:
        position = 0
        try:
            it = self.make()
        except Exception as err:
            raise RuntimeError(f"For '{self.who}', starting the source failed: {type(err).__name__}: {err}") from err
        while True:
            try:
                item = next(it)
            except StopIteration:
                return
            except Exception as err:
                raise RuntimeError(f"For '{self.who}', the source raised at sample index {position}: "
                                   f"{type(err).__name__}: {err}") from err
            yield item
            position += 1


class GeneratorDataset(MappableSourceDataset):
    """A dataset over a Python source.

    Arguments:
        source: random-access (``__getitem__`` and ``__len__``), an iterable, or a
            function returning an iterator. Each item is an array or a tuple of
            arrays, one per column.
        column_names: the column names.
        column_types: accepted for compatibility (types come from the data).
        schema: not supported.
        num_samples: rows to read (per shard).
        num_parallel_workers: workers (capped at the cores).
        shuffle: shuffle random-access sources (default ``True`` for them); an
            iterable cannot be shuffled.
        sampler: a sampler from :mod:`mindjax.dataset.samplers`, or a list of
            indices (limited by ``num_samples``), for random-access sources;
            excludes ``shuffle`` and sharding.
        num_shards: split the data into this many shards...
        shard_id: ...and read this one.
        python_multiprocessing: with ``num_parallel_workers > 1``, read in worker processes.
        max_rowsize: accepted for compatibility.

    Example:
        >>> import numpy as np
        >>> import mindjax.dataset as ds
        >>> data = ds.GeneratorDataset([(np.array(i),) for i in range(4)], ["x"], shuffle=False)
        >>> [int(r[0]) for r in data.create_tuple_iterator(output_numpy=True, num_epochs=1)]
        [0, 1, 2, 3]
    """

    _name = "GeneratorDataset"

    def __init__(self, source: Any, column_names: Any = None, column_types: Any = None, schema: Any = None,
                 num_samples: int | None = None, num_parallel_workers: int | None = 1,
                 shuffle: bool | None = None, sampler: Any = None, num_shards: int | None = None,
                 shard_id: int | None = None, python_multiprocessing: bool = True,
                 max_rowsize: Any = None) -> None:
        del column_types, max_rowsize
        if schema is not None:
            raise ValueError("For 'GeneratorDataset', 'schema' is not supported; pass column_names")
        names = as_column_list(column_names, self._name, "column_names")
        if names is None:
            raise ValueError("For 'GeneratorDataset', 'column_names' is required")
        self._random_access = hasattr(source, "__getitem__") and hasattr(source, "__len__")
        if not self._random_access and not (hasattr(source, "__iter__") or callable(source)):
            raise TypeError("For 'GeneratorDataset', 'source' must be random-access, iterable, or a function "
                            f"returning an iterator, got {type(source).__name__}")
        if not self._random_access and sampler is not None:
            raise ValueError("For 'GeneratorDataset', 'sampler' needs a random-access source (__getitem__ and "
                             f"__len__), got {type(source).__name__}")
        if not self._random_access and shuffle:
            # MindSpore ignores it silently; say so, since the rows then come in source order.
            warnings.warn("For 'GeneratorDataset', shuffle=True is ignored: the source is not random-access "
                          "(__getitem__ and __len__); shuffle the iterable with .shuffle(buffer_size)",
                          stacklevel=2)
        super().__init__(num_samples, num_parallel_workers, shuffle if self._random_access else False,
                         num_shards, shard_id, sampler, python_multiprocessing)
        self.source = source
        self._reader = source
        self._column_names = names
        self._converts = True

    def _python_callables(self) -> list[Any]:
        return [self.source]

    def _mappable(self) -> bool:
        return self._random_access

    def _size(self) -> int | None:
        if self._random_access:
            return super()._size()
        if not hasattr(self.source, "__len__"):
            return None
        n = len(self.source)
        if self.num_shards:
            n = max(0, ceil_div(n - self.shard_id, self.num_shards))
        return min(n, self.num_samples) if self.num_samples else n

    def _build(self, ctx: BuildContext, path: tuple[int, ...]) -> Any:
        if self._random_access:
            return super()._build(ctx, path)
        shard = (self.num_shards, self.shard_id) if self.num_shards else None
        return IterableSourceIterDataset(_CheckedIterable(_CallIterable(self.source), self._name),
                                         _ConvertItem(self._name, self._column_names), shard, self.num_samples)


class _Slices:
    """Row ``i`` of a tuple of equally long columns."""

    def __init__(self, columns: Sequence[Any]) -> None:
        self.columns = columns
        if any(c.dtype.kind not in "biufc" for c in columns):
            # Ragged, object and string columns are read row by row (a string batch is as wide as its rows).
            self._gather_rows = None

    def __len__(self) -> int:
        return len(self.columns[0])

    def __getitem__(self, i: int) -> tuple[Any, ...]:
        return tuple(c[i] for c in self.columns)

    def _gather_rows(self, positions: np.ndarray) -> tuple[np.ndarray, ...]:
        return tuple(c[positions] for c in self.columns)


class NumpySlicesDataset(GeneratorDataset):
    """Rows sliced along the first axis of in-memory data.

    Arguments:
        data: an array or list (one column), a tuple (one column per element),
            or a dict (one column per key, named by the keys).
        column_names: the names (default: the dict keys, or ``column_0``, ...).
        num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id:
            as for :class:`GeneratorDataset`.

    Example:
        >>> import mindjax.dataset as ds
        >>> d = ds.NumpySlicesDataset({"x": [1, 2, 3]}, shuffle=False)
        >>> d.get_col_names(), d.get_dataset_size()
        (['x'], 3)
    """

    _name = "NumpySlicesDataset"

    def __init__(self, data: Any, column_names: Any = None, num_samples: int | None = None,
                 num_parallel_workers: int | None = 1, shuffle: bool | None = None, sampler: Any = None,
                 num_shards: int | None = None, shard_id: int | None = None) -> None:
        default_names: list[str] | None = None
        if isinstance(data, dict):
            default_names = [str(k) for k in data.keys()]
            data = tuple(data.values())
        columns = tuple(data) if isinstance(data, tuple) else (data,)
        if not columns or any(len(c) == 0 for c in columns if hasattr(c, "__len__")):
            raise ValueError("For 'NumpySlicesDataset', 'data' must not be empty")
        columns = tuple(c if isinstance(c, np.ndarray) else np.asarray(c) for c in columns)
        for k, c in enumerate(columns):
            if c.ndim == 0:
                raise ValueError(f"For 'NumpySlicesDataset', column {k} is a scalar; it needs a first axis to slice")
        lengths = [len(c) for c in columns]
        if len(set(lengths)) != 1:
            raise ValueError(f"For 'NumpySlicesDataset', every column must have the same length, got {lengths}")
        names = as_column_list(column_names, self._name, "column_names") or default_names or [
            f"column_{i}" for i in range(len(columns))]
        if len(names) != len(columns):
            raise ValueError(f"For 'NumpySlicesDataset', column_names {names} names {len(names)} columns, "
                             f"but the data has {len(columns)}")
        super().__init__(_Slices(columns), names, num_samples=num_samples,
                         num_parallel_workers=num_parallel_workers, shuffle=shuffle, sampler=sampler,
                         num_shards=num_shards, shard_id=shard_id)

    def _runs_python(self) -> bool:
        return False
