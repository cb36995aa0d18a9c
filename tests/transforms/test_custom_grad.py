"""Cell.bprop, recompute, stop_gradient, InsertGradientOf and HookBackward in both modes."""
import jax
import jax.numpy as jnp
import numpy as np
import pytest

import mindjax as ms
from mindjax import nn
from mindjax.common.random import next_key
from mindjax.transforms.custom_grad import HookBackward, InsertGradientOf, stop_gradient
from mindjax.transforms.grad import grad, value_and_grad

X = ms.Tensor([1.0, 2.0])
Y = ms.Tensor([3.0, 4.0])


def _close(a, b):
    np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=1e-6)


class Scaled(nn.Cell):
    """x * y * w with a custom rule: dx = dout * 10, dy = dout * out."""

    def __init__(self):
        super().__init__()
        self.w = ms.Parameter(ms.Tensor([2.0, 3.0]), name="w")

    def construct(self, x, y):
        return x * y * self.w

    def bprop(self, x, y, out, dout):
        return dout * 10, dout * out


class Outer(nn.Cell):
    def __init__(self):
        super().__init__()
        self.inner = Scaled()
        self.v = ms.Parameter(ms.Tensor([1.0, 1.0]), name="v")

    def construct(self, x, y):
        return self.inner(x * self.v, y).sum()


def test_bprop_replaces_the_input_gradients(mode):
    gx, gy = grad(Outer(), (0, 1))(X, Y)
    _close(gx, [10.0, 10.0])
    _close(gy, [6.0, 24.0])  # dout * out, out = x * y * w


def test_bprop_gives_the_cells_own_parameters_a_zero_gradient(mode):
    net = Outer()
    gv, gw = grad(net, None, net.trainable_params())(X, Y)
    _close(gv, [10.0, 20.0])  # flows through bprop's dx into x * v
    _close(gw, [0.0, 0.0])


def test_bprop_forward_value_is_construct(mode):
    value, _ = value_and_grad(Scaled(), 0)(X, Y)
    _close(value, [6.0, 24.0])


def test_bprop_may_return_a_single_gradient_for_a_single_input(mode):
    class Seven(nn.Cell):
        def construct(self, x):
            return x * 2

        def bprop(self, x, out, dout):
            return dout * 7

    _close(grad(lambda x: Seven()(x).sum())(X), [7.0, 7.0])


def test_bprop_with_a_constant_input_and_keyword(mode):
    class WithConst(nn.Cell):
        def construct(self, x, k, scale=None):
            return x * k * scale

        def bprop(self, x, k, out, dout):
            return dout * k, None

    _close(grad(lambda x: WithConst()(x, 3.0, scale=Y).sum())(X), [3.0, 3.0])


def test_bprop_with_the_wrong_number_of_gradients_names_the_cell(mode):
    class Bad(nn.Cell):
        def construct(self, x, y):
            return x * y

        def bprop(self, x, y, out, dout):
            return (dout,)

    class Holder(nn.Cell):
        def __init__(self):
            super().__init__()
            self.bad = Bad()

        def construct(self, x, y):
            return self.bad(x, y).sum()

    with pytest.raises(ValueError, match="For 'Bad' at 'bad', bprop's result must hold 2 gradient"):
        grad(Holder(), (0, 1))(X, Y)


def test_grad_of_grad_through_bprop(mode):
    class Square(nn.Cell):
        def construct(self, x):
            return x * x

        def bprop(self, x, out, dout):
            return (dout * 2 * x,)

    first = grad(lambda x: Square()(x).sum())
    _close(grad(lambda x: first(x).sum())(X), [2.0, 2.0])


def test_recompute_gives_the_same_gradient_and_checkpoints(mode):
    class Block(nn.Cell):
        def __init__(self):
            super().__init__()
            self.w = ms.Parameter(ms.Tensor([0.5, -1.0]), name="w")

        def construct(self, x):
            return jnp.sin((x * self.w).value()) * x  # jax.numpy takes the Tensor's array

    plain, remat = Block(), Block().recompute()
    expected = grad(lambda x: plain(x).sum(), 0, plain.trainable_params())(X)
    got = grad(lambda x: remat(x).sum(), 0, remat.trainable_params())(X)
    for a, b in zip(jax.tree_util.tree_leaves(got), jax.tree_util.tree_leaves(expected)):
        _close(a, b)
    ms.set_context(mode=ms.PYNATIVE_MODE)
    jaxpr = str(jax.make_jaxpr(lambda x: jax.grad(lambda z: remat(z).sum())(x))(jnp.asarray(X)))
    assert "remat" in jaxpr or "checkpoint" in jaxpr


def test_recompute_keeps_parameter_writes_and_the_random_key(mode):
    class Stat(nn.Cell):
        def __init__(self):
            super().__init__()
            self.mean = ms.Parameter(ms.Tensor([0.0, 0.0]), name="mean", requires_grad=False)

        def construct(self, x):
            self.mean = self.mean + x
            return x * jax.random.uniform(next_key(), ())

    net = Stat().recompute()
    grad(lambda x: net(x).sum())(X)
    _close(net.mean, X)
    assert not isinstance(net.mean._raw, jax.core.Tracer)


def test_stop_gradient_cuts_tensors_and_structures(mode):
    _close(grad(lambda x: (stop_gradient(x * 2) * x).sum())(X), [2.0, 4.0])
    a, b = stop_gradient((X, ms.Parameter(Y, name="p")))
    _close(b, Y)


def test_insert_gradient_of_applies_to_the_backward_only(mode):
    halve = InsertGradientOf(lambda g: g * 0.5)
    _close(halve(X), X)
    _close(grad(lambda x: (halve(x) * x).sum())(X), [1.5, 3.0])


