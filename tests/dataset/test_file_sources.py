"""TextFileDataset, CSVDataset, TFRecordDataset, the MNIST-format family, PaddedDataset, RandomDataset, Schema."""
import gzip
import json
import os
import struct

import numpy as np
import pytest

import mindjax.dataset as ds
from tests.dataset.conftest import write_idx


def _rows(data, *columns):
    return [tuple(r[c] for c in columns) for r in data.create_dict_iterator(output_numpy=True, num_epochs=1)]


def test_text_file_dataset_lines_in_sorted_file_order(tmp_path):
    (tmp_path / "b.txt").write_text("third\n\nfourth\n")
    (tmp_path / "a.txt").write_text("first\r\nsecond\n")
    data = ds.TextFileDataset(str(tmp_path / "*.txt"), shuffle=False)
    assert data.get_col_names() == ["text"] and data.get_dataset_size() == 4
    assert [str(t) for (t,) in _rows(data, "text")] == ["first", "second", "third", "fourth"]
    ds.config.set_seed(1)
    a = [str(t) for (t,) in _rows(ds.TextFileDataset([str(tmp_path / "a.txt"), str(tmp_path / "b.txt")]), "text")]
    ds.config.set_seed(1)
    b = [str(t) for (t,) in _rows(ds.TextFileDataset([str(tmp_path / "a.txt"), str(tmp_path / "b.txt")]), "text")]
    assert a == b and sorted(a) == ["first", "fourth", "second", "third"]
    files = [str(t) for (t,) in _rows(ds.TextFileDataset(str(tmp_path / "*.txt"), shuffle=ds.Shuffle.FILES), "text")]
    assert files in (["first", "second", "third", "fourth"], ["third", "fourth", "first", "second"])
    shard = [str(t) for (t,) in _rows(ds.TextFileDataset(str(tmp_path / "*.txt"), shuffle=False, num_shards=2,
                                                         shard_id=1), "text")]
    assert len(shard) == 2
    with pytest.raises(ValueError, match="matches no file"):
        ds.TextFileDataset(str(tmp_path / "*.csv"))


def test_csv_dataset_header_defaults_and_types(tmp_path):
    (tmp_path / "d.csv").write_text('a,b,c\n1,2.5,"x,y"\n,,z\n')
    data = ds.CSVDataset(str(tmp_path / "d.csv"), column_defaults=[7, 0.5, ""], shuffle=False)
    assert data.get_col_names() == ["a", "b", "c"]
    rows = _rows(data, "a", "b", "c")
    assert rows[0][0].dtype == np.int32 and rows[0][1].dtype == np.float32
    assert [(int(a), float(b), str(c)) for a, b, c in rows] == [(1, 2.5, "x,y"), (7, 0.5, "z")]
    (tmp_path / "e.csv").write_text("1;2\n3;4\n")
    named = ds.CSVDataset(str(tmp_path / "e.csv"), field_delim=";", column_names=["p", "q"], shuffle=False)
    assert [(str(p), str(q)) for p, q in _rows(named, "p", "q")] == [("1", "2"), ("3", "4")]
    (tmp_path / "bad.csv").write_text("a,b\n1\n")
    with pytest.raises(RuntimeError, match="line 2 has 1 fields, expected 2"):
        ds.CSVDataset(str(tmp_path / "bad.csv"))
    with pytest.raises(RuntimeError, match="line 2 column 'c': 'x,y' is not a valid int"):
        ds.CSVDataset(str(tmp_path / "d.csv"), column_defaults=[0, 0.0, 0])
    with pytest.raises(ValueError, match="'field_delim' must be one character"):
        ds.CSVDataset(str(tmp_path / "d.csv"), field_delim="::")


def _varint(n):
    out = b""
    while True:
        b, n = n & 0x7F, n >> 7
        out += bytes([b | (0x80 if n else 0)])
        if not n:
            return out


def _len_field(number, payload):
    return _varint(number << 3 | 2) + _varint(len(payload)) + payload


def _example(features):
    entries = b""
    for key, (kind, values) in features.items():
        if kind == "int":
            inner = _len_field(1, b"".join(_varint(v & (2 ** 64 - 1)) for v in values))
            feature = _len_field(3, inner)
        elif kind == "float":
            feature = _len_field(2, _len_field(1, struct.pack(f"<{len(values)}f", *values)))
        else:
            feature = _len_field(1, b"".join(_len_field(1, v) for v in values))
        entries += _len_field(1, _len_field(1, key.encode()) + _len_field(2, feature))
    return _len_field(1, entries)


