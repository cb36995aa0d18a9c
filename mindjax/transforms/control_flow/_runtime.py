"""The helpers converted code calls (``_mj_rt.if_stmt(...)`` ...).

Each one looks at its condition at trace time: a Python value (or an array
whose value is known) keeps plain Python semantics; a traced array becomes
lax control flow (see :mod:`._lax`).
"""
from __future__ import annotations

import sys
import types
import warnings
from typing import Any, Callable, Sequence

import jax
import jax.numpy as jnp

from mindjax import context
from mindjax.common.tensor import Tensor
from mindjax.common.variable import Variable
from mindjax.transforms.control_flow import _lax
from mindjax.transforms.control_flow._errors import ControlFlowTraceError, Undefined, ValueDependentStructureError

UNROLL_MAX = 16   # a Python-bounded `for` longer than this becomes one lax.scan when it can

__all__: list[str] = []


def _truth(x: Any) -> bool:
    return bool(x)


# -- statements ----------------------------------------------------------------------------
def if_stmt(pred: Any, true_fn: Callable[..., Sequence[Any]], false_fn: Callable[..., Sequence[Any]],
            state: Sequence[Any], names: Sequence[str], info: str) -> tuple[Any, ...]:
    """``if pred: ... else: ...`` over ``state``; returns the state after the statement."""
    value = _lax.concrete(pred)
    if not _lax.is_traced(value):
        return tuple(true_fn(*state) if _truth(value) else false_fn(*state))
    return _lax.cond(_lax.as_predicate(value, info, "if"), (true_fn, false_fn), state, names, info)


def while_stmt(cond_fn: Callable[..., Any], body_fn: Callable[..., Sequence[Any]],
               state: Sequence[Any], names: Sequence[str], info: str) -> tuple[Any, ...]:
    """``while cond: body``: Python iterations while the condition is known, then a lax loop."""
    state = tuple(state)
    while True:
        value = _lax.concrete(cond_fn(*state))
        if _lax.is_traced(value):
            return _lax.while_loop(cond_fn, body_fn, state, names, info)
        if isinstance(value, Undefined):
            value._fail()
        if not _truth(value):
            return state
        state = tuple(body_fn(*state))


class _TracedRange:
    """``range`` with a bound that is a traced integer."""

    def __init__(self, start: Any, stop: Any, step: int) -> None:
        self.start, self.stop, self.step = start, stop, step


def range_(*args: Any) -> Any:
    """``range(...)``; a traced bound gives a loop whose trip count is a tensor."""
    values = [_lax.concrete(a) for a in args]
    if not any(_lax.is_traced(v) for v in values):
        return range(*(int(v) if not isinstance(v, int) else v for v in values))
    if len(values) == 1:
        start, stop, step = 0, values[0], 1
    else:
        start, stop = values[0], values[1]
        step = values[2] if len(values) > 2 else 1
    if _lax.is_traced(step):
        raise ValueError("range(): in GRAPH mode the step of a range must be known at compile time "
                         "(a Python int); only start and stop may be tensors")
    step = int(step)
    if step == 0:
        raise ValueError("range() arg 3 must not be zero")
    return _TracedRange(jnp.asarray(start, jnp.int32), jnp.asarray(stop, jnp.int32), step)


def for_stmt(iterable: Any, body_fn: Callable[..., Sequence[Any]], state: Sequence[Any],
             names: Sequence[str], brk: int | None, scan_ok: bool, info: str) -> tuple[Any, ...]:
    """``for item in iterable: body`` (``brk``: position of the break flag in the state)."""
    state = tuple(state)
    if isinstance(iterable, _TracedRange):
        return _traced_range_loop(iterable, body_fn, state, names, brk, info)
    if isinstance(iterable, range) and len(iterable) > UNROLL_MAX and scan_ok:
        out = _try_scan(jnp.arange(iterable.start, iterable.stop, iterable.step, dtype=jnp.int32),
                        body_fn, state, names, info)
        if out is not None:
            return out
    if isinstance(iterable, (jax.Array, Tensor)):
        if iterable.ndim == 0:
            raise TypeError(f"{info}: iteration over a 0-d tensor")
        if iterable.shape[0] > UNROLL_MAX and scan_ok:
            out = _try_scan(iterable, body_fn, state, names, info)
            if out is not None:
                return out
        rows = iterable
        iterable = [rows[i] for i in range(rows.shape[0])]
    for item in iterable:
        state = tuple(body_fn(item, *state))
        if brk is not None:
            flag = _lax.concrete(state[brk])
            if not _lax.is_traced(flag) and _truth(flag):
                break
    return state


