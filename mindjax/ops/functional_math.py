"""More of MindSpore's ``mindspore.ops``: elementwise math, comparisons, reductions,
statistics and small linear-algebra ops, with MindSpore 2.10's names, argument
names, defaults and numerics.

Every op accepts ``jax.Array``s, numpy arrays, Python scalars and Parameters,
returns ``jax.Array``s and traces under ``jax.jit`` (axis-like arguments must be
static Python values). Where MindSpore's CPU kernels refuse integer inputs
(``cos``, ``erf``, ``std`` ...), these ops promote them to float32 instead.

Example:
    >>> import numpy as np
    >>> from mindjax import ops
    >>> ops.remainder(np.array([-7, 3]), 2).tolist()
    [1, 1]
"""
from __future__ import annotations

import math
from typing import Any, Callable

import jax
import jax.numpy as jnp
import numpy as np

from mindjax.common.precision import amp_op
from mindjax.common.dtype import to_jax_dtype
from mindjax.common.tensor import tensor_op
from mindjax.ops.functional import _arr, _axes, _axis, _named

__all__ = [
    # elementwise
    "cos", "sin", "ceil", "floor", "round", "trunc", "sign", "erf", "reciprocal",
    "remainder", "fmod", "floor_div", "floor_divide",
    # comparison
    "ge", "gt", "le", "lt", "ne",
    # reductions and statistics
    "all", "any", "logsumexp", "std", "var", "reduce_mean", "reduce_sum", "count_nonzero",
    # linear algebra and distances
    "addmm", "baddbmm", "outer", "inner", "ger", "cdist", "cosine_similarity",
]

# --- helpers ---------------------------------------------------------------------------

def _operand(x: Any) -> Any:
    # Python scalars stay weakly typed so that ``int8_tensor + 2`` keeps int8, as in MindSpore.
    if isinstance(x, (bool, int, float)) and not isinstance(x, np.generic):
        return x
    return _arr(x)


def _float(x: jax.Array) -> jax.Array:
    return x if jnp.issubdtype(x.dtype, jnp.inexact) else x.astype(jnp.float32)


def _unary(name: str, fn: Callable[[jax.Array], jax.Array], doc: str,
           to_float: bool = False) -> Callable[[Any], jax.Array]:
    @_named(name)
    def op(input: Any) -> jax.Array:
        x = _arr(input)
        return fn(_float(x) if to_float else x)
    op.__name__ = op.__qualname__ = name
    op.__module__ = __name__
    op.__doc__ = (f"{doc}.\n\n    Arguments:\n        input: an array.\n\n    Returns:\n"
                  f"        the elementwise result.\n")
    return tensor_op(op)


def _binary(name: str, fn: Callable[[Any, Any], jax.Array], doc: str,
            names: tuple[str, str] = ("input", "other")) -> Callable[[Any, Any], jax.Array]:
    a_name, b_name = names

    @_named(name)
    def op(*args: Any, **kwargs: Any) -> jax.Array:
        a, b = _bind(name, (a_name, b_name), args, kwargs)
        return fn(_operand(a), _operand(b))
    op.__name__ = op.__qualname__ = name
    op.__module__ = __name__
    op.__doc__ = (f"{doc}, with broadcasting.\n\n    Arguments:\n        {a_name}, {b_name}: arrays or "
                  f"scalars.\n\n    Returns:\n        the elementwise result.\n")
    return tensor_op(op)


def _bind(op: str, names: tuple[str, str], args: tuple[Any, ...], kwargs: dict[str, Any]) -> tuple[Any, Any]:
    # Binds MindSpore's two positional-or-keyword arguments by their MindSpore names.
    if len(args) > 2:
        raise TypeError(f"takes 2 arguments, got {len(args)}")
    values = dict(zip(names, args))
    for key, value in kwargs.items():
        if key not in names or key in values:
            raise TypeError(f"got an unexpected or repeated argument '{key}'")
        values[key] = value
    missing = [n for n in names if n not in values]
    if missing:
        raise TypeError(f"missing argument '{missing[0]}'")
    return values[names[0]], values[names[1]]


def _reduce_axes(op: str, axis: Any, ndim: int, name: str = "axis") -> tuple[int, ...] | None:
    """MindSpore reductions read ``None`` and ``()`` both as "every axis"."""
    if axis is None or (isinstance(axis, (tuple, list)) and len(axis) == 0):
        return None
    return _axes(op, axis, ndim, name)


