"""Image datasets in their published formats: ``SVHNDataset`` (.mat), ``STL10Dataset`` (binary),
``ManifestDataset`` (JSON lines), ``CocoDataset`` (COCO JSON) and ``VOCDataset`` (Pascal VOC XML).

Images are returned as the file's bytes (uint8, 1-D) unless ``decode``, then RGB (H, W, 3) uint8,
as MindSpore returns them; the column names, dtypes and shapes follow MindSpore.
"""
from __future__ import annotations

import json
import os
import xml.etree.ElementTree as ET
from typing import Any, Callable

import numpy as np

from mindjax.dataset.image_folder import decode_image
from mindjax.dataset.rows import ArgTypeError, DataError
from mindjax.dataset.sources import MappableSourceDataset

__all__ = ["SVHNDataset", "STL10Dataset", "ManifestDataset", "CocoDataset", "VOCDataset"]


def _check_dir(dataset_dir: Any, who: str) -> str:
    if not isinstance(dataset_dir, (str, os.PathLike)) or not os.path.isdir(dataset_dir):
        raise ValueError(f"For '{who}', dataset_dir '{dataset_dir}' does not exist or is not a directory")
    return os.fspath(dataset_dir)


def _check_usage(usage: Any, allowed: tuple[str, ...], default: str, who: str) -> str:
    usage = default if usage is None else usage
    if usage not in allowed:
        raise ValueError(f"For '{who}', 'usage' must be one of {list(allowed)}, got {usage!r}")
    return usage


def _no_cache(who: str, **unsupported: Any) -> None:
    for name, value in unsupported.items():
        if value is not None:
            raise ValueError(f"For '{who}', '{name}' is not supported")


class _Rows:
    """``len()`` rows made on demand by ``make(i)``."""

    def __init__(self, n: int, make: Callable[[int], tuple[np.ndarray, ...]]) -> None:
        self.n, self.make = n, make

    def __len__(self) -> int:
        return self.n

    def __getitem__(self, idx: int) -> tuple[np.ndarray, ...]:
        return self.make(idx)


def _image_file(path: str, decode: bool) -> np.ndarray:
    try:
        with open(path, "rb") as f:
            data = np.frombuffer(f.read(), dtype=np.uint8)
    except OSError as err:
        raise DataError(f"cannot read image {path}: {err}") from err
    return decode_image(data, f"'{path}'") if decode else data


class SVHNDataset(MappableSourceDataset):
    """SVHN from ``{train,test,extra}_32x32.mat``: ``image`` (uint8, (32, 32, 3)) and ``label`` (uint32; 10 is 0).

    Arguments:
        dataset_dir: the folder with the .mat files.
        usage: ``'train'``, ``'test'``, ``'extra'`` or ``'all'`` (default).
        num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id: as ``MnistDataset``.
    """

    _name = "SVHNDataset"

    def __init__(self, dataset_dir: str, usage: str | None = None, num_samples: int | None = None,
                 num_parallel_workers: int | None = 1, shuffle: bool | None = None, sampler: Any = None,
                 num_shards: int | None = None, shard_id: int | None = None) -> None:
        super().__init__(num_samples, num_parallel_workers, shuffle, num_shards, shard_id, sampler)
        from scipy.io import loadmat

        directory = _check_dir(dataset_dir, self._name)
        usage = _check_usage(usage, ("train", "test", "extra", "all"), "all", self._name)
        images, labels = [], []
        for split in (("train", "test", "extra") if usage == "all" else (usage,)):
            path = os.path.join(directory, f"{split}_32x32.mat")
            if not os.path.isfile(path):
                raise DataError(f"For 'SVHNDataset', {path} is missing")
            mat = loadmat(path)
            if "X" not in mat or "y" not in mat:
                raise DataError(f"For 'SVHNDataset', {path} must hold 'X' and 'y' arrays")
            images.append(np.ascontiguousarray(np.transpose(mat["X"], (3, 0, 1, 2))).astype(np.uint8))
            labels.append((np.asarray(mat["y"]).reshape(-1) % 10).astype(np.uint32))
        self.dataset_dir, self.usage = directory, usage
        x, y = np.concatenate(images), np.concatenate(labels)
        self._reader = _Rows(len(x), lambda i: (x[i].copy(), np.array(y[i])))
        self._column_names = ["image", "label"]


