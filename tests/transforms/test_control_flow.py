"""GRAPH-mode control flow on tensors gives PYNATIVE's values and gradients."""
import jax
import jax.numpy as jnp
import numpy as np
import pytest

import mindjax as ms
from mindjax import nn
from mindjax.cells.state import call_with_values, collect_variables
from mindjax.common.random import next_key
from mindjax.transforms.control_flow import convert_function

POS = jnp.array([1.0, 2.0, 0.5], jnp.float32)
NEG = jnp.array([-1.0, -2.0, 0.5], jnp.float32)


def _close(a, b):
    for x, y in zip(jax.tree_util.tree_leaves(a), jax.tree_util.tree_leaves(b)):
        np.testing.assert_allclose(np.asarray(x), np.asarray(y), rtol=1e-6, atol=1e-6)


_COMPILED = {}


def _scalar(f):
    return lambda *a: jnp.sum(jnp.asarray(jax.tree_util.tree_leaves(f(*a))[0]))


def _check_function(fn, *args, grad=True):
    """PYNATIVE (plain Python, eager) against GRAPH (converted, under jax.jit): values and grads."""
    if fn not in _COMPILED:   # one compile per function, whatever the inputs
        _COMPILED[fn] = ms.jit(fn), jax.jit(jax.grad(_scalar(convert_function(fn))))
    graph_fn, graph_grad = _COMPILED[fn]
    expected = fn(*args)
    got = graph_fn(*args)
    _close(got, expected)
    if grad:
        _close(graph_grad(*args), jax.grad(_scalar(fn))(*args))
    return got


def _cell_grads(net, *args):
    variables = collect_variables(net)

    def loss(values, *a):
        out, _ = call_with_values(variables, values, net, *a)
        return jnp.sum(jax.tree_util.tree_leaves(out)[0])
    values = [v._value for v in variables]
    if ms.get_context("mode") == ms.GRAPH_MODE:
        return jax.jit(jax.grad(loss, argnums=(0, 1)))(values, *args)
    return jax.grad(loss, argnums=(0, 1))(values, *args)


def _check_cell(make, *args):
    """The same Cell in PYNATIVE and GRAPH: outputs, Parameters after the call, gradients."""
    ms.set_context(mode=ms.PYNATIVE_MODE)
    ref_net = make()
    ref = ref_net(*args)
    ref_params = [np.asarray(p._value) for p in ref_net.get_parameters()]
    ref_grads = _cell_grads(make(), *args)
    ms.set_context(mode=ms.GRAPH_MODE)
    net = make()
    got = net(*args)
    _close(got, ref)
    _close([p._value for p in net.get_parameters()], ref_params)
    _close(_cell_grads(make(), *args), ref_grads)
    return got


# -- if / elif / else ------------------------------------------------------------------
def branchy(x):
    if x.sum() > 2:
        y = x * 2
    elif x.sum() > 0:
        y = x * x
    else:
        y = jnp.sin(x)
    return y


@pytest.mark.parametrize("x", [POS, NEG, POS * 0.2], ids=["if", "else", "elif"])
def test_if_elif_else_on_tensor_matches_pynative(x):
    _check_function(branchy, x)


def early_return(x):
    if x.max() > 1.5:
        return x * 3
    y = x + 1
    if y.min() < 0:
        return y * y
    return -y


@pytest.mark.parametrize("x", [POS, NEG, POS * 0.1], ids=["first", "second", "fall-through"])
def test_early_return_on_tensor_conditions(x):
    _check_function(early_return, x)


def test_tensor_if_compiles_to_one_cond_and_python_if_stays_python():
    def f(x, flag):
        if flag:
            x = x + 1
        if x.sum() > 0:
            x = x * 2
        return x
    jaxpr = str(jax.make_jaxpr(convert_function(f), static_argnums=1)(POS, True))
    assert jaxpr.count("cond[") == 1


def test_augmented_assignment_and_tuple_unpacking_in_branches():
    def f(x):
        a, b = x[0], x[1]
        if a > b:
            a, b = b, a
            a += 10
        else:
            b *= 3
        return a + b
    _check_function(f, POS)
    _check_function(f, jnp.array([3.0, 1.0, 0.0]))


def test_and_or_not_and_conditional_expressions_on_tensors():
    def f(x):
        s = x.sum()
        if (s > 0 and x[0] > 0) or not x[1] > 0:
            s = s * 2
        return (s if s > 3 else -s), (x[0] > 0) and x[2]
    for x in (POS, NEG, jnp.array([-1.0, 2.0, 1.0])):
        _check_function(f, x)


