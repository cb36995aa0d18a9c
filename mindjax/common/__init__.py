"""``mindjax.common``: the lowest layer (dtypes, Tensor, random state, initializers) and MindSpore's
``mindspore.common`` namespace.

``from mindjax.common import Tensor, Parameter, ParameterTuple, jit, dtype`` works as
MindSpore's does. Some of those names are implemented in higher layers (``Parameter``
in ``cells``, ``jit`` in ``transforms``), so they are resolved lazily, on first access,
and importing ``mindjax.common.dtype`` from a lower layer never pulls them in.
"""
from __future__ import annotations

import importlib
from typing import Any

# As in MindSpore, the package attribute ``tensor`` is the factory function, not the
# submodule (``import mindjax.common.tensor`` still loads the module into sys.modules).
from mindjax.common import tensor as _tensor_module  # noqa: F401  (loaded first, then shadowed)
from mindjax.common.tensor import Tensor, from_numpy, tensor

# name -> (module, attribute); resolved on first access (PEP 562).
_LAZY: dict[str, tuple[str, str]] = {
    "RowTensor": ("mindjax.common.sparse_tensor", "RowTensor"),
    "COOTensor": ("mindjax.common.sparse_tensor", "COOTensor"),
    "CSRTensor": ("mindjax.common.sparse_tensor", "CSRTensor"),
    "Parameter": ("mindjax.cells.parameter", "Parameter"),
    "ParameterTuple": ("mindjax.cells.parameter", "ParameterTuple"),
    "jit": ("mindjax.transforms.jit", "jit"),
    "jit_class": ("mindjax.common.api", "jit_class"),
    "JitConfig": ("mindjax.common.jit_config", "JitConfig"),
    "set_seed": ("mindjax.common.random", "set_seed"),
    "get_seed": ("mindjax.common.random", "get_seed"),
    "initializer": ("mindjax.common.initializer", "initializer"),
}
_DTYPE_NAMES = (
    "bool_", "int8", "byte", "int16", "short", "int32", "intc", "int64", "long", "intp", "uint8", "ubyte",
    "uint16", "ushort", "uint32", "uintc", "uint64", "uintp", "float16", "half", "float32", "single",
    "float64", "double", "float_", "int_", "uint", "complex64", "cfloat", "complex128", "cdouble", "bfloat16",
    "dtype_to_nptype", "dtype_to_pytype", "pytype_to_dtype",
)
_LAZY.update({name: ("mindjax.common.dtype", name) for name in _DTYPE_NAMES})

__all__ = sorted(_LAZY) + ["Tensor", "dtype", "from_numpy", "tensor"]


def __getattr__(name: str) -> Any:
    if name == "dtype":  # the module, as ``mindspore.common.dtype``
        return importlib.import_module("mindjax.common.dtype")
    target = _LAZY.get(name)
    if target is None:
        raise AttributeError(f"module 'mindjax.common' has no attribute {name!r}")
    value = getattr(importlib.import_module(target[0]), target[1])
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
