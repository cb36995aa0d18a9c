"""Tensor control flow: the Python state of a branch or loop body as lax carries.

Converted code hands each branch or loop body to these functions as a Python
function of the variables it may assign (its *state*). A body is traced once
with ``jax.make_jaxpr`` (a *probe*), which tells

- the Python structure of every state variable after the body: a leaf that
  stays the same Python value stays Python (``done = True`` in both branches);
  numbers that differ become arrays, as MindSpore's graph mode joins them;
- which :class:`~mindjax.common.variable.Variable` s (Parameters, the random
  key) the body writes: they become carries too, read from and written back to
  the Variable around the lax op.

The probe's jaxpr is then evaluated inside ``lax.cond`` / the loop, so user
code runs once per branch (twice or three times for a loop whose carry types
settle after a round).
"""
from __future__ import annotations

from typing import Any, Callable, Sequence

import jax
import jax.numpy as jnp
import numpy as np
from jax.extend.core import jaxpr_as_fun

from mindjax.common.tensor import Tensor
from mindjax.common.random import RNG_STATE
from mindjax.cells.state import run_with_state
from mindjax.common.variable import Variable, current_tracker
from mindjax.ops.loops import CHECKPOINTS, differentiable_while_loop  # noqa: F401 - CHECKPOINTS re-exported
from mindjax.transforms.control_flow._errors import ControlFlowTraceError, Undefined

try:  # keeps Python-number weakness across a join (1.0 stays weak next to float16)
    from jax._src.lax.lax import _convert_element_type as _convert_weak
except ImportError:  # pragma: no cover - private API moved
    _convert_weak = None

_PY_NUMBERS = (bool, int, float, complex)
_ARRAYS = (jax.Array, np.ndarray, np.generic, Tensor)


def _opaque(x: Any) -> bool:
    return isinstance(x, (Variable, Undefined))


def flatten(value: Any) -> tuple[list[Any], Any]:
    """Leaves and structure of a state variable (Parameters and markers are leaves)."""
    return jax.tree_util.tree_flatten(value, is_leaf=_opaque)


def is_array(x: Any) -> bool:
    return isinstance(x, _ARRAYS)


def concrete(x: Any) -> Any:
    """``x`` as a Python/numpy value when known at trace time, else the tracer itself."""
    if isinstance(x, Tensor):
        x = x._value
    if isinstance(x, jax.core.Tracer):
        try:
            value = x.to_concrete_value()
        except Exception:  # noqa: BLE001 - any failure means "not concrete"
            value = None
        return x if value is None else value
    return x


def is_traced(x: Any) -> bool:
    return isinstance(x._value if isinstance(x, Tensor) else x, jax.core.Tracer)


def as_predicate(x: Any, info: str, what: str) -> Any:
    """A traced condition as a scalar boolean, or a clear error."""
    x = jnp.asarray(x)
    if x.size != 1:
        raise ValueError(f"{info}: the condition of `{what}` is a tensor of shape {tuple(x.shape)}; "
                         f"a tensor condition must have exactly one element (use .any() or .all())")
    x = x.reshape(())
    return x if x.dtype == jnp.bool_ else x != 0


# -- leaf specs ---------------------------------------------------------------------------
class ArraySpec:
    """An array leaf of a carry: shape, dtype and JAX weak type."""

    __slots__ = ("shape", "dtype", "weak")

    def __init__(self, shape: Sequence[int], dtype: Any, weak: bool) -> None:
        self.shape, self.dtype, self.weak = tuple(shape), jnp.dtype(dtype), bool(weak)

    def __eq__(self, other: Any) -> bool:
        return isinstance(other, ArraySpec) and (self.shape, self.dtype, self.weak) == (
            other.shape, other.dtype, other.weak)

    def __repr__(self) -> str:
        return f"{self.dtype}{list(self.shape)}"

    def aval(self) -> Any:
        return jax.ShapeDtypeStruct(self.shape, self.dtype, weak_type=self.weak)

    def cast(self, x: Any) -> Any:
        if isinstance(x, _PY_NUMBERS):
            x = jnp.asarray(x, self.dtype)
        x = jnp.asarray(x)
        if x.shape != self.shape:
            x = jnp.broadcast_to(x, self.shape)
        if x.dtype == self.dtype and getattr(x, "weak_type", False) == self.weak:
            return x
        if _convert_weak is not None:
            return _convert_weak(x, self.dtype, self.weak)
        return x.astype(self.dtype)

    def zeros(self) -> Any:
        return self.cast(jnp.zeros(self.shape, self.dtype))


