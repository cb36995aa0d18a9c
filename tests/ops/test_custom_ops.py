"""ops.Custom: pyfunc (a numpy function through a host callback) and pallas (a Pallas kernel), with bprop."""
import jax
import jax.numpy as jnp
import numpy as np
import pytest
from jax.experimental import pallas as pl

import mindjax as ms
from mindjax import nn, ops


@pytest.fixture(params=[ms.PYNATIVE_MODE, ms.GRAPH_MODE], ids=["pynative", "graph"])
def mode(request):
    ms.set_context(mode=request.param)
    yield request.param
    ms.set_context(mode=ms.PYNATIVE_MODE)


def _x(*shape, seed=0):
    return ms.Tensor(np.random.default_rng(seed).standard_normal(shape).astype(np.float32))


# -- pyfunc --------------------------------------------------------------------------------------
def test_pyfunc_runs_numpy_on_numpy_arrays_with_shape_and_dtype_functions():
    seen = []

    def mul(a, b):
        seen.append((type(a), type(b)))
        return a * b

    op = ops.Custom(mul, out_shape=lambda a, _: a, out_dtype=lambda a, _: a, func_type="pyfunc")
    x, y = _x(3, 4), _x(3, 4, seed=1)
    out = op(x, y)
    assert isinstance(out, ms.Tensor) and out.dtype == ms.float32 and out.shape == (3, 4)
    np.testing.assert_allclose(out.asnumpy(), x.asnumpy() * y.asnumpy(), rtol=1e-6)
    assert seen == [(np.ndarray, np.ndarray)]


def test_pyfunc_values_for_shape_and_dtype_and_several_outputs():
    op = ops.Custom(lambda a: (a + 1, (a * 2).astype(np.int32)), out_shape=((3,), (3,)),
                    out_dtype=(ms.float32, ms.int32), func_type="pyfunc")
    first, second = op(ms.Tensor(np.array([1.0, 2.0, 3.0], np.float32)))
    assert first.asnumpy().tolist() == [2.0, 3.0, 4.0]
    assert second.dtype == ms.int32 and second.asnumpy().tolist() == [2, 4, 6]


def test_pyfunc_bprop_gives_gradients_in_both_modes(mode):
    op = ops.Custom(lambda a, b: a * b, out_shape=lambda a, _: a, out_dtype=lambda a, _: a,
                    bprop=lambda a, b, out, dout: (b * dout * 2, a * dout))
    x, y = _x(5), _x(5, seed=1)
    gx, gy = ms.grad(lambda a, b: op(a, b).sum(), grad_position=(0, 1))(x, y)
    np.testing.assert_allclose(gx.asnumpy(), 2 * y.asnumpy(), rtol=1e-6)
    np.testing.assert_allclose(gy.asnumpy(), x.asnumpy(), rtol=1e-6)
    assert op.get_bprop() is not None


def test_pyfunc_inside_a_cell_trains_through_bprop():
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.fc = nn.Dense(4, 3)
            self.cube = ops.Custom(lambda a: a ** 3, out_shape=lambda s: s, out_dtype=lambda d: d,
                                   bprop=lambda a, out, dout: (3 * a * a * dout,))

        def construct(self, x):
            return self.cube(self.fc(x)).sum()

    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        net = Net()
        x = _x(2, 4)
        grads = ms.grad(net, grad_position=None, weights=net.trainable_params())(x)
        w, b = net.fc.weight.asnumpy(), net.fc.bias.asnumpy()
        h = x.asnumpy() @ w.T + b
        np.testing.assert_allclose(grads[1].asnumpy(), (3 * h * h).sum(0), rtol=1e-5)
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)


def test_pyfunc_without_bprop_names_the_op_when_differentiated():
    op = ops.Custom(np.sin, out_shape=lambda s: s, out_dtype=lambda d: d)
    with pytest.raises(ValueError, match=r"For 'Custom', 'func_type': pyfunc.*sin.*without 'bprop'.*pass bprop"):
        ms.grad(lambda a: op(a).sum())(_x(3))


def test_pyfunc_output_of_the_wrong_shape_is_an_error_naming_expected_and_got():
    op = ops.Custom(lambda a: a[:2], out_shape=lambda s: s, out_dtype=lambda d: d)
    with pytest.raises(Exception, match=r"output 0 of 'func' has shape \(2,\), but 'out_shape' declares \(3,\)"):
        op(_x(3)).asnumpy()


# -- pallas --------------------------------------------------------------------------------------
def softmax_kernel(x_ref, o_ref):
    x = x_ref[...]
    e = jnp.exp(x - jnp.max(x, axis=-1, keepdims=True))
    o_ref[...] = e / jnp.sum(e, axis=-1, keepdims=True)


