"""MindSpore's ``mindspore._checkparam``: the argument checks that user code (custom Cells and Primitives) calls.

``from mindspore import _checkparam as Validator`` then ``Validator.check_positive_int(n, "n", "MyCell")``:
each check returns the value when it passes, and otherwise raises MindSpore's exception with its message
(``For 'MyCell', the 'n' must be int and must > 0, but got '-1' with type 'int'.``). The relations are
MindSpore's constants: ``EQ NE LT LE GT GE`` for comparisons, ``INC_NEITHER INC_LEFT INC_RIGHT INC_BOTH``
for ranges.

Example:
    >>> from mindjax import _checkparam as Validator
    >>> Validator.check_int_range(2, 0, 3, Validator.INC_LEFT, "k", "Op")
    2
"""
from __future__ import annotations

import functools
import inspect
import math
from typing import Any, Callable, Sequence

__all__ = ["EQ", "NE", "LT", "LE", "GT", "GE", "INC_NEITHER", "INC_LEFT", "INC_RIGHT", "INC_BOTH", "check",
           "check_int", "check_is_int", "check_is_float", "check_equal_int", "check_positive_int",
           "check_non_negative_int", "check_negative_int", "check_non_positive_int", "check_float",
           "check_positive_float", "check_negative_float", "check_non_positive_float", "args_type_check", "check_non_negative_float", "check_float_range",
           "check_int_range", "check_number_range", "check_value_type", "check_bool", "check_string",
           "check_type_name", "check_isinstance", "twice", "check_input_format"]

EQ, NE, LT, LE, GT, GE = 1, 2, 3, 4, 5, 6
INC_NEITHER, INC_LEFT, INC_RIGHT, INC_BOTH = 7, 8, 9, 10

_SIGN = {EQ: "=", NE: "!=", LT: "<", LE: "<=", GT: ">", GE: ">="}
_TEST = {EQ: lambda a, b: a == b, NE: lambda a, b: a != b, LT: lambda a, b: a < b, LE: lambda a, b: a <= b,
         GT: lambda a, b: a > b, GE: lambda a, b: a >= b}
_RANGE = {INC_NEITHER: ("(", ")", lambda v, lo, hi: lo < v < hi), INC_LEFT: ("[", ")", lambda v, lo, hi: lo <= v < hi),
          INC_RIGHT: ("(", "]", lambda v, lo, hi: lo < v <= hi), INC_BOTH: ("[", "]", lambda v, lo, hi: lo <= v <= hi)}


def _prefix(prim_name: Any, arg_name: Any, capital: str = "The") -> str:
    """``For 'Op', the 'x'`` / ``The 'x'`` / ``The input value`` as MindSpore begins its messages."""
    arg = f"'{arg_name}'" if arg_name else "input value"
    if prim_name:
        return f"For '{prim_name}', the {arg}"
    return f"{capital} {arg}"


def _relation(rel: int) -> str:
    if rel not in _SIGN:
        raise ValueError(f"'rel' must be one of EQ, NE, LT, LE, GT, GE ({sorted(_SIGN)}), but got {rel}.")
    return _SIGN[rel]


def check(arg_name: str, arg_value: Any, value_name: str, value: Any, rel: int = EQ, prim_name: str | None = None,
          excp_cls: type = ValueError) -> Any:
    """``arg_value rel value``, else ``excp_cls`` naming both.

    Returns:
        ``arg_value``.
    """
    sign = _relation(rel)
    if not _TEST[rel](arg_value, value):
        raise excp_cls(f"{_prefix(prim_name, arg_name)} should be {sign} {value_name}: {value}, but got "
                       f"{arg_value}.")
    return arg_value


def _check_number(arg_value: Any, value: Any, rel: int, kind: type, arg_name: Any, prim_name: Any) -> Any:
    sign = _relation(rel)
    name = kind.__name__
    if not isinstance(arg_value, kind):
        raise TypeError(f"{_prefix(prim_name, arg_name)} must be {name}, but got '{type(arg_value).__name__}'")
    if math.isinf(arg_value) or math.isnan(arg_value):
        raise ValueError(f"{_prefix(prim_name, arg_name)} must be a legal value, but got '{arg_value}'.")
    if isinstance(arg_value, bool):
        error = TypeError
    elif _TEST[rel](arg_value, value):
        return arg_value
    else:
        error = ValueError
    raise error(f"{_prefix(prim_name, arg_name)} must be {name} and must {sign} {value}, but got '{arg_value}' "
                f"with type '{type(arg_value).__name__}'.")


