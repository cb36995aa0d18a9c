"""GRAPH mode and ``@ms.jit``: one ``jax.jit`` program per input signature.

A compiled call passes the values of the Variables it touches (Parameters,
the random state) into a pure function and writes back the ones the program
changed (BatchNorm statistics, optimizer moments, the random key). For a Cell
the Variables are its tree's Parameters; for a plain function they are
discovered while tracing: a trace that touches a Variable it was not given is
abandoned, the Variable is added, and the function is traced again.

Arguments that are arrays are traced; every other leaf (Python numbers,
strings, ``None``) is a compile-time constant, as in MindSpore's graph mode.

Example:
    >>> import mindjax as ms
    >>> @ms.jit
    ... def step(x):
    ...     return x * 2 + 1
    >>> float(step(ms.Tensor(1.0)))
    3.0
"""
from __future__ import annotations

import functools
from typing import Any, Callable, Sequence

import jax
import numpy as np

from mindjax import context
from mindjax.common.checks import checks_output, collect_checks, raise_failed_checks
from mindjax.common.random import RNG_STATE
from mindjax.common.tensor import Tensor
from mindjax.common.variable import Variable, stop_tracking, track_access
from mindjax.cells.state import collect_variables, structure_version
from mindjax.transforms._static_outputs import box_static, unbox_static
from mindjax.transforms.control_flow import convert_function  # also installs the construct hook

_DYNAMIC_TYPES = (jax.Array, np.ndarray, np.generic)


class _NewVariables(Exception):
    """A trace touched Variables it was not given; it is retried with them."""

    def __init__(self, found: list[Variable]) -> None:
        super().__init__(f"{len(found)} new variables")
        self.found = found


def run_over_state(variables: Sequence[Variable], values: Sequence[Any], known: set[int],
                   fn: Callable[[], Any]) -> tuple[Any, list[Any]]:
    """Run ``fn()`` with ``variables`` holding ``values`` (tracers); return its output and their new values.

    The Variables get their own values back afterwards, whatever happens. A
    Variable touched during the run whose id is not in ``known`` raises
    ``_NewVariables``: the caller adds it to the state and traces again.
    """
    saved = [v._raw for v in variables]
    for var, val in zip(variables, values):
        object.__setattr__(var, "_raw", val)
    tracker = track_access()
    context._IN_COMPILED[0] += 1
    try:
        out = fn()
        new_values = [v._raw for v in variables]
    finally:
        context._IN_COMPILED[0] -= 1
        stop_tracking(tracker)
        for var, val in zip(variables, saved):
            object.__setattr__(var, "_raw", val)
        tracker.restore_outside(known)
    unknown = [v for k, v in tracker.touched.items() if k not in known]
    if unknown:
        raise _NewVariables(unknown)
    return out, new_values


def add_new_variables(variables: list[Variable], known: set[int], grow: _NewVariables, where: str) -> None:
    """Append the Variables a trace found to the state (``grow`` from :func:`run_over_state`)."""
    added = [v for v in grow.found if id(v) not in known]
    if not added:  # cannot happen unless a Variable's identity is unstable
        raise RuntimeError(f"{where}: the Variables touched while tracing keep changing; a Parameter is "
                           f"being re-created inside the compiled function") from None
    for var in added:
        known.add(id(var))
        variables.append(var)


class _VariableArg:
    """A Parameter passed as an argument: kept by identity, so the trace sees the object.

    Its reads are then discovered like any other Variable the program touches,
    and writes to it are written back (MindSpore: assigning to a Parameter input
    updates it).
    """

    __slots__ = ("var",)

    def __init__(self, var: Variable) -> None:
        self.var = var

    def __hash__(self) -> int:
        return id(self.var)

    def __eq__(self, other: Any) -> bool:
        return isinstance(other, _VariableArg) and other.var is self.var


def _is_variable(x: Any) -> bool:
    return isinstance(x, Variable)


def _is_tensor(x: Any) -> bool:
    return isinstance(x, Tensor)


def _input_tensors(tree: Any) -> list[Tensor]:
    """The plain (non-state) Tensors among the arguments, in flattening order."""
    return [x for x in jax.tree_util.tree_leaves(tree, is_leaf=_is_tensor)
            if isinstance(x, Tensor) and not isinstance(x, Variable)]