def softmax_grad_kernel(y_ref, dy_ref, dx_ref):
    y, dy = y_ref[...], dy_ref[...]
    dx_ref[...] = y * (dy - jnp.sum(dy * y, axis=-1, keepdims=True))


_SOFTMAX_GRAD = ops.Custom(softmax_grad_kernel, out_shape=lambda y, _: y, out_dtype=lambda y, _: y,
                           func_type="pallas")
PALLAS_SOFTMAX = ops.Custom(softmax_kernel, out_shape=lambda s: s, out_dtype=lambda d: d, func_type="pallas",
                            bprop=lambda x, out, dout: (_SOFTMAX_GRAD(out, dout),))


def test_pallas_softmax_kernel_matches_ops_softmax_values_and_gradients(mode):
    x = _x(8, 16)
    weights = ms.Tensor(np.linspace(-1, 1, 16).astype(np.float32))
    np.testing.assert_allclose(PALLAS_SOFTMAX(x).asnumpy(), ops.softmax(x, axis=-1).asnumpy(), rtol=1e-5,
                               atol=1e-6)
    ours = ms.grad(lambda a: (PALLAS_SOFTMAX(a) * weights).sum())(x)
    ref = ms.grad(lambda a: (ops.softmax(a, axis=-1) * weights).sum())(x)
    np.testing.assert_allclose(ours.asnumpy(), ref.asnumpy(), rtol=1e-5, atol=1e-6)


def test_pallas_kernel_takes_pallas_call_options_from_reg_info():
    def add_one_kernel(x_ref, o_ref):
        o_ref[...] = x_ref[...] + 1.0

    spec = pl.BlockSpec((2, 8), lambda i: (i, 0))
    op = ops.Custom(add_one_kernel, out_shape=lambda s: s, out_dtype=lambda d: d, func_type="pallas",
                    reg_info={"grid": (4,), "in_specs": [spec], "out_specs": spec})
    x = _x(8, 8)
    np.testing.assert_allclose(op(x).asnumpy(), x.asnumpy() + 1.0, rtol=1e-6)


def test_pallas_kernel_without_bprop_asks_for_one_in_reverse_mode():
    op = ops.Custom(softmax_kernel, out_shape=lambda s: s, out_dtype=lambda d: d, func_type="pallas")
    with pytest.raises(ValueError, match=r"'pallas' Custom op without 'bprop'.*pass bprop"):
        ms.grad(lambda a: op(a).sum())(_x(2, 4))


def test_pallas_accepts_plain_jax_arrays_and_returns_arrays():
    x = jnp.asarray(np.random.default_rng(0).standard_normal((4, 8)), jnp.float32)
    out = jax.jit(PALLAS_SOFTMAX)(x)
    assert isinstance(out, jax.Array)
    np.testing.assert_allclose(np.asarray(out), np.asarray(jax.nn.softmax(x)), rtol=1e-5, atol=1e-6)


# -- bad input -----------------------------------------------------------------------------------
@pytest.mark.parametrize("func_type", ["hybrid", "akg", "tbe", "aicpu", "aot"])
def test_mindspore_compiler_kinds_are_not_implemented_naming_what_is_supported(func_type):
    with pytest.raises(NotImplementedError, match=rf"func_type '{func_type}'.*supported func_type values are "
                                                  r"\['pyfunc', 'pallas'\]"):
        ops.Custom(np.sin, (3,), ms.float32, func_type=func_type)


def test_unknown_func_type_is_a_value_error_as_in_mindspore():
    with pytest.raises(ValueError, match=r"'func_type' must be one of \[.*'pyfunc', 'pallas'\], but got julia"):
        ops.Custom(np.sin, (3,), ms.float32, func_type="julia")


def test_bad_func_and_out_shape_are_type_errors_naming_the_argument():
    with pytest.raises(TypeError, match="'func' must be a function"):
        ops.Custom("lib.so:f", (3,), ms.float32)
    op = ops.Custom(np.sin, out_shape=3, out_dtype=ms.float32)
    with pytest.raises(TypeError, match=r"'out_shape' must be one of \[tuple, list, function\]"):
        op(_x(3))
    bad = ops.Custom(np.sin, out_shape=(3,), out_dtype=None)
    assert bad.fake_output  # MindSpore: no out_dtype means a side-effect function with a placeholder output


def test_pyfunc_without_out_dtype_runs_for_its_effect_and_returns_a_placeholder():
    seen = []
    op = ops.Custom(lambda a: seen.append(float(a.sum())), out_shape=(), out_dtype=())
    out = op(ms.Tensor(np.ones(3, np.float32)))
    assert out.shape == (1,) and out.dtype == ms.int32
    assert seen == [3.0]
