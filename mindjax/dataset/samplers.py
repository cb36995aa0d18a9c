"""MindSpore's built-in samplers: which source rows an epoch reads, and in what order.

A sampler is a description; a random-access source turns it into the source
positions of one epoch with :meth:`BuiltinSampler._epoch_positions` (``n``:
the source length, ``seed``: the source node's seed for that epoch, so random
samplers are reproducible under ``ds.config.set_seed`` and reshuffle every
epoch). A sampler with a child (``add_child``) samples over the positions its
child gives, as MindSpore chains them.

Example:
    >>> import numpy as np
    >>> import mindjax.dataset as ds
    >>> d = ds.NumpySlicesDataset({"x": np.arange(6)}, sampler=ds.SequentialSampler(start_index=2, num_samples=3))
    >>> [int(r[0]) for r in d.create_tuple_iterator(output_numpy=True, num_epochs=1)]
    [2, 3, 4]
"""
from __future__ import annotations

import numbers
from typing import Any

import numpy as np

from mindjax.dataset.rows import ArgTypeError, DataError

__all__ = ["BuiltinSampler", "Sampler", "SequentialSampler", "RandomSampler", "DistributedSampler", "SubsetSampler",
           "SubsetRandomSampler", "WeightedRandomSampler", "PKSampler"]

_INT64_MAX = 2 ** 63 - 1


def _check_num_samples(who: str, num_samples: Any) -> int | None:
    if num_samples is None:
        return None
    if not isinstance(num_samples, (int, np.integer)) or isinstance(num_samples, bool):
        raise ArgTypeError(f"For '{who}', 'num_samples' must be an int, got {num_samples!r}")
    if num_samples < 0 or num_samples > _INT64_MAX:
        raise ValueError(f"For '{who}', 'num_samples' must be in [0, {_INT64_MAX}] (0: all), got {num_samples}")
    return int(num_samples)


def _check_bool(who: str, arg: str, value: Any) -> bool:
    if not isinstance(value, bool):
        raise ArgTypeError(f"For '{who}', '{arg}' must be a bool, got {value!r}")
    return value


def _rng(seed: int | None, salt: int) -> np.random.Generator:
    return np.random.default_rng([0 if seed is None else int(seed), salt])


class BuiltinSampler:
    """Base of the built-in samplers.

    Arguments:
        num_samples: the most rows to draw per epoch (``None`` or 0: all).
    """

    _salt = 0
    # Class defaults, so that a user subclass whose __init__ skips super().__init__() still works.
    child_sampler: "BuiltinSampler | None" = None
    num_samples: int | None = None

    def __init__(self, num_samples: int | None = None) -> None:
        self.child_sampler = None
        self.num_samples = num_samples

    def add_child(self, sampler: "BuiltinSampler") -> None:
        """Sample over what ``sampler`` gives instead of over the whole source.

        Arguments:
            sampler: a built-in sampler.
        """
        if self.child_sampler is not None:
            raise RuntimeError(f"For '{type(self).__name__}', cannot add a child sampler: it already has one")
        if sampler is not None and not isinstance(sampler, BuiltinSampler):
            raise ArgTypeError(f"For '{type(self).__name__}.add_child', 'sampler' must be a built-in sampler, "
                               f"got {type(sampler).__name__}")
        self.child_sampler = sampler

    def get_child(self) -> "BuiltinSampler | None":
        """The child sampler, or ``None``."""
        return self.child_sampler

    def get_num_samples(self) -> int | None:
        """``num_samples``, combined with the child's as MindSpore does (the smaller of both given ones).

        Returns:
            The number, or ``None`` when neither says.
        """
        own = self.num_samples or None
        if self.child_sampler is not None:
            child = self.child_sampler.get_num_samples()
            if own is not None and child is not None:
                return min(own, child)
            return own if own is not None else child
        return own

    def is_shuffled(self) -> bool:
        """Whether the order is random."""
        raise NotImplementedError

    def is_sharded(self) -> bool:
        """Whether this reads one shard of several."""
        return self.child_sampler.is_sharded() if self.child_sampler is not None else False

    # What a source calls.
    def _epoch_size(self, n: int) -> int:
        """Rows per epoch over a source of ``n`` rows."""
        base = self.child_sampler._epoch_size(n) if self.child_sampler is not None else n
        return self._own_size(base)

    def _epoch_positions(self, n: int, seed: int | None) -> np.ndarray:
        """The source positions of one epoch (int64)."""
        if self.child_sampler is None:
            return self._own_positions(n, seed)
        below = self.child_sampler._epoch_positions(n, None if seed is None else seed + 1)
        return below[self._own_positions(len(below), seed)]

    def _own_size(self, n: int) -> int:
        raise NotImplementedError

    def _own_positions(self, n: int, seed: int | None) -> np.ndarray:
        raise NotImplementedError

    def _limit(self, n: int) -> int:
        return min(self.num_samples, n) if self.num_samples else n

    def __repr__(self) -> str:
        return f"{type(self).__name__}(num_samples={self.num_samples})"


