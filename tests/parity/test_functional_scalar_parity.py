"""ops' scalar and sequence functions against MindSpore 2.10 (PYNATIVE where it runs them, GRAPH otherwise)."""
import mindspore
import numpy as np
import pytest

import mindjax as mj

CASES = [
    ("scalar_add", (2, 3)), ("scalar_add", (2, 3.5)), ("scalar_add", (True, 2)), ("scalar_sub", (2, 3)),
    ("scalar_mul", (2, 3)), ("scalar_div", (7, 2)), ("scalar_div", (6, 2)), ("scalar_floordiv", (7, 2)),
    ("scalar_floordiv", (-7, 2)), ("scalar_mod", (-7, 3)), ("scalar_mod", (7.5, 2)), ("scalar_pow", (2, 3)),
    ("scalar_pow", (2, -1)), ("scalar_eq", (2, 2.0)), ("scalar_lt", (2, 3)), ("scalar_le", (3, 3)),
    ("scalar_gt", (2, 3)), ("scalar_ge", (3, 2)), ("scalar_max", (2, 3.0)), ("scalar_min", (2, 3)),
    ("scalar_log", (8,)), ("scalar_log", (1,)), ("scalar_uadd", (-3,)), ("scalar_usub", (3,)),
    ("tuple_len", ((1, 2, 3),)), ("list_len", ([1, 2],)), ("tuple_equal", ((1, 2), (1, 2))),
    ("list_equal", ([1], [2])), ("tuple_reversed", ((1, 2, 3),)), ("tuple_div", ((6, 8), (2, 4))),
    ("make_range", (1, 5)), ("make_range", (5,)), ("make_range", (1, 10, 3)), ("shape_mul", ((2, 3, 4),)),
    ("reduced_shape", ((2, 3, 4), (1,))), ("isconstant", (1,)), ("is_", (None, None)), ("is_not", (1, None)),
    ("in_dict", ("a", {"a": 1})), ("not_in_dict", ("a", {"a": 1})), ("make_slice", (1, 5, 2)),
]


@pytest.mark.parametrize("name,args", CASES, ids=[f"{n}{a}" for n, a in CASES])
def test_pynative_results_match_mindspore(name, args):
    want = getattr(mindspore.ops, name)(*args)
    got = getattr(mj.ops, name)(*args)
    assert got == want and type(got) is type(want), (got, want)


GRAPH_CASES = {
    "scalar_ne": (2, 3), "bool_and": (True, False), "bool_or": (True, False), "bool_eq": (True, True),
    "bool_not": (True,), "string_concat": ("a", "b"), "string_eq": ("a", "b"), "make_range": (5, 1, -2),
    "reduced_shape": ((2, 3, 4), (0, 2)), "shape_mul": ((),), "scalar_floordiv": (7.5, 2),
    "broadcast_gradient_args": ((2, 1, 3), (4, 3)), "tail": ((1, 2, 3),), "zip_operation": ((1, 2), (3, 4)),
    "dict_setitem": ({"a": 1}, "b", 2), "make_dict": (("a", "b"), (1, 2)),
}


def _graph_call(name, args):
    op = getattr(mindspore.ops, name)

    @mindspore.jit
    def f():
        return op(*args)

    mindspore.set_context(mode=mindspore.GRAPH_MODE)
    try:
        return f()
    finally:
        mindspore.set_context(mode=mindspore.PYNATIVE_MODE)


@pytest.mark.parametrize("name", sorted(GRAPH_CASES))
def test_graph_mode_results_match_mindspore(name):
    args = GRAPH_CASES[name]
    want = _graph_call(name, args)
    got = getattr(mj.ops, name)(*args)
    assert got == want, (got, want)


def test_typeof_and_hastype_match_mindspore_names():
    for value in (1, 1.0, True, "s", None):
        assert str(mj.ops.typeof(value)) == str(mindspore.ops.typeof(value))
    assert str(mj.ops.typeof(mj.Tensor(np.ones(1, np.float32)))) == "Tensor[Float32]"
    for value, mj_type, ms_type in ((1, mj.number, mindspore.number), (True, mj.number, mindspore.number),
                                    (1.0, mj.float32, mindspore.float32), ((1, 2.0), mj.float32, mindspore.float32),
                                    (1, mj.Int(), mindspore.Int())):
        assert mj.ops.hastype(value, mj_type) == mindspore.ops.hastype(value, ms_type)


def test_mixed_precision_cast_matches_mindspore():
    got = mj.ops.mixed_precision_cast(mj.float16, [mj.Tensor(np.ones(1, np.float32)), 1.5,
                                                   mj.Tensor(np.ones(1, np.int32))])
    want = mindspore.ops.mixed_precision_cast(mindspore.float16, [mindspore.Tensor(np.ones(1, np.float32)), 1.5,
                                                                  mindspore.Tensor(np.ones(1, np.int32))])
    assert type(got) is type(want) and got[1] == want[1]
    assert [str(got[0].dtype), str(got[2].dtype)] == [str(want[0].dtype), str(want[2].dtype)]


def test_tensor_range_matches_mindspore():
    want = mindspore.ops.tensor_range(mindspore.Tensor(0), mindspore.Tensor(5), mindspore.Tensor(2)).asnumpy()
    got = mj.ops.tensor_range(mj.Tensor(0), mj.Tensor(5), mj.Tensor(2)).asnumpy()
    np.testing.assert_array_equal(got, want)


def test_hyper_add_matches_mindspore():
    want = mindspore.ops.hyper_add([mindspore.Tensor([1.0])], [mindspore.Tensor([2.0])])
    got = mj.ops.hyper_add([mj.Tensor([1.0])], [mj.Tensor([2.0])])
    assert type(got) is type(want) and len(got) == len(want) == 1
    np.testing.assert_array_equal(got[0].asnumpy(), want[0].asnumpy())
    assert mj.ops.hyper_add(1, 2) == mindspore.ops.hyper_add(1, 2)
