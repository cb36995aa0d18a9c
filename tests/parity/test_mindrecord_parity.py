"""mindjax.mindrecord's FileWriter/FileReader behave as MindSpore 2.10's on the same calls.

The files differ (MindJAX writes its own layout), so each library reads back
what it wrote; the API results, value types, dropped rows and errors agree.
"""
import os

import mindspore.mindrecord as msmr
import numpy as np
import pytest

import mindjax.mindrecord as mjmr

# Rows 1, 2 and 4 do not fit the schema on purpose: both libraries drop them with a warning.
pytestmark = pytest.mark.filterwarnings("ignore:For 'FileWriter.write_raw_data', dropped a row")

SCHEMA = {"b": {"type": "bytes"}, "f": {"type": "float64"}, "i": {"type": "int64"},
          "s": {"type": "string"}, "v": {"type": "float32", "shape": [-1, 2]}}


def _rows():
    return [{"b": b"\x01\x02", "f": 1.5, "i": 3, "s": "x", "v": np.ones((2, 2), np.float32)},
            {"b": b"y", "f": "bad", "i": 3, "s": "y", "v": np.ones((1, 2), np.float32)},
            {"b": b"z", "f": 2.0, "i": np.int32(4), "s": "z", "v": np.ones((1, 2), np.float32)},
            {"b": b"w", "f": np.float64(2.5), "i": np.int64(5), "s": "w", "v": np.ones(4, np.float32)},
            {"b": b"u", "f": 3.0, "i": 6, "s": "u", "v": np.ones(3, np.float64)}]


def _round_trip(lib, path, shard_num=1):
    writer = lib.FileWriter(path, shard_num=shard_num, overwrite=True)
    writer.add_schema(SCHEMA, "parity")
    writer.write_raw_data(_rows())
    writer.commit()
    first = path if shard_num == 1 else path + "0"
    reader = lib.FileReader(first)
    return reader.len(), reader.schema(), sorted((r["i"] for r in reader.get_next()))


def _first_row(lib, path):
    return next(iter(lib.FileReader(path).get_next()))


@pytest.mark.parametrize("shard_num", [1, 3])
def test_rows_schema_and_dropped_rows_match(tmp_path, shard_num):
    os.makedirs(tmp_path / "ms")
    os.makedirs(tmp_path / "mj")
    theirs = _round_trip(msmr, str(tmp_path / "ms" / "a.mindrecord"), shard_num)
    ours = _round_trip(mjmr, str(tmp_path / "mj" / "a.mindrecord"), shard_num)
    assert ours == theirs
    assert sorted(os.listdir(tmp_path / "mj")) == sorted(os.listdir(tmp_path / "ms"))


def test_file_reader_value_types_match(tmp_path):
    _round_trip(msmr, str(tmp_path / "ms.mindrecord"))
    _round_trip(mjmr, str(tmp_path / "mj.mindrecord"))
    theirs, ours = _first_row(msmr, str(tmp_path / "ms.mindrecord")), _first_row(mjmr, str(tmp_path / "mj.mindrecord"))
    assert {k: type(v) for k, v in ours.items()} == {k: type(v) for k, v in theirs.items()}
    for key in ("b", "f", "i", "s"):
        assert ours[key] == theirs[key]
    assert ours["v"].dtype == theirs["v"].dtype and ours["v"].shape == theirs["v"].shape


def _error(call):
    try:
        call()
    except Exception as err:  # noqa: BLE001 - the class and text are what is compared
        return type(err).__name__, str(err)
    return None


@pytest.mark.parametrize("case", ["bad_name", "bad_type", "blob_index", "not_list", "shards", "after_commit",
                                  "exists"])
def test_errors_match_in_class_and_message(tmp_path, case):
    def run(lib, sub):
        folder = tmp_path / sub
        os.makedirs(folder, exist_ok=True)
        path = str(folder / "e.mindrecord")
        writer = lib.FileWriter(path, overwrite=True)
        if case == "bad_name":
            return _error(lambda: writer.add_schema({"a-b": {"type": "int32"}}))
        if case == "bad_type":
            return _error(lambda: writer.add_schema({"a": {"type": "int8"}}))
        writer.add_schema({"a": {"type": "bytes"}, "n": {"type": "int32"}})
        if case == "blob_index":
            return _error(lambda: writer.add_index(["a"]))
        if case == "not_list":
            return _error(lambda: writer.write_raw_data({"n": 1}))
        if case == "shards":
            return _error(lambda: lib.FileWriter(path, shard_num=0))
        writer.write_raw_data([{"a": b"x", "n": 1}])
        writer.commit()
        if case == "after_commit":
            kind, text = _error(lambda: writer.write_raw_data([{"a": b"x", "n": 1}]))
            return kind, text.split(".")[0]
        again = lib.FileWriter(path)
        again.add_schema({"n": {"type": "int32"}})
        kind, _ = _error(lambda: again.write_raw_data([{"n": 1}]))
        return kind

    assert run(mjmr, "mj") == run(msmr, "ms")
