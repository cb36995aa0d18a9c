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
import weakref
from typing import Any, Callable, Sequence, TypeVar

import jax
import numpy as np

from mindjax import context
from mindjax.common import progress as _progress
from mindjax.common.checks import checks_output, collect_checks, raise_failed_checks
from mindjax.common.random import RNG_STATE
from mindjax.common.precision import active_policy, policy_scope
from mindjax.common.tensor import Tensor
from mindjax.common.upcalls import UPCALLS, register_upcall
from mindjax.common.variable import Variable, current_tracker
from mindjax.cells.cell import cell_signature
from mindjax.cells.state import collect_variables, run_with_state, structure_version
from mindjax.transforms._static_outputs import box_static, unbox_static
from mindjax.transforms.control_flow import convert_function  # also installs the construct hook

_DYNAMIC_TYPES = (jax.Array, np.ndarray, np.generic)
T = TypeVar("T")


class _NewVariables(Exception):
    """A trace touched Variables it was not given; it is retried with them."""

    def __init__(self, found: list[Variable], created: set[int]) -> None:
        super().__init__(f"{len(found)} new variables")
        self.found = found
        self.created = created  # ids of those built during the trace itself


# Variables first built inside a trace and then made state (an optimizer creating its moments
# lazily). If a later trace leaves one untouched while building fresh ones, the function builds
# a new Variable on every call: those are values local to the program, not state.
_BORN_IN_TRACE: "weakref.WeakValueDictionary[int, Variable]" = weakref.WeakValueDictionary()


def run_over_state(variables: Sequence[Variable], values: Sequence[Any], known: set[int],
                   fn: Callable[[], Any]) -> tuple[Any, list[Any]]:
    """Run ``fn()`` with ``variables`` holding ``values`` (tracers); return its output and their new values.

    The Variables get their own values back afterwards, whatever happens. A
    Variable touched during the run whose id is not in ``known`` raises
    ``_NewVariables``: the caller adds it to the state and traces again.
    """
    def traced() -> Any:
        with context.compiling():
            return fn()

    run = run_with_state(variables, values, traced, known)
    unknown = [v for k, v in run.touched.items() if k not in known]
    if unknown and all(id(v) in run.created for v in unknown) and any(
            id(v) in _BORN_IN_TRACE and id(v) not in run.touched for v in variables):
        unknown = []
    if unknown:
        raise _NewVariables(unknown, {id(v) for v in unknown if id(v) in run.created})
    return run.out, run.new_values


def run_growing_state(attempt: Callable[[], T], variables: list[Variable], known: set[int], where: str) -> T:
    """``attempt()``, again each time its trace found Variables that are not yet state.

    ``attempt`` reads the values of ``variables`` and calls a program that traces
    through :func:`run_over_state`; the Variables it found are appended to
    ``variables`` (and their ids to ``known``) before the next attempt.

    Arguments:
        attempt: reads the state, runs the program, returns its result.
        variables, known: the state and the ids in it (grown in place).
        where: how errors name the program (``"For 'Net'"``).
    """
    while True:
        try:
            return attempt()
        except _NewVariables as grow:
            _add_new_variables(variables, known, grow, where)


def _add_new_variables(variables: list[Variable], known: set[int], grow: _NewVariables, where: str) -> None:
    added = [v for v in grow.found if id(v) not in known]
    if not added:  # cannot happen unless a Variable's identity is unstable
        raise RuntimeError(f"{where}: the Variables touched while tracing keep changing; a Parameter is "
                           f"being re-created inside the compiled function") from None
    for var in added:
        known.add(id(var))
        variables.append(var)
        if id(var) in grow.created:
            _BORN_IN_TRACE[id(var)] = var


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
    """The traced leaves of a call's arguments, and the hashable rest (its compile key).

    Positional Tensors and concrete arrays alone (the common call) take a short path:
    the key is which positions held Tensors.
    """
    if not kwargs:
        dynamic: list[Any] = []
        kinds = []
        for arg in args:
            kind = type(arg)
            if kind is Tensor:
                raw = arg._raw
                if type(raw) not in _ARRAY_TYPES:  # a tracer: the long path handles it
                    break
                dynamic.append(raw)
                kinds.append(True)
            elif kind in _ARRAY_TYPES:
                dynamic.append(arg)
                kinds.append(False)
            else:
                break
        else:
            return dynamic, (_POSITIONAL, tuple(kinds))
    leaves, treedef = jax.tree_util.tree_flatten((args, kwargs), is_leaf=_is_variable)
    dynamic = []
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
# Marks the short key of positional Tensors and arrays (see _split_args).
_POSITIONAL = _Dynamic()
# The concrete array classes a positional argument may have on the short path.
_ARRAY_TYPES = frozenset({type(jax.numpy.zeros(())), np.ndarray})


