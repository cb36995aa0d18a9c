"""Operations: map, batch, shuffle, repeat, take, skip, project, rename, concat, zip, split."""
import numpy as np
import pytest

import mindjax.dataset as ds
from tests.dataset.conftest import rows


def _numbers(n=10, **kwargs):
    return ds.NumpySlicesDataset({"x": np.arange(n), "y": np.arange(n) * 10}, shuffle=False, **kwargs)


def test_map_replaces_columns_in_place_and_chains_operations():
    data = _numbers(4).map([lambda x: x + 1, lambda x: x * 2], input_columns="y")
    assert data.get_col_names() == ["x", "y"]
    assert [int(r[1]) for r in rows(data)] == [2, 22, 42, 62]
    renamed = _numbers(3).map(lambda x: x * 3, input_columns=["x"], output_columns=["x3"])
    assert renamed.get_col_names() == ["x3", "y"] and [int(r[0]) for r in rows(renamed)] == [0, 3, 6]


def test_map_with_different_column_counts_puts_outputs_first():
    data = _numbers(3).map(lambda x, y: (x, x + y, y - x), input_columns=["x", "y"],
                           output_columns=["a", "b", "c"])
    assert data.get_col_names() == ["a", "b", "c"]
    assert [int(v) for v in rows(data)[2]] == [2, 22, 18]
    plus = ds.NumpySlicesDataset({"p": np.arange(2), "q": np.arange(2), "r": np.arange(2)}, shuffle=False)
    merged = plus.map(lambda p, q: p + q, input_columns=["p", "q"], output_columns=["pq"])
    assert merged.get_col_names() == ["pq", "r"]


def test_map_default_input_is_first_column():
    assert [int(r[0]) for r in rows(_numbers(3).map(lambda x: -x))] == [0, -1, -2]


def test_map_returning_wrong_number_of_columns_names_columns_and_sample():
    data = _numbers(5).map(lambda x: (x, x), input_columns="x")
    with pytest.raises(ValueError, match=r"returned 2 columns at sample index 0, but output_columns \['x'\] names 1"):
        rows(data)


def test_map_failure_names_operation_columns_and_sample():
    def explode(x):
        if int(x) == 3:
            raise ZeroDivisionError("boom")
        return x

    with pytest.raises(RuntimeError, match=r"operation 0 \(explode\) failed on input columns \['x'\] at sample "
                                           r"index 3: ZeroDivisionError: boom"):
        rows(_numbers(5).map(explode, input_columns="x"))


def test_map_argument_errors():
    with pytest.raises(ValueError, match=r"input column 'z' is not in the dataset's columns \['x', 'y'\]"):
        _numbers().map(lambda z: z, input_columns="z")
    with pytest.raises(TypeError, match="every operation must be callable"):
        _numbers().map([3])
    with pytest.raises(ValueError, match="would duplicate a column"):
        _numbers().map(lambda x: x, input_columns="x", output_columns="y")


def test_batch_stacks_rows_and_drops_remainder():
    data = _numbers(10).batch(4)
    assert data.get_dataset_size() == 3
    got = rows(data)
    assert [r[0].shape for r in got] == [(4,), (4,), (2,)]
    dropped = _numbers(10).batch(4, drop_remainder=True)
    assert dropped.get_dataset_size() == 2 and len(rows(dropped)) == 2


def test_batch_per_batch_map_gets_column_lists_and_batch_info():
    seen = []

    def per_batch(xs, ys, info):
        seen.append((info.get_batch_num(), info.get_epoch_num()))
        return [x + 100 for x in xs], ys

    got = rows(_numbers(5).batch(2, per_batch_map=per_batch, input_columns=["x", "y"]))
    assert [r[0].tolist() for r in got] == [[100, 101], [102, 103], [104]]
    assert sorted(seen) == [(0, 0), (1, 0), (2, 0)]
    summed = _numbers(4).batch(2, per_batch_map=lambda xs, ys, info: ([x + y for x, y in zip(xs, ys)],),
                               input_columns=["x", "y"], output_columns=["s"])
    assert summed.get_col_names() == ["s"] and rows(summed)[1][0].tolist() == [22, 33]