def check_int(arg_value: Any, value: int, rel: int, arg_name: str | None = None, prim_name: str | None = None) -> int:
    """An int (not a bool) with ``arg_value rel value``.

    Returns:
        ``arg_value``.
    """
    return _check_number(arg_value, value, rel, int, arg_name, prim_name)


def check_equal_int(arg_value: Any, value: int, arg_name: str | None = None, prim_name: str | None = None) -> int:
    """An int equal to ``value``.

    Returns:
        ``arg_value``.
    """
    return _check_number(arg_value, value, EQ, int, arg_name, prim_name)


def check_positive_int(arg_value: Any, arg_name: str | None = None, prim_name: str | None = None) -> int:
    """An int above 0.

    Returns:
        ``arg_value``.
    """
    return _check_int_sign(arg_value, GT, arg_name, prim_name)


def check_non_negative_int(arg_value: Any, arg_name: str | None = None, prim_name: str | None = None) -> int:
    """An int at least 0.

    Returns:
        ``arg_value``.
    """
    return _check_int_sign(arg_value, GE, arg_name, prim_name)


def check_negative_int(arg_value: Any, arg_name: str | None = None, prim_name: str | None = None) -> int:
    """An int below 0.

    Returns:
        ``arg_value``.
    """
    return _check_int_sign(arg_value, LT, arg_name, prim_name)


def check_non_positive_int(arg_value: Any, arg_name: str | None = None, prim_name: str | None = None) -> int:
    """An int at most 0.

    Returns:
        ``arg_value``.
    """
    return _check_int_sign(arg_value, LE, arg_name, prim_name)


def _check_int_sign(arg_value: Any, rel: int, arg_name: Any, prim_name: Any) -> int:
    # As MindSpore: a non-int gets the short message, a bool (an int) the comparison one.
    return _check_number(arg_value, 0, rel, int, arg_name, prim_name)


def check_float(arg_value: Any, value: float, rel: int, arg_name: str | None = None,
                prim_name: str | None = None) -> float:
    """A float with ``arg_value rel value``.

    Returns:
        ``arg_value``.
    """
    return _check_number(arg_value, value, rel, float, arg_name, prim_name)


def _check_float_sign(arg_value: Any, rel: int, arg_name: Any, prim_name: Any) -> float:
    if isinstance(arg_value, bool) or not isinstance(arg_value, float):
        raise TypeError(f"{_prefix(prim_name, arg_name)} must be float, but got '{type(arg_value).__name__}'")
    return _check_number(arg_value, 0, rel, float, arg_name, prim_name)


def check_positive_float(arg_value: Any, arg_name: str | None = None, prim_name: str | None = None) -> float:
    """A float above 0.

    Returns:
        ``arg_value``.
    """
    return _check_float_sign(arg_value, GT, arg_name, prim_name)


def check_non_negative_float(arg_value: Any, arg_name: str | None = None, prim_name: str | None = None) -> float:
    """A float at least 0.

    Returns:
        ``arg_value``.
    """
    return _check_float_sign(arg_value, GE, arg_name, prim_name)


def check_negative_float(arg_value: Any, arg_name: str | None = None, prim_name: str | None = None) -> float:
    """A float below 0.

    Returns:
        ``arg_value``.
    """
    return _check_float_sign(arg_value, LT, arg_name, prim_name)


def check_non_positive_float(arg_value: Any, arg_name: str | None = None, prim_name: str | None = None) -> float:
    """A float at most 0.

    Returns:
        ``arg_value``.
    """
    return _check_float_sign(arg_value, LE, arg_name, prim_name)


