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
import threading
import types
import weakref
from typing import Any, Callable, Sequence, TypeVar

import jax
import numpy as np

from mindjax import context
from mindjax.common import progress as _progress
from mindjax.common.checks import checks_output, collect_checks, raise_failed_checks
from mindjax.common.random import RNG_STATE
from mindjax.common.precision import active_policy, policy_scope
from mindjax.common.mutable import MUTABLE_SCALARS
from mindjax.common.tensor import NumpyStorage, Tensor
from mindjax.common.upcalls import UPCALLS, register_upcall
from mindjax.common.variable import Variable, current_tracker
from mindjax.cells.cell import cell_signature
from mindjax.cells.state import collect_variables, run_with_state, structure_version
from mindjax.transforms._static_outputs import box_static, unbox_static
from mindjax.transforms.control_flow import convert_function  # also installs the construct hook
from mindjax.transforms.control_flow import ValueDependentStructureError

_DYNAMIC_TYPES = (jax.Array, np.ndarray, np.generic)
T = TypeVar("T")
P = TypeVar("P", bound="Program")


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


def _split_args(args: tuple[Any, ...], kwargs: dict[str, Any], known: bool = False) -> tuple[list[Any], Any]:
    """The traced leaves of a call's arguments, and the hashable rest (its compile key).

    Positional Tensors and concrete arrays alone (the common call) take a short path:
    the key is which positions held Tensors. With ``known``, small integer and bool
    arrays are part of the key by value (see :class:`_KnownValue`).
    """
    if not kwargs and not known:
        dynamic: list[Any] = []
        kinds = []
        for arg in args:
            kind = type(arg)
            if kind is Tensor:
                raw = arg._raw
                if type(raw) not in _ARRAY_TYPES:
                    if type(raw) is not NumpyStorage:  # a tracer: the long path handles it
                        break
                    raw = raw.read()  # made by from_numpy: the array as it is at this call
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
        elif known and _small_integer(leaf):
            static.append(_KnownValue(leaf))
        elif isinstance(leaf, _DYNAMIC_TYPES):
            dynamic.append(leaf)
            static.append(_DYNAMIC)
        elif type(leaf) in MUTABLE_SCALARS:  # ms.mutable(2): a traced 0-d Tensor, not a constant
            dynamic.append(Tensor(leaf)._raw)
            static.append(_MUTABLE_SCALAR)
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


# Integer/bool array inputs of at most this many elements become constants of the program when its trace
# meets a structure that depends on a tensor's value (ValueDependentStructureError).
_KNOWN_VALUE_MAX = 16


def _small_integer(leaf: Any) -> bool:
    return (isinstance(leaf, _DYNAMIC_TYPES) and not isinstance(leaf, jax.core.Tracer)
            and np.dtype(leaf.dtype).kind in "iub" and int(np.size(leaf)) <= _KNOWN_VALUE_MAX)


class _KnownValue:
    """A small integer or bool input array that the program takes as a constant: hashed by its value,
    so each value compiles (and caches) its own program."""

    __slots__ = ("array", "_value_key")

    def __init__(self, array: Any) -> None:
        host = np.asarray(array)
        self.array = array
        self._value_key = (host.dtype.str, host.shape, host.tobytes())

    def __hash__(self) -> int:
        return hash(self._value_key)

    def __eq__(self, other: Any) -> bool:
        return isinstance(other, _KnownValue) and self._value_key == other._value_key

    def __repr__(self) -> str:
        return f"<constant {np.asarray(self.array).tolist()}>"


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
# Marks a traced mutable scalar (ms.mutable(2)); it comes back into the call as a 0-d Tensor.
_MUTABLE_SCALAR = _Dynamic()
# Marks the short key of positional Tensors and arrays (see _split_args).
_POSITIONAL = _Dynamic()
# The concrete array classes a positional argument may have on the short path.
_ARRAY_TYPES = frozenset({type(jax.numpy.zeros(())), np.ndarray})


def _join_args(dynamic: Sequence[Any], key: Any) -> tuple[tuple[Any, ...], dict[str, Any]]:
    treedef, static = key
    if treedef is _POSITIONAL:
        return tuple(Tensor._wrap(d) if is_tensor else d for d, is_tensor in zip(dynamic, static)), {}
    it = iter(dynamic)
    leaves = [next(it) if s is _DYNAMIC else Tensor._wrap(next(it)) if s is _MUTABLE_SCALAR
              else s.var if isinstance(s, _VariableArg) else s.array if isinstance(s, _KnownValue) else s
              for s in static]
    return jax.tree_util.tree_unflatten(treedef, leaves)