class Static:
    """A leaf (or a whole variable) that stays a Python value."""

    __slots__ = ("value",)

    def __init__(self, value: Any) -> None:
        self.value = value

    def __eq__(self, other: Any) -> bool:
        return isinstance(other, Static) and _same_python(self.value, other.value)

    def __repr__(self) -> str:
        return f"Static({self.value!r})"


def _same_python(a: Any, b: Any) -> bool:
    if a is b:
        return True
    if isinstance(a, Undefined) and isinstance(b, Undefined):
        return a.reason == b.reason
    if type(a) is not type(b) or not isinstance(a, (*_PY_NUMBERS, str, bytes, type(None))):
        return False
    return a == b


def _spec_of_aval(aval: Any) -> ArraySpec:
    return ArraySpec(aval.shape, aval.dtype, getattr(aval, "weak_type", False))


def _type_stand_in(leaf: Any) -> Any:
    """What ``jnp.result_type`` should see for a leaf: Python types stand for weak values."""
    if isinstance(leaf, Static):
        return type(leaf.value)
    if leaf.weak:
        kind = leaf.dtype.kind
        return {"b": bool, "i": int, "u": int, "f": float, "c": complex}.get(kind, leaf.dtype)
    return leaf.dtype


class _JoinError(Exception):
    pass


def _describe(leaf: Any) -> str:
    if isinstance(leaf, ArraySpec):
        return f"a tensor of shape {leaf.shape} and dtype {leaf.dtype}"
    return f"the Python value {leaf.value!r}"


def _broadcast_hint(a: tuple[int, ...], b: tuple[int, ...]) -> str:
    # MindSpore joins the two into a dynamic shape (after a loop that ran no iteration the value keeps
    # its first shape); one XLA program has static shapes, so the user must pick the shape.
    try:
        wide = tuple(np.broadcast_shapes(a, b))
    except ValueError:
        return ""
    return (f" (MindSpore gives it a dynamic shape, which one XLA program cannot hold: give it the "
            f"shape {wide} before, e.g. with ops.broadcast_to)")


def join_leaf(a: Any, b: Any) -> Any:
    """The spec that holds both leaf specs ``a`` and ``b`` (raises ``_JoinError``)."""
    if isinstance(a, Static) and isinstance(b, Static):
        if a == b:
            return a
        if not (isinstance(a.value, _PY_NUMBERS) and isinstance(b.value, _PY_NUMBERS)):
            raise _JoinError(f"{_describe(a)} on one path and {_describe(b)} on the other")
        shape: tuple[int, ...] = ()
    else:
        for s in (a, b):
            if isinstance(s, Static) and not isinstance(s.value, _PY_NUMBERS):
                raise _JoinError(f"{_describe(a)} on one path and {_describe(b)} on the other")
        shapes = {s.shape for s in (a, b) if isinstance(s, ArraySpec)}
        if len(shapes) > 1:
            raise _JoinError(f"{_describe(a)} on one path and {_describe(b)} on the other"
                             f"{_broadcast_hint(a.shape, b.shape)}")
        shape = shapes.pop()
    dtype = jnp.result_type(_type_stand_in(a), _type_stand_in(b))
    weak = all(isinstance(s, Static) or s.weak for s in (a, b))
    return ArraySpec(shape, dtype, weak)


# -- variable specs -----------------------------------------------------------------------
class TreeSpec:
    """A state variable that is a pytree with some array leaves."""

    __slots__ = ("treedef", "leaves")

    def __init__(self, treedef: Any, leaves: list[Any]) -> None:
        self.treedef, self.leaves = treedef, leaves

    def __eq__(self, other: Any) -> bool:
        return isinstance(other, TreeSpec) and self.treedef == other.treedef and \
            self.leaves == other.leaves

    def n_arrays(self) -> int:
        return sum(isinstance(s, ArraySpec) for s in self.leaves)