def args_type_check(*type_args: Any, **type_kwargs: Any) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """A decorator that checks the types of a function's arguments on each call.

    The types are given by position or by name, as the function's own arguments are
    (``@args_type_check(mode=int, device_target=str)``); a type may be a tuple of types.
    An argument that is ``None`` or is not given passes; arguments the function takes
    as ``**kwargs`` are checked by their keyword.

    Raises:
        TypeError: when called, an argument of another type, naming it, the expected
        and the given type.

    Example:
        >>> @args_type_check(n=int)
        ... def f(n=None):
        ...     return n
        >>> f(3)
        3
    """

    def decorate(func: Callable[..., Any]) -> Callable[..., Any]:
        signature = inspect.signature(func)
        expected = dict(signature.bind_partial(*type_args, **type_kwargs).arguments)
        var_keyword = next((p.name for p in signature.parameters.values() if p.kind is p.VAR_KEYWORD), None)
        if var_keyword is not None and var_keyword in expected:
            expected.update(expected.pop(var_keyword))

        @functools.wraps(func)
        def checked(*args: Any, **kwargs: Any) -> Any:
            given = dict(signature.bind(*args, **kwargs).arguments)
            if var_keyword is not None:
                given.update(given.pop(var_keyword, {}))
            for name, value in given.items():
                types = expected.get(name)
                if types is not None and value is not None and not isinstance(value, types):
                    raise TypeError(f"The parameter '{name}' must be {types}, but got {type(value)}")
            return func(*args, **kwargs)

        return checked

    return decorate


def check_is_int(arg_value: Any, arg_name: str | None = None, prim_name: str | None = None) -> int:
    """An int (not a bool).

    Returns:
        ``arg_value``.
    """
    if isinstance(arg_value, bool) or not isinstance(arg_value, int):
        raise TypeError(f"{_prefix(prim_name, arg_name)} must be 'int', but got '{type(arg_value).__name__}'."
                        .replace("the '", "the type of '", 1).replace("The '", "The type of '", 1))
    return arg_value


def check_is_float(arg_value: Any, arg_name: str | None = None, prim_name: str | None = None) -> float:
    """A float.

    Returns:
        ``arg_value``.
    """
    if not isinstance(arg_value, float):
        raise TypeError(f"{_prefix(prim_name, arg_name)} must be 'float', but got '{type(arg_value).__name__}'."
                        .replace("the '", "the type of '", 1).replace("The '", "The type of '", 1))
    return arg_value


def check_number_range(arg_value: Any, lower_limit: Any, upper_limit: Any, rel: int, value_type: Any,
                       arg_name: str | None = None, prim_name: str | None = None) -> Any:
    """A number of ``value_type`` within the range ``rel`` gives (``INC_LEFT``: ``[lower, upper)`` ...).

    Returns:
        ``arg_value``.
    """
    if rel not in _RANGE:
        raise ValueError(f"'rel' must be one of INC_NEITHER, INC_LEFT, INC_RIGHT, INC_BOTH, but got {rel}.")
    kinds = value_type if isinstance(value_type, tuple) else (value_type,)
    if isinstance(arg_value, bool) or not isinstance(arg_value, kinds):
        names = "', '".join(k.__name__ for k in kinds)
        raise TypeError(f"{_prefix(prim_name, arg_name)} must be '{names}',  but got '{type(arg_value).__name__}'.")
    left, right, inside = _RANGE[rel]
    if not inside(arg_value, lower_limit, upper_limit):
        raise ValueError(f"{_prefix(prim_name, arg_name)} must be in range of {left}{lower_limit}, {upper_limit}"
                         f"{right}, but got {arg_value} with type '{type(arg_value).__name__}'.")
    return arg_value


def check_int_range(arg_value: Any, lower_limit: int, upper_limit: int, rel: int, arg_name: str | None = None,
                    prim_name: str | None = None) -> int:
    """An int within the range ``rel`` gives.

    Returns:
        ``arg_value``.
    """
    return check_number_range(arg_value, lower_limit, upper_limit, rel, int, arg_name, prim_name)


def check_float_range(arg_value: Any, lower_limit: float, upper_limit: float, rel: int,
                      arg_name: str | None = None, prim_name: str | None = None) -> float:
    """A float within the range ``rel`` gives.

    Returns:
        ``arg_value``.
    """
    return check_number_range(arg_value, lower_limit, upper_limit, rel, float, arg_name, prim_name)


def _type_names(valid_types: Sequence[Any]) -> list[str]:
    return [getattr(t, "__name__", str(t)) for t in valid_types]


