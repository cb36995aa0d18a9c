"""``MnistDataset``: the standard idx files, plain or gzipped.

Headers are checked when the dataset is made (magic number, dimensions,
counts, and for plain files the size); the pixels are read on first use,
memory-mapped for plain files, so worker processes start cheaply.
"""
from __future__ import annotations

import gzip
import os
from typing import Any

import numpy as np

from mindjax.dataset._batched import gather_rows
from mindjax.dataset.rows import ArgTypeError, DataError
from mindjax.dataset.sources import MappableSourceDataset

__all__ = ["MnistDataset", "FashionMnistDataset", "KMnistDataset", "EMnistDataset", "QMnistDataset", "read_idx_header"]

_IMAGES_MAGIC = 2051
_LABELS_MAGIC = 2049


def _open(path: str) -> Any:
    return gzip.open(path, "rb") if path.endswith(".gz") else open(path, "rb")


def read_idx_header(path: str, magic: int, ndim: int) -> tuple[int, ...]:
    """The dimensions in an idx file's header, checked against ``magic`` and ``ndim``.

    Raises:
        ValueError: naming the file, when the header is short or wrong.
    """
    size = 4 + 4 * ndim
    try:
        with _open(path) as f:
            head = f.read(size)
    except (OSError, EOFError) as err:
        raise DataError(f"For 'MnistDataset', cannot read idx header of '{path}': {err}") from err
    if len(head) < size:
        raise DataError(f"For 'MnistDataset', '{path}' is too short for an idx header: {len(head)} of {size} bytes")
    found = int.from_bytes(head[:4], "big")
    if found != magic:
        raise DataError(f"For 'MnistDataset', '{path}' has a malformed idx header: magic number {found}, "
                         f"expected {magic}")
    return tuple(int.from_bytes(head[4 + 4 * i: 8 + 4 * i], "big") for i in range(ndim))


def _find_pairs(dataset_dir: str, usage: str, who: str = "MnistDataset", file_prefix: str = "",
                usage_prefix: dict[str, str] | None = None) -> list[tuple[str, str]]:
    """The (images, labels) files ``usage`` reads, paired in sorted name order as MindSpore pairs them.

    As in MindSpore, a file belongs to ``usage`` when its name contains
    ``<prefix>-images`` and ``idx3-ubyte`` (labels: ``-labels``, ``idx1-ubyte``),
    where the prefix is ``train``, ``t10k``, or nothing for ``'all'``: ``'all'``
    reads whichever of the two sets the folder holds, ``t10k`` first (sorted).
    A gzipped copy is used only where the plain file is absent.
    """
    prefix = (usage_prefix or {"train": "train", "test": "t10k", "all": ""})[usage]
    images, labels = [], []
    for name in sorted(os.listdir(dataset_dir)):
        path = os.path.join(dataset_dir, name)
        if not os.path.isfile(path) or (name.endswith(".gz") and os.path.isfile(path[:-3])):
            continue
        if not name.startswith(file_prefix):
            continue
        if f"{prefix}-images" in name and "idx3-ubyte" in name:
            images.append(path)
        elif f"{prefix}-labels" in name and "idx1-ubyte" in name:
            labels.append(path)
    if len(images) != len(labels):
        partner = {os.path.basename(p): os.path.basename(p).replace("-images", "-labels").replace("idx3", "idx1")
                   for p in images}
        partner.update({os.path.basename(p): os.path.basename(p).replace("-labels", "-images").replace("idx1", "idx3")
                        for p in labels})
        present = {os.path.basename(p) for p in images + labels}
        missing = sorted({v for k, v in partner.items() if v not in present and v + ".gz" not in present
                          and v.removesuffix(".gz") not in present})
        raise DataError(f"For '{who}', usage '{usage}' in '{dataset_dir}' finds {len(images)} images "
                        f"files but {len(labels)} labels files; they must pair up: "
                        + ", ".join(f"'{os.path.join(dataset_dir, m)}'" for m in missing) + " is missing")
    if not images:
        test = (usage_prefix or {}).get("test", "t10k")
        wanted = {"train": ["train"], "test": [test], "all": ["train", test]}[usage]
        names = " or ".join(f"'{file_prefix}{p}-images-idx3-ubyte' with '{file_prefix}{p}-labels-idx1-ubyte'"
                            for p in wanted)
        raise DataError(f"For '{who}', no data for usage '{usage}' in '{dataset_dir}': {names} "
                        "(each may end in '.gz') is missing")
    return list(zip(images, labels))


