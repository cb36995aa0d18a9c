"""``mindspore.ops.composite.base``: ``MultitypeFuncGraph``, ``HyperMap``, ``Map``, ``Partial`` and
``GradOperation``.

In MindSpore they build graph nodes; here they are plain Python dispatch over
pytrees, so they work eagerly and under ``jax.jit`` alike.
"""
from __future__ import annotations

import functools
from typing import Any, Callable

import jax
import numpy as np

from mindjax.common.dtype import to_jax_dtype
from mindjax.common.sparse_tensor import COOTensor, CSRTensor, RowTensor
from mindjax.common.tensor import Tensor
from mindjax.common.variable import Variable
from mindjax.ops.primitives import Primitive
from mindjax.transforms.grad import GradOperation

# ``hyper_add`` is defined here and exported by ``mindjax.ops.composite`` (MindSpore keeps it in multitype_ops).
__all__ = ["MultitypeFuncGraph", "HyperMap", "Map", "Partial", "GradOperation", "tail", "zip_operation"]


def _is_tensor(x: Any) -> bool:
    return isinstance(x, (jax.Array, np.ndarray, Variable, jax.core.Tracer, Tensor))


def _never(x: Any) -> bool:
    """MindSpore types that have no values here (CSRTensor, MapTensor ...)."""
    return False


# MindSpore's type names, as register() takes them (mindspore.common.dtype.typing.str_to_type
# accepts these), and what each accepts.
_TYPE_CHECKS: dict[str, Callable[[Any], bool]] = {
    "Tensor": _is_tensor,
    "Number": lambda x: isinstance(x, (int, float, complex, np.number)) and not isinstance(x, bool),
    "Int": lambda x: isinstance(x, (int, np.signedinteger)) and not isinstance(x, bool),
    "UInt": lambda x: isinstance(x, np.unsignedinteger),
    "Float": lambda x: isinstance(x, (float, np.floating)),
    "Complex": lambda x: isinstance(x, (complex, np.complexfloating)),
    "Bool": lambda x: isinstance(x, (bool, np.bool_)),
    "String": lambda x: isinstance(x, str),
    "Tuple": lambda x: isinstance(x, tuple),
    "List": lambda x: isinstance(x, list),
    "Dictionary": lambda x: isinstance(x, dict),
    "Slice": lambda x: isinstance(x, slice),
    "Ellipsis": lambda x: x is Ellipsis,
    "TypeType": lambda x: isinstance(x, (type, np.dtype)),
    "Function": callable,
    "None": lambda x: x is None,
    "RowTensor": lambda x: isinstance(x, RowTensor),
    "COOTensor": lambda x: isinstance(x, COOTensor),
    "CSRTensor": lambda x: isinstance(x, CSRTensor),
    "MapTensor": _never,
    "Keyword": _never,
    "Undetermined": _never,
}


def _scalar_of(dtype: str, python_type: type | None) -> Callable[[Any], bool]:
    """MindSpore's scalar type names (``"Int64"``, ``"Float32"`` ...): a numpy scalar of that dtype,
    or a Python scalar of the type MindSpore's graph gives it (``int`` is Int64, ``float`` Float32/64)."""
    np_dtype = np.dtype(dtype)

    def check(x: Any) -> bool:
        if isinstance(x, np.generic):
            return x.dtype == np_dtype
        return python_type is not None and type(x) is python_type  # noqa: E721 - bool is not an int here
    return check


for _name, _dtype, _py in (("Int8", "int8", None), ("Int16", "int16", None), ("Int32", "int32", None),
                           ("Int64", "int64", int), ("UInt8", "uint8", None), ("UInt16", "uint16", None),
                           ("UInt32", "uint32", None), ("UInt64", "uint64", None), ("Float16", "float16", None),
                           ("Float32", "float32", float), ("Float64", "float64", float),
                           ("Complex64", "complex64", None), ("Complex128", "complex128", complex)):
    _TYPE_CHECKS[_name] = _scalar_of(_dtype, _py)
del _name, _dtype, _py


def _type_name(x: Any) -> str:
    for name, check in _TYPE_CHECKS.items():
        if check(x):
            return name
    return type(x).__name__


