"""Primitives and constants that model-zoo packages import at their top level: ``ops.Reciprocal``
and ``ops.ReduceOp``.

(They belong in ``ops/operations/math_ops.py`` and ``comm_ops.py`` once the ops
package is split by MindSpore's modules.)

Example:
    >>> import numpy as np
    >>> from mindjax import ops
    >>> ops.Reciprocal()(np.array([2.0, 4.0], np.float32)).tolist()
    [0.5, 0.25]
"""
from __future__ import annotations

from typing import Any

from mindjax.ops.functional_math import reciprocal
from mindjax.ops.primitives import Primitive

__all__ = ["Reciprocal", "ReduceOp"]


class Reciprocal(Primitive):
    """``1 / input``; integer inputs give float32, as in MindSpore.

    Call: ``Reciprocal()(x)`` -> array.
    """

    def __call__(self, x: Any) -> Any:
        return reciprocal(x)


class ReduceOp:
    """The reductions of MindSpore's collectives (``ops.AllReduce(op=ReduceOp.SUM)``).

    Attributes:
        SUM, MAX, MIN, PROD, AVG: ``'sum'``, ``'max'``, ``'min'``, ``'prod'``, ``'avg'``.
    """

    SUM = "sum"
    MAX = "max"
    MIN = "min"
    PROD = "prod"
    AVG = "avg"
