"""MindSpore's scalar, bool, string and sequence functions of ``ops.functional`` (``F.scalar_add``, ``F.tuple_len``
...).

In MindSpore they are graph Primitives (many run only inside a compiled graph); here they are
Python functions with the numbers and checks of MindSpore's graph mode, so they work eagerly
and while ``ms.jit`` traces alike. The scalar arithmetic also takes traced 0-d values (a
``mutable`` scalar): its zero-divisor checks then apply only where the value is known.

Example:
    >>> from mindjax import ops
    >>> ops.scalar_add(2, 3.5), ops.tuple_div((6, 8), (2, 4)), ops.make_range(1, 10, 3)
    (5.5, (3, 2), (1, 4, 7))
"""
from __future__ import annotations

import math
import numbers
from typing import Any, Sequence

import jax
import jax.numpy as jnp
import numpy as np

from mindjax.common import dtype as mstype
from mindjax.common.tensor import Tensor, as_array

__all__ = [
    "scalar_add", "scalar_sub", "scalar_mul", "scalar_div", "scalar_floordiv", "scalar_mod", "scalar_pow",
    "scalar_eq", "scalar_ne", "scalar_lt", "scalar_le", "scalar_gt", "scalar_ge", "scalar_max", "scalar_min",
    "scalar_log", "scalar_uadd", "scalar_usub", "bool_and", "bool_or", "bool_not", "bool_eq", "tuple_len",
    "list_len", "tuple_equal", "list_equal", "tuple_reversed", "tuple_div", "string_concat", "string_eq",
    "make_range", "shape_mul", "reduced_shape", "typeof", "hastype", "isconstant", "is_", "is_not", "in_dict",
    "not_in_dict", "make_slice", "array_to_scalar", "mixed_precision_cast", "dict_setitem", "make_dict",
    "broadcast_gradient_args",
]


# -- scalars ------------------------------------------------------------------------------------------------

def _scalar(op: str, name: str, value: Any) -> Any:
    """A number (bool, int, float, a numpy scalar) or a 0-d array/Tensor of one (traced or not)."""
    given = value
    if isinstance(value, Tensor):
        value = as_array(value)
    if isinstance(value, (jax.Array, np.ndarray)):
        if value.ndim == 0 and (jnp.issubdtype(value.dtype, jnp.number) or value.dtype == jnp.bool_):
            return value
        raise TypeError(f"For '{op}', '{name}' must be a scalar number (bool, int or float), but got a "
                        f"{type(given).__name__} of shape {tuple(value.shape)}")
    if isinstance(value, numbers.Number) and not isinstance(value, complex):
        return value
    raise TypeError(f"For '{op}', '{name}' must be a scalar number (bool, int or float), but got "
                    f"{type(value).__name__}")


def _pair(op: str, x: Any, y: Any) -> tuple[Any, Any]:
    return _scalar(op, "x", x), _scalar(op, "y", y)


def _is_zero(value: Any) -> bool:
    """Whether a known value is zero (a traced one is not known)."""
    return not isinstance(value, jax.core.Tracer) and bool(value == 0)


def scalar_add(x: Any, y: Any) -> Any:
    """``x + y`` (``True + 2`` is 3, as in Python)."""
    x, y = _pair("scalar_add", x, y)
    return x + y


def scalar_sub(x: Any, y: Any) -> Any:
    """``x - y``."""
    x, y = _pair("scalar_sub", x, y)
    return x - y


def scalar_mul(x: Any, y: Any) -> Any:
    """``x * y``."""
    x, y = _pair("scalar_mul", x, y)
    return x * y


def scalar_div(x: Any, y: Any) -> Any:
    """``x / y``, a float (``scalar_div(6, 2)`` is 3.0).

    Raises:
        ValueError: ``y`` is zero.
    """
    x, y = _pair("scalar_div", x, y)
    if _is_zero(y):
        raise ValueError("For 'scalar_div', the divisor could not be zero. But the divisor is zero now.")
    return x / y


