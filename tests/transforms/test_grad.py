"""The grad family: return structures, Parameters, writes, higher order, both modes, errors."""
import jax
import jax.numpy as jnp
import numpy as np
import pytest

import mindjax as ms
from mindjax import nn
from mindjax.common.random import next_key
from mindjax.transforms.grad import (GradOperation, get_grad, grad, jacfwd, jacrev, jvp,
                                     value_and_grad, vjp, vmap)

X = ms.Tensor([1.0, 2.0])
Y = ms.Tensor([3.0, 4.0])


class Affine(nn.Cell):
    """sum(x * w * y) + sum(b): dx = w*y, dy = w*x, dw = x*y, db = 1."""

    def __init__(self):
        super().__init__()
        self.w = ms.Parameter(ms.Tensor([2.0, 3.0]), name="w")
        self.b = ms.Parameter(ms.Tensor([1.0]), name="b")

    def construct(self, x, y):
        return (x * self.w * y).sum() + self.b.sum()


class RunningMean(nn.Cell):
    """Writes a non-trainable statistic and draws a random number, like BatchNorm + Dropout."""

    def __init__(self):
        super().__init__()
        self.w = ms.Parameter(ms.Tensor([1.0, 1.0]), name="w")
        self.mean = ms.Parameter(ms.Tensor([0.0, 0.0]), name="mean", requires_grad=False)

    def construct(self, x):
        self.mean = self.mean * 0.5 + x
        noise = jax.random.uniform(next_key(), (2,))
        return (x * self.w).sum() + 0.0 * noise.sum()


def _np(tree):
    return jax.tree_util.tree_map(np.asarray, tree)


def _close(a, b):
    np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=1e-6)


# -- return structures -------------------------------------------------------------------------
def test_grad_of_one_position_is_a_single_gradient(mode):
    net = Affine()
    _close(grad(net)(X, Y), [6.0, 12.0])
    _close(grad(net, (1,))(X, Y), [2.0, 6.0])


def test_grad_of_several_positions_is_a_tuple(mode):
    gx, gy = grad(Affine(), (0, 1))(X, Y)
    _close(gx, [6.0, 12.0])
    _close(gy, [2.0, 6.0])


def test_grad_of_weights_list_is_a_tuple_and_of_one_parameter_is_single(mode):
    net = Affine()
    gw, gb = grad(net, None, net.trainable_params())(X, Y)
    _close(gw, [3.0, 8.0])
    _close(gb, [1.0])
    _close(grad(net, None, net.w)(X, Y), [3.0, 8.0])
    (only,) = grad(net, None, [net.w])(X, Y)
    _close(only, [3.0, 8.0])
    assert len(grad(net, None, ms.ParameterTuple(net.trainable_params()))(X, Y)) == 2


def test_grad_of_inputs_and_weights_is_a_pair(mode):
    net = Affine()
    (gx, gy), (gw, gb) = grad(net, (0, 1), net.trainable_params())(X, Y)
    _close(gx, [6.0, 12.0])
    _close(gb, [1.0])
    gx, (gw, gb) = grad(net, 0, net.trainable_params())(X, Y)
    _close(gw, [3.0, 8.0])


def test_value_and_grad_returns_the_value_first(mode):
    net = Affine()
    value, (gx, (gw, gb)) = value_and_grad(net, 0, net.trainable_params())(X, Y)
    _close(value, 31.0)
    _close(gx, [6.0, 12.0])


def test_has_aux_differentiates_only_the_first_output(mode):
    def f(x, y):
        return (x * y).sum(), x + y, x - y

    g, aux = grad(f, 0, has_aux=True)(X, Y)
    _close(g, Y)
    assert isinstance(aux, tuple) and len(aux) == 2
    _close(aux[1], [-2.0, -2.0])
    (value, plus, minus), g = value_and_grad(f, (0, 1), has_aux=True)(X, Y)
    _close(value, 11.0)
    _close(g[1], X)


def test_several_outputs_without_has_aux_are_all_differentiated_with_ones(mode):
    def f(x, y):
        return x * y, x + y

    gx, gy = grad(f, (0, 1))(X, Y)
    _close(gx, [4.0, 5.0])
    _close(gy, [2.0, 3.0])


