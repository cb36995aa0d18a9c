"""Every statement kind inside converted control flow: GRAPH gives PYNATIVE's behaviour.

Each case runs the same code in PYNATIVE and in GRAPH and compares values (and
gradients where they mean something). With Python-valued conditions plain
Python semantics must hold, raising included; with tensor conditions the
statement compiles or fails at trace time with an error naming the line.
"""
import re
import warnings

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import mindjax as ms
from mindjax import nn
from mindjax.transforms.control_flow import ControlFlowTraceError

SHORT = jnp.array([[1.0, 2.0, 0.5, -1.0], [0.0, 1.0, 3.0, 2.0]], jnp.float32)
LONG = jnp.ones((2, 16), jnp.float32)
POS = jnp.array([1.0, 2.0, 0.5], jnp.float32)
NEG = jnp.array([-1.0, -2.0, 0.5], jnp.float32)
HERE = re.escape(__file__.rsplit("/", 1)[-1])


def _close(a, b):
    la, lb = jax.tree_util.tree_leaves(a), jax.tree_util.tree_leaves(b)
    assert len(la) == len(lb)
    for x, y in zip(la, lb):
        np.testing.assert_allclose(np.asarray(x), np.asarray(y), rtol=1e-6, atol=1e-6)


def _in_mode(mode, make, *args):
    ms.set_context(mode=mode)
    try:
        return make()(*args)
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)


def _same_in_both_modes(make, *args, grad=False):
    """``make()``'s Cell called on ``args`` in PYNATIVE and in GRAPH: same values (and input grads)."""
    expected = _in_mode(ms.PYNATIVE_MODE, make, *args)
    got = _in_mode(ms.GRAPH_MODE, make, *args)
    _close(got, expected)
    if grad:
        ref = ms.grad(make())(*args)
        ms.set_context(mode=ms.GRAPH_MODE)
        _close(jax.jit(ms.grad(make()))(*args), ref)
        ms.set_context(mode=ms.PYNATIVE_MODE)
    return got


def _raises_in_both_modes(make, args, error, match):
    for mode in (ms.PYNATIVE_MODE, ms.GRAPH_MODE):
        with pytest.raises(error, match=match):
            _in_mode(mode, make, *args)


# -- the reported bug and its variants --------------------------------------------------------
def _require(ok, message):
    if not ok:
        raise ValueError(message)


class LimitNet(nn.Cell):
    def __init__(self):
        super().__init__()
        self.limit = 8

    def construct(self, x):
        seq = x.shape[-1]
        if seq > self.limit:
            raise ValueError("too long")
        y = x * 2
        return y


class RequireHelper(nn.Cell):
    def construct(self, x):
        _require(x.shape[-1] <= 8, "too long")
        return x * 2


class InlineShapeCheck(nn.Cell):
    def construct(self, x):
        if x.shape[-1] > 8:
            raise ValueError("too long")
        return x * 2


class ShapeCheckThenUse(nn.Cell):
    def construct(self, x):
        n = x.shape[-1]
        if n > 8:
            raise ValueError("too long")
        return x * n


@pytest.mark.parametrize("cls", [LimitNet, RequireHelper, InlineShapeCheck, ShapeCheckThenUse])
def test_python_valued_raise_guard_runs_when_false_and_raises_when_true(cls):
    _same_in_both_modes(cls, SHORT, grad=cls is ShapeCheckThenUse)
    _raises_in_both_modes(cls, (LONG,), ValueError, "too long")


# -- raise ----------------------------------------------------------------------------------
class RaiseInElifElse(nn.Cell):
    def __init__(self, kind):
        super().__init__()
        self.kind = kind

    def construct(self, x):
        if self.kind == "double":
            y = x * 2
        elif self.kind == "bad":
            raise ValueError(f"kind {self.kind!r} is not allowed")
        elif self.kind == "neg":
            y = -x
        else:
            raise TypeError("unknown kind")
        return y + 1


def test_raise_in_elif_and_else_with_python_conditions_is_python_semantics():
    _same_in_both_modes(lambda: RaiseInElifElse("double"), POS)
    _same_in_both_modes(lambda: RaiseInElifElse("neg"), POS)
    _raises_in_both_modes(lambda: RaiseInElifElse("bad"), (POS,), ValueError, "kind 'bad' is not")
    _raises_in_both_modes(lambda: RaiseInElifElse("other"), (POS,), TypeError, "unknown kind")


