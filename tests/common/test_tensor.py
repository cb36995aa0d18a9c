"""ms.Tensor is MindSpore's mutable Tensor holding a jax.Array; JAX's own classes stay untouched."""
import jax
import jax.numpy as jnp
import numpy as np
import pytest

import mindjax as ms
from mindjax import nn, ops


# --- type and JAX interop ------------------------------------------------------------------

def test_tensor_is_its_own_type_and_jax_arrays_are_not_patched():
    t = ms.Tensor(np.ones((2, 3)), ms.float32)
    assert type(t) is ms.Tensor
    assert not isinstance(t, jax.Array)
    assert not isinstance(jnp.ones(2), ms.Tensor)
    assert not hasattr(jnp.ones(3), "numpy") and not hasattr(jnp.ones(3), "asnumpy")


def test_tensor_wraps_a_jax_array_without_a_copy_and_gives_it_back():
    arr = jnp.arange(4.0)
    t = ms.Tensor(arr)
    assert t.value() is arr
    assert isinstance(jnp.asarray(t), jax.Array)
    np.testing.assert_array_equal(np.asarray(t), np.arange(4.0))


def test_tensors_pass_through_jax_jit_grad_and_vmap():
    t = ms.Tensor(np.array([1.0, 2.0, 3.0], np.float32))
    doubled = jax.jit(lambda x: x * 2)(t)
    assert type(doubled) is ms.Tensor and doubled.tolist() == [2.0, 4.0, 6.0]
    g = jax.grad(lambda x: (x * x).sum().value())(t)
    assert type(g) is ms.Tensor and g.tolist() == [2.0, 4.0, 6.0]
    rows = jax.vmap(lambda r: r.sum())(ms.Tensor(np.ones((4, 3), np.float32)))
    assert rows.shape == (4,)


def test_ops_and_cells_give_jax_callers_arrays_and_everyone_else_tensors():
    out = ops.relu(jnp.array([-1.0, 2.0]))
    assert isinstance(out, jax.Array) and out.tolist() == [0.0, 2.0]
    assert type(ops.relu(ms.Tensor([-1.0, 2.0]))) is ms.Tensor
    assert type(ops.add(np.ones(2, np.float32), 1.0)) is ms.Tensor
    assert type(ops.ones((2,))) is ms.Tensor
    net = nn.Dense(3, 2)
    assert isinstance(net(jnp.ones((1, 3), jnp.float32)), jax.Array)
    assert type(net(ms.Tensor(np.ones((1, 3), np.float32)))) is ms.Tensor
    # so plain JAX transforms work on MindJAX Cells
    g = jax.grad(lambda x: net(x).sum())(jnp.ones((1, 3), jnp.float32))
    assert g.shape == (1, 3)


def test_parameter_is_a_tensor_and_crosses_jax_transforms():
    p = ms.Parameter(ms.Tensor(np.ones(3), ms.float32), name="w")
    assert isinstance(p, ms.Tensor)
    out = jax.jit(lambda w: w * 3)(p)
    np.testing.assert_allclose(out.asnumpy(), [3.0, 3.0, 3.0])


def test_asnumpy_inside_jit_explains_why_it_cannot():
    with pytest.raises(TypeError, match="asnumpy.*traced"):
        jax.jit(lambda a: a.asnumpy())(ms.Tensor([1.0]))


# --- construction and dtype rules --------------------------------------------------------------

def test_python_and_numpy_data_follow_mindspore_dtype_rules():
    assert ms.Tensor([1, 2]).dtype == ms.int64
    assert ms.Tensor(1).dtype == ms.int64
    assert ms.Tensor(1.0).dtype == ms.float32
    assert ms.Tensor([1.5, 2]).dtype == ms.float32
    assert ms.Tensor(True).dtype == ms.bool_
    assert ms.Tensor(np.ones(2)).dtype == ms.float64
    assert ms.Tensor(np.ones(2, np.int64)).dtype == ms.int64
    assert ms.Tensor(np.ones(2, np.float16)).dtype == ms.float16
    assert ms.Tensor(3, ms.float16).dtype == ms.float16


def test_ops_defaults_stay_32_bit():
    assert ops.ones((2,)).dtype == ms.float32
    assert (ms.Tensor([1.0]) * 2.5).dtype == ms.float32


