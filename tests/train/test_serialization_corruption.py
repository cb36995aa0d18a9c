"""Corrupted checkpoints: the CRC is written and checked by default, bad records and bad paths are named."""
import json
import os

import numpy as np
import pytest

import mindjax as ms
from mindjax import nn
from mindjax.train.serialization import load_checkpoint, save_checkpoint
from mindjax.train.serialization.ckpt_format import CheckpointFormatError, _value_message


def _net(value=1.0):
    net = nn.Dense(4, 4)
    for p in net.get_parameters():
        p.set_data(ms.Tensor(np.full(p.shape, value, np.float32)))
    return net


def _values(net):
    return {p.name: p.asnumpy().copy() for p in net.get_parameters()}


def test_default_save_writes_mindsporess_crc_trailer_and_default_load_checks_it(tmp_path):
    path = tmp_path / "net.ckpt"
    save_checkpoint(_net(), str(path))
    data = bytearray(path.read_bytes())
    assert data[-17:-10] == b"crc_num"
    data[40] ^= 0x01  # one bit of the weight's data
    path.write_bytes(bytes(data))
    target = _net(5.0)
    before = _values(target)
    with pytest.raises(CheckpointFormatError, match=f"{path}: the CRC check failed: .* has CRC32 0x[0-9a-f]{{8}} "
                                                    f"but its trailer records 0x[0-9a-f]{{8}}"):
        load_checkpoint(str(path), net=target)
    assert all(np.array_equal(v, _values(target)[k]) for k, v in before.items())  # nothing loaded
    # Asked explicitly, the check is skipped and the corrupted value is read.
    assert "weight" in load_checkpoint(str(path), crc_check=False)


@pytest.mark.parametrize("offset", range(0, 60, 3))
def test_every_header_bit_flip_is_caught_by_the_default_crc(tmp_path, offset):
    path = tmp_path / "net.ckpt"
    save_checkpoint(_net(), str(path))
    data = bytearray(path.read_bytes())
    data[offset] ^= 0x04
    path.write_bytes(bytes(data))
    with pytest.raises(CheckpointFormatError, match=str(path)):
        load_checkpoint(str(path))


def test_file_without_crc_loads_by_default(tmp_path):
    path = tmp_path / "net.ckpt"
    save_checkpoint(_net(2.0), str(path), crc_check=False)
    assert path.read_bytes()[-17:-10] != b"crc_num"
    np.testing.assert_array_equal(load_checkpoint(str(path))["bias"].asnumpy(), np.full(4, 2.0, np.float32))


def test_safetensors_default_crc_is_written_and_checked(tmp_path):
    path = tmp_path / "net.safetensors"
    save_checkpoint(_net(), str(path), format="safetensors")
    data = bytearray(path.read_bytes())
    data[-1] ^= 0x01
    path.write_bytes(bytes(data))
    with pytest.raises(CheckpointFormatError, match=f"{path}: the CRC check failed"):
        load_checkpoint(str(path), format="safetensors")


def _write_records(path, *records):
    with open(path, "wb") as f:
        for record in records:
            f.write(record)


@pytest.mark.parametrize("dims, content, why", [
    ([2**32, 2**32], b"", r"shape \(4294967296, 4294967296\) of Float32 \(73786976294838206464 bytes\) but holds "
                          r"0 bytes"),
    ([-1, -16], b"\0" * 64, r"shape \(-1, -16\) with a negative dimension \(-1\)"),
])
def test_bad_dims_raise_the_format_error_naming_file_and_tensor(tmp_path, dims, content, why):
    path = tmp_path / "bad.ckpt"
    _write_records(path, _value_message("fc.weight", dims, "Float32", content))
    with pytest.raises(CheckpointFormatError, match=f"{path}: 'fc.weight' has {why}"):
        load_checkpoint(str(path))


def test_a_name_twice_not_consecutively_is_an_error(tmp_path):
    path = tmp_path / "dup.ckpt"
    one = np.ones(2, np.float32).tobytes()
    _write_records(path, _value_message("a", [2], "Float32", one), _value_message("b", [2], "Float32", one),
                   _value_message("a", [2], "Float32", one))
    with pytest.raises(CheckpointFormatError, match=r"the name 'a' appears twice \(records at offsets 0 and \d+\)"):
        load_checkpoint(str(path))


def test_consecutive_slices_of_one_name_still_join(tmp_path):
    path = tmp_path / "sliced.ckpt"
    _write_records(path, _value_message("a", [4], "Float32", np.arange(2, dtype=np.float32).tobytes()),
                   _value_message("a", [4], "Float32", np.arange(2, 4, dtype=np.float32).tobytes()))
    np.testing.assert_array_equal(load_checkpoint(str(path))["a"].asnumpy(), np.arange(4, dtype=np.float32))


def _safetensors(path, header, data=b""):
    text = json.dumps(header).encode()
    path.write_bytes(len(text).to_bytes(8, "little") + text + data)


@pytest.mark.parametrize("metadata", [["format", "ms"], "ms", 3])
def test_safetensors_metadata_that_is_not_an_object_is_named(tmp_path, metadata):
    path = tmp_path / "bad.safetensors"
    _safetensors(path, {"__metadata__": metadata, "w": {"dtype": "F32", "shape": [1], "data_offsets": [0, 4]}},
                 b"\0" * 4)
    with pytest.raises(CheckpointFormatError, match=f"{path}: '__metadata__' must be a JSON object of strings"):
        load_checkpoint(str(path), format="safetensors")


