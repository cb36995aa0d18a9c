"""``Cifar10Dataset`` and ``Cifar100Dataset``: the CIFAR binary files.

A CIFAR-10 record is 1 label byte and 3072 CHW pixel bytes; a CIFAR-100 record is a
coarse and a fine label byte, then the same 3072 pixel bytes.
"""
from __future__ import annotations

import glob
import os
from typing import Any

import numpy as np

from mindjax.dataset._batched import gather_rows
from mindjax.dataset.rows import DataError
from mindjax.dataset.sources import MappableSourceDataset

__all__ = ["Cifar10Dataset", "Cifar100Dataset"]

_PIXELS = 3 * 32 * 32


def _check_records(path: str, record: int, op: str) -> int:
    size = os.path.getsize(path)
    count, rest = divmod(size, record)
    if rest:
        raise DataError(f"For '{op}', '{path}' is truncated: record {count} (sample index {count} of "
                         f"this file) has {rest} of {record} bytes")
    return count


class _CifarReader:
    """Random access over record files of ``labels`` label bytes each, memory-mapped per process on
    first use; a row is the HWC image and one uint32 scalar per label."""

    def __init__(self, files: list[str], labels: int, op: str) -> None:
        self.files, self.labels = files, labels
        self.record = labels + _PIXELS
        counts = [_check_records(f, self.record, op) for f in files]
        if not sum(counts):
            raise DataError(f"For '{op}', no valid data: the files {files} hold no records (they are empty)")
        self.offsets = np.cumsum([0] + counts)
        self._maps: list[np.ndarray] | None = None

    def __len__(self) -> int:
        return int(self.offsets[-1])

    def _load(self) -> list[np.ndarray]:
        if self._maps is None:
            self._maps = [np.memmap(f, dtype=np.uint8, mode="r").reshape(-1, self.record) for f in self.files]
        return self._maps

    def __getitem__(self, idx: int) -> tuple[np.ndarray, ...]:
        k = int(np.searchsorted(self.offsets, idx, side="right")) - 1
        record = self._load()[k][idx - int(self.offsets[k])]
        image = np.ascontiguousarray(record[self.labels:].reshape(3, 32, 32).transpose(1, 2, 0))
        return (image,) + tuple(np.array(record[i], dtype=np.uint32) for i in range(self.labels))

    def _gather_rows(self, positions: np.ndarray) -> tuple[np.ndarray, ...]:
        records = gather_rows(self.offsets, self._load(), positions)
        images = np.ascontiguousarray(records[:, self.labels:].reshape(-1, 3, 32, 32).transpose(0, 2, 3, 1))
        return (images,) + tuple(records[:, i].astype(np.uint32) for i in range(self.labels))

    def __getstate__(self) -> dict[str, Any]:
        state = self.__dict__.copy()
        state["_maps"] = None
        return state


class Cifar10Dataset(MappableSourceDataset):
    """CIFAR-10: columns ``image`` (uint8, (32, 32, 3)) and ``label`` (uint32 scalar).

    Arguments:
        dataset_dir: the folder with ``data_batch_*.bin`` and ``test_batch.bin``.
        usage: ``'train'``, ``'test'`` or ``'all'`` (default: all, train first).
        num_samples: rows to read (per shard).
        num_parallel_workers: workers (capped at the cores).
        shuffle: shuffle (default ``True``).
        sampler: a sampler from ``mindjax.dataset`` (``DistributedSampler`` ...) or a list of
            indices; excludes ``shuffle``, ``num_shards``/``shard_id`` and ``num_samples``.
        num_shards: number of shards...
        shard_id: ...and the one to read.
        cache: not supported (must be ``None``).
    """

    _name = "Cifar10Dataset"

    def __init__(self, dataset_dir: str, usage: str | None = None, num_samples: int | None = None,
                 num_parallel_workers: int | None = None, shuffle: bool | None = None, sampler: Any = None,
                 num_shards: int | None = None, shard_id: int | None = None, cache: Any = None) -> None:
        super().__init__(num_samples, num_parallel_workers, shuffle, num_shards, shard_id, sampler)
        if cache is not None:
            raise ValueError("For 'Cifar10Dataset', 'cache' is not supported")
        if not isinstance(dataset_dir, (str, os.PathLike)) or not os.path.isdir(dataset_dir):
            raise ValueError(f"For 'Cifar10Dataset', dataset_dir '{dataset_dir}' does not exist or is not a directory")
        usage = "all" if usage is None else usage
        if usage not in ("train", "test", "all"):
            raise ValueError(f"For 'Cifar10Dataset', 'usage' must be 'train', 'test' or 'all', got {usage!r}")
        directory = os.fspath(dataset_dir)
        train = sorted(glob.glob(os.path.join(directory, "data_batch_*.bin")))
        test = [p for p in [os.path.join(directory, "test_batch.bin")] if os.path.isfile(p)]
        files = {"train": train, "test": test, "all": train + test}[usage]
        if not files:
            wanted = {"train": "data_batch_*.bin", "test": "test_batch.bin", "all": "data_batch_*.bin or test_batch.bin"}
            raise DataError(f"For 'Cifar10Dataset', no {wanted[usage]} file in '{directory}'")
        self.dataset_dir, self.usage = directory, usage
        self._reader = _CifarReader(files, 1, self._name)
        self._column_names = ["image", "label"]


class Cifar100Dataset(MappableSourceDataset):
    """CIFAR-100: columns ``image`` (uint8, (32, 32, 3)), ``coarse_label`` and ``fine_label``
    (uint32 scalars), as MindSpore's ``Cifar100Dataset``.

    Arguments:
        dataset_dir: the folder with ``train.bin`` and ``test.bin``.
        usage: ``'train'``, ``'test'`` or ``'all'`` (default: all, train first).
        num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id, cache:
            as :class:`Cifar10Dataset`.

    Example:
        >>> ds = Cifar100Dataset("cifar-100-binary", usage="test", shuffle=False)  # doctest: +SKIP
        >>> ds.get_col_names()                                                      # doctest: +SKIP
        ['image', 'coarse_label', 'fine_label']
    """

    _name = "Cifar100Dataset"

    def __init__(self, dataset_dir: str, usage: str | None = None, num_samples: int | None = None,
                 num_parallel_workers: int | None = None, shuffle: bool | None = None, sampler: Any = None,
                 num_shards: int | None = None, shard_id: int | None = None, cache: Any = None) -> None:
        super().__init__(num_samples, num_parallel_workers, shuffle, num_shards, shard_id, sampler)
        if cache is not None:
            raise ValueError("For 'Cifar100Dataset', 'cache' is not supported")
        if not isinstance(dataset_dir, (str, os.PathLike)) or not os.path.isdir(dataset_dir):
            raise ValueError(f"For 'Cifar100Dataset', dataset_dir '{dataset_dir}' does not exist or is not a "
                             f"directory")
        usage = "all" if usage is None else usage
        if usage not in ("train", "test", "all"):
            raise ValueError(f"For 'Cifar100Dataset', 'usage' must be 'train', 'test' or 'all', got {usage!r}")
        directory = os.fspath(dataset_dir)
        names = {"train": ["train.bin"], "test": ["test.bin"], "all": ["train.bin", "test.bin"]}[usage]
        files = [os.path.join(directory, n) for n in names if os.path.isfile(os.path.join(directory, n))]
        if not files:
            raise DataError(f"For 'Cifar100Dataset', no {' or '.join(names)} file in '{directory}'")
        self.dataset_dir, self.usage = directory, usage
        self._reader = _CifarReader(files, 2, self._name)
        self._column_names = ["image", "coarse_label", "fine_label"]
