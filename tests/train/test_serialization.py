"""save_checkpoint / load_checkpoint / load_param_into_net: MindSpore 2.10 semantics and errors."""
import numpy as np
import pytest

import mindjax as ms
from mindjax import nn
from mindjax.train.serialization import (load_checkpoint, load_checkpoint_async, load_param_into_net,
                                         save_checkpoint)


class TwoLayer(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Dense(3, 4)
        self.fc2 = nn.Dense(4, 2)

    def construct(self, x):
        return self.fc2(self.fc1(x))


def _values(net):
    return {p.name: p.asnumpy().copy() for p in net.get_parameters()}


def test_cell_round_trip_loads_values_and_changes_outputs(tmp_path, mode):
    src, dst = TwoLayer(), TwoLayer()
    x = ms.Tensor(np.ones((2, 3), np.float32))
    save_checkpoint(src, str(tmp_path / "net"))
    assert (tmp_path / "net.ckpt").exists()  # the suffix is added as in MindSpore
    params = load_checkpoint(str(tmp_path / "net.ckpt"))
    assert list(params) == ["fc1.weight", "fc1.bias", "fc2.weight", "fc2.bias"]
    assert isinstance(params["fc1.weight"], ms.Parameter) and params["fc1.weight"].name == "fc1.weight"
    dst(x)  # compiled once with the old values: loading must not need a recompile to take effect
    assert load_param_into_net(dst, params) == ([], [])
    np.testing.assert_array_equal(dst(x).asnumpy(), src(x).asnumpy())


def test_save_obj_list_of_parameters_dicts_and_dict(tmp_path):
    net = TwoLayer()
    save_checkpoint(net.trainable_params()[:2], str(tmp_path / "a.ckpt"))
    assert list(load_checkpoint(str(tmp_path / "a.ckpt"))) == ["fc1.weight", "fc1.bias"]
    save_checkpoint([{"name": "w", "data": ms.Tensor(np.ones(2, np.float32))}], str(tmp_path / "b.ckpt"))
    assert list(load_checkpoint(str(tmp_path / "b.ckpt"))) == ["w"]
    loaded = load_checkpoint(str(tmp_path / "a.ckpt"))
    save_checkpoint(loaded, str(tmp_path / "c.ckpt"), choice_func=lambda n: n.endswith("bias"))
    assert list(load_checkpoint(str(tmp_path / "c.ckpt"))) == ["fc1.bias"]


def test_save_rejects_bad_save_obj_and_append_values(tmp_path):
    with pytest.raises(TypeError, match="'save_obj' must be a Cell, a list or a dict, got int"):
        save_checkpoint(3, str(tmp_path / "x.ckpt"))
    with pytest.raises(TypeError, match="'data' must be a Parameter or Tensor, got list for 'w'"):
        save_checkpoint([{"name": "w", "data": [1, 2]}], str(tmp_path / "x.ckpt"))
    with pytest.raises(TypeError, match="'append_dict' key 'k' must be int, float, bool, str"):
        save_checkpoint(TwoLayer(), str(tmp_path / "x.ckpt"), append_dict={"k": [1]})
    with pytest.raises(ValueError, match="'format' must be 'ckpt' or 'safetensors', got 'npz'"):
        save_checkpoint(TwoLayer(), str(tmp_path / "x.ckpt"), format="npz")
    with pytest.raises(NotImplementedError, match="encrypted"):
        save_checkpoint(TwoLayer(), str(tmp_path / "x.ckpt"), enc_key=b"0" * 16)


def test_append_dict_values_keep_mindspore_types(tmp_path):
    path = str(tmp_path / "a.ckpt")
    save_checkpoint(TwoLayer(), path, append_dict={"epoch_num": 5, "lr": 0.1, "flag": True, "note": "hi",
                                                   "t": ms.Tensor(np.arange(3, dtype=np.float16))})
    from mindjax.train.serialization.ckpt_format import read_ckpt

    raw = read_ckpt(path)
    assert raw["epoch_num"].dtype == np.int64 and raw["epoch_num"].shape == () and int(raw["epoch_num"]) == 5
    assert raw["lr"].dtype == np.float32 and raw["flag"].dtype == np.bool_ and raw["note"] == "hi"
    loaded = load_checkpoint(path)
    assert loaded["note"] == "hi" and loaded["t"].dtype == ms.float16 and int(loaded["epoch_num"]) == 5


def test_prefix_and_choice_filters(tmp_path):
    path = str(tmp_path / "a.ckpt")
    save_checkpoint(TwoLayer(), path)
    assert list(load_checkpoint(path, specify_prefix="fc2")) == ["fc2.weight", "fc2.bias"]
    assert list(load_checkpoint(path, filter_prefix=["fc1", "fc2.bias"])) == ["fc2.weight"]
    assert list(load_checkpoint(path, choice_func=lambda n: "weight" in n)) == ["fc1.weight", "fc2.weight"]
    # As in MindSpore, a prefix argument overrides choice_func.
    assert list(load_checkpoint(path, specify_prefix="fc1", choice_func=lambda n: False)) == \
        ["fc1.weight", "fc1.bias"]
    with pytest.raises(ValueError, match="nothing was loaded from .*a.ckpt after filtering"):
        load_checkpoint(path, specify_prefix="conv")
    with pytest.raises(ValueError, match="'filter_prefix' must hold non-empty str"):
        load_checkpoint(path, filter_prefix=[""])
    with pytest.raises(ValueError, match=r"'choice_func' failed on the parameter name 'fc1.weight': TypeError"):
        load_checkpoint(path, choice_func=lambda n: n.startswith(123))


def test_load_errors_name_the_file(tmp_path):
    with pytest.raises(ValueError, match="does not exist"):
        load_checkpoint(str(tmp_path / "missing.ckpt"))
    save_checkpoint(TwoLayer(), str(tmp_path / "a.ckpt"))
    with pytest.raises(ValueError, match="must be the same as 'format'"):
        load_checkpoint(str(tmp_path / "a.ckpt"), format="safetensors")


def test_load_param_into_net_reports_missing_and_unused_names(tmp_path):
    net = TwoLayer()
    params = {"fc1.weight": ms.Parameter(ms.Tensor(np.ones((4, 3), np.float32)), name="fc1.weight"),
              "extra": ms.Parameter(ms.Tensor(np.ones(1, np.float32)), name="extra"), "note": "text"}
    not_loaded, unused = load_param_into_net(net, params)
    assert not_loaded == ["fc1.bias", "fc2.weight", "fc2.bias"]
    assert unused == ["extra", "note"]
    np.testing.assert_array_equal(net.fc1.weight.asnumpy(), np.ones((4, 3)))


def test_load_param_into_net_matches_names_saved_under_a_wrapper_prefix(tmp_path):
    src, dst = TwoLayer(), TwoLayer()
    params = {f"network.{p.name}": ms.Parameter(p.value(), name=f"network.{p.name}") for p in src.get_parameters()}
    not_loaded, unused = load_param_into_net(dst, params)
    assert not_loaded == []
    assert all(np.array_equal(a, b) for a, b in zip(_values(src).values(), _values(dst).values()))
    assert load_param_into_net(TwoLayer(), params, strict_load=True)[0] == ["fc1.weight", "fc1.bias",
                                                                           "fc2.weight", "fc2.bias"]


def test_shape_mismatch_names_parameter_and_both_shapes_and_loads_nothing(tmp_path):
    net = TwoLayer()
    before = _values(net)
    params = {"fc1.weight": ms.Parameter(ms.Tensor(np.zeros((4, 3), np.float32)), name="fc1.weight"),
              "fc2.weight": ms.Parameter(ms.Tensor(np.zeros((5, 4), np.float32)), name="fc2.weight")}
    with pytest.raises(RuntimeError, match=r"fc2.weight .*shape \(2, 4\) in the argument 'net' and shape "
                                           r"\(5, 4\) in the argument 'parameter_dict'.*Nothing was loaded"):
        load_param_into_net(net, params)
    after = _values(net)
    assert all(np.array_equal(before[k], after[k]) for k in before)  # fc1.weight came first but is untouched


def test_dtype_mismatch_converts_floats_unless_strict(tmp_path):
    net = TwoLayer()
    half = {"fc1.bias": ms.Parameter(ms.Tensor(np.full(4, 0.5, np.float16)), name="fc1.bias")}
    load_param_into_net(net, half)
    assert net.fc1.bias.dtype == ms.float32 and float(net.fc1.bias[0]) == 0.5
    with pytest.raises(RuntimeError, match="fc1.bias .*same type.*float32 in the argument 'net' and type float16"):
        load_param_into_net(net, half, strict_load=True)
    ints = {"fc1.bias": ms.Parameter(ms.Tensor(np.ones(4, np.int32)), name="fc1.bias")}
    with pytest.raises(RuntimeError, match="fc1.bias .*same type"):
        load_param_into_net(net, ints)


def test_load_param_into_net_rejects_bad_arguments():
    with pytest.raises(TypeError, match="'net' should be a Cell, but got dict"):
        load_param_into_net({}, {})
    with pytest.raises(TypeError, match="'parameter_dict' should be a dict, but got list"):
        load_param_into_net(TwoLayer(), [])


def test_load_checkpoint_with_net_loads_into_it(tmp_path):
    src, dst = TwoLayer(), TwoLayer()
    save_checkpoint(src, str(tmp_path / "a.ckpt"))
    load_checkpoint(str(tmp_path / "a.ckpt"), net=dst, strict_load=True)
    assert all(np.array_equal(a, b) for a, b in zip(_values(src).values(), _values(dst).values()))


def test_async_save_and_async_load(tmp_path):
    src, dst = TwoLayer(), TwoLayer()
    save_checkpoint(src, str(tmp_path / "a.ckpt"), async_save=True)
    pending = load_checkpoint_async(str(tmp_path / "a.ckpt"))  # waits for the pending write
    load_param_into_net(dst, pending.result())
    assert all(np.array_equal(a, b) for a, b in zip(_values(src).values(), _values(dst).values()))


def test_safetensors_round_trip_with_strings_and_bfloat16(tmp_path):
    path = str(tmp_path / "a.safetensors")
    save_checkpoint({"w": ms.Parameter(ms.Tensor(np.ones(3), ms.bfloat16), name="w")}, path,
                    append_dict={"note": "x", "step": 3}, format="safetensors", crc_check=True)
    loaded = load_checkpoint(path, format="safetensors", crc_check=True)
    assert loaded["note"] == "x" and loaded["w"].dtype == ms.bfloat16 and int(loaded["step"]) == 3


def test_overwrite_replaces_the_file(tmp_path):
    path = str(tmp_path / "a.ckpt")
    save_checkpoint({"w": ms.Parameter(ms.Tensor(np.zeros(2, np.float32)), name="w")}, path)
    save_checkpoint({"w": ms.Parameter(ms.Tensor(np.ones(3, np.float32)), name="w")}, path)
    np.testing.assert_array_equal(load_checkpoint(path)["w"].asnumpy(), np.ones(3))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.ckpt"]  # no temporary file left