def _leaf_signature(x: Any) -> Any:
    raw = x._raw if isinstance(x, Tensor) else x
    return (tuple(getattr(raw, "shape", ())), str(getattr(raw, "dtype", type(raw).__name__)))


def call_signature(dynamic: Sequence[Any], key: Any) -> Any:
    """The input signature of a compiled call: its static key and its arrays' shapes and dtypes."""
    return key, tuple(_leaf_signature(x) for x in dynamic)


class ParallelPlanning:
    """The parallel context's plan of one compiled program, asked for once per input signature.

    Each compiled program (a :class:`CompiledFunction`, ``Model``'s training step)
    holds one. Before the program is traced for a new signature, :meth:`prepare`
    hands the parallel layer (``UPCALLS.parallel_plan``) a way to trace the program
    abstractly; the layer searches the plans of the Cells the program calls and lays
    their Parameters out. The real trace then runs in :meth:`scope`, where those
    Cells run their plans, and :meth:`pin` keeps the written state in its layout.
    Outside a parallel mode nothing is asked and both are no-ops.

    Arguments:
        caller: what the user called (the Cell, the ``ms.jit`` function); ``get_strategy``
            finds the plan through it.
    """

    __slots__ = ("caller", "_done", "_plan")

    def __init__(self, caller: Any) -> None:
        self.caller = caller
        self._done: set[Any] = set()
        self._plan: Any = None

    def prepare(self, signature: Any, discover: Callable[[], Any]) -> bool:
        """Plan the program for ``signature`` unless done already; True when layouts changed now.

        Arguments:
            signature: the call's input signature (see :func:`call_signature`).
            discover: traces the program abstractly (``jax.eval_shape`` of its pure function).
        """
        hook = UPCALLS.parallel_plan
        if hook is None or signature in self._done or context._PARALLEL["parallel_mode"] == "stand_alone":
            return False
        plan = hook(self.caller, discover)  # may raise _NewVariables: the signature is then asked again
        self._done.add(signature)
        if plan is None:
            return False
        self._plan = plan
        return True

    def planned(self, signature: Any) -> bool:
        """Whether the plan for ``signature`` was asked for already."""
        return signature in self._done

    def scope(self) -> Any:
        """The context the program's real trace runs in (its Cells run their plans)."""
        return self._plan.scope() if self._plan is not None else _NO_SCOPE

    def pin(self, variables: Sequence[Variable], values: list[Any]) -> list[Any]:
        """Inside the trace: the Variables' new values, kept in the layouts the plan gave them."""
        return self._plan.pin(variables, values) if self._plan is not None else values


class _NoScope:
    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc: Any) -> None:
        return None


_NO_SCOPE = _NoScope()


_ACTIVE_POLICY = object()  # CompiledFunction._pure's default: trace under the policy active now


class Program:
    """A pure function over the Variables it touches, run as one ``jax.jit`` program.

    The base of every compiled program: :class:`CompiledFunction` (a GRAPH-mode
    Cell call, an ``ms.jit`` function, a gradient in GRAPH mode) and ``Model``'s
    training step (``mindjax.train``). It owns the state (the Variables, grown
    when a trace finds more), the parallel context's plan per input signature,
    and how the state travels into the program (laid out per pipeline stage by
    the parallel layer's ``state_layout``). Programs live in their owner's
    :class:`ProgramCache`.

    Arguments:
        variables: Variables known to be touched (grows while tracing).
        where: how errors name the program (``"For 'Net'"``).
        owner: the Cell it runs, if any (the state layout looks for pipelines in it).
        caller: what the user called, when it is not ``owner`` (``get_strategy`` finds the plan through it).
    """

    def __init__(self, variables: Sequence[Variable], where: str, owner: Any = None, caller: Any = None) -> None:
        self.variables: list[Variable] = list(variables)
        self._ids = {id(v) for v in self.variables}
        self.where = where
        self.owner = owner
        self.planning = ParallelPlanning(caller if caller is not None else owner)
        self._layout: Any = None

    def grow_state(self, attempt: Callable[[], T]) -> T:
        """``attempt()``, again each time its trace found Variables that are not yet state
        (see :func:`run_growing_state`)."""
        return run_growing_state(attempt, self.variables, self._ids, self.where)

    def state_layout(self) -> Any:
        """How the state travels now: the parallel layer's stage layout, or None (kept in ``_layout``)."""
        hook = UPCALLS.state_layout
        self._layout = hook(self, self.variables, self.owner) if hook is not None else None
        return self._layout

    def pack_state(self, values: list[Any]) -> list[Any]:
        """The Variables' ``values`` as the program takes them (packed by the stage layout, if any)."""
        layout = self.state_layout()
        return layout.pack(values) if layout is not None else values