class _IdxPair:
    """One images file and its labels file."""

    def __init__(self, images: str, labels: str) -> None:
        self.images, self.labels = images, labels
        n, rows, cols = read_idx_header(images, _IMAGES_MAGIC, 3)
        (m,) = read_idx_header(labels, _LABELS_MAGIC, 1)
        if n != m:
            raise DataError(f"For 'MnistDataset', '{images}' holds {n} images but '{labels}' holds {m} labels")
        self.n, self.shape = n, (rows, cols)
        for path, header, per_sample in ((images, 16, rows * cols), (labels, 8, 1)):
            if not path.endswith(".gz"):
                actual = os.path.getsize(path) - header
                if actual < n * per_sample:
                    raise DataError(f"For 'MnistDataset', '{path}' is truncated: {actual} data bytes, its header "
                                     f"promises {n * per_sample}; sample index {actual // max(per_sample, 1)} "
                                     "is the first incomplete one")

    def load(self) -> tuple[np.ndarray, np.ndarray]:
        rows, cols = self.shape
        images = self._data(self.images, 16, self.n * rows * cols).reshape(self.n, rows, cols, 1)
        labels = self._data(self.labels, 8, self.n)
        return images, labels

    @staticmethod
    def _data(path: str, offset: int, count: int) -> np.ndarray:
        if not path.endswith(".gz"):
            return np.memmap(path, dtype=np.uint8, mode="r", offset=offset, shape=(count,))
        with gzip.open(path, "rb") as f:
            raw = f.read()
        data = np.frombuffer(raw, dtype=np.uint8, offset=offset)
        if data.size < count:
            raise DataError(f"For 'MnistDataset', '{path}' is truncated: {data.size} data bytes, its header "
                             f"promises {count}")
        return data[:count]


