"""Sharded checkpoints (orbax): save on a 2x4 mesh, restore onto a 1x8 mesh."""
import jax
import jax.numpy as jnp
import numpy as np
import pytest
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P

import mindjax as ms
from mindjax import nn
from mindjax.train.serialization import load_checkpoint, save_checkpoint
from mindjax.train.serialization.sharded import load_sharded


def _mesh(rows, cols):
    return Mesh(np.array(jax.devices()[:8]).reshape(rows, cols), ("dp", "mp"))


def _place(net, mesh, specs):
    for p in net.get_parameters():
        p.set_data(jax.device_put(p.value(), NamedSharding(mesh, specs[p.name.split(".")[-1]])))


def test_save_on_2x4_mesh_restores_onto_1x8_mesh(tmp_path):
    assert len(jax.devices()) >= 8
    src = nn.Dense(8, 16)
    _place(src, _mesh(2, 4), {"weight": P("dp", "mp"), "bias": P("mp")})
    assert len(jnp.asarray(src.weight).sharding.device_set) == 8
    path = str(tmp_path / "dense.ckpt")
    save_checkpoint(src, path, integrated_save=False, append_dict={"epoch_num": 4, "note": "sharded"})
    assert (tmp_path / "dense.ckpt").is_dir()

    dst = nn.Dense(8, 16)
    target = _mesh(1, 8)
    _place(dst, target, {"weight": P(None, "mp"), "bias": P("mp")})
    loaded = load_checkpoint(path, net=dst)
    assert loaded["note"] == "sharded" and loaded["epoch_num"] == 4
    for name in ("weight", "bias"):
        restored = jnp.asarray(getattr(dst, name))
        np.testing.assert_array_equal(np.asarray(restored), np.asarray(getattr(src, name).value()))
        assert restored.sharding == NamedSharding(target, P(None, "mp") if name == "weight" else P("mp"))
    x = ms.Tensor(np.ones((2, 8), np.float32))
    np.testing.assert_allclose(dst(x).asnumpy(), src(x).asnumpy(), rtol=1e-6)


def test_sharded_checkpoint_restores_on_one_device_and_overwrites_atomically(tmp_path):
    src = nn.Dense(8, 16)
    _place(src, _mesh(2, 4), {"weight": P("dp", "mp"), "bias": P("mp")})
    path = str(tmp_path / "dense.ckpt")
    save_checkpoint(src, path, integrated_save=False)
    src.bias.set_data(src.bias.value() + 1)
    save_checkpoint(src, path, integrated_save=False)  # replaces the folder
    assert sorted(p.name for p in tmp_path.iterdir()) == ["dense.ckpt"]
    values = load_sharded(path, choose=lambda n: n == "bias")
    assert list(values) == ["bias"]
    assert len(values["bias"].sharding.device_set) == 1
    np.testing.assert_array_equal(np.asarray(values["bias"]), np.asarray(src.bias.value()))


def test_incomplete_sharded_folder_raises_naming_it(tmp_path):
    folder = tmp_path / "broken.ckpt"
    (folder / "arrays").mkdir(parents=True)
    with pytest.raises(ValueError, match=f"{folder}: it is incomplete or not a checkpoint folder"):
        load_checkpoint(str(folder))