def _observe(value: Any, array_spec_of: Callable[[Any], ArraySpec]) -> Any:
    """The spec a value would have on its own: Static or TreeSpec."""
    if isinstance(value, Undefined):
        return Static(value)
    leaves, treedef = flatten(value)
    if not any(is_array(x) for x in leaves):
        if treedef == jax.tree_util.tree_structure(0) and leaves:
            return Static(leaves[0])
        return TreeSpec(treedef, [Static(x) for x in leaves])
    return TreeSpec(treedef, [array_spec_of(x) if is_array(x) else Static(x) for x in leaves])


def spec_of_value(value: Any) -> Any:
    """The spec of a concrete or traced value."""
    return _observe(value, lambda x: _spec_of_aval(jax.typeof(x) if isinstance(x, jax.Array)
                                                   else jax.ShapeDtypeStruct(np.shape(x), np.result_type(x))))


def _as_tree(spec: Any) -> TreeSpec | None:
    if isinstance(spec, TreeSpec):
        return spec
    if isinstance(spec.value, Undefined):
        return None
    leaves, treedef = flatten(spec.value)
    return TreeSpec(treedef, [Static(x) for x in leaves])


def join_var(a: Any, b: Any, name: str) -> Any:
    """Join two variable specs; raises ``_JoinError`` with a message naming ``name``."""
    if a == b:
        return a
    ta, tb = _as_tree(a), _as_tree(b)
    if ta is None or tb is None:
        raise _JoinError(f"'{name}' is defined on one path only")
    if ta.treedef != tb.treedef:
        raise _JoinError(f"'{name}' has structure {ta.treedef} on one path and {tb.treedef} "
                         f"on the other")
    try:
        leaves = [join_leaf(x, y) for x, y in zip(ta.leaves, tb.leaves)]
    except _JoinError as err:
        raise _JoinError(f"'{name}' is {err}") from None
    if all(isinstance(s, Static) for s in leaves) and len(leaves) == 1 and \
            ta.treedef == jax.tree_util.tree_structure(0):
        return leaves[0]
    return TreeSpec(ta.treedef, leaves)


def arrays_for(spec: Any, value: Any) -> list[Any]:
    """The array leaves of ``value`` under ``spec``, cast; zeros when ``value`` is undefined."""
    if isinstance(spec, Static):
        return []
    if isinstance(value, Undefined):
        return [s.zeros() for s in spec.leaves if isinstance(s, ArraySpec)]
    leaves, _ = flatten(value)
    return [s.cast(x) for s, x in zip(spec.leaves, leaves) if isinstance(s, ArraySpec)]


def build(spec: Any, arrays: Sequence[Any]) -> Any:
    """The Python value of a variable from its spec and its array leaves."""
    if isinstance(spec, Static):
        return spec.value
    it = iter(arrays)
    leaves = [next(it) if isinstance(s, ArraySpec) else s.value for s in spec.leaves]
    return jax.tree_util.tree_unflatten(spec.treedef, leaves)


def _count(spec: Any) -> int:
    return 0 if isinstance(spec, Static) else spec.n_arrays()


def split(specs: Sequence[Any], arrays: Sequence[Any]) -> tuple[Any, ...]:
    """Build every variable of a state from one flat list of arrays."""
    out, pos = [], 0
    for spec in specs:
        n = _count(spec)
        out.append(build(spec, arrays[pos:pos + n]))
        pos += n
    return tuple(out)


# -- traced frames: bodies that run under a tensor condition ---------------------------------
_MISSING = object()


class Write:
    """An attribute or container item written by a body traced under a tensor condition.

    The write happens (later reads in the body see it) and is undone when the
    probe ends; the value each path leaves becomes an output of the lax op and
    is written after it, as Parameters are.
    """

    __slots__ = ("obj", "kind", "key", "original")

    def __init__(self, obj: Any, kind: str, key: Any) -> None:
        self.obj, self.kind, self.key = obj, kind, key
        self.original = self.read()

    def read(self) -> Any:
        if self.kind == "attr":
            return getattr(self.obj, self.key, _MISSING)
        if self.kind == "contents":
            return type(self.obj)(self.obj)
        try:
            return self.obj[self.key]
        except (KeyError, IndexError):
            return _MISSING

    def write(self, value: Any) -> None:
        if self.kind == "attr":
            setattr(self.obj, self.key, value)
        elif self.kind == "contents":
            _refill(self.obj, value)
        else:
            self.obj[self.key] = value

    def restore(self) -> None:
        if self.original is not _MISSING:
            self.write(self.original)
        elif self.kind == "attr":
            delattr(self.obj, self.key)
        else:
            del self.obj[self.key]

    def describe(self) -> str:
        if self.kind == "attr":
            return f"`<{type(self.obj).__name__}>.{self.key}`"
        if self.kind == "contents":
            return f"a `{type(self.obj).__name__}` changed in place"
        return f"`<{type(self.obj).__name__}>[{self.key!r}]`"