_SCAN_FALLBACK = (jax.errors.ConcretizationTypeError, jax.errors.TracerIntegerConversionError,
                  jax.errors.TracerBoolConversionError, jax.errors.TracerArrayConversionError,
                  IndexError, TypeError, ControlFlowTraceError)


def _try_scan(xs: Any, body_fn: Callable[..., Sequence[Any]], state: tuple[Any, ...],
              names: Sequence[str], info: str) -> tuple[Any, ...] | None:
    """One lax.scan, or ``None`` when the body needs the index as a Python int (then unroll)."""
    try:
        return _lax.scan_loop(xs, body_fn, state, names, info)
    except _SCAN_FALLBACK:
        return None


def _traced_range_loop(rng: _TracedRange, body_fn: Callable[..., Sequence[Any]],
                       state: tuple[Any, ...], names: Sequence[str], brk: int | None,
                       info: str) -> tuple[Any, ...]:
    step = rng.step

    def cond(i: Any, *s: Any) -> Any:
        more = i < rng.stop if step > 0 else i > rng.stop
        if brk is not None:
            more = jnp.logical_and(more, jnp.logical_not(_bool_of(s[brk], info)))
        return more

    def body(i: Any, *s: Any) -> tuple[Any, ...]:
        return (i + step, *body_fn(i, *s))

    out = _lax.while_loop(cond, body, (rng.start, *state), ("<range index>", *names), info, "for")
    return out[1:]


def _bool_of(x: Any, info: str) -> Any:
    value = _lax.concrete(x)
    if not _lax.is_traced(value):
        return jnp.asarray(_truth(value))
    return _lax.as_predicate(value, info, "for")


# -- expressions ---------------------------------------------------------------------------
def not_(x: Any) -> Any:
    """``not x``."""
    value = _lax.concrete(x)
    if _lax.is_traced(value):
        return jnp.logical_not(_lax.as_predicate(value, "`not`", "not"))
    return not value


def not_set(*flags: Any) -> Any:
    """True while none of the break/continue/return flags is set."""
    result: Any = True
    for flag in flags:
        value = _lax.concrete(flag)
        if _lax.is_traced(value):
            result = jnp.logical_and(result, jnp.logical_not(_lax.as_predicate(value, "flag", "if")))
        elif _truth(value):
            return False
    return result


def _select(pred: Any, a: Any, b: Any, op: str) -> Any:
    """``a if pred else b`` for a traced scalar ``pred`` (values joined as MindSpore does)."""
    if not (_lax.is_array(a) or isinstance(a, (bool, int, float))) or \
            not (_lax.is_array(b) or isinstance(b, (bool, int, float))):
        raise TypeError(f"`{op}` on a tensor condition needs numbers or tensors on both sides, "
                        f"got {type(a).__name__} and {type(b).__name__}")
    return jnp.where(pred, a, b)


def and_(first: Any, *rest: Callable[[], Any]) -> Any:
    """``first and rest[0]() and ...`` with Python short-circuiting where values are known."""
    value = first
    for fn in rest:
        known = _lax.concrete(value)
        if not _lax.is_traced(known):
            if not _truth(known):
                return value
            value = fn()
            continue
        nxt = fn()
        value = _select(_lax.as_predicate(known, "`and`", "and"), nxt, value, "and")
    return value


