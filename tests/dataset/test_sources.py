"""GeneratorDataset and NumpySlicesDataset: sources, columns, sampling and sharding."""
import numpy as np
import pytest

import mindjax as ms
import mindjax.dataset as ds
from tests.dataset.conftest import rows


class _RandomAccess:
    def __init__(self, n):
        self.n = n

    def __getitem__(self, i):
        return np.array([i], np.float32), np.array(i % 3, np.int32)

    def __len__(self):
        return self.n


def test_generator_random_access_source_in_order_without_shuffle():
    data = ds.GeneratorDataset(_RandomAccess(5), ["x", "y"], shuffle=False)
    got = rows(data)
    assert [float(r[0][0]) for r in got] == [0, 1, 2, 3, 4]
    assert got[0][0].dtype == np.float32 and got[0][1].dtype == np.int32
    assert data.get_dataset_size() == 5 and data.get_col_names() == ["x", "y"]


def test_generator_random_access_shuffles_by_default():
    order = [float(r[0][0]) for r in rows(ds.GeneratorDataset(_RandomAccess(20), ["x", "y"]))]
    assert sorted(order) == list(range(20)) and order != list(range(20))


def test_generator_iterable_and_generator_function_sources():
    def gen():
        for i in range(4):
            yield (np.array(i),)

    assert [int(r[0]) for r in rows(ds.GeneratorDataset(gen, "x"))] == [0, 1, 2, 3]
    listed = ds.GeneratorDataset([1, 2, 3], "x", shuffle=False)
    assert [int(r[0]) for r in rows(listed)] == [1, 2, 3]
    it = ds.GeneratorDataset(gen, "x").create_tuple_iterator(output_numpy=True, num_epochs=2)
    assert [int(r[0]) for r in it] == [0, 1, 2, 3]
    assert [int(r[0]) for r in it] == [0, 1, 2, 3]


def test_generator_without_len_counts_its_size_by_reading():
    def gen():
        yield from (np.array(i) for i in range(7))

    assert ds.GeneratorDataset(gen, ["x"]).batch(3).get_dataset_size() == 3


def test_generator_num_samples_and_shards_are_disjoint_and_cover():
    n = 10
    parts = []
    for shard in range(3):
        data = ds.GeneratorDataset(_RandomAccess(n), ["x", "y"], num_shards=3, shard_id=shard)
        assert data.get_dataset_size() == 4
        parts.append([int(r[0][0]) for r in rows(data)])
    flat = sorted(v for p in parts for v in p)
    assert set(flat) == set(range(n)) and len(flat) == 12  # ceil(10/3)=4 each: two rows wrap around
    evenly = [set(int(r[0][0]) for r in rows(ds.GeneratorDataset(_RandomAccess(12), ["x", "y"], num_shards=3,
                                                                 shard_id=s))) for s in range(3)]
    assert evenly[0].isdisjoint(evenly[1]) and evenly[1].isdisjoint(evenly[2]) and evenly[0].isdisjoint(evenly[2])
    assert ds.GeneratorDataset(_RandomAccess(n), ["x", "y"], num_samples=3).get_dataset_size() == 3


def test_generator_iterable_shards_by_position():
    data = ds.GeneratorDataset(lambda: iter(range(7)), "x", num_shards=2, shard_id=1)
    assert [int(r[0]) for r in rows(data)] == [1, 3, 5]
    padded = ds.GeneratorDataset(list(range(7)), "x", shuffle=False, num_shards=2, shard_id=1)
    assert [int(r[0]) for r in rows(padded)] == [1, 3, 5, 0]  # random access: padded by wrapping, as MindSpore


def test_generator_argument_errors():
    with pytest.raises(ValueError, match="'column_names' is required"):
        ds.GeneratorDataset(_RandomAccess(3))
    with pytest.raises(ValueError, match="'num_shards' and 'shard_id' must be given together"):
        ds.GeneratorDataset(_RandomAccess(3), "x", num_shards=2)
    with pytest.raises(ValueError, match=r"'shard_id' must be an int in \[0, 2\), got 2"):
        ds.GeneratorDataset(_RandomAccess(3), "x", num_shards=2, shard_id=2)
    with pytest.raises(ValueError, match="'num_samples' must be a positive int, got -1"):
        ds.GeneratorDataset(_RandomAccess(3), "x", num_samples=-1)


