"""Errors raised as MindSpore raises them: TypeError for wrong argument types, RuntimeError for data problems.

MindJAX's errors stay ValueErrors too (``ArgTypeError``/``DataError`` derive from both).
"""
import numpy as np
import pytest

import mindjax.dataset as ds

from .conftest import rows, write_idx


def _data():
    return ds.NumpySlicesDataset({"a": [1, 2, 3], "b": [4, 5, 6]}, shuffle=False)


@pytest.mark.parametrize("make", [
    lambda d: d.batch(2.0), lambda d: d.batch("2"), lambda d: d.batch(2, drop_remainder="yes"),
    lambda d: d.take(1.5), lambda d: d.repeat("2"), lambda d: d.skip(1.0), lambda d: d.shuffle(2.5),
    lambda d: d.batch(True), lambda d: d.map(lambda x: x, num_parallel_workers=2.0),
])
def test_wrong_argument_types_raise_type_error(make):
    with pytest.raises(TypeError, match="must be"):
        make(_data())


def test_wrong_argument_values_raise_value_error():
    for make, match in ((lambda d: d.batch(0), "'batch_size' must be a positive int, got 0"),
                        (lambda d: d.take(0), r"'count' should be either -1 or within the required interval of \(0, "),
                        (lambda d: d.repeat(0), "'count' must be a positive int, got 0"),
                        (lambda d: d.skip(-1), "'count' must be an int >= 0, got -1"),
                        (lambda d: d.shuffle(1), "'buffer_size' must be an int >= 2, got 1")):
        with pytest.raises(ValueError, match=match):
            make(_data())


def test_batch_input_columns_need_per_batch_map_of_matching_arity():
    with pytest.raises(ValueError, match="'input_columns' can be given only with 'per_batch_map'"):
        _data().batch(2, input_columns=["a"])
    with pytest.raises(ValueError, match=r"per_batch_map takes 2 arguments, but input_columns \['a', 'b'\] needs 3"):
        _data().batch(2, per_batch_map=lambda a, info: (a,), input_columns=["a", "b"])
    # *args callables are not checked, as MindSpore counts only named parameters
    both = _data().batch(2, per_batch_map=lambda *cols: cols[:-1], input_columns=["a", "b"])
    assert rows(both)[0][0].tolist() == [1, 2]


def test_shard_options_given_alone_raise_runtime_error():
    with pytest.raises(RuntimeError, match="'num_shards' and 'shard_id' must be given together"):
        ds.NumpySlicesDataset([1, 2], num_shards=2)
    with pytest.raises(RuntimeError, match="'num_shards' and 'shard_id' must be given together"):
        ds.NumpySlicesDataset([1, 2], shard_id=0)
    with pytest.raises(ValueError, match=r"'shard_id' must be an int in \[0, 2\), got 2"):
        ds.NumpySlicesDataset([1, 2], num_shards=2, shard_id=2)
    with pytest.raises(TypeError, match="'shard_id' must be an int"):
        ds.NumpySlicesDataset([1, 2], num_shards=2, shard_id="0")


def test_data_errors_during_iteration_are_runtime_errors():
    data = _data()
    with pytest.raises(RuntimeError, match=r"returned 2 columns at sample index 0, but output_columns \['a'\]"):
        rows(data.map(lambda a: (a, a), input_columns="a"))
    with pytest.raises(RuntimeError, match=r"source returned 2 columns at sample index 0"):
        rows(ds.GeneratorDataset([(np.array(1), np.array(2))], ["x"]))
    ragged = ds.NumpySlicesDataset({"n": [1, 2]}, shuffle=False).map(lambda n: np.ones(int(n)), input_columns="n")
    with pytest.raises(RuntimeError, match=r"column 'n' has shape \(2,\) at sample index 1 but \(1,\) earlier"):
        rows(ragged.batch(2))
    with pytest.raises(RuntimeError, match=r"per_batch_map returned 2 columns in batch 0"):
        rows(data.batch(2, per_batch_map=lambda a, info: (a, a), input_columns=["a"]))


def test_bad_files_are_runtime_errors(tmp_path):
    root = str(tmp_path)
    write_idx(root + "/train-images-idx3-ubyte", 1234, np.zeros((2, 28, 28), np.uint8))
    write_idx(root + "/train-labels-idx1-ubyte", 2049, np.zeros((2,), np.uint8))
    with pytest.raises(RuntimeError, match="malformed idx header: magic number 1234"):
        ds.MnistDataset(root, usage="train")
    with pytest.raises(RuntimeError, match="t10k-images-idx3-ubyte' .* is missing"):
        ds.MnistDataset(root, usage="test")
    with pytest.raises(ValueError, match="does not exist or is not a directory"):
        ds.Cifar10Dataset(str(tmp_path / "nowhere"))


def test_split_returns_a_tuple_and_checks_sizes_as_mindspore():
    parts = ds.NumpySlicesDataset({"x": np.arange(10)}, shuffle=False).split([0.8, 0.2], randomize=False)
    assert isinstance(parts, tuple) and [p.get_dataset_size() for p in parts] == [8, 2]
    with pytest.raises(RuntimeError, match="sum to the dataset size 3"):
        _data().split([1, 1])
    with pytest.raises(ValueError, match=r"must be in \(0, 1\] and sum to 1"):
        _data().split([0.5, 0.6])


def test_numpy_slices_of_empty_data_is_rejected():
    with pytest.raises(ValueError, match="'data' must not be empty"):
        ds.NumpySlicesDataset([])
    with pytest.raises(ValueError, match="'data' must not be empty"):
        ds.NumpySlicesDataset({"a": []})


def test_module_level_zip_joins_a_tuple_of_datasets():
    a = ds.NumpySlicesDataset({"a": [1, 2, 3]}, shuffle=False)
    b = ds.NumpySlicesDataset({"b": [4, 5]}, shuffle=False)
    zipped = ds.zip((a, b))
    assert zipped.get_col_names() == ["a", "b"] and zipped.get_dataset_size() == 2
    assert [[int(x) for x in r] for r in rows(zipped)] == [[1, 4], [2, 5]]
    with pytest.raises(TypeError, match="'datasets' must be a tuple"):
        ds.zip([a, b])


def test_take_count_must_be_minus_one_or_in_mindspores_interval():
    data = ds.NumpySlicesDataset({"x": [1, 2, 3]}, shuffle=False)
    for bad in (0, -2, 2 ** 31):
        with pytest.raises(ValueError, match=r"For 'take', 'count' should be either -1 or within the required "
                                             r"interval of \(0, 2147483647\]"):
            data.take(bad)
    with pytest.raises(TypeError, match="For 'take', 'count' must be an int, got 1.5"):
        data.take(1.5)
    assert data.take(-1).get_dataset_size() == 3 and data.take(2).get_dataset_size() == 2