class _MnistReader:
    """Random access over one or more idx pairs; arrays are loaded per process on first use."""

    def __init__(self, pairs: list[_IdxPair]) -> None:
        self.pairs = pairs
        self.offsets = np.cumsum([0] + [p.n for p in pairs])
        self._arrays: list[tuple[np.ndarray, np.ndarray]] | None = None

    def __len__(self) -> int:
        return int(self.offsets[-1])

    def _load(self) -> list[tuple[np.ndarray, np.ndarray]]:
        if self._arrays is None:
            self._arrays = [p.load() for p in self.pairs]
        return self._arrays

    def __getitem__(self, idx: int) -> tuple[np.ndarray, np.ndarray]:
        k = int(np.searchsorted(self.offsets, idx, side="right")) - 1
        images, labels = self._load()[k]
        i = idx - int(self.offsets[k])
        return np.array(images[i]), np.array(labels[i], dtype=np.uint32)

    def _gather_rows(self, positions: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        images = gather_rows(self.offsets, [a[0] for a in self._load()], positions)
        labels = gather_rows(self.offsets, [a[1] for a in self._load()], positions)
        return images, labels.astype(np.uint32)

    def __getstate__(self) -> dict[str, Any]:
        # Worker processes map or decompress the files themselves.
        state = self.__dict__.copy()
        state["_arrays"] = None
        return state


class MnistDataset(MappableSourceDataset):
    """MNIST from its idx files: columns ``image`` (uint8, (28, 28, 1)) and ``label`` (uint32 scalar).

    Arguments:
        dataset_dir: the folder with ``train-images-idx3-ubyte``, ``train-labels-idx1-ubyte``,
            ``t10k-images-idx3-ubyte``, ``t10k-labels-idx1-ubyte`` (each may end in ``.gz``).
        usage: ``'train'``, ``'test'`` or ``'all'`` (default): ``'all'`` reads the test and
            train files the folder holds (sorted by name, so ``t10k`` first), as MindSpore does;
            a folder with only the train files is fine.
        num_samples: rows to read (per shard).
        num_parallel_workers: workers (capped at the cores).
        shuffle: shuffle (default ``True``).
        sampler: a sampler from ``mindjax.dataset`` (``DistributedSampler`` ...) or a list of
            indices; excludes ``shuffle``, ``num_shards``/``shard_id`` and ``num_samples``.
        num_shards: number of shards...
        shard_id: ...and the one to read.
        cache: not supported (must be ``None``).
    """

    _name = "MnistDataset"
    _usage_prefix: dict[str, str] | None = None

    def _file_prefix(self) -> str:
        return ""

    def __init__(self, dataset_dir: str, usage: str | None = None, num_samples: int | None = None,
                 num_parallel_workers: int | None = None, shuffle: bool | None = None, sampler: Any = None,
                 num_shards: int | None = None, shard_id: int | None = None, cache: Any = None) -> None:
        super().__init__(num_samples, num_parallel_workers, shuffle, num_shards, shard_id, sampler)
        if cache is not None:
            raise ValueError(f"For '{self._name}', 'cache' is not supported")
        if not isinstance(dataset_dir, (str, os.PathLike)) or not os.path.isdir(dataset_dir):
            raise ValueError(f"For '{self._name}', dataset_dir '{dataset_dir}' does not exist or is not a directory")
        usage = "all" if usage is None else usage
        if usage not in ("train", "test", "all"):
            raise ValueError(f"For '{self._name}', 'usage' must be 'train', 'test' or 'all', got {usage!r}")
        directory = os.fspath(dataset_dir)
        pairs = [_IdxPair(images, labels) for images, labels in _find_pairs(directory, usage, self._name,
                                                                             self._file_prefix(), self._usage_prefix)]
        self.dataset_dir, self.usage = directory, usage
        self._reader = _MnistReader(pairs)
        self._column_names = ["image", "label"]


class FashionMnistDataset(MnistDataset):
    """Fashion-MNIST: the same idx files and columns as :class:`MnistDataset` (same arguments)."""

    _name = "FashionMnistDataset"


class KMnistDataset(MnistDataset):
    """Kuzushiji-MNIST: the same idx files and columns as :class:`MnistDataset` (same arguments)."""

    _name = "KMnistDataset"


_EMNIST_NAMES = ("byclass", "bymerge", "balanced", "letters", "digits", "mnist")


class EMnistDataset(MnistDataset):
    """EMNIST: ``emnist-<name>-{train,test}-{images-idx3,labels-idx1}-ubyte``; columns as :class:`MnistDataset`.

    Arguments:
        dataset_dir: the folder with the files (each may end in ``.gz``).
        name: the split: ``'byclass'``, ``'bymerge'``, ``'balanced'``, ``'letters'``, ``'digits'`` or ``'mnist'``.
        usage: ``'train'``, ``'test'`` or ``'all'`` (default).
        num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id, cache:
            as :class:`MnistDataset`.
    """

    _name = "EMnistDataset"
    _usage_prefix = {"train": "train", "test": "test", "all": ""}

    def __init__(self, dataset_dir: str, name: str, usage: str | None = None, num_samples: int | None = None,
                 num_parallel_workers: int | None = None, shuffle: bool | None = None, sampler: Any = None,
                 num_shards: int | None = None, shard_id: int | None = None, cache: Any = None) -> None:
        if name not in _EMNIST_NAMES:
            raise ValueError(f"For 'EMnistDataset', 'name' must be one of {list(_EMNIST_NAMES)}, got {name!r}")
        self.name = name
        super().__init__(dataset_dir, usage, num_samples, num_parallel_workers, shuffle, sampler, num_shards,
                         shard_id, cache)

    def _file_prefix(self) -> str:
        return f"emnist-{self.name}-"


_QMNIST_LABELS_MAGIC = 3074  # idx: int32, 2 dimensions


def _read_qmnist_labels(path: str) -> np.ndarray:
    n, cols = read_idx_header(path, _QMNIST_LABELS_MAGIC, 2)
    with _open(path) as f:
        raw = f.read()[12:]
    if len(raw) < n * cols * 4:
        raise DataError(f"For 'QMnistDataset', '{path}' is truncated: {len(raw)} data bytes, its header promises "
                        f"{n * cols * 4}")
    return np.frombuffer(raw, dtype=">i4", count=n * cols).reshape(n, cols).astype(np.uint32)


class _QMnistReader:
    def __init__(self, images: np.ndarray, labels: np.ndarray, compat: bool) -> None:
        self.images, self.labels, self.compat = images, labels, compat

    def __len__(self) -> int:
        return len(self.images)

    def __getitem__(self, idx: int) -> tuple[np.ndarray, np.ndarray]:
        label = self.labels[idx]
        return np.array(self.images[idx]), np.array(label[0] if self.compat else label)


class QMnistDataset(MappableSourceDataset):
    """QMNIST: ``qmnist-{train,test}-images-idx3-ubyte`` with ``...-labels-idx2-int`` (and ``xnist-*`` for NIST).

    Columns ``image`` (uint8, (28, 28, 1)) and ``label``: the class (uint32 scalar) with
    ``compat``, else the 8 QMNIST label fields (uint32, (8,)).

    Arguments:
        dataset_dir: the folder with the files (each may end in ``.gz``).
        usage: ``'train'``, ``'test'``, ``'test10k'`` (the first 10000 test rows), ``'test50k'``
            (the rest), ``'nist'`` or ``'all'`` (default: train, test and nist).
        compat: the label is the class only. Default: True.
        num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id, cache:
            as :class:`MnistDataset`.
    """

    _name = "QMnistDataset"

    def __init__(self, dataset_dir: str, usage: str | None = None, compat: bool = True,
                 num_samples: int | None = None, num_parallel_workers: int | None = None,
                 shuffle: bool | None = None, sampler: Any = None, num_shards: int | None = None,
                 shard_id: int | None = None, cache: Any = None) -> None:
        super().__init__(num_samples, num_parallel_workers, shuffle, num_shards, shard_id, sampler)
        if cache is not None:
            raise ValueError("For 'QMnistDataset', 'cache' is not supported")
        if not isinstance(dataset_dir, (str, os.PathLike)) or not os.path.isdir(dataset_dir):
            raise ValueError(f"For 'QMnistDataset', dataset_dir '{dataset_dir}' does not exist or is not a directory")
        usage = "all" if usage is None else usage
        splits = {"train": ["qmnist-train"], "test": ["qmnist-test"], "test10k": ["qmnist-test"],
                  "test50k": ["qmnist-test"], "nist": ["xnist"], "all": ["qmnist-train", "qmnist-test", "xnist"]}
        if usage not in splits:
            raise ValueError(f"For 'QMnistDataset', 'usage' must be one of {list(splits)}, got {usage!r}")
        if not isinstance(compat, bool):
            raise ArgTypeError(f"For 'QMnistDataset', 'compat' must be a bool, got {compat!r}")
        directory = os.fspath(dataset_dir)
        images, labels = [], []
        for stem in splits[usage]:
            found = self._pair(directory, stem, required=usage != "all")
            if found is None:
                continue
            pair = _IdxPair.__new__(_IdxPair)
            n, rows, cols = read_idx_header(found[0], _IMAGES_MAGIC, 3)
            pair.images, pair.n, pair.shape = found[0], n, (rows, cols)
            data = _IdxPair._data(found[0], 16, n * rows * cols).reshape(n, rows, cols, 1)
            label = _read_qmnist_labels(found[1])
            if len(label) != n:
                raise DataError(f"For 'QMnistDataset', '{found[0]}' holds {n} images but '{found[1]}' holds "
                                f"{len(label)} labels")
            images.append(np.asarray(data))
            labels.append(label)
        if not images:
            raise DataError(f"For 'QMnistDataset', no QMNIST files for usage '{usage}' in '{directory}'")
        all_images, all_labels = np.concatenate(images), np.concatenate(labels)
        if usage == "test10k":
            all_images, all_labels = all_images[:10000], all_labels[:10000]
        elif usage == "test50k":
            all_images, all_labels = all_images[10000:], all_labels[10000:]
        self.dataset_dir, self.usage, self.compat = directory, usage, compat
        self._reader = _QMnistReader(all_images, all_labels, compat)
        self._column_names = ["image", "label"]

    @staticmethod
    def _pair(directory: str, stem: str, required: bool) -> tuple[str, str] | None:
        paths = []
        for suffix in ("-images-idx3-ubyte", "-labels-idx2-int"):
            path = os.path.join(directory, stem + suffix)
            if not os.path.isfile(path) and os.path.isfile(path + ".gz"):
                path += ".gz"
            paths.append(path)
        present = [os.path.isfile(p) for p in paths]
        if all(present):
            return paths[0], paths[1]
        if required or any(present):
            missing = [p for p, ok in zip(paths, present) if not ok]
            raise DataError(f"For 'QMnistDataset', {missing[0]} is missing")
        return None
