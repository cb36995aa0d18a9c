"""ops' scalar, bool, string and sequence functions (MindSpore's graph-mode F.scalar_add, F.tuple_len ...)."""
import numpy as np
import pytest

import mindjax as ms
from mindjax import ops
from mindjax.ops import composite as C
from mindjax.ops import functional as F


def test_scalar_arithmetic_keeps_pythons_types():
    assert ops.scalar_add(2, 3) == 5 and isinstance(ops.scalar_add(2, 3), int)
    assert ops.scalar_add(True, 2) == 3
    assert ops.scalar_div(6, 2) == 3.0 and isinstance(ops.scalar_div(6, 2), float)
    assert ops.scalar_floordiv(-7, 2) == -4 and ops.scalar_mod(-7, 3) == 2 and ops.scalar_mod(7.5, 2) == 1.5
    assert ops.scalar_pow(2, -1) == 0.5 and ops.scalar_sub(2, 3) == -1 and ops.scalar_mul(2, 3) == 6
    assert ops.scalar_max(3, 2.0) == 3.0 and isinstance(ops.scalar_max(3, 2.0), float)
    assert ops.scalar_min(2, 3) == 2 and isinstance(ops.scalar_min(2, 3), int)
    assert ops.scalar_log(1) == 0.0 and ops.scalar_log(0) == -np.inf
    assert ops.scalar_uadd(-3) == -3 and ops.scalar_usub(3) == -3
    assert [ops.scalar_eq(2, 2.0), ops.scalar_ne(2, 3), ops.scalar_lt(2, 3), ops.scalar_le(3, 3),
            ops.scalar_gt(2, 3), ops.scalar_ge(3, 2)] == [True, True, True, True, False, True]


def test_scalar_arithmetic_on_traced_scalars():
    out = ms.jit(lambda x: ops.scalar_mul(ops.scalar_add(x, 1), 2))(ms.Tensor(1.5))
    assert float(out.asnumpy() if hasattr(out, "asnumpy") else out) == 5.0
    out = ms.jit(lambda x: ops.scalar_max(x, 4.0))(ms.Tensor(3.0))
    assert float(out.asnumpy() if hasattr(out, "asnumpy") else out) == 4.0
    out = ms.jit(lambda x: ops.scalar_div(1.0, x))(ms.Tensor(0.0))  # a traced zero is not known: inf
    assert np.isinf(float(out.asnumpy() if hasattr(out, "asnumpy") else out))


def test_bools_strings_and_sequences():
    assert ops.bool_and(True, False) is False and ops.bool_or(True, False) is True
    assert ops.bool_not(True) is False and ops.bool_eq(True, True) is True
    assert ops.string_concat("a", "b") == "ab" and ops.string_eq("a", "b") is False
    assert ops.tuple_len((1, 2, 3)) == 3 and ops.list_len([1, 2]) == 2
    assert ops.tuple_equal((1, 2), (1, 2)) and not ops.list_equal([1], [2])
    assert ops.tuple_reversed((1, 2, 3)) == (3, 2, 1)
    assert ops.tuple_div((6, 8), (2, 4)) == (3, 2)
    assert ops.make_range(5) == (0, 1, 2, 3, 4) and ops.make_range(1, 10, 3) == (1, 4, 7)
    assert ops.make_range(5, 1, -2) == (5, 3)
    assert ops.shape_mul((2, 3, 4)) == 24 and ops.shape_mul(()) == 1
    assert ops.reduced_shape((2, 3, 4), (1,)) == (2, 1, 4) and ops.reduced_shape((2, 3, 4), ()) == (1, 1, 1)
    assert ops.reduced_shape((2, 3, 4), -1) == (2, 3, 1)
    assert ops.broadcast_gradient_args((2, 1, 3), (4, 3)) == ((1,), (0,))
    assert ops.make_slice(1, 5, 2) == slice(1, 5, 2)
    assert ops.dict_setitem({"a": 1}, "b", 2) == {"a": 1, "b": 2}
    assert ops.make_dict(("a", "b"), (1, 2)) == {"a": 1, "b": 2}
    assert ops.in_dict("a", {"a": 1}) and not ops.not_in_dict("a", {"a": 1})
    assert ops.is_(None, None) and ops.is_not(1, None)
    assert ops.tail((1, 2, 3)) == (2, 3) and ops.tail(()) == ()
    assert ops.zip_operation((1, 2), (3, 4)) == ((1, 3), (2, 4))
    assert F.tuple_len is ops.tuple_len and C.tail is ops.tail


def test_types_constants_and_casts():
    assert ops.typeof(1) == ms.int64 and ops.typeof(1.0) == ms.float32 and ops.typeof(True) == ms.bool_
    assert ops.typeof(ms.Tensor([1.0])) == ms.TensorType(ms.float32)
    assert ops.typeof((1, 2)) == ms.tuple_ and ops.typeof(None) == ms.type_none and ops.typeof("s") == ms.string
    assert ops.hastype(1, ms.number) and ops.hastype(True, ms.number) and ops.hastype(1.0, ms.float32)
    assert ops.hastype(ms.Tensor([1]), ms.tensor_type) and ops.hastype(1, ms.Int())
    assert not ops.hastype((1, 2.0), ms.float32) and not ops.hastype(ms.Tensor([1.0]), ms.number)
    assert ops.isconstant(ms.Tensor(1.0)) and ops.isconstant((1, 2))
    assert ms.jit(lambda x: ops.isconstant(x))(ms.Tensor(1.0)) is False
    assert ops.array_to_scalar(ms.Tensor(3)) == 3 and isinstance(ops.array_to_scalar(ms.Tensor(3)), int)
    out = ops.mixed_precision_cast(ms.float16, [ms.Tensor([1.0]), 1.5, ms.Tensor([1], ms.int32)])
    assert isinstance(out, tuple) and out[0].dtype == ms.float16 and out[1] == 1.5 and out[2].dtype == ms.int32
    assert ops.mixed_precision_cast(ms.float16, ms.Tensor([1.0], ms.float64)).dtype == ms.float16
    np.testing.assert_array_equal(ops.tensor_range(ms.Tensor(0), ms.Tensor(5), ms.Tensor(2)).asnumpy(), [0, 2, 4])


