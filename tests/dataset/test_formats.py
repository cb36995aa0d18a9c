"""MnistDataset, Cifar10Dataset and ImageFolderDataset read their formats as MindSpore does."""
import gzip
import os

import numpy as np
import pytest

import mindjax.dataset as ds
from tests.dataset.conftest import make_cifar, make_mnist, rows, write_idx


@pytest.mark.parametrize("gz", [False, True], ids=["plain", "gzip"])
def test_mnist_reads_idx_files_in_order_with_mindspore_dtypes(tmp_path, gz):
    root = str(tmp_path / "m")
    tr_img, tr_lbl, te_img, te_lbl = make_mnist(root, gz=gz)
    data = ds.MnistDataset(root, usage="train", shuffle=False)
    assert data.get_col_names() == ["image", "label"]
    assert data.get_dataset_size() == 12
    got = rows(data)
    assert got[0][0].shape == (28, 28, 1) and got[0][0].dtype == np.uint8
    assert got[0][1].shape == () and got[0][1].dtype == np.uint32
    np.testing.assert_array_equal(np.stack([r[0][..., 0] for r in got]), tr_img)
    np.testing.assert_array_equal([int(r[1]) for r in got], tr_lbl)
    test = rows(ds.MnistDataset(root, usage="test", shuffle=False))
    np.testing.assert_array_equal([int(r[1]) for r in test], te_lbl)
    every = ds.MnistDataset(root, shuffle=False)
    assert every.get_dataset_size() == 17
    # MindSpore pairs the files in sorted name order: t10k before train.
    np.testing.assert_array_equal([int(r[1]) for r in rows(every)], np.concatenate([te_lbl, tr_lbl]))


def test_mnist_shuffles_by_default_and_keeps_every_sample(mnist_dir):
    root, (tr_img, tr_lbl, _, _) = mnist_dir
    got = rows(ds.MnistDataset(root, usage="train"))
    order = [int(np.flatnonzero((tr_img == r[0][..., 0]).all(axis=(1, 2)))[0]) for r in got]
    assert sorted(order) == list(range(12)) and order != list(range(12))


def test_mnist_missing_directory_names_it(tmp_path):
    missing = str(tmp_path / "nope")
    with pytest.raises(ValueError, match=f"dataset_dir '{missing}' does not exist"):
        ds.MnistDataset(missing)


def test_mnist_missing_file_names_it(tmp_path):
    root = str(tmp_path / "m")
    make_mnist(root)
    os.remove(os.path.join(root, "t10k-labels-idx1-ubyte"))
    with pytest.raises(ValueError, match="t10k-labels-idx1-ubyte.*is missing"):
        ds.MnistDataset(root, usage="test")


def test_mnist_malformed_header_names_the_file(tmp_path):
    root = str(tmp_path / "m")
    make_mnist(root)
    write_idx(os.path.join(root, "train-images-idx3-ubyte"), 1234, np.zeros((2, 28, 28), np.uint8))
    with pytest.raises(ValueError, match="train-images-idx3-ubyte' has a malformed idx header: magic number 1234"):
        ds.MnistDataset(root, usage="train")


def test_mnist_truncated_images_name_file_and_sample(tmp_path):
    root = str(tmp_path / "m")
    make_mnist(root)
    path = os.path.join(root, "train-images-idx3-ubyte")
    with open(path, "r+b") as f:
        f.truncate(16 + 784 * 7 + 100)
    with pytest.raises(ValueError, match=r"train-images-idx3-ubyte' is truncated.*sample index 7"):
        ds.MnistDataset(root, usage="train")


def test_mnist_truncated_gzip_is_reported_when_read(tmp_path):
    root = str(tmp_path / "m")
    os.makedirs(root)
    with gzip.open(os.path.join(root, "train-images-idx3-ubyte.gz"), "wb") as f:
        f.write((2051).to_bytes(4, "big") + (3).to_bytes(4, "big") + (28).to_bytes(4, "big") * 2 + b"\0" * 784)
    write_idx(os.path.join(root, "train-labels-idx1-ubyte"), 2049, np.zeros(3, np.uint8))
    data = ds.MnistDataset(root, usage="train", shuffle=False)
    with pytest.raises(Exception, match=r"train-images-idx3-ubyte.gz' is truncated"):
        rows(data)


def test_mnist_rejects_bad_usage(mnist_dir):
    with pytest.raises(ValueError, match="'usage' must be 'train', 'test' or 'all', got 'val'"):
        ds.MnistDataset(mnist_dir[0], usage="val")


def test_cifar10_reads_binary_batches_as_hwc(cifar_dir):
    root, (tr_img, tr_lbl, te_img, te_lbl) = cifar_dir
    train = ds.Cifar10Dataset(root, usage="train", shuffle=False)
    assert train.get_dataset_size() == 8
    got = rows(train)
    assert got[0][0].shape == (32, 32, 3) and got[0][0].dtype == np.uint8 and got[0][1].dtype == np.uint32
    np.testing.assert_array_equal(np.stack([r[0] for r in got]), tr_img)
    np.testing.assert_array_equal([int(r[1]) for r in got], tr_lbl)
    test = rows(ds.Cifar10Dataset(root, usage="test", shuffle=False))
    np.testing.assert_array_equal(np.stack([r[0] for r in test]), te_img)
    assert ds.Cifar10Dataset(root).get_dataset_size() == 11