def test_a_variable_defined_in_both_branches_is_fine_in_one_branch_fails_with_its_line():
    def ok(x):
        if x.sum() > 0:
            unused = x * 2
        return x + 1

    def bad(x):
        if x.sum() > 0:
            only_true = x * 2
        return only_true
    _check_function(ok, POS)
    with pytest.raises(ValueError, match=r"'only_true' is defined on one path only of the `if` at "
                       r".*test_control_flow.py:\d+ whose condition is a tensor"):
        ms.jit(bad)(POS)


def test_branches_with_different_shapes_fail_only_when_the_variable_is_used():
    def bad(x):
        if x.sum() > 0:
            y = x
        else:
            y = x[:2]
        return y * 2
    with pytest.raises(ValueError, match=r"'y' is a tensor of shape \(3,\).*\(2,\) and dtype float32 on the other"):
        ms.jit(bad)(POS)


def test_returning_different_structures_on_tensor_paths_is_an_error():
    def bad(x):
        if x.sum() > 0:
            return x
        return x, x
    with pytest.raises(ValueError, match=r"returns .* structure"):
        ms.jit(bad)(POS)


# -- while -----------------------------------------------------------------------------
def doubling(x):
    steps = 0
    while x.sum() < 50:
        x = x * 2 + 0.5
        steps += 1
    return x * steps


@pytest.mark.parametrize("x", [POS, POS * 100], ids=["loops", "zero-trips"])
def test_while_on_tensor_matches_values_and_gradients(x):
    _check_function(doubling, x)


def test_while_with_break_and_continue_on_tensors():
    def f(x):
        i = 0
        acc = x * 0
        while i < 4:
            i += 1
            if x[0] * i > 2:
                break
            if i % 2 == 0:
                continue
            acc = acc + x * i
        return acc + i
    _check_function(f, POS)
    _check_function(f, POS * 0.1)


def test_return_inside_a_tensor_while():
    def f(x):
        while x.sum() < 100:
            if x.max() > 20:
                return x * 0.5
            x = x * 3
        return x
    _check_function(f, POS)
    _check_function(f, POS * 50)


def test_a_python_while_unrolls():
    def f(x):
        n = 3
        while n > 0:
            x = x * 2
            n -= 1
        return x
    assert "while" not in str(jax.make_jaxpr(convert_function(f))(POS))
    _check_function(f, POS)


# -- for -------------------------------------------------------------------------------
def test_for_range_python_int_unrolls_and_long_range_scans():
    def f(x, n):
        for i in range(n):
            if x.sum() > 10 * i:
                x = x + i
        return x
    short = str(jax.make_jaxpr(convert_function(f), static_argnums=1)(POS, 3))
    long = str(jax.make_jaxpr(convert_function(f), static_argnums=1)(POS, 40))
    assert "scan" not in short and "scan" in long
    np.testing.assert_allclose(ms.jit(f)(POS, 40), f(POS, 40), rtol=1e-6)
    _close(jax.jit(jax.grad(lambda x: convert_function(f)(x, 40).sum()))(POS),
           jax.grad(lambda x: f(x, 40).sum())(POS))


def test_for_over_a_range_with_a_tensor_bound():
    def f(x, n):
        for i in range(n):
            x = x * 1.5 + i
        return x
    n = jnp.array(4)
    expected = f(POS, 4)
    np.testing.assert_allclose(ms.jit(f)(POS, n), expected, rtol=1e-6)
    _close(jax.jit(jax.grad(lambda x, k: convert_function(f)(x, k).sum()))(POS, n),
           jax.grad(lambda x: f(x, 4).sum())(POS))


def test_for_with_break_and_continue_on_tensor_conditions():
    def f(x):
        s = x * 0
        for i in range(4):
            if x[i % 3] * i > 2:
                break
            if x.sum() * i < 1:
                continue
            s = s + x * i
        return s
    for x in (POS, NEG):
        _check_function(f, x)


def test_for_over_tuples_lists_and_tensor_rows():
    def f(x):
        for scale in (1.0, -2.0, 3.0):
            if x.sum() * scale > 0:
                x = x * scale
        for row in jnp.stack([x, x * 2]):
            x = x + row.mean()
        return x
    _check_function(f, POS)
    _check_function(f, NEG)


def test_return_inside_a_for_loop():
    def f(x):
        for i in range(4):
            x = x + 1
            if x.sum() > 8:
                return x * i
        return -x
    for x in (POS, NEG):
        _check_function(f, x)


# -- calls, closures, recursion -------------------------------------------------------
def helper_abs_square(v):
    if v.sum() < 0:
        v = -v
    return v * v


def recursive_halve(v, depth):
    if depth == 0:
        return v
    if v.sum() > 1:
        v = v * 0.5
    return recursive_halve(v + 0.1, depth - 1)


def test_nested_calls_closures_and_recursion_of_fixed_depth():
    offset = jnp.array(0.25)

    def f(x):
        def local(z):
            return z + offset if z.max() > 1 else z - offset
        y = helper_abs_square(x)
        return recursive_halve(local(y), 3)
    _check_function(f, POS)
    _check_function(f, NEG)