def test_sens_param_takes_the_output_gradient_last_or_by_keyword(mode):
    def f(x, y):
        return x * y

    sens = ms.Tensor([1.0, 2.0])
    _close(grad(f, 0, sens_param=True)(X, Y, sens), [3.0, 8.0])
    _close(grad(f, 0, sens_param=True)(X, Y, sens=sens), [3.0, 8.0])
    value, g = value_and_grad(f, 1, sens_param=True)(X, Y, sens)
    _close(value, [3.0, 8.0])
    _close(g, [1.0, 4.0])


def test_return_ids_pairs_gradients_with_positions_and_names(mode):
    net = Affine()
    grads = grad(net, (0, 1), net.trainable_params(), return_ids=True)(X, Y)
    (p0, _), (p1, _) = grads[0]
    (n0, gw), (n1, _) = grads[1]
    assert (p0, p1, n0, n1) == (0, 1, "w", "b")
    _close(get_grad(grads, net.w), gw)
    _close(get_grad(grads, 1), [2.0, 6.0])
    with pytest.raises(RuntimeError, match="get_grad.*identifier 5"):
        get_grad(grads, 5)


def test_integer_inputs_get_mindspores_gradient_in_their_dtype(mode):
    gi, gy = grad(lambda i, y: (i * y).sum(), (0, 1))(ms.Tensor([1, 2]), Y)
    assert gi.dtype == ms.int64
    _close(gi, np.asarray(Y).astype(np.int64))
    gi32, _ = grad(lambda i, y: (i * y * i).sum(), (0, 1))(ms.Tensor([1, 2], ms.int32), Y)
    assert gi32.dtype == ms.int32
    _close(gi32, (2 * np.array([1, 2]) * np.asarray(Y)).astype(np.int32))


def test_integer_inputs_used_as_indices_get_a_zero_gradient(mode):
    gi, gy = grad(lambda i, y: y[i].sum(), (0, 1))(ms.Tensor([1, 0]), Y)
    assert gi.dtype == ms.int64
    _close(gi, [0, 0])
    _close(gy, [1.0, 1.0])


def test_tuple_and_list_inputs_get_no_gradient_as_in_mindspore(mode):
    # MindSpore 2.10 differentiates only Tensor inputs: a tuple of Tensors is a constant of the call.
    assert grad(lambda t: (t[0] * t[1]).sum())((X, Y)) == ()
    assert GradOperation(get_all=True)(lambda t: (t[0] * t[1]).sum())([X, Y]) == ()
    _close(grad(lambda t, x: (t[0] * t[1] * x).sum(), (0, 1))((X, Y), X), [3.0, 8.0])


def test_python_number_inputs_are_left_out_of_the_gradients(mode):
    add = lambda x, y: x * y  # noqa: E731
    assert grad(add)(1, 2) == ()
    assert grad(add, (0, 1), return_ids=True)(1, 2) == ()
    _close(grad(add, (0, 1))(ms.Tensor(1.0), 2), 2.0)  # one gradient left: a single Tensor
    assert grad(add, 1)(ms.Tensor(1.0), 2) == ()
    got = GradOperation(get_all=True)(add)(ms.Tensor(1.0), 2)
    assert isinstance(got, tuple) and len(got) == 1
    _close(got[0], 2.0)
    three = lambda x, y, z: x * z * 3.0  # noqa: E731
    ids = grad(three, (0, 1, 2), return_ids=True)(ms.Tensor(1.0), 2, ms.Tensor(3.0))
    assert [i for i, _ in ids] == [0, 2]
    _close(ids[0][1], 9.0)


def test_grad_operation_of_a_function_without_inputs_is_empty(mode):
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.w = ms.Parameter(ms.Tensor([6.0]), name="w")

        def construct(self):
            return self.w * 2

    net = Net()
    assert GradOperation()(net)() == ()
    assert GradOperation(get_all=True)(net)() == ()
    inputs, weights = GradOperation(get_all=True, get_by_list=True)(net, [net.w])()
    assert inputs == ()
    _close(weights[0], [2.0])


def test_outputs_that_are_not_tensors_get_no_sensitivity(mode):
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.w = ms.Parameter(ms.Tensor([6.0]), name="w")

        def construct(self, x):
            return self.w * x + 1.0, "a", None, 3

    _close(GradOperation()(Net())(ms.Tensor([10.0])), [6.0])
    _close(grad(lambda x: (x * 2, "label"))(ms.Tensor([1.0])), [2.0])