def _check_bool(name: str, value: Any) -> None:
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"'{name}' must be a bool, got {type(value).__name__}")


def _check_number(name: str, value: Any) -> None:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"'{name}' must be an int or float, got {type(value).__name__}")


def _floor_div(a: Any, b: Any) -> jax.Array:
    return jnp.floor_divide(a, b)


def _trunc_div(a: Any, b: Any) -> jax.Array:
    if jnp.issubdtype(jnp.result_type(a, b), jnp.integer):
        q = jnp.floor_divide(a, b)
        # floor and trunc differ where the signs differ and the division is inexact.
        return jnp.where((jnp.remainder(a, b) != 0) & ((a < 0) != (b < 0)), q + 1, q)
    return jnp.trunc(jnp.true_divide(a, b))


# --- elementwise -----------------------------------------------------------------------

cos = _unary("cos", jnp.cos, "Cosine", to_float=True)
sin = _unary("sin", jnp.sin, "Sine", to_float=True)
ceil = _unary("ceil", jnp.ceil, "Smallest integer not below the input (integers stay as they are)")
floor = _unary("floor", jnp.floor, "Largest integer not above the input (integers stay as they are)")
trunc = _unary("trunc", jnp.trunc, "Rounds toward zero (integers stay as they are)")
sign = _unary("sign", jnp.sign, "-1, 0 or 1 by the sign of the input")
erf = _unary("erf", jax.scipy.special.erf, "Gauss error function", to_float=True)


@tensor_op
@amp_op("Reciprocal")
@_named("reciprocal")
def reciprocal(input: Any) -> jax.Array:
    """``1 / input``; integer inputs give float32, as in MindSpore.

    Arguments:
        input: an array.

    Returns:
        the elementwise reciprocal.
    """
    return jnp.reciprocal(_float(_arr(input)))


@tensor_op
@_named("round")
def round(input: Any, *, decimals: int = 0) -> jax.Array:  # noqa: A001 - MindSpore's name
    """Rounds half to even, to ``decimals`` decimal places.

    Arguments:
        input: an array.
        decimals: number of decimal places (keyword only); default 0.

    Returns:
        the rounded array, same dtype as ``input``.
    """
    if isinstance(decimals, bool) or not isinstance(decimals, (int, np.integer)):
        raise TypeError(f"'decimals' must be an int, got {type(decimals).__name__}")
    return jnp.round(_arr(input), int(decimals))


remainder = _binary("remainder", lambda a, b: a - _floor_div(a, b) * b,
                    "``input - floor_div(input, other) * other`` (sign follows ``other``)")
floor_divide = _binary("floor_divide", _floor_div, "``floor(input / other)``")
floor_div = _binary("floor_div", _floor_div, "``floor(x / y)``", names=("x", "y"))


@tensor_op
@_named("fmod")
def fmod(input: Any, other: Any) -> jax.Array:
    """``input - trunc(input / other) * other`` (sign follows ``input``), with broadcasting.

    Arguments:
        input, other: arrays or scalars; at least one must be an array.

    Returns:
        the elementwise remainder.
    """
    a, b = _operand(input), _operand(other)
    if not isinstance(a, jax.Array) and not isinstance(b, jax.Array):
        raise TypeError(f"at least one of 'input' and 'other' must be a Tensor, got "
                        f"{type(input).__name__} and {type(other).__name__}")
    return a - _trunc_div(a, b) * b


# --- comparison ------------------------------------------------------------------------

ge = _binary("ge", jnp.greater_equal, "``input >= other``")
gt = _binary("gt", jnp.greater, "``input > other``")
le = _binary("le", jnp.less_equal, "``input <= other``")
lt = _binary("lt", jnp.less, "``input < other`` (alias of ``less``)")
ne = _binary("ne", jnp.not_equal, "``input != other``")


# --- reductions and statistics ---------------------------------------------------------

