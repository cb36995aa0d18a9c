"""The few grain datasets the MindSpore API needs that grain does not ship.

Everything else (shuffles, batching, slicing, zips, thread and process
prefetch) is grain's own. Each class here is small: an epoch-spanning
``MapDataset``, an ``IterDataset`` over a Python iterable with a resumable
position, a skip, a concatenation, an epoch chain and a block stacker for
sink mode. Their iterator states are plain JSON-compatible dicts.
"""
from __future__ import annotations

import sys
from typing import Any, Callable, Iterator, Sequence

import grain
import numpy as np
from absl import flags as _absl_flags

# grain's process prefetch reads absl flags; a library user has usually not
# parsed any, so mark them parsed (with their defaults) once, here.
if not _absl_flags.FLAGS.is_parsed():
    _absl_flags.FLAGS.mark_as_parsed()

INFINITE = sys.maxsize


class _EpochEnd:
    """The marker an epoch chain yields between epochs when asked to."""

    def __repr__(self) -> str:
        return "EPOCH_END"

    def __reduce__(self) -> str:
        return "EPOCH_END"


EPOCH_END = _EpochEnd()

__all__: list[str] = []


_TABLE_LIMIT = 1 << 22


def _permutation_table(n: int, seed: int, cache: dict[str, Any]) -> np.ndarray:
    table = cache.get("table")
    if table is None:
        table = np.random.default_rng(seed).permutation(n).astype(np.int32)
        cache["table"] = table
    return table


def permutation_position(position: int, n: int, seed: int, cache: dict[str, Any]) -> int:
    """Where ``position`` goes in the seeded permutation of ``range(n)``.

    Up to 4M rows a numpy permutation table (made once per process) is used:
    grain's ``index_shuffle`` is lazy but takes milliseconds per call on small
    ranges. Larger ranges use ``index_shuffle``, which is fast there.
    """
    if n <= _TABLE_LIMIT:
        return int(_permutation_table(n, seed, cache)[position])
    return int(grain.experimental.index_shuffle(position, max_index=n - 1, seed=seed, rounds=4))


def permutation_positions(positions: np.ndarray, n: int, seed: int, cache: dict[str, Any]) -> np.ndarray:
    """:func:`permutation_position` of every element of ``positions`` (int64)."""
    if n <= _TABLE_LIMIT:
        return _permutation_table(n, seed, cache)[positions].astype(np.int64)
    return np.asarray([permutation_position(int(p), n, seed, cache) for p in positions], dtype=np.int64)


def derive_seed(*parts: int) -> int:
    """A 32-bit seed mixed from non-negative ints (stable across runs and processes)."""
    return int(np.random.SeedSequence([int(p) % 2 ** 63 for p in parts]).generate_state(1)[0])


class EpochsMapDataset(grain.MapDataset):
    """Epochs ``0 .. num_epochs-1`` of a pipeline as one random-access dataset.

    ``build(e)`` gives epoch ``e`` as a ``MapDataset``; each epoch is built
    with its own seeds, so shuffles differ between epochs and one grain
    iterator (and its worker processes) spans them all.

    Arguments:
        build: picklable callable from an epoch number to a ``grain.MapDataset``.
        epoch_length: rows in every epoch.
        num_epochs: how many epochs, or ``None`` for endless.
    """

    def __init__(self, build: Callable[[int], grain.MapDataset], epoch_length: int,
                 num_epochs: int | None) -> None:
        super().__init__([])
        self._build = build
        self._epoch_length = int(epoch_length)
        self._num_epochs = num_epochs
        self._cache: dict[int, grain.MapDataset] = {}

    def __len__(self) -> int:
        if self._epoch_length == 0:
            return 0
        if self._num_epochs is None or self._epoch_length >= INFINITE:
            return INFINITE
        return self._epoch_length * self._num_epochs

    def _epoch(self, epoch: int) -> grain.MapDataset:
        built = self._cache.get(epoch)
        if built is None:
            built = self._build(epoch)
            # Reader threads straddle an epoch boundary: keep the two newest epochs.
            self._cache = {e: d for e, d in self._cache.items() if e >= epoch - 1}
            self._cache[epoch] = built
        return built

    def __getitem__(self, index: Any) -> Any:
        if isinstance(index, slice):
            return self.slice(index)
        if self._epoch_length >= INFINITE:
            return self._epoch(0)[index]
        epoch, offset = divmod(int(index), self._epoch_length)
        return self._epoch(epoch)[offset]

    def __getstate__(self) -> dict[str, Any]:
        state = self.__dict__.copy()
        state["_cache"] = {}
        return state

    def __str__(self) -> str:
        return f"EpochsMapDataset(epoch_length={self._epoch_length}, num_epochs={self._num_epochs})"