def test_bad_input_names_the_function_and_argument():
    with pytest.raises(TypeError, match=r"For 'scalar_add', 'y' must be a scalar number \(bool, int or float\), "
                                        r"but got str"):
        ops.scalar_add(1, "a")
    with pytest.raises(TypeError, match=r"For 'scalar_mul', 'x' must be a scalar number \(bool, int or float\), "
                                        r"but got a Tensor of shape \(2,\)"):
        ops.scalar_mul(ms.Tensor([1.0, 2.0]), 2)
    with pytest.raises(ValueError, match=r"For 'scalar_div', the divisor could not be zero"):
        ops.scalar_div(1, 0)
    with pytest.raises(ValueError, match=r"For 'scalar_floordiv', the divisor could not be zero"):
        ops.scalar_floordiv(7, 0)
    with pytest.raises(ValueError, match=r"For 'scalar_mod', cannot perform modulo operation on zero"):
        ops.scalar_mod(7, 0)
    with pytest.raises(TypeError, match=r"For 'bool_and', 'y' must be a bool, but got int"):
        ops.bool_and(True, 0)
    with pytest.raises(TypeError, match=r"For 'string_concat', 'x' must be a str, but got int"):
        ops.string_concat(1, "b")
    with pytest.raises(TypeError, match=r"For 'tuple_len', 'data' must be a tuple or list, but got int"):
        ops.tuple_len(5)
    with pytest.raises(RuntimeError, match=r"The inputs of 'tuple_div' operator should be divisible, but they are "
                                           r"not divisible now, the dividend is 6, the divisor is 4"):
        ops.tuple_div((6, 8), (4, 4))
    with pytest.raises(ValueError, match=r"For 'tuple_div', the two tuples must have one length, but got 2 and 1"):
        ops.tuple_div((6, 8), (2,))
    with pytest.raises(ValueError, match=r"For 'make_range', the argument 'step' could not be 0"):
        ops.make_range(1, 5, 0)
    with pytest.raises(TypeError, match=r"For 'make_range', 'stop' must be an int, but got float"):
        ops.make_range(1, 5.0)
    with pytest.raises(ValueError, match=r"For 'reduced_shape', 'axis' 3 is out of range for a shape of rank 3"):
        ops.reduced_shape((2, 3, 4), 3)
    with pytest.raises(ValueError, match=r"For 'broadcast_gradient_args', shapes \(2, 3\) and \(4,\) do not "
                                         r"broadcast \(dimension 1: 3 and 4\)"):
        ops.broadcast_gradient_args((2, 3), (4,))
    with pytest.raises(TypeError, match=r"For 'make_slice', 'step' must be an int or None, but got float"):
        ops.make_slice(1, 5, 0.5)
    with pytest.raises(ValueError, match=r"For 'make_dict', 'keys' and 'values' must have one length"):
        ops.make_dict(("a",), (1, 2))
    with pytest.raises(TypeError, match=r"For 'in_dict', 'data' must be a dict, but got list"):
        ops.in_dict("a", ["a"])
    with pytest.raises(TypeError, match=r"For 'hastype', 'type_' must be a MindSpore type, but got type"):
        ops.hastype(1, int)
    with pytest.raises(ValueError, match=r"For 'array_to_scalar', 'x' must hold one element, but got shape \(2,\)"):
        ops.array_to_scalar(ms.Tensor([1, 2]))
    with pytest.raises(TypeError, match=r"For 'mixed_precision_cast', 'dst_dtype' must be a float dtype, but got "
                                        r"Int32"):
        ops.mixed_precision_cast(ms.int32, ms.Tensor([1.0]))
    with pytest.raises(TypeError, match=r"For 'tail', 'data' must be a tuple or list, but got int"):
        ops.tail(3)
    with pytest.raises(ValueError, match=r"For 'zip_operation', the sequences must have one length, but got "
                                         r"\[2, 1\]"):
        ops.zip_operation((1, 2), (3,))


def test_hyper_add_adds_through_matching_sequences():
    out = ops.hyper_add((ms.Tensor([1.0]), [ms.Tensor([2.0])]), (ms.Tensor([3.0]), [ms.Tensor([4.0])]))
    assert isinstance(out, tuple) and isinstance(out[1], tuple)
    np.testing.assert_array_equal(out[0].asnumpy(), [4.0])
    np.testing.assert_array_equal(out[1][0].asnumpy(), [6.0])
    assert ops.hyper_add(1, 2) == 3 and C.hyper_add is ops.hyper_add
    with pytest.raises(ValueError, match=r"For 'hyper_add', the sequences must have one length, but got 2 and 1"):
        ops.hyper_add((1, 2), (3,))
    with pytest.raises(TypeError, match=r"For 'hyper_add', both sides must be sequences or neither, but got tuple "
                                        r"and int"):
        ops.hyper_add((1,), 3)