@tensor_op
@_named("all")
def all(input: Any, axis: Any = None, keep_dims: bool = False) -> jax.Array:  # noqa: A001
    """True where every element along ``axis`` is nonzero.

    Arguments:
        input: an array.
        axis: an int, a tuple of ints, or None / ``()`` for every axis.
        keep_dims: keep reduced axes with size 1.

    Returns:
        a bool array.
    """
    x = _arr(input)
    _check_bool("keep_dims", keep_dims)
    return jnp.all(x, axis=_reduce_axes("all", axis, x.ndim), keepdims=bool(keep_dims))


@tensor_op
@_named("any")
def any(input: Any, axis: Any = None, keep_dims: bool = False) -> jax.Array:  # noqa: A001
    """True where some element along ``axis`` is nonzero.

    Arguments:
        input: an array.
        axis: an int, a tuple of ints, or None / ``()`` for every axis.
        keep_dims: keep reduced axes with size 1.

    Returns:
        a bool array.
    """
    x = _arr(input)
    _check_bool("keep_dims", keep_dims)
    return jnp.any(x, axis=_reduce_axes("any", axis, x.ndim), keepdims=bool(keep_dims))


@tensor_op
@_named("logsumexp")
def logsumexp(input: Any, dim: Any, keepdim: bool = False) -> jax.Array:
    """``log(sum(exp(input), dim))``, computed stably by shifting by the maximum.

    Arguments:
        input: an array.
        dim: an int or a tuple of ints to reduce.
        keepdim: keep reduced axes with size 1.

    Returns:
        the reduced array.
    """
    x = _float(_arr(input))
    _check_bool("keepdim", keepdim)
    axes = _reduce_axes("logsumexp", dim, x.ndim, "dim")
    peak = jax.lax.stop_gradient(jnp.max(x, axis=axes, keepdims=True))
    # An all -inf slice would give inf - inf; shift by 0 there instead.
    peak = jnp.where(jnp.isfinite(peak), peak, 0)
    out = jnp.log(jnp.sum(jnp.exp(x - peak), axis=axes, keepdims=keepdim))
    return out + (peak if keepdim else jnp.squeeze(peak, axes))


def _moments(op: str, input: Any, axis: Any, ddof: Any, keepdims: Any) -> jax.Array:
    if isinstance(ddof, bool):
        ddof = int(ddof)
    elif not isinstance(ddof, (int, np.integer)):
        raise TypeError(f"'ddof' must be an int or a bool, got {type(ddof).__name__}")
    _check_bool("keepdims", keepdims)
    x = _float(_arr(input))
    axes = _reduce_axes(op, axis, x.ndim)
    count = math.prod(x.shape if axes is None else [x.shape[a] for a in axes])
    dev = x - jnp.mean(x, axis=axes, keepdims=True)
    # MindSpore divides by ``N - ddof`` as is: ddof >= N gives inf (or a negative), not jnp.var's NaN.
    return jnp.sum(dev * dev, axis=axes, keepdims=bool(keepdims)) / jnp.asarray(count - int(ddof), x.dtype)


@tensor_op
@_named("var")
def var(input: Any, axis: Any = None, ddof: int | bool = 0, keepdims: bool = False) -> jax.Array:
    """Variance over ``axis``: ``sum((x - mean)**2) / (N - ddof)``.

    Arguments:
        input: an array.
        axis: an int, a tuple of ints, or None for every axis.
        ddof: delta degrees of freedom; ``True`` means 1 (Bessel's correction).
        keepdims: keep reduced axes with size 1.

    Returns:
        the variance.
    """
    return _moments("var", input, axis, ddof, keepdims)


@tensor_op
@_named("std")
def std(input: Any, axis: Any = None, ddof: int | bool = 0, keepdims: bool = False) -> jax.Array:
    """Standard deviation over ``axis``: the square root of :func:`var`.

    Arguments:
        input: an array.
        axis: an int, a tuple of ints, or None for every axis.
        ddof: delta degrees of freedom; ``True`` means 1 (Bessel's correction).
        keepdims: keep reduced axes with size 1.

    Returns:
        the standard deviation.
    """
    return jnp.sqrt(_moments("std", input, axis, ddof, keepdims))


@tensor_op
@_named("reduce_mean")
def reduce_mean(x: Any, axis: Any = ()) -> jax.Array:
    """Mean over ``axis`` (MindSpore's ``ReduceMean()`` instance, ``keep_dims=False``).

    Arguments:
        x: an array.
        axis: an int, a tuple of ints, or ``()`` for every axis.

    Returns:
        the reduced array.
    """
    a = _arr(x)
    return jnp.mean(a, axis=_reduce_axes("reduce_mean", axis, a.ndim)).astype(a.dtype)


