"""Channel dropout for 1-D and 3-D inputs (``Dropout1d``, ``Dropout3d``) and ``RReLU``.

Example:
    >>> import numpy as np
    >>> from mindjax import nn
    >>> layer = nn.Dropout1d(0.5).set_train(False)
    >>> layer(np.ones((2, 3, 4), np.float32)).sum().item()
    24.0
"""
from __future__ import annotations

from typing import Any

import jax

from mindjax.cells.cell import Cell
from mindjax.common.tensor import as_array as _arr
from mindjax.ops.function import nn_func as _nn

__all__ = ["Dropout1d", "Dropout3d", "RReLU"]


def _probability(where: str, p: Any) -> float:
    """MindSpore's check of a channel-dropout Cell's ``p``: a float in ``[0, 1]``."""
    if isinstance(p, bool) or not isinstance(p, float):
        raise TypeError(f"For '{where}', the type of 'p' should be 'float', but got type '{type(p).__name__}'.")
    if not 0 <= p <= 1:
        raise ValueError(f"For '{where}', the 'p' must be a number in range [0, 1], but got {p}.")
    return p


class Dropout1d(Cell):
    """In training, zero whole channels of ``(N, C, L)`` or ``(C, L)`` with probability ``p``."""

    def __init__(self, p: float = 0.5) -> None:
        super().__init__()
        self.p = _probability("Dropout1d", p)

    def construct(self, x: Any) -> jax.Array:
        return _nn.dropout1d(x, self.p, self.training)


class Dropout3d(Cell):
    """In training, zero whole channels of ``(N, C, D, H, W)`` with probability ``p``."""

    def __init__(self, p: float = 0.5) -> None:
        super().__init__()
        self.p = _probability("Dropout3d", p)

    def construct(self, x: Any) -> jax.Array:
        return _nn.dropout3d(x, self.p, self.training)


class RReLU(Cell):
    """Randomised leaky ReLU: in training, negative slopes drawn from ``U(lower, upper)``; in evaluation the
    slope is ``(lower + upper) / 2``."""

    def __init__(self, lower: float = 1 / 8, upper: float = 1 / 3) -> None:
        super().__init__()
        if not isinstance(lower, (int, float)) or not isinstance(upper, (int, float)) or lower > upper:
            raise ValueError(f"For 'RReLU', 'lower' and 'upper' must be numbers with lower <= upper, got "
                             f"{lower!r} and {upper!r}")
        self.lower, self.upper = float(lower), float(upper)

    def construct(self, x: Any) -> jax.Array:
        if self.training:
            return _nn.rrelu(x, self.lower, self.upper)
        a = _arr(x)
        return jax.numpy.where(a >= 0, a, a * (self.lower + self.upper) / 2)