class CompiledFunction(Program):
    """``fn`` compiled with ``jax.jit`` over the Variables it touches.

    Arguments:
        fn: the Python function (for a Cell, a call of the Cell).
        variables: Variables known to be touched (grows while tracing).
        where: how errors name this function (``"For 'Net'"``).
        owner, caller: see :class:`Program`.
    """

    def __init__(self, fn: Callable[..., Any], variables: Sequence[Variable], where: str,
                 owner: Any = None, caller: Any = None) -> None:
        super().__init__(variables, where, owner, caller)
        self.fn = fn
        self._written: dict[Any, tuple[list[int], list[int], bool]] = {}
        self._ready = -1  # how many of the Variables have had their (lazy) values built
        # No donation: only written Variables come back, so donating the others would
        # free buffers their Parameters still hold. Training steps donate in train/_step.py.
        # The active mixed-precision policy (an amp 'auto' function calling this one) is part of
        # what a trace depends on: it is a static argument, and the trace runs under it.
        self._jitted = jax.jit(self._pure, static_argnums=(2, 3))
        self._shared = False  # whether identical built-in Cells' program was looked for (PYNATIVE)
        self._known_values = False  # whether small integer/bool inputs are constants (see call_split)

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
        with collect_checks() as checks, self.planning.scope():
            out, new_values = run_over_state(variables, values, self._ids, lambda: self.fn(*args, **kwargs))
        new_values = self.planning.pin(variables, new_values)
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
        the originals, for writing in-place changes back to input Tensors).

        A trace that meets a Python structure depending on a tensor's value (a list of lists
        indexed by an input, :class:`ValueDependentStructureError`) is traced again with the small
        integer and bool input arrays as constants; this function then compiles one program per
        value of them, as MindSpore interprets such statements at run time.
        """
        if self._known_values:
            dynamic, key = _split_args(args, kwargs, known=True)
        try:
            return self._call_split(dynamic, key, args, kwargs)
        except ValueDependentStructureError:
            if self._known_values:
                raise
            dynamic, key = _split_args(args, kwargs, known=True)
            if not any(isinstance(s, _KnownValue) for s in key[1]):
                raise
            self._known_values = True
            return self._call_split(dynamic, key, args, kwargs)

    def _call_split(self, dynamic: list[Any], key: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        variables = self.variables
        if context._PARALLEL["parallel_mode"] != "stand_alone":
            self._plan_parallel(dynamic, key)
        if self._ready == len(variables) and current_tracker() is None:
            # A Variable reset to its factory (RNG_STATE after set_seed) has no raw value: build it now,
            # or the program would see None and reuse the key it was traced with.
            values = self.pack_state([v._value if v._raw is None else v._raw for v in variables])
            try:
                with _progress.dispatching():
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
        if current_tracker() is None:
            for i, val in zip(written, new):
                object.__setattr__(variables[i], "_raw", val)
        else:  # an enclosing functional run (eager grad) records the writes and hands them back
            for i, val in zip(written, new):
                variables[i]._value = val
        if layout is not None:
            layout.store(variables)
        if changed:
            inputs = _input_tensors((args, kwargs))
            for i, val in zip(changed, new_inputs):
                inputs[i]._write(val)  # in place: a from_numpy Tensor's array sees it too
        return out

    def _plan_parallel(self, dynamic: list[Any], key: Any) -> None:
        """Ask the parallel context's plan for this signature (once), before the program traces."""
        signature = call_signature(dynamic, key)
        if self.planning.planned(signature):
            return

        def discover() -> Any:
            values = self.pack_state([v._value for v in self.variables])
            return jax.eval_shape(lambda v, d: self._pure(v, d, key), values, dynamic)

        def attempt() -> bool:
            return self.planning.prepare(signature, discover)

        self.grow_state(attempt)

    def _grow_and_run(self, dynamic: list[Any], key: Any) -> tuple[list[Any], Any]:
        def attempt() -> tuple[list[Any], Any]:
            # Builds lazy values; an enclosing tracker sees the reads.
            values = self.pack_state([v._value for v in self.variables])
            return values, self._jitted(values, dynamic, key, active_policy())
        result = self.grow_state(attempt)
        self._ready = len(self.variables)
        return result

    def lower(self, *args: Any, **kwargs: Any) -> Any:
        """``jax.jit(...).lower`` for this call: the HLO and cost analysis of the program."""
        dynamic, key = _split_args(args, kwargs)
        self(*args, **kwargs)  # settles the Variable set
        values = self.pack_state([v._value for v in self.variables])
        return self._jitted.lower(values, dynamic, key, active_policy())


