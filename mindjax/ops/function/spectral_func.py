"""MindSpore's ``mindspore.ops.function.spectral_func``: the Bartlett and Blackman windows.

Example:
    >>> from mindjax import ops
    >>> ops.bartlett_window(5, periodic=False).tolist()
    [0.0, 0.5, 1.0, 0.5, 0.0]
"""
from __future__ import annotations

import math
from typing import Any

import jax
import jax.numpy as jnp

from mindjax.common.dtype import to_jax_dtype
from mindjax.common.tensor import tensor_op
from mindjax.ops.function._build import _named, check_bool, check_int

__all__ = ["bartlett_window", "blackman_window"]


def _setup(window_length: Any, periodic: Any, dtype: Any) -> tuple[int, int, Any]:
    n = check_int("window_length", window_length, 0)
    m = n + 1 if check_bool("periodic", periodic) else n
    return n, m, jnp.float32 if dtype is None else to_jax_dtype(dtype)


@tensor_op
@_named("bartlett_window")
def bartlett_window(window_length: int, periodic: bool = True, *, dtype: Any = None) -> jax.Array:
    """The triangular Bartlett window ``1 - |2 n / (N - 1) - 1|`` (periodic: computed for ``N + 1``)."""
    n, m, dt = _setup(window_length, periodic, dtype)
    if n <= 1:
        return jnp.ones((n,), dt)
    k = jnp.arange(n, dtype=jnp.float32)
    return (1 - jnp.abs(2 * k / (m - 1) - 1)).astype(dt)


@tensor_op
@_named("blackman_window")
def blackman_window(window_length: int, periodic: bool = True, *, dtype: Any = None) -> jax.Array:
    """The Blackman window ``0.42 - 0.5 cos(2 pi n / (N - 1)) + 0.08 cos(4 pi n / (N - 1))``."""
    n, m, dt = _setup(window_length, periodic, dtype)
    if n <= 1:
        return jnp.ones((n,), dt)
    k = jnp.arange(n, dtype=jnp.float32)
    w = 0.42 - 0.5 * jnp.cos(2 * math.pi * k / (m - 1)) + 0.08 * jnp.cos(4 * math.pi * k / (m - 1))
    return w.astype(dt)