class RaiseInLoop(nn.Cell):
    def __init__(self, bad):
        super().__init__()
        self.bad = bad

    def construct(self, x):
        s = x
        for i in range(4):
            if i == self.bad:
                raise IndexError(f"step {i} failed")
            s = s * 1.5 + i
        return s


def test_raise_in_python_loop_under_python_condition():
    _same_in_both_modes(lambda: RaiseInLoop(10), POS, grad=True)
    _raises_in_both_modes(lambda: RaiseInLoop(2), (POS,), IndexError, "step 2 failed")


class RaiseOnTensor(nn.Cell):
    def construct(self, x):
        if x.sum() > 10:
            raise ValueError("too big")
        return x * 2


def test_raise_under_tensor_condition_is_a_trace_error_naming_both_lines():
    np.testing.assert_allclose(_in_mode(ms.PYNATIVE_MODE, RaiseOnTensor, POS), POS * 2)
    with pytest.raises(ControlFlowTraceError,
                       match=rf"{HERE}:\d+: `raise ValueError\('too big'\)` is reached while "
                             rf"tracing the `if` at \S*{HERE}:\d+, whose condition is a tensor") as err:
        _in_mode(ms.GRAPH_MODE, RaiseOnTensor, POS)
    assert isinstance(err.value.__cause__, ValueError)
    assert "Test a Python value instead" in str(err.value)


class RaiseInTensorLoop(nn.Cell):
    def construct(self, x):
        i = 0
        while x.sum() > i:
            _require(i < 100, "runaway loop")
            i = i + 1
        return x * i


def test_raise_reached_inside_a_tensor_loop_through_a_helper_is_a_trace_error():
    np.testing.assert_allclose(_in_mode(ms.PYNATIVE_MODE, RaiseInTensorLoop, POS), POS * 4)
    with pytest.raises(ControlFlowTraceError,
                       match=r"(?s)raise ValueError\('runaway loop'\).*while tracing the `while` at"):
        _in_mode(ms.GRAPH_MODE, RaiseInTensorLoop, POS)


def test_raise_with_python_condition_under_a_long_python_loop_unrolls_instead_of_scanning():
    @ms.jit
    def f(x):
        for i in range(20):
            _require(i < 30, "never")
            x = x + i
        return x

    np.testing.assert_allclose(f(POS), POS + 190)


# -- assert, pass, print, del ---------------------------------------------------------------
class AssertNet(nn.Cell):
    def __init__(self, width):
        super().__init__()
        self.width = width

    def construct(self, x):
        assert x.shape[-1] == self.width, f"expected width {self.width}, got {x.shape[-1]}"
        if self.width > 3:
            assert self.width < 8
            pass
        else:
            pass
        return x + 1


def test_assert_and_pass_with_python_values():
    _same_in_both_modes(lambda: AssertNet(4), SHORT)
    _raises_in_both_modes(lambda: AssertNet(5), (SHORT,), AssertionError, "expected width 5, got 4")
    # pytest rewrites the PYNATIVE assert message, so only the type is compared here
    _raises_in_both_modes(lambda: AssertNet(9), (jnp.ones((1, 9)),), AssertionError, None)


class AssertOnTensor(nn.Cell):
    def construct(self, x):
        assert x.sum() > 0, "positive"
        if x[0] > 0:
            pass
        else:
            x = x - 1
        return x * 3


def test_assert_on_tensor_is_skipped_with_a_warning_naming_the_line():
    with pytest.warns(RuntimeWarning, match=rf"{HERE}:\d+: `assert` on a tensor value is not checked"):
        got = _in_mode(ms.GRAPH_MODE, AssertOnTensor, POS)
    np.testing.assert_allclose(got, POS * 3)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        _same_in_both_modes(AssertOnTensor, jnp.array([-1.0, 2.0, 0.5]))


class PrintNet(nn.Cell):
    def __init__(self, verbose):
        super().__init__()
        self.verbose = verbose

    def construct(self, x):
        if self.verbose:
            print("input", x, "width", x.shape[-1])
        if x.sum() > 0:
            print("positive branch", x.sum())
        else:
            print("negative branch")
        return x * 2


def test_print_shows_tensor_values_on_every_call_and_only_for_the_branch_taken(capsys):
    for mode in (ms.PYNATIVE_MODE, ms.GRAPH_MODE):
        ms.set_context(mode=mode)
        net = PrintNet(True)
        net(POS)
        net(NEG)
        jax.effects_barrier()
        lines = capsys.readouterr().out.strip().splitlines()
        assert lines == ["input [1.  2.  0.5] width 3", "positive branch 3.5",
                         "input [-1.  -2.   0.5] width 3", "negative branch"], (mode, lines)
    ms.set_context(mode=ms.GRAPH_MODE)
    PrintNet(False)(POS)
    jax.effects_barrier()
    assert capsys.readouterr().out == "positive branch 3.5\n"


