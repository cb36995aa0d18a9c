"""Input checks the layers share: a Tensor (not a str, list or None), a float dtype, no empty spatial axis.

Each raises naming the Cell (its path, from ``Cell._where()``), the argument,
and what was expected against what came.
"""
from __future__ import annotations

from typing import Any, Sequence

import jax
import jax.numpy as jnp

from mindjax.common.tensor import as_array

__all__ = ["tensor_input", "float_input", "nonempty_axes", "broadcast_pair"]

_FLOATS = "float16, bfloat16, float32 or float64"


def tensor_input(where: str, arg: str, x: Any) -> jax.Array:
    """``x`` as an array, or a ``TypeError`` naming its type when it is not a Tensor or array.

    Arguments:
        where: the Cell's error prefix (``"For 'Conv2d' at 'conv1'"``).
        arg: the argument's name.
        x: the input.

    Returns:
        The array.
    """
    if x is None or isinstance(x, (str, bytes, list, tuple, dict, set)) or not (
            hasattr(x, "shape") and hasattr(x, "dtype")):
        shown = f" {x!r}" if isinstance(x, (str, bytes, int, float)) and len(repr(x)) <= 40 else ""
        kind = "None" if x is None else type(x).__name__
        raise TypeError(f"{where}, the input '{arg}' must be a Tensor, got {kind}{shown}")
    return as_array(x)


def float_input(where: str, arg: str, x: Any) -> jax.Array:
    """:func:`tensor_input`, and a ``TypeError`` naming the dtype unless it is a floating-point one."""
    x = tensor_input(where, arg, x)
    if not jnp.issubdtype(x.dtype, jnp.floating):
        raise TypeError(f"{where}, the input '{arg}' must be a floating-point Tensor ({_FLOATS}), "
                        f"got {x.dtype}")
    return x


def nonempty_axes(where: str, arg: str, x: Any, axes: Sequence[int], what: str = "spatial") -> None:
    """A ``ValueError`` when any of ``axes`` of ``x`` has size 0 (its output would be empty or NaN)."""
    shape = tuple(x.shape)
    empty = [a for a in axes if shape[a] == 0]
    if empty:
        raise ValueError(f"{where}, the input '{arg}' has an empty {what} dimension (axis {empty[0]}) in shape "
                         f"{shape}; every {what} dimension must be at least 1")


def broadcast_pair(where: str, names: tuple[str, str], a: Any, b: Any) -> tuple[jax.Array, jax.Array]:
    """Two Tensor inputs that must broadcast together; errors name the Cell, both arguments and shapes."""
    a, b = tensor_input(where, names[0], a), tensor_input(where, names[1], b)
    try:
        jnp.broadcast_shapes(a.shape, b.shape)
    except ValueError:
        raise ValueError(f"{where}, '{names[0]}' and '{names[1]}' must have the same shape or shapes that "
                         f"broadcast, got {tuple(a.shape)} and {tuple(b.shape)}") from None
    return a, b