def or_(first: Any, *rest: Callable[[], Any]) -> Any:
    """``first or rest[0]() or ...``."""
    value = first
    for fn in rest:
        known = _lax.concrete(value)
        if not _lax.is_traced(known):
            if _truth(known):
                return value
            value = fn()
            continue
        nxt = fn()
        value = _select(_lax.as_predicate(known, "`or`", "or"), value, nxt, "or")
    return value


def ifexp(pred: Any, true_fn: Callable[[], Any], false_fn: Callable[[], Any], info: str) -> Any:
    """``a if pred else b``; a traced ``pred`` gives a ``lax.cond``."""
    value = _lax.concrete(pred)
    if not _lax.is_traced(value):
        return true_fn() if _truth(value) else false_fn()
    out = _lax.cond(_lax.as_predicate(value, info, "if-expression"),
                    (lambda: (true_fn(),), lambda: (false_fn(),)), (), ("<expression>",), info,
                    what="... if ... else ...", strict=True)
    return out[0]


def getitem(value: Any, index: Any, info: str) -> Any:
    """``value[index]``; a boolean mask that is a tensor is rejected (data-dependent shape)."""
    for idx in (index if isinstance(index, tuple) else (index,)):
        if _lax.is_traced(idx) and jnp.issubdtype(idx.dtype, jnp.bool_) and getattr(idx, "ndim", 0) > 0 \
                and _lax.is_array(value if not hasattr(value, "_value") else value._value):
            raise ValueError(
                f"{info}: boolean-mask indexing `x[mask]` with a tensor mask gives a result whose "
                f"shape depends on the data, which GRAPH mode cannot compile; keep the shape with "
                f"`ops.select(mask, x, 0)` / `jnp.where(mask, x, 0)`, or reduce with a masked sum")
    if type(value) in (list, tuple) and _lax.is_traced(_raw_of(index)):
        return _sequence_item(value, index, info)
    return value[index]


def _raw_of(x: Any) -> Any:
    return x._value if isinstance(x, Tensor) else x


def _sequence_item(items: list[Any] | tuple[Any, ...], index: Any, info: str) -> Any:
    """``items[index]`` with a tensor index known only at run time: the items must be tensors of one
    shape and dtype, stacked and indexed in the program (an index out of range is clamped)."""
    raw = _raw_of(index)
    arrays = [_raw_of(item) for item in items]
    ok = raw.size == 1 and (jnp.issubdtype(raw.dtype, jnp.integer) or raw.dtype == jnp.bool_)
    same = bool(arrays) and all(_lax.is_array(a) for a in arrays) and \
        len({(jnp.shape(a), jnp.result_type(a)) for a in arrays}) == 1
    if not (ok and same):
        got = ", ".join(type(item).__name__ if not _lax.is_array(a) else f"{tuple(jnp.shape(a))}"
                        for item, a in zip(items[:4], arrays[:4])) + (", ..." if len(items) > 4 else "")
        raise ValueDependentStructureError(
            f"{info}: indexing a {type(items).__name__} with a tensor whose value is known only when the "
            f"program runs (shape {tuple(raw.shape)}, dtype {raw.dtype}) needs a one-element integer "
            f"index and items that are tensors of one shape and dtype, got items [{got}]; index with a "
            f"Python int, or stack the items into one tensor")
    picked = jnp.stack(arrays)[raw.reshape(()).astype(jnp.int32)]
    return Tensor._wrap(picked) if any(isinstance(item, Tensor) for item in items) else picked


def assert_(test: Any, message: Callable[[], Any] | None, info: str = "?") -> None:
    """``assert test, message``: checked when ``test`` is known at trace time.

    An assertion on a tensor value cannot stop an XLA program (MindSpore
    checks it at run time). It is skipped, as ``python -O`` skips every
    assertion, with a warning naming the line; the program's values are those
    of a run where it holds.
    """
    value = _lax.concrete(test)
    if _lax.is_traced(value):
        warnings.warn(f"{info}: `assert` on a tensor value is not checked in GRAPH mode (an XLA "
                      f"program cannot raise depending on data); check a Python value (a shape, "
                      f"an attribute) or check it in PYNATIVE mode", RuntimeWarning, stacklevel=2)
        return
    if not _truth(value):
        raise AssertionError(message()) if message is not None else AssertionError()


