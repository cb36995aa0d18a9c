"""Outputs of a compiled program that are not arrays: strings, slices, types, Parameter names.

MindSpore's graph mode returns such constants from a compiled function
(``grad(..., return_ids=True)`` pairs gradients with Parameter names, a
network may return ``(loss, "label")``). ``jax.jit`` only returns arrays, so
:func:`box_static` puts every other leaf into a pytree node that carries it as
static data: it leaves the program in the output's tree structure, costs
nothing at run time, and :func:`unbox_static` takes it out again.

Example:
    >>> import jax
    >>> f = jax.jit(lambda x: box_static((x * 2, "label")))
    >>> out = unbox_static(f(1.0))
    >>> float(out[0]), out[1]
    (2.0, 'label')
"""
from __future__ import annotations

from typing import Any

import jax
import numpy as np

# Leaves that leave the program as arrays. Python numbers stay Python numbers, as in MindSpore's
# graph mode (a position in return_ids is an int).
_JAX_OUTPUT_TYPES = (jax.Array, np.ndarray, np.generic)


class _Static:
    """One non-array output leaf, carried in the tree structure."""

    __slots__ = ("value",)

    def __init__(self, value: Any) -> None:
        self.value = value


jax.tree_util.register_pytree_node(_Static, lambda s: ((), s.value), lambda value, _: _Static(value))


def _is_boxed(x: Any) -> bool:
    return isinstance(x, _Static)


def box_static(out: Any) -> Any:
    """``out`` with every leaf that is not an array wrapped as static data.

    Arguments:
        out: a compiled function's output (inside the trace).

    Returns:
        the same structure; arrays and Tensors are unchanged.
    """
    leaves = jax.tree_util.tree_leaves(out)
    if all(isinstance(leaf, _JAX_OUTPUT_TYPES) for leaf in leaves):
        return out
    return jax.tree_util.tree_map(lambda x: x if isinstance(x, _JAX_OUTPUT_TYPES) else _Static(x), out)


def unbox_static(out: Any) -> Any:
    """The inverse of :func:`box_static`, applied to the program's result."""
    if isinstance(out, jax.Array):  # the common case, on every call of a compiled program
        return out
    if not any(_is_boxed(x) for x in jax.tree_util.tree_leaves(out, is_leaf=_is_boxed)):
        return out
    return jax.tree_util.tree_map(lambda x: x.value if _is_boxed(x) else x, out, is_leaf=_is_boxed)