class DelNet(nn.Cell):
    def __init__(self, drop):
        super().__init__()
        self.drop = drop

    def construct(self, x):
        tmp = x * 2
        d = {"a": x, "b": x * 3}
        if self.drop:
            del tmp
            del d["b"]
            tmp = x * 5
        return tmp + sum(d.values())


def test_del_of_names_and_items_under_python_condition():
    _same_in_both_modes(lambda: DelNet(True), POS, grad=True)
    _same_in_both_modes(lambda: DelNet(False), POS, grad=True)


class DelUnderTensor(nn.Cell):
    def construct(self, x):
        d = {"a": x, "b": x * 3}
        if x.sum() > 0:
            del d["b"]
        return sum(d.values())


class DelNameUnderTensor(nn.Cell):
    def construct(self, x):
        y = x * 2
        if x.sum() > 0:
            del y
        return x + y


def test_del_under_tensor_condition_is_an_error_naming_the_line():
    with pytest.raises(ControlFlowTraceError, match=rf"{HERE}:\d+: `del <dict>\['b'\]` runs under "
                                                    rf"the tensor condition of the `if`"):
        _in_mode(ms.GRAPH_MODE, DelUnderTensor, POS)
    with pytest.raises(ValueError, match="'y' is defined on one path only"):
        _in_mode(ms.GRAPH_MODE, DelNameUnderTensor, POS)


# -- early return ---------------------------------------------------------------------------
class ReturnInOneBranch(nn.Cell):
    def __init__(self, early):
        super().__init__()
        self.early = early

    def construct(self, x):
        if self.early:
            return x * 10
        y = x + 1
        if x.sum() > 0:
            y = y * 2
        return y


class FallOffEnd(nn.Cell):
    def __init__(self, give):
        super().__init__()
        self.give = give

    def construct(self, x):
        for i in range(3):
            x = x + i
            if i == self.give:
                return x


def test_return_in_one_branch_with_python_condition():
    for early in (True, False):
        _same_in_both_modes(lambda: ReturnInOneBranch(early), POS, grad=True)
        _same_in_both_modes(lambda: ReturnInOneBranch(early), NEG)
    _same_in_both_modes(lambda: FallOffEnd(1), POS, grad=True)
    assert _in_mode(ms.GRAPH_MODE, lambda: FallOffEnd(7), POS) is None


# -- nested functions -----------------------------------------------------------------------
class NestedDefInBranch(nn.Cell):
    def __init__(self, square):
        super().__init__()
        self.square = square

    def construct(self, x):
        if self.square:
            def act(v):
                if v.sum() > 0:
                    return v * v
                return -v
        else:
            def act(v):
                return v + 1
        scale = 3.0

        def scaled(v):
            return act(v) * scale
        if x.sum() > 0:
            out = scaled(x)
        else:
            out = act(x)
        return out


def test_nested_functions_defined_in_branches():
    for square in (True, False):
        for x in (POS, NEG):
            _same_in_both_modes(lambda: NestedDefInBranch(square), x, grad=True)


# -- break and continue under Python conditions in tensor-bounded loops ---------------------
class PythonExitsInTensorLoop(nn.Cell):
    def __init__(self, stop, skip_odd):
        super().__init__()
        self.stop, self.skip_odd = stop, skip_odd

    def construct(self, x, n):
        s = x * 0
        for i in range(n):
            if self.skip_odd:
                if i % 2 == 1:
                    continue
            s = s + x * i
            if self.stop:
                break
        k = n
        while k > 0:
            k = k - 1
            if self.stop:
                continue
            s = s + 1
        return s


def test_break_and_continue_under_python_conditions_in_loops_with_tensor_bounds():
    n = jnp.asarray(5, jnp.int32)
    for stop in (True, False):
        for skip_odd in (True, False):
            _same_in_both_modes(lambda: PythonExitsInTensorLoop(stop, skip_odd), POS, n)


# -- attribute and subscript assignment -----------------------------------------------------
class AttrAndItemWrites(nn.Cell):
    def __init__(self, mode):
        super().__init__()
        self.mode = mode
        self.calls = 0
        self.cache = {"scale": 1.0}

    def construct(self, x):
        if self.mode == "count":
            self.calls = self.calls + 1
            self.cache["scale"] = 4.0
        if x.sum() > 0:
            self.factor = x * 2
            self.cache["scale"] = 3.0
            self.tag = "pos"
        else:
            self.factor = x * 5
            self.tag = "pos"
        parts = [x, x]
        table = {"k": x}
        if x[0] > 0:
            parts[1] = x * 7
            table["k"] += 1
        return self.factor * self.cache["scale"] + parts[1] + table["k"] + self.calls