class WindowShuffleMapDataset(grain.MapDataset):
    """Shuffles within consecutive windows of ``window_size`` rows (the last window may be shorter).

    grain's own windowed shuffle assumes the length is a multiple of the window.
    """

    def __init__(self, parent: grain.MapDataset, window_size: int, seed: int) -> None:
        super().__init__(parent)
        self._window, self._seed = int(window_size), int(seed)
        self._last: tuple[int, np.ndarray] | None = None

    def __len__(self) -> int:
        return len(self._parent)

    def __getitem__(self, index: Any) -> Any:
        if isinstance(index, slice):
            return self.slice(index)
        n = len(self._parent)
        window, offset = divmod(int(index) % n, self._window)
        start = window * self._window
        last = self._last
        if last is None or last[0] != window:
            width = min(self._window, n - start)
            last = (window, np.random.default_rng([self._seed, window]).permutation(width))
            self._last = last
        return self._parent[start + int(last[1][offset])]

    def __getstate__(self) -> dict[str, Any]:
        state = self.__dict__.copy()
        state["_last"] = None
        return state

    def __str__(self) -> str:
        return f"WindowShuffleMapDataset(window_size={self._window})"


class IndexedMapDataset(grain.MapDataset):
    """Rows ``parent[indices[i]]``: a fixed subset in a fixed order (``Dataset.split``)."""

    def __init__(self, parent: grain.MapDataset, indices: np.ndarray) -> None:
        super().__init__(parent)
        self._indices = np.asarray(indices, dtype=np.int64)

    def __len__(self) -> int:
        return len(self._indices)

    def __getitem__(self, index: Any) -> Any:
        if isinstance(index, slice):
            return self.slice(index)
        return self._parent[int(self._indices[int(index) % len(self._indices)])]

    def __str__(self) -> str:
        return f"IndexedMapDataset(len={len(self._indices)})"


class _CountingIterator(grain.DatasetIterator):
    """Base for iterators whose state is how many rows they have yielded."""

    def __init__(self) -> None:
        super().__init__()
        self._consumed = 0

    def get_state(self) -> dict[str, Any]:
        return {"consumed": self._consumed}


class IterableSourceIterDataset(grain.IterDataset):
    """A Python iterable (or a function returning one) as a grain dataset.

    Resuming re-iterates the source and skips the rows already read: an
    iterable has no other way to seek.

    Arguments:
        make_iter: picklable callable returning a fresh iterator over raw items.
        convert: maps ``(item, position)`` to a row; raises with the position.
        shard: ``(num_shards, shard_id)`` keeps every num_shards-th item, or ``None``.
        limit: rows to keep, or ``None``.
    """

    def __init__(self, make_iter: Callable[[], Iterator[Any]], convert: Callable[[Any, int], Any],
                 shard: tuple[int, int] | None, limit: int | None) -> None:
        super().__init__([])
        self._make_iter = make_iter
        self._convert = convert
        self._shard = shard
        self._limit = limit

    def __iter__(self) -> grain.DatasetIterator:
        return _IterableSourceIterator(self)

    def __str__(self) -> str:
        return "IterableSourceIterDataset"


class _IterableSourceIterator(_CountingIterator):
    def __init__(self, ds: IterableSourceIterDataset) -> None:
        super().__init__()
        self._ds = ds
        self._it: Iterator[Any] | None = None
        self._position = 0

    def _next_raw(self) -> tuple[Any, int]:
        if self._it is None:
            self._it = iter(self._ds._make_iter())
        item = next(self._it)
        position = self._position
        self._position += 1
        return item, position

    def __next__(self) -> Any:
        ds = self._ds
        if ds._limit is not None and self._consumed >= ds._limit:
            raise StopIteration
        while True:
            item, position = self._next_raw()
            if ds._shard is None or position % ds._shard[0] == ds._shard[1]:
                break
        self._consumed += 1
        return ds._convert(item, position)

    def set_state(self, state: dict[str, Any]) -> None:
        self._it = None
        self._position = 0
        self._consumed = 0
        target = int(state["consumed"])
        while self._consumed < target:
            next(self)


class SkipIterDataset(grain.IterDataset):
    """Drops the first ``count`` rows of its parent."""

    def __init__(self, parent: grain.IterDataset, count: int) -> None:
        super().__init__(parent)
        self._count = int(count)

    def __iter__(self) -> grain.DatasetIterator:
        return _SkipIterator(self._parent.__iter__(), self._count)

    def __str__(self) -> str:
        return f"SkipIterDataset(count={self._count})"


class _SkipIterator(grain.DatasetIterator):
    def __init__(self, parent: grain.DatasetIterator, count: int) -> None:
        super().__init__(parent)
        self._count = count
        self._skipped = False

    def __next__(self) -> Any:
        if not self._skipped:
            self._skipped = True
            for _ in range(self._count):
                next(self._parent)
        return next(self._parent)

    def get_state(self) -> dict[str, Any]:
        return {"skipped": self._skipped, "parent": self._parent.get_state()}

    def set_state(self, state: dict[str, Any]) -> None:
        self._skipped = bool(state["skipped"])
        self._parent.set_state(state["parent"])