def _parse_type(who: str, spec: Any) -> tuple[str, Callable[[Any], bool]]:
    """``"Tensor"``, ``"Tensor[Float32]"``, ``"List[Int]"`` or a type object: its name and its check."""
    name = spec if isinstance(spec, str) else getattr(spec, "__name__", str(spec))
    base, _, param = name.partition("[")
    if base not in _TYPE_CHECKS:
        raise ValueError(f"For '{who}', unknown type name {name!r} in register(); expected one of "
                         f"{sorted(_TYPE_CHECKS)}, optionally with a parameter such as 'Tensor[Float32]'")
    check = _TYPE_CHECKS[base]
    if base == "Tensor" and param.endswith("]"):
        try:
            dtype = to_jax_dtype(param[:-1].lower())
        except TypeError:
            raise ValueError(f"For '{who}', unknown element type in register() type {name!r}") from None
        return name, lambda x, _d=dtype: _is_tensor(x) and getattr(x, "dtype", None) == _d
    return name, check


class MultitypeFuncGraph:
    """A function with one implementation per tuple of argument types.

    Arguments:
        name: the function's name, for error messages.
        read_value: accepted for MindSpore compatibility.

    Example:
        >>> add = MultitypeFuncGraph("add")
        >>> @add.register("Number", "Number")
        ... def _(a, b):
        ...     return a + b
        >>> add(1, 2)
        3
    """

    def __init__(self, name: str, read_value: bool = False) -> None:
        if not isinstance(name, str):
            raise TypeError(f"For 'MultitypeFuncGraph', 'name' must be a str, got {type(name).__name__}")
        self.name = name
        self._entries: list[tuple[tuple[str, ...], Callable[..., Any]]] = []
        self._checks: list[tuple[Callable[[Any], bool], ...]] = []
        self._converted: dict[Callable[..., Any], Callable[..., Any]] = {}
        del read_value

    def register(self, *type_names: Any) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
        """Register the decorated function for arguments of ``type_names`` ("Tensor", "Number", "Tuple" ...)."""
        parsed = [_parse_type(self.name, t) for t in type_names]
        names = tuple(name for name, _ in parsed)
        checks = tuple(check for _, check in parsed)

        def decorate(fn: Callable[..., Any]) -> Callable[..., Any]:
            self._entries.append((names, fn))
            self._checks.append(checks)
            return fn
        return decorate

    def __call__(self, *args: Any) -> Any:
        for (names, fn), checks in zip(self._entries, self._checks):
            if len(names) == len(args) and all(check(a) for check, a in zip(checks, args)):
                if _traced(args):
                    fn = self._graph_version(fn)
                return fn(*args)
        got = tuple(_type_name(a) for a in args)
        known = [names for names, _ in self._entries]
        raise TypeError(f"For '{self.name}', no implementation is registered for argument types {got}; "
                        f"registered: {known}")


    def _graph_version(self, fn: Callable[..., Any]) -> Callable[..., Any]:
        """``fn`` with its tensor-dependent ``if``/``while``/``for`` converted, as GRAPH mode
        compiles it (MindSpore parses registered functions like any other)."""
        converted = self._converted.get(fn)
        if converted is None:
            # Lazy: the converter sits in transforms, above ops; this module (MindSpore's
            # ops.composite) already reaches up for GradOperation.
            from mindjax.transforms.control_flow import convert_function

            converted = self._converted[fn] = convert_function(fn)
        return converted


def _traced(args: tuple[Any, ...]) -> bool:
    """Whether a call's arguments hold traced values (it runs inside a compiled program)."""
    for leaf in jax.tree_util.tree_leaves(args):
        if isinstance(leaf, jax.core.Tracer):
            return True
    return False


class Partial(Primitive):
    """``Partial()(fn, *args)``: ``fn`` with its first arguments fixed (``functools.partial``)."""

    def __call__(self, fn: Callable[..., Any], *args: Any) -> Callable[..., Any]:
        if not callable(fn):
            raise TypeError(f"For 'Partial', the first input must be callable, got {type(fn).__name__}")
        return functools.partial(fn, *args)