class SequentialSampler(BuiltinSampler):
    """Rows in source order, from ``start_index``.

    Arguments:
        start_index: the first row (default 0).
        num_samples: the most rows to read (``None`` or 0: to the end).
    """

    def __init__(self, start_index: int | None = None, num_samples: int | None = None) -> None:
        bad_type = not isinstance(start_index, (int, np.integer)) or isinstance(start_index, bool)
        if start_index is not None and bad_type:
            raise ArgTypeError(f"For 'SequentialSampler', 'start_index' must be an int, got {start_index!r}")
        if start_index is not None and start_index < 0:
            raise DataError(f"For 'SequentialSampler', 'start_index' must be >= 0, got {start_index}")
        super().__init__(_check_num_samples("SequentialSampler", num_samples))
        self.start_index = None if start_index is None else int(start_index)

    def _start(self, n: int) -> int:
        start = self.start_index or 0
        if n > 0 and start >= n:
            raise DataError(f"For 'SequentialSampler', 'start_index' must be less than the number of rows {n}, "
                            f"got {start}")
        return start

    def _own_size(self, n: int) -> int:
        return self._limit(max(n - self._start(n), 0))

    def _own_positions(self, n: int, seed: int | None) -> np.ndarray:
        start = self._start(n)
        return np.arange(start, start + self._own_size(n), dtype=np.int64)

    def is_shuffled(self) -> bool:
        """Whether the order is random (only through a random child)."""
        return self.child_sampler.is_shuffled() if self.child_sampler is not None else False


class RandomSampler(BuiltinSampler):
    """Rows in random order, a new order each epoch.

    Arguments:
        replacement: draw with replacement (rows may repeat).
        num_samples: the most rows to draw (``None`` or 0: as many as the source has).
        shuffle: accepted for compatibility; only global shuffling exists.
    """

    _salt = 1

    def __init__(self, replacement: bool = False, num_samples: int | None = None, shuffle: Any = True) -> None:
        self.replacement = _check_bool("RandomSampler", "replacement", replacement)
        del shuffle
        super().__init__(_check_num_samples("RandomSampler", num_samples))

    def _own_size(self, n: int) -> int:
        return self._limit(n)

    def _own_positions(self, n: int, seed: int | None) -> np.ndarray:
        rng, count = _rng(seed, self._salt), self._own_size(n)
        if self.replacement:
            return rng.integers(0, n, count, dtype=np.int64) if n else np.zeros(0, np.int64)
        return rng.permutation(n)[:count].astype(np.int64)

    def is_shuffled(self) -> bool:
        """Always ``True``."""
        return True


