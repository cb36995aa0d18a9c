"""MindDataset reads what FileWriter and Dataset.save write, with MindSpore's column order and options."""
import numpy as np
import pytest

import mindjax.dataset as ds
from mindjax.mindrecord import FileWriter
from tests.dataset.conftest import rows


def _tutorial_file(path, n=4, shard_num=1):
    writer = FileWriter(file_name=path, shard_num=shard_num, overwrite=True)
    writer.add_schema({"file_name": {"type": "string"}, "label": {"type": "int32"},
                       "data": {"type": "int32", "shape": [-1]}}, "test_schema")
    for i in range(n):
        writer.write_raw_data([{"file_name": f"{i}.jpg", "label": i, "data": np.array([i] * (i + 1), np.int32)}])
    writer.commit()


def test_columns_come_sorted_with_schema_dtypes_as_in_the_dataset_tutorial(tmp_path):
    path = str(tmp_path / "test.mindrecord")
    _tutorial_file(path)
    data = ds.MindDataset(path, shuffle=False)
    assert data.get_col_names() == ["data", "file_name", "label"] and data.get_dataset_size() == 4
    got = list(data.create_tuple_iterator(num_epochs=1))
    np.testing.assert_array_equal(np.asarray(got[3][0]), [3, 3, 3, 3])
    assert isinstance(got[3][1], np.ndarray) and got[3][1].dtype == np.dtype("<U5") and str(got[3][1]) == "3.jpg"
    assert got[3][2].dtype == np.int32 and int(np.asarray(got[3][2])) == 3


def test_columns_list_selects_and_orders(tmp_path):
    path = str(tmp_path / "t.mindrecord")
    _tutorial_file(path)
    data = ds.MindDataset(path, columns_list=["label", "file_name"], shuffle=False)
    assert [(int(a), str(b)) for a, b in rows(data)] == [(0, "0.jpg"), (1, "1.jpg"), (2, "2.jpg"), (3, "3.jpg")]
    with pytest.raises(ValueError, match=r"columns_list \['nope'\] are not in the files' schema"):
        ds.MindDataset(path, columns_list=["nope"])


def test_default_shuffle_is_global_and_sharding_is_strided(tmp_path):
    path = str(tmp_path / "t.mindrecord")
    _tutorial_file(path, n=12)
    shuffled = [int(r[0]) for r in rows(ds.MindDataset(path, columns_list=["label"]))]
    assert sorted(shuffled) == list(range(12)) and shuffled != list(range(12))
    shard = ds.MindDataset(path, columns_list=["label"], shuffle=False, num_shards=4, shard_id=1)
    assert [int(r[0]) for r in rows(shard)] == [1, 5, 9]


def test_one_shard_file_finds_its_siblings_and_a_list_reads_only_those(tmp_path):
    path = str(tmp_path / "m.mindrecord")
    _tutorial_file(path, n=6, shard_num=2)
    every = ds.MindDataset(str(tmp_path / "m.mindrecord1"), columns_list=["label"], shuffle=False)
    assert sorted(int(r[0]) for r in rows(every)) == list(range(6))
    one = ds.MindDataset([str(tmp_path / "m.mindrecord1")], columns_list=["label"], shuffle=False)
    assert one.get_dataset_size() == 3


def test_shuffle_files_keeps_each_files_order_and_infile_keeps_the_file_order(tmp_path):
    path = str(tmp_path / "m.mindrecord")
    _tutorial_file(path, n=40, shard_num=4)
    files = [[int(r[0]) for r in rows(ds.MindDataset([f"{path}{k}"], columns_list=["label"], shuffle=False))]
             for k in range(4)]
    by_files = [int(r[0]) for r in rows(ds.MindDataset(path + "0", columns_list=["label"], shuffle=ds.Shuffle.FILES))]
    chunks = [by_files[i:i + 10] for i in range(0, 40, 10)]
    assert sorted(chunks) == sorted(files)
    in_file = [int(r[0]) for r in rows(ds.MindDataset(path + "0", columns_list=["label"], shuffle=ds.Shuffle.INFILE))]
    assert [sorted(in_file[i:i + 10]) for i in range(0, 40, 10)] == [sorted(f) for f in files]
    assert in_file != sum(files, [])


def test_padded_samples_fill_the_last_shard(tmp_path):
    path = str(tmp_path / "t.mindrecord")
    _tutorial_file(path, n=3)
    pad = {"label": -1, "file_name": "pad", "data": np.array([0], np.int32)}
    shards = [[int(r[0]) for r in rows(ds.MindDataset(path, columns_list=["label"], shuffle=False, num_shards=2,
                                                       shard_id=s, padded_sample=pad, num_padded=1))]
              for s in range(2)]
    assert shards == [[0, 2], [1, -1]]
    with pytest.raises(RuntimeError, match=r"rows plus num_padded \(5\) must divide by num_shards=2"):
        ds.MindDataset(path, shuffle=False, num_shards=2, shard_id=0, padded_sample=pad, num_padded=2)


def test_save_then_mind_dataset_round_trips_with_mindspores_casts(tmp_path):
    source = ds.NumpySlicesDataset({"img": np.arange(24, dtype=np.uint8).reshape(4, 2, 3),
                                    "y": np.arange(4, dtype=np.float64), "name": np.array(["a", "bb", "c", "d"]),
                                    "flag": np.array([True, False, True, True])}, shuffle=False)
    path = str(tmp_path / "saved.mindrecord")
    source.save(path)
    back = ds.MindDataset(path, shuffle=False)
    assert back.get_col_names() == ["flag", "img", "name", "y"]
    got = rows(back)
    assert got[1][1].dtype == np.int32 and got[1][1].shape == (2, 3)
    np.testing.assert_array_equal(got[1][1], np.arange(6, 12).reshape(2, 3))
    assert got[1][3].dtype == np.float64 and str(got[1][2]) == "bb" and got[1][0].dtype == np.int32


def test_save_rejects_what_mindrecord_cannot_hold(tmp_path):
    data = ds.GeneratorDataset([({"a": 1},)], ["d"], shuffle=False)
    with pytest.raises(RuntimeError, match="column 'd' holds dict values"):
        data.save(str(tmp_path / "x.mindrecord"))
    with pytest.raises(ValueError, match="'file_type' must be 'mindrecord', got 'tfrecord'"):
        data.save(str(tmp_path / "y"), file_type="tfrecord")
    strings = ds.NumpySlicesDataset({"s": np.array([["a", "b"]])}, shuffle=False)
    with pytest.raises(RuntimeError, match="multi-dimensional strings or bytes"):
        strings.save(str(tmp_path / "z.mindrecord"))
