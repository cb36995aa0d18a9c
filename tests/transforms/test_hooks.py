"""Backward hooks and backward pre-hooks on Cells, in PYNATIVE and GRAPH mode."""
import jax
import numpy as np
import pytest

import mindjax as ms
from mindjax import nn
from mindjax.transforms.grad import grad

X = ms.Tensor([1.0, 2.0])
Y = ms.Tensor([3.0, 4.0])


def _close(a, b):
    np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=1e-6)


class Square(nn.Cell):
    def construct(self, x):
        return x * x


class Doubled(nn.Cell):
    """sum(square(x + x)): the gradient is 8x; square sees grad_output 1 and grad_input 4x."""

    def __init__(self):
        super().__init__()
        self.sq = Square()

    def construct(self, x):
        return self.sq(x + x).sum()


class Mul(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = ms.Parameter(ms.Tensor([2.0, 5.0]), name="w")

    def construct(self, a, b):
        return a * b * self.w


class TwoInputs(nn.Cell):
    def __init__(self):
        super().__init__()
        self.m = Mul()

    def construct(self, a, b):
        return self.m(a, b).sum()


def _recorder(store):
    """A hook recording (grad_input, grad_output) through a callback: works in both modes."""
    def hook(cell, grad_input, grad_output):
        jax.debug.callback(lambda gi, go: store.append((gi, go)), grad_input, grad_output)
    return hook


def test_backward_hook_sees_input_and_output_gradients_as_tuples(mode):
    seen = []
    net = Doubled()
    net.sq.register_backward_hook(_recorder(seen))
    _close(grad(net)(X), [8.0, 16.0])
    (grad_input, grad_output), = seen
    assert len(grad_input) == 1 and len(grad_output) == 1
    _close(grad_input[0], [4.0, 8.0])
    _close(grad_output[0], [1.0, 1.0])


def test_backward_hook_result_replaces_the_input_gradient(mode):
    net = Doubled()
    net.sq.register_backward_hook(lambda cell, gi, go: (gi[0] * 100,))
    _close(grad(net)(X), [800.0, 1600.0])


def test_backward_pre_hook_replaces_the_output_gradient_before_backward_hooks(mode):
    seen = []
    net = Doubled()
    net.sq.register_backward_pre_hook(lambda cell, go: (go[0] * 3,))
    net.sq.register_backward_hook(_recorder(seen))
    _close(grad(net)(X), [24.0, 48.0])
    (grad_input, grad_output), = seen
    _close(grad_output[0], [3.0, 3.0])
    _close(grad_input[0], [12.0, 24.0])


def test_backward_pre_hook_returning_none_only_observes(mode):
    seen = []
    net = Doubled()
    net.sq.register_backward_pre_hook(
        lambda cell, go: jax.debug.callback(lambda g: seen.append(g), go[0]))
    _close(grad(net)(X), [8.0, 16.0])
    _close(seen[0], [1.0, 1.0])


def test_hooks_run_in_registration_order(mode):
    net = Doubled()
    net.sq.register_backward_hook(lambda cell, gi, go: (gi[0] + 1,))
    net.sq.register_backward_hook(lambda cell, gi, go: (gi[0] * 10,))
    _close(grad(net)(X), 2 * (np.asarray([4.0, 8.0]) + 1) * 10)


def test_removed_hooks_no_longer_run(mode):
    net = Doubled()
    handle = net.sq.register_backward_hook(lambda cell, gi, go: (gi[0] * 100,))
    pre = net.sq.register_backward_pre_hook(lambda cell, go: (go[0] * 3,))
    _close(grad(net)(X), [2400.0, 4800.0])
    handle.remove()
    pre.remove()
    _close(grad(net)(X), [8.0, 16.0])
    handle.remove()  # a second remove is harmless


def test_hook_on_a_cell_with_two_inputs_and_a_parameter(mode):
    seen = []
    net = TwoInputs()
    net.m.register_backward_hook(_recorder(seen))
    net.m.register_backward_hook(lambda cell, gi, go: (gi[0], gi[1] * 0))
    (ga, gb), (gw,) = grad(net, (0, 1), net.trainable_params())(X, Y)
    _close(ga, [6.0, 20.0])
    _close(gb, [0.0, 0.0])
    _close(gw, [3.0, 8.0])  # the Parameter's gradient is not a hook input
    (grad_input, _), = seen
    _close(grad_input[1], [2.0, 10.0])


def test_hooked_cell_forward_is_unchanged_and_compiles(mode):
    net = Doubled()
    net.sq.register_backward_hook(lambda cell, gi, go: None)
    _close(net(X), 20.0)


def test_hook_with_the_wrong_number_of_gradients_names_the_cell(mode):
    net = TwoInputs()
    net.m.register_backward_hook(lambda cell, gi, go: (gi[0],))
    with pytest.raises(ValueError, match="For 'Mul' at 'm', the backward hook's result must hold 2"):
        grad(net, (0, 1))(X, Y)


def test_register_rejects_non_callables():
    with pytest.raises(TypeError, match="register_backward_hook must be callable"):
        Square().register_backward_hook(3)
    with pytest.raises(TypeError, match="register_backward_pre_hook must be callable"):
        Square().register_backward_pre_hook("f")
