"""mindjax.common.casting: MindSpore's CPU values of float-to-integer casts and its gradient through casts."""
from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np

import mindjax
from mindjax.common.casting import cast_array, integer_casts_differentiable, integer_casts_plain


def test_out_of_range_floats_wrap_through_int32() -> None:
    x = jnp.asarray([-230.0, 370.0, 1e10, float("nan")], jnp.float32)
    np.testing.assert_array_equal(np.asarray(cast_array(x, jnp.uint8)), [26, 114, 0, 0])
    np.testing.assert_array_equal(np.asarray(cast_array(x, jnp.int32)), [-230, 370, -2**31, -2**31])


def test_half_precision_input_casts_like_float32() -> None:
    x = jnp.asarray([-1.5, 300.0], jnp.float16)
    np.testing.assert_array_equal(np.asarray(cast_array(x, jnp.uint8)), [255, 44])


def test_cast_keeps_dtype_outside_a_gradient() -> None:
    with integer_casts_differentiable() as record:
        out = cast_array(jnp.asarray([1.7]), jnp.int32)
    assert out.dtype == jnp.int32 and record.used == 0  # concrete arrays are never rewritten


def test_traced_cast_inside_the_context_carries_the_gradient() -> None:
    def loss(x: jax.Array) -> jax.Array:
        return (cast_array(x, jnp.int32) * x).sum()
    with integer_casts_differentiable() as record:
        g = jax.grad(loss)(jnp.asarray([1.5, -2.3]))
    assert record.used == 1
    np.testing.assert_allclose(np.asarray(g), [2.0, -4.0])  # 1 + 1, -2 + -2: the int's share truncated


def test_plain_context_switches_the_rule_off() -> None:
    def loss(x: jax.Array) -> jax.Array:
        return cast_array(x, jnp.int32).astype(jnp.float32).sum()
    with integer_casts_differentiable(), integer_casts_plain():
        g = jax.grad(loss)(jnp.asarray([1.5, -2.3]))
    np.testing.assert_array_equal(np.asarray(g), [0.0, 0.0])


def test_ms_grad_of_byte_sum_is_ones() -> None:
    g = mindjax.grad(lambda x: x.byte().sum())(mindjax.Tensor(np.array([1.5, 2.5], np.float32)))
    np.testing.assert_array_equal(g.asnumpy(), [1.0, 1.0])


def test_integer_use_after_cast_falls_back_to_zero_gradient() -> None:
    x = mindjax.Tensor(np.array([0.5, 1.5, 2.5], np.float32))
    g = mindjax.grad(lambda x: ((x.int() << 1).astype(mindjax.float32) * x).sum())(x)
    np.testing.assert_array_equal(g.asnumpy(), [0.0, 2.0, 4.0])  # the shift needs ints: d/dx only of x


def test_cast_inside_grad_still_reports_the_error_of_a_broken_function() -> None:
    x = mindjax.Tensor(np.array([0.5, 1.5], np.float32))
    try:
        mindjax.grad(lambda x: x.int().sum() + x.reshape(3).sum())(x)
    except (ValueError, TypeError) as err:
        assert "reshape" in str(err).lower() or "shape" in str(err).lower()
    else:
        raise AssertionError("a reshape of 2 elements to 3 must fail")
