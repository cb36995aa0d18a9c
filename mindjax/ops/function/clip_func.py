"""MindSpore's ``mindspore.ops.function.clip_func``: clipping by value and by norm.

Example:
    >>> import numpy as np
    >>> from mindjax import ops
    >>> ops.clip(np.array([-2.0, 0.5, 3.0]), -1.0, 1.0).tolist()
    [-1.0, 0.5, 1.0]
"""
from __future__ import annotations

from typing import Any

import jax
import jax.numpy as jnp

from mindjax.common.tensor import tensor_op
from mindjax.common.variable import Variable
from mindjax.ops.function._build import _arr, _named, check_bool, check_number
# Existing ops of this family, re-exported under MindSpore's module path.
from mindjax.ops.functional import clamp, clip_by_global_norm, clip_by_value  # noqa: F401

__all__ = ["clip", "clamp_", "clip_by_norm"]


@tensor_op
@_named("clip")
def clip(input: Any, min: Any = None, max: Any = None) -> jax.Array:  # noqa: A002 - MindSpore's names
    """Alias of ``ops.clamp``: values below ``min`` / above ``max`` (scalars or arrays) are clipped."""
    return clamp(input, min, max)


@tensor_op
@_named("clamp_")
def clamp_(input: Any, min: Any = None, max: Any = None) -> jax.Array:  # noqa: A002
    """``clamp`` that also writes the result into a Parameter ``input``."""
    out = clamp(input, min, max)
    if isinstance(input, Variable):
        input.set_data(out)
    return out


@tensor_op
@_named("clip_by_norm")
def clip_by_norm(x: Any, max_norm: float, norm_type: float = 2.0, error_if_nonfinite: bool = False) -> Any:
    """Scale an array, or a list/tuple of arrays together, so that their total ``norm_type``-norm is at most
    ``max_norm``.

    Arguments:
        x: an array or a list/tuple of arrays.
        max_norm: the largest norm kept.
        norm_type: the norm order (a float or ``inf``).
        error_if_nonfinite: raise when the total norm is NaN or inf (checked eagerly).

    Returns:
        the clipped array(s), in the input's structure.
    """
    items = list(x) if isinstance(x, (list, tuple)) else [x]
    arrays = [_arr(v) for v in items]
    p = check_number("norm_type", norm_type)
    mx = check_number("max_norm", max_norm)
    check_bool("error_if_nonfinite", error_if_nonfinite)
    if p == float("inf"):
        total = jnp.max(jnp.stack([jnp.max(jnp.abs(a)) for a in arrays]))
    else:
        total = jnp.sum(jnp.stack([jnp.sum(jnp.abs(a.astype(jnp.float32)) ** p) for a in arrays])) ** (1.0 / p)
    if error_if_nonfinite and not isinstance(total, jax.core.Tracer) and not bool(jnp.isfinite(total)):
        raise RuntimeError(f"the total norm of order {p} is non-finite, so it cannot be clipped")
    scale = jnp.minimum(mx / (total + 1e-6), 1.0)
    out = [(a * scale).astype(a.dtype) for a in arrays]
    return type(x)(out) if isinstance(x, (list, tuple)) else out[0]
