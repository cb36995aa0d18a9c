"""Argument checks shared by the optimizers (MindSpore's error types and wording)."""
from __future__ import annotations

from typing import Any


def as_float(value: Any, name: str, where: str) -> float:
    """``value`` as a float (ints are converted); TypeError otherwise."""
    if isinstance(value, int) and not isinstance(value, bool):
        return float(value)
    if not isinstance(value, float):
        raise TypeError(f"{where}, '{name}' must be a float, got {type(value).__name__} {value!r}")
    return value


def check_float(value: Any, name: str, where: str, *, allow_zero: bool = True, ints: bool = False) -> float:
    """A float >= 0 (or > 0 when ``allow_zero`` is false); ints only when ``ints``."""
    if ints:
        value = as_float(value, name, where)
    elif not isinstance(value, float):
        raise TypeError(f"{where}, '{name}' must be a float, got {type(value).__name__} {value!r}")
    if value < 0.0 or (value == 0.0 and not allow_zero):
        raise ValueError(f"{where}, '{name}' must be {'>= 0' if allow_zero else '> 0'}, got {value}")
    return value


def check_open_unit(value: Any, name: str, where: str) -> float:
    """A float strictly between 0 and 1 (Adam's betas)."""
    if not isinstance(value, float):
        raise TypeError(f"{where}, '{name}' must be a float, got {type(value).__name__} {value!r}")
    if not 0.0 < value < 1.0:
        raise ValueError(f"{where}, '{name}' must be in range (0.0, 1.0), got {value}")
    return value


def check_bool(value: Any, name: str, where: str) -> bool:
    """A bool; TypeError otherwise."""
    if not isinstance(value, bool):
        raise TypeError(f"{where}, '{name}' must be a bool, got {type(value).__name__} {value!r}")
    return value


# MindSpore's validator wording (``mindspore._checkparam``), for the optimizers that mirror it word for word.
def _type_names(types: tuple[type, ...]) -> str:
    names = [t.__name__ for t in types]
    return f"'{names[0]}'" if len(names) == 1 else f"one of '{names}'"


def check_value_type(value: Any, name: str, types: type | tuple[type, ...], where: str) -> Any:
    """``value`` when it is one of ``types`` (a bool is not an int or float); TypeError otherwise.

    The message is MindSpore's: "For 'X', the type of 'name' should be 'float', but got type 'int'."
    """
    types = types if isinstance(types, tuple) else (types,)
    if isinstance(value, bool) and bool not in types or not isinstance(value, types):
        raise TypeError(f"{where}, the type of '{name}' should be {_type_names(types)}, "
                        f"but got type '{type(value).__name__}'.")
    return value


def check_float_range(value: float, low: float, high: float, name: str, where: str, *,
                      include_low: bool = False) -> float:
    """``low < value < high`` (``low <= value`` with ``include_low``); ValueError in MindSpore's wording."""
    if not ((low <= value if include_low else low < value) and value < high):
        left = "[" if include_low else "("
        raise ValueError(f"{where}, the '{name}' must be in range of {left}{low}, {high}), "
                         f"but got {value} with type '{type(value).__name__}'.")
    return value


def check_positive_float(value: float, name: str, where: str, *, allow_zero: bool = False) -> float:
    """A float > 0 (>= 0 with ``allow_zero``); ValueError in MindSpore's wording."""
    if value < 0 or (value == 0 and not allow_zero):
        raise ValueError(f"{where}, the '{name}' must be float and must {'>=' if allow_zero else '>'} 0, "
                         f"but got '{value}' with type '{type(value).__name__}'.")
    return value