def scalar_floordiv(x: Any, y: Any) -> Any:
    """``x // y`` (rounded towards minus infinity: ``-7 // 2`` is -4).

    Raises:
        ValueError: ``y`` is zero.
    """
    x, y = _pair("scalar_floordiv", x, y)
    if _is_zero(y):
        raise ValueError("For 'scalar_floordiv', the divisor could not be zero. But the divisor is zero now.")
    return x // y


def scalar_mod(x: Any, y: Any) -> Any:
    """``x % y``, with the sign of ``y`` (``-7 % 3`` is 2).

    Raises:
        ValueError: ``y`` is zero.
    """
    x, y = _pair("scalar_mod", x, y)
    if _is_zero(y):
        raise ValueError("For 'scalar_mod', cannot perform modulo operation on zero.")
    return x % y


def scalar_pow(x: Any, y: Any) -> Any:
    """``x ** y`` (``2 ** -1`` is 0.5)."""
    x, y = _pair("scalar_pow", x, y)
    return x ** y


def scalar_eq(x: Any, y: Any) -> Any:
    """``x == y`` (``2 == 2.0``)."""
    x, y = _pair("scalar_eq", x, y)
    return x == y


def scalar_ne(x: Any, y: Any) -> Any:
    """``x != y``."""
    x, y = _pair("scalar_ne", x, y)
    return x != y


def scalar_lt(x: Any, y: Any) -> Any:
    """``x < y``."""
    x, y = _pair("scalar_lt", x, y)
    return x < y


def scalar_le(x: Any, y: Any) -> Any:
    """``x <= y``."""
    x, y = _pair("scalar_le", x, y)
    return x <= y


def scalar_gt(x: Any, y: Any) -> Any:
    """``x > y``."""
    x, y = _pair("scalar_gt", x, y)
    return x > y


def scalar_ge(x: Any, y: Any) -> Any:
    """``x >= y``."""
    x, y = _pair("scalar_ge", x, y)
    return x >= y


def _promoted(x: Any, y: Any, out: Any) -> Any:
    """MindSpore's scalar max/min: a float when either input is one (``max(3, 2.0)`` is 3.0)."""
    if isinstance(out, (jax.Array, np.ndarray)):
        return out
    return float(out) if isinstance(x, float) or isinstance(y, float) else out


def scalar_max(x: Any, y: Any) -> Any:
    """The larger of ``x`` and ``y``."""
    x, y = _pair("scalar_max", x, y)
    if isinstance(x, jax.Array) or isinstance(y, jax.Array):
        return jnp.maximum(x, y)
    return _promoted(x, y, x if x >= y else y)


def scalar_min(x: Any, y: Any) -> Any:
    """The smaller of ``x`` and ``y``."""
    x, y = _pair("scalar_min", x, y)
    if isinstance(x, jax.Array) or isinstance(y, jax.Array):
        return jnp.minimum(x, y)
    return _promoted(x, y, x if x <= y else y)


def scalar_log(x: Any) -> Any:
    """The natural logarithm of ``x``, a float (``scalar_log(0)`` is ``-inf``)."""
    x = _scalar("scalar_log", "x", x)
    if isinstance(x, jax.Array):
        return jnp.log(x.astype(jnp.result_type(float)))
    return -math.inf if x == 0 else math.log(x)


def scalar_uadd(x: Any) -> Any:
    """``+x``."""
    return +_scalar("scalar_uadd", "x", x)


def scalar_usub(x: Any) -> Any:
    """``-x``."""
    return -_scalar("scalar_usub", "x", x)


# -- bools and strings --------------------------------------------------------------------------------------

def _bool(op: str, name: str, value: Any) -> bool:
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"For '{op}', '{name}' must be a bool, but got {type(value).__name__}")
    return bool(value)


def bool_and(x: bool, y: bool) -> bool:
    """``x and y`` of two bools."""
    return _bool("bool_and", "x", x) and _bool("bool_and", "y", y)


def bool_or(x: bool, y: bool) -> bool:
    """``x or y`` of two bools."""
    return _bool("bool_or", "x", x) or _bool("bool_or", "y", y)