@pytest.mark.parametrize("entry, why", [
    ({"dtype": "F32", "shape": [-1, 4], "data_offsets": [0, 16]}, "shape \\(-1, 4\\) with a negative dimension"),
    ({"dtype": "F32", "shape": [2**32, 2**32], "data_offsets": [0, 4]},
     r"shape \(4294967296, 4294967296\) of F32 \(73786976294838206464 bytes\) but holds 4 bytes"),
    ({"dtype": "F32", "shape": [1], "data_offsets": [0, 400]},
     "data_offsets \\[0, 400\\] outside the 4 data bytes"),
    ({"dtype": "X9", "shape": [1], "data_offsets": [0, 4]}, "dtype 'X9', which MindJAX does not read"),
])
def test_bad_safetensors_entries_name_file_and_tensor(tmp_path, entry, why):
    path = tmp_path / "bad.safetensors"
    _safetensors(path, {"w": entry}, b"\0" * 4)
    with pytest.raises(CheckpointFormatError, match=f"{path}: 'w' has {why}"):
        load_checkpoint(str(path), format="safetensors")


def test_safetensors_header_naming_a_tensor_twice_is_an_error(tmp_path):
    path = tmp_path / "dup.safetensors"
    text = b'{"w": {"dtype": "F32", "shape": [1], "data_offsets": [0, 4]}, ' \
           b'"w": {"dtype": "F32", "shape": [1], "data_offsets": [0, 4]}}'
    path.write_bytes(len(text).to_bytes(8, "little") + text + b"\0" * 4)
    with pytest.raises(CheckpointFormatError, match="the header names 'w' twice"):
        load_checkpoint(str(path), format="safetensors")


def test_directory_named_like_a_checkpoint_is_reported_as_a_directory(tmp_path):
    (tmp_path / "x.ckpt").mkdir()
    with pytest.raises(ValueError, match=r"x.ckpt is a directory, not a .ckpt file, and it is not a sharded"):
        load_checkpoint(str(tmp_path / "x.ckpt"))


def test_fifo_named_like_a_checkpoint_is_reported_without_opening_it(tmp_path):
    os.mkfifo(tmp_path / "x.ckpt")  # opening it would block forever
    with pytest.raises(ValueError, match=r"x.ckpt is a FIFO \(named pipe\), not a checkpoint file"):
        load_checkpoint(str(tmp_path / "x.ckpt"))


def test_symlink_to_a_foreign_file_names_the_link_and_what_the_file_is(tmp_path):
    os.symlink("/etc/passwd", tmp_path / "x.ckpt")
    with pytest.raises(CheckpointFormatError, match=r"x.ckpt \(a symbolic link to /etc/passwd\): it does not "
                                                    r"start with a checkpoint record"):
        load_checkpoint(str(tmp_path / "x.ckpt"))


def test_broken_symlink_is_named_as_such(tmp_path):
    os.symlink(tmp_path / "gone.ckpt", tmp_path / "x.ckpt")
    with pytest.raises(ValueError, match="x.ckpt .*is a broken symbolic link"):
        load_checkpoint(str(tmp_path / "x.ckpt"))


def test_missing_file_still_says_it_does_not_exist(tmp_path):
    with pytest.raises(ValueError, match="does not exist"):
        load_checkpoint(str(tmp_path / "none.ckpt"))


@pytest.mark.parametrize("format", ["ckpt", "safetensors"])
def test_model_checkpoint_writes_a_crc_by_default(tmp_path, format):
    from mindjax.train import CheckpointConfig, ModelCheckpoint
    from tests.train.train_nets import classification_batches, make_model

    model, _, _ = make_model()
    config = CheckpointConfig(save_checkpoint_steps=1, format=format)
    assert config.crc_check is True
    model.train(1, classification_batches(n_batches=1), callbacks=ModelCheckpoint("m", str(tmp_path), config))
    path = tmp_path / f"m-1_1.{format}"
    assert "fc1.weight" in load_checkpoint(str(path), crc_check=True, format=format)


def test_safetensors_entries_sharing_bytes_are_an_error(tmp_path):
    path = tmp_path / "overlap.safetensors"
    _safetensors(path, {"a": {"dtype": "F32", "shape": [2], "data_offsets": [0, 8]},
                        "b": {"dtype": "F32", "shape": [1], "data_offsets": [4, 8]}}, b"\0" * 8)
    with pytest.raises(CheckpointFormatError, match=r"overlap.safetensors: 'a' and 'b' overlap in the data"):
        load_checkpoint(str(path), format="safetensors")


def test_safetensors_empty_tensors_at_one_offset_still_load(tmp_path):
    path = tmp_path / "empty.safetensors"
    _safetensors(path, {"a": {"dtype": "F32", "shape": [0], "data_offsets": [0, 0]},
                        "b": {"dtype": "F32", "shape": [1], "data_offsets": [0, 4]}}, b"\0" * 4)
    assert load_checkpoint(str(path), format="safetensors")["a"].shape == (0,)


@pytest.mark.parametrize("format", ["ckpt", "safetensors"])
def test_save_into_a_missing_folder_names_the_folder(tmp_path, format):
    target = tmp_path / "missing" / f"net.{format}"
    with pytest.raises(FileNotFoundError, match=f"the folder {tmp_path / 'missing'} does not exist"):
        save_checkpoint(_net(), str(target), format=format)
    assert not (tmp_path / "missing").exists()