class STL10Dataset(MappableSourceDataset):
    """STL-10 from its binary files: ``image`` (uint8, (96, 96, 3)) and ``label`` (int32, 0-9; -1 unlabeled).

    Arguments:
        dataset_dir: the folder with ``train_X.bin``, ``train_y.bin``, ``test_X.bin``, ``test_y.bin``,
            ``unlabeled_X.bin``.
        usage: ``'train'``, ``'test'``, ``'unlabeled'``, ``'train+unlabeled'`` or ``'all'`` (default).
        num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id: as ``MnistDataset``.
    """

    _name = "STL10Dataset"

    def __init__(self, dataset_dir: str, usage: str | None = None, num_samples: int | None = None,
                 num_parallel_workers: int | None = None, shuffle: bool | None = None, sampler: Any = None,
                 num_shards: int | None = None, shard_id: int | None = None) -> None:
        super().__init__(num_samples, num_parallel_workers, shuffle, num_shards, shard_id, sampler)
        directory = _check_dir(dataset_dir, self._name)
        usage = _check_usage(usage, ("train", "test", "unlabeled", "train+unlabeled", "all"), "all", self._name)
        splits = {"train": ["train"], "test": ["test"], "unlabeled": ["unlabeled"],
                  "train+unlabeled": ["train", "unlabeled"], "all": ["train", "test", "unlabeled"]}[usage]
        images, labels = [], []
        for split in splits:
            xpath = os.path.join(directory, f"{split}_X.bin")
            if not os.path.isfile(xpath):
                raise DataError(f"For 'STL10Dataset', {xpath} is missing")
            raw = np.fromfile(xpath, dtype=np.uint8)
            if raw.size % (3 * 96 * 96):
                raise DataError(f"For 'STL10Dataset', {xpath} holds {raw.size} bytes, not a multiple of 3*96*96")
            x = raw.reshape(-1, 3, 96, 96).transpose(0, 3, 2, 1)  # stored column-major per channel
            if split == "unlabeled":
                y = np.full(len(x), -1, np.int32)
            else:
                ypath = os.path.join(directory, f"{split}_y.bin")
                if not os.path.isfile(ypath):
                    raise DataError(f"For 'STL10Dataset', {ypath} is missing")
                y = np.fromfile(ypath, dtype=np.uint8).astype(np.int32) - 1
                if len(y) != len(x):
                    raise DataError(f"For 'STL10Dataset', {xpath} holds {len(x)} images but {ypath} holds {len(y)} "
                                    "labels")
            images.append(x)
            labels.append(y)
        self.dataset_dir, self.usage = directory, usage
        x_all, y_all = np.concatenate(images), np.concatenate(labels)
        self._reader = _Rows(len(x_all), lambda i: (np.ascontiguousarray(x_all[i]), np.array(y_all[i])))
        self._column_names = ["image", "label"]


