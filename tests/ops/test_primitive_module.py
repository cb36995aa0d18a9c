"""mindjax.ops.primitive (prim_attr_register, constexpr, PrimitiveWithInfer), ReduceOp, Reciprocal,
and MultitypeFuncGraph's MindSpore type names."""
import numpy as np
import pytest

import mindjax as ms
from mindjax import ops
from mindjax.ops.composite import HyperMap, MultitypeFuncGraph
from mindjax.ops.primitive import (PrimitiveWithCheck, PrimitiveWithInfer, constexpr, prim_arg_register,
                                   prim_attr_register)


class Scale(PrimitiveWithInfer):
    @prim_attr_register
    def __init__(self, k=2.0, bias=0.0):
        pass

    def __call__(self, x):
        return x * self.k + self.bias


def test_prim_attr_register_records_arguments_with_defaults():
    s = Scale(3.0)
    assert s.name == "Scale" and s.attrs == {"k": 3.0, "bias": 0.0} and s.init_attrs == {"k": 3.0, "bias": 0.0}
    np.testing.assert_allclose(np.asarray(s(np.array([1.0]))), [3.0])


def test_prim_arg_register_keeps_args_out_of_attrs():
    class Op(PrimitiveWithCheck):
        @prim_arg_register
        def __init__(self, axis=0):
            self.axis = axis
    op = Op(1)
    assert op.init_attrs == {"axis": 1} and op.attrs == {}


def test_primitive_with_infer_computes_by_infer_value_or_says_it_cannot():
    class Const(PrimitiveWithInfer):
        def infer_value(self, x):
            return None if x is None else x + 1
    assert Const()(1) == 2
    with pytest.raises(TypeError, match="defines no computation"):
        Const()(None)


def test_constexpr_runs_the_function_and_can_return_the_class():
    @constexpr
    def double(n):
        return 2 * n
    assert double(21) == 42 and double.name == "double"

    @constexpr(get_instance=False, name="tripled")
    def triple(n):
        return 3 * n
    assert triple()(2) == 6 and triple.__name__ == "tripled"


def test_reciprocal_and_reduce_op():
    np.testing.assert_allclose(np.asarray(ops.Reciprocal()(np.array([2, 4], np.int32))), [0.5, 0.25])
    assert (ops.ReduceOp.SUM, ops.ReduceOp.MAX, ops.ReduceOp.MIN, ops.ReduceOp.PROD, ops.ReduceOp.AVG) == \
        ("sum", "max", "min", "prod", "avg")


@pytest.mark.parametrize("name", ["Tensor", "Number", "Tuple", "List", "RowTensor", "COOTensor", "CSRTensor",
                                  "MapTensor", "String", "None", "Function", "Dictionary", "Bool", "Int", "UInt",
                                  "Float", "Complex", "Slice", "Ellipsis", "TypeType", "Int64", "Float32",
                                  "Tensor[Float32]"])
def test_register_accepts_every_mindspore_type_name(name):
    g = MultitypeFuncGraph("g")
    g.register(name)(lambda x: x)


def test_dispatch_by_type_name_and_element_type():
    g = MultitypeFuncGraph("g")
    g.register("Tensor[Float32]")(lambda x: "f32")
    g.register("Tensor")(lambda x: "tensor")
    g.register("RowTensor")(lambda x: "rows")
    g.register("Int64")(lambda x: "int")
    rows = ms.RowTensor(ms.Tensor([0]), ms.Tensor(np.ones((1, 2), np.float32)), (2, 2))
    assert [g(ms.Tensor([1.0])), g(ms.Tensor([1])), g(rows), g(3)] == ["f32", "tensor", "rows", "int"]
    with pytest.raises(TypeError, match="no implementation is registered"):
        g("text")
    with pytest.raises(ValueError, match="unknown type name 'Foo'"):
        g.register("Foo")


def test_hyper_map_with_registered_scale():
    scale = MultitypeFuncGraph("scale")

    @scale.register("Number", "Tensor")
    def _(k, x):
        return x * ops.Reciprocal()(k * 1.0)
    out = HyperMap()(ops.partial(scale, 2), (ms.Tensor([2.0]), ms.Tensor([4.0])))
    assert [float(o[0]) for o in out] == [1.0, 2.0]


def test_a_constexpr_function_is_user_code_whose_ops_give_tensors_in_both_modes():
    from mindjax import nn

    kinds = []

    @ops.constexpr
    def relative(n):
        grid = ms.numpy.arange(n)
        kinds.append(type(grid).__name__)
        return grid.view(1, -1) - grid.view(-1, 1)  # Tensor.view(*shape), not jax.Array.view(dtype)

    class Net(nn.Cell):
        def construct(self, x):
            return x + relative(3)

    x = ms.Tensor(np.zeros((3, 3), np.int32))
    want = np.arange(3)[None, :] - np.arange(3)[:, None]
    try:
        for mode in (ms.PYNATIVE_MODE, ms.GRAPH_MODE):
            ms.set_context(mode=mode)
            np.testing.assert_array_equal(Net()(x).asnumpy(), want)
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    assert kinds == ["Tensor", "Tensor"]
