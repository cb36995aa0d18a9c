"""More of MindSpore's Primitive classes (``ops.TopK()``, ``ops.StridedSlice(...)``, ``ops.AssignAdd()`` ...).

They follow :mod:`mindjax.ops.primitives`: configured by the constructor (MindSpore's
arguments), applied by calling, and carry ``shard`` and the other parallel hooks.

Example:
    >>> import numpy as np
    >>> from mindjax import ops
    >>> values, indices = ops.TopK()(np.array([3.0, 1.0, 2.0]), 2)
    >>> values.tolist(), indices.tolist()
    ([3.0, 2.0], [0, 2])
"""
from __future__ import annotations

from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from mindjax.common.tensor import Tensor
from mindjax.ops import functional as F
from mindjax.ops.function import parameter_func as _parameter_func
from mindjax.ops.primitives import Primitive, _binary, _check_bool, _check_int, _record, _unary

__all__ = [
    "TopK", "Sort", "StridedSlice", "Slice", "CumSum", "Erf", "Rsqrt", "SquaredDifference", "Sign",
    "Floor", "LogicalAnd", "LogicalNot", "GatherD", "AssignAdd", "AssignSub", "ScatterNdUpdate",
    "TensorScatterUpdate", "FastGeLU", "UniformReal", "StandardNormal",
]

_arr = F._arr


def _fast_gelu(x: Any) -> Any:
    # MindSpore's FastGeLU: x * sigmoid(1.702 x).
    return x * jax.nn.sigmoid(1.702 * x)


Erf = _unary("Erf", jax.scipy.special.erf, "Gauss error function")
Rsqrt = _unary("Rsqrt", jax.lax.rsqrt, "``1 / sqrt(input)``")
Sign = _unary("Sign", jnp.sign, "``-1``, ``0`` or ``1`` by the sign of each element")
Floor = _unary("Floor", jnp.floor, "Round down")
LogicalNot = _unary("LogicalNot", jnp.logical_not, "Boolean not")
FastGeLU = _unary("FastGeLU", _fast_gelu, "GELU approximated as ``x * sigmoid(1.702 x)``")
SquaredDifference = _binary("SquaredDifference", lambda a, b: jnp.square(a - b), "``(input - other) ** 2``")
LogicalAnd = _binary("LogicalAnd", jnp.logical_and, "Boolean and")
for _cls in (Erf, Rsqrt, Sign, Floor, LogicalNot, FastGeLU, SquaredDifference, LogicalAnd):
    _cls.__module__ = __name__


# --- sorting and cumulative ------------------------------------------------------------------

class TopK(Primitive):
    """The ``k`` largest entries along the last axis.

    Arguments:
        sorted: results are always sorted largest first; accepted for compatibility.

    Call: ``TopK()(input_x, k)`` -> ``(values, indices)`` with int32 indices.
    """

    def __init__(self, sorted: bool = True) -> None:  # noqa: A002 - MindSpore's name
        super().__init__()
        _record(self, sorted=_check_bool(self.name, "sorted", sorted))

    def __call__(self, input_x: Any, k: int) -> tuple[jax.Array, jax.Array]:
        return F._named(self.name)(F.topk.__wrapped__)(input_x, k)


class Sort(Primitive):
    """Sort along an axis.

    Arguments:
        axis: the axis to sort (default -1).
        descending: sort from largest to smallest.

    Call: ``Sort()(x)`` -> ``(values, indices)`` with int32 indices.
    """

    def __init__(self, axis: int = -1, descending: bool = False) -> None:
        super().__init__()
        _record(self, axis=_check_int(self.name, "axis", axis),
                descending=_check_bool(self.name, "descending", descending))

    def __call__(self, x: Any) -> tuple[jax.Array, jax.Array]:
        return F._named(self.name)(F.sort.__wrapped__)(x, self.axis, self.descending)


class CumSum(Primitive):
    """Cumulative sum along an axis.

    Arguments:
        exclusive: each output excludes its own element (starts from 0).
        reverse: accumulate from the end.

    Call: ``CumSum()(input, axis)`` -> array.
    """

    def __init__(self, exclusive: bool = False, reverse: bool = False) -> None:
        super().__init__()
        _record(self, exclusive=_check_bool(self.name, "exclusive", exclusive),
                reverse=_check_bool(self.name, "reverse", reverse))

    def __call__(self, input: Any, axis: int) -> jax.Array:
        x = _arr(input)
        ax = F._axis(self.name, axis, x.ndim)
        a = jnp.flip(x, ax) if self.reverse else x
        out = jnp.cumsum(a, axis=ax, dtype=x.dtype)
        if self.exclusive:
            out = out - a
        return jnp.flip(out, ax) if self.reverse else out


# --- slicing and gathering --------------------------------------------------------------------