def test_batch_of_ragged_rows_names_column_and_sample():
    ragged = ds.GeneratorDataset([np.zeros(2), np.zeros(2), np.zeros(3)], "v", shuffle=False).batch(3)
    with pytest.raises(ValueError, match=r"column 'v' has shape \(3,\) at sample index 2 but \(2,\) earlier"):
        rows(ragged)


def test_shuffle_repeat_take_skip_sizes_and_contents():
    data = _numbers(10).shuffle(4)
    first = [int(r[0]) for r in rows(data)]
    assert sorted(first) == list(range(10)) and first != list(range(10))
    assert all(v // 4 == i // 4 for i, v in enumerate(first))  # a window of 4 keeps rows near
    rep = _numbers(3).shuffle(10).repeat(3)
    got = [int(r[0]) for r in rows(rep)]
    assert rep.get_dataset_size() == 9 and sorted(got) == sorted(list(range(3)) * 3)
    assert _numbers(10).take(3).get_dataset_size() == 3 and [int(r[0]) for r in rows(_numbers(10).take(3))] == [0, 1, 2]
    assert [int(r[0]) for r in rows(_numbers(5).skip(3))] == [3, 4]
    assert _numbers(5).repeat().get_dataset_size() == -1
    with pytest.raises(ValueError, match="'buffer_size' must be an int >= 2, got 1"):
        _numbers().shuffle(1)


def test_repeat_reshuffles_each_repetition():
    got = [int(r[0]) for r in rows(_numbers(30).shuffle(30).repeat(2))]
    assert got[:30] != got[30:] and sorted(got[:30]) == sorted(got[30:])


def test_project_rename_concat_zip():
    data = _numbers(3)
    assert data.project(["y"]).get_col_names() == ["y"] and int(rows(data.project(["y", "x"]))[1][0]) == 10
    renamed = data.rename(["x"], ["z"])
    assert renamed.get_col_names() == ["z", "y"]
    both = data + _numbers(2)
    assert both.get_dataset_size() == 5 and [int(r[0]) for r in rows(both)] == [0, 1, 2, 0, 1]
    with pytest.raises(ValueError, match=r"dataset 1 has columns \['z', 'y'\], expected \['x', 'y'\]"):
        data.concat(renamed)
    zipped = data.zip(ds.NumpySlicesDataset({"w": np.arange(5) + 7}, shuffle=False))
    assert zipped.get_col_names() == ["x", "y", "w"] and zipped.get_dataset_size() == 3
    assert [int(v) for v in rows(zipped)[2]] == [2, 20, 9]
    with pytest.raises(ValueError, match="column 'x' appears in more than one dataset"):
        data.zip(data)


def test_concat_and_zip_with_an_iterable_source():
    def gen():
        yield from [(np.array(v),) for v in (5, 6)]

    stream = ds.GeneratorDataset(gen, ["x"])
    cat = ds.NumpySlicesDataset({"x": np.arange(2)}, shuffle=False).concat(stream)
    assert [int(r[0]) for r in rows(cat)] == [0, 1, 5, 6]
    zipped = stream.zip(ds.NumpySlicesDataset({"w": np.arange(3)}, shuffle=False))
    assert [[int(v) for v in r] for r in rows(zipped)] == [[5, 0], [6, 1]]


def test_split_sizes_and_disjointness():
    train, test = _numbers(10).split([0.8, 0.2])
    a = [int(r[0]) for r in rows(train)]
    b = [int(r[0]) for r in rows(test)]
    assert len(a) == 8 and len(b) == 2 and sorted(a + b) == list(range(10))
    first, second = _numbers(5).split([2, 3], randomize=False)
    assert [int(r[0]) for r in rows(first)] == [0, 1] and [int(r[0]) for r in rows(second)] == [2, 3, 4]
    with pytest.raises(ValueError, match="must be positive and sum to the dataset size 5"):
        _numbers(5).split([2, 2])


def test_output_shapes_types_and_sizes_after_batch():
    data = ds.NumpySlicesDataset({"img": np.zeros((5, 2, 3), np.uint8), "lbl": np.arange(5, dtype=np.int32)},
                                 shuffle=False).batch(2)
    assert data.output_shapes() == [[2, 2, 3], [2]]
    assert data.output_types() == [np.dtype(np.uint8), np.dtype(np.int32)]
    assert data.get_dataset_size() == 3 and data.get_batch_size() == 2
