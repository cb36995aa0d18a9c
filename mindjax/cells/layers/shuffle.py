"""Rearranging layers: ``PixelShuffle``, ``PixelUnshuffle``, ``ChannelShuffle`` and ``Roll``;
each calls its op.

Example:
    >>> import numpy as np
    >>> from mindjax import nn
    >>> nn.PixelShuffle(2)(np.zeros((1, 4, 3, 3), np.float32)).shape
    (1, 1, 6, 6)
"""
from __future__ import annotations

from typing import Any

import jax

from mindjax.cells.cell import Cell
from mindjax.ops.function.nn_func import channel_shuffle, pixel_shuffle, pixel_unshuffle
from mindjax.ops.functional import roll

__all__ = ["PixelShuffle", "PixelUnshuffle", "ChannelShuffle", "Roll"]


def _positive(where: str, name: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ValueError(f"For '{where}', '{name}' must be a positive int, got {value!r}")
    return value


class PixelShuffle(Cell):
    """``(*, C * r ** 2, H, W)`` -> ``(*, C, H * r, W * r)``.

    Arguments:
        upscale_factor: ``r``.
    """

    def __init__(self, upscale_factor: int) -> None:
        super().__init__()
        self.upscale_factor = _positive("PixelShuffle", "upscale_factor", upscale_factor)

    def construct(self, input: Any) -> jax.Array:  # noqa: A002 - MindSpore's name
        return pixel_shuffle(input, self.upscale_factor)


class PixelUnshuffle(Cell):
    """``(*, C, H * r, W * r)`` -> ``(*, C * r ** 2, H, W)``.

    Arguments:
        downscale_factor: ``r``.
    """

    def __init__(self, downscale_factor: int) -> None:
        super().__init__()
        self.downscale_factor = _positive("PixelUnshuffle", "downscale_factor", downscale_factor)

    def construct(self, input: Any) -> jax.Array:  # noqa: A002
        return pixel_unshuffle(input, self.downscale_factor)


class ChannelShuffle(Cell):
    """Interleave the channels of ``(N, C, *)`` from ``groups`` groups.

    Arguments:
        groups: the number of groups; must divide ``C``.
    """

    def __init__(self, groups: int) -> None:
        super().__init__()
        self.groups = _positive("ChannelShuffle", "groups", groups)

    def construct(self, x: Any) -> jax.Array:
        return channel_shuffle(x, self.groups)


class Roll(Cell):
    """Roll elements along ``axis`` by ``shift`` (ints or matching tuples).

    Arguments:
        shift: the shift(s).
        axis: the axis or axes.
    """

    def __init__(self, shift: Any, axis: Any) -> None:
        super().__init__()
        shifts = (shift,) if isinstance(shift, int) else tuple(shift)
        axes = (axis,) if isinstance(axis, int) else tuple(axis)
        if len(shifts) != len(axes):
            raise ValueError(f"For 'Roll', 'shift' and 'axis' must have the same length, got {shift!r} and {axis!r}")
        self.shift, self.axis = shifts, axes

    def construct(self, input_x: Any) -> jax.Array:
        return roll(input_x, self.shift, self.axis)