def test_attribute_and_subscript_assignment_in_branches():
    for x in (POS, NEG):
        for mode in ("count", "plain"):
            _same_in_both_modes(lambda: AttrAndItemWrites(mode), x)
            # GRAPH mode cuts the gradient at the write to self.factor, as MindSpore's graph mode
            # (a PyExecute); the container writes stay differentiable: d(parts[1] + table["k"])/dx.
            ms.set_context(mode=ms.GRAPH_MODE)
            grad = jax.jit(ms.grad(AttrAndItemWrites(mode)))(x)
            ms.set_context(mode=ms.PYNATIVE_MODE)
            np.testing.assert_allclose(np.asarray(grad), np.full(x.shape, 8.0 if x[0] > 0 else 2.0))
    ms.set_context(mode=ms.GRAPH_MODE)
    net = AttrAndItemWrites("plain")
    net(POS)
    assert net.tag == "pos" and net.calls == 0


class TensorItemWrite(nn.Cell):
    def construct(self, x):
        y = x * 1
        if x.sum() > 0:
            y[0] = 10.0
        y[2] += 1.0
        return y


def test_tensor_item_assignment_updates_functionally_in_graph_mode():
    # jax arrays are immutable, so PYNATIVE cannot run this; GRAPH follows MindSpore's setitem.
    got = _in_mode(ms.GRAPH_MODE, TensorItemWrite, POS)
    np.testing.assert_allclose(got, [10.0, 2.0, 1.5])
    got = _in_mode(ms.GRAPH_MODE, TensorItemWrite, NEG)
    np.testing.assert_allclose(got, [-1.0, -2.0, 1.5])


class AttrInTensorLoop(nn.Cell):
    def construct(self, x):
        while x.sum() < 10:
            x = x * 2
            self.last = x
        return x


class AttrOnOnePath(nn.Cell):
    def construct(self, x):
        if x.sum() > 0:
            self.fresh_attribute = x
        return x


def test_attribute_writes_that_cannot_follow_tensor_control_flow_name_the_line():
    with pytest.raises(ControlFlowTraceError, match=rf"{HERE}:\d+: `<AttrInTensorLoop>.last` is "
                                                    rf"written inside the `while`"):
        _in_mode(ms.GRAPH_MODE, AttrInTensorLoop, POS)
    with pytest.raises(ValueError, match=r"`<AttrOnOnePath>.fresh_attribute` is assigned on one "
                                         rf"path only of the `if` at \S*{HERE}:\d+"):
        _in_mode(ms.GRAPH_MODE, AttrOnOnePath, POS)


# -- elif chains, walrus --------------------------------------------------------------------
class MixedElif(nn.Cell):
    def __init__(self, mode):
        super().__init__()
        self.mode = mode

    def construct(self, x):
        if self.mode == "id":
            y = x
        elif x.sum() > 3:
            y = x * 2
        elif self.mode == "neg":
            y = -x
        elif x[0] > 0:
            y = x + 10
        else:
            y = x * 0.5
        return y


def test_elif_chain_mixing_python_and_tensor_conditions():
    for mode in ("id", "neg", "other"):
        for x in (POS, NEG, POS * 0.1):
            _same_in_both_modes(lambda: MixedElif(mode), x, grad=mode == "other")


class Walrus(nn.Cell):
    def construct(self, x):
        if (n := x.shape[-1]) > 2:
            x = x * n
        if (s := x.sum()) > 0:
            x = x + s
        return x, s


def test_walrus_assignment_in_conditions():
    for x in (POS, NEG):
        _same_in_both_modes(Walrus, x)


class ListChangedInBranches(nn.Cell):
    def construct(self, x):
        outs = [x]
        if x.sum() > 0:
            outs.append(x * 2)
        else:
            outs.append(x - 1)
        outs.extend([x])
        return outs[0] + outs[1] * outs[2]


class ListChangedOnOnePath(nn.Cell):
    def construct(self, x):
        outs = [x]
        if x.sum() > 0:
            outs.append(x * 2)
        return outs[-1]


class ListChangedInTensorLoop(nn.Cell):
    def construct(self, x):
        outs = []
        while x.sum() < 10:
            x = x * 2
            outs.append(x)
        return x