def test_hook_backward_sees_and_replaces_the_gradient(mode):
    seen = []

    def hook(grads):
        jax.debug.callback(lambda g: seen.append(np.asarray(g)), grads[0])
        return grads[0] * 10

    tap = HookBackward(hook)
    _close(grad(lambda x: (tap(x * 2) * x).sum())(X), [22.0, 44.0])
    _close(seen[0], [1.0, 2.0])


def test_hook_backward_returning_none_keeps_the_gradient(mode):
    tap = HookBackward(lambda grads: None)
    _close(grad(lambda x: (tap(x) * 3).sum())(X), [3.0, 3.0])


def test_custom_grad_constructors_reject_non_callables():
    with pytest.raises(TypeError, match="'InsertGradientOf', 'f' must be callable"):
        InsertGradientOf(3)
    with pytest.raises(TypeError, match="'HookBackward', 'hook_fn' must be callable"):
        HookBackward(None)


def test_bprop_and_recompute_cells_run_converted_control_flow_in_graph_mode(mode):
    import mindjax as _ms
    from mindjax import nn as _nn

    class Clipped(_nn.Cell):
        def construct(self, x):
            if x.sum() > 0:
                y = x * 2
            else:
                y = x * 0
            return y

        def bprop(self, x, out, dout):
            return (dout * 3,)

    class Remat(_nn.Cell):
        def __init__(self):
            super().__init__()
            self.recompute()

        def construct(self, x):
            while x.sum() < 10:
                x = x * 2
            return x

    g = _ms.grad(lambda v: Clipped()(v).sum())(jnp.ones(2))
    np.testing.assert_allclose(g, [3.0, 3.0])
    np.testing.assert_allclose(Clipped()(jnp.ones(2)), [2.0, 2.0])
    np.testing.assert_allclose(Remat()(jnp.ones(2)), [8.0, 8.0])


# -- bprop results are fitted to the inputs, custom_vjp ------------------------------------------
class _AddWithBroadcastBprop(nn.Cell):
    def construct(self, x, y):
        return x + y

    def bprop(self, x, y, out, dout):
        g = ms.Tensor(np.array([[1, 1, 1], [1, 1, 1], [2, 2, 2]], np.int64))
        return g, g


def test_bprop_gradients_are_summed_to_the_input_shape_and_cast_to_its_dtype(mode):
    x = ms.Tensor(np.full(3, 3.0, np.float32))
    y = ms.Tensor(np.ones((3, 3), np.float32))
    gx, gy = ms.ops.GradOperation(get_all=True)(_AddWithBroadcastBprop())(x, y)
    assert gx.dtype == ms.float32 and gy.dtype == ms.float32
    np.testing.assert_allclose(gx.asnumpy(), [4.0, 4.0, 4.0])
    np.testing.assert_allclose(gy.asnumpy(), [[1, 1, 1], [1, 1, 1], [2, 2, 2]])


def test_bprop_gradient_that_is_no_broadcast_of_the_input_names_the_cell(mode):
    class Bad(nn.Cell):
        def construct(self, x):
            return x * 2

        def bprop(self, x, out, dout):
            return (ms.Tensor(np.ones((2, 4), np.float32)),)

    with pytest.raises(ValueError, match=r"Bad.*shape \(2, 4\) but the input has shape \(3,\)"):
        grad(Bad())(ms.Tensor(np.ones(3, np.float32)))


def test_custom_vjp_function_uses_its_backward_rule(mode):
    from mindjax.ops.function.grad.grad_func import custom_vjp

    @custom_vjp
    def mul_add(x, y):
        return 2 * x + y

    mul_add.defbwd(lambda x, y, out, dout: (2 * dout, 2 * y))
    x, y = ms.Tensor([1.0]), ms.Tensor([2.0])
    np.testing.assert_allclose(mul_add(x, y).asnumpy(), [4.0])
    gx, gy = grad(lambda a, b: mul_add(a, b) + a, (0, 1))(x, y)
    np.testing.assert_allclose(gx.asnumpy(), [3.0])
    np.testing.assert_allclose(gy.asnumpy(), [4.0])
    _, vjp_fn = ms.vjp(mul_add, x, y)
    np.testing.assert_allclose(vjp_fn(ms.Tensor([3.0]))[0].asnumpy(), [6.0])


def test_custom_vjp_without_a_backward_rule_says_to_call_defbwd():
    from mindjax.ops.function.grad.grad_func import custom_vjp

    def twice(x):
        return 2 * x

    wrapped = custom_vjp(twice)
    with pytest.raises(RuntimeError, match=r"'twice'.*defbwd"):
        grad(wrapped)(ms.Tensor([1.0]))
    with pytest.raises(TypeError, match="'bwd' must be a function"):
        wrapped.defbwd(3)


def test_operations_module_gives_hook_backward_and_insert_gradient_of():
    from mindjax.ops import operations as P
    assert P.HookBackward is ms.ops.HookBackward and P.InsertGradientOf is ms.ops.InsertGradientOf
    seen = []

    class Net(ms.nn.Cell):
        def __init__(self):
            super().__init__()
            self.hook = P.HookBackward(lambda g: seen.append(np.asarray(g[0] if isinstance(g, tuple) else g)))

        def construct(self, x):
            return self.hook(x * x) * 3

    x = ms.Tensor(np.array([1.0, 2.0], np.float32))
    (g,) = ms.ops.GradOperation(get_all=True)(Net())(x)
    np.testing.assert_allclose(g.asnumpy(), [6.0, 12.0])
    np.testing.assert_allclose(seen[0], [3.0, 3.0])
    with pytest.raises(AttributeError, match="has no attribute 'NoSuchPrimitive'"):
        P.NoSuchPrimitive  # noqa: B018
