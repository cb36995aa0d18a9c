"""mindjax.common's MindSpore modules: RowTensor, JitConfig, jit_class, FileSystem, the Tensor factories,
and the context's set_device / jit_syntax_level."""
import os

import jax
import numpy as np
import pytest

import mindjax as ms
from mindjax import nn
from mindjax.common.api import jit_class
from mindjax.common.file_system import FileSystem
from mindjax.common.jit_config import JitConfig
from mindjax.common.sparse_tensor import RowTensor


def test_row_tensor_parts_and_dense_form_sum_repeated_rows():
    rows = RowTensor(ms.Tensor([0, 2, 0]), ms.Tensor(np.ones((3, 2), np.float32)), (4, 2))
    assert rows.dense_shape == (4, 2) and tuple(rows.values.shape) == (3, 2)
    np.testing.assert_array_equal(np.asarray(rows.to_dense()), [[2, 2], [0, 0], [1, 1], [0, 0]])
    copy = RowTensor(row_tensor=rows)
    np.testing.assert_array_equal(np.asarray(copy.indices), [0, 2, 0])


def test_row_tensor_passes_through_jit():
    rows = RowTensor(ms.Tensor([1]), ms.Tensor(np.ones((1, 3), np.float32)), (2, 3))
    dense = jax.jit(lambda r: r.to_dense())(rows)
    np.testing.assert_array_equal(np.asarray(dense), [[0, 0, 0], [1, 1, 1]])


def test_row_tensor_rejects_bad_parts():
    with pytest.raises(ValueError, match="'values' must have shape"):
        RowTensor(ms.Tensor([0]), ms.Tensor(np.ones((2, 2), np.float32)), (3, 2))
    with pytest.raises(ValueError, match="'indices' must be 1-D"):
        RowTensor(ms.Tensor([[0]]), ms.Tensor(np.ones((1, 2), np.float32)), (3, 2))
    with pytest.raises(TypeError, match="dense_shape"):
        RowTensor(ms.Tensor([0]), ms.Tensor(np.ones((1, 2), np.float32)), "3x2")
    with pytest.raises(TypeError, match="must all be None"):
        RowTensor(ms.Tensor([0]), row_tensor=RowTensor(ms.Tensor([0]), ms.Tensor(np.ones((1, 1))), (1, 1)))


def test_jit_config_records_and_validates():
    cfg = JitConfig(jit_level="O1", custom="x")
    assert cfg.jit_config_dict["jit_level"] == "O1" and cfg.jit_config_dict["custom"] == "x"
    assert cfg.jit_config_dict["backend"] == "ms_backend"
    assert JitConfig(jit_level="O2").jit_config_dict["backend"] == "GE"
    with pytest.raises(ValueError, match="'jit_level' must be one of"):
        JitConfig(jit_level="O9")
    with pytest.raises(ValueError, match="'exc_mode'"):
        JitConfig(exc_mode="fast")


def test_jit_class_marks_classes_and_refuses_cells_and_non_classes():
    @jit_class
    class Holder:
        pass
    assert Holder.__ms_class__ is True
    with pytest.raises(TypeError, match="only be used for class type"):
        jit_class(1)
    with pytest.raises(TypeError, match="cannot be used for nn.Cell"):
        jit_class(nn.Dense)


def test_file_system_basic_backend(tmp_path):
    fs = FileSystem()
    path = os.path.join(tmp_path, "f.bin")
    with fs.create(path, *fs.create_args) as f:
        f.write(b"abc")
    with fs.open(path, *fs.open_args) as f:
        assert f.read() == b"abc"
    assert fs.backend == "basic"


def test_tensor_factories():
    t = ms.tensor([1.0, 2.0])
    assert t.dtype == ms.float32 and t.shape == (2,)
    a = np.arange(3, dtype=np.int32)
    assert ms.from_numpy(a).dtype == ms.int32
    with pytest.raises(TypeError, match="from_numpy"):
        ms.from_numpy([1, 2])


def test_dtype_to_pytype_and_aliases():
    assert ms.dtype_to_pytype(ms.float16) is float and ms.dtype_to_pytype(ms.int8) is int
    assert ms.dtype_to_pytype(ms.bool_) is bool and ms.dtype_to_nptype(ms.float16) is np.float16
    assert ms.long == ms.int64 and ms.cfloat == ms.complex64


def test_set_context_syntax_and_jit_level():
    ms.set_context(jit_level="O0", jit_syntax_level=ms.LAX)
    try:
        assert ms.get_context("jit_level") == "O0" and ms.get_context("jit_syntax_level") == ms.LAX
        with pytest.raises(ValueError, match="'jit_syntax_level' must be STRICT"):
            ms.set_context(jit_syntax_level=7)
    finally:
        ms.set_context(jit_syntax_level=ms.STRICT)


def test_set_device():
    ms.set_device("CPU", 0)
    assert ms.get_context("device_target") == "CPU" and ms.get_context("device_id") == 0
    with pytest.raises(ValueError, match="device_target"):
        ms.set_device("Foo")
    with pytest.raises(TypeError, match="'device_id'"):
        ms.set_device("CPU", -1)


def test_run_check_prints_success(capsys):
    ms.run_check()
    out = capsys.readouterr().out
    assert "MindJAX version" in out and "correct" in out


def test_np_dtype_bfloat16_is_the_numpy_dtype_of_bfloat16_tensors() -> None:
    import numpy as np
    from mindjax.common import np_dtype
    import mindjax

    x = np.array([1, 2, 3], dtype=np_dtype.bfloat16)
    assert x.dtype == np_dtype.bfloat16
    assert mindjax.Tensor(x).dtype == mindjax.bfloat16
    assert mindjax.Tensor(x).asnumpy().dtype == np_dtype.bfloat16
    assert np_dtype.np_dtype_valid(False) is True
