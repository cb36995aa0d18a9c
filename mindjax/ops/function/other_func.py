"""MindSpore's ``mindspore.ops.function.other_func``: device moves and rotary position embedding.

Example:
    >>> import numpy as np
    >>> from mindjax import ops
    >>> x = np.ones((1, 1, 2, 4), np.float32)
    >>> ops.rotary_position_embedding(x, np.ones((1, 1, 2, 4), np.float32), np.zeros((1, 1, 2, 4), np.float32)).shape
    (1, 1, 2, 4)
"""
from __future__ import annotations

from typing import Any

import jax
import jax.numpy as jnp

from mindjax.common.tensor import tensor_op
from mindjax.ops.function._build import _arr, _named, ascend_only

__all__ = ["move_to", "identity", "rotary_position_embedding", "moe_distribute_combine", "moe_distribute_dispatch",
           "moe_init_routing_v2"]

_M = __name__


@tensor_op
@_named("identity")
def identity(x: Any) -> jax.Array:
    """``x`` unchanged (MindSpore's deprecated ``ops.identity``; it names ``side_effect_propagate`` instead)."""
    return _arr(x)


@tensor_op
@_named("move_to")
def move_to(input: Any, to: str = "CPU", blocking: bool = True) -> jax.Array:
    """``input`` placed on the first device of kind ``to`` (``'CPU'``, ``'GPU'``, ``'TPU'``; ``'Ascend'`` is
    not available under XLA)."""
    if to not in ("CPU", "GPU", "TPU", "Ascend"):
        raise ValueError(f"'to' must be 'CPU', 'GPU', 'TPU' or 'Ascend', got {to!r}")
    platform = {"CPU": "cpu", "GPU": "gpu", "TPU": "tpu", "Ascend": "ascend"}[to]
    try:
        device = jax.devices(platform)[0]
    except RuntimeError:
        raise ValueError(f"no {to} device is available; devices: {jax.devices()}") from None
    out = jax.device_put(_arr(input), device)
    if blocking:
        out.block_until_ready()
    return out


@tensor_op
@_named("rotary_position_embedding")
def rotary_position_embedding(x: Any, cos: Any, sin: Any, mode: int = 0) -> jax.Array:
    """Rotary position embedding ``x * cos + rotate(x) * sin``.

    Arguments:
        x: ``(B, N, S, D)`` (or any layout whose last axis is the head dimension, even).
        cos, sin: broadcastable to ``x``.
        mode: 0 rotates halves (``[-x2, x1]``), 1 rotates interleaved pairs (``[-x1, x0, -x3, x2, ...]``).

    Returns:
        an array of ``x``'s shape.
    """
    a, c, s = _arr(x), _arr(cos), _arr(sin)
    if a.shape[-1] % 2:
        raise ValueError(f"the last axis of 'x' must be even, got {a.shape[-1]}")
    if mode == 0:
        x1, x2 = jnp.split(a, 2, axis=-1)
        rotated = jnp.concatenate([-x2, x1], axis=-1)
    elif mode == 1:
        pairs = a.reshape(a.shape[:-1] + (-1, 2))
        rotated = jnp.stack([-pairs[..., 1], pairs[..., 0]], axis=-1).reshape(a.shape)
    else:
        raise ValueError(f"'mode' must be 0 or 1, got {mode!r}")
    return (a * c + rotated * s).astype(a.dtype)


_MOE = "ops.argsort of the expert indices with ops.gather, and ops.unsorted_segment_sum to combine"
moe_distribute_combine = ascend_only("moe_distribute_combine", _MOE, _M)
moe_distribute_dispatch = ascend_only("moe_distribute_dispatch", _MOE, _M)
moe_init_routing_v2 = ascend_only("moe_init_routing_v2", _MOE, _M)