def _split_args(args: tuple[Any, ...], kwargs: dict[str, Any]) -> tuple[list[Any], Any]:
    leaves, treedef = jax.tree_util.tree_flatten((args, kwargs), is_leaf=_is_variable)
    dynamic: list[Any] = []
    static: list[Any] = []
    for leaf in leaves:
        if isinstance(leaf, Variable):
            static.append(_VariableArg(leaf))
        elif isinstance(leaf, _DYNAMIC_TYPES):
            dynamic.append(leaf)
            static.append(_DYNAMIC)
        else:
            static.append(leaf)
    key = (treedef, tuple(static))
    try:
        hash(key)
    except TypeError:
        bad = next(type(s).__name__ for s in static if _unhashable(s))
        raise TypeError(f"a compiled call got an argument of type {bad} that is neither an array "
                        f"nor hashable; pass arrays, numbers, strings, tuples, lists or dicts") from None
    return dynamic, key


def _unhashable(x: Any) -> bool:
    try:
        hash(x)
    except TypeError:
        return True
    return False


class _Dynamic:
    """Marks a traced position in the static key."""

    def __repr__(self) -> str:
        return "<traced>"


_DYNAMIC = _Dynamic()


def _join_args(dynamic: Sequence[Any], key: Any) -> tuple[tuple[Any, ...], dict[str, Any]]:
    treedef, static = key
    it = iter(dynamic)
    leaves = [next(it) if s is _DYNAMIC else s.var if isinstance(s, _VariableArg) else s
              for s in static]
    return jax.tree_util.tree_unflatten(treedef, leaves)


class CompiledFunction:
    """``fn`` compiled with ``jax.jit`` over the Variables it touches.

    Arguments:
        fn: the Python function (for a Cell, its ``_call_impl``).
        variables: Variables known to be touched (grows while tracing).
        where: how errors name this function (``"For 'Net'"``).
    """

    def __init__(self, fn: Callable[..., Any], variables: Sequence[Variable], where: str) -> None:
        self.fn = fn
        self.variables: list[Variable] = list(variables)
        self._ids = {id(v) for v in self.variables}
        self.where = where
        self._written: dict[Any, list[int]] = {}
        # No donation: only written Variables come back, so donating the others would
        # free buffers their Parameters still hold. Training steps donate in train/_step.py.
        self._jitted = jax.jit(self._pure, static_argnums=(2,))

    def _pure(self, values: list[Any], dynamic: list[Any], key: Any) -> tuple[Any, list[Any], list[Any]]:
        args, kwargs = _join_args(dynamic, key)
        inputs = _input_tensors((args, kwargs))
        before = [t._raw for t in inputs]
        variables = self.variables[:len(values)]
        # Value checks (out-of-range indices) come back as outputs; see mindjax.common.checks.
        with collect_checks() as checks:
            out, new_values = run_over_state(variables, values, self._ids, lambda: self.fn(*args, **kwargs))
        written = [i for i, (a, b) in enumerate(zip(values, new_values)) if a is not b]
        # An in-place write to an input Tensor (``x[0] = 1`` in construct) is written back to the
        # caller's Tensor, as MindSpore does.
        changed = [i for i, (t, b) in enumerate(zip(inputs, before)) if t._raw is not b]
        self._written[(key, len(values))] = (written, changed)
        return (box_static(out), checks_output(checks)), [new_values[i] for i in written], \
            [inputs[i]._raw for i in changed]

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        dynamic, key = _split_args(args, kwargs)
        while True:
            variables = self.variables
            values = [v._value for v in variables]
            try:
                out, new, new_inputs = self._jitted(values, dynamic, key)
            except _NewVariables as grow:
                add_new_variables(self.variables, self._ids, grow, self.where)
                continue
            break
        out, checked = out
        # A failed check raises before any Variable is written: the call changes no state.
        raise_failed_checks(checked)
        written, changed = self._written[(key, len(values))]
        for i, val in zip(written, new):
            object.__setattr__(variables[i], "_raw", val)
        if changed:
            inputs = _input_tensors((args, kwargs))
            for i, val in zip(changed, new_inputs):
                object.__setattr__(inputs[i], "_raw", val)
        return unbox_static(out)

    def lower(self, *args: Any, **kwargs: Any) -> Any:
        """``jax.jit(...).lower`` for this call: the HLO and cost analysis of the program."""
        dynamic, key = _split_args(args, kwargs)
        self(*args, **kwargs)  # settles the Variable set
        values = [v._value for v in self.variables]
        return self._jitted.lower(values, dynamic, key)


