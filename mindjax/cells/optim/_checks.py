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