@tensor_op
@_named("reduce_sum")
def reduce_sum(x: Any, axis: Any = ()) -> jax.Array:
    """Sum over ``axis`` (MindSpore's ``ReduceSum()`` instance, ``keep_dims=False``).

    Arguments:
        x: an array.
        axis: an int, a tuple of ints, or ``()`` for every axis.

    Returns:
        the reduced array, same dtype as ``x``.
    """
    a = _arr(x)
    return jnp.sum(a, axis=_reduce_axes("reduce_sum", axis, a.ndim), dtype=a.dtype)


@tensor_op
@_named("count_nonzero")
def count_nonzero(x: Any, axis: Any = (), keep_dims: bool = False, dtype: Any = None) -> jax.Array:
    """Number of nonzero elements along ``axis``.

    Arguments:
        x: an array.
        axis: an int, a tuple of ints, or ``()`` for every axis.
        keep_dims: keep reduced axes with size 1.
        dtype: dtype of the result; default int32 (MindSpore's ``mstype.int32``).

    Returns:
        the counts.
    """
    a = _arr(x)
    _check_bool("keep_dims", keep_dims)
    out_dtype = jnp.int32 if dtype is None else to_jax_dtype(dtype)
    counts = jnp.sum(a != 0, axis=_reduce_axes("count_nonzero", axis, a.ndim), keepdims=bool(keep_dims))
    return counts.astype(out_dtype)


# --- linear algebra and distances ------------------------------------------------------

@tensor_op
@_named("addmm")
def addmm(input: Any, mat1: Any, mat2: Any, *, beta: int | float = 1, alpha: int | float = 1) -> jax.Array:
    """``beta * input + alpha * (mat1 @ mat2)``.

    Arguments:
        input: an array broadcastable to ``(n, p)``.
        mat1: a ``(n, m)`` matrix.
        mat2: a ``(m, p)`` matrix.
        beta, alpha: scale factors (keyword only), default 1.

    Returns:
        the ``(n, p)`` result.
    """
    _check_number("alpha", alpha)
    _check_number("beta", beta)
    a, b = _arr(mat1), _arr(mat2)
    if a.ndim != 2 or b.ndim != 2 or a.shape[1] != b.shape[0]:
        raise ValueError(f"'mat1' and 'mat2' must be matrices (n, m) and (m, p), got {a.shape} and {b.shape}")
    return beta * _arr(input) + alpha * jnp.matmul(a, b)


@tensor_op
@_named("baddbmm")
def baddbmm(input: Any, batch1: Any, batch2: Any, beta: int | float = 1, alpha: int | float = 1) -> jax.Array:
    """``beta * input + alpha * (batch1 @ batch2)`` over a batch of matrices.

    Arguments:
        input: an array broadcastable to ``(b, n, p)``.
        batch1: a ``(b, n, m)`` array.
        batch2: a ``(b, m, p)`` array.
        beta, alpha: scale factors; must be ints for non-float inputs.

    Returns:
        the ``(b, n, p)`` result.
    """
    x, a, b = _arr(input), _arr(batch1), _arr(batch2)
    if not x.dtype == a.dtype == b.dtype:
        raise TypeError(f"'input', 'batch1' and 'batch2' must have the same dtype, got "
                        f"{x.dtype}, {a.dtype} and {b.dtype}")
    if jnp.issubdtype(x.dtype, jnp.floating):
        _check_number("alpha", alpha)
        _check_number("beta", beta)
    elif not (isinstance(alpha, int) and isinstance(beta, int)):
        raise TypeError(f"'alpha' and 'beta' must be ints for {x.dtype} inputs, got "
                        f"{type(alpha).__name__} and {type(beta).__name__}")
    if a.ndim != 3 or b.ndim != 3 or a.shape[0] != b.shape[0] or a.shape[2] != b.shape[1]:
        raise ValueError(f"'batch1' and 'batch2' must be (b, n, m) and (b, m, p), got {a.shape} and {b.shape}")
    return beta * x + alpha * jnp.matmul(a, b)