def test_constructor_accepts_shape_and_init_and_rejects_neither():
    from mindjax.common.initializer import One
    t = ms.Tensor(shape=(2, 2), dtype=ms.float16, init=One())
    assert t.dtype == ms.float16 and t.asnumpy().tolist() == [[1.0, 1.0], [1.0, 1.0]]
    with pytest.raises(ValueError, match="input_data"):
        ms.Tensor()
    with pytest.raises(TypeError, match="numeric"):
        ms.Tensor(["a", "b"])


def test_tensor_function_and_from_numpy():
    assert ms.tensor([1, 2]).dtype == ms.int64
    t = ms.Tensor.from_numpy(np.arange(3, dtype=np.int32))
    assert t.dtype == ms.int32
    with pytest.raises(TypeError, match="numpy.ndarray"):
        ms.Tensor.from_numpy([1, 2])


def test_dtypes_print_as_mindspore_and_work_where_jax_takes_a_dtype():
    assert str(ms.float32) == "Float32" and repr(ms.int64) == "mindspore.int64"
    assert str(ms.Tensor([1.0]).dtype) == "Float32"
    assert jnp.zeros(2, ms.int64).dtype == jnp.int64
    assert np.dtype(ms.bool_) == np.bool_
    assert ms.float32 == jnp.float32 and jnp.ones(1, jnp.float32).dtype == ms.float32
    assert ms.float32 != ms.float16 and ms.float32 != 1
    assert {ms.float32: 1}[ms.float32] == 1


# --- printing ------------------------------------------------------------------------------------

@pytest.mark.parametrize("data, dtype, text", [
    ([1.0, 2.0], np.float32, "Tensor(shape=[2], dtype=Float32, value= [ 1.00000000e+00,  2.00000000e+00])"),
    ([1.5, -2.0], np.float16, "Tensor(shape=[2], dtype=Float16, value= [ 1.5000e+00, -2.0000e+00])"),
    ([1, 2], np.int64, "Tensor(shape=[2], dtype=Int64, value= [1, 2])"),
    ([True, False], np.bool_, "Tensor(shape=[2], dtype=Bool, value= [ True, False])"),
    (3.5, np.float32, "Tensor(shape=[], dtype=Float32, value= 3.5)"),
    (1.0, np.float32, "Tensor(shape=[], dtype=Float32, value= 1)"),
    ([np.nan, np.inf, 0.0], np.float32,
     "Tensor(shape=[3], dtype=Float32, value= [            nan,             inf,  0.00000000e+00])"),
    ([], np.float32, "Tensor(shape=[0], dtype=Float32, value= )"),
])
def test_repr_is_mindspores(data, dtype, text):
    assert repr(ms.Tensor(np.array(data, dtype))) == text


def test_repr_of_matrices_and_long_tensors():
    assert repr(ms.Tensor(np.arange(6).reshape(2, 3).astype(np.int32))) == (
        "Tensor(shape=[2, 3], dtype=Int32, value=\n[[0, 1, 2],\n [3, 4, 5]])")
    long = repr(ms.Tensor(np.arange(2000, dtype=np.float32)))
    assert long.startswith("Tensor(shape=[2000], dtype=Float32, value= [ 0.00000000e+00,  1.00000000e+00, "
                           " 2.00000000e+00 ...  1.99700000e+03,")


def test_str_prints_the_values_as_numpy():
    assert str(ms.Tensor(np.array([1.0, 2.0], np.float32))) == "[1. 2.]"
    assert f"{ms.Tensor(2.5):.1f}" == "2.5"


# --- in-place writes and aliasing ------------------------------------------------------------------

def test_setitem_with_ints_slices_tuples_masks_and_index_tensors():
    t = ms.Tensor(np.zeros((3, 4), np.float32))
    t[0] = 1.0
    t[1, 1:3] = 2.0
    t[(2, 0)] = 3.0
    t[ms.Tensor([2])] = t[2] + 1
    assert t.asnumpy().tolist() == [[1, 1, 1, 1], [0, 2, 2, 0], [4, 1, 1, 1]]
    t[t > 1.5] = -1.0
    assert t.asnumpy().tolist() == [[1, 1, 1, 1], [0, -1, -1, 0], [-1, 1, 1, 1]]


def test_aliases_see_in_place_writes_and_rebinding_operators_do_not_write():
    a = ms.Tensor(np.array([1.0, 2.0, 3.0], np.float32))
    b = a
    a[1] = 9.0
    assert b.tolist() == [1.0, 9.0, 3.0]
    a += 1  # MindSpore rebinds `a` to a new Tensor: b keeps its value
    assert b.tolist() == [1.0, 9.0, 3.0] and a.tolist() == [2.0, 10.0, 4.0]
    b.assign_value(ms.Tensor([0.0, 0.0, 0.0]))
    c = b.copy()
    b.set_dtype(ms.int32)
    assert b.dtype == ms.int32 and c.dtype == ms.float32