def check_value_type(arg_name: str, arg_value: Any, valid_types: Any, prim_name: str | None = None) -> Any:
    """An instance of one of ``valid_types`` (a bool is not an int unless ``bool`` is listed).

    Returns:
        ``arg_value``.
    """
    types = tuple(valid_types) if isinstance(valid_types, (list, tuple)) else (valid_types,)
    ok = isinstance(arg_value, types) and not (isinstance(arg_value, bool) and bool not in types)
    if ok:
        return arg_value
    names = _type_names(types)
    wanted = f"'{names[0]}'" if len(names) == 1 else f"one of '{names}'"
    start = f"For '{prim_name}', the type of '{arg_name}'" if prim_name else f"The type of '{arg_name}'"
    raise TypeError(f"{start} should be {wanted}, but got type '{type(arg_value).__name__}'.")


def check_bool(arg_value: Any, arg_name: str | None = None, prim_name: str | None = None) -> bool:
    """A bool.

    Returns:
        ``arg_value``.
    """
    if not isinstance(arg_value, bool):
        raise TypeError(f"{_prefix(prim_name, arg_name)} must be a bool, but got {type(arg_value).__name__}.")
    return arg_value


def check_string(arg_value: Any, valid_values: Sequence[str], arg_name: str | None = None,
                 prim_name: str | None = None) -> str:
    """A str among ``valid_values``.

    Returns:
        ``arg_value``.
    """
    if isinstance(arg_value, str) and arg_value in valid_values:
        return arg_value
    raise ValueError(f"{_prefix(prim_name, arg_name)} must be str and must be in '{list(valid_values)}', but got "
                     f"'{arg_value}'.")


def check_type_name(arg_name: str, arg_type: Any, valid_types: Sequence[Any], prim_name: str | None) -> Any:
    """``arg_type`` (a type or dtype) is one of ``valid_types``.

    Returns:
        ``arg_type``.
    """
    valid = tuple(valid_types) if isinstance(valid_types, (list, tuple)) else (valid_types,)
    if any(arg_type is t or arg_type == t for t in valid):
        return arg_type
    names = _type_names(valid)
    wanted = names[0] if len(names) == 1 else f"one of {names}"
    start = f"For '{prim_name}', the '{arg_name}'" if prim_name else f"The '{arg_name}'"
    raise TypeError(f"{start} should be {wanted}, but got '{getattr(arg_type, '__name__', arg_type)}'.")


def check_isinstance(arg_name: str, arg_value: Any, classes: Any) -> Any:
    """An instance of ``classes``.

    Returns:
        ``arg_value``.
    """
    if not isinstance(arg_value, classes):
        raise ValueError(f"The parameter '{arg_name}' must be isinstance of {classes}, but got {arg_value}.")
    return arg_value


def _expand_tuple(n_dimensions: int) -> Callable[[Any], tuple[int, ...]]:
    """A converter of an int to a tuple of ``n_dimensions`` copies (a tuple of that many ints passes as it is).

    Raises:
        TypeError: when converting, a value neither an int nor a tuple of ``n_dimensions`` ints.
    """

    def expand(m: Any) -> tuple[int, ...]:
        what = "When expanding an int number to tuple,"
        if not isinstance(m, tuple):
            if isinstance(m, int) and not isinstance(m, bool):
                return (m,) * n_dimensions
            raise TypeError(f"{what} input type must be integer or tuple[int], but got {type(m)}")
        if len(m) != n_dimensions:
            raise TypeError(f"{what} input tuple dimension must be {n_dimensions}, but got {m}")
        for item in m:
            if not isinstance(item, int) or isinstance(item, bool):
                raise TypeError(f"{what} the type of element in input tuple must be an integer, but got {type(item)}.")
        return m

    return expand


def twice(m: Any) -> tuple[int, int]:
    """``(m, m)`` for an int, ``m`` for a pair of ints (MindSpore's kernel-size helper).

    Raises:
        TypeError: anything else (a list, a float, a bool, a tuple of another length or with a non-int).
    """
    return _expand_tuple(2)(m)


def check_input_format(input_param: Any) -> str:
    """``input_param`` when it is ``'NCHW'``, the one data format MindSpore's checks accept here.

    Raises:
        ValueError: another format.
    """
    if input_param == "NCHW":
        return input_param
    raise ValueError(f"The data format must be NCHW, but got {input_param}.")
