"""The whole-batch fast path of ``batch`` over in-memory sources equals the row-by-row path."""
import numpy as np
import pytest

import mindjax.dataset as ds
from mindjax.dataset import transforms, vision
from mindjax.dataset.sources import MappableSourceDataset, _Slices
from tests.dataset.conftest import make_cifar, make_mnist


def _row_by_row(monkeypatch, make):
    """What ``make()`` reads with the fast path turned off."""
    with monkeypatch.context() as m:
        m.setattr(MappableSourceDataset, "_batch_reader", lambda self, ctx, path: None)
        return _read(make())


def _read(data, epochs=2):
    out = []
    it = data.create_tuple_iterator(output_numpy=True, num_epochs=epochs)
    for _ in range(epochs):
        out.append([tuple(np.asarray(c) for c in row) for row in it])
    return out


def _assert_same(a, b):
    assert len(a) == len(b)
    for ea, eb in zip(a, b):
        assert len(ea) == len(eb)
        for ra, rb in zip(ea, eb):
            for ca, cb in zip(ra, rb):
                assert ca.dtype == cb.dtype and ca.shape == cb.shape
                np.testing.assert_array_equal(ca, cb)


def _no_row_reads(monkeypatch):
    def refuse(self, i):
        raise AssertionError("read row by row")

    monkeypatch.setattr(_Slices, "__getitem__", refuse)


@pytest.mark.parametrize("kwargs", [dict(shuffle=False), dict(shuffle=True),
                                    dict(shuffle=True, num_shards=3, shard_id=1), dict(num_samples=7)])
@pytest.mark.parametrize("drop", [False, True])
def test_numpy_slices_batches_equal_row_by_row_batches(monkeypatch, kwargs, drop):
    ds.config.set_seed(5)
    x = np.arange(23 * 3, dtype=np.float32).reshape(23, 3)
    y = np.arange(23, dtype=np.int64)

    def make():
        return ds.NumpySlicesDataset({"x": x, "y": y}, **kwargs).batch(4, drop_remainder=drop)

    slow = _row_by_row(monkeypatch, make)
    _no_row_reads(monkeypatch)
    _assert_same(_read(make()), slow)


def test_batchable_maps_project_and_rename_take_the_fast_path(monkeypatch):
    ds.config.set_seed(1)
    images = np.random.default_rng(0).integers(0, 256, (10, 6, 5, 3), dtype=np.uint8)
    labels = np.arange(10, dtype=np.int32) % 4

    def make():
        d = ds.NumpySlicesDataset({"image": images, "label": labels, "extra": labels}, shuffle=True)
        ops = [vision.Rescale(1 / 255, 0.1), vision.Normalize([0.5, 0.4, 0.3], [0.2, 0.3, 0.4]),
               vision.HWC2CHW()]
        d = d.map(ops, input_columns="image")
        d = d.map(transforms.Compose([transforms.TypeCast(np.int64), transforms.OneHot(4)]), "label")
        d = d.project(["label", "image"]).rename("label", "target")
        return d.batch(3)

    slow = _row_by_row(monkeypatch, make)
    _no_row_reads(monkeypatch)
    fast = _read(make())
    _assert_same(fast, slow)
    assert fast[0][0][0].shape == (3, 4) and fast[0][0][1].shape == (3, 3, 6, 5)


def test_random_map_keeps_the_row_by_row_path(monkeypatch):
    d = ds.NumpySlicesDataset({"x": np.zeros((4, 3, 3, 1), np.uint8)}, shuffle=False)
    d = d.map(vision.RandomHorizontalFlip(0.5)).batch(2)
    _no_row_reads(monkeypatch)
    with pytest.raises(RuntimeError, match="read row by row"):
        _read(d, epochs=1)


@pytest.mark.parametrize("gz", [False, True])
def test_mnist_and_cifar_batches_equal_row_by_row_batches(monkeypatch, tmp_path, gz):
    ds.config.set_seed(3)
    make_mnist(str(tmp_path / "mnist"), n_train=11, gz=gz)
    make_cifar(str(tmp_path / "cifar"), per_batch=5, n_batches=2)
    for source in (lambda: ds.MnistDataset(str(tmp_path / "mnist"), usage="train"),
                   lambda: ds.Cifar10Dataset(str(tmp_path / "cifar"), usage="train")):
        def make():
            return source().map([vision.Rescale(1 / 255, 0), vision.HWC2CHW()], "image").batch(4)

        _assert_same(_read(make()), _row_by_row(monkeypatch, make))


def test_fast_path_resumes_from_a_saved_position():
    ds.config.set_seed(2)
    data = ds.NumpySlicesDataset({"x": np.arange(30, dtype=np.int32)}, shuffle=True).batch(4)
    it = data.create_tuple_iterator(output_numpy=True)
    for _ in range(5):
        next(it)
    state = it.get_state()
    expected = [r[0] for r in it] + [r[0] for r in it]  # the rest of epoch 0, then epoch 1
    again = data.create_tuple_iterator(output_numpy=True)
    again.set_state(state)
    got = [r[0] for r in again] + [r[0] for r in again]
    assert len(got) == len(expected) == 3 + 8
    for a, b in zip(got, expected):
        np.testing.assert_array_equal(a, b)


def test_failing_batched_transform_reports_the_sample_like_the_row_path():
    # OneHot rejects label 7 of 4 classes: the error names the map, the column and the sample.
    data = ds.NumpySlicesDataset({"label": np.array([0, 1, 7, 2], np.int32)}, shuffle=False)
    data = data.map(transforms.OneHot(4), "label").batch(2)
    with pytest.raises(RuntimeError, match=r"OneHot.*\['label'\].*sample index 2"):
        _read(data, epochs=1)


def test_object_and_string_columns_are_batched_row_by_row(monkeypatch):
    col = np.empty(3, dtype=object)
    col[:] = [np.zeros(2), np.ones(2), np.full(2, 2.0)]
    words = np.array(["a", "bb", "cccc"])
    data = ds.NumpySlicesDataset({"x": col, "w": words}, shuffle=False).batch(2)
    slow = _row_by_row(monkeypatch, lambda: data)
    (first, second), = _read(data, epochs=1)
    np.testing.assert_array_equal(first[0], [[0, 0], [1, 1]])
    assert first[1].dtype == np.dtype("<U2") and second[1].dtype == np.dtype("<U4")
    _assert_same([[first, second]], slow[:1])