def _join_args(dynamic: Sequence[Any], key: Any) -> tuple[tuple[Any, ...], dict[str, Any]]:
    treedef, static = key
    if treedef is _POSITIONAL:
        return tuple(Tensor._wrap(d) if is_tensor else d for d, is_tensor in zip(dynamic, static)), {}
    it = iter(dynamic)
    leaves = [next(it) if s is _DYNAMIC else s.var if isinstance(s, _VariableArg) else s
              for s in static]
    return jax.tree_util.tree_unflatten(treedef, leaves)


_ACTIVE_POLICY = object()  # CompiledFunction._pure's default: trace under the policy active now


class CompiledFunction:
    """``fn`` compiled with ``jax.jit`` over the Variables it touches.

    Arguments:
        fn: the Python function (for a Cell, a call of the Cell).
        variables: Variables known to be touched (grows while tracing).
        where: how errors name this function (``"For 'Net'"``).
    """

    def __init__(self, fn: Callable[..., Any], variables: Sequence[Variable], where: str,
                 owner: Any = None) -> None:
        self.fn = fn
        self.owner = owner  # the Cell it runs, if any (the state layout looks for pipelines in it)
        self._layout: Any = None
        self.variables: list[Variable] = list(variables)
        self._ids = {id(v) for v in self.variables}
        self.where = where
        self._written: dict[Any, tuple[list[int], list[int], bool]] = {}
        self._ready = -1  # how many of the Variables have had their (lazy) values built
        # No donation: only written Variables come back, so donating the others would
        # free buffers their Parameters still hold. Training steps donate in train/_step.py.
        # The active mixed-precision policy (an amp 'auto' function calling this one) is part of
        # what a trace depends on: it is a static argument, and the trace runs under it.
        self._jitted = jax.jit(self._pure, static_argnums=(2, 3))

    def _pure(self, values: list[Any], dynamic: list[Any], key: Any,
              policy: Any = _ACTIVE_POLICY) -> tuple[Any, list[Any], list[Any]]:
        if policy is _ACTIVE_POLICY:  # a caller tracing it in its own program: its policy holds
            return self._pure_body(values, dynamic, key)
        with policy_scope(policy):
            return self._pure_body(values, dynamic, key)

    def _pure_body(self, values: list[Any], dynamic: list[Any], key: Any) -> tuple[Any, list[Any], list[Any]]:
        args, kwargs = _join_args(dynamic, key)
        inputs = _input_tensors((args, kwargs))
        before = [t._raw for t in inputs]
        variables = self.variables[:len(values)]
        layout = self._layout
        if layout is not None:
            values = layout.expand(values)
        # Value checks (out-of-range indices) come back as outputs; see mindjax.common.checks.
        with collect_checks() as checks:
            out, new_values = run_over_state(variables, values, self._ids, lambda: self.fn(*args, **kwargs))
        if layout is not None:
            new_values = layout.finish(values, new_values)
        written = [i for i, (a, b) in enumerate(zip(values, new_values)) if a is not b]
        # An in-place write to an input Tensor (``x[0] = 1`` in construct) is written back to the
        # caller's Tensor, as MindSpore does.
        changed = [i for i, (t, b) in enumerate(zip(inputs, before)) if t._raw is not b]
        # A lone Tensor output leaves the program as its array and is wrapped again outside:
        # cheaper than a pytree node per call. Non-array outputs (strings, numbers) travel boxed.
        boxed = box_static(out)
        static, out = boxed is not out, boxed
        lone = type(out) is Tensor
        self._written[(key, len(values), layout and layout.token)] = (written, changed, lone, static)
        out = out._raw if lone else out
        return (out, checks_output(checks)), [new_values[i] for i in written], [inputs[i]._raw for i in changed]

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        dynamic, key = _split_args(args, kwargs)
        return self.call_split(dynamic, key, args, kwargs)

    def call_split(self, dynamic: list[Any], key: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        """Run the program on arguments already split by ``_split_args`` (``args``/``kwargs`` are
        the originals, for writing in-place changes back to input Tensors)."""
        variables = self.variables
        if self._ready == len(variables) and current_tracker() is None:
            values = self._pack_state(variables, [v._raw for v in variables])
            try:
                out, new, new_inputs = self._jitted(values, dynamic, key, active_policy())
            except _NewVariables as grow:
                _add_new_variables(variables, self._ids, grow, self.where)
                values, (out, new, new_inputs) = self._grow_and_run(dynamic, key)
        else:
            values, (out, new, new_inputs) = self._grow_and_run(dynamic, key)
        _progress.dispatched(out)
        out, checked = out
        # A failed check raises before any Variable is written: the call changes no state.
        if checked:
            raise_failed_checks(checked)
        layout = self._layout
        written, changed, lone, static = self._written[(key, len(values), layout and layout.token)]
        if lone:
            out = Tensor._wrap(out)
        elif static:
            out = unbox_static(out)
        for i, val in zip(written, new):
            object.__setattr__(variables[i], "_raw", val)
        if layout is not None:
            layout.store(variables)
        if changed:
            inputs = _input_tensors((args, kwargs))
            for i, val in zip(changed, new_inputs):
                object.__setattr__(inputs[i], "_raw", val)
        return out

    def _grow_and_run(self, dynamic: list[Any], key: Any) -> tuple[list[Any], Any]:
        def attempt() -> tuple[list[Any], Any]:
            # Builds lazy values; an enclosing tracker sees the reads.
            values = self._pack_state(self.variables, [v._value for v in self.variables])
            return values, self._jitted(values, dynamic, key, active_policy())
        result = run_growing_state(attempt, self.variables, self._ids, self.where)
        self._ready = len(self.variables)
        return result

    def lower(self, *args: Any, **kwargs: Any) -> Any:
        """``jax.jit(...).lower`` for this call: the HLO and cost analysis of the program."""
        dynamic, key = _split_args(args, kwargs)
        self(*args, **kwargs)  # settles the Variable set
        values = self._pack_state(self.variables, [v._value for v in self.variables])
        return self._jitted.lower(values, dynamic, key, active_policy())

    def _pack_state(self, variables: Sequence[Variable], values: list[Any]) -> list[Any]:
        """The values as the program takes them: laid out by the parallel layer's hook, if any."""
        hook = UPCALLS.state_layout
        self._layout = hook(self, variables, self.owner) if hook is not None else None
        return self._layout.pack(values) if self._layout is not None else values


class _CellCache:
    """A Cell's compiled programs: its call's, per signature, and its ``@ms.jit`` methods'.

    It lives in the Cell (``_compiled_cache``), so the programs go when the Cell goes;
    a copy of the Cell starts with an empty cache.
    """

    __slots__ = ("version", "current", "by_signature", "methods")

    def __init__(self) -> None:
        self.version = -1
        self.current: CompiledFunction | None = None
        self.by_signature: dict[Any, CompiledFunction] = {}
        self.methods: dict[Any, CompiledFunction] = {}

    def __deepcopy__(self, memo: dict[int, Any]) -> "_CellCache":
        return _CellCache()

    def __copy__(self) -> "_CellCache":
        return _CellCache()


def _cell_cache(cell: Any) -> _CellCache:
    cache = cell.__dict__["_compiled_cache"]
    if cache is None:
        cache = cell.__dict__["_compiled_cache"] = _CellCache()
    return cache


def compiled_for_cell(cell: Any) -> CompiledFunction:
    """The compiled program of ``cell`` for its current structure and flags."""
    cache = _cell_cache(cell)
    version = structure_version()
    if cache.version != version:
        sig = cell_signature(cell)
        compiled = cache.by_signature.get(sig)
        if compiled is None:
            variables = collect_variables(cell) + [RNG_STATE]
            compiled = CompiledFunction(_converted_call_impl(cell), variables, cell._where(), owner=cell)
            cache.by_signature[sig] = compiled
        cache.current = compiled
        cache.version = version
    return cache.current


def call_cell_compiled(cell: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    """Run ``cell(*args, **kwargs)`` as one compiled XLA program (GRAPH mode).

    Under a JAX transform (traced inputs) the Cell runs inline in the enclosing trace.
    """
    signature = cell.__dict__.get("_dynamic_inputs")
    if signature:
        from mindjax.transforms.dynamic_shape import as_signature, dynamic_program

        if not isinstance(signature, tuple) or not signature or not hasattr(signature[0], "ndim") \
                or isinstance(signature[0], Tensor):
            signature = cell.__dict__["_dynamic_inputs"] = as_signature(signature, f"{cell._where()}, set_inputs")
        return dynamic_program(compiled_for_cell(cell), signature, cell._where())(*args, **kwargs)
    dynamic, key = _split_args(args, kwargs)
    if key[0] is not _POSITIONAL and _is_traced(dynamic, key):
        with context.compiling():  # inside the caller's JAX trace: run inline
            return cell(*args, **kwargs)
    cache = cell.__dict__["_compiled_cache"]
    if cache is None or cache.version != structure_version():
        compiled = compiled_for_cell(cell)
    else:
        compiled = cache.current
    return compiled.call_split(dynamic, key, args, kwargs)


def _is_traced(dynamic: list[Any], key: Any) -> bool:
    """Whether split arguments hold a JAX tracer (a Parameter argument's value counts too)."""
    for leaf in dynamic:
        if isinstance(leaf, jax.core.Tracer):
            return True
    treedef, static = key
    return any(
        isinstance(s, _VariableArg) and isinstance(s.var._raw, jax.core.Tracer) for s in static)


register_upcall("compiled_cell_call", call_cell_compiled)


def _converted_call_impl(cell: Any) -> Callable[..., Any]:
    def call(*args: Any, **kwargs: Any) -> Any:
        return cell(*args, **kwargs)  # traced under run_over_state: the Cell runs inline
    return call


class _JitFunction:
    """What ``@ms.jit`` returns: compiles on call, binds as a method.

    On a method, each instance has its own program (its Parameters are the
    program's state). A Cell keeps it in its compiled cache; another object
    keeps it in its ``__dict__``. Either way the program goes with the object.
    """

    def __init__(self, fn: Callable[..., Any], input_signature: Any = None) -> None:
        functools.update_wrapper(self, fn)
        self._fn = fn
        self._signature: tuple[Any, ...] | None = None
        if input_signature is not None:
            from mindjax.transforms.dynamic_shape import as_signature

            self._signature = as_signature(input_signature, f"For '{fn.__qualname__}', input_signature")
        self._compiled: CompiledFunction | None = None

    def __get__(self, instance: Any, owner: type | None = None) -> Any:
        if instance is None:
            return self
        return functools.partial(self._call_bound, instance)

    def _programs_of(self, instance: Any) -> dict[Any, CompiledFunction] | None:
        d = getattr(instance, "__dict__", None)
        if d is None:
            return None
        if "_compiled_cache" in d:  # a Cell
            return _cell_cache(instance).methods
        programs = d.get("_mindjax_jit_programs")
        if programs is None:
            programs = d["_mindjax_jit_programs"] = {}
        return programs

    def _call_bound(self, instance: Any, *args: Any, **kwargs: Any) -> Any:
        if context.in_compiled() or _has_tracer((args, kwargs)):
            return convert_function(self._fn)(instance, *args, **kwargs)
        programs = self._programs_of(instance)
        compiled = None if programs is None else programs.get(self)
        if compiled is None:
            initial = collect_variables(instance) if hasattr(instance, "parameters_and_names") else []
            bound = functools.partial(convert_function(self._fn), instance)
            compiled = CompiledFunction(bound, initial + [RNG_STATE], f"For '{self._fn.__qualname__}'",
                                        owner=instance)
            if programs is not None:  # an object without a __dict__ compiles on each call
                programs[self] = compiled
        return self._run(compiled, args, kwargs)

    def _run(self, compiled: CompiledFunction, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        if self._signature is None:
            return compiled(*args, **kwargs)
        from mindjax.transforms.dynamic_shape import dynamic_program

        return dynamic_program(compiled, self._signature, f"For '{self._fn.__qualname__}'")(*args, **kwargs)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if context.in_compiled() or _has_tracer((args, kwargs)):
            return convert_function(self._fn)(*args, **kwargs)
        if self._compiled is None:
            self._compiled = CompiledFunction(convert_function(self._fn), [RNG_STATE], f"For '{self._fn.__qualname__}'")
        return self._run(self._compiled, args, kwargs)


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
        input_signature: a Tensor or a tuple of Tensors describing the inputs;
            ``Tensor(shape=[None, 3], dtype=ms.float32)`` marks a dynamic
            dimension, and one trace serves every size of it (see
            :mod:`mindjax.transforms.dynamic_shape`).
        The remaining arguments are accepted for MindSpore compatibility.

    Returns:
        the compiled callable.
    """
    if function is None:
        return lambda fn: _JitFunction(fn, input_signature)
    if not callable(function):
        raise TypeError(f"For 'jit', 'function' must be callable, got {type(function).__name__}")
    return _JitFunction(function, input_signature)
