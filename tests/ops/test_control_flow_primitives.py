"""WhileLoop, ForiLoop and Scan: MindSpore's functional control-flow Primitives, eagerly (a Python loop)
and traced (one lax loop), with MindSpore's argument checks."""
import jax
import jax.numpy as jnp
import numpy as np
import pytest

import mindjax as ms
from mindjax import ops


def test_while_loop_runs_python_values_eagerly_as_mindspore():
    assert ops.WhileLoop()(lambda x: x < 100, lambda x: x + 1, 10) == 100


def test_while_loop_on_a_tensor_returns_a_tensor():
    out = ops.WhileLoop()(lambda x: x.sum() < 20, lambda x: x * 2, ms.Tensor(np.ones(3, np.float32)))
    assert isinstance(out, ms.Tensor)
    np.testing.assert_array_equal(out.asnumpy(), [8.0, 8.0, 8.0])


def test_while_loop_with_traced_condition_is_one_lax_while_loop():
    def f(x):
        return ops.WhileLoop()(lambda v: v[0].sum() < 100, lambda v: (v[0] * 2, v[1] + 1), (x, jnp.int32(0)))

    jaxpr = jax.make_jaxpr(f)(jnp.ones(3, jnp.float32))
    assert "while" in str(jaxpr)
    value, count = jax.jit(f)(jnp.ones(3, jnp.float32))
    np.testing.assert_array_equal(np.asarray(value), [64.0, 64.0, 64.0])
    assert int(count) == 6


def test_while_loop_under_ms_jit_gives_the_eager_result():
    @ms.jit
    def f(x):
        return ops.WhileLoop()(lambda v: v.sum() < 50, lambda v: v + 3, x)

    x = ms.Tensor(np.arange(3, dtype=np.float32))
    np.testing.assert_array_equal(f(x).asnumpy(), ops.WhileLoop()(lambda v: v.sum() < 50, lambda v: v + 3,
                                                                   x).asnumpy())


def test_while_loop_rejects_a_non_function_naming_the_argument():
    with pytest.raises(TypeError, match=r"For 'WhileLoop', the 'cond_func' must be a function, but got int"):
        ops.WhileLoop()(3, lambda x: x, 1)
    with pytest.raises(TypeError, match=r"'loop_func' must be a function, but got str"):
        ops.WhileLoop()(lambda x: x < 2, "f", 1)


def test_while_loop_wraps_loop_func_errors_in_value_error_as_mindspore():
    with pytest.raises(ValueError, match=r"For 'WhileLoop', invalid loop_func.*error info"):
        ops.WhileLoop()(lambda x: x < 3, lambda x: x + "a", 1)


def test_traced_while_loop_rejects_a_body_that_changes_the_shape():
    def f(x):
        return ops.WhileLoop()(lambda v: v.sum() < 10, lambda v: jnp.concatenate([v, v]), x)

    with pytest.raises(ValueError, match=r"keep the initial value's shapes: expected \(2,\), but got \(4,\)"):
        jax.jit(f)(jnp.ones(2))


def test_fori_loop_passes_the_index_and_returns_the_carry():
    assert ops.ForiLoop()(0, 5, lambda i, v: v + i, 0) == 10
    out = ops.ForiLoop()(1, 4, lambda i, v: v * i, ms.Tensor(1.0))
    assert float(out) == 6.0


def test_fori_loop_not_unrolled_under_jit_is_one_loop_and_differentiable():
    def f(x):
        return ops.ForiLoop()(0, 3, lambda i, v: v * x, x, unroll=False)

    assert "scan" in str(jax.make_jaxpr(f)(2.0))
    assert float(jax.jit(f)(2.0)) == 16.0
    assert float(jax.grad(f)(2.0)) == 32.0  # d/dx x**4


def test_fori_loop_with_tensor_bounds_under_jit():
    @jax.jit
    def f(n):
        return ops.ForiLoop()(0, n, lambda i, v: v + 2, jnp.float32(0))

    assert float(f(jnp.int32(4))) == 8.0


def test_fori_loop_checks_bounds_and_unroll():
    with pytest.raises(TypeError, match=r"For 'ForiLoop', the 'lower' must be an int or a Tensor, but got float"):
        ops.ForiLoop()(0.5, 3, lambda i, v: v, 0)
    with pytest.raises(TypeError, match=r"'upper' must be an integer scalar, but got a float32"):
        ops.ForiLoop()(0, ms.Tensor(np.float32(3)), lambda i, v: v, 0)
    with pytest.raises(TypeError, match=r"For 'ForiLoop', 'unroll' must be a bool, got int"):
        ops.ForiLoop()(0, 3, lambda i, v: v, 0, unroll=1)


def test_scan_returns_the_carry_and_a_list_of_outputs_as_mindspore():
    carry, ys = ops.Scan()(lambda c, x: (c + x, c * x), 0, [1, 2, 3])
    assert carry == 6 and ys == [0, 2, 9]


def test_scan_without_xs_runs_length_steps():
    carry, ys = ops.Scan()(lambda c, x: (c + 1, x), 0, None, length=3)
    assert carry == 3 and ys == [None, None, None]


def test_scan_not_unrolled_is_one_lax_scan_with_the_unrolled_result():
    xs = [ms.Tensor(np.full(2, i, np.float32)) for i in range(1, 4)]

    def body(c, x):
        return c + x, c * x

    want_c, want_ys = ops.Scan()(body, ms.Tensor(np.zeros(2, np.float32)), xs)
    got_c, got_ys = ops.Scan()(body, ms.Tensor(np.zeros(2, np.float32)), xs, unroll=False)
    np.testing.assert_array_equal(got_c.asnumpy(), want_c.asnumpy())
    assert len(got_ys) == 3
    for g, w in zip(got_ys, want_ys):
        np.testing.assert_array_equal(g.asnumpy(), w.asnumpy())
    jaxpr = jax.make_jaxpr(lambda c: ops.Scan()(body, c, [jnp.ones(2)] * 3, unroll=False))(jnp.zeros(2))
    assert "scan" in str(jaxpr)


def test_scan_of_empty_xs_returns_init_and_an_empty_list():
    assert ops.Scan()(lambda c, x: (c, x), 5, []) == (5, [])


def test_scan_checks_its_arguments_naming_them():
    with pytest.raises(TypeError, match=r"For 'Scan', the 'xs' must be a list, a tuple or None, but got int"):
        ops.Scan()(lambda c, x: (c, x), 0, 3)
    with pytest.raises(TypeError, match=r"the 'length' must be an int when 'xs' is None, but got NoneType"):
        ops.Scan()(lambda c, x: (c, x), 0, None)
    with pytest.raises(ValueError, match=r"For 'Scan', the return value of loop_func must be a tuple of two"):
        ops.Scan()(lambda c, x: c, 0, [1])


def test_traced_while_loop_is_reverse_differentiable():
    def f(x):
        out, _ = ops.WhileLoop()(lambda v: v[1] < 3, lambda v: (v[0] * x, v[1] + 1), (x, jnp.int32(0)))
        return out

    assert float(jax.jit(f)(2.0)) == 16.0
    assert "while" in str(jax.make_jaxpr(jax.grad(jax.jit(f)))(2.0))
    assert float(jax.grad(jax.jit(f))(2.0)) == 32.0  # d/dx x**4, through the compiled loop
