"""mindjax.ops.operations._grad_ops: each backward Primitive is its forward op's gradient, and checks its inputs."""
from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from mindjax.ops.operations import _grad_ops as G

X = np.array([-2.5, -0.4, 0.3, 1.7, 4.0], np.float32)
DY = np.array([0.5, -1.0, 2.0, 1.5, -0.5], np.float32)


@pytest.mark.parametrize("prim,forward,from_output,order", [
    (G.TanhGrad, jnp.tanh, True, "y_dy"), (G.SigmoidGrad, jax.nn.sigmoid, True, "y_dy"),
    (G.ReluGrad, jax.nn.relu, False, "dy_x"), (G.SoftplusGrad, jax.nn.softplus, False, "dy_x"),
    (G.SiLUGrad, jax.nn.silu, False, "dy_x"), (G.AtanGrad, jnp.arctan, False, "x_dy"),
    (G.FastGeLUGrad, lambda x: x * jax.nn.sigmoid(1.702 * x), False, "dy_x"),
])
def test_grad_primitive_is_the_vjp_of_its_forward(prim, forward, from_output, order) -> None:
    _, vjp = jax.vjp(forward, jnp.asarray(X))
    (want,) = vjp(jnp.asarray(DY))
    first = np.asarray(forward(jnp.asarray(X))) if from_output else X
    args = {"y_dy": (first, DY), "dy_x": (DY, first), "x_dy": (first, DY)}[order]
    np.testing.assert_allclose(np.asarray(prim()(*args)), np.asarray(want), rtol=1e-5, atol=1e-6)


def test_bias_add_grad_sums_all_but_channels() -> None:
    dout = np.ones((2, 3, 4, 5), np.float32)
    np.testing.assert_array_equal(np.asarray(G.BiasAddGrad()(dout)), [40.0, 40.0, 40.0])
    assert G.BiasAddGrad("NHWC")(dout).shape == (5,)
    with pytest.raises(ValueError, match="For 'BiasAddGrad', 'data_format' must be"):
        G.BiasAddGrad("HWC")


def test_bad_input_count_and_shapes_name_the_primitive() -> None:
    with pytest.raises(TypeError, match=r"For 'ReluGrad', expected 2 inputs \(y_backprop, x\), but got 1"):
        G.ReluGrad()(DY)
    with pytest.raises(ValueError, match="For 'TanhGrad', the inputs y, dy must have the same shape"):
        G.TanhGrad()(X, DY[:3])
    with pytest.raises(TypeError, match="For 'HShrinkGrad', 'lambd' must be a non-negative float"):
        G.HShrinkGrad(1)
