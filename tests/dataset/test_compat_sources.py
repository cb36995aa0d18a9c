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
