"""grad, value_and_grad, GradOperation, vjp, jvp, custom bprop and hooks against MindSpore 2.10.

Nets with Parameters are built in both frameworks from the same seeds
(``nets_grad_ms.py``, ``nets_grad_mj.py``); values, gradients w.r.t. inputs and
weights, and the nesting of the results must agree within 1e-5. MindSpore runs
in its GRAPH mode (several of its PYNATIVE kernels fail beside numpy 2), except
for hooks, which it supports in PYNATIVE mode only; MindJAX runs in both modes.
Each MindSpore result is computed once and shared by both MindJAX modes.
"""
import jax
import mindspore
import numpy as np
import pytest
from mindspore import ops as msops

import mindjax
import nets_grad_mj as mj
import nets_grad_ms as ms
from mindjax.transforms import grad as mjgrad

_RNG = np.random.default_rng(0)
X = _RNG.standard_normal((2, 3)).astype(np.float32)
Y = _RNG.standard_normal((2, 2)).astype(np.float32)
SENS = _RNG.standard_normal((2, 2)).astype(np.float32)
A = _RNG.standard_normal(2).astype(np.float32)
B = _RNG.standard_normal(2).astype(np.float32)

_EXPECTED = {}


def _numpy(tree):
    if isinstance(tree, (tuple, list)):
        return tuple(_numpy(t) for t in tree)
    if isinstance(tree, (int, str)):
        return tree
    return np.asarray(tree.asnumpy() if hasattr(tree, "asnumpy") else tree)


def _reference(key, compute):
    """MindSpore's result for ``key`` (as numpy), computed once in its GRAPH mode."""
    if key not in _EXPECTED:
        mindspore.set_context(mode=mindspore.GRAPH_MODE)
        _EXPECTED[key] = _numpy(compute())
    return _EXPECTED[key]


def _layout(tree):
    """The nesting of a result: tensors as their shapes, ids kept."""
    if isinstance(tree, tuple):
        return tuple(_layout(t) for t in tree)
    if isinstance(tree, (int, str)):
        return tree
    return ("T", np.shape(tree))


def _leaves(tree):
    if isinstance(tree, tuple):
        return [leaf for t in tree for leaf in _leaves(t)]
    return [] if isinstance(tree, (int, str)) else [tree]


def _assert_same(ours, expected):
    ours = _numpy(ours)
    assert _layout(ours) == _layout(expected)
    for a, b in zip(_leaves(ours), _leaves(expected)):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-5)


def _ms_inputs(*arrays):
    return tuple(mindspore.Tensor(a) for a in arrays)


def _mj_inputs(*arrays):
    return tuple(mindjax.Tensor(a) for a in arrays)


@pytest.mark.parametrize("grad_position,use_weights", [
    (0, False), ((0, 1), False), ((1,), False), (None, True), (0, True), ((0, 1), True)])
@pytest.mark.parametrize("api", ["grad", "value_and_grad"])
def test_grad_and_value_and_grad_match_mindspore(mode, api, grad_position, use_weights):
    def compute():
        net = ms.MLP()
        weights = net.trainable_params() if use_weights else None
        return getattr(mindspore, api)(net, grad_position, weights)(*_ms_inputs(X, Y))

    expected = _reference(("mlp", api, grad_position, use_weights), compute)
    net = mj.MLP()
    weights = net.trainable_params() if use_weights else None
    _assert_same(getattr(mindjax.transforms.grad, api)(net, grad_position, weights)(*_mj_inputs(X, Y)),
                 expected)


def test_single_parameter_weights_give_a_single_gradient_as_mindspore(mode):
    def compute():
        net = ms.MLP()
        return mindspore.grad(net, 1, net.w2)(*_ms_inputs(X, Y))

    net = mj.MLP()
    _assert_same(mjgrad.grad(net, 1, net.w2)(*_mj_inputs(X, Y)), _reference("single", compute))


@pytest.mark.parametrize("api", ["grad", "value_and_grad"])
@pytest.mark.parametrize("grad_position", [0, (0, 1), None])
def test_has_aux_matches_mindspore(mode, api, grad_position):
    def compute():
        net = ms.MLPWithAux()
        return getattr(mindspore, api)(net, grad_position, net.trainable_params(),
                                       has_aux=True)(*_ms_inputs(X, Y))

    expected = _reference(("aux", api, grad_position), compute)
    net = mj.MLPWithAux()
    got = getattr(mjgrad, api)(net, grad_position, net.trainable_params(),
                               has_aux=True)(*_mj_inputs(X, Y))
    _assert_same(got, expected)


def test_every_output_is_differentiated_without_has_aux_as_mindspore(mode):
    def compute():
        net = ms.MLPWithAux()
        return mindspore.grad(net, (0, 1), net.trainable_params())(*_ms_inputs(X, Y))

    net = mj.MLPWithAux()
    _assert_same(mjgrad.grad(net, (0, 1), net.trainable_params())(*_mj_inputs(X, Y)),
                 _reference("no_aux", compute))


