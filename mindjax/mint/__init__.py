"""``mindspore.mint``: MindSpore's PyTorch-style functional API.

The functions here are the ``mindjax.ops`` functions whose arguments already match
``mint``'s (names, order, defaults); the one-input element-wise ones take ``input`` as
``mint`` calls it, and the ones that differ only in names (``dim``/``keepdim`` for
``axis``/``keep_dims`` ...) take mint's names. ``mint.nn``, ``mint.nn.functional`` and ``mint.optim`` follow the
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
import inspect
from typing import Any, Callable

from mindjax import ops as _ops
from mindjax.mint import nn, optim
from mindjax.ops import (addmm, arange, argmax, baddbmm, bincount, broadcast_to, ceil, cos, dot, einsum, erf, eye,
                         flip, floor, floor_divide, full, full_like, greater, histc, logical_and, logical_or, logsumexp,
                         lt, masked_select, matmul, maximum, minimum, mm, nonzero, not_equal, ones_like, outer, pow,
                         reciprocal, remainder, roll, round, rsqrt, searchsorted, sign, sin, sum, tile, topk, trace,
                         tril, triu, unsqueeze, zeros, zeros_like)


def _input_named(fn: Callable[[Any], Any], name: str) -> Callable[..., Any]:
    """``fn`` (one positional input) callable as ``fn(input)`` or ``fn(input=...)``, as ``mint`` names it."""

    @functools.wraps(fn)
    def call(input: Any) -> Any:  # noqa: A002 - mint's argument name
        return fn(input)
    call.__name__ = call.__qualname__ = name
    call.__doc__ = f"``mint.{name}(input)``: :func:`mindjax.ops.{fn.__name__}` of ``input``."
    return call


def _mint_signature(name: str, fn: Callable[..., Any], params: tuple[tuple[str, Any], ...],
                    rename: dict[str, str | None]) -> Callable[..., Any]:
    """``fn`` (a ``mindjax.ops`` function) under ``mint``'s argument names: ``params`` are mint's
    ``(name, default)`` pairs (``_REQUIRED`` for none), ``rename`` maps them to ``fn``'s (``None`` drops one)."""
    signature = inspect.Signature([inspect.Parameter(p, inspect.Parameter.POSITIONAL_OR_KEYWORD,
                                                     default=inspect.Parameter.empty if d is _REQUIRED else d)
                                   for p, d in params])

    def call(*args: Any, **kwargs: Any) -> Any:
        try:
            bound = signature.bind(*args, **kwargs)
        except TypeError as exc:
            raise TypeError(f"For 'mint.{name}', {exc}; the signature is {name}{signature}") from None
        bound.apply_defaults()
        kw = {rename.get(k, k): v for k, v in bound.arguments.items() if rename.get(k, k) is not None}
        return fn(**kw)

    call.__name__ = call.__qualname__ = name
    call.__signature__ = signature  # type: ignore[attr-defined]
    call.__doc__ = f"``mint.{name}{signature}``: :func:`mindjax.ops.{fn.__name__}` under mint's argument names."
    return call


_REQUIRED = object()
_DIM = {"dim": "axis", "keepdim": "keep_dims"}
_RENAMED: dict[str, tuple[Callable[..., Any], tuple[tuple[str, Any], ...], dict[str, str | None]]] = {
    "mean": (_ops.mean, (("input", _REQUIRED), ("dim", None), ("keepdim", False)), {"input": "x", **_DIM}),
    "prod": (_ops.prod, (("input", _REQUIRED), ("dim", None), ("keepdim", False), ("dtype", None)), _DIM),
    "all": (_ops.all, (("input", _REQUIRED), ("dim", None), ("keepdim", False)), _DIM),
    "cat": (_ops.cat, (("tensors", _REQUIRED), ("dim", 0)), {"dim": "axis"}),
    "concat": (_ops.concat, (("tensors", _REQUIRED), ("dim", 0)), {"dim": "axis"}),
    "stack": (_ops.stack, (("tensors", _REQUIRED), ("dim", 0)), {"dim": "axis"}),
    "permute": (_ops.permute, (("input", _REQUIRED), ("dims", _REQUIRED)), {"dims": "axis"}),
    "softmax": (_ops.softmax, (("input", _REQUIRED), ("dim", _REQUIRED), ("dtype", None)), {"dim": "axis"}),
    "split": (_ops.split, (("tensor", _REQUIRED), ("split_size_or_sections", _REQUIRED), ("dim", 0)),
              {"dim": "axis"}),
    "chunk": (_ops.chunk, (("input", _REQUIRED), ("chunks", _REQUIRED), ("dim", 0)), {"dim": "axis"}),
    "narrow": (_ops.narrow, (("input", _REQUIRED), ("dim", _REQUIRED), ("start", _REQUIRED), ("length", _REQUIRED)),
               {"dim": "axis"}),
    "argmin": (_ops.argmin, (("input", _REQUIRED), ("dim", None), ("keepdim", False)),
               {"dim": "axis", "keepdim": "keepdims"}),
    "argsort": (_ops.argsort, (("input", _REQUIRED), ("dim", -1), ("descending", False), ("stable", False)),
                {"dim": "axis", "stable": None}),  # the sort is stable either way
    "cumsum": (_ops.cumsum, (("input", _REQUIRED), ("dim", _REQUIRED), ("dtype", None)), {"input": "x", "dim": "axis"}),
}
for _name, (_fn, _params, _rename) in _RENAMED.items():
    globals()[_name] = _mint_signature(_name, _fn, _params, _rename)
del _fn, _params, _rename

_UNARY = ("abs", "exp", "log", "sqrt", "square", "neg", "tanh", "sigmoid", "logical_not", "isfinite", "isnan")
for _name in _UNARY:
    globals()[_name] = _input_named(getattr(_ops, _name), _name)
del _name

__all__ = sorted([
    "addmm", "arange", "argmax", "baddbmm", "bincount", "broadcast_to", "ceil", "cos", "dot", "einsum", "erf", "eye",
    "flip", "floor", "floor_divide", "full", "full_like", "greater", "histc", "logical_and", "logical_or",
    "logsumexp", "lt", "masked_select", "matmul", "maximum", "minimum", "mm", "nonzero", "not_equal", "ones_like",
    "outer", "pow", "reciprocal", "remainder", "roll", "round", "rsqrt", "searchsorted", "sign", "sin", "sum", "tile",
    "topk", "trace", "tril", "triu", "unsqueeze", "zeros", "zeros_like", *_UNARY, *_RENAMED])
