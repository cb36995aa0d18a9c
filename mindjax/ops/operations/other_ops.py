"""MindSpore's ``mindspore.ops.operations.other_ops``: state, ordering and gradient-cut Primitives.

Example:
    >>> import numpy as np
    >>> from mindjax.ops import operations as P
    >>> P.Depend()(np.ones(2), np.zeros(2)).tolist()
    [1.0, 1.0]
"""
from __future__ import annotations

from typing import Any

import jax

from mindjax.ops.operations._base import Primitive
# Existing Primitives of this family, re-exported under MindSpore's module path.
from mindjax.ops.primitives import Assign, Depend, StopGradient  # noqa: F401


class UpdateState(Primitive):
    """MindSpore's side-effect ordering token: returns its first input (JAX orders by data dependence).
    Call: ``UpdateState()(monad, *exprs)``."""

    _strategy_inputs = None

    def __init__(self) -> None:
        super().__init__()

    def __call__(self, monad: Any, *exprs: Any) -> Any:
        return monad


class MoveTo(Primitive):
    """Place a tensor on a device kind. Call: ``MoveTo()(x, to, blocking)``."""

    def __init__(self) -> None:
        super().__init__()

    def __call__(self, x: Any, to: str = "CPU", blocking: bool = True) -> jax.Array:
        from mindjax.ops.function.other_func import move_to

        return move_to(x, to, blocking)