def _static_ints(prim: str, name: str, value: Any) -> tuple[int, ...]:
    if isinstance(value, (jax.Array, np.ndarray, Tensor)):
        value = np.asarray(_arr(value)).tolist()
    if not isinstance(value, (tuple, list)) or not all(
            isinstance(v, (int, np.integer)) and not isinstance(v, bool) for v in value):
        raise TypeError(f"For '{prim}', '{name}' must be a tuple of ints, got {value!r}")
    return tuple(int(v) for v in value)


class StridedSlice(Primitive):
    """Slice with begin/end/strides and TensorFlow-style bit masks.

    Arguments:
        begin_mask: bit ``i`` set ignores ``begin[i]`` (slice from the start).
        end_mask: bit ``i`` set ignores ``end[i]`` (slice to the end).
        ellipsis_mask: bit ``i`` set makes entry ``i`` an ellipsis.
        new_axis_mask: bit ``i`` set inserts a new axis of size 1 at entry ``i``.
        shrink_axis_mask: bit ``i`` set takes index ``begin[i]`` and drops that axis.

    Call: ``StridedSlice()(input_x, begin, end, strides)`` with tuples of ints -> array.
    """

    def __init__(self, begin_mask: int = 0, end_mask: int = 0, ellipsis_mask: int = 0, new_axis_mask: int = 0,
                 shrink_axis_mask: int = 0) -> None:
        super().__init__()
        for arg, v in (("begin_mask", begin_mask), ("end_mask", end_mask), ("ellipsis_mask", ellipsis_mask),
                       ("new_axis_mask", new_axis_mask), ("shrink_axis_mask", shrink_axis_mask)):
            if _check_int(self.name, arg, v) < 0:
                raise ValueError(f"For '{self.name}', '{arg}' must be non-negative, got {v}")
        if ellipsis_mask & (ellipsis_mask - 1):
            raise ValueError(f"For '{self.name}', 'ellipsis_mask' may set only one bit, got {ellipsis_mask}")
        _record(self, begin_mask=begin_mask, end_mask=end_mask, ellipsis_mask=ellipsis_mask,
                new_axis_mask=new_axis_mask, shrink_axis_mask=shrink_axis_mask)

    def __call__(self, input_x: Any, begin: Any, end: Any, strides: Any) -> jax.Array:
        x = _arr(input_x)
        b, e, s = (_static_ints(self.name, n, v) for n, v in (("begin", begin), ("end", end), ("strides", strides)))
        if not len(b) == len(e) == len(s):
            raise ValueError(f"For '{self.name}', 'begin', 'end' and 'strides' must have the same length, got "
                             f"{len(b)}, {len(e)} and {len(s)}")
        if 0 in s:
            raise ValueError(f"For '{self.name}', 'strides' must not contain 0, got {s}")
        index: list[Any] = []
        for i in range(len(b)):
            bit = 1 << i
            if self.ellipsis_mask & bit:
                index.append(Ellipsis)
            elif self.new_axis_mask & bit:
                index.append(None)
            elif self.shrink_axis_mask & bit:
                index.append(b[i])
            else:
                index.append(slice(None if self.begin_mask & bit else b[i],
                                   None if self.end_mask & bit else e[i], s[i]))
        return x[tuple(index)]


class Slice(Primitive):
    """Call: ``Slice()(input, begin, size)`` -> ``input[begin[i] : begin[i] + size[i]]`` per axis
    (``size[i] == -1`` takes the rest of the axis)."""

    def __init__(self) -> None:
        super().__init__()

    def __call__(self, input: Any, begin: Any, size: Any) -> jax.Array:
        x = _arr(input)
        b, sz = _static_ints(self.name, "begin", begin), _static_ints(self.name, "size", size)
        if len(b) != x.ndim or len(sz) != x.ndim:
            raise ValueError(f"For '{self.name}', 'begin' and 'size' must have {x.ndim} elements for input "
                             f"{x.shape}, got {b} and {sz}")
        index = []
        for i, (start, n) in enumerate(zip(b, sz)):
            stop = x.shape[i] if n == -1 else start + n
            if not 0 <= start <= stop <= x.shape[i]:
                raise ValueError(f"For '{self.name}', slice [{start}, {stop}) is out of range for axis {i} "
                                 f"of input {x.shape}")
            index.append(slice(start, stop))
        return x[tuple(index)]


class GatherD(Primitive):
    """Call: ``GatherD()(x, dim, index)`` -> ``x`` gathered along ``dim`` at ``index`` (same rank)."""

    def __init__(self) -> None:
        super().__init__()

    def __call__(self, x: Any, dim: int, index: Any) -> jax.Array:
        return F._named(self.name)(F.gather_elements.__wrapped__)(x, dim, index)