def test_a_sensitivity_shaped_like_the_whole_output_skips_its_constant_entries(mode):
    f = lambda x: {"a": x * 3, "b": 2}  # noqa: E731
    x = ms.Tensor([1.0, 2.0])
    _close(GradOperation(sens_param=True)(f)(x, {"a": ms.Tensor([1.0, 2.0]), "b": 2}), [3.0, 6.0])
    shape_of = lambda v: v.shape  # noqa: E731 - an output of Python ints only
    g = GradOperation(get_all=True, sens_param=True)(shape_of)(ms.Tensor(np.ones(8, np.int32)), (8,))
    assert len(g) == 1 and g[0].dtype == ms.int32 and np.asarray(g[0]).tolist() == [0] * 8


def test_a_parameter_returned_as_an_output_gets_its_gradient(mode):
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.w = ms.Parameter(ms.Tensor([2.0, 2.0]), name="w")

        def construct(self, x, y):
            return x * y * self.w, x, self.w

    net = Net()
    res = grad(net, 0, net.trainable_params(), return_ids=True)(ms.Tensor([1.0, 2.0]), ms.Tensor([3.0, 3.0]))
    _close(get_grad(res, net.w), [4.0, 7.0])
    _close(get_grad(res, 0), [7.0, 7.0])


def test_parameters_without_requires_grad_get_zero_gradients(mode):
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.p1 = ms.Parameter(ms.Tensor([2.0]), name="p1", requires_grad=False)
            self.p2 = ms.Parameter(ms.Tensor([3.0]), name="p2")

        def construct(self, x):
            return x * self.p1 * self.p2

    net = Net()
    g1, g2 = grad(net, None, [net.p1, net.p2])(ms.Tensor([4.0]))
    _close(g1, [0.0])
    _close(g2, [8.0])


def test_complex_gradients_follow_mindspore_conjugate_convention(mode):
    z = ms.Tensor(np.asarray(1.3 + 0.4j, np.complex64))
    _close(GradOperation()(lambda x: ms.ops.imag(x))(z), np.asarray(1j, np.complex64))
    _close(GradOperation()(lambda x: ms.ops.real(x))(z), np.asarray(1.0, np.complex64))


def test_grad_function_is_named_like_what_it_differentiates():
    assert grad(Affine()).__qualname__ == "Affine"
    def loss(x):
        return x.sum()
    assert grad(loss).__name__ == "loss"


# -- GradOperation -----------------------------------------------------------------------------
def test_grad_operation_flags_select_inputs_and_weights(mode):
    net = Affine()
    params = ms.ParameterTuple(net.trainable_params())
    _close(GradOperation()(net)(X, Y), [6.0, 12.0])
    (gx,) = GradOperation(get_all=True)(lambda x: (x * 3).sum())(X)
    _close(gx, [3.0, 3.0])
    gw, gb = GradOperation(get_by_list=True)(net, params)(X, Y)
    _close(gw, [3.0, 8.0])
    (gx, gy), (gw, gb) = GradOperation(get_all=True, get_by_list=True)(net, params)(X, Y)
    _close(gy, [2.0, 6.0])
    _close(GradOperation(get_by_list=True)(net, net.w)(X, Y), [3.0, 8.0])


def test_grad_operation_sens_param_scales_the_gradient(mode):
    gx, gy = GradOperation(get_all=True, sens_param=True)(Affine())(X, Y, ms.Tensor(2.0))
    _close(gx, [12.0, 24.0])


def test_grad_operation_inside_a_cell_construct(mode):
    class GradNet(nn.Cell):
        def __init__(self, net):
            super().__init__()
            self.net = net
            self.op = GradOperation(get_all=True)

        def construct(self, x, y):
            return self.op(self.net)(x, y)

    gx, gy = GradNet(Affine())(X, Y)
    _close(gy, [2.0, 6.0])


# -- functionalisation ------------------------------------------------------------------------
def test_parameters_are_unchanged_and_hold_no_tracer_after_grad(mode):
    net = Affine()
    grad(net, 0, net.trainable_params())(X, Y)
    assert isinstance(net.w._raw, jax.Array) and not isinstance(net.w._raw, jax.core.Tracer)
    _close(net.w, [2.0, 3.0])


