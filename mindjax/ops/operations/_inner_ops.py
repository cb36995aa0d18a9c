"""MindSpore's ``mindspore.ops.operations._inner_ops``: the inner Primitives user code calls that mean something here.

``DynamicBroadcastTo``, ``TensorCopySlices`` and ``DynamicBroadcastGradientArgs``; the rest of MindSpore's
module serves its graph compiler and Ascend kernels.

Example:
    >>> import numpy as np
    >>> from mindjax.ops.operations import _inner_ops as inner
    >>> inner.DynamicBroadcastTo()(np.array([1.0, 2.0], np.float32), (3, 2)).shape
    (3, 2)
"""
from __future__ import annotations

from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from mindjax.common import dtype as mstype
from mindjax.common.tensor import as_array
from mindjax.ops.operations._base import Primitive

__all__ = ["DynamicBroadcastTo", "TensorCopySlices", "DynamicBroadcastGradientArgs", "IsInstance"]


def _ints(prim: str, name: str, value: Any) -> tuple[int, ...]:
    if hasattr(value, "shape") and not isinstance(value, tuple):
        value = np.asarray(as_array(value)).reshape(-1).tolist()
    if isinstance(value, int):
        value = (value,)
    if not isinstance(value, (tuple, list)) or any(isinstance(v, bool) or not isinstance(v, (int, np.integer))
                                                   for v in value):
        raise TypeError(f"For '{prim}', '{name}' must be a tuple of ints, but got {value!r}.")
    return tuple(int(v) for v in value)


class DynamicBroadcastTo(Primitive):
    """``x`` broadcast to ``shape``. Call: ``DynamicBroadcastTo()(x, shape)``."""

    def __call__(self, x: Any, shape: Any) -> jax.Array:
        a = as_array(x)
        target = _ints(self.name, "shape", shape)
        try:
            return jnp.broadcast_to(a, target)
        except ValueError:
            raise ValueError(f"For '{self.name}', 'x' of shape {tuple(a.shape)} can not be broadcast to "
                             f"{target}.") from None


class TensorCopySlices(Primitive):
    """``x`` with the slice ``begin:end:strides`` replaced by ``value`` (broadcast to the slice).

    Call: ``TensorCopySlices()(x, value, begin, end, strides)``; ``begin``/``end``/``strides`` tuples of ints for
    the leading axes (MindSpore's kernel takes strides of 1 only).
    """

    def __call__(self, x: Any, value: Any, begin: Any, end: Any, strides: Any) -> jax.Array:
        a, v = as_array(x), as_array(value)
        b, e, s = (_ints(self.name, n, t) for n, t in (("begin", begin), ("end", end), ("strides", strides)))
        if not len(b) == len(e) == len(s) or len(b) > a.ndim:
            raise ValueError(f"For '{self.name}', 'begin', 'end' and 'strides' must have the same length, at most "
                             f"the rank of 'x' ({a.ndim}), but got {len(b)}, {len(e)} and {len(s)}.")
        if any(step != 1 for step in s):
            raise ValueError(f"For '{self.name}', the element in step only support 1, but got {list(s)}.")
        index = tuple(slice(lo, hi, step) for lo, hi, step in zip(b, e, s))
        target = a[index].shape
        try:
            v = jnp.broadcast_to(v.astype(a.dtype), target)
        except ValueError:
            raise ValueError(f"For '{self.name}', 'value' of shape {tuple(v.shape)} can not fill the slice of "
                             f"shape {tuple(target)}.") from None
        return a.at[index].set(v)


class DynamicBroadcastGradientArgs(Primitive):
    """The axes each of two broadcast inputs' gradients is summed over.

    Call: ``DynamicBroadcastGradientArgs()(s0, s1)`` with two shapes -> ``(axes0, axes1)``, int64 Tensors of the
    broadcast result's axes along which the first / second input has size 1 (or is missing) and the result does
    not.
    """

    def __call__(self, s0: Any, s1: Any) -> tuple[jax.Array, jax.Array]:
        a, b = _ints(self.name, "s0", s0), _ints(self.name, "s1", s1)
        rank = max(len(a), len(b))
        pa, pb = (1,) * (rank - len(a)) + a, (1,) * (rank - len(b)) + b
        out = []
        for i, (x, y) in enumerate(zip(pa, pb)):
            if x != y and 1 not in (x, y):
                raise ValueError(f"For '{self.name}', the shapes {a} and {b} can not be broadcast (axis {i}: "
                                 f"{x} and {y}).")
            out.append(max(x, y))
        dtype = jnp.int64 if jax.config.jax_enable_x64 else jnp.int32
        axes0 = [i for i, (x, o) in enumerate(zip(pa, out)) if x == 1 and o != 1]
        axes1 = [i for i, (y, o) in enumerate(zip(pb, out)) if y == 1 and o != 1]
        return jnp.asarray(axes0, dtype), jnp.asarray(axes1, dtype)


class IsInstance(Primitive):
    """MindSpore's ``IsInstance``: ``IsInstance()(inst, type_)`` says whether the constant ``inst`` is of
    the MindSpore type ``type_``.

    A Python ``bool`` is ``bool_``, an ``int`` ``int64`` and a ``float`` ``float32`` (the types MindSpore
    gives Python scalars); all three are ``number``. A list is ``list_``, a tuple ``tuple_``; other
    objects take their type from ``dtype.get_py_obj_dtype``. In MindJAX ``ms.int_`` and ``ms.float_``
    are the concrete int32 and float32, not MindSpore's abstract Int and Float.

    Raises:
        TypeError: ``type_`` is not a MindSpore type.

    Example:
        >>> IsInstance()((1, 2), mstype.tuple_), IsInstance()(1, mstype.int64), IsInstance()(1, mstype.int32)
        (True, True, False)
    """

    def __call__(self, inst: Any, type_: Any) -> bool:
        if not isinstance(type_, mstype.Type):
            raise TypeError(f"For '{self.name}', the type of 'type_' should be 'Type', "
                            f"but got type '{type(type_).__name__}'.")
        if type_ == mstype.list_:
            return isinstance(inst, list)
        if type_ == mstype.tuple_:
            return isinstance(inst, tuple)
        if isinstance(inst, (bool, int, float)):
            return type_ == mstype.number or mstype.pytype_to_dtype(type(inst)) == type_
        return mstype.get_py_obj_dtype(inst) == type_