class ManifestDataset(MappableSourceDataset):
    """Images listed in a manifest file (JSON lines ``{"source", "usage", "annotation": [{"name"}]}``).

    Columns ``image`` and ``label`` (uint32, (n,) - one per annotation).

    Arguments:
        dataset_file: the manifest file.
        usage: ``'train'`` (default), ``'eval'`` or ``'inference'``: the lines of that usage.
        num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id: as ``MnistDataset``.
        class_indexing: label name to id (default: the sorted names numbered from 0).
        decode: decode the images.
        cache: not supported (must be ``None``).
    """

    _name = "ManifestDataset"

    def __init__(self, dataset_file: str, usage: str = "train", num_samples: int | None = None,
                 num_parallel_workers: int | None = None, shuffle: bool | None = None, sampler: Any = None,
                 class_indexing: dict[str, int] | None = None, decode: bool = False, num_shards: int | None = None,
                 shard_id: int | None = None, cache: Any = None) -> None:
        super().__init__(num_samples, num_parallel_workers, shuffle, num_shards, shard_id, sampler)
        _no_cache(self._name, cache=cache)
        if not isinstance(dataset_file, str) or not os.path.isfile(dataset_file):
            raise ValueError(f"For 'ManifestDataset', dataset_file '{dataset_file}' does not exist or is not a file")
        usage = _check_usage(usage, ("train", "eval", "inference"), "train", self._name)
        entries: list[tuple[str, list[str]]] = []
        with open(dataset_file, "r", encoding="utf-8") as f:
            for k, line in enumerate(f, start=1):
                if not line.strip():
                    continue
                try:
                    item = json.loads(line)
                except json.JSONDecodeError as err:
                    raise DataError(f"For 'ManifestDataset', line {k} of {dataset_file} is not JSON: {err}") from None
                if str(item.get("usage", "")).lower() != usage:
                    continue
                if "source" not in item:
                    raise DataError(f"For 'ManifestDataset', line {k} of {dataset_file} has no 'source'")
                names = [a["name"] for a in item.get("annotation", []) if "name" in a]
                entries.append((str(item["source"]), names))
        if class_indexing is None:
            class_indexing = {n: i for i, n in enumerate(sorted({n for _, ns in entries for n in ns}))}
        elif not isinstance(class_indexing, dict) or not all(
                isinstance(k, str) and isinstance(v, int) for k, v in class_indexing.items()):
            raise ArgTypeError(f"For 'ManifestDataset', 'class_indexing' must map str to int, got {class_indexing!r}")
        for source, names in entries:
            for n in names:
                if n not in class_indexing:
                    raise DataError(f"For 'ManifestDataset', label '{n}' of {source} is not in class_indexing")
        base = os.path.dirname(os.path.abspath(dataset_file))
        self.dataset_file, self.usage, self.decode = dataset_file, usage, bool(decode)
        self._class_indexing = dict(class_indexing)

        def make(i: int) -> tuple[np.ndarray, np.ndarray]:
            source, names = entries[i]
            path = source if os.path.isabs(source) else os.path.join(base, source)
            return _image_file(path, self.decode), np.array([class_indexing[n] for n in names], dtype=np.uint32)

        self._reader = _Rows(len(entries), make)
        self._column_names = ["image", "label"]

    def get_class_indexing(self) -> dict[str, int]:
        """The label-name-to-id map."""
        return dict(self._class_indexing)

    def num_classes(self) -> int:
        """The number of classes."""
        return len(self._class_indexing)