class ProgramCache:
    """The compiled programs an object owns, so that they go when it goes.

    A Cell holds one in ``_compiled_cache`` (its call's programs per signature, its
    ``@ms.jit`` methods', and those built over it by other layers: ``Model``'s
    training step, keyed by the Cell's signature); an ``ms.jit`` method's
    non-Cell instance and a gradient function hold one too. A copy of the owner
    starts with an empty cache.
    """

    __slots__ = ("version", "current", "by_signature", "methods", "programs")

    def __init__(self) -> None:
        self.version = -1
        self.current: CompiledFunction | None = None
        self.by_signature: dict[Any, CompiledFunction] = {}
        self.methods: dict[Any, CompiledFunction] = {}
        self.programs: dict[Any, Program] = {}

    def program(self, key: Any, build: Callable[[], P], limit: int | None = None) -> P:
        """The program cached under ``key``, built by ``build()`` the first time.

        Arguments:
            key: what the program depends on (a Cell's :func:`cell_signature`, options).
            build: makes the program.
            limit: at most this many programs are kept; the oldest goes first.
        """
        program = self.programs.get(key)
        if program is None:
            if limit is not None and len(self.programs) >= limit:
                self.programs.pop(next(iter(self.programs)))
            program = self.programs[key] = build()
        return program  # type: ignore[return-value]

    def __deepcopy__(self, memo: dict[int, Any]) -> "ProgramCache":
        return ProgramCache()

    def __copy__(self) -> "ProgramCache":
        return ProgramCache()


def program_cache(owner: Any) -> ProgramCache:
    """The :class:`ProgramCache` that ``owner`` holds (made on first use).

    Raises:
        TypeError: ``owner`` has no ``__dict__`` to hold it.
    """
    d = getattr(owner, "__dict__", None)
    if d is None:
        raise TypeError(f"a {type(owner).__name__} cannot hold compiled programs: it has no __dict__")
    cache = d.get("_compiled_cache")
    if cache is None:
        cache = d["_compiled_cache"] = ProgramCache()
    return cache


def compiled_for_cell(cell: Any) -> CompiledFunction:
    """The compiled program of ``cell`` for its current structure and flags."""
    cache = program_cache(cell)
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


# -- programs shared by identical built-in Cells (PYNATIVE) -------------------------------------------
# Cell attributes that do not change what construct computes (names, caches, registries).
_NOT_STRUCTURE = frozenset(("_params", "_cells", "_cell_path", "_compiled_cache", "_forward_pre_hooks",
                            "_forward_hooks", "_backward_hooks", "_backward_pre_hooks", "_auto_prefix",
                            "_non_persistent_buffers_set", "_state_dict_pre_hooks", "_state_dict_hooks",
                            "_load_state_dict_pre_hooks", "_load_state_dict_post_hooks"))
_SIMPLE = (int, float, bool, str, bytes, type(None), complex, np.dtype, type)
_FUNCTIONS = (types.FunctionType, types.BuiltinFunctionType, types.MethodType, functools.partial)
_SHARED_PROGRAMS: dict[Any, tuple[Any, dict[Any, Any]]] = {}
_TRACING = threading.local()  # the CompiledFunction whose call traces a shared program


def _structure_of(value: Any, seen: set[int], depth: int = 0) -> Any:
    """A hashable description of ``value`` for :func:`_structural_key`; raises ``_Unshareable``."""
    if isinstance(value, _SIMPLE) or isinstance(value, np.generic):
        return value
    if isinstance(value, Variable):
        raw = value._raw
        return ("var", tuple(raw.shape), str(raw.dtype)) if hasattr(raw, "shape") else ("var", None)
    if isinstance(value, (jax.Array, np.ndarray, Tensor)) or depth > 6 or id(value) in seen:
        raise _Unshareable  # a constant the program would capture, or a cycle
    if isinstance(value, (tuple, list, frozenset)):
        return (type(value).__name__,) + tuple(_structure_of(v, seen, depth + 1) for v in value)
    if isinstance(value, dict):
        if not all(isinstance(k, str) for k in value):
            raise _Unshareable
        return ("dict",) + tuple((k, _structure_of(v, seen, depth + 1)) for k, v in sorted(value.items()))
    if isinstance(value, _FUNCTIONS):
        return ("fn", value)  # a function or method: by identity
    attrs = getattr(value, "__dict__", None)
    if attrs is None:
        raise _Unshareable
    seen.add(id(value))
    return (type(value),) + tuple((k, _structure_of(v, seen, depth + 1)) for k, v in sorted(attrs.items()))