def raise_(exc: Any, info: str) -> Any:
    """The exception a ``raise`` statement raises: ``exc`` itself, unless under a tensor condition.

    GRAPH mode traces every branch of an ``if`` (and every loop body) whose
    condition is a tensor, whatever the data, so a ``raise`` reached there
    would fire on every call. It becomes a :class:`ControlFlowTraceError`
    naming both lines, with ``exc`` as its cause.
    """
    frame = _lax.current_frame()
    if frame is None:
        return exc
    inst = exc() if isinstance(exc, type) and issubclass(exc, BaseException) else exc
    if not isinstance(inst, BaseException):
        return exc
    shown = f"{type(inst).__name__}({str(inst)!r})" if str(inst) else type(inst).__name__
    err = ControlFlowTraceError(
        f"{info}: `raise {shown}` is reached while tracing the `{frame.what}` at {frame.info}, "
        f"whose condition is a tensor. GRAPH mode traces every branch and loop body whatever the "
        f"data, and an XLA program cannot raise a Python exception depending on tensor values. "
        f"Test a Python value instead (a shape, an attribute, an argument), keep the result "
        f"defined with `ops.select`/`jnp.where`, or run the check in PYNATIVE mode")
    err.__cause__ = inst
    return err


def setattr_(obj: Any, name: str, value: Any) -> None:
    """``obj.name = value``; under a tensor condition the write is undone and joined after it.

    In GRAPH mode a tensor written to an attribute that is not a Parameter is no
    longer differentiable, as in MindSpore, whose graph mode runs such a write in
    the Python interpreter (a PyExecute node, without a gradient): after
    ``self.p = x * 3; return self.p * x`` the gradient of ``x`` is ``self.p``.
    """
    if isinstance(getattr(obj, name, None), Variable):
        setattr(obj, name, value)   # Parameters track their own writes
        return
    if context.get_context("mode") == context.GRAPH_MODE and not isinstance(value, Variable):
        value = _without_gradient(value)
    if _lax.current_frame() is None:
        setattr(obj, name, value)
        return
    _lax.write(obj, "attr", name, value)


def _without_gradient(value: Any) -> Any:
    """``value`` with every Tensor or array in it cut from the gradient (containers rebuilt)."""
    if isinstance(value, Tensor) and not isinstance(value, Variable):
        return Tensor._wrap(jax.lax.stop_gradient(value._value))
    if isinstance(value, jax.Array):
        return jax.lax.stop_gradient(value)
    if type(value) in (tuple, list):
        return type(value)(_without_gradient(v) for v in value)
    return value


def setitem(obj: Any, key: Any, value: Any) -> Any:
    """``obj[key] = value``; returns the object the name holds afterwards.

    Tensors are immutable, so a tensor (or a Parameter, updated in place as in
    MindSpore) gets a functional update; containers are written in place.
    """
    if isinstance(obj, Variable):
        obj[key] = value
        return obj
    if isinstance(obj, Tensor):
        if _lax.current_frame() is None:
            obj[key] = value  # in place, so aliases and the caller's input see the write
            return obj
        # Under a tensor condition the write is functional: the branch returns the new Tensor.
        twin = Tensor._wrap(obj._value)
        twin[key] = value
        return twin
    if isinstance(obj, jax.Array):
        return obj.at[key].set(value)
    if _lax.current_frame() is None:
        obj[key] = value
    else:
        _lax.write(obj, "item", key, value)
    return obj


def _no_delete_under_tensor_condition(what: str, info: str) -> None:
    frame = _lax.current_frame()
    if frame is not None:
        raise ControlFlowTraceError(
            f"{info}: `del {what}` runs under the tensor condition of the `{frame.what}` at "
            f"{frame.info}; GRAPH mode cannot undo it on the path not taken. Delete it after the "
            f"`{frame.what}`, or assign a value on both paths")