class Frame:
    """A body being traced under a tensor condition: where, and what it wrote."""

    __slots__ = ("info", "what", "journal")

    def __init__(self, info: str, what: str) -> None:
        self.info, self.what = info, what
        self.journal: dict[tuple[int, str, Any], Write] = {}


_FRAMES: list[Frame] = []


def current_frame() -> Frame | None:
    """The innermost body being traced under a tensor condition, or ``None``."""
    return _FRAMES[-1] if _FRAMES else None


def journal_contents(obj: list | dict) -> None:
    """Note a list or dict about to be changed in place (``.append`` ...) inside a frame."""
    frame = current_frame()
    ident = (id(obj), "contents", None)
    if frame is not None and ident not in frame.journal:
        frame.journal[ident] = Write(obj, "contents", None)


def write(obj: Any, kind: str, key: Any, value: Any, info: str = "?") -> None:
    """``setattr(obj, key, value)`` (``kind='attr'``) or ``obj[key] = value``, journaled in a frame."""
    frame = current_frame()
    if frame is not None:
        try:
            ident = (id(obj), kind, key)
            hash(ident)
        except TypeError:
            raise ControlFlowTraceError(
                f"{info}: `obj[{key!r}] = ...` with an unhashable key runs under the tensor "
                f"condition of the `{frame.what}` at {frame.info}; assign a local variable in "
                f"the branch and write the container after the `{frame.what}`") from None
        if ident not in frame.journal:
            frame.journal[ident] = Write(obj, kind, key)
    if kind == "attr":
        setattr(obj, key, value)
    elif kind == "contents":
        _refill(obj, value)
    else:
        obj[key] = value


def _refill(obj: Any, value: Any) -> None:
    obj.clear()
    (obj.extend if isinstance(obj, list) else obj.update)(value)


def _undo(frame: Frame) -> None:
    for entry in reversed(list(frame.journal.values())):
        entry.restore()


# -- probing --------------------------------------------------------------------------------
class Probe:
    """What one trace of a body gave: its jaxpr, output specs and written Variables."""

    def __init__(self, closed: Any, out_specs: list[Any], out_values: list[Any],
                 written: list[Variable], n_user: int, writes: list[Write] = (),
                 write_values: list[Any] = (), write_specs: list[Any] = ()) -> None:
        self.closed = closed
        self.out_specs = out_specs      # observed spec per state variable
        self.out_values = out_values    # Python values per variable (arrays replaced)
        self.written = written          # Variables written, in output order after the user arrays
        self.n_user = n_user
        self.writes = list(writes)      # attribute/item writes, outputs after the Variables
        self.write_values = list(write_values)
        self.write_specs = list(write_specs)

    def run(self) -> Callable[..., list[Any]]:
        return jaxpr_as_fun(self.closed)


