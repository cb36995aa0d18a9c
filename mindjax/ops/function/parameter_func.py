"""MindSpore's ``mindspore.ops.function.parameter_func``: ops that update a Parameter.

Each op returns the new value and, given a Parameter or a Tensor, writes it back (inside a compiled
call the write-back is part of the program's state update).

Example:
    >>> import numpy as np
    >>> import mindjax as ms
    >>> from mindjax import ops
    >>> p = ms.Parameter(ms.Tensor(np.ones(2, np.float32)), name="p")
    >>> ops.assign_add(p, np.ones(2, np.float32)).tolist()
    [2.0, 2.0]
"""
from __future__ import annotations

from typing import Any

import jax
import jax.numpy as jnp

from mindjax.common.tensor import Tensor, tensor_op
from mindjax.ops.function._build import _arr, _axis, _named
# Existing ops of this family, re-exported under MindSpore's module path.
from mindjax.ops.functional import assign  # noqa: F401

__all__ = ["assign_add", "assign_sub", "index_add", "scatter_nd_update"]


def _update(variable: Any, value: jax.Array) -> jax.Array:
    """Write ``value`` into ``variable`` when it is a Parameter or a Tensor (both are mutable in MindSpore)."""
    if isinstance(variable, Tensor):
        return assign(variable, value)
    return value


@tensor_op
@_named("assign_add")
def assign_add(variable: Any, value: Any) -> jax.Array:
    """``variable + value``, written back to ``variable`` (a Parameter or Tensor)."""
    v = _arr(variable)
    return _update(variable, (v + _arr(value)).astype(v.dtype))


@tensor_op
@_named("assign_sub")
def assign_sub(variable: Any, value: Any) -> jax.Array:
    """``variable - value``, written back to ``variable`` (a Parameter or Tensor)."""
    v = _arr(variable)
    return _update(variable, (v - _arr(value)).astype(v.dtype))


@tensor_op
@_named("index_add")
def index_add(x: Any, indices: Any, y: Any, axis: int, use_lock: bool = True, check_index_bound: bool = True) -> jax.Array:
    """``x`` with the slices of ``y`` added at ``indices`` along ``axis`` (repeated indices accumulate),
    written back to ``x`` when it is a Parameter or Tensor."""
    a = _arr(x)
    ax = _axis("index_add", axis, a.ndim)
    idx = _arr(indices).astype(jnp.int32)
    if idx.ndim != 1:
        raise ValueError(f"'indices' must be 1-D, got shape {idx.shape}")
    if check_index_bound and not isinstance(idx, jax.core.Tracer) and idx.size and (
            int(jnp.min(idx)) < 0 or int(jnp.max(idx)) >= a.shape[ax]):
        raise ValueError(f"'indices' must be in [0, {a.shape[ax]}) for axis {ax}, got {idx.tolist()}")
    u = jnp.moveaxis(_arr(y).astype(a.dtype), ax, 0)
    return _update(x, jnp.moveaxis(jnp.moveaxis(a, ax, 0).at[idx].add(u), 0, ax))


def scatter_nd_update(input_x: Any, indices: Any, updates: Any) -> jax.Array:
    """Replace the slices of the Parameter ``input_x`` at N-D ``indices`` with ``updates`` and return its new value
    (MindSpore's ``ScatterNdUpdate()`` instance, ``use_locking=True``)."""
    from mindjax.ops.primitives_extra import ScatterNdUpdate

    return ScatterNdUpdate()(input_x, indices, updates)
