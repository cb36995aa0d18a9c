"""Input pipelines of the ResNet example: CIFAR-10 binary files, or labelled synthetic images.

With ``--data-dir`` the pipeline is the model zoo's CIFAR-10 one (random crop
with 4-pixel padding and horizontal flip for training, rescale, normalise,
HWC to CHW). Without it, :func:`synthetic_datasets` makes images with a
learnable signal (a fixed random pattern per class under noise), so a smoke
run's loss visibly falls; it is labelled synthetic wherever it is used.
"""
from __future__ import annotations

from typing import Any

import numpy as np

import mindjax.dataset as ds
from mindjax.dataset import transforms, vision

__all__ = ["cifar10_datasets", "synthetic_arrays", "synthetic_datasets", "CIFAR_MEAN", "CIFAR_STD"]

CIFAR_MEAN = (0.4914 * 255, 0.4822 * 255, 0.4465 * 255)
CIFAR_STD = (0.2023 * 255, 0.1994 * 255, 0.2010 * 255)


def cifar10_datasets(data_dir: str, batch_size: int, image_size: int = 32) -> tuple[Any, Any]:
    """Training and test pipelines over the CIFAR-10 binary batches in ``data_dir``.

    Arguments:
        data_dir: the folder with ``data_batch_*.bin`` and ``test_batch.bin``.
        batch_size: the global batch size.
        image_size: the side the images are resized to (32 keeps them as they are).

    Returns:
        ``(train, test)`` datasets of ``(image float32 (N, 3, S, S), label int32 (N,))``.
    """
    def pipeline(usage: str, training: bool) -> Any:
        data = ds.Cifar10Dataset(data_dir, usage=usage, shuffle=training)
        ops: list[Any] = []
        if training:
            ops += [vision.RandomCrop((32, 32), (4, 4, 4, 4)), vision.RandomHorizontalFlip(prob=0.5)]
        if image_size != 32:
            ops.append(vision.Resize((image_size, image_size)))
        ops += [vision.Normalize(mean=CIFAR_MEAN, std=CIFAR_STD), vision.HWC2CHW()]
        data = data.map(operations=ops, input_columns="image")
        data = data.map(operations=transforms.TypeCast(np.int32), input_columns="label")
        return data.batch(batch_size, drop_remainder=True)

    return pipeline("train", True), pipeline("test", False)


def synthetic_arrays(count: int, image_size: int = 32, num_classes: int = 10,
                     seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """``count`` synthetic images (float32, (N, 3, S, S)) and labels (int32): class pattern plus noise."""
    rng = np.random.default_rng(seed)
    patterns = rng.normal(size=(num_classes, 3, image_size, image_size)).astype(np.float32)
    labels = rng.integers(0, num_classes, size=count).astype(np.int32)
    noise = rng.normal(size=(count, 3, image_size, image_size)).astype(np.float32)
    return (0.5 * patterns[labels] + noise).astype(np.float32), labels


def synthetic_datasets(batch_size: int, steps: int, image_size: int = 32,
                       num_classes: int = 10) -> tuple[Any, Any]:
    """Synthetic training data of ``steps`` batches per epoch and two held-out batches.

    Returns:
        ``(train, test)`` datasets of ``(image float32, label int32)``.
    """
    x, y = synthetic_arrays(batch_size * (steps + 2), image_size, num_classes)
    cut = batch_size * steps
    train = ds.NumpySlicesDataset((x[:cut], y[:cut]), column_names=["image", "label"], shuffle=True)
    test = ds.NumpySlicesDataset((x[cut:], y[cut:]), column_names=["image", "label"], shuffle=False)
    return train.batch(batch_size, drop_remainder=True), test.batch(batch_size)