def probe(fn: Callable[..., Sequence[Any]], in_specs: Sequence[Any], carried: Sequence[Variable],
          names: Sequence[str], extra_avals: Sequence[Any] = (),
          extra_in: Callable[[Sequence[Any]], tuple[Any, ...]] | None = None,
          info: str = "?", what: str = "if") -> Probe:
    """Trace ``fn`` on a state described by ``in_specs`` (plus carried Variables).

    ``fn`` returns the new state (one value per name). Arrays of the input
    state, the ``extra_avals`` (a loop item) and the carried Variables' values
    are the jaxpr's inputs; its outputs are the state's array leaves and then
    the values of every Variable carried or written.
    """
    box: dict[str, Any] = {}
    n_extra = len(extra_avals)
    n_state = sum(_count(s) for s in in_specs)

    def traced(*arrays: Any) -> list[Any]:
        extra = arrays[:n_extra]
        state = split(in_specs, arrays[n_extra:n_extra + n_state])
        var_values = arrays[n_extra + n_state:]
        prefix = extra_in(extra) if extra_in is not None else ()
        frame = Frame(info, what)
        _FRAMES.append(frame)
        try:
            out, written = run_with_variables(fn, (*prefix, *state), carried, var_values)
            # Snapshots: undoing the writes below must not change what the body returned.
            out = [_snapshot(v) for v in out]
            writes = list(frame.journal.values())
            write_values = [_snapshot(w.read()) for w in writes]
        finally:
            _FRAMES.pop()
            _undo(frame)
        if len(out) != len(names):  # pragma: no cover - converter invariant
            raise AssertionError(f"body returned {len(out)} values for {len(names)} names")
        specs, arrays_out, values = [], [], []
        for value in out:
            spec = _observe(value, lambda x: ArraySpec((), jnp.float32, False))
            leaves, _ = flatten(value) if not isinstance(value, Undefined) else ([], None)
            arrays_out.extend(jnp.asarray(x) for x in leaves if is_array(x))
            specs.append(spec)
            values.append(value)
        box["values"], box["written"] = values, [v for v, _ in written]
        box["n_user"] = len(arrays_out)
        box["writes"], box["write_values"] = writes, write_values
        write_arrays = [jnp.asarray(x) for value in write_values if value is not _MISSING
                        for x in flatten(value)[0] if is_array(x)]
        return arrays_out + [val for _, val in written] + write_arrays

    _materialise_random_key()
    in_avals = list(extra_avals) + [s.aval() for spec in in_specs if not isinstance(spec, Static)
                                    for s in spec.leaves if isinstance(s, ArraySpec)]
    in_avals += [jax.typeof(jnp.asarray(v._raw)) for v in carried]
    closed = jax.make_jaxpr(traced)(*in_avals)
    n_user = box["n_user"]
    out_avals = closed.out_avals[:n_user]
    specs, pos = [], 0
    for value in box["values"]:
        if isinstance(value, Undefined):
            specs.append(Static(value))
            continue
        leaves, treedef = flatten(value)
        leaf_specs = []
        for x in leaves:
            if is_array(x):
                leaf_specs.append(_spec_of_aval(out_avals[pos]))
                pos += 1
            else:
                leaf_specs.append(Static(x))
        if not any(isinstance(s, ArraySpec) for s in leaf_specs) and len(leaves) == 1 and \
                treedef == jax.tree_util.tree_structure(0):
            specs.append(leaf_specs[0])
        else:
            specs.append(TreeSpec(treedef, leaf_specs))
    pos = n_user + len(box["written"])
    write_specs = []
    for value in box["write_values"]:
        spec, pos = _spec_at(value, closed.out_avals, pos)
        write_specs.append(spec)
    return Probe(closed, specs, box["values"], box["written"], n_user, box["writes"],
                 box["write_values"], write_specs)


def _snapshot(value: Any) -> Any:
    """``value`` with its containers copied (leaves shared), so later in-place writes miss it."""
    if value is _MISSING or isinstance(value, Undefined):
        return value
    leaves, treedef = flatten(value)
    return jax.tree_util.tree_unflatten(treedef, leaves)


def _spec_at(value: Any, avals: Sequence[Any], pos: int) -> tuple[Any, int]:
    """The spec of an output value whose array leaves are ``avals[pos:]``."""
    if value is _MISSING or isinstance(value, Undefined):
        return Static(value), pos
    leaves, treedef = flatten(value)
    leaf_specs = []
    for x in leaves:
        if is_array(x):
            leaf_specs.append(_spec_of_aval(avals[pos]))
            pos += 1
        else:
            leaf_specs.append(Static(x))
    if not any(isinstance(s, ArraySpec) for s in leaf_specs) and len(leaves) == 1 and \
            treedef == jax.tree_util.tree_structure(0):
        return leaf_specs[0], pos
    return TreeSpec(treedef, leaf_specs), pos


def _materialise_random_key() -> None:
    # The key is created lazily on first read; created inside a probe it would be a tracer
    # that outlives the probe.
    if RNG_STATE._raw is None:
        with jax.ensure_compile_time_eval():
            object.__setattr__(RNG_STATE, "_raw", RNG_STATE._factory())


