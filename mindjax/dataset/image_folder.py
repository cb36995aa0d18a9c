"""``ImageFolderDataset``: one sub-folder per class, labels from sorted folder names."""
from __future__ import annotations

import os
from typing import Any

import numpy as np

from mindjax.dataset.sources import MappableSourceDataset

__all__ = ["ImageFolderDataset"]


def decode_image(data: np.ndarray, where: str) -> np.ndarray:
    """Encoded bytes (JPEG, PNG, ...) to an RGB uint8 (H, W, 3) array with Pillow."""
    import io

    from PIL import Image

    try:
        with Image.open(io.BytesIO(np.asarray(data, dtype=np.uint8).tobytes())) as img:
            return np.asarray(img.convert("RGB"))
    except Exception as err:
        raise ValueError(f"For 'Decode', cannot decode {where}: {type(err).__name__}: {err}") from err


class _FolderReader:
    def __init__(self, samples: list[tuple[str, int]], decode: bool) -> None:
        self.samples, self.decode = samples, decode

    def __len__(self) -> int:
        return len(self.samples)

    def __getitem__(self, idx: int) -> tuple[np.ndarray, np.ndarray]:
        path, label = self.samples[idx]
        with open(path, "rb") as f:
            data = np.frombuffer(f.read(), dtype=np.uint8)
        image = decode_image(data, f"'{path}'") if self.decode else data
        return image, np.array(label, dtype=np.int32)


class ImageFolderDataset(MappableSourceDataset):
    """Images in ``dataset_dir/<class>/<file>``: columns ``image`` and ``label`` (int32 scalar, as MindSpore).

    ``image`` is the file's bytes (uint8, 1-D) unless ``decode``, then RGB (H, W, 3).

    Arguments:
        dataset_dir: the root folder.
        num_samples: rows to read (per shard).
        num_parallel_workers: workers (capped at the cores).
        shuffle: shuffle (default ``True``).
        sampler: a sampler from ``mindjax.dataset`` (``DistributedSampler`` ...) or a list of
            indices; excludes ``shuffle``, ``num_shards``/``shard_id`` and ``num_samples``.
        extensions: file extensions to keep, e.g. ``[".jpg", ".png"]`` (default: all files).
        class_indexing: folder name to label; only those folders are read (default: sorted
            folder names numbered from 0).
        decode: decode the images.
        num_shards: number of shards...
        shard_id: ...and the one to read.
        cache: not supported (must be ``None``).
        decrypt: not supported (must be ``None``).
    """

    _name = "ImageFolderDataset"

    def __init__(self, dataset_dir: str, num_samples: int | None = None, num_parallel_workers: int | None = None,
                 shuffle: bool | None = None, sampler: Any = None, extensions: list[str] | None = None,
                 class_indexing: dict[str, int] | None = None, decode: bool = False,
                 num_shards: int | None = None, shard_id: int | None = None, cache: Any = None,
                 decrypt: Any = None) -> None:
        super().__init__(num_samples, num_parallel_workers, shuffle, num_shards, shard_id, sampler)
        if cache is not None or decrypt is not None:
            raise ValueError("For 'ImageFolderDataset', 'cache' and 'decrypt' are not supported")
        if not isinstance(dataset_dir, (str, os.PathLike)) or not os.path.isdir(dataset_dir):
            raise ValueError(f"For 'ImageFolderDataset', dataset_dir '{dataset_dir}' does not exist or is not a "
                             "directory")
        directory = os.fspath(dataset_dir)
        folders = sorted(d for d in os.listdir(directory) if os.path.isdir(os.path.join(directory, d)))
        if class_indexing is None:
            class_indexing = {name: i for i, name in enumerate(folders)}
        elif not isinstance(class_indexing, dict) or not all(
                isinstance(k, str) and isinstance(v, int) and v >= 0 for k, v in class_indexing.items()):
            raise ValueError(f"For 'ImageFolderDataset', 'class_indexing' must map str to int >= 0, "
                             f"got {class_indexing!r}")
        exts = None if not extensions else tuple(extensions)
        samples: list[tuple[str, int]] = []
        for folder in folders:
            if folder not in class_indexing:
                continue
            root = os.path.join(directory, folder)
            for name in sorted(os.listdir(root)):
                path = os.path.join(root, name)
                if name.startswith(".") or not os.path.isfile(path):
                    continue
                if exts is None or name.endswith(exts):
                    samples.append((path, class_indexing[folder]))
        self.dataset_dir, self.decode = directory, bool(decode)
        self._class_indexing = dict(class_indexing)
        self._reader = _FolderReader(samples, self.decode)
        self._column_names = ["image", "label"]

    def get_class_indexing(self) -> dict[str, int]:
        """The folder-name-to-label map."""
        return dict(self._class_indexing)

    def num_classes(self) -> int:
        """The number of classes: the size of ``class_indexing``."""
        return len(self._class_indexing)
