"""``mindspore.mint``: MindSpore's PyTorch-style functional API.

The functions here are the ``mindjax.ops`` functions whose arguments already match
``mint``'s (names, order, defaults); the one-input element-wise ones take ``input`` as
``mint`` calls it. ``mint.nn``, ``mint.nn.functional`` and ``mint.optim`` follow the
same rule. Names of ``mindspore.mint`` whose arguments differ from the ``ops`` ones
(``mint.mean(input, dim, keepdim)`` against ``ops.mean(x, axis, keep_dims)`` ...) are
not here yet.

Example:
    >>> from mindjax import mint
    >>> mint.roll(mint.arange(4), 1).tolist()
    [3, 0, 1, 2]
"""
from __future__ import annotations

import functools
from typing import Any, Callable

from mindjax import ops as _ops
from mindjax.mint import nn, optim
from mindjax.ops import (addmm, arange, argmax, baddbmm, bincount, broadcast_to, ceil, cos, dot, einsum, erf, eye,
                         flip, floor, floor_divide, full, full_like, greater, histc, logical_and, logical_or, logsumexp,
                         lt, masked_select, matmul, maximum, minimum, mm, nonzero, not_equal, ones_like, outer, pow,
                         reciprocal, remainder, roll, round, rsqrt, searchsorted, sign, sin, sum, tile, topk, trace, tril,
                         triu, unsqueeze, zeros, zeros_like)


def _input_named(fn: Callable[[Any], Any], name: str) -> Callable[..., Any]:
    """``fn`` (one positional input) callable as ``fn(input)`` or ``fn(input=...)``, as ``mint`` names it."""

    @functools.wraps(fn)
    def call(input: Any) -> Any:  # noqa: A002 - mint's argument name
        return fn(input)
    call.__name__ = call.__qualname__ = name
    call.__doc__ = f"``mint.{name}(input)``: :func:`mindjax.ops.{fn.__name__}` of ``input``."
    return call


_UNARY = ("abs", "exp", "log", "sqrt", "square", "neg", "tanh", "sigmoid", "logical_not", "isfinite", "isnan")
for _name in _UNARY:
    globals()[_name] = _input_named(getattr(_ops, _name), _name)
del _name

__all__ = sorted([
    "addmm", "arange", "argmax", "baddbmm", "bincount", "broadcast_to", "ceil", "cos", "dot", "einsum", "erf", "eye",
    "flip", "floor", "floor_divide", "full", "full_like", "greater", "histc", "logical_and", "logical_or",
    "logsumexp", "lt", "masked_select", "matmul", "maximum", "minimum", "mm", "nonzero", "not_equal", "ones_like",
    "outer", "pow", "reciprocal", "remainder", "roll", "round", "rsqrt", "searchsorted", "sign", "sin", "sum", "tile",
    "topk", "trace", "tril", "triu", "unsqueeze", "zeros", "zeros_like", *_UNARY])
