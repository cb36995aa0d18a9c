"""FileWriter/FileReader: MindSpore's MindRecord API over MindJAX's own (safe) file layout."""
import os
import sqlite3

import numpy as np
import pytest

from mindjax.mindrecord import (FileReader, FileWriter, MRMDefineIndexError, MRMInvalidSchemaError,
                                MRMOpenForAppendError, ParamTypeError, ParamValueError)

SCHEMA = {"file_name": {"type": "string"}, "label": {"type": "int32"}, "score": {"type": "float64"},
          "data": {"type": "int32", "shape": [-1]}, "raw": {"type": "bytes"},
          "mat": {"type": "float32", "shape": [-1, 2]}}


def _rows(n, start=0):
    return [{"file_name": f"{i}.jpg", "label": i, "score": i / 4, "data": np.arange(i + 1, dtype=np.int32),
             "raw": bytes([i, 255]), "mat": np.full((i + 1, 2), i, np.float32)} for i in range(start, start + n)]


def _write(path, rows, shard_num=1, index=None):
    writer = FileWriter(path, shard_num=shard_num, overwrite=True)
    writer.add_schema(SCHEMA, "demo")
    if index:
        writer.add_index(index)
    writer.write_raw_data(rows)
    writer.commit()


def test_round_trip_keeps_schema_dtypes_and_shapes(tmp_path):
    path = str(tmp_path / "a.mindrecord")
    _write(path, _rows(3))
    reader = FileReader(path)
    assert reader.len() == 3 and list(reader.schema()) == sorted(SCHEMA)
    got = list(reader.get_next())
    last = got[2]
    # FileReader hands out Python scalars, str and bytes, as MindSpore's does; arrays keep the schema dtype.
    assert last["label"] == 2 and type(last["label"]) is int
    assert last["score"] == 0.5 and type(last["score"]) is float
    assert last["file_name"] == "2.jpg" and last["raw"] == bytes([2, 255])
    np.testing.assert_array_equal(last["data"], [0, 1, 2])
    assert last["mat"].shape == (3, 2) and last["mat"].dtype == np.float32


def test_commit_writes_an_sqlite_index_of_the_scalar_fields(tmp_path):
    path = str(tmp_path / "a.mindrecord")
    _write(path, _rows(2))
    with sqlite3.connect(path + ".db") as db:
        columns = [c[1] for c in db.execute("PRAGMA table_info(INDEXES)")]
        assert columns == ["ROW_ID", "file_name", "label", "score"]
        assert db.execute("SELECT label, file_name FROM INDEXES ORDER BY ROW_ID").fetchall() == [(0, "0.jpg"),
                                                                                                 (1, "1.jpg")]


def test_shards_are_named_as_mindspore_names_them_and_each_one_finds_the_set(tmp_path):
    path = str(tmp_path / "s.mindrecord")
    _write(path, _rows(10), shard_num=3)
    assert sorted(os.listdir(tmp_path)) == sorted(f"s.mindrecord{i}{ext}" for i in range(3) for ext in ("", ".db"))
    for i in range(3):
        assert sorted(int(r["label"]) for r in FileReader(str(tmp_path / f"s.mindrecord{i}")).get_next()) \
            == list(range(10))
    assert [FileReader([str(tmp_path / f"s.mindrecord{i}")]).len() for i in range(3)] == [4, 3, 3]


def test_rows_that_do_not_match_the_schema_are_dropped_with_a_warning(tmp_path):
    path = str(tmp_path / "a.mindrecord")
    rows = _rows(3)
    rows[1]["label"] = "one"
    del rows[2]["raw"]
    writer = FileWriter(path, overwrite=True)
    writer.add_schema(SCHEMA)
    with pytest.warns(UserWarning) as caught:
        writer.write_raw_data(rows)
    messages = [str(w.message) for w in caught]
    assert any("1 th data is wrong, data type: 'str' for field: 'label'" in m for m in messages)
    assert any("2 th data is wrong, there is not field: 'raw'" in m for m in messages)
    writer.commit()
    assert [r["label"] for r in FileReader(path).get_next()] == [0]


def test_array_dtype_must_equal_the_schema_type(tmp_path):
    writer = FileWriter(str(tmp_path / "a.mindrecord"))
    writer.add_schema({"v": {"type": "float32", "shape": [-1]}})
    with pytest.warns(UserWarning, match="data type: 'float64' for field: 'v' is not matched"):
        writer.write_raw_data([{"v": np.ones(2)}])


def test_existing_files_need_overwrite(tmp_path):
    path = str(tmp_path / "a.mindrecord")
    _write(path, _rows(1))
    writer = FileWriter(path)
    writer.add_schema(SCHEMA)
    with pytest.raises(RuntimeError, match="mindrecord files already exist"):
        writer.write_raw_data(_rows(1))


def test_open_for_append_adds_rows_after_the_committed_ones(tmp_path):
    path = str(tmp_path / "a.mindrecord")
    _write(path, _rows(2))
    writer = FileWriter.open_for_append(path)
    writer.write_raw_data(_rows(2, start=2))
    writer.commit()
    assert [int(r["label"]) for r in FileReader(path).get_next()] == [0, 1, 2, 3]
    with pytest.raises(MRMOpenForAppendError):
        FileWriter.open_for_append(str(tmp_path / "missing.mindrecord"))


def test_write_after_commit_is_refused(tmp_path):
    writer = FileWriter(str(tmp_path / "a.mindrecord"))
    writer.add_schema({"n": {"type": "int64"}})
    writer.commit()
    with pytest.raises(RuntimeError, match="Not allowed to call `write_raw_data` on flushed MindRecord files"):
        writer.write_raw_data([{"n": 1}])


def test_bad_arguments_raise_mindspores_errors(tmp_path):
    with pytest.raises(ParamValueError, match="shard_num's value: 0 should between 1 and 1000"):
        FileWriter(str(tmp_path / "a"), shard_num=0)
    writer = FileWriter(str(tmp_path / "a.mindrecord"))
    with pytest.raises(MRMInvalidSchemaError, match="Field 'bad-name' should be composed of"):
        writer.add_schema({"bad-name": {"type": "int32"}})
    with pytest.raises(MRMInvalidSchemaError, match="Field 'x' contain illegal attribute 'int8'"):
        writer.add_schema({"x": {"type": "int8"}})
    with pytest.raises(MRMInvalidSchemaError, match="Field 'x' contain illegal attribute 'string'"):
        writer.add_schema({"x": {"type": "string", "shape": [-1]}})
    writer.add_schema({"img": {"type": "bytes"}, "n": {"type": "int32"}})
    with pytest.raises(MRMDefineIndexError, match="Failed to set field img since it's not primitive type"):
        writer.add_index(["img"])
    with pytest.raises(ParamTypeError, match="'raw_data' expect list type"):
        writer.write_raw_data({"n": 1})
    assert str(ParamTypeError("x", "list")) == "[ParamTypeError]: Invalid parameter type. 'x' expect list type."


def test_a_file_that_is_not_mindjax_mindrecord_is_named_in_the_error(tmp_path):
    path = tmp_path / "fake.mindrecord"
    path.write_bytes(b"\x00" * 64)
    with pytest.raises(RuntimeError, match="fake.mindrecord' is not a MindRecord file written by MindJAX"):
        FileReader(str(path))
    with pytest.raises(RuntimeError, match="missing.mindrecord' does not exist"):
        FileReader(str(tmp_path / "missing.mindrecord"))
