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

import inspect
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
        return f"mindspore.{_REPR_NAMES.get(self._alias, self._alias)}"

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


# Where MindSpore's repr differs from the attribute name: ``repr(ms.bool_)`` is ``mindspore.bool``.
_REPR_NAMES = {"bool_": "bool"}

_TABLE: dict[str, tuple[str, Any]] = {
    "bool_": ("Bool", np.bool_),
    "int8": ("Int8", np.int8), "int16": ("Int16", np.int16), "int32": ("Int32", np.int32),
    "int64": ("Int64", np.int64),
    "uint8": ("UInt8", np.uint8), "uint16": ("UInt16", np.uint16), "uint32": ("UInt32", np.uint32),
    "uint64": ("UInt64", np.uint64),
    "float16": ("Float16", np.float16), "float32": ("Float32", np.float32),
    "float64": ("Float64", np.float64), "bfloat16": ("BFloat16", jnp.bfloat16),
    "complex64": ("Complex64", np.complex64), "complex128": ("Complex128", np.complex128),
    # Low-precision types JAX has (ml_dtypes): MindSpore's float8 pair and its packed int4 (qint4x2).
    "float8_e4m3fn": ("Float8E4M3FN", jnp.float8_e4m3fn), "float8_e5m2": ("Float8E5M2", jnp.float8_e5m2),
    "int4": ("Int4", jnp.int4),
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
float8_e4m3fn = _BY_ALIAS["float8_e4m3fn"]
float8_e5m2 = _BY_ALIAS["float8_e5m2"]
qint4x2 = _BY_ALIAS["int4"]  # MindSpore's qint4x2 prints as mindspore.int4

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



class _ObjectType(Type):
    """A MindSpore type that no Tensor element has (``ms.number``, ``ms.string``, ``ms.list_`` ...).

    It prints and compares like MindSpore's; used as a Tensor dtype it raises TypeError naming itself.
    """

    __slots__ = ("_why",)

    def __init__(self, name: str, alias: str, why: str = "it is not a Tensor element type") -> None:
        self._name = name
        self._alias = alias
        self._why = why

    @property  # type: ignore[override]
    def dtype(self) -> np.dtype:  # noqa: D401 - what numpy and JAX read as a dtype
        """Raises TypeError: this type has no numpy dtype."""
        raise TypeError(f"mindspore.{self._alias} ({self._name}) can not be used as a Tensor dtype: {self._why}")

    def __eq__(self, other: Any) -> bool:
        return type(other) is type(self) and other._name == self._name

    def __hash__(self) -> int:
        return hash((type(self).__name__, self._name))

    def __reduce__(self) -> Any:
        return (_object_type, (self._alias,))

    @property
    def itemsize(self) -> int:
        """Raises TypeError: this type has no element size."""
        return self.dtype.itemsize

    @property
    def name(self) -> str:
        """MindSpore's printed name (``'String'``)."""
        return self._name

    def to_numpy(self) -> type:
        """Raises TypeError: this type has no numpy scalar type."""
        return self.dtype.type


class TensorType(_ObjectType):
    """MindSpore's ``TensorType``: the type of a Tensor, with its element type (``Tensor[Float32]``).

    Arguments:
        element (Type, optional): the element dtype. ``None`` (``ms.tensor_type``) stands for any Tensor.

    Example:
        >>> import mindjax as ms
        >>> str(ms.TensorType(ms.float32)), ms.TensorType(ms.float32).element_type()
        ('Tensor[Float32]', mindspore.float32)
    """

    __slots__ = ("_element",)

    def __init__(self, element: Any = None) -> None:
        self._element = None if element is None else to_ms_dtype(element)
        name = "Tensor" if element is None else f"Tensor[{self._element}]"
        super().__init__(name, "tensor", "it is the type of a Tensor; use its element_type()")

    def element_type(self) -> Type | None:
        """The element dtype (``None`` for ``ms.tensor_type``)."""
        return self._element

    def __repr__(self) -> str:
        return "mindspore.tensor" if self._element is None else f"TensorType({self._element!r})"

    def __reduce__(self) -> Any:
        return (TensorType, (self._element,))


class _IntMeta(type):
    """``isinstance(ms.int32, ms.Int)`` holds for the signed integer dtypes, as in MindSpore."""

    def __instancecheck__(cls, obj: Any) -> bool:
        return (type(obj) is Type and obj.dtype.kind == "i") or type(obj) is _GenericInt


class Int(metaclass=_IntMeta):
    """MindSpore's ``Int`` type class: ``Int(32)`` is ``ms.int32``; the int dtypes are its instances.

    Arguments:
        nbits (int, optional): 8, 16, 32 or 64. Without it, the generic ``Int``.

    Raises:
        RuntimeError: another number of bits (MindSpore's message).
    """

    def __new__(cls, nbits: int | None = None) -> Any:  # type: ignore[misc]
        if nbits is None:
            return _GENERIC_INT
        found = {8: "int8", 16: "int16", 32: "int32", 64: "int64"}.get(nbits)
        if found is None or isinstance(nbits, bool):
            raise RuntimeError(f"For Int type only support number of 8bits, 16bits, 32bits and 64bits, "
                               f"but got {nbits}bits")
        return _BY_ALIAS[found]


class _GenericInt(_ObjectType):
    """MindSpore's generic ``Int`` (any width), ``Int()``."""


_GENERIC_INT = _GenericInt("Int", "Int", "it names no width; use ms.int32 or ms.int64")

number = _ObjectType("Number", "number", "it stands for any number type")
string = _ObjectType("String", "string_", "MindSpore's strings are not Tensor elements")
list_ = _ObjectType("List", "list_")
tuple_ = _ObjectType("Tuple", "tuple_")
type_none = _ObjectType("None", "type_none")
function = _ObjectType("Func", "function")
type_type = _ObjectType("TypeType", "type_type")
tensor_type = TensorType()
hifloat8 = _ObjectType("HiFloat8", "hifloat8", "it is Ascend's HiFloat8 and JAX has no such type; use "
                       "ms.float8_e4m3fn or ms.float8_e5m2")
_OBJECT_TYPES = {t._alias: t for t in (number, string, list_, tuple_, type_none, function, type_type, tensor_type,
                                       hifloat8)}


def _object_type(alias: str) -> Type:
    return _OBJECT_TYPES[alias]


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


# MindSpore's TypeId of each dtype (``DtypeToEnum``, the ``dtype`` input of a MINDIR ``Cast``).
_TYPE_IDS = {"bool": 30, "int8": 32, "int16": 33, "int32": 34, "int64": 35, "uint8": 37, "uint16": 38,
             "uint32": 39, "uint64": 40, "float16": 42, "float32": 43, "float64": 44, "bfloat16": 45,
             "complex64": 51, "complex128": 52}


def type_id(dtype: Any) -> int | None:
    """MindSpore's TypeId number of a tensor dtype (``mindspore.float32`` -> 43), None for other types.

    Arguments:
        dtype: anything :func:`to_jax_dtype` accepts.
    """
    return _TYPE_IDS.get(str(to_jax_dtype(dtype)))


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


_PY_OBJ_TYPES = {list: list_, tuple: tuple_, type(None): type_none, bool: bool_, int: int64, float: float64,
                 complex: complex128, str: string, np.str_: string}


def get_py_obj_dtype(obj: Any) -> Type:
    """The MindSpore type of a Python object, a Python type or a Tensor (MindSpore's ``get_py_obj_dtype``).

    A Tensor (anything with ``shape`` and a MindSpore ``dtype``) gives ``TensorType(dtype)``, a Cell,
    Primitive or function ``function``, a MindSpore type ``type_type``; a Python or numpy type (or an
    object of one) gives its dtype: ``int`` -> int64, ``float`` -> float64, ``list`` -> ``list_``, ...

    Raises:
        NotImplementedError: a type MindSpore has no type for.

    Example:
        >>> import mindjax as ms
        >>> ms.get_py_obj_dtype(1), ms.get_py_obj_dtype([1])
        (mindspore.int64, mindspore.list_)
    """
    if hasattr(obj, "shape") and isinstance(getattr(obj, "dtype", None), Type):
        return TensorType(obj.dtype)
    if hasattr(obj, "__primitive_flag__") or hasattr(obj, "construct") or inspect.isfunction(obj):
        return function
    if isinstance(obj, Type):
        return type_type
    kind = obj if isinstance(obj, type) else type(obj)
    if kind in _PY_OBJ_TYPES:
        return _PY_OBJ_TYPES[kind]
    if issubclass(kind, np.generic):
        found = _BY_NUMPY.get(np.dtype(kind))
        if found is not None:
            return found
    raise NotImplementedError(f"The python type {kind} cannot be converted to MindSpore type.")


def __getattr__(name: str) -> Any:
    """``dtype.int``/``dtype.float``/``dtype.bool`` (MindSpore's aliases of int32/float32/bool_): kept off
    the module's globals, where they would hide Python's builtins from this module's own code."""
    aliases = {"int": int32, "float": float32, "bool": bool_}
    if name in aliases:
        return aliases[name]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
