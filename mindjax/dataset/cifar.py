"""``Cifar10Dataset``: the CIFAR-10 binary batches (1 label byte + 3072 CHW pixel bytes per record)."""
from __future__ import annotations

import glob
import os
from typing import Any

import numpy as np

from mindjax.dataset._batched import gather_rows
from mindjax.dataset.rows import DataError
from mindjax.dataset.sources import MappableSourceDataset

__all__ = ["Cifar10Dataset"]

_RECORD = 1 + 3 * 32 * 32


def _check_records(path: str) -> int:
    size = os.path.getsize(path)
    count, rest = divmod(size, _RECORD)
    if rest:
        raise DataError(f"For 'Cifar10Dataset', '{path}' is truncated: record {count} (sample index {count} of "
                         f"this file) has {rest} of {_RECORD} bytes")
    return count


class _CifarReader:
    """Random access over record files, memory-mapped per process on first use."""

    def __init__(self, files: list[str]) -> None:
        self.files = files
        counts = [_check_records(f) for f in files]
        self.offsets = np.cumsum([0] + counts)
        self._maps: list[np.ndarray] | None = None

    def __len__(self) -> int:
        return int(self.offsets[-1])

    def _load(self) -> list[np.ndarray]:
        if self._maps is None:
            self._maps = [np.memmap(f, dtype=np.uint8, mode="r").reshape(-1, _RECORD) for f in self.files]
        return self._maps

    def __getitem__(self, idx: int) -> tuple[np.ndarray, np.ndarray]:
        k = int(np.searchsorted(self.offsets, idx, side="right")) - 1
        record = self._load()[k][idx - int(self.offsets[k])]
        image = np.ascontiguousarray(record[1:].reshape(3, 32, 32).transpose(1, 2, 0))
        return image, np.array(record[0], dtype=np.uint32)

    def _gather_rows(self, positions: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        records = gather_rows(self.offsets, self._load(), positions)
        images = np.ascontiguousarray(records[:, 1:].reshape(-1, 3, 32, 32).transpose(0, 2, 3, 1))
        return images, records[:, 0].astype(np.uint32)

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
        self._reader = _CifarReader(files)
        self._column_names = ["image", "label"]