def test_generator_accepts_what_mindspore_accepts():
    # shuffle=True on an iterable is ignored with a warning; num_samples=0 means all samples (as MindSpore).
    with pytest.warns(UserWarning, match="shuffle=True is ignored: the source is not random-access"):
        data = ds.GeneratorDataset([(np.array(i),) for i in range(3)].__iter__, "x", shuffle=True)
    assert [int(r[0]) for r in rows(data)] == [0, 1, 2]
    assert ds.GeneratorDataset(_RandomAccess(3), "x", num_samples=0).get_dataset_size() == 3


def test_generator_wrong_column_count_names_sample():
    data = ds.GeneratorDataset(_RandomAccess(3), ["x", "y", "z"], shuffle=False)
    with pytest.raises(ValueError, match=r"returned 2 columns at sample index 0, but column_names \['x', 'y', 'z'\]"):
        rows(data)


def test_source_raising_mid_epoch_names_sample_index():
    class Flaky(_RandomAccess):
        def __getitem__(self, i):
            if i == 3:
                raise KeyError("bad record")
            return super().__getitem__(i)

    with pytest.raises(RuntimeError, match="GeneratorDataset', reading sample index 3 failed: KeyError"):
        rows(ds.GeneratorDataset(Flaky(6), ["x", "y"], shuffle=False))

    def gen():
        yield np.array(0)
        yield np.array(1)
        raise OSError("disk went away")

    with pytest.raises(RuntimeError, match="source raised at sample index 2: OSError: disk went away"):
        rows(ds.GeneratorDataset(gen, "x"))


def test_numpy_slices_from_dict_tuple_list_and_array():
    d = ds.NumpySlicesDataset({"a": np.arange(3), "b": np.ones((3, 2), np.float32)}, shuffle=False)
    got = rows(d)
    assert d.get_col_names() == ["a", "b"] and got[2][1].shape == (2,) and int(got[2][0]) == 2
    t = ds.NumpySlicesDataset((np.arange(4), np.arange(4) * 2), shuffle=False)
    assert t.get_col_names() == ["column_0", "column_1"] and [int(r[1]) for r in rows(t)] == [0, 2, 4, 6]
    lst = ds.NumpySlicesDataset([[1, 2], [3, 4]], column_names=["v"], shuffle=False)
    assert [r[0].tolist() for r in rows(lst)] == [[1, 2], [3, 4]]
    arr = ds.NumpySlicesDataset(np.arange(5.0), shuffle=False)
    assert arr.get_col_names() == ["column_0"] and arr.get_dataset_size() == 5
    with pytest.raises(ValueError, match=r"same length, got \[3, 2\]"):
        ds.NumpySlicesDataset((np.arange(3), np.arange(2)))
    with pytest.raises(ValueError, match="names 1 columns, but the data has 2"):
        ds.NumpySlicesDataset((np.arange(3), np.arange(3)), column_names=["a"])


def test_tuple_iterator_returns_tensors_and_dict_iterator_names_columns():
    data = ds.NumpySlicesDataset({"a": np.arange(3, dtype=np.float32), "b": np.arange(3)}, shuffle=False)
    first = next(iter(data.create_tuple_iterator(num_epochs=1)))
    assert isinstance(first, list) and type(first[0]) is ms.Tensor and first[1].dtype == ms.int64
    d = next(iter(data.create_dict_iterator(num_epochs=1, output_numpy=True)))
    assert set(d) == {"a", "b"} and isinstance(d["a"], np.ndarray)
    only_b = next(iter(data.create_tuple_iterator(columns=["b"], output_numpy=True, num_epochs=1)))
    assert len(only_b) == 1 and int(only_b[0]) == 0
    assert [float(r[0]) for r in data] == [0.0, 1.0, 2.0]
