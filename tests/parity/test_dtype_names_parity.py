"""MindSpore 2.10's type objects (ms.number, ms.string, ms.Int, ms.TensorType ...) and get_py_obj_dtype."""
import numpy as np
import pytest

import mindspore
import mindjax

_NAMES = ["int", "float", "bool", "number", "string", "list_", "tuple_", "type_none", "tensor_type",
          "float8_e4m3fn", "float8_e5m2", "hifloat8", "qint4x2"]


@pytest.mark.parametrize("name", _NAMES)
def test_type_objects_print_as_mindspores(name):
    ours, theirs = getattr(mindjax, name), getattr(mindspore, name)
    assert str(ours) == str(theirs)
    assert repr(ours) == repr(theirs)
    assert isinstance(ours, mindjax.Type)


def test_int_and_tensor_type_classes_behave_as_mindspores():
    for bits in (8, 16, 32, 64):
        assert repr(mindjax.Int(bits)) == repr(mindspore.Int(bits))
    assert isinstance(mindjax.int32, mindjax.Int) == isinstance(mindspore.int32, mindspore.Int) is True
    assert isinstance(mindjax.float32, mindjax.Int) == isinstance(mindspore.float32, mindspore.Int) is False
    with pytest.raises(RuntimeError) as expected:
        mindspore.Int(7)
    with pytest.raises(RuntimeError) as got:
        mindjax.Int(7)
    assert str(expected.value).startswith(str(got.value))
    ours, theirs = mindjax.TensorType(mindjax.float32), mindspore.TensorType(mindspore.float32)
    assert str(ours) == str(theirs) and str(ours.element_type()) == str(theirs.element_type())
    assert ours == mindjax.TensorType(mindjax.float32) and ours != mindjax.TensorType(mindjax.int32)
    assert mindjax.number == mindjax.number and mindjax.number != mindjax.int32 and mindjax.int32 != mindjax.string


@pytest.mark.parametrize("obj", [1, 1.0, True, [1], (1,), None, "a", int, float, np.float32, np.int8])
def test_get_py_obj_dtype_matches(obj):
    assert str(mindjax.get_py_obj_dtype(obj)) == str(mindspore.get_py_obj_dtype(obj))


def test_get_py_obj_dtype_of_tensors_types_and_functions_matches():
    assert str(mindjax.get_py_obj_dtype(mindjax.Tensor([1]))) == str(mindspore.get_py_obj_dtype(mindspore.Tensor([1])))
    assert str(mindjax.get_py_obj_dtype(mindjax.float32)) == str(mindspore.get_py_obj_dtype(mindspore.float32))

    def f():
        return 0
    assert str(mindjax.get_py_obj_dtype(f)) == str(mindspore.get_py_obj_dtype(f))
    assert str(mindjax.get_py_obj_dtype(mindjax.nn.ReLU())) == str(mindspore.get_py_obj_dtype(mindspore.nn.ReLU()))


def test_types_without_a_tensor_element_refuse_to_be_a_dtype():
    with pytest.raises(TypeError, match=r"mindspore.hifloat8 \(HiFloat8\) can not be used as a Tensor dtype: "
                                        r"it is Ascend's HiFloat8"):
        mindjax.Tensor([1.0], mindjax.hifloat8)
    with pytest.raises(TypeError, match="mindspore.string_ .* can not be used as a Tensor dtype"):
        mindjax.ops.zeros((2,), mindjax.string)


def test_float8_and_int4_are_jax_types():
    x = mindjax.Tensor(np.array([1.0, 2.0, 448.0], np.float32), mindjax.float8_e4m3fn)
    assert x.dtype == mindjax.float8_e4m3fn
    np.testing.assert_array_equal(x.astype(mindjax.float32).asnumpy(), [1.0, 2.0, 448.0])
    y = mindjax.Tensor(np.array([1, -2]), mindjax.qint4x2)
    assert str(y.dtype) == "Int4"
    np.testing.assert_array_equal(y.astype(mindjax.int32).asnumpy(), [1, -2])
    assert mindjax.Tensor(np.array([0.5]), mindjax.float8_e5m2).dtype == mindjax.float8_e5m2
