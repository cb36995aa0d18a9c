"""Checkpoints written by MindJAX load in mindspore 2.10, and the other way round."""
import mindspore
import numpy as np
import pytest

import mindjax as mj
from mindjax.train import serialization as mjs
from mindjax.train.serialization import ckpt_format

from tests.parity import nets_ckpt_mj as mjnets
from tests.parity import nets_ckpt_ms as msnets

NETS = {"lenet": ((2, 1, 32, 32), "LeNet5"), "conv_bn": ((2, 3, 6, 6), "ConvBNNet")}


def _build(name):
    shape, cls = NETS[name]
    mj_net, ms_net = getattr(mjnets, cls)(), getattr(msnets, cls)()
    mj_net.set_train(False)
    ms_net.set_train(False)
    return shape, mj_net, ms_net


def _randomise_mj(net, rng):
    # Moving statistics too, so BatchNorm's non-trainable state is exercised.
    for p in net.get_parameters():
        value = (0.2 * rng.standard_normal(p.shape)).astype(np.float32)
        if "moving_variance" in p.name:
            value = np.abs(value) + 0.5
        p.set_data(mj.Tensor(value))


def _randomise_ms(net, rng):
    for p in net.get_parameters():
        value = (0.2 * rng.standard_normal(p.shape)).astype(np.float32)
        if "moving_variance" in p.name:
            value = np.abs(value) + 0.5
        p.set_data(mindspore.Tensor(value))