def test_in_place_methods_write_into_the_tensor():
    t = ms.Tensor(np.array([1.0, -2.0], np.float32))
    alias = t
    t.add_(1.0).mul_(2.0)
    assert alias.tolist() == [4.0, -2.0]
    t.clamp_(min=0.0)
    assert alias.tolist() == [4.0, 0.0]
    t.zero_()
    assert alias.tolist() == [0.0, 0.0]


class _WritesInput(nn.Cell):
    def construct(self, x):
        x[0] = 5.0
        y = x * 1
        y[1] = -1.0
        y[y > 4] = 0.0
        return y


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
def test_in_place_writes_in_construct_work_in_both_modes(mode):
    ms.set_context(mode=mode)
    try:
        x = ms.Tensor(np.array([1.0, 2.0, 3.0], np.float32))
        out = _WritesInput()(x)
        assert out.tolist() == [0.0, -1.0, 3.0]
        assert x.tolist() == [5.0, 2.0, 3.0]  # the write to the input is written back
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)


def test_traced_mask_assignment_of_a_tensor_names_the_problem():
    @ms.jit
    def f(x):
        x[x > 0] = x * 2
        return x

    with pytest.raises(IndexError, match="bool mask"):
        f(ms.Tensor(np.array([1.0, -1.0], np.float32)))


# --- MindSpore's method set and results ---------------------------------------------------------------

def test_sort_returns_values_and_int32_indices():
    values, indices = ms.Tensor(np.array([3.0, 1.0, 2.0], np.float32)).sort()
    assert values.tolist() == [1.0, 2.0, 3.0] and indices.tolist() == [1, 2, 0]
    assert indices.dtype == ms.int32


def test_nonzero_is_a_2d_index_tensor():
    idx = ms.Tensor(np.array([[0, 1], [2, 0]])).nonzero()
    assert idx.shape == (2, 2) and idx.tolist() == [[0, 1], [1, 0]] and idx.dtype == ms.int64
    rows, cols = ms.Tensor(np.array([[0, 1], [2, 0]])).nonzero(as_tuple=True)
    assert rows.tolist() == [0, 1]


def test_reductions_take_mindspores_keywords_and_overloads():
    t = ms.Tensor(np.array([[3.0, 1.0, 2.0], [0.0, 5.0, 4.0]], np.float32))
    assert t.mean(axis=1, keep_dims=True).shape == (2, 1)
    assert t.mean(1, True).shape == (2, 1)
    assert t.sum(dim=1, keepdim=True).tolist() == [[6.0], [9.0]]
    assert t.max().item() == 5.0
    assert t.max(axis=0).tolist() == [3.0, 5.0, 4.0]
    values, indices = t.max(0)
    assert values.tolist() == [3.0, 5.0, 4.0] and indices.tolist() == [0, 1, 1]
    assert ms.Tensor(np.array([1, 2], np.int32)).sum().dtype == ms.int64
    assert t.argmax().dtype == ms.int64 and t.argmin().dtype == ms.int32


def test_shape_methods_take_varargs_and_tuples():
    t = ms.Tensor(np.arange(6, dtype=np.float32))
    assert t.view(2, 3).shape == (2, 3) and t.view((3, 2)).shape == (3, 2)
    assert t.reshape(-1, 2).shape == (3, 2)
    m = t.reshape(2, 3)
    assert m.transpose().shape == (3, 2) and m.permute(1, 0).shape == (3, 2)
    assert [p.shape for p in m.split(1)] == [(1, 3), (1, 3)]
    assert [p.shape for p in m.chunk(2, 1)] == [(2, 2), (2, 1)]
    assert m.expand_dims(0).shape == (1, 2, 3) and m.unsqueeze(0).shape == (1, 2, 3)
    assert ms.Tensor([1.0, 2.0, 3.0]).expand_as(m).shape == (2, 3)
    assert m.new_zeros((4,)).dtype == ms.float32 and m.new_zeros((4,)).shape == (4,)