def test_writes_to_non_differentiated_parameters_persist(mode):
    net = RunningMean()
    g = grad(net, None, net.trainable_params())
    key_before = np.asarray(ms.common.random.RNG_STATE._value)
    (gw,) = g(X)
    _close(net.mean, [1.0, 2.0])
    g(X)
    _close(net.mean, [1.5, 3.0])
    _close(gw, X)
    assert not isinstance(net.mean._raw, jax.core.Tracer)
    assert not np.array_equal(np.asarray(ms.common.random.RNG_STATE._value), key_before)


def test_grad_inside_jit_discovers_parameters_and_keeps_writes(mode):
    net = RunningMean()
    g = grad(net, None, net.trainable_params())

    @ms.jit
    def step(x):
        (gw,) = g(x)
        net.w.set_data(net.w - 0.5 * gw)
        return gw

    step(X)
    step(X)
    _close(net.w, [0.0, -1.0])
    _close(net.mean, [1.5, 3.0])


def test_pynative_and_graph_give_the_same_gradients():
    def run(mode):
        ms.set_context(mode=mode)
        net = Affine()
        return _np(value_and_grad(net, (0, 1), net.trainable_params())(X, Y))

    eager, compiled = run(ms.PYNATIVE_MODE), run(ms.GRAPH_MODE)
    for a, b in zip(jax.tree_util.tree_leaves(eager), jax.tree_util.tree_leaves(compiled)):
        np.testing.assert_array_equal(a, b)


def test_graph_mode_compiles_the_gradient_once_per_signature():
    ms.set_context(mode=ms.GRAPH_MODE)
    calls = []

    def f(x):
        calls.append(1)
        return (x ** 2).sum()

    g = grad(f)
    g(X)
    g(X + 1)
    assert len(calls) == 1


# -- higher order ------------------------------------------------------------------------------
def test_grad_of_grad_gives_second_derivatives(mode):
    def cube(x):
        return (x ** 3).sum()

    _close(grad(lambda x: grad(cube)(x).sum())(X), 6 * np.asarray(X))


def test_grad_of_grad_with_respect_to_weights(mode):
    class Cube(nn.Cell):
        def __init__(self):
            super().__init__()
            self.w = ms.Parameter(ms.Tensor([2.0, 3.0]), name="w")

        def construct(self, x):
            return (self.w ** 3 * x).sum()

    net = Cube()
    inner = grad(net, None, net.w)
    _close(grad(lambda x: inner(x).sum(), None, net.w)(ms.Tensor([1.0, 1.0])), [12.0, 18.0])


# -- vjp, jvp, jacobians, vmap -----------------------------------------------------------------
def test_vjp_returns_outputs_and_a_function_of_the_cotangent(mode):
    out, fn = vjp(lambda x, y: x ** 3 + y, X, Y)
    _close(out, [4.0, 12.0])
    gx, gy = fn(ms.Tensor([1.0, 1.0]))
    _close(gx, [3.0, 12.0])
    (g,) = vjp(lambda x: x * 2, X)[1](ms.Tensor([1.0, 1.0]))
    _close(g, [2.0, 2.0])


def test_vjp_has_aux_and_weights(mode):
    out, fn, aux = vjp(lambda x, y: (x * y, y * 2), X, Y, has_aux=True)
    _close(aux, [6.0, 8.0])
    net = Affine()
    out, fn = vjp(net, X, Y, weights=net.w)
    (gx, gy), gw = fn(ms.Tensor(1.0))
    _close(gw, [3.0, 8.0])


def test_jvp_single_and_tuple_inputs_and_aux(mode):
    out, t = jvp(lambda x: x ** 3, X, ms.Tensor([1.0, 1.0]))
    _close(t, [3.0, 12.0])
    out, t, aux = jvp(lambda x, y: (x ** 3 + y, y * 2, x), (X, Y), (X, Y), has_aux=True)
    _close(t, [6.0, 28.0])
    assert isinstance(aux, tuple) and len(aux) == 2


def test_jvp_rejects_tangents_of_another_length(mode):
    with pytest.raises(ValueError, match="'jvp'.*'v' has invalid length: should be 2, but got 1"):
        jvp(lambda x, y: x + y, (X, Y), (X,))


def test_jacfwd_and_jacrev_nest_outputs_then_inputs(mode):
    def f(x, y):
        return x * y, x + y

    for jac in (jacfwd, jacrev):
        (dxy_dx, dxy_dy), (dsum_dx, _) = jac(f, (0, 1))(X, Y)
        _close(dxy_dx, np.diag([3.0, 4.0]))
        _close(dsum_dx, np.eye(2))
        j, aux = jac(lambda x: (x ** 2, x * 3), 0, has_aux=True)(X)
        _close(j, np.diag([2.0, 4.0]))
        _close(aux, [3.0, 6.0])


