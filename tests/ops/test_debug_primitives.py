"""Assert, CheckNumerics, Morph and PyFunc: checks and user functions as Primitives, eager and compiled."""
import jax
import jax.numpy as jnp
import numpy as np
import pytest

import mindjax as ms
from mindjax import ops


def test_assert_passes_a_true_condition_and_returns_the_int32_placeholder():
    out = ops.Assert()(ms.Tensor(True), [ms.Tensor(np.ones(2))])
    assert out.shape == (1,) and out.dtype == ms.int32


def test_assert_raises_showing_summarize_elements_of_each_input():
    with pytest.raises(RuntimeError, match=r"For 'Assert', condition is false.\ninput data: \[0. 1.\]$"):
        ops.Assert(2)(ms.Tensor(False), [ms.Tensor(np.arange(5.0))])


def test_assert_in_compiled_code_fails_when_the_step_runs():
    f = jax.jit(lambda x: ops.Assert()(x.sum() > 0, [x]))
    f(jnp.ones(2)).block_until_ready()
    with pytest.raises(Exception, match="condition is false"):
        f(-jnp.ones(2)).block_until_ready()
        jax.effects_barrier()


def test_assert_checks_its_arguments():
    with pytest.raises(TypeError, match=r"For 'Assert', 'summarize' must be an int, got float"):
        ops.Assert(2.0)
    with pytest.raises(TypeError, match=r"the 'condition' must be a bool Tensor, but got int"):
        ops.Assert()(ms.Tensor(1), [ms.Tensor(np.ones(2))])
    with pytest.raises(ValueError, match=r"the 'condition' must be 0-d or of shape \(1,\), but got shape \(2,\)"):
        ops.Assert()(ms.Tensor(np.array([True, True])), [])
    with pytest.raises(TypeError, match=r"the 'input_data' must be a list or tuple of Tensors, but got Tensor"):
        ops.Assert()(ms.Tensor(True), ms.Tensor(1.0))


def test_check_numerics_returns_finite_input_and_rejects_nan_and_inf():
    x = ms.Tensor(np.array([1.0, 2.0], np.float32))
    np.testing.assert_array_equal(ops.CheckNumerics()(x).asnumpy(), [1.0, 2.0])
    with pytest.raises(RuntimeError, match=r"For 'CheckNumerics', the Tensor had Inf values"):
        ops.CheckNumerics()(ms.Tensor(np.array([1.0, np.inf], np.float32)))
    with pytest.raises(RuntimeError, match="had NaN values"):
        ops.CheckNumerics()(ms.Tensor(np.array([np.nan], np.float32)))
    with pytest.raises(TypeError, match=r"For 'CheckNumerics', the 'x' must be a float16, float32 or float64 Tensor, "
                                        r"but got int32"):
        ops.CheckNumerics()(ms.Tensor(np.array([1, 2], np.int32)))


def test_check_numerics_in_compiled_code_fails_at_run_time():
    f = jax.jit(lambda x: ops.CheckNumerics()(x) * 2)
    np.testing.assert_array_equal(np.asarray(f(jnp.ones(2))), [2.0, 2.0])
    with pytest.raises(Exception, match="had NaN values"):
        f(jnp.array([jnp.nan])).block_until_ready()
        jax.effects_barrier()


def test_morph_runs_fn_and_uses_bprop_fn_for_the_gradient():
    morph = ops.Morph(lambda x, y: x * y, lambda a, b: a, lambda a, b: a,
                      bprop_fn=lambda x, y, out, dout: (dout * 10, dout * 20))
    assert float(morph(ms.Tensor(2.0), ms.Tensor(3.0))) == 6.0
    gx, gy = ms.grad(lambda x, y: morph(x, y), grad_position=(0, 1))(ms.Tensor(2.0), ms.Tensor(3.0))
    assert (float(gx), float(gy)) == (10.0, 20.0)
    assert morph.attrs["__metamorphosis__"] is True


def test_morph_without_bprop_is_differentiated_through_fn():
    morph = ops.Morph(lambda x: x * x, lambda a: a, lambda a: a)
    assert float(jax.grad(lambda x: morph(x))(3.0)) == 6.0


def test_morph_rejects_fn_with_defaults_when_bprop_is_given():
    with pytest.raises(ValueError, match=r"Morph `fn` only support positional or keyword parameters.*'y'"):
        ops.Morph(lambda x, y=1: x, lambda a: a, lambda a: a, bprop_fn=lambda x, y, out, dout: (dout, dout))
    with pytest.raises(TypeError, match=r"For 'Morph', 'infer_shape' must be callable, but got int"):
        ops.Morph(lambda x: x, 1, lambda a: a)


def _add_mul(x, y):
    assert isinstance(x, np.ndarray)
    return x + y, x * y


def test_py_func_runs_the_python_function_eagerly_and_compiled():
    op = ops.PyFunc(_add_mul, [ms.float32, ms.float32], [(2,), (2,)], [ms.float32, ms.float32], [(2,), (2,)])
    args = (ms.Tensor(np.ones(2, np.float32)), ms.Tensor(np.full(2, 3, np.float32)))
    for fn in (op, ms.jit(lambda a, b: op(a, b))):
        total, product = fn(*args)
        np.testing.assert_array_equal(total.asnumpy(), [4.0, 4.0])
        np.testing.assert_array_equal(product.asnumpy(), [3.0, 3.0])


def test_py_func_with_one_output_returns_a_one_tuple_and_stateless_is_a_pure_callback():
    op = ops.PyFunc(lambda x: x * 2, [ms.float32], [(2,)], [ms.float32], [(2,)], stateful=False)
    out = op(ms.Tensor(np.ones(2, np.float32)))
    assert isinstance(out, tuple) and len(out) == 1
    assert "pure_callback" in str(jax.make_jaxpr(lambda x: op(x))(jnp.ones(2, jnp.float32)))


def test_py_func_checks_its_description_and_inputs():
    with pytest.raises(ValueError, match=r"For 'PyFunc', the in_types length should be = in_shapes length: 2, "
                                         r"but got 1"):
        ops.PyFunc(_add_mul, [ms.float32], [(2,), (3,)], [ms.float32], [(2,)])
    with pytest.raises(TypeError, match=r"the type of 'in_types' should be one of \['list', 'tuple'\], but got Type"):
        ops.PyFunc(_add_mul, ms.float32, [(2,)], [ms.float32], [(2,)])
    op = ops.PyFunc(lambda x: x, [ms.float32], [(2,)], [ms.float32], [(2,)])
    with pytest.raises(ValueError, match=r"input 0 must be float32 of shape \(2,\).*but got float32 of shape \(3,\)"):
        op(ms.Tensor(np.ones(3, np.float32)))
