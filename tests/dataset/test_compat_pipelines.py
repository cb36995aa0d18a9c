"""Model-zoo style pipelines, written as MindSpore users write them, give MindSpore's sizes, shapes and dtypes."""
import numpy as np

import mindjax as ms
import mindjax.dataset as ds
import mindjax.dataset.transforms as C
import mindjax.dataset.vision as CV

from .conftest import make_cifar, make_mnist


def _lenet_dataset(path, batch_size=4):
    mnist_ds = ds.MnistDataset(path)
    mnist_ds = mnist_ds.map(operations=C.TypeCast(ms.int32), input_columns="label")
    mnist_ds = mnist_ds.map(operations=[CV.Resize((32, 32), interpolation=CV.Inter.LINEAR),
                                        CV.Rescale(1.0 / 255.0, 0.0), CV.Rescale(1 / 0.3081, -0.1307 / 0.3081),
                                        CV.HWC2CHW()], input_columns="image")
    return mnist_ds.shuffle(buffer_size=10000).batch(batch_size, drop_remainder=True).repeat(1)


def test_lenet_mnist_pipeline(tmp_path):
    make_mnist(str(tmp_path), n_train=10, n_test=5)
    data = _lenet_dataset(str(tmp_path))
    assert data.get_dataset_size() == 3 and data.get_col_names() == ["image", "label"]
    assert data.output_shapes() == [[4, 1, 32, 32], [4]]
    assert data.output_types() == [np.float32, np.int32]
    batches = list(data.create_dict_iterator(num_epochs=1, output_numpy=True))
    assert len(batches) == 3 and all(b["image"].dtype == np.float32 for b in batches)
    tensors = next(data.create_tuple_iterator(num_epochs=1))
    assert all(hasattr(t, "asnumpy") for t in tensors)


def test_resnet_cifar_pipeline(tmp_path):
    make_cifar(str(tmp_path), per_batch=4, n_batches=2, n_test=3)
    ds.config.set_seed(1)
    data = ds.Cifar10Dataset(str(tmp_path), usage="train", num_parallel_workers=8, shuffle=True)
    trans = [CV.RandomCrop((32, 32), (4, 4, 4, 4)), CV.RandomHorizontalFlip(prob=0.5), CV.Rescale(1.0 / 255.0, 0.0),
             CV.Normalize([0.4914, 0.4822, 0.4465], [0.2023, 0.1994, 0.2010]), CV.HWC2CHW()]
    data = data.map(operations=C.TypeCast(ms.int32), input_columns="label", num_parallel_workers=8)
    data = data.map(operations=trans, input_columns="image", num_parallel_workers=8)
    data = data.batch(3, drop_remainder=True)
    assert data.get_dataset_size() == 2 and data.get_batch_size() == 3
    got = list(data.create_tuple_iterator(num_epochs=1, output_numpy=True))
    assert [(g[0].shape, g[0].dtype, g[1].shape, g[1].dtype) for g in got] == [
        ((3, 3, 32, 32), np.float32, (3,), np.int32)] * 2


class _Source:
    def __init__(self):
        self._data = np.arange(10, dtype=np.float32).reshape(5, 2)
        self._label = np.arange(5, dtype=np.int32)

    def __getitem__(self, index):
        return self._data[index], self._label[index]

    def __len__(self):
        return len(self._data)


def _generate():
    for i in range(5):
        yield np.array([i, i + 1]), np.array(i, dtype=np.int32)


def test_generator_sources_sharding_and_column_order_after_map():
    random_access = ds.GeneratorDataset(_Source(), ["data", "label"], shuffle=False)
    assert random_access.get_dataset_size() == 5 and random_access.output_types() == [np.float32, np.int32]
    shard = ds.GeneratorDataset(_Source(), ["data", "label"], num_shards=2, shard_id=1, shuffle=False)
    # MindSpore's DistributedSampler gives every shard ceil(5 / 2) rows, wrapping around to pad
    assert shard.get_dataset_size() == 3
    assert [int(r[1]) for r in shard.create_tuple_iterator(output_numpy=True, num_epochs=1)] == [1, 3, 0]
    generated = ds.GeneratorDataset(source=_generate, column_names=["data", "label"])
    split = generated.map(lambda d: (d[0], d[1]), input_columns="data", output_columns=["lo", "hi"])
    assert split.get_col_names() == ["lo", "hi", "label"]
    first = next(split.create_dict_iterator(num_epochs=1, output_numpy=True))
    assert {k: int(v) for k, v in first.items()} == {"lo": 0, "hi": 1, "label": 0}
    sized = generated.repeat(3).batch(4)
    assert sized.get_dataset_size() == 4
    assert [len(b[0]) for b in sized.create_tuple_iterator(num_epochs=1, output_numpy=True)] == [4, 4, 4, 3]