def run_with_variables(fn: Callable[..., Sequence[Any]], args: Sequence[Any],
                       carried: Sequence[Variable], values: Sequence[Any]
                       ) -> tuple[Sequence[Any], list[tuple[Variable, Any]]]:
    """Run ``fn(*args)`` with ``carried`` holding ``values``; leave every Variable as it was.

    Returns:
        ``(fn's output, [(variable, value after fn)])`` for the carried
        Variables and, after them, any other Variable that ``fn`` wrote.
    """
    carried_ids = {id(v) for v in carried}
    run = run_with_state(carried, values, lambda: fn(*args))
    values_of = dict(zip(map(id, run.written), run.written_values))
    written = list(zip(carried, run.new_values))
    written += [(v, values_of[id(v)]) for v in run.written if id(v) not in carried_ids]
    out = run.out
    outer = current_tracker()
    if outer is not None:
        for var in run.touched.values():
            outer.read(var)
    return out, written


def note(err: BaseException, info: str, what: str) -> None:
    """Add where a failing trace came from to an exception (once)."""
    text = f"while tracing the `{what}` at {info} (GRAPH mode traces every branch and loop body)"
    if text not in getattr(err, "__notes__", ()):
        err.add_note(text)


# -- lax.cond -------------------------------------------------------------------------------
def cond(pred: Any, branches: Sequence[Callable[..., Sequence[Any]]], state: Sequence[Any],
         names: Sequence[str], info: str, what: str = "if", strict: bool = False) -> tuple[Any, ...]:
    """``lax.cond`` over two converted branches of a state (``pred`` is a traced scalar bool).

    A variable the branches disagree on (defined in one only, different shapes
    or Python values) becomes an :class:`Undefined` whose use raises with the
    reason, unless ``strict``, where the error is raised at once.
    """
    probes = []
    for fn in branches:
        try:
            probes.append(probe(lambda *s, _f=fn: _f(*s), [Static(v) for v in state], (), names,
                                info=info, what=what))
        except Exception as err:
            note(err, info, what)
            raise
    specs = []
    for i, name in enumerate(names):
        a, b = probes[0].out_specs[i], probes[1].out_specs[i]
        try:
            specs.append(join_var(a, b, name))
        except _JoinError as err:
            if name == "_mj_ret" and (_is_undef(a) or _is_undef(b)):
                specs.append(b if _is_undef(a) else a)   # the flag `_mj_done` guards it
                continue
            message = (f"{err} of the `{what}` at {info} whose condition is a tensor; in GRAPH "
                       f"mode both branches must give it the same type and shape")
            if name == "_mj_ret":
                detail = str(err).split(" is ", 1)[-1].split(" has ", 1)[-1]
                message = (f"the function returns {detail} of the `{what}` at {info} whose "
                           f"condition is a tensor; return the same structure, shape and dtype on "
                           f"every path")
            if strict:
                raise ValueError(message) from None
            specs.append(Static(Undefined(name, message)))
    variables: list[Variable] = []
    seen: set[int] = set()
    for p in probes:
        for v in p.written:
            if id(v) not in seen:
                seen.add(id(v))
                variables.append(v)

    writes, write_specs = _join_writes(probes, info, what)

    def branch(p: Probe) -> Callable[[], tuple[list[Any], list[Any], list[Any]]]:
        def run() -> tuple[list[Any], list[Any], list[Any]]:
            outs = p.run()()
            user, pos = [], 0
            for spec, value, obs in zip(specs, p.out_values, p.out_specs):
                n = _count(obs) if not isinstance(obs, Static) else 0
                mine = outs[pos:pos + n]
                pos += n
                if isinstance(spec, Static):
                    continue
                user.extend(_cast_leaves(spec, value, mine))
            written = dict(zip((id(v) for v in p.written), outs[p.n_user:]))
            mine = _write_outputs(p, outs[p.n_user + len(p.written):])
            extra = []
            for key, spec in zip(writes, write_specs):
                value, arrays = mine.get(key, (writes[key].original, None))
                if arrays is None:
                    extra.extend(arrays_for(spec, value) if not isinstance(spec, Static) else [])
                elif not isinstance(spec, Static):
                    extra.extend(_cast_leaves(spec, value, arrays))
            return user, [written.get(id(v), v._raw) for v in variables], extra
        return run

    try:
        user, var_values, extra = jax.lax.cond(pred, branch(probes[0]), branch(probes[1]))
    except TypeError as err:
        note(err, info, what)
        raise
    for var, val in zip(variables, var_values):
        var._value = val
    for (key, entry), value in zip(writes.items(), split(write_specs, extra)):
        write(entry.obj, entry.kind, entry.key, value, info)
    return split(specs, user)