# -- Cells -----------------------------------------------------------------------------
class Gate(nn.Cell):
    def __init__(self, threshold):
        super().__init__()
        self.threshold = threshold
        self.scale = ms.Parameter(ms.Tensor(np.array([0.5, 1.5, 2.0]), ms.float32), name="scale")

    def pick(self, x):
        if x.sum() > self.threshold:
            return x * self.scale
        return x - self.scale

    def construct(self, x):
        return self.pick(x)


class Counter(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = ms.Parameter(ms.Tensor(np.array([1.0, -1.0, 2.0]), ms.float32), name="w")
        self.counter = ms.Parameter(ms.Tensor(0.0, ms.float32), name="counter", requires_grad=False)
        self.gates = nn.CellList([Gate(0.0), Gate(3.0)])

    def construct(self, x):
        if x.sum() > 0:
            self.counter = self.counter + 1
            x = x * self.w
        i = 0
        while x.sum() < 20 and i < 5:
            self.counter = self.counter + 0.5
            x = x * 2 + self.w
            i += 1
        for gate in self.gates:
            x = gate(x)
        return x


@pytest.mark.parametrize("x", [POS, NEG], ids=["pos", "neg"])
def test_cell_with_parameters_written_in_branches_and_loops(x):
    _check_cell(Counter, x)


def test_parameter_counter_accumulates_over_graph_calls():
    ms.set_context(mode=ms.GRAPH_MODE)
    net = Counter()
    ms.set_context(mode=ms.PYNATIVE_MODE)
    ref = Counter()
    for x in (POS, NEG, POS):
        ms.set_context(mode=ms.GRAPH_MODE)
        net(x)
        ms.set_context(mode=ms.PYNATIVE_MODE)
        ref(x)
    assert float(net.counter) == float(ref.counter) > 0


class Base(nn.Cell):
    def construct(self, x):
        if x.sum() > 0:
            return x + 1
        return x - 1


class Child(Base):
    def __init__(self):
        super().__init__()
        self.body = nn.SequentialCell(Gate(0.0), Gate(1.0))

    def construct(self, x):
        for _ in range(2):
            x = self.body(x)
        return super().construct(x)


def test_super_sequential_cell_and_sub_cell_methods():
    _check_cell(Child, POS)
    _check_cell(Child, NEG)


class Noisy(nn.Cell):
    def construct(self, x):
        if x.sum() > 0:
            x = x + jax.random.normal(next_key(), x.shape)
        return x + jax.random.uniform(next_key(), x.shape)


def test_random_key_used_in_a_tensor_branch_advances_as_in_pynative():
    ms.set_context(mode=ms.PYNATIVE_MODE)
    ms.set_seed(3)
    ref = [Noisy()(x) for x in (POS, NEG, POS)]
    ms.set_context(mode=ms.GRAPH_MODE)
    ms.set_seed(3)
    net = Noisy()
    _close([net(x) for x in (POS, NEG, POS)], ref)


def test_training_flag_stays_a_python_condition():
    class Drop(nn.Cell):
        def construct(self, x):
            if self.training:
                return x * 2
            return x
    ms.set_context(mode=ms.GRAPH_MODE)
    net = Drop()
    np.testing.assert_allclose(net(POS), POS)
    net.set_train(True)
    np.testing.assert_allclose(net(POS), POS * 2)


def _break_then_branch(x, y):
    for e in range(2):
        x = e * y
        if x >= 2:
            break
    if y >= x:
        x = x * y
    return x + y


def _branch_of_products(x):
    out = x
    for e in range(2):
        x = e * out
        if x >= 2:
            break
    if out >= x:
        out = x * out
    return x + out


def test_grad_of_a_function_with_tensor_control_flow_converts_it(mode):
    # MindSpore's graph mode parses the function given to grad; MindSpore 2.10 gives [0] and [7].
    x, y = ms.Tensor(np.array([5], np.int32)), ms.Tensor(np.array([3], np.int32))
    dx, dy = ms.grad(_break_then_branch, grad_position=(0, 1))(x, y)
    assert dx.asnumpy().tolist() == [0] and dy.asnumpy().tolist() == [7]
    second = ms.grad(ms.grad(_branch_of_products, grad_position=(0,)), grad_position=(0,))
    assert second(x).asnumpy().tolist() == [2]


def test_grad_of_a_converted_function_inside_ms_jit():
    @ms.jit
    def step(x, y):
        return ms.grad(_break_then_branch, grad_position=(0, 1))(x, y)

    dx, dy = step(ms.Tensor(np.array([5.0], np.float32)), ms.Tensor(np.array([3.0], np.float32)))
    assert dx.asnumpy().tolist() == [0.0] and dy.asnumpy().tolist() == [7.0]