def bool_not(x: bool) -> bool:
    """``not x`` of a bool."""
    return not _bool("bool_not", "x", x)


def bool_eq(x: bool, y: bool) -> bool:
    """``x == y`` of two bools."""
    return _bool("bool_eq", "x", x) == _bool("bool_eq", "y", y)


def _string(op: str, name: str, value: Any) -> str:
    if not isinstance(value, str):
        raise TypeError(f"For '{op}', '{name}' must be a str, but got {type(value).__name__}")
    return value


def string_concat(x: str, y: str) -> str:
    """``x + y`` of two strings."""
    return _string("string_concat", "x", x) + _string("string_concat", "y", y)


def string_eq(x: str, y: str) -> bool:
    """``x == y`` of two strings."""
    return _string("string_eq", "x", x) == _string("string_eq", "y", y)


# -- sequences ----------------------------------------------------------------------------------------------

def _sequence(op: str, name: str, value: Any, kinds: tuple[type, ...] = (tuple, list)) -> Any:
    if not isinstance(value, kinds):
        expected = " or ".join(k.__name__ for k in kinds)
        raise TypeError(f"For '{op}', '{name}' must be a {expected}, but got {type(value).__name__}")
    return value


def tuple_len(data: Sequence[Any]) -> int:
    """The number of elements of a tuple (or list)."""
    return len(_sequence("tuple_len", "data", data))


def list_len(data: Sequence[Any]) -> int:
    """The number of elements of a list (or tuple)."""
    return len(_sequence("list_len", "data", data))


def tuple_equal(x: tuple[Any, ...], y: tuple[Any, ...]) -> bool:
    """Whether two tuples are equal."""
    return tuple(_sequence("tuple_equal", "x", x)) == tuple(_sequence("tuple_equal", "y", y))


def list_equal(x: list[Any], y: list[Any]) -> bool:
    """Whether two lists are equal."""
    return list(_sequence("list_equal", "x", x)) == list(_sequence("list_equal", "y", y))


def tuple_reversed(data: tuple[Any, ...]) -> tuple[Any, ...]:
    """The tuple's elements in reverse order."""
    return tuple(reversed(_sequence("tuple_reversed", "data", data)))


def _ints(op: str, name: str, value: Any) -> tuple[int, ...]:
    _sequence(op, name, value)
    for item in value:
        if not isinstance(item, (int, np.integer)) or isinstance(item, bool):
            raise TypeError(f"For '{op}', '{name}' must hold ints, but got {value!r}")
    return tuple(int(item) for item in value)


