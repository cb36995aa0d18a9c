"""Input pipelines for the LeNet example.

By default: the 1,797 real 8x8 handwritten digits that ship inside
scikit-learn, upsampled to 32x32 and split once, with a fixed seed, into 1,437
training and 360 held-out images. With ``--data-dir``: MNIST idx files
(gzipped or not), padded from 28x28 to 32x32.
"""
from __future__ import annotations

from typing import Any

import numpy as np

import mindjax.dataset as ds
from mindjax.dataset import transforms, vision

HELD_OUT = 360
SPLIT_SEED = 1234


def digits_arrays() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """``(train_images, train_labels, test_images, test_labels)`` from scikit-learn's digits.

    Images are float32 (N, 1, 32, 32), standardised; labels int32.
    """
    from sklearn.datasets import load_digits

    digits = load_digits()
    images = digits.images.astype(np.float32) / 16.0                # (N, 8, 8) in [0, 1]
    images = np.kron(images, np.ones((1, 4, 4), np.float32))         # nearest upsampling to 32x32
    images = ((images - 0.1307) / 0.3081)[:, None, :, :].astype(np.float32)
    labels = digits.target.astype(np.int32)
    order = np.random.default_rng(SPLIT_SEED).permutation(len(labels))
    test, train = order[:HELD_OUT], order[HELD_OUT:]
    return images[train], labels[train], images[test], labels[test]


def digits_datasets(batch_size: int, num_shards: int = 1, shard_id: int = 0) -> tuple[Any, Any]:
    """Shuffled training and ordered test datasets of the digits.

    Arguments:
        batch_size: rows per batch (per process).
        num_shards, shard_id: the training data is split into ``num_shards``
            parts and this process reads part ``shard_id`` (data parallel over
            processes); the held-out set is read whole by everyone.
    """
    x_train, y_train, x_test, y_test = digits_arrays()
    shards = (num_shards, shard_id) if num_shards > 1 else (None, None)
    train = ds.NumpySlicesDataset((x_train, y_train), column_names=["image", "label"], shuffle=True,
                                  num_shards=shards[0], shard_id=shards[1])
    test = ds.NumpySlicesDataset((x_test, y_test), column_names=["image", "label"], shuffle=False,
                                 num_shards=1, shard_id=0)
    return (train.batch(batch_size, drop_remainder=True), test.batch(batch_size))


def mnist_datasets(data_dir: str, batch_size: int, num_shards: int = 1, shard_id: int = 0) -> tuple[Any, Any]:
    """MNIST from idx files in ``data_dir``, as MindSpore's LeNet example reads it.

    The training set is split as in :func:`digits_datasets`; the test set is read whole.
    """
    def pipeline(usage: str, shuffle: bool) -> Any:
        shards = (num_shards, shard_id) if usage == "train" and num_shards > 1 else (1, 0)
        data = ds.MnistDataset(data_dir, usage=usage, shuffle=shuffle, num_shards=shards[0], shard_id=shards[1])
        image_ops = [vision.Resize((32, 32)), vision.Rescale(1.0 / 255.0, 0.0),
                     vision.Normalize(mean=(0.1307,), std=(0.3081,)), vision.HWC2CHW()]
        data = data.map(operations=image_ops, input_columns="image")
        data = data.map(operations=transforms.TypeCast(np.int32), input_columns="label")
        return data.batch(batch_size, drop_remainder=shuffle)

    return pipeline("train", True), pipeline("test", False)
