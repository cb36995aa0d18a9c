"""Dataset test helpers: small MNIST idx and CIFAR-10 binary files written in tmp_path."""
import gzip
import os

import numpy as np
import pytest

import mindjax.dataset as ds


@pytest.fixture(autouse=True)
def _reset_dataset_config():
    ds.config.reset()
    yield
    ds.config.reset()


def write_idx(path, magic, data, gz=False):
    """Write an idx file: big-endian magic, dims, then uint8 data."""
    header = int(magic).to_bytes(4, "big") + b"".join(int(d).to_bytes(4, "big") for d in data.shape)
    payload = header + np.ascontiguousarray(data, dtype=np.uint8).tobytes()
    if gz:
        path += ".gz"
        with gzip.open(path, "wb") as f:
            f.write(payload)
    else:
        with open(path, "wb") as f:
            f.write(payload)
    return path


def make_mnist(root, n_train=12, n_test=5, gz=False, seed=0):
    """Random MNIST-format files; returns (train images, train labels, test images, test labels)."""
    rng = np.random.default_rng(seed)
    os.makedirs(root, exist_ok=True)
    out = []
    for prefix, n in (("train", n_train), ("t10k", n_test)):
        images = rng.integers(0, 256, size=(n, 28, 28), dtype=np.uint8)
        labels = rng.integers(0, 10, size=(n,), dtype=np.uint8)
        write_idx(os.path.join(root, f"{prefix}-images-idx3-ubyte"), 2051, images, gz)
        write_idx(os.path.join(root, f"{prefix}-labels-idx1-ubyte"), 2049, labels, gz)
        out += [images, labels]
    return tuple(out)


def make_cifar(root, per_batch=4, n_batches=2, n_test=3, seed=0):
    """Random CIFAR-10 binary batches; returns (train images HWC, train labels, test images, test labels)."""
    rng = np.random.default_rng(seed)
    os.makedirs(root, exist_ok=True)

    def write(name, n):
        labels = rng.integers(0, 10, size=(n,), dtype=np.uint8)
        chw = rng.integers(0, 256, size=(n, 3, 32, 32), dtype=np.uint8)
        records = np.concatenate([labels[:, None], chw.reshape(n, -1)], axis=1)
        with open(os.path.join(root, name), "wb") as f:
            f.write(records.tobytes())
        return chw.transpose(0, 2, 3, 1), labels

    train = [write(f"data_batch_{i + 1}.bin", per_batch) for i in range(n_batches)]
    test = write("test_batch.bin", n_test)
    return (np.concatenate([t[0] for t in train]), np.concatenate([t[1] for t in train]), test[0], test[1])


@pytest.fixture
def mnist_dir(tmp_path):
    root = str(tmp_path / "mnist")
    arrays = make_mnist(root)
    return root, arrays


@pytest.fixture
def cifar_dir(tmp_path):
    root = str(tmp_path / "cifar")
    arrays = make_cifar(root)
    return root, arrays


def rows(dataset, num_epochs=1, **kwargs):
    """All rows of one epoch as lists of numpy arrays."""
    return [r for r in dataset.create_tuple_iterator(output_numpy=True, num_epochs=num_epochs, **kwargs)]