def test_return_ids_and_get_grad_match_mindspore(mode):
    def compute():
        net = ms.MLP()
        grads = mindspore.grad(net, (0, 1), net.trainable_params(), return_ids=True)(*_ms_inputs(X, Y))
        return grads, mindspore.get_grad(grads, net.w1), mindspore.get_grad(grads, 1)

    net = mj.MLP()
    grads = mjgrad.grad(net, (0, 1), net.trainable_params(), return_ids=True)(*_mj_inputs(X, Y))
    got = (grads, mjgrad.get_grad(grads, net.w1), mjgrad.get_grad(grads, 1))
    _assert_same(got, _reference("ids", compute))


@pytest.mark.parametrize("use_sens", [False, True])
def test_non_scalar_output_and_sens_param_match_mindspore(mode, use_sens):
    arrays = (X, Y, SENS) if use_sens else (X, Y)

    def compute():
        net = ms.VectorOut()
        return mindspore.value_and_grad(net, (0, 1), net.trainable_params(),
                                        sens_param=use_sens)(*_ms_inputs(*arrays))

    net = mj.VectorOut()
    got = mjgrad.value_and_grad(net, (0, 1), net.trainable_params(),
                                sens_param=use_sens)(*_mj_inputs(*arrays))
    _assert_same(got, _reference(("sens", use_sens), compute))


@pytest.mark.parametrize("get_all,get_by_list,sens_param", [
    (False, False, False), (True, False, False), (False, True, False), (True, True, False),
    (True, True, True), (False, False, True)])
def test_grad_operation_matches_mindspore(mode, get_all, get_by_list, sens_param):
    arrays = (X, Y, SENS) if sens_param else (X, Y)

    def compute():
        net = ms.VectorOut()
        op = msops.GradOperation(get_all=get_all, get_by_list=get_by_list, sens_param=sens_param)
        fn = op(net, mindspore.ParameterTuple(net.trainable_params())) if get_by_list else op(net)
        return fn(*_ms_inputs(*arrays))

    net = mj.VectorOut()
    op = mjgrad.GradOperation(get_all=get_all, get_by_list=get_by_list, sens_param=sens_param)
    fn = op(net, mindjax.ParameterTuple(net.trainable_params())) if get_by_list else op(net)
    _assert_same(fn(*_mj_inputs(*arrays)), _reference(("op", get_all, get_by_list, sens_param), compute))


def test_vjp_with_weights_matches_mindspore(mode):
    def compute():
        net = ms.VectorOut()
        out, fn = mindspore.vjp(net, *_ms_inputs(X, Y), weights=net.trainable_params())
        return out, fn(mindspore.Tensor(SENS))

    net = mj.VectorOut()
    out, fn = mjgrad.vjp(net, *_mj_inputs(X, Y), weights=net.trainable_params())
    _assert_same((out, fn(mindjax.Tensor(SENS))), _reference("vjp", compute))


def test_jvp_matches_mindspore(mode):
    tangents = (np.ones_like(X), np.full_like(Y, 0.5))

    def compute():
        return mindspore.jvp(ms.VectorOut(), _ms_inputs(X, Y), _ms_inputs(*tangents))

    got = mjgrad.jvp(mj.VectorOut(), _mj_inputs(X, Y), _mj_inputs(*tangents))
    _assert_same(got, _reference("jvp", compute))


@pytest.mark.parametrize("use_weights", [False, True])
def test_custom_bprop_matches_mindspore(mode, use_weights):
    def compute():
        net = ms.WithBprop()
        weights = net.trainable_params() if use_weights else None
        return mindspore.value_and_grad(net, (0, 1), weights)(*_ms_inputs(A, B))

    net = mj.WithBprop()
    weights = net.trainable_params() if use_weights else None
    got = mjgrad.value_and_grad(net, (0, 1), weights)(*_mj_inputs(A, B))
    _assert_same(got, _reference(("bprop", use_weights), compute))


def test_backward_hooks_match_mindspore_pynative(mode):
    seen = {"ms": [], "mj": []}

    def ms_hook(cell, grad_input, grad_output):
        seen["ms"].append((grad_input[0], grad_output[0]))
        return (grad_input[0] * grad_output[0],)

    def mj_hook(cell, grad_input, grad_output):
        # A callback sees concrete values in GRAPH mode too.
        jax.debug.callback(lambda gi, go: seen["mj"].append((gi, go)), grad_input[0], grad_output[0])
        return (grad_input[0] * grad_output[0],)

    def pre(cell, grad_output):
        return (grad_output[0] + grad_output[0],)

    def compute():
        mindspore.set_context(mode=mindspore.PYNATIVE_MODE)
        net = ms.Hooked()
        net.sq.register_backward_hook(ms_hook)
        net.sq.register_backward_pre_hook(pre)
        grads = mindspore.grad(net, 0, net.trainable_params())(mindspore.Tensor(A))
        return grads, seen["ms"][0]

    expected = _reference("hooks", compute)
    net = mj.Hooked()
    net.sq.register_backward_hook(mj_hook)
    net.sq.register_backward_pre_hook(pre)
    grads = mjgrad.grad(net, 0, net.trainable_params())(mindjax.Tensor(A))
    assert len(seen["mj"]) == 1
    _assert_same((grads, seen["mj"][0]), expected)