class CocoDataset(MappableSourceDataset):
    """COCO images with their annotations from the COCO JSON file.

    Columns by ``task``: ``'Detection'``: ``image``, ``bbox`` (float32, (n, 4) as [x, y, w, h]),
    ``category_id`` (uint32, (n, 1)), ``iscrowd`` (uint32, (n, 1)); ``'Keypoint'``: ``image``,
    ``keypoints`` (float32, (n, 51)), ``num_keypoints`` (uint32, (n, 1)). Images without
    annotations are skipped, as in MindSpore.

    Arguments:
        dataset_dir: the folder with the images (``file_name`` in the JSON).
        annotation_file: the COCO JSON file.
        task: ``'Detection'`` (default) or ``'Keypoint'``.
        num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id: as ``MnistDataset``.
        decode: decode the images.
        cache, decrypt: not supported (must be ``None``).
        extra_metadata: add a ``_meta-filename`` column (str).
    """

    _name = "CocoDataset"

    def __init__(self, dataset_dir: str, annotation_file: str, task: str = "Detection",
                 num_samples: int | None = None, num_parallel_workers: int | None = None,
                 shuffle: bool | None = None, decode: bool = False, sampler: Any = None,
                 num_shards: int | None = None, shard_id: int | None = None, cache: Any = None,
                 extra_metadata: bool = False, decrypt: Any = None) -> None:
        super().__init__(num_samples, num_parallel_workers, shuffle, num_shards, shard_id, sampler)
        _no_cache(self._name, cache=cache, decrypt=decrypt)
        directory = _check_dir(dataset_dir, self._name)
        if task in ("Stuff", "Panoptic", "Captioning"):
            raise NotImplementedError(f"For 'CocoDataset', task '{task}' is not supported; use 'Detection' or "
                                      "'Keypoint'")
        if task not in ("Detection", "Keypoint"):
            raise ValueError(f"For 'CocoDataset', 'task' must be 'Detection', 'Stuff', 'Panoptic', 'Keypoint' or "
                             f"'Captioning', got {task!r}")
        if not isinstance(annotation_file, str) or not os.path.isfile(annotation_file):
            raise ValueError(f"For 'CocoDataset', annotation_file '{annotation_file}' does not exist or is not a file")
        with open(annotation_file, "r", encoding="utf-8") as f:
            coco = json.load(f)
        for key in ("images", "annotations"):
            if key not in coco:
                raise DataError(f"For 'CocoDataset', {annotation_file} has no '{key}' list")
        by_image: dict[Any, list[dict[str, Any]]] = {}
        for ann in coco["annotations"]:
            by_image.setdefault(ann["image_id"], []).append(ann)
        images = [img for img in coco["images"] if by_image.get(img["id"])]
        self.dataset_dir, self.annotation_file, self.task = directory, annotation_file, task
        self.decode, self.extra_metadata = bool(decode), bool(extra_metadata)
        self._class_indexing = {c["name"]: c["id"] for c in coco.get("categories", [])}

        def make(i: int) -> tuple[np.ndarray, ...]:
            info = images[i]
            anns = by_image[info["id"]]
            image = _image_file(os.path.join(directory, info["file_name"]), self.decode)
            if task == "Detection":
                row = (image, np.array([a["bbox"] for a in anns], dtype=np.float32).reshape(-1, 4),
                       np.array([[a["category_id"]] for a in anns], dtype=np.uint32),
                       np.array([[a.get("iscrowd", 0)] for a in anns], dtype=np.uint32))
            else:
                row = (image, np.array([a["keypoints"] for a in anns], dtype=np.float32),
                       np.array([[a.get("num_keypoints", 0)] for a in anns], dtype=np.uint32))
            return row + ((np.array(info["file_name"]),) if self.extra_metadata else ())

        self._reader = _Rows(len(images), make)
        names = ["image", "bbox", "category_id", "iscrowd"] if task == "Detection" else [
            "image", "keypoints", "num_keypoints"]
        self._column_names = names + (["_meta-filename"] if self.extra_metadata else [])

    def get_class_indexing(self) -> dict[str, int]:
        """Category name to id, from the JSON's ``categories``."""
        return dict(self._class_indexing)