class TensorScatterUpdate(Primitive):
    """Call: ``TensorScatterUpdate()(input_x, indices, updates)`` -> a copy of ``input_x`` with the
    slices at ``indices`` (last axis indexes the leading dimensions) replaced by ``updates``."""

    _strategy_inputs = 3

    def __init__(self) -> None:
        super().__init__()

    def __call__(self, input_x: Any, indices: Any, updates: Any) -> jax.Array:
        return _scatter_update(self.name, _arr(input_x), indices, updates)


def _scatter_update(prim: str, x: Any, indices: Any, updates: Any) -> jax.Array:
    idx, upd = _arr(indices), _arr(updates)
    if not jnp.issubdtype(idx.dtype, jnp.integer):
        raise TypeError(f"For '{prim}', 'indices' must be an integer array, got {idx.dtype}")
    depth = idx.shape[-1] if idx.ndim else 0
    if idx.ndim < 1 or depth > x.ndim:
        raise ValueError(f"For '{prim}', 'indices' last dimension must be at most {x.ndim}, got shape {idx.shape}")
    expected = idx.shape[:-1] + x.shape[depth:]
    if upd.shape != expected:
        raise ValueError(f"For '{prim}', 'updates' must have shape {expected}, got {upd.shape}")
    where = tuple(idx[..., i] for i in range(depth))
    return x.at[where].set(upd.astype(x.dtype))


# --- writing into Parameters -------------------------------------------------------------------

def _check_param(prim: str, variable: Any, arg: str = "variable") -> None:
    """An in-place op's target: a Parameter or a Tensor (MindSpore 2.x writes into both)."""
    if not isinstance(variable, Tensor):
        raise TypeError(f"For '{prim}', '{arg}' must be a Parameter or Tensor, got {type(variable).__name__}")


class AssignAdd(Primitive):
    """Call: ``AssignAdd()(variable, value)`` -> writes ``variable + value`` into the Parameter or Tensor
    ``variable`` and returns its new value."""

    _strategy_inputs = 2

    def __init__(self) -> None:
        super().__init__()

    def __call__(self, variable: Any, value: Any) -> jax.Array:
        _check_param(self.name, variable)
        return _parameter_func.assign_add(variable, value)


class AssignSub(Primitive):
    """Call: ``AssignSub()(variable, value)`` -> writes ``variable - value`` into the Parameter or Tensor
    ``variable`` and returns its new value."""

    _strategy_inputs = 2

    def __init__(self) -> None:
        super().__init__()

    def __call__(self, variable: Any, value: Any) -> jax.Array:
        _check_param(self.name, variable)
        return _parameter_func.assign_sub(variable, value)


class ScatterNdUpdate(Primitive):
    """Replace slices of a Parameter at ``indices`` with ``updates``.

    Arguments:
        use_locking: accepted for compatibility (JAX updates are not concurrent).

    Call: ``ScatterNdUpdate()(input_x, indices, updates)`` -> writes the Parameter ``input_x`` and
    returns its new value.
    """

    _strategy_inputs = 3

    def __init__(self, use_locking: bool = True) -> None:
        super().__init__()
        _record(self, use_locking=_check_bool(self.name, "use_locking", use_locking))

    def __call__(self, input_x: Any, indices: Any, updates: Any) -> jax.Array:
        _check_param(self.name, input_x, "input_x")
        return F.assign(input_x, _scatter_update(self.name, input_x._value, indices, updates))


# --- random --------------------------------------------------------------------------------------

class _RandomShape(Primitive):
    _strategy_inputs = None

    def __init__(self, seed: int = 0, seed2: int = 0) -> None:
        super().__init__()
        for arg, v in (("seed", seed), ("seed2", seed2)):
            if _check_int(self.name, arg, v) < 0:
                raise ValueError(f"For '{self.name}', '{arg}' must be non-negative, got {v}")
        _record(self, seed=int(seed), seed2=int(seed2))

    def _draw_key(self) -> Any:
        seed = self.seed * 1000003 + self.seed2 if (self.seed or self.seed2) else None
        return F._key(seed)


class UniformReal(_RandomShape):
    """Float32 samples uniform in ``[0, 1)``.

    Arguments:
        seed, seed2: mixed into the global key when non-zero.

    Call: ``UniformReal()(shape)`` -> array.
    """

    def __call__(self, shape: Any) -> jax.Array:
        return jax.random.uniform(self._draw_key(), F._shape_arg(self.name, shape), jnp.float32)


class StandardNormal(_RandomShape):
    """Float32 standard normal samples.

    Arguments:
        seed, seed2: mixed into the global key when non-zero.

    Call: ``StandardNormal()(shape)`` -> array.
    """

    def __call__(self, shape: Any) -> jax.Array:
        return jax.random.normal(self._draw_key(), F._shape_arg(self.name, shape), jnp.float32)