def test_jacrev_of_a_cell_uses_its_parameters(mode):
    class Scale(nn.Cell):
        def __init__(self):
            super().__init__()
            self.w = ms.Parameter(ms.Tensor([2.0, 3.0]), name="w")

        def construct(self, x):
            return x * self.w

    _close(jacrev(Scale())(X), np.diag([2.0, 3.0]))


def test_vmap_maps_functions_and_cells(mode):
    batch = ms.Tensor(np.arange(6, dtype=np.float32).reshape(3, 2))
    _close(vmap(lambda x, y: x * y, (0, None))(batch, Y), np.asarray(batch) * np.asarray(Y))
    out_a, out_b = vmap(lambda x: (x.sum(), x * 2), 0, (0, 1))(batch)
    assert out_b.shape == (2, 3)
    _close(vmap(Affine(), (0, None))(batch, Y), (np.asarray(batch) * [6.0, 12.0]).sum(1) + 1.0)


def test_vmap_rejects_a_parameter_write_that_differs_across_the_batch(mode):
    net = RunningMean()
    batch = ms.Tensor(np.ones((3, 2), np.float32))
    with pytest.raises(ValueError, match="'vmap'.*mean"):
        vmap(net)(batch)
    assert not isinstance(net.mean._raw, jax.core.Tracer)


# -- errors ------------------------------------------------------------------------------------
def test_grad_position_out_of_range_is_named(mode):
    with pytest.raises(ValueError, match="'grad', 'grad_position' 2 is out of range.*2 positional"):
        grad(Affine(), 2)(X, Y)


def test_bad_grad_position_types_and_values_are_rejected():
    with pytest.raises(TypeError, match="'grad', 'grad_position' must be an int, a tuple"):
        grad(Affine(), [0])
    with pytest.raises(ValueError, match="'grad_position' must be >= 0, got -1"):
        grad(Affine(), -1)
    with pytest.raises(ValueError, match="duplicate positions"):
        grad(Affine(), (0, 0))
    with pytest.raises(ValueError, match="'grad_position' and 'weights' can not both be None"):
        value_and_grad(Affine(), None)


def test_weights_that_are_not_parameters_are_rejected():
    with pytest.raises(TypeError, match="'grad', 'weights' must be a Parameter.*got Tensor"):
        grad(Affine(), None, X)
    with pytest.raises(TypeError, match="'value_and_grad', 'weights' must contain only Parameters; "
                                        "element 1 is a Tensor"):
        value_and_grad(Affine(), None, [Affine().w, X])


def test_has_aux_needs_several_outputs(mode):
    with pytest.raises(ValueError, match="'grad', 'has_aux' is True.*at least two outputs"):
        grad(lambda x: x.sum(), has_aux=True)(X)


def test_sens_of_the_wrong_shape_is_named(mode):
    with pytest.raises(ValueError, match="'grad', 'sens' of shape \\(3,\\) does not fit.*\\(2,\\)"):
        grad(lambda x: x * 2, sens_param=True)(X, ms.Tensor([1.0, 2.0, 3.0]))


def test_flags_must_be_bools():
    with pytest.raises(TypeError, match="'grad', 'has_aux' must be a bool"):
        grad(Affine(), has_aux=1)
    with pytest.raises(TypeError, match="'GradOperation', 'get_all' must be a bool"):
        GradOperation(get_all=1)
    with pytest.raises(TypeError, match="'grad', 'fn' must be a function or a Cell"):
        grad(3)


def test_integer_parameters_get_mindspores_gradient_in_their_dtype(mode):
    class Affine(nn.Cell):
        def __init__(self):
            super().__init__()
            self.w = ms.Parameter(ms.Tensor([6], ms.int32), name="w")
            self.b = ms.Parameter(ms.Tensor([2], ms.int32), name="b")

        def construct(self, x):
            return self.w * x + self.b

    net = Affine()
    gw, gb = ms.ops.GradOperation(get_by_list=True)(net, net.trainable_params())(ms.Tensor([10], ms.int32))
    assert gw.dtype == ms.int32 and gw.tolist() == [10] and gb.tolist() == [1]