def delattr_(obj: Any, name: str, info: str) -> None:
    """``del obj.name``."""
    _no_delete_under_tensor_condition(f"<{type(obj).__name__}>.{name}", info)
    delattr(obj, name)


def delitem(obj: Any, key: Any, info: str) -> None:
    """``del obj[key]``."""
    _no_delete_under_tensor_condition(f"<{type(obj).__name__}>[{key!r}]", info)
    del obj[key]


def print_(*args: Any, **kwargs: Any) -> None:
    """``print(...)`` when the compiled program runs, with tensor values, on every call.

    As in PYNATIVE (and MindSpore's graph mode), not once at trace time: the
    print is staged with ``jax.debug.callback``, so under a tensor condition
    it prints only when its branch runs.
    """
    leaves, tree = jax.tree_util.tree_flatten(args, is_leaf=lambda x: isinstance(x, Variable))
    leaves = [x._value if isinstance(x, Variable) else x for x in leaves]
    positions = [i for i, x in enumerate(leaves) if isinstance(x, jax.Array)]

    def show(*values: Any) -> None:
        filled = list(leaves)
        for i, v in zip(positions, values):
            filled[i] = v
        print(*jax.tree_util.tree_unflatten(tree, filled), **kwargs)

    jax.debug.callback(show, *[leaves[i] for i in positions])


def result(value: Any) -> Any:
    """The function's return value; an inconsistent one raises its reason."""
    for leaf in _lax.flatten(value)[0]:
        if isinstance(leaf, Undefined):
            leaf._fail()
    return value


def converted(fn: Any) -> Any:
    """Mark a function produced by the conversion (calls to it are not converted again)."""
    fn.__mj_converted__ = True
    return fn


# -- calls ---------------------------------------------------------------------------------
_LIBRARY_ROOTS = frozenset({
    "jax", "jaxlib", "numpy", "mindjax", "flax", "optax", "equinox", "builtins", "functools",
    "scipy", "collections", "typing", "math", "abc", "copy", "itertools", "operator", "mindspore",
    "_pytest", "pytest", "hypothesis", "inspect", "contextlib", "dataclasses", "enum", "re",
    "warnings", "logging", "os", "sys", "ml_dtypes", "opt_einsum", "orbax", "grain",
})
_STDLIB_PREFIX = sys.base_prefix


def _user_function(fn: Any) -> bool:
    if not isinstance(fn, types.FunctionType) or getattr(fn, "__mj_converted__", False):
        return False
    if fn.__name__ == "<lambda>" or hasattr(fn, "__wrapped__"):
        return False
    module = (fn.__module__ or "").split(".")[0]
    if module in _LIBRARY_ROOTS:
        return False
    filename = fn.__code__.co_filename
    return not ("site-packages" in filename or filename.startswith("<")
                or filename.startswith(_STDLIB_PREFIX + "/lib/python"))


_IN_PLACE = frozenset({"append", "extend", "insert", "pop", "remove", "clear", "update",
                       "setdefault", "popitem", "sort", "reverse", "__setitem__", "__delitem__"})


def call(fn: Any, /, *args: Any, **kwargs: Any) -> Any:
    """Call ``fn``, converting it first when it is user code (functions and methods).

    ``lst.append(...)`` and other in-place changes of a list or dict under a
    tensor condition are noted, undone after tracing the branch and joined
    after it, as attribute writes are.
    """
    from mindjax.transforms.control_flow._converter import convert_or_fallback

    if isinstance(fn, types.BuiltinMethodType) and type(fn.__self__) in (list, dict) and \
            fn.__name__ in _IN_PLACE and _lax.current_frame() is not None:
        _lax.journal_contents(fn.__self__)
        return fn(*args, **kwargs)
    if isinstance(fn, types.MethodType):
        func = fn.__func__
        if _user_function(func):
            return convert_or_fallback(func)(fn.__self__, *args, **kwargs)
        return fn(*args, **kwargs)
    if _user_function(fn):
        return convert_or_fallback(fn)(*args, **kwargs)
    return fn(*args, **kwargs)

