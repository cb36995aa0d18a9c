"""MindSpore's ``mindspore.ops.function.sparse_unary_func``: element-wise ops on the values of sparse tensors.

``coo_<op>(x)`` and ``csr_<op>(x)`` apply ``ops.<op>`` to the stored values of a COOTensor or
a CSRTensor and keep its structure (so ``coo_exp`` leaves the absent entries out, as
MindSpore does). They trace under ``jit``, and gradients reach the values.

Example:
    >>> import mindjax as ms
    >>> from mindjax import ops
    >>> x = ms.COOTensor(ms.Tensor([[0, 1], [1, 2]]), ms.Tensor([-1.0, 2.0]), (3, 4))
    >>> ops.coo_relu(x).values.asnumpy().tolist()
    [0.0, 2.0]
"""
from __future__ import annotations

import inspect
from typing import Any, Callable

from mindjax.common.sparse_tensor import COOTensor, CSRTensor
from mindjax.common.tensor import as_array, tensor_op
from mindjax.ops.function import math_func as _math, nn_func as _nn
from mindjax.ops.function._build import _named

# MindSpore's value ops, and what each computes (for the docstrings).
_UNARY = {
    "abs": "the absolute value", "acos": "the arccosine", "acosh": "the inverse hyperbolic cosine",
    "asin": "the arcsine", "asinh": "the inverse hyperbolic sine", "atan": "the arctangent",
    "atanh": "the inverse hyperbolic tangent", "ceil": "the ceiling", "cos": "the cosine",
    "cosh": "the hyperbolic cosine", "exp": "the exponential", "expm1": "``exp(x) - 1``",
    "floor": "the floor", "inv": "the reciprocal", "isfinite": "whether finite (bool)",
    "isinf": "whether infinite (bool)", "isnan": "whether NaN (bool)", "log": "the natural logarithm",
    "log1p": "``log(1 + x)``", "neg": "the negation", "relu": "``max(x, 0)``", "relu6": "``min(max(x, 0), 6)``",
    "round": "the value rounded half to even", "sigmoid": "the logistic sigmoid", "sin": "the sine",
    "sinh": "the hyperbolic sine", "softsign": "``x / (1 + |x|)``", "sqrt": "the square root",
    "square": "the square", "tan": "the tangent", "tanh": "the hyperbolic tangent",
}
_NN = ("relu", "relu6", "sigmoid", "softsign")


def _value_op(name: str) -> Callable[..., Any]:
    return getattr(_nn if name in _NN else _math, name)


def _make(kind: str, op: str) -> Callable[..., Any]:
    cls = COOTensor if kind == "coo" else CSRTensor
    fn = _value_op(op)
    name = f"{kind}_{op}"

    @tensor_op
    @_named(name)
    def apply(x: Any) -> Any:
        if not isinstance(x, cls):
            raise TypeError(f"'x' must be a {cls.__name__}, got {type(x).__name__}")
        values = fn(as_array(x.values))
        if kind == "coo":
            return COOTensor(as_array(x.indices), values, x.shape)
        return CSRTensor(as_array(x.indptr), as_array(x.indices), values, x.shape)

    apply.__name__ = apply.__qualname__ = name
    apply.__module__ = __name__
    apply.__doc__ = (f"{_UNARY[op][0].upper() + _UNARY[op][1:]} of each stored value of a {cls.__name__}.\n\n"
                     f"    Arguments:\n        x: a {cls.__name__}.\n\n"
                     f"    Returns:\n        a {cls.__name__} of ``x``'s structure holding ``ops.{op}(x.values)``.\n\n"
                     f"    Raises:\n        TypeError: ``x`` is not a {cls.__name__}.\n")
    apply.__signature__ = inspect.Signature(  # type: ignore[attr-defined]
        [inspect.Parameter("x", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=cls)], return_annotation=cls)
    return apply


__all__ = sorted(f"{kind}_{op}" for kind in ("coo", "csr") for op in _UNARY)
globals().update({f"{kind}_{op}": _make(kind, op) for kind in ("coo", "csr") for op in _UNARY})