class _Unshareable(Exception):
    """A Cell holds something whose value a trace would capture: it gets its own program."""


def _structural_key(cell: Any) -> Any:
    """A key equal for two built-in Cells that trace to the same program, or None.

    Two Cells share a key when they are of one class with equal settings (every attribute but
    names and caches), Parameters of the same shapes and dtypes, and children of equal keys.
    A Cell holding a non-Parameter array (a constant the trace would capture) has none.
    """
    try:
        return _structure_of_cell(cell, set())
    except (_Unshareable, TypeError):  # TypeError: an unhashable setting
        return None


def _structure_of_cell(cell: Any, seen: set[int]) -> Any:
    d = cell.__dict__
    items = []
    for name in sorted(d):
        if name in _NOT_STRUCTURE:
            continue
        value = d[name]
        if hasattr(value, "_cells") and hasattr(value, "construct"):
            continue  # a child Cell: keyed below, in registration order
        items.append((name, _structure_of(value, seen)))
    children = tuple((name, _structure_of_cell(child, seen)) for name, child in d["_cells"].items()
                     if child is not None)
    key = (type(cell), tuple(items), children)
    hash(key)
    return key


def _new_shared_function() -> Callable[..., Any]:
    # One function object per program: JAX caches traces by the Python function, so two
    # structural keys sharing one function would share traces.
    def run_traced_program(values: list[Any], dynamic: list[Any], key: Any, policy: Any) -> Any:
        return _TRACING.program._pure(values, dynamic, key, policy)
    return run_traced_program


class _SharedProgram:
    """``jax.jit`` of one program that several identical Cells run, each with its own state."""

    __slots__ = ("jitted", "program")

    def __init__(self, jitted: Any, program: "CompiledFunction") -> None:
        self.jitted, self.program = jitted, program

    def __call__(self, values: list[Any], dynamic: list[Any], key: Any, policy: Any) -> Any:
        outer = getattr(_TRACING, "program", None)
        _TRACING.program = self.program  # a new signature is traced with this Cell's own code
        try:
            return self.jitted(values, dynamic, key, policy)
        finally:
            _TRACING.program = outer

    def lower(self, values: list[Any], dynamic: list[Any], key: Any, policy: Any) -> Any:
        outer = getattr(_TRACING, "program", None)
        _TRACING.program = self.program
        try:
            return self.jitted.lower(values, dynamic, key, policy)
        finally:
            _TRACING.program = outer


def _share_program(compiled: "CompiledFunction", cell: Any) -> None:
    """Let ``compiled`` run the program of any structurally identical built-in Cell (once per program)."""
    compiled._shared = True
    skey = _structural_key(cell)
    if skey is None:
        return
    shared = _SHARED_PROGRAMS.get(skey)
    if shared is None:
        shared = _SHARED_PROGRAMS[skey] = (jax.jit(_new_shared_function(), static_argnums=(2, 3)), {})
    jitted, written = shared
    compiled._jitted = _SharedProgram(jitted, compiled)
    compiled._written = written  # what a trace found is the same for every Cell of the key


def call_builtin_cell_compiled(cell: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    """Run a built-in Cell (a layer, loss or optimizer of MindJAX's own) as one compiled program
    in PYNATIVE mode.

    Its construct is MindJAX's code, with no Python side effects a user could see, so one
    program per input signature replaces the program per operation that eager JAX would
    compile and dispatch; the result, the state it writes and its gradients are the same.
    Under an eager gradient (traced inputs) the program is differentiated as one call.
    """
    dynamic, key = _split_args(args, kwargs)
    cache = cell.__dict__["_compiled_cache"]
    if cache is None or cache.version != structure_version():
        compiled = compiled_for_cell(cell)
    else:
        compiled = cache.current
    if not compiled._shared:
        _share_program(compiled, cell)
    return compiled.call_split(dynamic, key, args, kwargs)


register_upcall("builtin_cell_call", call_builtin_cell_compiled)


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
    program's state), kept in the instance's :class:`ProgramCache`, so the
    program goes with the object.
    """

    # Read by Cell's hook registration, which refuses a jit-compiled hook as MindSpore does.
    _is_jit_function = True

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
        if getattr(instance, "__dict__", None) is None:
            return None
        return program_cache(instance).methods

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
            self._compiled = CompiledFunction(convert_function(self._fn), [RNG_STATE], f"For '{self._fn.__qualname__}'",
                                              caller=self)
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