def tuple_div(x: tuple[int, ...], y: tuple[int, ...]) -> tuple[int, ...]:
    """Element-wise ``x[i] // y[i]`` of two int tuples of one length, each division exact.

    Raises:
        ValueError: the lengths differ, or a divisor is zero.
        RuntimeError: a division leaves a remainder (MindSpore's error).
    """
    x, y = _ints("tuple_div", "x", x), _ints("tuple_div", "y", y)
    if len(x) != len(y):
        raise ValueError(f"For 'tuple_div', the two tuples must have one length, but got {len(x)} and {len(y)}")
    for a, b in zip(x, y):
        if b == 0:
            raise ValueError(f"For 'tuple_div', the divisor could not be zero, but got {y}")
        if a % b:
            raise RuntimeError(f"The inputs of 'tuple_div' operator should be divisible, but they are not divisible "
                               f"now, the dividend is {a}, the divisor is {b}.")
    return tuple(a // b for a, b in zip(x, y))


def make_range(start: int, stop: int | None = None, step: int = 1) -> tuple[int, ...]:
    """``tuple(range(start, stop, step))``; ``make_range(n)`` is ``(0, ..., n - 1)``.

    Raises:
        TypeError: an argument is not an int.
        ValueError: ``step`` is 0.
    """
    args = (0, start) if stop is None else (start, stop)
    for name, value in zip(("start", "stop", "step"), args + (step,)):
        if not isinstance(value, (int, np.integer)) or isinstance(value, bool):
            raise TypeError(f"For 'make_range', '{name}' must be an int, but got {type(value).__name__}")
    if step == 0:
        raise ValueError("For 'make_range', the argument 'step' could not be 0.")
    return tuple(range(int(args[0]), int(args[1]), int(step)))


def shape_mul(shape: tuple[int, ...]) -> int:
    """The product of a shape's dimensions (1 for ``()``)."""
    return math.prod(_ints("shape_mul", "shape", shape))


def reduced_shape(shape: tuple[int, ...], axis: int | tuple[int, ...]) -> tuple[int, ...]:
    """``shape`` with the dimensions ``axis`` set to 1 (all of them when ``axis`` is ``()``): the shape a
    reduction keeps its dimensions in.

    Raises:
        ValueError: an axis is outside ``[-len(shape), len(shape))``.
    """
    shape = _ints("reduced_shape", "shape", shape)
    axes = (axis,) if isinstance(axis, (int, np.integer)) and not isinstance(axis, bool) else \
        _ints("reduced_shape", "axis", axis)
    if not axes:
        return (1,) * len(shape)
    rank = len(shape)
    for a in axes:
        if not -rank <= a < rank:
            raise ValueError(f"For 'reduced_shape', 'axis' {a} is out of range for a shape of rank {rank} "
                             f"(expected in [{-rank}, {rank}))")
    kept = {a % rank for a in axes}
    return tuple(1 if i in kept else d for i, d in enumerate(shape))


def broadcast_gradient_args(x_shape: tuple[int, ...], y_shape: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """The axes the gradients of two broadcast operands are summed over: ``(x_axes, y_axes)``, axes of the
    broadcast result (``((1,), (0,))`` for shapes ``(2, 1, 3)`` and ``(4, 3)``).

    Raises:
        ValueError: the shapes do not broadcast.
    """
    x_shape, y_shape = _ints("broadcast_gradient_args", "x_shape", x_shape), \
        _ints("broadcast_gradient_args", "y_shape", y_shape)
    rank = max(len(x_shape), len(y_shape))
    x_full, y_full = (1,) * (rank - len(x_shape)) + x_shape, (1,) * (rank - len(y_shape)) + y_shape
    x_axes, y_axes = [], []
    for i, (a, b) in enumerate(zip(x_full, y_full)):
        if a != b and 1 not in (a, b):
            raise ValueError(f"For 'broadcast_gradient_args', shapes {x_shape} and {y_shape} do not broadcast "
                             f"(dimension {i}: {a} and {b})")
        if a == 1 and b != 1:
            x_axes.append(i)
        elif b == 1 and a != 1:
            y_axes.append(i)
    return tuple(x_axes), tuple(y_axes)


def make_slice(start: Any, stop: Any, step: Any) -> slice:
    """``slice(start, stop, step)`` (each an int or None)."""
    for name, value in (("start", start), ("stop", stop), ("step", step)):
        if value is not None and (not isinstance(value, (int, np.integer)) or isinstance(value, bool)):
            raise TypeError(f"For 'make_slice', '{name}' must be an int or None, but got {type(value).__name__}")
    return slice(start, stop, step)


def dict_setitem(data: dict[Any, Any], key: Any, value: Any) -> dict[Any, Any]:
    """A new dict: ``data`` with ``key`` set to ``value``."""
    _sequence("dict_setitem", "data", data, (dict,))
    return {**data, key: value}


def make_dict(keys: Sequence[Any], values: Sequence[Any]) -> dict[Any, Any]:
    """The dict of ``keys`` to ``values`` (two sequences of one length)."""
    _sequence("make_dict", "keys", keys)
    _sequence("make_dict", "values", values)
    if len(keys) != len(values):
        raise ValueError(f"For 'make_dict', 'keys' and 'values' must have one length, but got {len(keys)} and "
                         f"{len(values)}")
    return dict(zip(keys, values))


def in_dict(key: Any, data: dict[Any, Any]) -> bool:
    """Whether ``key`` is a key of ``data``."""
    return key in _sequence("in_dict", "data", data, (dict,))


def not_in_dict(key: Any, data: dict[Any, Any]) -> bool:
    """Whether ``key`` is not a key of ``data``."""
    return key not in _sequence("not_in_dict", "data", data, (dict,))


def is_(x: Any, y: Any) -> bool:
    """``x is y``."""
    return x is y


def is_not(x: Any, y: Any) -> bool:
    """``x is not y``."""
    return x is not y


# -- types and constants ------------------------------------------------------------------------------------

def typeof(x: Any) -> mstype.Type:
    """The MindSpore type of ``x``, as graph mode sees it: ``TensorType(dtype)`` for a Tensor, ``int64`` for an
    int, ``float32`` for a float, ``bool_``, ``string``, ``tuple_``, ``list_``, ``type_none`` ...

    Raises:
        TypeError: a Python object MindSpore has no type for.
    """
    if isinstance(x, (Tensor, jax.Array)) and not isinstance(x, np.generic):
        return mstype.TensorType(mstype.to_ms_dtype(as_array(x).dtype))
    if isinstance(x, float):
        return mstype.float32  # graph mode's Python float
    try:
        return mstype.get_py_obj_dtype(x)
    except NotImplementedError as exc:
        raise TypeError(f"For 'typeof', MindSpore has no type for a {type(x).__name__}") from exc


def hastype(x: Any, type_: mstype.Type) -> bool:
    """Whether ``typeof(x)`` is ``type_`` or one of the types it stands for (``ms.number``: any number;
    ``ms.tensor_type``: any Tensor; ``ms.Int()``: any int).

    Raises:
        TypeError: ``type_`` is not a MindSpore type.
    """
    if not isinstance(type_, mstype.Type):
        raise TypeError(f"For 'hastype', 'type_' must be a MindSpore type, but got {type(type_).__name__}")
    got = typeof(x)
    if got == type_:
        return True
    if type_ == mstype.tensor_type:
        return isinstance(got, mstype.TensorType)
    if type(got) is not mstype.Type:  # an object type (tuple_, string, Tensor[...]) matches only itself
        return False
    if type_ == mstype.number:
        return True
    return isinstance(got, mstype.Int) and type_ == mstype.Int()


def isconstant(x: Any) -> bool:
    """Whether ``x`` is known when a graph is built (not a traced value)."""
    leaves = jax.tree_util.tree_leaves(x, is_leaf=lambda v: isinstance(v, Tensor))
    return not any(isinstance(as_array(v) if isinstance(v, Tensor) else v, jax.core.Tracer) for v in leaves)


def array_to_scalar(x: Any) -> Any:
    """The Python number a one-element Tensor holds (its 0-d array while traced).

    Raises:
        TypeError: ``x`` is not a Tensor.
        ValueError: it holds more than one element.
    """
    if not isinstance(x, (Tensor, jax.Array, np.ndarray)):
        raise TypeError(f"For 'array_to_scalar', 'x' must be a Tensor, but got {type(x).__name__}")
    value = as_array(x)
    if value.size != 1:
        raise ValueError(f"For 'array_to_scalar', 'x' must hold one element, but got shape {tuple(value.shape)}")
    value = value.reshape(())
    return value if isinstance(value, jax.core.Tracer) else value.item()


def mixed_precision_cast(dst_dtype: Any, x: Any) -> Any:
    """``x``'s float Tensors cast to ``dst_dtype``; anything else (other Tensors, numbers, dicts) unchanged.
    A tuple or list gives a tuple of its items, each cast so.

    Raises:
        TypeError: ``dst_dtype`` is not a float dtype.
    """
    dst = mstype.to_ms_dtype(dst_dtype)
    if dst not in mstype.float_type:
        raise TypeError(f"For 'mixed_precision_cast', 'dst_dtype' must be a float dtype, but got {dst_dtype}")
    if isinstance(x, (tuple, list)):
        return tuple(mixed_precision_cast(dst, item) for item in x)
    if isinstance(x, Tensor) and jnp.issubdtype(as_array(x).dtype, jnp.floating):
        return x.astype(dst)
    return x
