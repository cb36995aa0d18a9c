"""ops.composite as model-zoo code uses it: MultitypeFuncGraph, HyperMap, Map, partial; P/C/F module aliases."""
import jax.numpy as jnp
import numpy as np
import pytest

import mindjax as ms
from mindjax import nn
from mindjax.ops import composite as C, functional as F, operations as P

_grad_scale = C.MultitypeFuncGraph("grad_scale")


@_grad_scale.register("Tensor", "Tensor")
def _tensor_grad_scale(scale, grad):
    return grad / scale


@_grad_scale.register("Number", "Tensor")
def _number_grad_scale(scale, grad):
    return grad * 0 + scale


def test_multitype_func_graph_dispatches_on_argument_types_and_names_what_is_missing():
    g = jnp.ones(2)
    np.testing.assert_allclose(_grad_scale(jnp.asarray(4.0), g), [0.25, 0.25])
    np.testing.assert_allclose(_grad_scale(3, g), [3.0, 3.0])
    with pytest.raises(TypeError, match=r"For 'grad_scale', no implementation is registered for argument types "
                                        r"\('String', 'Tensor'\)"):
        _grad_scale("x", g)
    with pytest.raises(ValueError, match="unknown type name 'Tensr'"):
        _grad_scale.register("Tensr")


def test_hyper_map_recurses_and_map_does_not():
    grads = (jnp.ones(2), (jnp.ones(3), jnp.ones(1)))
    out = C.HyperMap()(F.partial(_grad_scale, jnp.asarray(2.0)), grads)
    assert isinstance(out, tuple) and isinstance(out[1], tuple)
    np.testing.assert_allclose(out[1][0], [0.5, 0.5, 0.5])
    fixed = C.HyperMap(lambda a, b: a + b)([1, 2], [10, 20])
    assert fixed == [11, 22]
    assert C.Map()(lambda pair: len(pair), [(1, 2), (3,)]) == [2, 1]
    with pytest.raises(ValueError, match="For 'HyperMap', the sequences must have the same length"):
        C.HyperMap()(lambda a, b: a, (1, 2), (1,))


class _ClipScaleStep(nn.Cell):
    """A model-zoo style training Cell: gradients unscaled with HyperMap, clipped, applied."""

    def __init__(self, network, optimizer, scale=8.0):
        super().__init__(auto_prefix=False)
        self.network = network
        self.optimizer = optimizer
        self.weights = optimizer.parameters
        self.grad = C.GradOperation(get_by_list=True, sens_param=True)
        self.hyper_map = C.HyperMap()
        self.scale = scale

    def construct(self, x, y):
        loss = self.network(x, y)
        grads = self.grad(self.network, self.weights)(x, y, F.fill(loss.dtype, loss.shape, self.scale))
        grads = self.hyper_map(F.partial(_grad_scale, jnp.asarray(self.scale)), grads)
        grads = C.clip_by_global_norm(grads, 1.0)
        self.optimizer(grads)
        return loss


def test_model_zoo_style_train_cell_with_hyper_map_runs_in_both_modes(mode):
    ms.set_seed(0)
    net = nn.WithLossCell(nn.Dense(4, 2), nn.MSELoss())
    step = _ClipScaleStep(net, nn.SGD(net.trainable_params(), 0.1))
    x, y = jnp.ones((3, 4)), jnp.zeros((3, 2))
    losses = [float(step(x, y)) for _ in range(3)]
    assert losses[2] < losses[0]


def test_operations_module_holds_the_primitives_and_partial():
    assert P.MatMul is ms.ops.MatMul
    add2 = P.Partial()(lambda a, b: a + b, 2)
    assert add2(3) == 5
    with pytest.raises(TypeError, match="For 'partial', 'func' must be callable"):
        F.partial(3)


def test_functional_module_holds_the_newer_ops_as_mindspore_f_does():
    # Model-zoo code reaches them as F.<name>; functional.py's own code keeps using the builtins.
    np.testing.assert_array_equal(F.tuple_to_array((1.0, 2.0)), [1.0, 2.0])
    np.testing.assert_array_equal(F.tril(jnp.ones((2, 2))), [[1, 0], [1, 1]])
    assert F.all is ms.ops.all and "tril" in F.__all__
    assert F.reshape(jnp.arange(6), (2, 3)).shape == (2, 3)  # built-in all()/any() checks inside still work


_SIGN_PICK = C.MultitypeFuncGraph("sign_pick")


@_SIGN_PICK.register("Tensor", "Tuple")
def _pick_by_sign(x, pair):
    if x > 0:  # a tensor condition: GRAPH mode converts it like construct's own
        return pair[0]
    return pair[1]


def test_registered_functions_with_tensor_conditions_compile_in_graph_mode(mode):
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.hyper_map = C.HyperMap(_SIGN_PICK)

        def construct(self, x, y, z):
            return self.hyper_map((x, y), ((z, x), (y, z)))

    x, y, z = ms.Tensor(2.0), ms.Tensor(-3.0), ms.Tensor(5.0)
    out = Net()(x, y, z)
    assert [float(o) for o in out] == [5.0, 5.0]
    grads = ms.ops.GradOperation(get_all=True)(Net())(x, y, z)
    assert [float(g) for g in grads] == [0.0, 0.0, 2.0]
