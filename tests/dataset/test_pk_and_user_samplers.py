"""PKSampler (K rows per class) and user Sampler classes on every random-access source."""
import os

import numpy as np
import pytest

import mindjax.dataset as ds
from mindjax.mindrecord import FileWriter
from tests.dataset.conftest import make_cifar, make_mnist, rows


def _labelled(labels, sampler):
    return ds.NumpySlicesDataset({"x": np.arange(len(labels)), "label": np.asarray(labels)}, sampler=sampler)


def test_pk_sampler_gives_k_rows_per_class_in_sorted_class_order():
    data = _labelled([2, 0, 1, 0, 2, 2, 1], ds.PKSampler(3))
    assert data.get_dataset_size() == 9
    got = rows(data)
    assert [int(r[1]) for r in got] == [0, 0, 0, 1, 1, 1, 2, 2, 2]
    for x, label in got:
        assert [2, 0, 1, 0, 2, 2, 1][int(x)] == int(label)


def test_pk_sampler_draws_with_replacement_reproducibly_and_anew_each_epoch():
    ds.config.set_seed(5)
    labels = [0] * 20 + [1] * 20
    data = _labelled(labels, ds.PKSampler(5))
    first = [[int(r[0]) for r in epoch] for epoch in _epochs(data, 2)]
    again = [[int(r[0]) for r in epoch] for epoch in _epochs(_labelled(labels, ds.PKSampler(5)), 2)]
    assert first == again and first[0] != first[1]


def test_pk_sampler_shuffle_permutes_classes_and_num_samples_limits():
    ds.config.set_seed(1)
    data = _labelled(list(range(8)) * 2, ds.PKSampler(1, shuffle=True, num_samples=5))
    order = [int(r[1]) for r in rows(data)]
    assert len(order) == 5 and len(set(order)) == 5 and order != sorted(order)


def test_pk_sampler_reads_the_class_column_and_names_a_missing_one():
    data = ds.NumpySlicesDataset({"x": np.arange(4), "cls": ["b", "a", "b", "a"]},
                                 sampler=ds.PKSampler(1, class_column="cls"))
    assert [str(r[1]) for r in rows(data)] == ["a", "b"]
    with pytest.raises(RuntimeError, match="class_column 'label' is not a column of 'NumpySlicesDataset'"):
        ds.NumpySlicesDataset({"x": np.arange(4)}, sampler=ds.PKSampler(1)).get_dataset_size()


def _epochs(data, n):
    it = data.create_tuple_iterator(output_numpy=True, num_epochs=n)
    return [list(it) for _ in range(n)]


class _Evens(ds.Sampler):
    """A user sampler whose __init__ does not call super().__init__()."""

    def __init__(self, limit):
        self.limit = limit

    def __iter__(self):
        return iter(range(0, min(self.limit, self.dataset_size), 2))


def _sources(tmp_path):
    make_mnist(str(tmp_path / "m"), n_train=6, n_test=0)
    make_cifar(str(tmp_path / "c"), per_batch=3, n_batches=2, n_test=1)
    folder = tmp_path / "f"
    from PIL import Image
    for k, cls in enumerate(["a", "b"]):
        os.makedirs(folder / cls)
        for i in range(3):
            Image.fromarray(np.full((4, 4, 3), k * 10 + i, np.uint8)).save(folder / cls / f"{i}.png")
    path = str(tmp_path / "r.mindrecord")
    writer = FileWriter(path, overwrite=True)
    writer.add_schema({"label": {"type": "int64"}})
    writer.write_raw_data([{"label": i} for i in range(6)])
    writer.commit()

    class Indexable:
        def __getitem__(self, i):
            return np.array(i), np.array(i % 2)

        def __len__(self):
            return 6

    return {
        "mnist": lambda s: ds.MnistDataset(str(tmp_path / "m"), usage="train", sampler=s),
        "cifar": lambda s: ds.Cifar10Dataset(str(tmp_path / "c"), usage="train", sampler=s),
        "folder": lambda s: ds.ImageFolderDataset(str(folder), sampler=s),
        "mindrecord": lambda s: ds.MindDataset(path, sampler=s),
        "generator": lambda s: ds.GeneratorDataset(Indexable(), ["x", "label"], sampler=s),
        "slices": lambda s: ds.NumpySlicesDataset({"label": np.arange(6) % 2}, sampler=s),
    }


@pytest.mark.parametrize("source", ["mnist", "cifar", "folder", "mindrecord", "generator", "slices"])
def test_user_sampler_and_pk_sampler_work_with_every_random_access_source(tmp_path, source):
    make = _sources(tmp_path)[source]
    data = make(_Evens(5))
    assert data.get_dataset_size() == 3 and len(rows(data)) == 3
    pk = make(ds.PKSampler(2))
    labels = [int(r[data.get_col_names().index("label")]) for r in rows(pk)]
    assert len(labels) == pk.get_dataset_size() and labels == sorted(labels)
    assert all(labels.count(v) == 2 for v in set(labels))


def test_a_sampler_needs_a_random_access_generator_source():
    with pytest.raises(ValueError, match="'sampler' needs a random-access source"):
        ds.GeneratorDataset(lambda: iter([1, 2]), ["x"], sampler=_Evens(2))