class DistributedSampler(BuiltinSampler):
    """One shard of the rows: shard ``s`` reads rows ``s, s + num_shards, ...`` of the (shuffled) order.

    Every shard reads ``ceil(n / num_shards)`` rows; the last ones wrap around to
    the start, as MindSpore pads shards to equal sizes. All shards of one epoch
    share one permutation, so the shards are disjoint except for the padding.

    Arguments:
        num_shards: the number of shards.
        shard_id: this shard, in ``[0, num_shards)``.
        shuffle: shuffle before sharding (a new order each epoch).
        num_samples: the most rows this shard reads.
        offset: only ``-1`` (MindSpore uses other values with ``ConcatDataset``).
    """

    _salt = 2

    def __init__(self, num_shards: int, shard_id: int, shuffle: bool = True, num_samples: int | None = None,
                 offset: int = -1) -> None:
        for arg, value in (("num_shards", num_shards), ("shard_id", shard_id), ("offset", offset)):
            if not isinstance(value, (int, np.integer)) or isinstance(value, bool):
                raise ArgTypeError(f"For 'DistributedSampler', '{arg}' must be an int, got {value!r}")
        self.shuffle = _check_bool("DistributedSampler", "shuffle", shuffle)
        super().__init__(_check_num_samples("DistributedSampler", num_samples))
        if num_shards <= 0:
            raise DataError(f"For 'DistributedSampler', 'num_shards' must be a positive int, got {num_shards}")
        if not 0 <= shard_id < num_shards:
            raise DataError(f"For 'DistributedSampler', 'shard_id' must be in [0, {num_shards}), got {shard_id}")
        if offset > num_shards:
            raise DataError(f"For 'DistributedSampler', 'offset' must be at most num_shards={num_shards}, "
                            f"got {offset}")
        if offset != -1:
            raise NotImplementedError("For 'DistributedSampler', 'offset' other than -1 is only used by MindSpore's "
                                      "ConcatDataset, which MindJAX does not have; use offset=-1")
        self.num_shards, self.shard_id, self.offset = int(num_shards), int(shard_id), int(offset)

    def _own_size(self, n: int) -> int:
        return min(self._limit(n), -(-n // self.num_shards)) if n else 0

    def _own_positions(self, n: int, seed: int | None) -> np.ndarray:
        count = self._own_size(n)
        positions = (np.arange(count, dtype=np.int64) * self.num_shards + self.shard_id) % max(n, 1)
        if self.shuffle and n > 1:
            positions = _rng(seed, self._salt).permutation(n).astype(np.int64)[positions]
        return positions

    def is_shuffled(self) -> bool:
        """Whether the rows are shuffled before sharding."""
        return self.child_sampler.is_shuffled() if self.child_sampler is not None else self.shuffle

    def is_sharded(self) -> bool:
        """Whether there is more than one shard."""
        return self.child_sampler.is_sharded() if self.child_sampler is not None else self.num_shards > 1


def _as_indices(who: str, indices: Any, num_samples: int | None) -> list[int]:
    if isinstance(indices, (int, np.integer)) and not isinstance(indices, bool):
        indices = [indices]
    elif isinstance(indices, (str, bytes)) or not hasattr(indices, "__iter__"):
        raise ArgTypeError(f"For '{who}', 'indices' must be an iterable of int, got {type(indices).__name__}")
    values = list(indices)
    if num_samples:
        values = values[:num_samples]
    for i, item in enumerate(values):
        if not isinstance(item, (int, np.integer)):
            raise ArgTypeError(f"For '{who}', every index must be an int, got {item!r} "
                               f"({type(item).__name__}) at position {i}")
    return [int(v) for v in values]


def _in_range(who: str, values: list[int], n: int) -> np.ndarray:
    indices = np.asarray(values, dtype=np.int64)
    bad = indices[(indices < 0) | (indices >= n)]
    if len(bad):
        raise DataError(f"For '{who}', sample index {int(bad[0])} is out of range: the source has {n} rows")
    return indices


class SubsetSampler(BuiltinSampler):
    """The rows ``indices``, in that order.

    Arguments:
        indices: source row indices (any iterable of int but a string).
        num_samples: read only the first ``num_samples`` indices.
    """

    def __init__(self, indices: Any, num_samples: int | None = None) -> None:
        num_samples = _check_num_samples(type(self).__name__, num_samples)
        self.indices = _as_indices(type(self).__name__, indices, num_samples)
        super().__init__(num_samples)

    def get_num_samples(self) -> int:
        """The number of indices read (at most ``num_samples``)."""
        num_samples = super().get_num_samples()
        return len(self.indices) if num_samples is None else min(len(self.indices), num_samples)

    def _checked(self, n: int) -> np.ndarray:
        return _in_range(type(self).__name__, self.indices, n)

    def _own_size(self, n: int) -> int:
        return self._limit(len(self.indices))

    def _own_positions(self, n: int, seed: int | None) -> np.ndarray:
        return self._checked(n)[:self._own_size(n)]

    def is_shuffled(self) -> bool:
        """``False``: the indices are read in order."""
        return False


class Sampler(BuiltinSampler):
    """Base of user-defined samplers (MindSpore's ``ds.Sampler``): ``__iter__`` yields row indices.

    ``__iter__`` is called once per epoch, with ``self.dataset_size`` set to the
    number of rows it samples from.

    Arguments:
        num_samples: read at most this many of the indices (``None``: all).

    Example:
        >>> import mindjax.dataset as ds
        >>> class Reverse(ds.Sampler):
        ...     def __iter__(self):
        ...         return iter(range(self.dataset_size - 1, -1, -1))
        >>> data = ds.NumpySlicesDataset({"x": [1, 2, 3]}, sampler=Reverse())
        >>> [int(r[0]) for r in data.create_tuple_iterator(output_numpy=True, num_epochs=1)]
        [3, 2, 1]
    """

    dataset_size = 0

    def __init__(self, num_samples: int | None = None) -> None:
        super().__init__(_check_num_samples(type(self).__name__, num_samples))
        self.dataset_size = 0

    def __iter__(self) -> Any:
        raise NotImplementedError(f"For '{type(self).__name__}', a Sampler must define __iter__ yielding indices")

    def _indices(self, n: int) -> np.ndarray:
        self.dataset_size = n
        return _in_range(type(self).__name__, _as_indices(type(self).__name__, iter(self), self.num_samples), n)

    def _own_size(self, n: int) -> int:
        return len(self._indices(n))

    def _own_positions(self, n: int, seed: int | None) -> np.ndarray:
        return self._indices(n)


class SubsetRandomSampler(SubsetSampler):
    """The rows ``indices`` in random order, a new order each epoch.

    Arguments:
        indices: source row indices (any iterable of int but a string).
        num_samples: shuffle only the first ``num_samples`` indices.
    """

    _salt = 3

    def _own_positions(self, n: int, seed: int | None) -> np.ndarray:
        return _rng(seed, self._salt).permutation(super()._own_positions(n, seed))

    def is_shuffled(self) -> bool:
        """``True``."""
        return True


class WeightedRandomSampler(BuiltinSampler):
    """Rows ``0 .. len(weights) - 1`` drawn with probabilities proportional to ``weights``.

    Arguments:
        weights: non-negative numbers, not all zero, at most one per source row.
        num_samples: rows to draw (``None`` or 0: as many as the source has).
        replacement: draw with replacement.
    """

    _salt = 4

    def __init__(self, weights: Any, num_samples: int | None = None, replacement: bool = True) -> None:
        if isinstance(weights, np.ndarray):
            weights = weights.tolist()
        if not isinstance(weights, (list, tuple)):
            weights = [weights]
        for i, w in enumerate(weights):
            if not isinstance(w, numbers.Number) or isinstance(w, bool):
                raise ArgTypeError(f"For 'WeightedRandomSampler', every weight must be a number, got {w!r} "
                                   f"({type(w).__name__}) at position {i}")
        super().__init__(_check_num_samples("WeightedRandomSampler", num_samples))
        self.replacement = _check_bool("WeightedRandomSampler", "replacement", replacement)
        array = np.asarray(weights, dtype=np.float64)
        if array.size == 0:
            raise DataError("For 'WeightedRandomSampler', 'weights' must not be empty")
        if np.any(array < 0) or not np.all(np.isfinite(array)):
            raise DataError(f"For 'WeightedRandomSampler', 'weights' must be finite and non-negative, got {weights}")
        if not np.any(array > 0):
            raise DataError("For 'WeightedRandomSampler', 'weights' must not be all zero")
        self.weights = list(weights)
        self._p = array / array.sum()

    def _own_size(self, n: int) -> int:
        return self._limit(n)

    def _own_positions(self, n: int, seed: int | None) -> np.ndarray:
        count = self._own_size(n)
        if len(self._p) > n:
            raise DataError(f"For 'WeightedRandomSampler', there are {len(self._p)} weights but the source has only "
                            f"{n} rows")
        if not self.replacement and count > np.count_nonzero(self._p):
            raise DataError(f"For 'WeightedRandomSampler', without replacement {count} samples need at least as many "
                            f"non-zero weights, got {np.count_nonzero(self._p)}")
        return _rng(seed, self._salt).choice(len(self._p), count, replace=self.replacement, p=self._p).astype(np.int64)

    def is_shuffled(self) -> bool:
        """``True``."""
        return True


class PKSampler(BuiltinSampler):
    """``K`` rows of each class (MindSpore's P classes x K samples sampler).

    As in MindSpore, the classes are taken in sorted order (shuffled each epoch
    with ``shuffle``), and each of a class's ``K`` rows is drawn uniformly at
    random, with replacement, from that class's rows: an epoch has
    ``K * classes`` rows (at most ``num_samples``), ``K`` consecutive rows per
    class. The classes are the values of the source's ``class_column`` (for
    ``MnistDataset``, ``Cifar10Dataset``, ``ImageFolderDataset`` and
    ``GeneratorDataset`` too, whose label column is read once for it).

    Arguments:
        num_val: ``K``, rows per class (a positive int).
        num_class: must be ``None`` (MindSpore does not support it either).
        shuffle: shuffle the order of the classes each epoch.
        class_column: the column holding the class of each row.
        num_samples: the most rows per epoch (``None`` or 0: all ``K * classes``).

    Example:
        >>> import numpy as np
        >>> import mindjax.dataset as ds
        >>> data = ds.NumpySlicesDataset({"label": [0, 1, 0, 1, 2]}, sampler=ds.PKSampler(2))
        >>> [int(r[0]) for r in data.create_tuple_iterator(output_numpy=True, num_epochs=1)]
        [0, 0, 1, 1, 2, 2]
    """

    _salt = 5
    _needs_labels = True

    def __init__(self, num_val: int, num_class: int | None = None, shuffle: bool = False,
                 class_column: str = "label", num_samples: int | None = None) -> None:
        if not isinstance(num_val, int) or isinstance(num_val, bool):
            raise ArgTypeError(f"For 'PKSampler', 'num_val' must be an int, got {num_val!r}")
        if num_class is not None:
            raise NotImplementedError("For 'PKSampler', 'num_class' is not supported (as in MindSpore); "
                                      f"got num_class={num_class!r}, leave it None")
        self.shuffle = _check_bool("PKSampler", "shuffle", shuffle)
        if not isinstance(class_column, str) or not class_column:
            raise ArgTypeError(f"For 'PKSampler', 'class_column' must be a non-empty str, got {class_column!r}")
        super().__init__(_check_num_samples("PKSampler", num_samples))
        if num_val <= 0:
            raise DataError(f"For 'PKSampler', 'num_val' (K, rows per class) must be a positive int, got {num_val}")
        self.num_val, self.class_column = num_val, class_column
        self._labels: Any = None

    def _bind_labels(self, labels: Any) -> None:
        """Give the sampler its source's class of each row (``labels()`` -> a sequence; called lazily)."""
        self._labels = labels

    def _class_rows(self, candidates: np.ndarray) -> dict[Any, np.ndarray]:
        if self._labels is None:
            raise DataError("For 'PKSampler', the source gave no class labels; use it as the sampler of a source "
                            f"with a '{self.class_column}' column")
        labels = self._labels()
        groups: dict[Any, list[int]] = {}
        for position in candidates.tolist():
            groups.setdefault(labels[position], []).append(position)
        return {k: np.asarray(v, dtype=np.int64) for k, v in groups.items()}

    def _epoch_size(self, n: int) -> int:
        below = self.child_sampler._epoch_positions(n, None) if self.child_sampler is not None else np.arange(n)
        return self._limit(self.num_val * len(self._class_rows(np.asarray(below, dtype=np.int64))))

    def _epoch_positions(self, n: int, seed: int | None) -> np.ndarray:
        if self.child_sampler is not None:
            candidates = self.child_sampler._epoch_positions(n, None if seed is None else seed + 1)
        else:
            candidates = np.arange(n, dtype=np.int64)
        groups = self._class_rows(np.asarray(candidates, dtype=np.int64))
        rng = _rng(seed, self._salt)
        classes = sorted(groups, key=_sort_key)
        if self.shuffle:
            classes = [classes[k] for k in rng.permutation(len(classes))]
        picks = [groups[c][rng.integers(0, len(groups[c]), self.num_val)] for c in classes]
        out = np.concatenate(picks) if picks else np.zeros(0, np.int64)
        return out[:self._limit(len(out))]

    def is_shuffled(self) -> bool:
        """Whether the class order is shuffled (or the child's, with a child)."""
        return self.child_sampler.is_shuffled() if self.child_sampler is not None else self.shuffle



def _sort_key(label: Any) -> tuple[int, Any]:
    """Classes sort as numbers, then as strings (MindSpore sorts its label map)."""
    return (0, label) if isinstance(label, (int, float)) else (1, str(label))