def test_cifar10_truncated_batch_names_file_and_record(tmp_path):
    root = str(tmp_path / "c")
    make_cifar(root, per_batch=4)
    path = os.path.join(root, "data_batch_2.bin")
    with open(path, "r+b") as f:
        f.truncate(3073 * 2 + 500)
    with pytest.raises(ValueError, match=r"data_batch_2.bin' is truncated: record 2 .*has 500 of 3073 bytes"):
        ds.Cifar10Dataset(root, usage="train")


def test_cifar10_missing_directory_and_files(tmp_path):
    with pytest.raises(ValueError, match="does not exist or is not a directory"):
        ds.Cifar10Dataset(str(tmp_path / "none"))
    os.makedirs(tmp_path / "empty")
    with pytest.raises(ValueError, match="no data_batch_\\*.bin file"):
        ds.Cifar10Dataset(str(tmp_path / "empty"), usage="train")


def _write_png(path, color, size=(5, 4)):
    from PIL import Image

    Image.new("RGB", size, color).save(path)


def test_image_folder_labels_sorted_folders_and_decodes(tmp_path):
    for cls, color in (("cat", (255, 0, 0)), ("dog", (0, 255, 0))):
        os.makedirs(tmp_path / cls)
        for i in range(2):
            _write_png(str(tmp_path / cls / f"{i}.png"), color)
    (tmp_path / "dog" / "notes.txt").write_text("skip me")
    raw = ds.ImageFolderDataset(str(tmp_path), shuffle=False, extensions=[".png"])
    assert raw.get_dataset_size() == 4 and raw.get_class_indexing() == {"cat": 0, "dog": 1}
    got = rows(raw)
    assert got[0][0].ndim == 1 and got[0][0].dtype == np.uint8
    assert [int(r[1]) for r in got] == [0, 0, 1, 1] and got[0][1].dtype == np.int32  # as MindSpore's C++ schema
    decoded = rows(ds.ImageFolderDataset(str(tmp_path), shuffle=False, extensions=[".png"], decode=True))
    assert decoded[0][0].shape == (4, 5, 3)
    np.testing.assert_array_equal(decoded[3][0][0, 0], [0, 255, 0])
    only_dog = ds.ImageFolderDataset(str(tmp_path), shuffle=False, extensions=[".png"], class_indexing={"dog": 7})
    assert [int(r[1]) for r in rows(only_dog)] == [7, 7]


def test_image_folder_missing_directory(tmp_path):
    with pytest.raises(ValueError, match="ImageFolderDataset', dataset_dir .* does not exist"):
        ds.ImageFolderDataset(str(tmp_path / "missing"))


@pytest.mark.parametrize("usage", [None, "all", "train"])
def test_mnist_folder_with_only_train_files_reads_them(tmp_path, usage):
    root = str(tmp_path / "m")
    tr_img, tr_lbl, _, _ = make_mnist(root)
    for name in ("t10k-images-idx3-ubyte", "t10k-labels-idx1-ubyte"):
        os.remove(os.path.join(root, name))
    data = ds.MnistDataset(root, usage=usage, shuffle=False)
    assert data.get_dataset_size() == 12
    np.testing.assert_array_equal([int(r[1]) for r in rows(data)], tr_lbl)


def test_mnist_folder_with_only_test_files_reads_them_for_all_but_not_for_train(tmp_path):
    root = str(tmp_path / "m")
    _, _, _, te_lbl = make_mnist(root)
    for name in ("train-images-idx3-ubyte", "train-labels-idx1-ubyte"):
        os.remove(os.path.join(root, name))
    np.testing.assert_array_equal([int(r[1]) for r in rows(ds.MnistDataset(root, shuffle=False))], te_lbl)
    with pytest.raises(RuntimeError, match="no data for usage 'train'.*'train-images-idx3-ubyte'"):
        ds.MnistDataset(root, usage="train")


def test_mnist_matches_mindspore_file_names_with_dots(tmp_path):
    root = str(tmp_path / "m")
    os.makedirs(root)
    images = np.arange(2 * 28 * 28, dtype=np.uint8).reshape(2, 28, 28)
    write_idx(os.path.join(root, "train-images.idx3-ubyte"), 2051, images)
    write_idx(os.path.join(root, "train-labels.idx1-ubyte"), 2049, np.array([3, 4], np.uint8))
    assert [int(r[1]) for r in rows(ds.MnistDataset(root, usage="train", shuffle=False))] == [3, 4]


def test_cifar10_all_empty_batch_files_are_an_error_not_an_empty_dataset(tmp_path):
    root = tmp_path / "c"
    root.mkdir()
    for name in ("data_batch_1.bin", "data_batch_2.bin"):
        (root / name).write_bytes(b"")
    with pytest.raises(ValueError, match=r"For 'Cifar10Dataset', no valid data: the files .*data_batch_1.bin.* hold "
                                         r"no records \(they are empty\)"):
        ds.Cifar10Dataset(str(root), usage="train")
