"""MindSpore's dtype names mapped onto JAX/numpy scalar types.

``ms.float32`` is ``jnp.float32``, so ``x.dtype == ms.float32`` holds for any
``jax.Array`` ``x`` of that type and the names can be passed anywhere JAX takes a
dtype.

Example:
    >>> import mindjax as ms
    >>> ms.Tensor([1, 2], ms.float16).dtype == ms.float16
    True
"""
from __future__ import annotations

from typing import Any

import jax.numpy as jnp
import numpy as np

float16 = jnp.float16
float32 = jnp.float32
float64 = jnp.float64
bfloat16 = jnp.bfloat16
int8 = jnp.int8
int16 = jnp.int16
int32 = jnp.int32
int64 = jnp.int64
uint8 = jnp.uint8
uint16 = jnp.uint16
uint32 = jnp.uint32
uint64 = jnp.uint64
bool_ = jnp.bool_
complex64 = jnp.complex64
complex128 = jnp.complex128

# MindSpore aliases.
half = float16
single = float32
double = float64
float_ = float32
int_ = int32
uint = uint32
short = int16
intc = int32
intp = int64
byte = int8
ubyte = uint8
long = int64
ushort = uint16
uintc = uint32
uintp = uint64
cfloat = complex64
cdouble = complex128

number_type = (int8, int16, int32, int64, uint8, uint16, uint32, uint64,
               float16, float32, float64, bfloat16, complex64, complex128)
int_type = (int8, int16, int32, int64)
uint_type = (uint8, uint16, uint32, uint64)
float_type = (float16, float32, float64, bfloat16)


def to_jax_dtype(dtype: Any) -> np.dtype:
    """Return the numpy dtype JAX uses for a MindSpore/JAX/numpy dtype spec.

    Arguments:
        dtype: ``ms.float32``, ``np.float32``, ``'float32'`` or a numpy dtype.

    Returns:
        A ``numpy.dtype``.

    Raises:
        TypeError: when ``dtype`` names no known type.
    """
    if isinstance(dtype, str):
        name = dtype.lower()
        name = {"float": "float32", "int": "int32", "bool": "bool_", "half": "float16",
                "double": "float64"}.get(name, name)
        if name == "bool_":
            name = "bool"
        try:
            return np.dtype(jnp.dtype(name))
        except TypeError as exc:
            raise TypeError(f"unknown dtype name {dtype!r}") from exc
    try:
        return np.dtype(jnp.dtype(dtype))
    except TypeError as exc:
        raise TypeError(f"expected a dtype such as ms.float32, got {dtype!r}") from exc


def is_float(dtype: Any) -> bool:
    """True for floating dtypes (float16/32/64 and bfloat16)."""
    return bool(jnp.issubdtype(to_jax_dtype(dtype), jnp.floating))


def dtype_to_nptype(dtype: Any) -> type:
    """MindSpore's ``dtype_to_nptype``: the numpy scalar type for ``dtype``."""
    return to_jax_dtype(dtype).type


def pytype_to_dtype(obj: type) -> np.dtype:
    """MindSpore's ``pytype_to_dtype``: ``float`` -> float32, ``int`` -> int32, ``bool`` -> bool."""
    return {bool: np.dtype(np.bool_), int: np.dtype(np.int32), float: np.dtype(np.float32)}.get(
        obj, to_jax_dtype(obj))


def dtype_to_pytype(dtype: Any) -> type:
    """MindSpore's ``dtype_to_pytype``: the Python type of ``dtype``'s scalars (bool, int, float or complex).

    Raises:
        TypeError: ``dtype`` is not a dtype.
    """
    kind = to_jax_dtype(dtype).kind
    return {"b": bool, "i": int, "u": int, "f": float, "V": float, "c": complex}[kind]
