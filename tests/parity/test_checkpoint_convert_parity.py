"""A MindSpore 2.10 .ckpt converted by MindJAX loads in MindSpore as safetensors, and the other way round."""
import mindspore
import numpy as np

import mindjax

W = np.arange(6, dtype=np.float32).reshape(2, 3)
B = np.array([1.5, -2.0], np.float32)


def test_mindspore_ckpt_converts_to_safetensors_mindspore_reads(tmp_path):
    mindspore.save_checkpoint([{"name": "w", "data": mindspore.Tensor(W)}, {"name": "b", "data": mindspore.Tensor(B)}],
                              str(tmp_path / "net.ckpt"))
    mindjax.ckpt_to_safetensors(str(tmp_path / "net.ckpt"), str(tmp_path / "out"), name_map={"b": "bias"})
    loaded = mindspore.load_checkpoint(str(tmp_path / "out" / "net.safetensors"), format="safetensors")
    assert sorted(loaded) == ["bias", "w"]
    np.testing.assert_array_equal(loaded["w"].asnumpy(), W)
    np.testing.assert_array_equal(loaded["bias"].asnumpy(), B)


def test_mindspore_safetensors_converts_to_a_ckpt_mindspore_reads(tmp_path):
    mindspore.save_checkpoint([{"name": "w", "data": mindspore.Tensor(W)}], str(tmp_path / "net.safetensors"),
                              format="safetensors")
    mindjax.safetensors_to_ckpt(str(tmp_path / "net.safetensors"))
    loaded = mindspore.load_checkpoint(str(tmp_path / "net.ckpt"))
    np.testing.assert_array_equal(loaded["w"].asnumpy(), W)