def _write_tfrecord(path, records):
    with open(path, "wb") as f:
        for r in records:
            f.write(struct.pack("<Q", len(r)) + b"\0" * 4 + r + b"\0" * 4)


def test_tfrecord_dataset_reads_examples_without_tensorflow(tmp_path):
    path = str(tmp_path / "d.tfrecord")
    _write_tfrecord(path, [_example({"label": ("int", [3, -1]), "x": ("float", [0.5, 1.5]), "img": ("bytes", [b"ab"])}),
                           _example({"label": ("int", [4, 5]), "x": ("float", [2.0, 3.0]), "img": ("bytes", [b"c"])})])
    data = ds.TFRecordDataset(path, shuffle=False)
    assert data.get_col_names() == ["img", "label", "x"]
    rows = _rows(data, "img", "label", "x")
    assert rows[0][1].dtype == np.int64 and rows[0][1].tolist() == [3, -1]
    np.testing.assert_allclose(rows[1][2], [2.0, 3.0])
    assert rows[0][0].tolist() == [b"ab"]
    schema = ds.Schema()
    schema.add_column("x", "float32", [2, 1])
    schema.add_column("label", "int32")
    typed = _rows(ds.TFRecordDataset(path, schema=schema, shuffle=False), "x", "label")
    assert typed[0][0].shape == (2, 1) and typed[0][1].dtype == np.int32
    with pytest.raises(RuntimeError, match="has no feature 'y'"):
        ds.TFRecordDataset(path, columns_list=["y"])
    with open(path, "rb") as f:
        data_bytes = f.read()
    with gzip.open(path + ".gz", "wb") as f:
        f.write(data_bytes)
    assert len(_rows(ds.TFRecordDataset(path + ".gz", compression_type="GZIP", shuffle=False), "x")) == 2


def test_mnist_family_reuses_the_idx_reader(tmp_path):
    rng = np.random.default_rng(0)
    images = rng.integers(0, 256, (3, 28, 28), dtype=np.uint8)
    labels = np.array([1, 2, 3], np.uint8)
    for sub in ("fashion", "kmnist"):
        os.makedirs(tmp_path / sub)
        write_idx(str(tmp_path / sub / "train-images-idx3-ubyte"), 2051, images)
        write_idx(str(tmp_path / sub / "train-labels-idx1-ubyte"), 2049, labels)
    for cls, sub in ((ds.FashionMnistDataset, "fashion"), (ds.KMnistDataset, "kmnist")):
        rows = _rows(cls(str(tmp_path / sub), usage="train", shuffle=False), "image", "label")
        assert [int(l) for _, l in rows] == [1, 2, 3]
        np.testing.assert_array_equal(rows[2][0][..., 0], images[2])
    os.makedirs(tmp_path / "emnist")
    for name, k in (("letters", 0), ("digits", 1)):
        write_idx(str(tmp_path / "emnist" / f"emnist-{name}-test-images-idx3-ubyte"), 2051, images[k:])
        write_idx(str(tmp_path / "emnist" / f"emnist-{name}-test-labels-idx1-ubyte"), 2049, labels[k:])
    letters = ds.EMnistDataset(str(tmp_path / "emnist"), "letters", usage="test", shuffle=False)
    assert letters.get_dataset_size() == 3
    assert [int(l) for _, l in _rows(ds.EMnistDataset(str(tmp_path / "emnist"), "digits", shuffle=False),
                                     "image", "label")] == [2, 3]
    with pytest.raises(ValueError, match="'name' must be one of"):
        ds.EMnistDataset(str(tmp_path / "emnist"), "greek")
    with pytest.raises(RuntimeError, match="For 'FashionMnistDataset', no data for usage 'test'"):
        ds.FashionMnistDataset(str(tmp_path / "fashion"), usage="test")