def test_topk_gather_fill_clamp_and_strides():
    t = ms.Tensor(np.array([[3.0, 1.0, 2.0], [0.0, 5.0, 4.0]], np.float32))
    values, indices = t.topk(2)
    assert values.tolist() == [[3.0, 2.0], [5.0, 4.0]] and indices.tolist() == [[0, 2], [1, 2]]
    assert t.gather(ms.Tensor([1, 0]), 0).tolist() == [[0.0, 5.0, 4.0], [3.0, 1.0, 2.0]]
    assert t.fill(1.0).tolist() == [[1.0] * 3] * 2
    assert t.clamp(1.0, 3.0).tolist() == [[3.0, 1.0, 2.0], [1.0, 3.0, 3.0]]
    assert t.strides == (12, 4) and t.stride() == (3, 1)


def test_methods_missing_from_mindspore_are_attribute_errors():
    t = ms.Tensor([1.0])
    assert not hasattr(t, "sharding")
    assert hasattr(t, "asnumpy") and hasattr(t, "numpy")


def test_integer_tensor_arithmetic_follows_mindspore_promotion():
    i = ms.Tensor([1, 2])
    assert (i + 1.5).dtype == ms.float32
    assert (i / i).dtype == ms.float32
    assert (ms.Tensor([True]) + 1).dtype == ms.int64
    assert (i * 2).dtype == ms.int64
    assert (ms.Tensor([1.0], ms.float16) + 1.5).dtype == ms.float16
    assert (i + ms.Tensor([1.0])).dtype == ms.float32


def test_arithmetic_and_ordering_convert_tuples_and_lists():
    t = ms.Tensor(np.ones((2, 2), np.float32))
    assert (t + (1, 2)).tolist() == [[2.0, 3.0], [2.0, 3.0]]
    assert (t < [2, 0]).tolist() == [[True, False], [True, False]]
    assert (t == None) is False  # noqa: E711 - MindSpore's comparison with None


@pytest.mark.parametrize("mode", ["pynative", "graph"])
def test_a_tensor_never_equals_a_python_sequence(mode):
    # MindSpore 2.10: ``t == (1, 2)`` is the Python bool False (``!=`` True), not an element-wise compare.
    ms.set_context(mode=ms.GRAPH_MODE if mode == "graph" else ms.PYNATIVE_MODE)
    t = ms.Tensor(np.ones((2, 2), np.float32))
    assert (t == (1, 2)) is False and (t == [1, 1]) is False
    assert (t != (1, 2)) is True and (t != [1, 1]) is True


def test_one_element_tensors_of_any_rank_convert_to_python_scalars():
    assert int(ms.Tensor([3.7])) == 3
    assert float(ms.Tensor([[2]])) == 2.0
    assert bool(ms.Tensor([[0]])) is False
    assert complex(ms.Tensor([1.5])) == 1.5 + 0j
    with pytest.raises(TypeError):
        float(ms.Tensor([1.0, 2.0]))


def test_bool_dtype_prints_as_mindspore_does():
    assert repr(ms.bool_) == "mindspore.bool" and str(ms.bool_) == "Bool"
    assert repr(ms.Tensor([1.0]).bool().dtype) == "mindspore.bool"


# --- hooks ----------------------------------------------------------------------------------------------

def test_register_hook_on_an_input_sees_and_replaces_its_gradient_until_removed():
    seen = []
    x = ms.Tensor(np.array([1.0, 2.0], np.float32))
    handle = x.register_hook(lambda g: seen.append(g.asnumpy().tolist()) or g * 2)
    assert ms.grad(lambda v: (v * v).sum())(x).tolist() == [4.0, 8.0]
    assert seen == [[2.0, 4.0]]
    handle.remove()
    assert ms.grad(lambda v: (v * v).sum())(x).tolist() == [2.0, 4.0]


def test_register_hook_on_an_intermediate_tensor_scales_the_gradient_through_it():
    def f(x):
        y = x * 3
        y.register_hook(lambda g: g * 10)
        return y.sum()

    assert ms.grad(f)(ms.Tensor(np.array([1.0, 2.0], np.float32))).tolist() == [30.0, 30.0]
    with pytest.raises(TypeError, match="'hook' must be a function"):
        ms.Tensor([1.0]).register_hook(3)