def _cell_signature(cell: Any) -> tuple[Any, ...]:
    """What a compiled Cell program depends on besides its inputs."""
    sig = []
    for _, c in cell.cells_and_names():
        d = c.__dict__
        sig.append((id(c), type(c), d.get("_amp_policy"), d["training"], d["_mixed_dtype"], d["_recompute"],
                    tuple(d["_forward_pre_hooks"]), tuple(d["_forward_hooks"]),
                    tuple(d["_backward_hooks"]), tuple(d["_backward_pre_hooks"]),
                    tuple(id(p) for p in d["_params"].values())))
    return tuple(sig)


class _CellCache:
    __slots__ = ("version", "current", "by_signature")

    def __init__(self) -> None:
        self.version = -1
        self.current: CompiledFunction | None = None
        self.by_signature: dict[Any, CompiledFunction] = {}


def compiled_for_cell(cell: Any) -> CompiledFunction:
    """The compiled program of ``cell`` for its current structure and flags."""
    cache = cell.__dict__["_compiled_cache"]
    if cache is None:
        cache = cell.__dict__["_compiled_cache"] = _CellCache()
    version = structure_version()
    if cache.version != version:
        sig = _cell_signature(cell)
        compiled = cache.by_signature.get(sig)
        if compiled is None:
            variables = collect_variables(cell) + [RNG_STATE]
            compiled = CompiledFunction(_converted_call_impl(cell), variables, cell._where())
            cache.by_signature[sig] = compiled
        cache.current = compiled
        cache.version = version
    return cache.current


def call_cell_compiled(cell: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    """Run ``cell(*args, **kwargs)`` as one compiled XLA program (GRAPH mode)."""
    return compiled_for_cell(cell)(*args, **kwargs)


def _converted_call_impl(cell: Any) -> Callable[..., Any]:
    def call(*args: Any, **kwargs: Any) -> Any:
        return cell._call_impl(args, kwargs)
    return call


class _JitFunction:
    """What ``@ms.jit`` returns: compiles on call, binds as a method."""

    def __init__(self, fn: Callable[..., Any]) -> None:
        functools.update_wrapper(self, fn)
        self._fn = fn
        self._compiled: CompiledFunction | None = None
        self._per_instance: dict[int, CompiledFunction] = {}

    def __get__(self, instance: Any, owner: type | None = None) -> Any:
        if instance is None:
            return self
        return functools.partial(self._call_bound, instance)

    def _call_bound(self, instance: Any, *args: Any, **kwargs: Any) -> Any:
        if context._IN_COMPILED[0] or _has_tracer((args, kwargs)):
            return convert_function(self._fn)(instance, *args, **kwargs)
        compiled = self._per_instance.get(id(instance))
        if compiled is None:
            initial = collect_variables(instance) if hasattr(instance, "parameters_and_names") else []
            bound = functools.partial(convert_function(self._fn), instance)
            compiled = CompiledFunction(bound, initial + [RNG_STATE], f"For '{self._fn.__qualname__}'")
            self._per_instance[id(instance)] = compiled
        return compiled(*args, **kwargs)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if context._IN_COMPILED[0] or _has_tracer((args, kwargs)):
            return convert_function(self._fn)(*args, **kwargs)
        if self._compiled is None:
            self._compiled = CompiledFunction(convert_function(self._fn), [RNG_STATE], f"For '{self._fn.__qualname__}'")
        return self._compiled(*args, **kwargs)


def _has_tracer(tree: Any) -> bool:
    return any(isinstance(x, jax.core.Tracer) for x in jax.tree_util.tree_leaves(tree))


def jit(function: Callable[..., Any] | None = None, *, mode: str = "PSJit",
        input_signature: Any = None, hash_args: Any = None, jit_config: Any = None,
        jit_level: str | None = None, dynamic: int = 0, fullgraph: bool = False,
        backend: str = "", **options: Any) -> Any:
    """Compile a function or method into one XLA program (MindSpore's ``ms.jit``).

    Works as ``@jit`` and ``@jit(...)``; on a method of a Cell the Cell's
    Parameters become state of the program. Parameters that the function
    reaches otherwise (an optimizer updating a network's weights) are found
    while tracing and become state too, so a MindSpore-style ``train_step``
    that calls ``optimizer(grads)`` works unchanged.

    Arguments:
        function: the function to compile.
        The remaining arguments are accepted for MindSpore compatibility.

    Returns:
        the compiled callable.
    """
    if function is None:
        return lambda fn: _JitFunction(fn)
    if not callable(function):
        raise TypeError(f"For 'jit', 'function' must be callable, got {type(function).__name__}")
    return _JitFunction(function)