@tensor_op
@_named("outer")
def outer(input: Any, vec2: Any) -> jax.Array:
    """Outer product: ``input.reshape(-1, 1) * vec2``.

    Arguments:
        input: an array (flattened).
        vec2: a 1-D array.

    Returns:
        the ``(input.size, vec2.size)`` matrix.
    """
    return jnp.reshape(_arr(input), (-1, 1)) * _arr(vec2)


@tensor_op
@_named("ger")
def ger(input: Any, vec2: Any) -> jax.Array:
    """Outer product of two 1-D float arrays.

    Arguments:
        input: a 1-D array of length n.
        vec2: a 1-D array of length m.

    Returns:
        the ``(n, m)`` matrix.
    """
    a, b = _arr(input), _arr(vec2)
    if a.ndim != 1 or b.ndim != 1:
        raise ValueError(f"'input' and 'vec2' must be 1-D, got shapes {a.shape} and {b.shape}")
    return jnp.outer(a, b)


@tensor_op
@_named("inner")
def inner(input: Any, other: Any) -> jax.Array:
    """Inner product over the last axis (a plain product when either is a scalar).

    Arguments:
        input: an array ``(..., k)``.
        other: an array ``(..., k)``.

    Returns:
        an array of shape ``input.shape[:-1] + other.shape[:-1]``.
    """
    a, b = _operand(input), _operand(other)
    if jnp.ndim(a) == 0 or jnp.ndim(b) == 0:
        return jnp.multiply(a, b)
    if a.shape[-1] != b.shape[-1]:
        raise ValueError(f"the last dimension of 'input' and 'other' must be the same, got "
                         f"{a.shape} and {b.shape}")
    return jnp.tensordot(a, b, axes=(-1, -1))


@tensor_op
@amp_op("Cdist")
@_named("cdist")
def cdist(x1: Any, x2: Any, p: float = 2.0) -> jax.Array:
    """p-norm distance between each pair of row vectors.

    Arguments:
        x1: an array ``(B, P, M)`` or ``(P, M)``.
        x2: an array ``(B, R, M)`` or ``(R, M)``, same dtype as ``x1``.
        p: the norm's order, ``p >= 0`` (``0`` counts differing entries, ``inf`` takes the max).

    Returns:
        the ``(B, P, R)`` (or ``(P, R)``) distances.
    """
    if isinstance(p, bool) or not isinstance(p, (int, float)):
        raise TypeError(f"'p' must be a float, got {type(p).__name__}")
    if p < 0:
        raise ValueError(f"'p' must be non-negative, got {p}")
    a, b = _arr(x1), _arr(x2)
    if a.ndim not in (2, 3) or a.ndim != b.ndim or a.shape[-1] != b.shape[-1] or a.shape[:-2] != b.shape[:-2]:
        raise ValueError(f"'x1' and 'x2' must be (B, P, M) and (B, R, M) (or without B), got "
                         f"{a.shape} and {b.shape}")
    diff = jnp.abs(a[..., :, None, :] - b[..., None, :, :])
    if p == 0:
        return jnp.sum(diff != 0, axis=-1).astype(a.dtype)
    if math.isinf(p):
        return jnp.max(diff, axis=-1)
    if p == 1:
        return jnp.sum(diff, axis=-1)
    if p == 2:
        return jnp.sqrt(jnp.sum(diff * diff, axis=-1))
    return jnp.sum(diff ** p, axis=-1) ** (1.0 / p)


@tensor_op
@_named("cosine_similarity")
def cosine_similarity(x1: Any, x2: Any, dim: int = 1, eps: float = 1e-08) -> jax.Array:
    """``sum(x1 * x2, dim) / max(||x1|| * ||x2||, eps)``, with broadcasting.

    Arguments:
        x1, x2: arrays broadcastable to one shape.
        dim: the axis to reduce.
        eps: lower bound of the denominator.

    Returns:
        the similarities, with ``dim`` removed.
    """
    a, b = jnp.broadcast_arrays(_arr(x1), _arr(x2))
    axis = _axis("cosine_similarity", dim, a.ndim, "dim")
    num = jnp.sum(a * b, axis=axis)
    den = jnp.linalg.norm(a, axis=axis) * jnp.linalg.norm(b, axis=axis)
    return num / jnp.maximum(den, eps)