class ConcatIterDataset(grain.IterDataset):
    """Its parents one after another."""

    def __init__(self, parents: Sequence[grain.IterDataset]) -> None:
        super().__init__(list(parents))

    def __iter__(self) -> grain.DatasetIterator:
        return _ChainIterator([p.__iter__ for p in self.parents], None)

    def __str__(self) -> str:
        return f"ConcatIterDataset(n={len(self.parents)})"


class EpochChainIterDataset(grain.IterDataset):
    """Epochs of a streaming pipeline one after another, each built fresh by ``build(e)``.

    Arguments:
        build: picklable callable from an epoch number to a ``grain.IterDataset``.
        num_epochs: how many epochs, or ``None`` for endless.
        mark_epochs: yield ``EPOCH_END`` after each epoch.
    """

    def __init__(self, build: Callable[[int], grain.IterDataset], num_epochs: int | None,
                 mark_epochs: bool = False) -> None:
        super().__init__([])
        self._build = build
        self._num_epochs = num_epochs
        self._mark = mark_epochs

    def __iter__(self) -> grain.DatasetIterator:
        return _ChainIterator(_EpochIterFactory(self._build), self._num_epochs, self._mark)

    def __str__(self) -> str:
        return f"EpochChainIterDataset(num_epochs={self._num_epochs})"


class _EpochIterFactory:
    """``factory[e]()`` makes the iterator of epoch ``e``."""

    def __init__(self, build: Callable[[int], grain.IterDataset]) -> None:
        self._build = build

    def __getitem__(self, epoch: int) -> Callable[[], grain.DatasetIterator]:
        return lambda: self._build(epoch).__iter__()


class _ChainIterator(grain.DatasetIterator):
    """Runs part 0, then part 1, ...; ``count`` parts (``None``: endless)."""

    def __init__(self, parts: Any, count: int | None, mark: bool = False) -> None:
        super().__init__()
        self._parts = parts
        self._mark = mark
        self._count = len(parts) if count is None and isinstance(parts, list) else count
        self._index = 0
        self._it: grain.DatasetIterator | None = None
        self._empty_run = 0

    def __next__(self) -> Any:
        while self._count is None or self._index < self._count:
            if self._it is None:
                self._it = self._parts[self._index]()
            try:
                value = next(self._it)
                self._empty_run = 0
                return value
            except StopIteration:
                self._close_current()
                self._index += 1
                if self._mark:
                    return EPOCH_END
                self._empty_run += 1
                if self._count is None and self._empty_run > 1:
                    raise  # endless chain of empty epochs: stop rather than spin
        raise StopIteration

    def _close_current(self) -> None:
        if self._it is not None:
            self._it.close()
            self._it = None

    def get_state(self) -> dict[str, Any]:
        inner = self._it.get_state() if self._it is not None else None
        return {"part": self._index, "inner": inner}

    def set_state(self, state: dict[str, Any]) -> None:
        self._close_current()
        self._index = int(state["part"])
        if state["inner"] is not None:
            self._it = self._parts[self._index]()
            self._it.set_state(state["inner"])

    def close(self) -> None:
        self._close_current()
        super().close()


class StackIterDataset(grain.IterDataset):
    """Blocks of up to ``count`` consecutive batches stacked on a new leading axis.

    A block ends early where the batch shapes change (a short last batch) or
    the stream ends, so every block is one ``lax.scan`` over equal batches.
    """

    def __init__(self, parent: grain.IterDataset, count: int) -> None:
        super().__init__(parent)
        self._count = int(count)

    def __iter__(self) -> grain.DatasetIterator:
        return _StackIterator(self._parent.__iter__(), self._count)

    def __str__(self) -> str:
        return f"StackIterDataset(count={self._count})"


def _shapes(row: tuple[Any, ...]) -> tuple[Any, ...]:
    return tuple((np.shape(x), np.asarray(x).dtype.str) for x in row)


class _StackIterator(grain.DatasetIterator):
    def __init__(self, parent: grain.DatasetIterator, count: int) -> None:
        super().__init__(parent)
        self._count = count
        self._pending: tuple[Any, ...] | None = None
        self._pending_state: dict[str, Any] | None = None
        self._state = parent.get_state()

    def __next__(self) -> Any:
        run: list[tuple[Any, ...]] = []
        if self._pending is not None:
            run.append(self._pending)
            self._pending = None
        while len(run) < self._count:
            before = self._parent.get_state()
            try:
                row = next(self._parent)
            except StopIteration:
                break
            if run and _shapes(row) != _shapes(run[0]):
                self._pending = row
                self._pending_state = before
                break
            run.append(row)
        if not run:
            raise StopIteration
        # The resume point is the first batch not yet handed out.
        self._state = self._pending_state if self._pending is not None else self._parent.get_state()
        return tuple(np.stack([r[i] for r in run]) for i in range(len(run[0])))

    def get_state(self) -> dict[str, Any]:
        return self._state

    def set_state(self, state: dict[str, Any]) -> None:
        self._pending = None
        self._parent.set_state(state)
        self._state = state
