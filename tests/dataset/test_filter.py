"""Dataset.filter keeps the rows its predicate accepts, as MindSpore's filter does."""
import numpy as np
import pytest

import mindjax.dataset as ds
from tests.dataset.conftest import rows


def _numbers(n=10):
    return ds.NumpySlicesDataset({"x": np.arange(n), "y": np.arange(n) * 10}, shuffle=False)


def test_filter_keeps_rows_whose_predicate_is_true_with_all_columns_by_default():
    data = _numbers().filter(lambda x, y: x % 3 == 0 and y < 80)
    assert [(int(a), int(b)) for a, b in rows(data)] == [(0, 0), (3, 30), (6, 60)]


def test_filter_passes_only_input_columns_and_keeps_every_column():
    data = _numbers().filter(lambda y: y >= 70, input_columns=["y"])
    assert data.get_col_names() == ["x", "y"]
    assert [int(r[0]) for r in rows(data)] == [7, 8, 9]


def test_filter_size_is_counted_and_batch_repeat_compose_after_it():
    data = _numbers().filter(lambda x: x % 2 == 1, input_columns="x")
    assert data.get_dataset_size() == 5
    batched = data.batch(2)
    assert batched.get_dataset_size() == 3
    got = [r[0].tolist() for r in rows(batched.repeat(2))]
    assert got == [[1, 3], [5, 7], [9], [1, 3], [5, 7], [9]]


def test_filter_accepts_a_numpy_bool_result_and_works_on_a_generator_source():
    data = ds.GeneratorDataset(lambda: iter([(np.array(i),) for i in range(6)]), ["v"]).filter(
        lambda v: np.asarray(v > 3))
    assert [int(r[0]) for r in rows(data)] == [4, 5]


def test_filter_rejects_unknown_column_and_non_callable():
    with pytest.raises(ValueError, match=r"For 'filter', input column 'z' is not in the dataset's columns"):
        _numbers().filter(lambda z: True, input_columns="z")
    with pytest.raises(TypeError, match="For 'filter', 'predicate' must be callable, got int"):
        _numbers().filter(3)


def test_filter_predicate_errors_name_the_sample_and_a_non_bool_result_is_an_error():
    with pytest.raises(RuntimeError, match=r"For 'filter', the predicate failed .* at sample index 0: ZeroDivision"):
        rows(_numbers().filter(lambda x: 1 // 0, input_columns="x"))
    with pytest.raises(RuntimeError, match="For 'filter', the predicate must return a bool, got str"):
        rows(_numbers().filter(lambda x: "yes", input_columns="x"))
