"""MindSpore's dtype objects (``ms.float32`` prints ``Float32``) that JAX and numpy accept.

Each dtype is an instance of :class:`Type` carrying the numpy dtype it stands
for as its ``dtype`` attribute. numpy and JAX read that attribute wherever
they take a dtype, so ``jnp.zeros(3, ms.float32)``, ``x.astype(ms.int64)`` and
``np.dtype(ms.bool_)`` all work, while ``str(ms.float32)`` is ``'Float32'`` and
``repr(ms.float32)`` is ``'mindspore.float32'`` as in MindSpore. A Type compares
equal to the same Type and to the numpy/JAX spelling of its dtype.

Example:
    >>> import numpy as np, jax.numpy as jnp, mindjax as ms
    >>> ms.Tensor([1, 2], ms.float16).dtype == ms.float16
    True
    >>> str(ms.float32), jnp.zeros(2, ms.int64).dtype
    ('Float32', dtype('int64'))
"""
from __future__ import annotations

from typing import Any

import jax.numpy as jnp
import numpy as np


class Type:
    """A MindSpore dtype: a printable name over one numpy dtype.

    Arguments:
        name: MindSpore's spelling (``'Float32'``).
        np_dtype: the numpy dtype it stands for.
        alias: the attribute name under ``mindspore`` (``'float32'``), used by ``repr``.
    """

    __slots__ = ("_name", "dtype", "_alias")

    def __init__(self, name: str, np_dtype: Any, alias: str) -> None:
        self._name = name
        self.dtype = np.dtype(np_dtype)
        self._alias = alias

    def __str__(self) -> str:
        return self._name

    def __repr__(self) -> str:
        return f"mindspore.{self._alias}"

    def __eq__(self, other: Any) -> bool:
        if isinstance(other, Type):
            return self.dtype == other.dtype
        if other is None or isinstance(other, (bool, int, float)):
            return False
        try:
            return self.dtype == np.dtype(other)
        except TypeError:
            return False

    def __ne__(self, other: Any) -> bool:
        return not self == other

    def __hash__(self) -> int:
        return hash(self.dtype)

    def __reduce__(self) -> Any:
        return (_by_alias, (self._alias,))

    @property
    def itemsize(self) -> int:
        """Bytes per element."""
        return self.dtype.itemsize

    @property
    def name(self) -> str:
        """The numpy name (``'float32'``)."""
        return self.dtype.name

    def to_numpy(self) -> type:
        """The numpy scalar type (``numpy.float32``)."""
        return self.dtype.type


_TABLE: dict[str, tuple[str, Any]] = {
    "bool_": ("Bool", np.bool_),
    "int8": ("Int8", np.int8), "int16": ("Int16", np.int16), "int32": ("Int32", np.int32),
    "int64": ("Int64", np.int64),
    "uint8": ("UInt8", np.uint8), "uint16": ("UInt16", np.uint16), "uint32": ("UInt32", np.uint32),
    "uint64": ("UInt64", np.uint64),
    "float16": ("Float16", np.float16), "float32": ("Float32", np.float32),
    "float64": ("Float64", np.float64), "bfloat16": ("BFloat16", jnp.bfloat16),
    "complex64": ("Complex64", np.complex64), "complex128": ("Complex128", np.complex128),
}
_BY_ALIAS: dict[str, Type] = {alias: Type(name, np_type, alias) for alias, (name, np_type) in _TABLE.items()}
_BY_NUMPY: dict[np.dtype, Type] = {t.dtype: t for t in _BY_ALIAS.values()}


def _by_alias(alias: str) -> Type:
    return _BY_ALIAS[alias]


bool_ = _BY_ALIAS["bool_"]
int8 = _BY_ALIAS["int8"]
int16 = _BY_ALIAS["int16"]
int32 = _BY_ALIAS["int32"]
int64 = _BY_ALIAS["int64"]
uint8 = _BY_ALIAS["uint8"]
uint16 = _BY_ALIAS["uint16"]
uint32 = _BY_ALIAS["uint32"]
uint64 = _BY_ALIAS["uint64"]
float16 = _BY_ALIAS["float16"]
float32 = _BY_ALIAS["float32"]
float64 = _BY_ALIAS["float64"]
bfloat16 = _BY_ALIAS["bfloat16"]
complex64 = _BY_ALIAS["complex64"]
complex128 = _BY_ALIAS["complex128"]

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
signed_type = int_type + float_type + (complex64, complex128)
complex_type = (complex64, complex128)
all_types = (bool_,) + number_type


def to_jax_dtype(dtype: Any) -> np.dtype:
    """Return the numpy dtype JAX uses for a MindSpore/JAX/numpy dtype spec.

    Arguments:
        dtype: ``ms.float32``, ``np.float32``, ``'float32'`` or a numpy dtype.

    Returns:
        A ``numpy.dtype``.

    Raises:
        TypeError: when ``dtype`` names no known type.
    """
    if isinstance(dtype, Type):
        return dtype.dtype
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


def to_ms_dtype(dtype: Any) -> Type:
    """MindSpore's Type for a numpy/JAX dtype (``np.float32`` -> ``ms.float32``).

    Arguments:
        dtype: anything :func:`to_jax_dtype` accepts.

    Returns:
        the :class:`Type`.
    """
    if isinstance(dtype, Type):
        return dtype
    np_dtype = to_jax_dtype(dtype)
    found = _BY_NUMPY.get(np_dtype)
    if found is None:
        raise TypeError(f"MindSpore has no dtype for numpy's {np_dtype}")
    return found


def is_float(dtype: Any) -> bool:
    """True for floating dtypes (float16/32/64 and bfloat16)."""
    return bool(jnp.issubdtype(to_jax_dtype(dtype), jnp.floating))


def dtype_to_nptype(type_: Any) -> type:
    """MindSpore's ``dtype_to_nptype``: the numpy scalar type for ``type_``."""
    return to_jax_dtype(type_).type


def dtype_to_pytype(type_: Any) -> type:
    """MindSpore's ``dtype_to_pytype``: ``bool``, ``int``, ``float`` or ``complex``."""
    kind = to_jax_dtype(type_).kind
    return {"b": bool, "i": int, "u": int, "f": float, "c": complex, "V": float}[kind]


def pytype_to_dtype(obj: Any) -> Type:
    """MindSpore's ``pytype_to_dtype``: ``float`` -> float32, ``int`` -> int64, ``bool`` -> bool."""
    if obj is bool:
        return bool_
    if obj is int:
        return int64
    if obj is float:
        return float32
    return to_ms_dtype(obj)


def get_py_obj_dtype(obj: Any) -> Type:
    """The Type MindSpore infers for a Python object or a Tensor-like's ``dtype``."""
    if hasattr(obj, "dtype"):
        return to_ms_dtype(obj.dtype)
    return pytype_to_dtype(type(obj))