def test_qmnist_labels_compat_and_full(tmp_path):
    images = np.arange(2 * 28 * 28, dtype=np.uint8).reshape(2, 28, 28)
    write_idx(str(tmp_path / "qmnist-train-images-idx3-ubyte"), 2051, images)
    table = np.arange(16, dtype=">i4").reshape(2, 8)
    with open(tmp_path / "qmnist-train-labels-idx2-int", "wb") as f:
        f.write((3074).to_bytes(4, "big") + (2).to_bytes(4, "big") + (8).to_bytes(4, "big") + table.tobytes())
    compat = _rows(ds.QMnistDataset(str(tmp_path), "train", shuffle=False), "label")
    assert [int(l) for (l,) in compat] == [0, 8]
    full = _rows(ds.QMnistDataset(str(tmp_path), "train", compat=False, shuffle=False), "label")
    assert full[1][0].tolist() == list(range(8, 16))
    with pytest.raises(RuntimeError, match="qmnist-test-images-idx3-ubyte is missing"):
        ds.QMnistDataset(str(tmp_path), "test")


def test_padded_dataset_concat_pads_shards():
    data = ds.NumpySlicesDataset({"x": np.arange(3)}, shuffle=False) + ds.PaddedDataset([{"x": np.array(-1)}])
    assert [int(r) for (r,) in _rows(data, "x")] == [0, 1, 2, -1]
    concat = ds.ConcatDataset([ds.PaddedDataset([{"x": np.array(5)}]), ds.PaddedDataset([{"x": np.array(6)}])])
    assert [int(r) for (r,) in _rows(concat, "x")] == [5, 6]
    with pytest.raises(ValueError, match=r"padded_samples\[1\] has keys"):
        ds.PaddedDataset([{"x": 1}, {"y": 2}])


def test_random_dataset_follows_the_schema_and_the_seed(tmp_path):
    schema = ds.Schema()
    schema.add_column("image", "uint8", [2, 3])
    schema.add_column("label", "int32", [1])
    ds.config.set_seed(0)
    a = _rows(ds.RandomDataset(5, schema, shuffle=False), "image", "label")
    ds.config.set_seed(0)
    b = _rows(ds.RandomDataset(5, schema, shuffle=False), "image", "label")
    assert len(a) == 5 and a[0][0].shape == (2, 3) and a[0][0].dtype == np.uint8 and a[0][1].dtype == np.int32
    for x, y in zip(a, b):
        np.testing.assert_array_equal(x[0], y[0])
    path = tmp_path / "schema.json"
    path.write_text(schema.to_json())
    again = ds.Schema(str(path))
    assert [(c["name"], c["type"], c.get("shape")) for c in again.columns] == [("image", "uint8", [2, 3]),
                                                                             ("label", "int32", [1])]
    assert json.loads(schema.to_json())["columns"]["image"]["shape"] == [2, 3]
    assert ds.RandomDataset(total_rows=4).get_dataset_size() == 4
    with pytest.raises(ValueError, match="'total_rows' must be a positive int"):
        ds.RandomDataset(0)


def test_top_level_seed_helpers():
    ds.set_seed(123)
    assert ds.get_seed() == 123 == ds.config.get_seed()
    assert ds.get_num_parallel_workers() == ds.config.get_num_parallel_workers()


def test_config_settings_at_the_top_level():
    assert ds.get_callback_timeout() == 60 and ds.get_enable_watchdog() is True
    ds.config.set_enable_watchdog(False)
    assert ds.get_enable_watchdog() is False
    ds.config.set_multiprocessing_timeout_interval(10)
    assert ds.get_multiprocessing_timeout_interval() == 10
    ds.config.set_multiprocessing_start_method("spawn")
    assert ds.get_multiprocessing_start_method() == "spawn"
    assert ds.get_debug_mode() is False and ds.get_error_samples_mode() == ds.ErrorSamplesMode.RETURN
    assert ds.get_video_backend() == "CPU"
    with pytest.raises(NotImplementedError, match="drop bad samples with Dataset.filter"):
        ds.config.set_error_samples_mode(ds.ErrorSamplesMode.SKIP)
    with pytest.raises(NotImplementedError, match="num_parallel_workers=1"):
        ds.config.set_debug_mode(True)
    with pytest.raises(ValueError, match="'fork', 'spawn' or 'forkserver'"):
        ds.config.set_multiprocessing_start_method("thread")
    ds.config.reset()
    assert ds.get_enable_watchdog() is True