def _zip_sequences(who: str, seqs: tuple[Any, ...]) -> int:
    lengths = {len(s) for s in seqs}
    if len(lengths) != 1:
        raise ValueError(f"For '{who}', the sequences must have the same length, got {sorted(lengths)}")
    return lengths.pop()


class HyperMap:
    """Apply a function element by element over tuples or lists, recursing into nested ones.

    Arguments:
        ops: the function; when ``None`` it is the first argument of each call.
        reverse: accepted for MindSpore compatibility (the order of application does not
            change the result here).

    Returns (of a call):
        a tuple (or list, as the input) of the results.
    """

    _recursive = True

    def __init__(self, ops: Callable[..., Any] | None = None, reverse: bool = False) -> None:
        if ops is not None and not callable(ops):
            raise TypeError(f"For '{type(self).__name__}', 'ops' must be callable or None, got {type(ops).__name__}")
        self.ops = ops
        del reverse

    def __call__(self, *args: Any) -> Any:
        fn, seqs = (self.ops, args) if self.ops is not None else (args[0] if args else None, args[1:])
        if not callable(fn):
            raise TypeError(f"For '{type(self).__name__}', the function to map must be callable, "
                            f"got {type(fn).__name__}")
        return self._apply(fn, seqs)

    def _apply(self, fn: Callable[..., Any], seqs: tuple[Any, ...]) -> Any:
        if not seqs or not isinstance(seqs[0], (tuple, list)):
            return fn(*seqs)
        n = _zip_sequences(type(self).__name__, seqs)
        step = self._apply if self._recursive else (lambda f, items: f(*items))
        out = [step(fn, tuple(s[i] for s in seqs)) for i in range(n)]
        return out if isinstance(seqs[0], list) else tuple(out)


class Map(HyperMap):
    """Like :class:`HyperMap`, one level deep: elements that are tuples are passed whole."""

    _recursive = False


def tail(data: tuple[Any, ...] | list[Any]) -> tuple[Any, ...]:
    """MindSpore's ``tail``: every element of ``data`` but the first, as a tuple (``()`` for ``()``).

    Raises:
        TypeError: ``data`` is not a tuple or list.
    """
    if not isinstance(data, (tuple, list)):
        raise TypeError(f"For 'tail', 'data' must be a tuple or list, but got {type(data).__name__}")
    return tuple(data[1:])


def zip_operation(*sequences: Any) -> tuple[tuple[Any, ...], ...]:
    """MindSpore's ``zip_operation``: the tuple of ``zip(*sequences)``'s tuples (sequences of one length).

    Raises:
        TypeError: no sequences, or one is not a tuple or list.
        ValueError: their lengths differ.
    """
    if not sequences:
        raise TypeError("For 'zip_operation', at least one sequence is needed, but got none")
    for i, seq in enumerate(sequences):
        if not isinstance(seq, (tuple, list)):
            raise TypeError(f"For 'zip_operation', argument {i} must be a tuple or list, but got {type(seq).__name__}")
    if len({len(seq) for seq in sequences}) > 1:
        raise ValueError(f"For 'zip_operation', the sequences must have one length, but got "
                         f"{[len(seq) for seq in sequences]}")
    return tuple(zip(*sequences))


def hyper_add(x: Any, y: Any) -> Any:
    """MindSpore's ``hyper_add``: ``x + y`` element by element through matching tuples/lists (given back as
    tuples), e.g. to add two tuples of gradients.

    Raises:
        TypeError: one side is a sequence and the other is not.
        ValueError: two sequences differ in length.
    """
    seq_x, seq_y = isinstance(x, (tuple, list)), isinstance(y, (tuple, list))
    if seq_x != seq_y:
        raise TypeError(f"For 'hyper_add', both sides must be sequences or neither, but got {type(x).__name__} and "
                        f"{type(y).__name__}")
    if seq_x:
        if len(x) != len(y):
            raise ValueError(f"For 'hyper_add', the sequences must have one length, but got {len(x)} and {len(y)}")
        return tuple(hyper_add(a, b) for a, b in zip(x, y))
    return x + y
