"""A reverse-differentiable while loop, shared by graph-mode ``while`` and the ``WhileLoop`` Primitive.

``lax.while_loop`` has no reverse-mode rule. A loop that carries floating values runs as Equinox's
checkpointed while loop (online treeverse, ``CHECKPOINTS`` saved states, recomputation in the
backward pass): the same forward values, exact gradients, memory bounded by the checkpoints.
Integer-only loops use ``lax.while_loop``.

Example:
    >>> import jax.numpy as jnp
    >>> float(differentiable_while_loop(lambda c: c[0] < 3, lambda c: (c[0] + 1, c[1] * 2.0),
    ...                                 (jnp.int32(0), jnp.float32(1.0)))[1])
    8.0
"""
from __future__ import annotations

from typing import Any, Callable

import jax
import jax.numpy as jnp

__all__ = ["CHECKPOINTS", "differentiable_while_loop"]

CHECKPOINTS = 16   # treeverse checkpoints of a differentiable while loop


def differentiable_while_loop(cond_fun: Callable[[Any], Any], body_fun: Callable[[Any], Any],
                              init: tuple[Any, ...]) -> tuple[Any, ...]:
    """``lax.while_loop(cond_fun, body_fun, init)``, reverse-differentiable when ``init`` holds floats.

    Arguments:
        cond_fun: carry -> a boolean scalar.
        body_fun: carry -> the next carry (same structure, shapes and dtypes).
        init: the initial carry, a tuple of arrays.

    Returns:
        the final carry.
    """
    if not any(jnp.issubdtype(jnp.asarray(x).dtype, jnp.inexact) for x in init):
        return jax.lax.while_loop(cond_fun, body_fun, init)
    try:
        import equinox.internal as eqxi  # reverse mode through a while: online treeverse checkpoints
    except ImportError:  # forward still works; jax.grad then raises its own clear error
        return jax.lax.while_loop(cond_fun, body_fun, init)
    return eqxi.while_loop(cond_fun, body_fun, init, kind="checkpointed", checkpoints=CHECKPOINTS)