class _TwoWeights(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w1 = ms.Parameter(ms.Tensor(np.array([1.0, 2.0], np.float32)), name="w1")
        self.w2 = ms.Parameter(ms.Tensor(np.array([1.0, 2.0], np.float32)), name="w2")

    def construct(self, x):
        unused = x * self.w2  # noqa: F841 - w2 gets a zero gradient
        return x * self.w1


def test_hooks_on_parameters_see_their_whole_gradient_even_when_it_is_zero(mode):
    net = _TwoWeights()
    seen = []
    net.w1.register_hook(lambda g: g * 2)
    net.w2.register_hook(lambda g: seen.append(g.shape))  # in GRAPH mode hooks see traced values
    g1, g2 = ms.ops.GradOperation(get_by_list=True)(net, net.trainable_params())(
        ms.Tensor(np.array([3.0, 4.0], np.float32)))
    assert g1.tolist() == [6.0, 8.0] and g2.tolist() == [0.0, 0.0]
    assert seen == [(2,)]


def test_a_hook_removed_before_the_backward_pass_does_not_run():
    def f(x):
        y1, y2 = ms.ops.split(x, 2)
        y1.register_hook(lambda g: g * 2)
        handle = y1.register_hook(lambda g: g * 3)
        y2.register_hook(lambda g: g * 3)
        assert len(y1.hooks()) == 2 and len(y2.hooks()) == 1
        handle.remove()
        assert len(y1.hooks()) == 1
        return y1 + y2

    g = ms.ops.GradOperation()(f)(ms.Tensor(np.arange(4, dtype=np.float32)))
    assert g.tolist() == [2.0, 2.0, 3.0, 3.0]


def test_hooks_lists_a_leafs_live_hooks_and_runs_them_in_registration_order():
    x = ms.Tensor(np.array([1.0], np.float32))
    calls = []
    first = x.register_hook(lambda g: calls.append("first") or g + 1)
    x.register_hook(lambda g: calls.append("second") or g * 10)
    assert len(x.hooks()) == 2
    assert ms.grad(lambda v: v * 2)(x).tolist() == [30.0]  # (2 + 1) * 10
    assert calls == ["first", "second"]
    first.remove()
    assert len(x.hooks()) == 1
    assert ms.Tensor([1.0]).hooks() == []


def test_a_parameter_that_requires_no_grad_takes_no_hook():
    p = ms.Parameter(ms.Tensor(np.array([2.0], np.float32)), requires_grad=False)
    with pytest.raises(RuntimeError, match="requires grad is false, which can not register tensor hook"):
        p.register_hook(lambda g: g)


def test_a_built_in_construct_called_directly_returns_tensors():
    out = nn.ReLU().construct(ms.Tensor(np.array([-1.0, 2.0], np.float32)))
    assert type(out) is ms.Tensor and out.tolist() == [0.0, 2.0]


@pytest.mark.parametrize("call, message", [
    (lambda x: x + "ok", 'Failed calling Add with "Add()(input=Tensor, other=string)"'),
    (lambda x: "ok" + x, 'Failed calling Add with "Add()(input=string, other=Tensor)"'),
    (lambda x: x * {"a": 1}, "Failed calling Mul with \"Mul()(input=Tensor, other=<class 'dict'>)\""),
    (lambda x: x / None, "Failed calling Div with \"Div()(input=Tensor, other=<class 'NoneType'>)\""),
])
def test_arithmetic_with_a_non_number_raises_mindspore_signature_error(call, message):
    x = ms.Tensor(np.ones((2, 3), np.float32))
    with pytest.raises(TypeError) as info:
        call(x)
    assert message in str(info.value)
    assert "(input=<Number, Tensor>, other=<Number, Tensor>)" in str(info.value)


def test_arithmetic_leaves_other_objects_their_reflected_method():
    class Other:
        def __radd__(self, tensor):
            return "reflected"

    assert ms.Tensor(np.ones(2, np.float32)) + Other() == "reflected"


def test_a_one_element_integer_or_bool_tensor_of_any_rank_indexes_a_list_as_in_mindspore():
    # MindSpore 2.10, measured: Tensor(1), Tensor([1]) and Tensor([[1]]) all index [10, 20, 30] to 20.
    from mindjax import Tensor
    for index in (Tensor(1), Tensor([1]), Tensor([[1]]), Tensor(True)):
        assert [10, 20, 30][index] == 20
    assert [10, 20][Tensor(np.array([1], np.int32))] == 20


def test_a_tensor_of_several_elements_or_floats_is_not_an_index_as_in_mindspore():
    from mindjax import Tensor
    with pytest.raises(ValueError, match=r"Only integer tensors of a single element .* shape \(2,\)"):
        [10, 20, 30][Tensor([1, 2])]
    with pytest.raises(ValueError, match=r"Only integer tensors of a single element .* Float32"):
        [10, 20, 30][Tensor([1.0])]
