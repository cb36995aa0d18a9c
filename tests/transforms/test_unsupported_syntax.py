"""Syntax GRAPH mode cannot compile fails at conversion with file, line and a suggestion."""
import contextlib
import inspect

import jax.numpy as jnp
import pytest

import mindjax as ms
from mindjax import nn
from mindjax.transforms.control_flow import ControlFlowSyntaxError, convert_function

X = jnp.array([1.0, -2.0, 3.0])
COUNT = 0


def _line_of(fn, marker):
    lines, start = inspect.getsourcelines(fn)
    return start + next(i for i, line in enumerate(lines) if marker in line)


def _expect(fn, marker, construct, advice):
    line = _line_of(fn, marker)
    pattern = rf"test_unsupported_syntax\.py:{line}: {construct} is not supported; .*{advice}"
    with pytest.raises(ControlFlowSyntaxError, match=pattern) as info:
        ms.jit(fn)(X)
    assert info.value.lineno == line
    assert info.value.filename.endswith("test_unsupported_syntax.py")
    assert isinstance(info.value, SyntaxError)
    return info.value


def uses_try(x):
    try:
        y = x * 2
    except ValueError:
        y = x
    return y


def uses_with(x):
    with contextlib.suppress(ValueError):
        x = x * 2
    return x


def uses_yield(x):
    yield x


def uses_global(x):
    global COUNT
    COUNT = COUNT + 1
    return x


def uses_nonlocal(x):
    total = 0

    def add():
        nonlocal total
        total = total + 1
    add()
    return x


def uses_match(x):
    match x.ndim:
        case 1:
            return x
    return x


def uses_for_else(x):
    for i in range(2):
        x = x + i
    else:
        x = x * 2
    return x


def test_try_is_rejected_with_its_line():
    _expect(uses_try, "try:", r"`try`/`except`", r"check the condition with `if`")


def test_with_is_rejected_with_its_line():
    _expect(uses_with, "with contextlib", "`with`", "outside the compiled Cell or function")


def test_yield_is_rejected_with_its_line():
    _expect(uses_yield, "yield x", r"`yield` \(a generator\)", "build a list or tuple")


def test_global_and_nonlocal_are_rejected():
    _expect(uses_global, "global COUNT", "`global`", "Parameter")
    _expect(uses_nonlocal, "nonlocal total", "`nonlocal`", "return the new value")


def test_match_is_rejected():
    _expect(uses_match, "match x.ndim", "`match`", "if`/`elif`/`else")


def test_loop_else_is_rejected():
    err = _expect(uses_for_else, "else:", r"`for \.\.\. else`", "set a flag before `break`")
    assert "uses_for_else" in str(err)


def stores_loop_lambda(x):
    fns = []
    for i in range(3):
        fns.append(lambda v: v * i)
    return fns[0](x)


def binds_loop_lambda(x):
    fns = []
    for i in range(3):
        fns.append(lambda v, i=i: v * i)
    return fns[1](x)


def test_lambda_kept_past_its_iteration_capturing_the_loop_variable_is_rejected():
    line = _line_of(stores_loop_lambda, "fns.append")
    with pytest.raises(ControlFlowSyntaxError,
                       match=rf":{line}: a lambda kept beyond its loop iteration captures the loop "
                             rf"variable 'i'; bind it as a default argument"):
        ms.jit(stores_loop_lambda)(X)
    assert float(ms.jit(binds_loop_lambda)(X)[0]) == 1.0


class TryNet(nn.Cell):
    def construct(self, x):
        try:
            return x * 2
        finally:
            pass


def test_cell_construct_with_try_fails_in_graph_mode_and_runs_in_pynative():
    assert float(TryNet()(X)[0]) == 2.0
    ms.set_context(mode=ms.GRAPH_MODE)
    with pytest.raises(ControlFlowSyntaxError, match=r"in 'TryNet.construct', GRAPH mode"):
        TryNet()(X)


def masks(x):
    return x[x > 0].sum()


def masks_in_cell_method(x):
    keep = x > 0
    y = x * 2
    return y[keep]


def test_boolean_mask_indexing_on_a_traced_tensor_fails_with_its_line():
    for fn, marker in ((masks, "x[x > 0]"), (masks_in_cell_method, "y[keep]")):
        line = _line_of(fn, marker)
        with pytest.raises(ValueError, match=rf"test_unsupported_syntax\.py:{line}: boolean-mask "
                                             r"indexing .*data.*jnp\.where\(mask, x, 0\)"):
            ms.jit(fn)(X)
    assert float(masks(X)) == 4.0   # PYNATIVE keeps numpy semantics


def test_a_multi_element_tensor_condition_is_an_error_naming_the_line():
    def f(x):
        if x > 0:
            x = x * 2
        return x
    line = _line_of(f, "if x > 0")
    with pytest.raises(ValueError, match=rf":{line}: the condition of `if` is a tensor of shape "
                                         r"\(3,\); .*exactly one element"):
        ms.jit(f)(X)


def test_functions_without_source_run_unconverted():
    namespace = {}
    exec("def f(x):\n    return x * 3\n", namespace)  # noqa: S102 - no source on purpose
    assert convert_function(namespace["f"]) is namespace["f"]
    assert float(ms.jit(namespace["f"])(X)[0]) == 3.0
