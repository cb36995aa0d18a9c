"""Sources as MindSpore 2.10 defines them: column dtypes, class information, defaults."""
import os

import numpy as np

import mindjax.dataset as ds

from .conftest import make_cifar, make_mnist, rows


def _image_folder(root):
    from PIL import Image

    for cls in ("cat", "dog", "bird"):
        os.makedirs(os.path.join(root, cls))
        Image.new("RGB", (5, 4), (10, 20, 30)).save(os.path.join(root, cls, "0.png"))
    return root


def test_image_folder_label_is_int32_like_mindspores_schema(tmp_path):
    # MindSpore's ImageFolderNode declares the label column DE_INT32 (its docstring says uint32).
    data = ds.ImageFolderDataset(_image_folder(str(tmp_path)), shuffle=False, decode=True)
    assert data.output_types() == [np.uint8, np.int32]
    got = rows(data)
    assert [int(r[1]) for r in got] == [0, 1, 2] and got[0][1].dtype == np.int32 and got[0][1].shape == ()
    assert got[0][0].shape == (4, 5, 3)


def test_num_classes_and_class_indexing_through_the_pipeline(tmp_path):
    folder = ds.ImageFolderDataset(_image_folder(str(tmp_path / "f")), class_indexing={"cat": 0, "dog": 1})
    assert folder.num_classes() == 2
    piped = folder.map(lambda x: x, input_columns="image").batch(1)
    assert piped.num_classes() == 2 and piped.get_class_indexing() == {"cat": 0, "dog": 1}
    make_mnist(str(tmp_path / "m"))
    mnist = ds.MnistDataset(str(tmp_path / "m"))
    assert mnist.num_classes() is None and mnist.batch(2).get_class_indexing() == {}


def test_mnist_and_cifar_columns_dtypes_and_default_usage_all(tmp_path):
    make_mnist(str(tmp_path / "m"), n_train=6, n_test=3)
    make_cifar(str(tmp_path / "c"), per_batch=2, n_batches=2, n_test=3)
    mnist = ds.MnistDataset(str(tmp_path / "m"))
    assert mnist.get_col_names() == ["image", "label"] and mnist.get_dataset_size() == 9
    assert mnist.output_types() == [np.uint8, np.uint32] and mnist.output_shapes() == [[28, 28, 1], []]
    cifar = ds.Cifar10Dataset(str(tmp_path / "c"))
    assert cifar.get_dataset_size() == 7 and ds.Cifar10Dataset(str(tmp_path / "c"), usage="test").get_dataset_size() == 3
    assert cifar.output_types() == [np.uint8, np.uint32] and cifar.output_shapes() == [[32, 32, 3], []]


def test_output_shapes_estimate_marks_varying_dimensions_none():
    data = ds.NumpySlicesDataset({"n": [1, 2, 3]}, shuffle=False)
    data = data.map(lambda n: (np.zeros((2, int(n))), n), input_columns="n", output_columns=["v", "n"])
    assert data.output_shapes() == [[2, 1], []]
    assert data.output_shapes(estimate=True) == [[2, None], []]
    assert data.output_types() == [np.float64, np.int64]


def _cifar100(root, n_train=3, n_test=2):
    os.makedirs(root)
    rng = np.random.default_rng(0)
    records = {}
    for name, n in (("train.bin", n_train), ("test.bin", n_test)):
        rec = rng.integers(0, 256, size=(n, 2 + 3072), dtype=np.uint8)
        rec[:, 0], rec[:, 1] = np.arange(n) % 20, np.arange(n) + 50
        rec.tofile(os.path.join(root, name))
        records[name] = rec
    return records


def test_cifar100_reads_coarse_and_fine_labels_and_chw_pixels(tmp_path):
    records = _cifar100(str(tmp_path / "c100"))
    data = ds.Cifar100Dataset(str(tmp_path / "c100"), usage="train", shuffle=False)
    assert data.get_col_names() == ["image", "coarse_label", "fine_label"] and data.get_dataset_size() == 3
    assert data.output_types() == [np.uint8, np.uint32, np.uint32]
    got = rows(data)
    rec = records["train.bin"]
    for i, (image, coarse, fine) in enumerate(got):
        assert image.shape == (32, 32, 3) and coarse.shape == () and fine.dtype == np.uint32
        assert int(coarse) == rec[i, 0] and int(fine) == rec[i, 1]
        np.testing.assert_array_equal(image, rec[i, 2:].reshape(3, 32, 32).transpose(1, 2, 0))
    assert ds.Cifar100Dataset(str(tmp_path / "c100")).get_dataset_size() == 5
    batch = rows(ds.Cifar100Dataset(str(tmp_path / "c100"), usage="test", shuffle=False).batch(2))[0]
    assert batch[0].shape == (2, 32, 32, 3) and batch[2].tolist() == [50, 51]


def test_cifar100_bad_folder_usage_and_truncated_file_are_named(tmp_path):
    import pytest

    with pytest.raises(ValueError, match="Cifar100Dataset.*does not exist"):
        ds.Cifar100Dataset(str(tmp_path / "nowhere"))
    _cifar100(str(tmp_path / "c"))
    with pytest.raises(ValueError, match="Cifar100Dataset.*'usage'.*got 'val'"):
        ds.Cifar100Dataset(str(tmp_path / "c"), usage="val")
    with open(tmp_path / "c" / "test.bin", "ab") as f:
        f.write(b"\0" * 7)
    with pytest.raises(Exception, match="Cifar100Dataset.*test.bin.*truncated.*7 of 3074 bytes"):
        ds.Cifar100Dataset(str(tmp_path / "c"), usage="test")