def test_list_changed_in_place_under_tensor_conditions():
    for x in (POS, NEG):
        _same_in_both_modes(ListChangedInBranches, x, grad=True)
    with pytest.raises(ValueError, match=r"`list` changed in place.* has structure"):
        _in_mode(ms.GRAPH_MODE, ListChangedOnOnePath, POS)
    with pytest.raises(ControlFlowTraceError, match=rf"{HERE}:\d+: a `list` changed in place is "
                                                    rf"written inside the `while`"):
        _in_mode(ms.GRAPH_MODE, ListChangedInTensorLoop, POS)


def test_generator_expression_in_a_compiled_function_is_a_list_as_in_mindspore():
    # MindSpore 2.10 GRAPH/jit, measured: `return (l * l for l in range(10) if l > 5)` gives the list
    # [36, 49, 64, 81]; sum() and tuple() over a generator expression give their usual values.
    @ms.jit
    def squares(x):
        return (l * l for l in range(10) if l > 5)

    @ms.jit
    def reductions(x):
        return sum(x * i for i in range(3)), tuple(i for i in range(3))

    assert squares(ms.Tensor([1.0])) == [36, 49, 64, 81]
    total, items = reductions(ms.Tensor([1.0]))
    np.testing.assert_allclose(total.asnumpy(), [3.0])
    assert items == (0, 1, 2)


def test_grad_of_a_cell_returning_a_generator_expression_of_constants_is_zero():
    class Squares(nn.Cell):
        @ms.jit
        def construct(self, x):
            return (l * l for l in range(10) if l > 5)

    grad = ms.ops.GradOperation()(Squares())(ms.Tensor(np.full((2, 3), 5.0, np.float32)))
    np.testing.assert_array_equal(grad.asnumpy(), np.zeros((2, 3), np.float32))


class GrowsInTensorLoop(nn.Cell):
    def __init__(self):
        super().__init__()
        self.param = ms.Parameter(ms.Tensor(np.arange(8, dtype=np.float32).reshape(2, 2, 2)), name="param")

    def construct(self, idx, end):
        out = ms.Tensor(np.zeros([1], np.float32))
        while idx < end:
            out = out + self.param
            idx = idx + 1
        return out


def test_tensor_loop_whose_variable_grows_by_broadcasting_raises_with_the_shape_to_give_it():
    # MindSpore joins (1,) and (2, 2, 2) into a dynamic shape (measured: 0..3 gives (2, 2, 2), 3..3
    # gives (1,)); one XLA program cannot, so GRAPH mode names the variable and the shape to start from.
    ms.set_context(mode=ms.GRAPH_MODE)
    with pytest.raises(ValueError, match=r"'out' is a tensor of shape \(1,\) .* shape \(2, 2, 2\) .*"
                                         r"dynamic shape.*give it the shape \(2, 2, 2\) before"):
        GrowsInTensorLoop()(ms.Tensor(0, ms.int32), ms.Tensor(3, ms.int32))


def test_a_list_of_same_shaped_tensors_indexed_by_a_run_time_tensor_picks_the_item():
    # MindSpore 2.10 GRAPH/jit, measured: [a, b, c][i] * 2 with i = Tensor([1]) and Tensor(2) gives [4.], [6.].
    @ms.jit
    def pick(i, a, b, c):
        items = [a, b, c]
        return items[i] * 2

    items = [ms.Tensor([1.0]), ms.Tensor([2.0]), ms.Tensor([3.0])]
    np.testing.assert_allclose(pick(ms.Tensor([1]), *items).asnumpy(), [4.0])
    np.testing.assert_allclose(pick(ms.Tensor(2), *items).asnumpy(), [6.0])


def test_a_list_of_unlike_items_indexed_by_a_run_time_tensor_raises_naming_the_line():
    # An integer input as the index is made a constant (tests/transforms/test_value_dependent_structure.py);
    # an index computed from a float input cannot be.
    @ms.jit
    def pick(x):
        rows = [[1], [2, 3], [4]]
        return rows[(x > 0).astype(ms.int32)]

    with pytest.raises(ValueError, match=HERE + r":\d+: indexing a list with a tensor whose value is known only "
                                               r"when the program runs .* got items \[list, list, list\]"):
        pick(ms.Tensor([2.0]))

    @ms.jit
    def pick_by_input(i):
        return [[1], [2, 3], [4]][i]

    assert pick_by_input(ms.Tensor([2])) == [4]   # MindSpore 2.10: [4]
