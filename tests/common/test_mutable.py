"""ms.mutable: marked values, MindSpore's argument checks, and traced scalars in compiled calls."""
import jax
import numpy as np
import pytest

import mindjax as ms
from mindjax import nn
from mindjax.common.mutable import is_mutable

_PROGRAMS = ("jit(_pure)", "jit(_pure_single)")


class _Counter:
    def __init__(self) -> None:
        self.compiles = 0

    def __call__(self, event: str, duration: float, **kwargs) -> None:
        if event == "/jax/core/compile/backend_compile_duration" and kwargs.get("fun_name") in _PROGRAMS:
            self.compiles += 1


_COUNTER = _Counter()
jax.monitoring.register_event_duration_secs_listener(_COUNTER)


def _compiles(fn):
    before = _COUNTER.compiles
    out = fn()
    return out, _COUNTER.compiles - before


@pytest.fixture
def graph_mode():
    ms.set_context(mode=ms.GRAPH_MODE)
    yield
    ms.set_context(mode=ms.PYNATIVE_MODE)


class Scale(nn.Cell):
    def construct(self, x, n):
        return x * n


def test_mutable_marks_numbers_and_containers_keeping_their_values():
    assert ms.mutable(3) == 3 and isinstance(ms.mutable(3), int) and is_mutable(ms.mutable(3))
    assert ms.mutable(2.5) == 2.5 and isinstance(ms.mutable(2.5), float)
    flag = ms.mutable(True)
    assert isinstance(flag, bool) and str(flag) == "True" and (flag & False) is False
    assert ms.mutable([1, 2]) == [1, 2] and isinstance(ms.mutable([1, 2]), list)
    assert ms.mutable({"a": 1}) == {"a": 1} and is_mutable(ms.mutable({"a": 1}))
    marked = ms.mutable((1, 2), dynamic_len=True)
    assert marked == (1, 2) and marked.__ms_dynamic_len__ is True
    t = ms.Tensor([1.0])
    assert ms.mutable(t) is t
    assert not is_mutable(3) and not is_mutable((1, 2))


def test_mutable_rejects_bad_arguments_with_mindspores_messages():
    with pytest.raises(TypeError, match=r"For 'mutable', the 'input_data' should be one of \(bool, int, float, "
                                        r"Tensor, tuple, list, dict\).*but got str: a\."):
        ms.mutable("a")
    with pytest.raises(TypeError, match="but got list"):
        ms.mutable([1, "b"])
    loop = []
    loop.append(loop)
    with pytest.raises(TypeError, match="no self-reference"):
        ms.mutable(loop)
    with pytest.raises(TypeError, match="For 'mutable', the second input should be bool, but got: int"):
        ms.mutable(1, dynamic_len=1)
    with pytest.raises(TypeError, match="when the variable_len is True, the first input should be list or tuple, "
                                        "but got: int"):
        ms.mutable(1, dynamic_len=True)


def test_graph_cell_compiles_once_for_mutable_scalars_and_per_value_for_plain_ones(graph_mode):
    net = Scale()
    x = ms.Tensor(np.array([1.0, 2.0], np.float32))
    out, first = _compiles(lambda: net(x, ms.mutable(2)))
    np.testing.assert_allclose(out.asnumpy(), [2.0, 4.0])
    out, second = _compiles(lambda: net(x, ms.mutable(3)))
    np.testing.assert_allclose(out.asnumpy(), [3.0, 6.0])
    assert (first, second) == (1, 0)
    _, plain = _compiles(lambda: [net(x, 4), net(x, 5)])
    assert plain == 2  # plain numbers stay compile-time constants


def test_jit_function_takes_a_mutable_scalar_as_a_traced_input(graph_mode):
    @ms.jit
    def f(x, n):
        return x + n

    x = ms.Tensor(np.array([1.0, 2.0], np.float32))
    values = []
    _, count = _compiles(lambda: values.extend([f(x, ms.mutable(1.5)), f(x, ms.mutable(-1.0))]))
    assert count == 1
    np.testing.assert_allclose(values[0].asnumpy(), [2.5, 3.5])
    np.testing.assert_allclose(values[1].asnumpy(), [0.0, 1.0])


def test_mutable_scalar_is_a_0d_tensor_of_tensor_dtype_inside_the_program(graph_mode):
    seen = []

    class Probe(nn.Cell):
        def construct(self, n, f, b):
            seen.append((n.shape, n.dtype, f.dtype, b.dtype))
            return n

    Probe()(ms.mutable(1), ms.mutable(1.0), ms.mutable(True))
    assert seen == [((), ms.int64, ms.float32, ms.bool_)]


@pytest.mark.parametrize("mode", [ms.GRAPH_MODE, ms.PYNATIVE_MODE])
def test_grad_of_mutable_inputs_matches_mindspore(mode):
    """MindSpore 2.10 (GRAPH): a mutable tuple gets its Tensors' gradients, a mutable number a zero
    of its type, plain containers and numbers nothing."""
    ms.set_context(mode=mode)
    try:
        class Net(nn.Cell):
            def construct(self, z, n):
                return z[0] * z[1] * n

        net = Net()
        x = ms.Tensor(np.array([1.0, 2.0], np.float32))
        (dx, dy), dn = ms.grad(net, grad_position=(0, 1))(ms.mutable((x, x)), ms.mutable(2.0))
        np.testing.assert_allclose(dx.asnumpy(), [2.0, 4.0])
        np.testing.assert_allclose(dy.asnumpy(), [2.0, 4.0])
        assert dn == 0.0 and type(dn) is float
        assert ms.grad(net, grad_position=(0, 1))((x, x), 2.0) == ()
        dn = ms.grad(net, grad_position=1)((x, x), ms.mutable(2))
        assert dn == 0 and type(dn) is int
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)


def test_mutable_containers_flatten_to_their_elements_and_come_back_marked():
    tree = ms.mutable({"a": 1, "b": (2, 3)})
    leaves, treedef = jax.tree_util.tree_flatten(tree)
    assert leaves == [1, 2, 3]
    back = jax.tree_util.tree_unflatten(treedef, leaves)
    assert back == {"a": 1, "b": (2, 3)} and is_mutable(back)