def _write_outputs(p: Probe, outs: Sequence[Any]) -> dict[Any, tuple[Any, list[Any]]]:
    """A probe's attribute/item writes: key -> (value, its array outputs)."""
    found, pos = {}, 0
    for entry, value, spec in zip(p.writes, p.write_values, p.write_specs):
        n = _count(spec)
        found[(id(entry.obj), entry.kind, entry.key)] = (value, list(outs[pos:pos + n]))
        pos += n
    return found


def _join_writes(probes: Sequence[Probe], info: str, what: str) -> tuple[dict[Any, Write], list[Any]]:
    """The attribute/item writes of both branches and the spec that holds each."""
    writes: dict[Any, Write] = {}
    for p in probes:
        for entry in p.writes:
            writes.setdefault((id(entry.obj), entry.kind, entry.key), entry)
    specs = []
    for key, entry in writes.items():
        per_branch = []
        for p in probes:
            spec = None
            for e, s in zip(p.writes, p.write_specs):
                if (id(e.obj), e.kind, e.key) == key:
                    spec = s
            if spec is None:
                spec = spec_of_value(entry.original) if entry.original is not _MISSING else None
            if spec is None or (isinstance(spec, Static) and spec.value is _MISSING):
                raise ValueError(
                    f"{entry.describe()} is assigned on one path only of the `{what}` at {info} "
                    f"whose condition is a tensor, and has no value before it; assign it before "
                    f"the `{what}` or on both paths")
            per_branch.append(spec)
        try:
            specs.append(join_var(per_branch[0], per_branch[1], entry.describe()))
        except _JoinError as err:
            raise ValueError(f"{err} of the `{what}` at {info} whose condition is a tensor; in "
                             f"GRAPH mode both paths must leave it with the same type and "
                             f"shape") from None
    return writes, specs


def _is_undef(spec: Any) -> bool:
    return isinstance(spec, Static) and isinstance(spec.value, Undefined)


def _cast_leaves(spec: TreeSpec, value: Any, arrays: Sequence[Any]) -> list[Any]:
    """A branch's array leaves for ``spec``; static numbers become arrays, undefined zeros."""
    if isinstance(value, Undefined):
        return [s.zeros() for s in spec.leaves if isinstance(s, ArraySpec)]
    leaves, _ = flatten(value)
    it = iter(arrays)
    out = []
    for s, x in zip(spec.leaves, leaves):
        src = next(it) if is_array(x) else x
        if isinstance(s, ArraySpec):
            out.append(s.cast(src))
    return out


# -- loops ------------------------------------------------------------------------------
_MAX_ROUNDS = 5


def settle(body: Callable[..., Sequence[Any]], state: Sequence[Any], names: Sequence[str],
           info: str, what: str, item_aval: Any = None,
           loop_vars: Sequence[Variable] = ()) -> tuple[list[Any], list[Variable], Probe]:
    """Find carry specs that one body step maps to themselves.

    Returns:
        ``(specs, carried Variables, the probe of the body on those specs)``.
    """
    specs = [spec_of_value(v) for v in state]
    carried: list[Variable] = list(loop_vars)
    for _ in range(_MAX_ROUNDS):
        extra = [item_aval] if item_aval is not None else []
        try:
            p = probe(body, specs, carried, names, extra_avals=extra,
                      extra_in=(lambda e: tuple(e)) if extra else None, info=info, what=what)
        except Exception as err:
            note(err, info, what)
            raise
        if p.writes:
            raise ControlFlowTraceError(
                f"{info}: {p.writes[0].describe()} is written inside the `{what}` whose trip "
                f"count is a tensor; GRAPH mode cannot repeat a Python side effect a "
                f"data-dependent number of times. Carry the value in a local variable and assign "
                f"it after the loop, or use a Parameter")
        new_vars = [v for v in p.written if all(v is not c for c in carried)]
        new_specs = []
        for i, name in enumerate(names):
            a, b = specs[i], p.out_specs[i]
            if _is_undef(a) and not _is_undef(b):
                new_specs.append(b)      # first defined inside the loop: zeros before it
                continue
            if _is_undef(b):
                new_specs.append(b if _is_undef(a) and a.value.reason is None and b.value.reason else a
                                 if _is_undef(a) else b)
                continue
            try:
                new_specs.append(join_var(a, b, name))
            except _JoinError as err:
                raise ValueError(f"{info}: {err} (before and after one iteration of the `{what}`); "
                                 f"a loop that runs on tensor values needs every variable to keep "
                                 f"its structure, shape and dtype") from None
        if not new_vars and new_specs == specs:
            return specs, carried, p
        carried += new_vars
        specs = new_specs
    raise ValueError(f"{info}: the types of the variables of the `{what}` did not settle after "
                     f"{_MAX_ROUNDS} iterations")


