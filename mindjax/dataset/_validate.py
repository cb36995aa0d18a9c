"""Argument checks worded as MindSpore's dataset validators word them.

``check_value(0, 1, 16777216, "size")`` raises
``ValueError("Input size is not within the required interval of [1, 16777216].")``;
``check_type("a", (int,), "size")`` raises
``TypeError("Argument size with value a is not of type [<class 'int'>], but got <class 'str'>.")``.
"""
from __future__ import annotations

import numbers
from typing import Any, Sequence

FLOAT_MAX_INTEGER = 16777216
INT32_MAX = 2147483647
UINT8_MAX = 255

__all__ = ["FLOAT_MAX_INTEGER", "INT32_MAX", "UINT8_MAX", "check_type", "check_value", "check_positive",
           "check_odd", "check_prob", "check_range_pair", "check_fill_value", "check_size", "is_int",
           "is_number"]


def is_int(value: Any) -> bool:
    """An int that is not a bool."""
    return isinstance(value, numbers.Integral) and not isinstance(value, bool)


def is_number(value: Any) -> bool:
    """An int or float that is not a bool."""
    return isinstance(value, numbers.Real) and not isinstance(value, bool)


def check_type(value: Any, types: tuple[type, ...], name: str) -> None:
    """``value`` is an instance of ``types`` (a bool is never an int here)."""
    ok = isinstance(value, types) and not (isinstance(value, bool) and bool not in types)
    if not ok:
        raise TypeError(f"Argument {name} with value {value} is not of type {list(types)}, "
                        f"but got {type(value)}.")


def check_value(value: Any, low: float, high: float, name: str, left_open: bool = False,
                right_open: bool = False) -> None:
    """``low <= value <= high`` (either end open on request)."""
    below = value <= low if left_open else value < low
    above = value >= high if right_open else value > high
    if below or above:
        raise ValueError(f"Input {name} is not within the required interval of {'(' if left_open else '['}{low}, "
                         f"{high}{')' if right_open else ']'}.")


def check_positive(value: Any, name: str) -> None:
    """``value > 0``."""
    if value <= 0:
        raise ValueError(f"Input {name} must be greater than 0.")


def check_odd(value: int, name: str) -> None:
    """``value`` is odd."""
    if value % 2 != 1:
        raise ValueError(f"Input {name} is not an odd value.")


def check_prob(prob: Any, name: str = "prob") -> float:
    """A probability in [0, 1]."""
    check_type(prob, (int, float), name)
    check_value(prob, 0.0, 1.0, name)
    return float(prob)


def check_range_pair(value: Any, name: str, low: float, high: float, types: tuple[type, ...] = (int, float),
                     ordered: bool = True) -> tuple[Any, Any]:
    """A (min, max) sequence of two numbers, each in [low, high], min <= max."""
    check_type(value, (list, tuple), name)
    if len(value) != 2:
        raise TypeError(f"{name} should be a list/tuple of length 2.")
    for i, v in enumerate(value):
        check_type(v, types, f"{name}[{i}]")
        check_value(v, low, high, f"{name}[{i}]")
    if ordered and value[0] > value[1]:
        raise ValueError(f"{name} should be in (min,max) format. Got (max,min).")
    return value[0], value[1]


def check_fill_value(fill_value: Any, name: str = "fill_value") -> int | tuple[int, int, int]:
    """An int in [0, 255] or an (R, G, B) triple of them."""
    if is_int(fill_value):
        check_value(fill_value, 0, UINT8_MAX, name)
        return int(fill_value)
    if isinstance(fill_value, (tuple, list)) and len(fill_value) == 3:
        for i, v in enumerate(fill_value):
            check_type(v, (int,), f"{name}[{i}]")
            check_value(v, 0, UINT8_MAX, f"{name}[{i}]")
        return int(fill_value[0]), int(fill_value[1]), int(fill_value[2])
    raise TypeError(f"{name} should be a single integer/float or a 3-tuple.")


def check_size(size: Any, name: str = "size", high: int = FLOAT_MAX_INTEGER) -> tuple[int, int]:
    """An int (a square) or an (h, w) pair, each in [1, high]; returns (h, w)."""
    check_type(size, (int, list, tuple), name)
    if is_int(size):
        check_value(size, 1, high, name)
        return int(size), int(size)
    if len(size) != 2:
        raise TypeError("Size should be a single integer or a list/tuple (h, w) of length 2.")
    for i, v in enumerate(size):
        check_type(v, (int,), f"{name}[{i}]")
        check_value(v, 1, high, f"{name}[{i}]")
    return int(size[0]), int(size[1])


def check_sequence_of(values: Any, types: tuple[type, ...], name: str) -> Sequence[Any]:
    """A list/tuple whose items are all of ``types``."""
    check_type(values, (list, tuple), name)
    for i, v in enumerate(values):
        check_type(v, types, f"{name}[{i}]")
    return values