class VOCDataset(MappableSourceDataset):
    """Pascal VOC: ``JPEGImages``, ``Annotations`` and ``ImageSets/{Main,Segmentation}/<usage>.txt``.

    Columns by ``task``: ``'Detection'``: ``image``, ``bbox`` (float32, (n, 4) as
    [xmin, ymin, width, height]), ``label``, ``difficult``, ``truncate`` (uint32, (n, 1));
    ``'Segmentation'``: ``image`` and ``target`` (the ``SegmentationClass`` PNG).

    Arguments:
        dataset_dir: the VOC root (``VOCdevkit/VOC2012``).
        task: ``'Segmentation'`` (default) or ``'Detection'``.
        usage: the image set file name (``'train'`` default, ``'val'``, ``'trainval'``...).
        class_indexing: (Detection) class name to label (default: the sorted names in the
            annotations, numbered from 0).
        num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id: as ``MnistDataset``.
        decode: decode the images (and targets).
        cache: not supported (must be ``None``).
        extra_metadata: add a ``_meta-filename`` column (str).
        decrypt: not supported (must be ``None``).
    """

    _name = "VOCDataset"

    def __init__(self, dataset_dir: str, task: str = "Segmentation", usage: str = "train",
                 class_indexing: dict[str, int] | None = None, num_samples: int | None = None,
                 num_parallel_workers: int | None = None, shuffle: bool | None = None, decode: bool = False,
                 sampler: Any = None, num_shards: int | None = None, shard_id: int | None = None,
                 cache: Any = None, extra_metadata: bool = False, decrypt: Any = None) -> None:
        super().__init__(num_samples, num_parallel_workers, shuffle, num_shards, shard_id, sampler)
        _no_cache(self._name, cache=cache, decrypt=decrypt)
        directory = _check_dir(dataset_dir, self._name)
        if task not in ("Segmentation", "Detection"):
            raise ValueError(f"For 'VOCDataset', 'task' must be 'Segmentation' or 'Detection', got {task!r}")
        if class_indexing is not None and task != "Detection":
            raise ValueError("For 'VOCDataset', class_indexing needs task='Detection'")
        list_file = os.path.join(directory, "ImageSets", "Main" if task == "Detection" else "Segmentation",
                                 f"{usage}.txt")
        if not os.path.isfile(list_file):
            raise ValueError(f"For 'VOCDataset', the image set file {list_file} does not exist")
        with open(list_file, "r", encoding="utf-8") as f:
            ids = [line.strip().split()[0] for line in f if line.strip()]
        self.dataset_dir, self.task, self.usage = directory, task, usage
        self.decode, self.extra_metadata = bool(decode), bool(extra_metadata)
        self._class_indexing: dict[str, int] = {}
        if task == "Detection":
            objects = {i: self._objects(os.path.join(directory, "Annotations", f"{i}.xml")) for i in ids}
            if class_indexing is None:
                names = sorted({o[0] for objs in objects.values() for o in objs})
                class_indexing = {n: k for k, n in enumerate(names)}
            elif not isinstance(class_indexing, dict):
                raise ArgTypeError(f"For 'VOCDataset', 'class_indexing' must be a dict, got {class_indexing!r}")
            self._class_indexing = dict(class_indexing)

            def make(k: int) -> tuple[np.ndarray, ...]:
                objs = [o for o in objects[ids[k]] if o[0] in class_indexing]
                image = _image_file(os.path.join(directory, "JPEGImages", f"{ids[k]}.jpg"), self.decode)
                row = (image, np.array([o[1] for o in objs], dtype=np.float32).reshape(-1, 4),
                       np.array([[class_indexing[o[0]]] for o in objs], dtype=np.uint32).reshape(-1, 1),
                       np.array([[o[2]] for o in objs], dtype=np.uint32).reshape(-1, 1),
                       np.array([[o[3]] for o in objs], dtype=np.uint32).reshape(-1, 1))
                return row + ((np.array(f"{ids[k]}.jpg"),) if self.extra_metadata else ())

            columns = ["image", "bbox", "label", "difficult", "truncate"]
        else:
            def make(k: int) -> tuple[np.ndarray, ...]:
                image = _image_file(os.path.join(directory, "JPEGImages", f"{ids[k]}.jpg"), self.decode)
                target = _image_file(os.path.join(directory, "SegmentationClass", f"{ids[k]}.png"), self.decode)
                return (image, target) + ((np.array(f"{ids[k]}.jpg"),) if self.extra_metadata else ())

            columns = ["image", "target"]
        self._reader = _Rows(len(ids), make)
        self._column_names = columns + (["_meta-filename"] if self.extra_metadata else [])

    @staticmethod
    def _objects(path: str) -> list[tuple[str, list[float], int, int]]:
        if not os.path.isfile(path):
            raise DataError(f"For 'VOCDataset', the annotation {path} does not exist")
        root = ET.parse(path).getroot()
        out = []
        for obj in root.iter("object"):
            box = obj.find("bndbox")
            if box is None:
                raise DataError(f"For 'VOCDataset', an object in {path} has no bndbox")
            xmin, ymin, xmax, ymax = (float(box.findtext(t, "0")) for t in ("xmin", "ymin", "xmax", "ymax"))
            out.append((obj.findtext("name", "").strip(), [xmin, ymin, xmax - xmin, ymax - ymin],
                        int(obj.findtext("difficult", "0") or 0), int(obj.findtext("truncated", "0") or 0)))
        return out

    def get_class_indexing(self) -> dict[str, int]:
        """(Detection) class name to label."""
        if self.task != "Detection":
            raise RuntimeError("For 'VOCDataset', get_class_indexing needs task='Detection'")
        return dict(self._class_indexing)