def _loop_fns(specs: list[Any], carried: list[Variable], p: Probe
              ) -> Callable[[Sequence[Any]], tuple[list[Any], list[Any]]]:
    """Evaluate the settled probe on a flat carry and normalise to ``specs``."""
    def step(*inputs: Any) -> tuple[list[Any], list[Any]]:
        outs = p.run()(*inputs)
        user, pos = [], 0
        for spec, value, obs in zip(specs, p.out_values, p.out_specs):
            n = _count(obs) if not isinstance(obs, Static) else 0
            mine = outs[pos:pos + n]
            pos += n
            if not isinstance(spec, Static):
                user.extend(_cast_leaves(spec, value, mine))
        var_out = outs[p.n_user:p.n_user + len(carried)]
        return user, [jnp.asarray(v).astype(jnp.asarray(c._raw).dtype) for v, c in zip(var_out, carried)]
    return step


def init_carry(specs: list[Any], state: Sequence[Any]) -> list[Any]:
    out = []
    for spec, value in zip(specs, state):
        out.extend(arrays_for(spec, value))
    return out


def while_loop(cond_fn: Callable[..., Any], body_fn: Callable[..., Sequence[Any]],
               state: Sequence[Any], names: Sequence[str], info: str, what: str = "while"
               ) -> tuple[Any, ...]:
    """A ``while`` whose condition is a tensor: a reverse-differentiable lax loop."""
    specs, carried, p = settle(body_fn, state, names, info, what)
    step = _loop_fns(specs, carried, p)
    n_user = sum(_count(s) for s in specs)

    def pred_of(arrays: Sequence[Any]) -> Any:
        values = split(specs, arrays[:n_user])
        frame = Frame(info, what)
        _FRAMES.append(frame)
        try:
            out, _ = run_with_variables(lambda *s: (cond_fn(*s),), values, carried, arrays[n_user:])
        finally:
            _FRAMES.pop()
            _undo(frame)
        c = out[0]
        if isinstance(c, Undefined):
            c._fail()
        return as_predicate(c, info, what)

    def body(carry: tuple[Any, ...]) -> tuple[Any, ...]:
        user, var_out = step(*carry)
        return tuple(user) + tuple(var_out)

    init = tuple(init_carry(specs, state)) + tuple(jnp.asarray(v._raw) for v in carried)
    try:
        out = differentiable_while_loop(lambda c: pred_of(c), body, init)
    except Exception as err:
        note(err, info, what)
        raise
    for var, val in zip(carried, out[n_user:]):
        var._value = val
    return split(specs, out[:n_user])


def scan_loop(xs: Any, body_fn: Callable[..., Sequence[Any]], state: Sequence[Any],
              names: Sequence[str], info: str, what: str = "for") -> tuple[Any, ...]:
    """A ``for`` over the leading axis of ``xs`` as one ``lax.scan``."""
    item = jax.ShapeDtypeStruct(xs.shape[1:], xs.dtype)
    specs, carried, p = settle(body_fn, state, names, info, what, item_aval=item)
    step = _loop_fns(specs, carried, p)
    n_user = sum(_count(s) for s in specs)

    def body(carry: tuple[Any, ...], x: Any) -> tuple[tuple[Any, ...], None]:
        user, var_out = step(x, *carry)
        return tuple(user) + tuple(var_out), None

    init = tuple(init_carry(specs, state)) + tuple(jnp.asarray(v._raw) for v in carried)
    out, _ = jax.lax.scan(body, init, xs)
    for var, val in zip(carried, out[n_user:]):
        var._value = val
    return split(specs, out[:n_user])