def _assert_same_params_and_outputs(mj_net, ms_net, shape):
    ms_params = {p.name: p.asnumpy() for p in ms_net.get_parameters()}
    mj_params = {p.name: p.asnumpy() for p in mj_net.get_parameters()}
    assert sorted(ms_params) == sorted(mj_params)
    for name, value in ms_params.items():
        np.testing.assert_array_equal(mj_params[name], value, err_msg=name)
    x = np.random.default_rng(1).standard_normal(shape).astype(np.float32)
    np.testing.assert_allclose(mj_net(mj.Tensor(x)).asnumpy(), ms_net(mindspore.Tensor(x)).asnumpy(),
                               rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("name", list(NETS))
def test_mindjax_ckpt_loads_in_mindspore(name, tmp_path):
    shape, mj_net, ms_net = _build(name)
    _randomise_mj(mj_net, np.random.default_rng(0))
    path = str(tmp_path / f"{name}.ckpt")
    mj.train.save_checkpoint(mj_net, path, append_dict={"epoch_num": 7, "lr": 0.25, "done": True, "tag": "mj"},
                             crc_check=True)
    loaded = mindspore.load_checkpoint(path, crc_check=True)
    assert loaded["tag"] == "mj"
    assert int(loaded["epoch_num"].asnumpy()) == 7 and loaded["epoch_num"].dtype == mindspore.int64
    assert float(loaded["lr"].asnumpy()) == 0.25 and loaded["done"].dtype == mindspore.bool_
    param_not_load, ckpt_not_load = mindspore.load_param_into_net(ms_net, loaded, strict_load=True)
    assert param_not_load == []
    assert sorted(ckpt_not_load) == ["done", "epoch_num", "lr", "tag"]
    _assert_same_params_and_outputs(mj_net, ms_net, shape)


@pytest.mark.parametrize("name", list(NETS))
def test_mindspore_ckpt_loads_in_mindjax(name, tmp_path):
    shape, mj_net, ms_net = _build(name)
    _randomise_ms(ms_net, np.random.default_rng(2))
    path = str(tmp_path / f"{name}.ckpt")
    mindspore.save_checkpoint(ms_net, path, append_dict={"epoch_num": 3, "tag": "ms"}, crc_check=True)
    loaded = mj.train.load_checkpoint(path, crc_check=True)
    assert loaded["tag"] == "ms" and int(loaded["epoch_num"]) == 3 and loaded["epoch_num"].shape == ()
    param_not_load, ckpt_not_load = mj.train.load_param_into_net(mj_net, loaded, strict_load=True)
    assert param_not_load == [] and sorted(ckpt_not_load) == ["epoch_num", "tag"]
    _assert_same_params_and_outputs(mj_net, ms_net, shape)


def test_same_values_give_byte_identical_files(tmp_path):
    rng = np.random.default_rng(3)
    arrays = {"w": rng.standard_normal((3, 4)).astype(np.float32), "h": np.arange(5, dtype=np.float16),
              "i": np.arange(6, dtype=np.int32).reshape(2, 3), "b": np.array([True, False]),
              "bf": np.ones(3, np.float32)}
    ms_obj = [{"name": k, "data": mindspore.Tensor(v)} for k, v in arrays.items()]
    ms_obj[-1]["data"] = mindspore.Tensor(arrays["bf"], mindspore.bfloat16)
    mj_obj = [{"name": k, "data": mj.Tensor(v)} for k, v in arrays.items()]
    mj_obj[-1]["data"] = mj.Tensor(arrays["bf"], mj.bfloat16)
    append = {"step": 12, "scale": 1.5, "flag": False, "note": "résumé"}
    mindspore.save_checkpoint(ms_obj, str(tmp_path / "ms.ckpt"), append_dict=append, crc_check=True)
    mj.train.save_checkpoint(mj_obj, str(tmp_path / "mj.ckpt"), append_dict=append, crc_check=True)
    assert (tmp_path / "ms.ckpt").read_bytes() == (tmp_path / "mj.ckpt").read_bytes()


def test_large_tensor_written_in_slices_loads_in_mindspore(tmp_path, monkeypatch):
    monkeypatch.setattr(ckpt_format, "_SLICE_BYTES", 64)
    value = np.arange(100, dtype=np.float32).reshape(10, 10)
    path = str(tmp_path / "big.ckpt")
    mj.train.save_checkpoint({"big": mj.Parameter(mj.Tensor(value), name="big")}, path, crc_check=False)
    message = ckpt_format.Checkpoint()
    message.ParseFromString((tmp_path / "big.ckpt").read_bytes())
    assert [v.tag for v in message.value] == ["big"] * 7
    np.testing.assert_array_equal(mindspore.load_checkpoint(path)["big"].asnumpy(), value)
    np.testing.assert_array_equal(mj.train.load_checkpoint(path)["big"].asnumpy(), value)


def test_safetensors_round_trip_both_ways(tmp_path):
    shape, mj_net, ms_net = _build("lenet")
    _randomise_mj(mj_net, np.random.default_rng(4))
    path = str(tmp_path / "lenet.safetensors")
    mj.train.save_checkpoint(mj_net, path, format="safetensors", crc_check=True)
    loaded = mindspore.load_checkpoint(path, format="safetensors", crc_check=True)
    assert mindspore.load_param_into_net(ms_net, loaded, strict_load=True)[0] == []
    _assert_same_params_and_outputs(mj_net, ms_net, shape)

    _randomise_ms(ms_net, np.random.default_rng(5))
    mindspore.save_checkpoint(ms_net, path, format="safetensors", crc_check=True)
    assert mj.train.load_checkpoint(path, net=mj_net, format="safetensors", crc_check=True)
    _assert_same_params_and_outputs(mj_net, ms_net, shape)


@pytest.mark.parametrize("ms_crc_check", [True, False])
def test_mindjax_default_crc_trailer_is_read_by_mindspore(tmp_path, ms_crc_check):
    shape, mj_net, ms_net = _build("lenet")
    _randomise_mj(mj_net, np.random.default_rng(0))
    path = str(tmp_path / "default.ckpt")
    mj.train.save_checkpoint(mj_net, path)  # the defaults: a CRC trailer in MindSpore's format
    with open(path, "rb") as f:
        assert f.read()[-17:-10] == b"crc_num"
    loaded = mindspore.load_checkpoint(path, crc_check=ms_crc_check)
    assert mindspore.load_param_into_net(ms_net, loaded, strict_load=True)[0] == []
    _assert_same_params_and_outputs(mj_net, ms_net, shape)


def test_mindspore_crc_file_is_checked_by_mindjax_by_default(tmp_path):
    _, _, ms_net = _build("lenet")
    path = tmp_path / "ms.ckpt"
    mindspore.save_checkpoint(ms_net, str(path), crc_check=True)
    assert "conv1.weight" in mj.train.load_checkpoint(str(path))
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0x10
    path.write_bytes(bytes(data))
    with pytest.raises(ValueError, match="Failed to read the checkpoint file"):  # MindSpore wraps its crc error
        mindspore.load_checkpoint(str(path), crc_check=True)
    with pytest.raises(ValueError, match=f"{path}: the CRC check failed"):
        mj.train.load_checkpoint(str(path))
