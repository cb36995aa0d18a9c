"""MindSpore's functional ops (``ops.matmul``, ``ops.softmax`` ...) on JAX.

Names, argument names, defaults and numerics follow MindSpore 2.10. Every op
accepts ``jax.Array``s, numpy arrays, Python scalars and
:class:`~mindjax.Parameter`s, returns ``jax.Array``s and works under
``jax.jit`` (shape-like arguments such as ``axis`` or ``shape`` must be static
Python values, as in MindSpore's graph mode).

Where MindSpore returns int64 indices, MindJAX returns JAX's default integer
(int32 unless ``jax_enable_x64`` is set).

Example:
    >>> import numpy as np
    >>> from mindjax import ops
    >>> values, indices = ops.max(np.array([[1., 5.], [4., 2.]]), axis=1)
    >>> values.tolist(), indices.tolist()
    ([5.0, 4.0], [1, 0])
"""
from __future__ import annotations

import functools
import math
from typing import Any, Callable, Sequence

import jax
import jax.numpy as jnp
import numpy as np

from mindjax.common.precision import amp_op, run_as
from mindjax.common.tensor import Tensor
from mindjax.common import random as _random
from mindjax.common.checks import check_index_range as _check_index_range
from mindjax.common.casting import cast_array as _cast_array
from mindjax.common.dtype import to_jax_dtype
from mindjax.common.tensor import as_array as _arr, tensor_op
from mindjax.common.variable import Variable

def reduce_loss(x: jax.Array, reduction: str, op: str = "LossBase") -> jax.Array:
    """``'mean'``, ``'sum'`` or ``'none'`` of an element-wise loss: the one reduction that the loss
    ops here and the loss Cells (``mindjax.cells.loss``) apply.

    Raises:
        ValueError: another ``reduction``, naming ``op``.

    Example:
        >>> float(reduce_loss(jnp.array([1.0, 3.0]), "mean"))
        2.0
    """
    if reduction == "mean":
        return jnp.mean(x)
    if reduction == "sum":
        return jnp.sum(x)
    if reduction == "none":
        return x
    raise ValueError(f"For '{op}', 'reduction' must be one of 'none', 'mean', 'sum', got {reduction!r}")


_reduce = reduce_loss


__all__ = [
    "partial",
    # arithmetic
    "matmul", "bmm", "mm", "add", "sub", "mul", "div", "neg", "abs", "exp", "log", "sqrt",
    "rsqrt", "square", "pow", "maximum", "minimum",
    # activations
    "relu", "relu6", "gelu", "sigmoid", "tanh", "softmax", "log_softmax", "silu", "leaky_relu",
    "elu", "softplus",
    # shapes
    "reshape", "transpose", "permute", "concat", "cat", "stack", "split", "chunk", "squeeze",
    "expand_dims", "unsqueeze", "flatten", "gather", "gather_elements", "gather_nd",
    "scatter_nd", "tile", "broadcast_to",
    # reductions and sorting
    "sum", "mean", "prod", "amax", "amin", "max", "min", "argmax", "argmin", "topk", "sort",
    "cumsum",
    # creation and casting
    "one_hot", "cast", "zeros", "ones", "zeros_like", "ones_like", "fill", "full", "arange",
    "linspace", "eye",
    # selection, clipping, norms, comparison
    "where", "clip_by_value", "clamp", "clip_by_global_norm", "norm", "l2_normalize", "equal",
    "not_equal", "greater", "less", "logical_and", "logical_or", "logical_not", "isnan",
    "isfinite", "masked_fill", "select",
    # random
    "dropout", "uniform", "standard_normal", "normal",
    # neural network
    "conv2d", "max_pool2d", "avg_pool2d", "dense", "layer_norm", "batch_norm", "pad",
    "interpolate", "dot", "tensor_dot", "einsum",
    # losses
    "cross_entropy", "nll_loss", "mse_loss", "binary_cross_entropy_with_logits", "l1_loss",
    "smooth_l1_loss",
    # introspection and side effects
    "size", "shape", "rank", "numel", "assign", "depend", "print_",
    # Python sequences in graphs (MindSpore's MakeTuple/TupleGetItem ...; plain Python here)
    "make_tuple", "tuple_getitem", "make_list", "list_getitem", "tuple_setitem", "list_setitem", "dict_getitem",
]

_builtin_max = max
_builtin_min = min
_builtin_sum = sum
_builtin_abs = abs
_builtin_all = all
_builtin_any = any
_builtin_round = round
_builtin_slice = slice


# --- helpers ---------------------------------------------------------------------------

def _is_jax_error(exc: BaseException) -> bool:
    # JAX's own errors (tracer concretisation ...) drive control-flow handling
    # elsewhere, so they must keep their type.
    return type(exc).__module__.split(".")[0] == "jax"


def _named(op: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Prefix TypeErrors/ValueErrors raised inside an op with "For '<op>', "."""

    def decorate(fn: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(fn)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            try:
                return fn(*args, **kwargs)
            except (TypeError, ValueError) as exc:
                msg = str(exc)
                if msg.startswith("For '") or _is_jax_error(exc):
                    raise
                raise type(exc)(f"For '{op}', {msg}") from exc
        return wrapper
    return decorate


# Under mixed precision (mindjax.common.precision) an op decorated ``@amp_op("MatMul")`` runs as
# MindSpore runs that Primitive under the active policy (O1 or 'auto').


def _axis(op: str, axis: Any, ndim: int, name: str = "axis", extra: int = 0) -> int:
    """Normalise one axis in [-ndim-extra, ndim+extra) or raise naming the op."""
    if isinstance(axis, Variable):
        axis = axis._value
    if isinstance(axis, (jax.Array, np.ndarray, Tensor)) and np.ndim(axis) == 0:
        axis = int(axis)
    if not isinstance(axis, (int, np.integer)) or isinstance(axis, bool):
        raise TypeError(f"For '{op}', '{name}' must be an int, got {type(axis).__name__}")
    bound = ndim + extra
    if not -bound <= axis < _builtin_max(bound, 1):
        raise ValueError(f"For '{op}', '{name}' must be in range [{-bound}, {_builtin_max(bound, 1)}), "
                         f"got {axis} for an input of rank {ndim}")
    return int(axis) % _builtin_max(bound, 1)


def _axes(op: str, axis: Any, ndim: int, name: str = "axis") -> tuple[int, ...] | None:
    """Normalise None, an int, or a sequence of ints; None means all axes."""
    if axis is None:
        return None
    if isinstance(axis, (list, tuple)):
        out = tuple(_axis(op, a, ndim, name) for a in axis)
        if len(set(out)) != len(out):
            raise ValueError(f"For '{op}', '{name}' has repeated axes: {tuple(axis)}")
        return out
    return (_axis(op, axis, ndim, name),)


def _shape_arg(op: str, shape: Any, name: str = "shape") -> tuple[int, ...]:
    if isinstance(shape, (int, np.integer)):
        return (int(shape),)
    if isinstance(shape, (jax.Array, np.ndarray, Tensor)):
        shape = np.asarray(_arr(shape)).tolist()
        shape = shape if isinstance(shape, list) else [shape]
    if not isinstance(shape, (list, tuple)) or not _builtin_all(isinstance(s, (int, np.integer)) for s in shape):
        raise TypeError(f"For '{op}', '{name}' must be an int or a tuple of ints, got {shape!r}")
    return tuple(int(s) for s in shape)


def _dtype_or(dtype: Any, default: Any) -> Any:
    return default if dtype is None else to_jax_dtype(dtype)


def _default_int() -> Any:
    return jnp.int64 if jax.config.jax_enable_x64 else jnp.int32


# --- arithmetic --------------------------------------------------------------------------

@tensor_op
@amp_op("MatMulExt")
@_named("matmul")
def matmul(input: Any, other: Any) -> jax.Array:
    """Matrix product with broadcasting over batch dimensions (1-D inputs are vectors).

    Arguments:
        input, other: arrays; ``input.shape[-1]`` must equal ``other.shape[-2]``
            (or ``other.shape[0]`` when ``other`` is 1-D).

    Returns:
        the product, as ``numpy.matmul``.
    """
    a, b = _arr(input), _arr(other)
    if a.ndim == 0 or b.ndim == 0:
        raise ValueError(f"inputs must not be scalars, got shapes {a.shape} and {b.shape}")
    k_b = b.shape[0] if b.ndim == 1 else b.shape[-2]
    if a.shape[-1] != k_b:
        raise ValueError(f"input.shape[-1] must equal other.shape[-2], got shapes {a.shape} and {b.shape}")
    return jnp.matmul(a, b)


@tensor_op
@amp_op("BatchMatMul")
@_named("bmm")
def bmm(input_x: Any, mat2: Any) -> jax.Array:
    """Batched matrix product of ``(..., n, k)`` and ``(..., k, m)`` arrays.

    Arguments:
        input_x: array of rank >= 3.
        mat2: array of rank >= 3 with matching inner dimension.

    Returns:
        array of shape ``(..., n, m)``.
    """
    a, b = _arr(input_x), _arr(mat2)
    if a.ndim < 3 or b.ndim < 3:
        raise ValueError(f"inputs must be at least 3-D, got shapes {a.shape} and {b.shape}")
    if a.shape[-1] != b.shape[-2]:
        raise ValueError(f"input_x.shape[-1] must equal mat2.shape[-2], got shapes {a.shape} and {b.shape}")
    return jnp.matmul(a, b)


@tensor_op
@amp_op("MatMul")
@_named("mm")
def mm(input: Any, mat2: Any) -> jax.Array:
    """Product of two 2-D matrices.

    Arguments:
        input: ``(n, k)`` array.
        mat2: ``(k, m)`` array.

    Returns:
        ``(n, m)`` array.
    """
    a, b = _arr(input), _arr(mat2)
    if a.ndim != 2 or b.ndim != 2:
        raise ValueError(f"inputs must be 2-D, got shapes {a.shape} and {b.shape}")
    if a.shape[1] != b.shape[0]:
        raise ValueError(f"input.shape[1] must equal mat2.shape[0], got shapes {a.shape} and {b.shape}")
    return jnp.matmul(a, b)


def _binary(name: str, fn: Callable[[Any, Any], Any], doc: str) -> Callable[[Any, Any], jax.Array]:
    @_named(name)
    def op(input: Any, other: Any) -> jax.Array:
        return fn(_arr(input), _arr(other))
    op.__name__ = op.__qualname__ = name
    op.__doc__ = (f"{doc}, with broadcasting.\n\n    Arguments:\n        input, other: arrays or "
                  f"scalars.\n\n    Returns:\n        the elementwise result.\n")
    return tensor_op(op)


def _unary(name: str, fn: Callable[[Any], Any], doc: str, arg: str = "input",
           amp: str | None = None) -> Callable[[Any], jax.Array]:
    @_named(name)
    def op(x: Any) -> jax.Array:
        return fn(_arr(x))
    op.__name__ = op.__qualname__ = name
    op.__doc__ = f"{doc}.\n\n    Arguments:\n        {arg}: an array.\n\n    Returns:\n        the elementwise result.\n"
    return tensor_op(op if amp is None else amp_op(amp)(op))  # amp: the Primitive it stands for


add = _binary("add", jnp.add, "``input + other``")
sub = _binary("sub", jnp.subtract, "``input - other``")
mul = _binary("mul", jnp.multiply, "``input * other``")
maximum = _binary("maximum", jnp.maximum, "Elementwise maximum (NaN propagates)")
minimum = _binary("minimum", jnp.minimum, "Elementwise minimum (NaN propagates)")
equal = _binary("equal", jnp.equal, "``input == other``")
not_equal = _binary("not_equal", jnp.not_equal, "``input != other``")
greater = _binary("greater", jnp.greater, "``input > other``")
less = _binary("less", jnp.less, "``input < other``")
logical_and = _binary("logical_and", jnp.logical_and, "Logical AND")
logical_or = _binary("logical_or", jnp.logical_or, "Logical OR")

neg = _unary("neg", jnp.negative, "``-input``")
abs = _unary("abs", jnp.abs, "Absolute value")  # noqa: A001 - MindSpore's name
exp = _unary("exp", jnp.exp, "``e ** input``", amp="Exp")
log = _unary("log", jnp.log, "Natural logarithm", amp="Log")
sqrt = _unary("sqrt", jnp.sqrt, "Square root", arg="x")
square = _unary("square", jnp.square, "``input ** 2``")
logical_not = _unary("logical_not", jnp.logical_not, "Logical NOT")
isnan = _unary("isnan", jnp.isnan, "True where the input is NaN")
isfinite = _unary("isfinite", jnp.isfinite, "True where the input is neither inf nor NaN")
tanh = _unary("tanh", jnp.tanh, "Hyperbolic tangent")
sigmoid = _unary("sigmoid", jax.nn.sigmoid, "Logistic sigmoid ``1 / (1 + exp(-input))``")
silu = _unary("silu", jax.nn.silu, "SiLU ``input * sigmoid(input)``")
relu6 = _unary("relu6", jax.nn.relu6, "``min(max(x, 0), 6)``", arg="x")


def _float(x: Any) -> Any:
    return x if jnp.issubdtype(x.dtype, jnp.inexact) else x.astype(jnp.float32)


@tensor_op
@amp_op("Rsqrt")
@_named("rsqrt")
def rsqrt(input: Any) -> jax.Array:
    """Reciprocal square root ``1 / sqrt(input)``.

    Arguments:
        input: an array.

    Returns:
        the elementwise result (float).
    """
    return jax.lax.rsqrt(_float(_arr(input)))


@tensor_op
@amp_op("Pow")
@_named("pow")
def pow(input: Any, exponent: Any) -> jax.Array:  # noqa: A001 - MindSpore's name
    """``input ** exponent`` with broadcasting.

    Arguments:
        input: array or scalar.
        exponent: array or scalar.

    Returns:
        the elementwise power.
    """
    return jnp.power(_arr(input), _arr(exponent))


@tensor_op
@_named("div")
def div(input: Any, other: Any, *, rounding_mode: str | None = None) -> jax.Array:
    """Division; integer inputs divide to float unless a rounding mode is given.

    Arguments:
        input, other: arrays or scalars.
        rounding_mode: ``None`` (true division), ``'floor'`` or ``'trunc'``.

    Returns:
        the quotient.
    """
    a, b = _arr(input), _arr(other)
    if rounding_mode is None:
        return jnp.true_divide(a, b)
    if rounding_mode == "floor":
        return jnp.floor_divide(a, b)
    if rounding_mode == "trunc":
        q = jnp.true_divide(a, b)
        out = jnp.trunc(q)
        res = jnp.result_type(a, b)
        return out if jnp.issubdtype(res, jnp.inexact) else out.astype(res)
    raise ValueError(f"'rounding_mode' must be None, 'floor' or 'trunc', got {rounding_mode!r}")


# --- activations -------------------------------------------------------------------------

@tensor_op
@amp_op("ReLU")
@_named("relu")
def relu(input: Any, inplace: bool = False) -> jax.Array:
    """``max(input, 0)``.

    Arguments:
        input: an array.
        inplace: accepted for compatibility; arrays are immutable.

    Returns:
        the rectified array.
    """
    return jax.nn.relu(_arr(input))


@tensor_op
@_named("gelu")
def gelu(input: Any, approximate: str = "none") -> jax.Array:
    """GELU activation.

    Arguments:
        input: a float array.
        approximate: ``'none'`` (exact, erf) or ``'tanh'``.

    Returns:
        the activated array.
    """
    if approximate not in ("none", "tanh"):
        raise ValueError(f"'approximate' must be 'none' or 'tanh', got {approximate!r}")
    return jax.nn.gelu(_float(_arr(input)), approximate=approximate == "tanh")


@tensor_op
@amp_op("Softmax")
@_named("softmax")
def softmax(input: Any, axis: int = -1, *, dtype: Any = None) -> jax.Array:
    """Softmax along ``axis``.

    Arguments:
        input: a float array.
        axis: the axis to normalise.
        dtype: cast the input to this dtype first.

    Returns:
        probabilities summing to one along ``axis``.
    """
    x = _arr(input)
    if dtype is not None:
        x = x.astype(to_jax_dtype(dtype))
    return jax.nn.softmax(x, axis=_axis("softmax", axis, x.ndim))


@tensor_op
@amp_op("LogSoftmax")
@_named("log_softmax")
def log_softmax(logits: Any, axis: int = -1) -> jax.Array:
    """Log-softmax along ``axis``.

    Arguments:
        logits: a float array.
        axis: the axis to normalise.

    Returns:
        log-probabilities.
    """
    x = _arr(logits)
    return jax.nn.log_softmax(x, axis=_axis("log_softmax", axis, x.ndim))


@tensor_op
@_named("leaky_relu")
def leaky_relu(input: Any, alpha: float = 0.2) -> jax.Array:
    """``input`` where positive, else ``alpha * input``.

    Arguments:
        input: an array.
        alpha: the negative slope (MindSpore's default 0.2).

    Returns:
        the activated array.
    """
    x = _arr(input)
    return jnp.where(x >= 0, x, x * alpha)


@tensor_op
@_named("elu")
def elu(input_x: Any, alpha: float = 1.0) -> jax.Array:
    """ELU: ``x`` where positive, else ``alpha * (exp(x) - 1)``.

    Arguments:
        input_x: a float array.
        alpha: the scale of the negative part.

    Returns:
        the activated array.
    """
    return jax.nn.elu(_arr(input_x), alpha)


@tensor_op
@amp_op("Softplus")
@_named("softplus")
def softplus(input: Any, beta: float = 1, threshold: float = 20) -> jax.Array:
    """``log(1 + exp(beta * x)) / beta``, linear where ``beta * x > threshold``.

    Arguments:
        input: a float array.
        beta: the sharpness.
        threshold: above this value of ``beta * x`` the output is ``x``.

    Returns:
        the activated array.
    """
    x = _float(_arr(input))
    scaled = x * beta
    soft = jnp.logaddexp(scaled, 0.0) / beta
    return jnp.where(scaled > threshold, x, soft)


# --- shape manipulation ------------------------------------------------------------------

@tensor_op
@_named("reshape")
def reshape(input: Any, shape: Any) -> jax.Array:
    """Reshape; one dimension may be ``-1``.

    Arguments:
        input: an array.
        shape: the new shape.

    Returns:
        the reshaped array.
    """
    x = _arr(input)
    new = _shape_arg("reshape", shape)
    known = int(np.prod([s for s in new if s != -1]))
    if new.count(-1) > 1 or _builtin_any(s < -1 for s in new):
        raise ValueError(f"'shape' may hold at most one -1 and no other negatives, got {new}")
    if (-1 in new and (known == 0 or x.size % known)) or (-1 not in new and known != x.size):
        raise ValueError(f"cannot reshape an input of shape {x.shape} ({x.size} elements) to {new}")
    return jnp.reshape(x, new)


def _perm(op: str, perm: Any, ndim: int, name: str) -> tuple[int, ...]:
    perm = _shape_arg(op, perm, name)
    if len(perm) != ndim:
        raise ValueError(f"'{name}' must have {ndim} entries for an input of rank {ndim}, got {perm}")
    norm = tuple(_axis(op, p, ndim, name) for p in perm)
    if sorted(norm) != list(range(ndim)):
        raise ValueError(f"'{name}' must be a permutation of range({ndim}), got {perm}")
    return norm


@tensor_op
@_named("transpose")
def transpose(input: Any, dims: Sequence[int]) -> jax.Array:
    """Permute the axes of ``input``.

    Arguments:
        input: an array.
        dims: a permutation of ``range(input.ndim)``.

    Returns:
        the transposed array.
    """
    x = _arr(input)
    return jnp.transpose(x, _perm("transpose", dims, x.ndim, "dims"))


@tensor_op
@_named("permute")
def permute(input: Any, axis: Sequence[int]) -> jax.Array:
    """Permute the axes of ``input`` (same as :func:`transpose`).

    Arguments:
        input: an array.
        axis: a permutation of ``range(input.ndim)``.

    Returns:
        the permuted array.
    """
    x = _arr(input)
    return jnp.transpose(x, _perm("permute", axis, x.ndim, "axis"))


def _seq(op: str, tensors: Any) -> list[Any]:
    if not isinstance(tensors, (list, tuple)) or not tensors:
        raise TypeError(f"For '{op}', 'tensors' must be a non-empty tuple or list of arrays, "
                        f"got {type(tensors).__name__}")
    return [_arr(t) for t in tensors]


@tensor_op
@amp_op("Concat")
@_named("concat")
def concat(tensors: Sequence[Any], axis: int = 0) -> jax.Array:
    """Join arrays along an existing axis.

    Arguments:
        tensors: a tuple or list of arrays with equal shapes apart from ``axis``.
        axis: the axis to join along.

    Returns:
        the concatenation.
    """
    xs = _seq("concat", tensors)
    ax = _axis("concat", axis, xs[0].ndim)
    for i, t in enumerate(xs[1:], 1):
        if t.ndim != xs[0].ndim or _builtin_any(a != b for d, (a, b) in enumerate(zip(t.shape, xs[0].shape)) if d != ax):
            raise ValueError(f"tensors[{i}] has shape {t.shape}, which does not match tensors[0] "
                             f"{xs[0].shape} outside axis {ax}")
    return jnp.concatenate(xs, axis=ax)


@tensor_op
@amp_op("Concat")
def cat(tensors: Sequence[Any], axis: int = 0) -> jax.Array:
    """Alias of :func:`concat`."""
    return concat(tensors, axis)


@tensor_op
@_named("stack")
def stack(tensors: Sequence[Any], axis: int = 0) -> jax.Array:
    """Stack equal-shaped arrays along a new axis.

    Arguments:
        tensors: a tuple or list of arrays with equal shapes.
        axis: the position of the new axis.

    Returns:
        the stacked array.
    """
    xs = _seq("stack", tensors)
    for i, t in enumerate(xs[1:], 1):
        if t.shape != xs[0].shape:
            raise ValueError(f"all tensors must have the same shape, got {xs[0].shape} and "
                             f"{t.shape} at index {i}")
    return jnp.stack(xs, axis=_axis("stack", axis, xs[0].ndim, extra=1))


@tensor_op
@_named("split")
def split(tensor: Any, split_size_or_sections: Any, axis: int = 0) -> tuple[jax.Array, ...]:
    """Split into chunks of a given size (the last may be smaller) or of given sizes.

    Arguments:
        tensor: an array.
        split_size_or_sections: an int chunk size, or a list/tuple of sizes summing
            to ``tensor.shape[axis]``.
        axis: the axis to split.

    Returns:
        a tuple of arrays.
    """
    x = _arr(tensor)
    ax = _axis("split", axis, x.ndim)
    n = x.shape[ax]
    if isinstance(split_size_or_sections, (int, np.integer)) and not isinstance(split_size_or_sections, bool):
        size = int(split_size_or_sections)
        if size <= 0:
            raise ValueError(f"'split_size_or_sections' must be positive, got {size}")
        sizes = [size] * (n // size) + ([n % size] if n % size else [])
    elif isinstance(split_size_or_sections, (list, tuple)):
        sizes = [int(s) for s in split_size_or_sections]
        if _builtin_sum(sizes) != n or _builtin_any(s < 0 for s in sizes):
            raise ValueError(f"the sum of 'split_size_or_sections' must be {n} (the size of axis {ax}), "
                             f"got {list(split_size_or_sections)}")
    else:
        raise TypeError(f"'split_size_or_sections' must be an int, list or tuple, "
                        f"got {type(split_size_or_sections).__name__}")
    offsets = np.cumsum(sizes)[:-1].tolist()
    return tuple(jnp.split(x, offsets, axis=ax))


@tensor_op
@_named("chunk")
def chunk(input: Any, chunks: int, axis: int = 0) -> tuple[jax.Array, ...]:
    """Split into at most ``chunks`` pieces of size ``ceil(n / chunks)``.

    Arguments:
        input: an array.
        chunks: the number of pieces wanted (positive).
        axis: the axis to split.

    Returns:
        a tuple of arrays.
    """
    x = _arr(input)
    if not isinstance(chunks, (int, np.integer)) or chunks <= 0:
        raise ValueError(f"'chunks' must be a positive int, got {chunks!r}")
    ax = _axis("chunk", axis, x.ndim)
    size = _builtin_max(1, math.ceil(x.shape[ax] / int(chunks)))
    return split(x, size, ax)


@tensor_op
@_named("squeeze")
def squeeze(input: Any, axis: Any = None) -> jax.Array:
    """Remove size-1 axes; axes named in ``axis`` whose size is not 1 are kept.

    Arguments:
        input: an array.
        axis: None (all size-1 axes), an int or a tuple of ints.

    Returns:
        the squeezed array.
    """
    x = _arr(input)
    axes = _axes("squeeze", axis, x.ndim)
    if axes is None:
        return jnp.squeeze(x)
    return jnp.squeeze(x, tuple(a for a in axes if x.shape[a] == 1))


@tensor_op
@_named("expand_dims")
def expand_dims(input_x: Any, axis: int) -> jax.Array:
    """Insert a size-1 axis at ``axis``.

    Arguments:
        input_x: an array.
        axis: in ``[-rank-1, rank]``.

    Returns:
        the expanded array.
    """
    x = _arr(input_x)
    return jnp.expand_dims(x, _axis("expand_dims", axis, x.ndim, extra=1))


@tensor_op
@_named("unsqueeze")
def unsqueeze(input: Any, dim: int) -> jax.Array:
    """Insert a size-1 axis at ``dim``.

    Arguments:
        input: an array.
        dim: in ``[-rank-1, rank]``.

    Returns:
        the expanded array.
    """
    x = _arr(input)
    return jnp.expand_dims(x, _axis("unsqueeze", dim, x.ndim, name="dim", extra=1))


@tensor_op
@_named("flatten")
def flatten(input: Any, order: str = "C", *, start_dim: int = 1, end_dim: int = -1) -> jax.Array:
    """Merge the axes ``start_dim..end_dim`` into one (by default all but the batch axis).

    Arguments:
        input: an array.
        order: ``'C'`` (row-major) or ``'F'`` (column-major).
        start_dim, end_dim: the first and last axes to merge.

    Returns:
        the flattened array; a 0-D input becomes shape ``(1,)``, and a 1-D input
        with the default ``start_dim=1`` is returned as is.
    """
    x = _arr(input)
    if order not in ("C", "F"):
        raise ValueError(f"'order' must be 'C' or 'F', got {order!r}")
    if order == "F":
        x = jnp.transpose(x)
    if x.ndim == 0:
        return jnp.reshape(x, (1,))
    if x.ndim == 1 and start_dim in (1, -1) and end_dim == -1:
        return x
    s = _axis("flatten", start_dim, x.ndim, "start_dim")
    e = _axis("flatten", end_dim, x.ndim, "end_dim")
    if s > e:
        raise ValueError(f"'start_dim' ({start_dim}) must not come after 'end_dim' ({end_dim})")
    return jnp.reshape(x, x.shape[:s] + (-1,) + x.shape[e + 1:]) if x.size else jnp.reshape(
        x, x.shape[:s] + (int(np.prod(x.shape[s:e + 1])),) + x.shape[e + 1:])


@tensor_op
@_named("gather")
def gather(input_params: Any, input_indices: Any, axis: int, batch_dims: int = 0) -> jax.Array:
    """Take slices of ``input_params`` along ``axis`` at ``input_indices``.

    Arguments:
        input_params: the source array.
        input_indices: integer indices in ``[-N, N)`` for an axis of size N (negative
            ones count from the end, as MindSpore's kernel takes them).
        axis: the axis to index.
        batch_dims: leading dimensions shared by params and indices.

    Returns:
        array of shape ``params.shape[:axis] + indices.shape[batch_dims:] + params.shape[axis+1:]``.

    Raises:
        IndexValueError: an index outside ``[-N, N)`` (in compiled code, when the call returns).
    """
    x, idx = _arr(input_params), _arr(input_indices)
    if not jnp.issubdtype(idx.dtype, jnp.integer):
        raise TypeError(f"'input_indices' must be an integer array, got {idx.dtype}")
    ax = _axis("gather", axis, x.ndim)
    _check_index_range("gather", "input_indices", idx, -x.shape[ax], x.shape[ax])
    if not 0 <= batch_dims <= _builtin_min(ax, idx.ndim):
        raise ValueError(f"'batch_dims' must be in [0, min(axis, indices rank)], got {batch_dims}")

    def take(p: Any, i: Any, a: int) -> Any:
        return jnp.take(p, i, axis=a, mode="fill", fill_value=0)

    fn = take
    for _ in range(batch_dims):
        fn = jax.vmap(fn, in_axes=(0, 0, None))
    return fn(x, idx, ax - batch_dims)


@tensor_op
@_named("gather_elements")
def gather_elements(input: Any, dim: int, index: Any) -> jax.Array:
    """``out[i][j] = input[index[i][j]][j]`` for ``dim=0`` (``take_along_axis``).

    Arguments:
        input: the source array.
        dim: the axis to index.
        index: integer array of the same rank as ``input``.

    Returns:
        array of ``index``'s shape.

    Raises:
        IndexValueError: an index outside ``[-N, N)`` on ``dim`` (in compiled code, when the call returns).
    """
    x, idx = _arr(input), _arr(index)
    if idx.ndim != x.ndim:
        raise ValueError(f"'index' must have the rank of 'input' ({x.ndim}), got shape {idx.shape}")
    return _gather_along_dim("gather_elements", x, _axis("gather_elements", dim, x.ndim, "dim"), idx)


def _gather_along_dim(op: str, x: Any, axis: int, idx: Any) -> Any:
    """MindSpore's GatherD: ``index`` may be smaller than ``x`` off ``axis``; the output has its shape.

    ``x`` is cut to ``index``'s extent on the other axes (``take_along_axis`` would broadcast instead).
    """
    for d, (have, want) in enumerate(zip(x.shape, idx.shape)):
        if d != axis and want > have:
            raise ValueError(f"For '{op}', 'index' shape {tuple(idx.shape)} must not exceed the input shape "
                             f"{tuple(x.shape)} on dims other than {axis}")
    _check_index_range(op, "index", idx, -x.shape[axis], x.shape[axis])
    cut = tuple(_builtin_slice(None) if d == axis else _builtin_slice(0, n) for d, n in enumerate(idx.shape))
    return jnp.take_along_axis(x[cut], idx, axis=axis)


@tensor_op
@_named("gather_nd")
def gather_nd(input_x: Any, indices: Any) -> jax.Array:
    """Gather slices at multi-dimensional ``indices`` (its last axis indexes input's leading axes).

    Arguments:
        input_x: the source array.
        indices: integer array whose last dimension is at most ``input_x.ndim``.

    Returns:
        array of shape ``indices.shape[:-1] + input_x.shape[indices.shape[-1]:]``.

    Raises:
        IndexValueError: ``indices[..., k]`` outside ``[0, input_x.shape[k])`` (MindSpore's CPU kernel
            rejects negative indices too; in compiled code, when the call returns).
    """
    x, idx = _arr(input_x), _arr(indices)
    if idx.ndim == 0 or idx.shape[-1] > x.ndim:
        raise ValueError(f"'indices' last dimension must be at most the rank of input ({x.ndim}), "
                         f"got indices shape {idx.shape}")
    for k in range(idx.shape[-1]):
        _check_index_range("gather_nd", f"indices[..., {k}]", idx[..., k], 0, x.shape[k])
    return x[tuple(jnp.moveaxis(idx, -1, 0))]


@tensor_op
@_named("scatter_nd")
def scatter_nd(indices: Any, updates: Any, shape: Sequence[int]) -> jax.Array:
    """Scatter ``updates`` into a zero array of ``shape``; duplicate indices add up.

    Arguments:
        indices: integer array ``(..., k)`` indexing the first ``k`` axes of ``shape``.
        updates: array of shape ``indices.shape[:-1] + shape[k:]``.
        shape: the output shape.

    Returns:
        the scattered array.
    """
    idx, upd = _arr(indices), _arr(updates)
    shp = _shape_arg("scatter_nd", shape)
    k = idx.shape[-1] if idx.ndim else 0
    expected = idx.shape[:-1] + shp[k:]
    if k == 0 or k > len(shp) or upd.shape != expected:
        raise ValueError(f"'updates' must have shape {expected} for indices {idx.shape} and shape {shp}, "
                         f"got {upd.shape}")
    for j in range(k):
        _check_index_range("scatter_nd", f"indices[..., {j}]", idx[..., j], 0, shp[j])
    return jnp.zeros(shp, upd.dtype).at[tuple(jnp.moveaxis(idx, -1, 0))].add(upd)


@tensor_op
@_named("tile")
def tile(input: Any, dims: Sequence[int]) -> jax.Array:
    """Repeat ``input`` ``dims[i]`` times along each axis (shorter tuples pad with 1).

    Arguments:
        input: an array.
        dims: a tuple of non-negative ints.

    Returns:
        the tiled array.
    """
    reps = _shape_arg("tile", dims, "dims")
    if _builtin_any(r < 0 for r in reps):
        raise ValueError(f"'dims' must be non-negative, got {reps}")
    return jnp.tile(_arr(input), reps)


@tensor_op
@_named("broadcast_to")
def broadcast_to(input: Any, shape: Sequence[int]) -> jax.Array:
    """Broadcast to ``shape``; ``-1`` keeps the input's size on that axis.

    Arguments:
        input: an array.
        shape: the target shape.

    Returns:
        the broadcast array.
    """
    x = _arr(input)
    shp = list(_shape_arg("broadcast_to", shape))
    offset = len(shp) - x.ndim
    if offset < 0:
        raise ValueError(f"'shape' {tuple(shp)} has fewer dimensions than the input {x.shape}")
    for i, s in enumerate(shp):
        if s == -1:
            if i < offset:
                raise ValueError(f"-1 in 'shape' {tuple(shape)} at a new leading axis")
            shp[i] = x.shape[i - offset]
    for i, d in enumerate(x.shape):
        if d not in (1, shp[i + offset]):
            raise ValueError(f"cannot broadcast shape {x.shape} to {tuple(shp)}")
    return jnp.broadcast_to(x, tuple(shp))


# --- reductions, sorting -----------------------------------------------------------------

@tensor_op
@amp_op("SumExt")
@_named("sum")
def sum(input: Any, dim: Any = None, keepdim: bool = False, *, dtype: Any = None) -> jax.Array:  # noqa: A001
    """Sum over ``dim`` (all axes by default).

    Arguments:
        input: an array.
        dim: None, an int or a tuple of ints.
        keepdim: keep reduced axes with size 1.
        dtype: the accumulation and output dtype.

    Returns:
        the sum.
    """
    x = _arr(input)
    out = jnp.sum(x, axis=_axes("sum", dim, x.ndim, "dim"), keepdims=keepdim,
                  dtype=None if dtype is None else to_jax_dtype(dtype))
    return out


@tensor_op
@_named("mean")
def mean(x: Any, axis: Any = None, keep_dims: bool = False) -> jax.Array:
    """Mean over ``axis``; integer inputs give an integer (truncated) mean as in MindSpore.

    Arguments:
        x: an array.
        axis: None, an int or a tuple of ints.
        keep_dims: keep reduced axes with size 1.

    Returns:
        the mean.
    """
    a = _arr(x)
    out = jnp.mean(a, axis=_axes("mean", axis, a.ndim), keepdims=keep_dims)
    return out if jnp.issubdtype(a.dtype, jnp.inexact) else out.astype(a.dtype)


@tensor_op
@amp_op("ProdExt")
@_named("prod")
def prod(input: Any, axis: Any = None, keep_dims: bool = False, dtype: Any = None) -> jax.Array:
    """Product over ``axis``.

    Arguments:
        input: an array.
        axis: None, an int or a tuple of ints.
        keep_dims: keep reduced axes with size 1.
        dtype: cast the input to this dtype first.

    Returns:
        the product.
    """
    x = _arr(input)
    if dtype is not None:
        x = x.astype(to_jax_dtype(dtype))
    return jnp.prod(x, axis=_axes("prod", axis, x.ndim), keepdims=keep_dims)


def _extreme(op: str, fn: Callable[..., Any], input: Any, axis: Any, keepdims: bool,
             initial: Any, where: Any) -> jax.Array:
    x = _arr(input)
    kw: dict[str, Any] = {}
    if initial is not None:
        kw["initial"] = initial
    if where is not None:
        kw["where"] = _arr(where)
        if initial is None:
            raise ValueError("'initial' is required when 'where' is given")
    return fn(x, axis=_axes(op, axis, x.ndim), keepdims=keepdims, **kw)


@tensor_op
@_named("amax")
def amax(input: Any, axis: Any = None, keepdims: bool = False, *, initial: Any = None,
         where: Any = None) -> jax.Array:
    """Maximum over ``axis`` (all axes by default).

    Arguments:
        input: an array.
        axis: None, an int or a tuple of ints.
        keepdims: keep reduced axes with size 1.
        initial: a starting value for the reduction.
        where: a boolean mask of the elements to include (needs ``initial``).

    Returns:
        the maximum.
    """
    return _extreme("amax", jnp.max, input, axis, keepdims, initial, where)


@tensor_op
@_named("amin")
def amin(input: Any, axis: Any = None, keepdims: bool = False, *, initial: Any = None,
         where: Any = None) -> jax.Array:
    """Minimum over ``axis`` (all axes by default); arguments as :func:`amax`.

    Returns:
        the minimum.
    """
    return _extreme("amin", jnp.min, input, axis, keepdims, initial, where)


def _value_and_index(op: str, input: Any, axis: Any, keepdims: bool, initial: Any, where: Any,
                     largest: bool) -> tuple[jax.Array, jax.Array]:
    x = _arr(input)
    if x.ndim == 0:
        return x, jnp.asarray(0, _default_int())
    if axis is None:
        flat = x.reshape(-1)
        idx = jnp.argmax(flat) if largest else jnp.argmin(flat)
        return flat[idx], idx
    if isinstance(axis, (tuple, list)):
        raise TypeError(f"'axis' must be an int, got {type(axis).__name__}")
    ax = _axis(op, axis, x.ndim)
    if where is not None or initial is not None:
        if initial is None:
            raise ValueError("'initial' is required when 'where' is given")
        fill = jnp.asarray(initial, x.dtype)
        x = jnp.where(_arr(where), x, fill) if where is not None else x
        x = jnp.maximum(x, fill) if largest else jnp.minimum(x, fill)
    idx = (jnp.argmax if largest else jnp.argmin)(x, axis=ax, keepdims=True)
    val = jnp.take_along_axis(x, idx, axis=ax)
    if not keepdims:
        idx, val = jnp.squeeze(idx, ax), jnp.squeeze(val, ax)
    return val, idx


@tensor_op
@_named("max")
def max(input: Any, axis: int | None = None, keepdims: bool = False, *, initial: Any = None,  # noqa: A001
        where: Any = None) -> tuple[jax.Array, jax.Array]:
    """Maximum values and their indices along ``axis`` (MindSpore 2.x returns both).

    Arguments:
        input: an array.
        axis: an int, or None for the whole (flattened) array.
        keepdims: keep the reduced axis with size 1.
        initial: the lowest value the maximum can take.
        where: a boolean mask of the elements to consider (needs ``initial``).

    Returns:
        ``(values, indices)``. With ``axis=None`` the index is into the
        flattened array (MindSpore 2.10 returns 0 there).
    """
    return _value_and_index("max", input, axis, keepdims, initial, where, largest=True)


@tensor_op
@_named("min")
def min(input: Any, axis: int | None = None, keepdims: bool = False, *, initial: Any = None,  # noqa: A001
        where: Any = None) -> tuple[jax.Array, jax.Array]:
    """Minimum values and their indices along ``axis``; arguments as :func:`max`.

    Returns:
        ``(values, indices)``.
    """
    return _value_and_index("min", input, axis, keepdims, initial, where, largest=False)


@tensor_op
@_named("argmax")
def argmax(input: Any, dim: int | None = None, keepdim: bool = False) -> jax.Array:
    """Index of the maximum along ``dim`` (of the flattened array when ``dim`` is None).

    Arguments:
        input: an array.
        dim: an int or None.
        keepdim: keep the reduced axis with size 1 (ignored when ``dim`` is None).

    Returns:
        integer indices.
    """
    x = _arr(input)
    if x.dtype == jnp.bool_:
        x = x.astype(jnp.int32)
    if dim is None:
        return jnp.argmax(x.reshape(-1))
    return jnp.argmax(x, axis=_axis("argmax", dim, x.ndim, "dim"), keepdims=keepdim)


@tensor_op
@_named("argmin")
def argmin(input: Any, axis: int | None = None, keepdims: bool = False) -> jax.Array:
    """Index of the minimum along ``axis`` (of the flattened array when ``axis`` is None).

    Arguments:
        input: an array.
        axis: an int or None.
        keepdims: keep the reduced axis with size 1.

    Returns:
        integer indices.
    """
    x = _arr(input)
    if axis is None:
        out = jnp.argmin(x.reshape(-1))
        return jnp.reshape(out, (1,) * x.ndim) if keepdims else out
    return jnp.argmin(x, axis=_axis("argmin", axis, x.ndim), keepdims=keepdims)


@tensor_op
@_named("topk")
def topk(input: Any, k: int, dim: int | None = None, largest: bool = True,
         sorted: bool = True) -> tuple[jax.Array, jax.Array]:  # noqa: A002
    """The ``k`` largest (or smallest) entries along ``dim`` (last axis by default).

    Arguments:
        input: an array.
        k: how many entries, at most ``input.shape[dim]``.
        dim: the axis, or None for the last.
        largest: largest (True) or smallest (False) entries.
        sorted: results are always sorted; accepted for compatibility.

    Returns:
        ``(values, indices)``.
    """
    x = _arr(input)
    ax = x.ndim - 1 if dim is None else _axis("topk", dim, x.ndim, "dim")
    n = x.shape[ax] if x.ndim else 1
    if not isinstance(k, (int, np.integer)) or not 0 <= k <= n:
        raise ValueError(f"'k' must be an int in [0, {n}], got {k!r}")
    moved = jnp.moveaxis(x, ax, -1)
    if largest:
        vals, idx = jax.lax.top_k(moved, int(k))
    else:
        idx = jnp.argsort(moved, axis=-1, stable=True)[..., :k]
        vals = jnp.take_along_axis(moved, idx, axis=-1)
    return jnp.moveaxis(vals, -1, ax), jnp.moveaxis(idx.astype(jnp.int32), -1, ax)


@tensor_op
@_named("sort")
def sort(input_x: Any, axis: int = -1, descending: bool = False) -> tuple[jax.Array, jax.Array]:
    """Sort along ``axis``.

    Arguments:
        input_x: an array.
        axis: the axis to sort.
        descending: sort from largest to smallest.

    Returns:
        ``(values, indices)`` with int32 indices.
    """
    x = _arr(input_x)
    ax = _axis("sort", axis, x.ndim)
    idx = jnp.argsort(x, axis=ax, stable=True, descending=descending)
    return jnp.take_along_axis(x, idx, axis=ax), idx.astype(jnp.int32)


@tensor_op
@amp_op("CumSum")
@_named("cumsum")
def cumsum(x: Any, axis: int, dtype: Any = None) -> jax.Array:
    """Cumulative sum along ``axis``.

    Arguments:
        x: an array.
        axis: the axis.
        dtype: cast the input to this dtype first.

    Returns:
        the running sums.
    """
    a = _arr(x)
    if dtype is not None:
        a = a.astype(to_jax_dtype(dtype))
    return jnp.cumsum(a, axis=_axis("cumsum", axis, a.ndim))


# --- creation and casting ----------------------------------------------------------------

@tensor_op
@_named("one_hot")
def one_hot(indices: Any, depth: int, on_value: Any = 1, off_value: Any = 0, axis: int = -1) -> jax.Array:
    """One-hot encoding; the output dtype is that of ``on_value``.

    Arguments:
        indices: integer array.
        depth: the number of classes.
        on_value, off_value: the values for hits and misses.
        axis: where the new class axis goes.

    Returns:
        array with a new axis of size ``depth``.
    """
    idx = _arr(indices)
    if not isinstance(depth, (int, np.integer)) or depth < 0:
        raise ValueError(f"'depth' must be a non-negative int, got {depth!r}")
    on, off = _arr(on_value), _arr(off_value)
    if isinstance(on_value, bool) or on.dtype == jnp.bool_:
        dt = jnp.bool_
    elif isinstance(on_value, int):
        dt = _default_int()
    elif isinstance(on_value, float):
        dt = jnp.float32
    else:
        dt = on.dtype
    ax = _axis("one_hot", axis, idx.ndim, extra=1)
    hit = jnp.expand_dims(idx, ax) == jnp.expand_dims(
        jnp.arange(depth, dtype=idx.dtype), tuple(i for i in range(idx.ndim + 1) if i != ax))
    return jnp.where(hit, on.astype(dt), off.astype(dt))


@tensor_op
@_named("cast")
def cast(input: Any, dtype: Any) -> jax.Array:
    """Convert to ``dtype``.

    Arguments:
        input: an array or scalar.
        dtype: the target dtype, e.g. ``ms.float16``.

    Returns:
        the converted array. Its gradient is the identity, to integer dtypes too, as MindSpore's
        (see :mod:`mindjax.common.casting`).
    """
    return _cast_array(_arr(input), to_jax_dtype(dtype))


@tensor_op
@_named("zeros")
def zeros(size: Any, dtype: Any = None) -> jax.Array:
    """An array of zeros (float32 by default).

    Arguments:
        size: an int or a tuple of ints.
        dtype: the dtype.

    Returns:
        the array.
    """
    return jnp.zeros(_shape_arg("zeros", size, "size"), _dtype_or(dtype, jnp.float32))


@tensor_op
@_named("ones")
def ones(shape: Any, dtype: Any = None) -> jax.Array:
    """An array of ones (float32 by default).

    Arguments:
        shape: an int or a tuple of ints.
        dtype: the dtype.

    Returns:
        the array.
    """
    return jnp.ones(_shape_arg("ones", shape), _dtype_or(dtype, jnp.float32))


@tensor_op
@_named("zeros_like")
def zeros_like(input: Any, *, dtype: Any = None) -> jax.Array:
    """Zeros with the shape (and by default the dtype) of ``input``."""
    x = _arr(input)
    return jnp.zeros(x.shape, _dtype_or(dtype, x.dtype))


@tensor_op
@_named("ones_like")
def ones_like(input: Any, *, dtype: Any = None) -> jax.Array:
    """Ones with the shape (and by default the dtype) of ``input``."""
    x = _arr(input)
    return jnp.ones(x.shape, _dtype_or(dtype, x.dtype))


@tensor_op
@_named("fill")
def fill(type: Any, shape: Any, value: Any) -> jax.Array:  # noqa: A002 - MindSpore's name
    """An array of ``shape`` filled with ``value``.

    Arguments:
        type: the dtype.
        shape: the shape.
        value: a scalar.

    Returns:
        the array.
    """
    return jnp.full(_shape_arg("fill", shape), _arr(value), to_jax_dtype(type))


@tensor_op
@_named("full")
def full(size: Any, fill_value: Any, *, dtype: Any = None) -> jax.Array:
    """An array of ``size`` filled with ``fill_value``.

    As in MindSpore, ``dtype=None`` means int64 (here JAX's default integer),
    so pass ``dtype=ms.float32`` for a float fill.

    Arguments:
        size: a tuple or list of ints.
        fill_value: a scalar.
        dtype: the dtype.

    Returns:
        the array.
    """
    if not isinstance(size, (list, tuple)):
        raise TypeError(f"'size' must be a tuple or list of ints, got {type(size).__name__}")
    return jnp.full(_shape_arg("full", size, "size"), _arr(fill_value), _dtype_or(dtype, _default_int()))


@tensor_op
@_named("arange")
def arange(start: Any = 0, end: Any = None, step: Any = 1, *, dtype: Any = None) -> jax.Array:
    """Evenly spaced values in ``[start, end)``.

    Arguments:
        start: the first value (or the end when ``end`` is None).
        end: the bound, excluded.
        step: the spacing (non-zero).
        dtype: the dtype; integers by default when all bounds are ints, else float32.

    Returns:
        a 1-D array.
    """
    vals = [float(_arr(v)) if not isinstance(v, (int, float)) else v for v in (start, end, step) if v is not None]
    if step == 0:
        raise ValueError("'step' must not be 0")
    if dtype is None:
        dtype = _default_int() if _builtin_all(isinstance(v, int) for v in vals) else jnp.float32
    if end is None:
        start, end = 0, start
    return jnp.arange(start, end, step, dtype=to_jax_dtype(dtype))


@tensor_op
@_named("linspace")
def linspace(start: Any, end: Any, steps: int) -> jax.Array:
    """``steps`` evenly spaced float32 values from ``start`` to ``end`` inclusive.

    Arguments:
        start, end: scalars.
        steps: the number of values (positive).

    Returns:
        a 1-D float32 array.
    """
    if not isinstance(steps, (int, np.integer)) or steps <= 0:
        raise ValueError(f"'steps' must be a positive int, got {steps!r}")
    return jnp.linspace(_arr(start).astype(jnp.float32), _arr(end).astype(jnp.float32), int(steps),
                        dtype=jnp.float32)


@tensor_op
@_named("eye")
def eye(n: int, m: int | None = None, dtype: Any = None) -> jax.Array:
    """An ``n x m`` identity matrix (float32 by default).

    Arguments:
        n: rows.
        m: columns (``n`` when None).
        dtype: the dtype.

    Returns:
        the matrix.
    """
    for name, v in (("n", n), ("m", m)):
        if v is not None and (not isinstance(v, (int, np.integer)) or v < 0):
            raise ValueError(f"'{name}' must be a non-negative int, got {v!r}")
    return jnp.eye(n, m, dtype=_dtype_or(dtype, jnp.float32))


# --- selection, clipping, norms ---------------------------------------------------------

@tensor_op
@_named("where")
def where(condition: Any, input: Any, other: Any) -> jax.Array:
    """``input`` where ``condition`` holds, else ``other`` (broadcasting).

    Arguments:
        condition: a boolean array.
        input, other: arrays or scalars.

    Returns:
        the selection.
    """
    return jnp.where(_arr(condition), _arr(input), _arr(other))


@tensor_op
@_named("select")
def select(condition: Any, input: Any, other: Any) -> jax.Array:
    """Same as :func:`where`."""
    return jnp.where(_arr(condition), _arr(input), _arr(other))


@tensor_op
@_named("masked_fill")
def masked_fill(input_x: Any, mask: Any, value: Any) -> jax.Array:
    """``value`` where ``mask`` is true, else ``input_x``.

    Arguments:
        input_x: an array.
        mask: a boolean array broadcastable to ``input_x``.
        value: a scalar or array, cast to the input's dtype.

    Returns:
        the filled array.
    """
    x, m = _arr(input_x), _arr(mask)
    if m.dtype != jnp.bool_:
        raise TypeError(f"'mask' must be a bool array, got {m.dtype}")
    return jnp.where(m, _arr(value).astype(x.dtype), x)


def _clip(x: Any, lo: Any, hi: Any) -> Any:
    x = _arr(x)
    if lo is not None:
        x = jnp.maximum(x, _arr(lo).astype(x.dtype))
    if hi is not None:
        x = jnp.minimum(x, _arr(hi).astype(x.dtype))
    return x


@tensor_op
@_named("clip_by_value")
def clip_by_value(x: Any, clip_value_min: Any = None, clip_value_max: Any = None) -> Any:
    """Clip values into ``[clip_value_min, clip_value_max]``.

    Arguments:
        x: an array, or a list/tuple of arrays (each is clipped).
        clip_value_min, clip_value_max: bounds; at least one must be given.

    Returns:
        the clipped array(s).
    """
    if clip_value_min is None and clip_value_max is None:
        raise ValueError("'clip_value_min' and 'clip_value_max' cannot both be None")
    if isinstance(x, (list, tuple)):
        return type(x)(_clip(t, clip_value_min, clip_value_max) for t in x)
    return _clip(x, clip_value_min, clip_value_max)


@tensor_op
@_named("clamp")
def clamp(input: Any, min: Any = None, max: Any = None) -> jax.Array:  # noqa: A002
    """Clip values into ``[min, max]``; at least one bound must be given."""
    if min is None and max is None:
        raise ValueError("'min' and 'max' cannot both be None")
    return _clip(input, min, max)


@tensor_op
@_named("clip_by_global_norm")
def clip_by_global_norm(x: Sequence[Any], clip_norm: float = 1.0, use_norm: Any = None) -> tuple[jax.Array, ...]:
    """Scale arrays so that their joint L2 norm is at most ``clip_norm``.

    Arguments:
        x: a tuple or list of arrays (e.g. gradients).
        clip_norm: the largest allowed global norm (positive).
        use_norm: must be None (as in MindSpore).

    Returns:
        a tuple of scaled arrays ``t * clip_norm / max(global_norm, clip_norm)``.
    """
    if use_norm is not None:
        raise ValueError("'use_norm' must be None")
    if not isinstance(x, (list, tuple)):
        x = (x,)
    if isinstance(clip_norm, (int, float)) and clip_norm <= 0:
        raise ValueError(f"'clip_norm' must be positive, got {clip_norm}")
    xs = [_arr(t) for t in x]
    total = jnp.sqrt(_builtin_sum(jnp.sum(jnp.square(t.astype(jnp.float32))) for t in xs))
    scale = clip_norm / jnp.maximum(total, clip_norm)
    return tuple((t * scale).astype(t.dtype) for t in xs)


@tensor_op
@amp_op("Norm")
@_named("norm")
def norm(A: Any, ord: Any = None, dim: Any = None, keepdim: bool = False, *, dtype: Any = None) -> jax.Array:  # noqa: A002,N803
    """Vector or matrix norm (as ``numpy.linalg.norm``; the whole array when ``dim`` is None).

    Arguments:
        A: an array.
        ord: the norm order (None is the 2-norm / Frobenius norm).
        dim: None, an int (vector norm) or a pair of ints (matrix norm).
        keepdim: keep reduced axes with size 1.
        dtype: cast the input to this dtype first.

    Returns:
        the norm.
    """
    x = _arr(A)
    if dtype is not None:
        x = x.astype(to_jax_dtype(dtype))
    axes = _axes("norm", dim, x.ndim, "dim")
    if axes is None and ord is None:
        out = jnp.sqrt(jnp.sum(jnp.square(jnp.abs(x))))
        return jnp.reshape(out, (1,) * x.ndim) if keepdim else out
    if axes is not None and len(axes) > 2:
        raise ValueError(f"'dim' must name one or two axes, got {dim}")
    return jnp.linalg.norm(x, ord=ord, axis=None if axes is None else (axes[0] if len(axes) == 1 else axes),
                           keepdims=keepdim)


@tensor_op
@_named("l2_normalize")
def l2_normalize(x: Any, axis: Any = 0, epsilon: float = 1e-4) -> jax.Array:
    """``x / sqrt(max(sum(x**2, axis), epsilon))`` (MindSpore's ``L2Normalize``).

    Arguments:
        x: a float array.
        axis: an int or a tuple of ints.
        epsilon: the floor under the squared norm.

    Returns:
        the normalised array.
    """
    a = _arr(x)
    axes = _axes("l2_normalize", axis, a.ndim)
    sq = jnp.sum(jnp.square(a), axis=axes, keepdims=True)
    return a * jax.lax.rsqrt(jnp.maximum(sq, epsilon))


# --- random ------------------------------------------------------------------------------

def _key(seed: Any) -> Any:
    key = _random.next_key()
    return key if seed is None else jax.random.fold_in(key, int(seed))


@tensor_op
@_named("dropout")
def dropout(input: Any, p: float = 0.5, training: bool = True, seed: int | None = None) -> jax.Array:
    """Zero elements with probability ``p`` and scale the rest by ``1 / (1 - p)``.

    Draws from the global key (``ms.set_seed``), so runs are reproducible.

    Arguments:
        input: an array.
        p: the drop probability in ``[0, 1]``.
        training: when False the input is returned unchanged.
        seed: mixed into the global key when given.

    Returns:
        the array after dropout.
    """
    if not isinstance(training, bool):
        raise TypeError(f"'training' must be a bool, got {type(training).__name__}")
    if not 0 <= float(p) <= 1:
        raise ValueError(f"'p' must be in [0, 1], got {p}")
    x = _arr(input)
    if not training or p == 0:
        return x
    if p == 1:
        return jnp.zeros_like(x)
    keep = jax.random.bernoulli(_key(seed), 1.0 - p, x.shape)
    return jnp.where(keep, x / (1.0 - p), jnp.zeros((), x.dtype)).astype(x.dtype)


@tensor_op
@_named("uniform")
def uniform(shape: Any, minval: Any, maxval: Any, seed: int | None = None, dtype: Any = jnp.float32) -> jax.Array:
    """Uniform samples in ``[minval, maxval)`` (integers when ``dtype`` is int32).

    Arguments:
        shape: the output shape.
        minval, maxval: bounds (scalars or broadcastable arrays).
        seed: mixed into the global key when given.
        dtype: ``ms.float32`` or ``ms.int32``.

    Returns:
        the samples.
    """
    dt = to_jax_dtype(dtype)
    if dt not in (np.dtype(np.float32), np.dtype(np.int32)):
        raise TypeError(f"'dtype' must be float32 or int32, got {dt}")
    shp = _shape_arg("uniform", shape)
    lo, hi = _arr(minval), _arr(maxval)
    if dt == np.dtype(np.int32):
        return jax.random.randint(_key(seed), shp, lo, hi, dtype=jnp.int32)
    return jax.random.uniform(_key(seed), shp, jnp.float32) * (hi - lo) + lo


@tensor_op
@_named("standard_normal")
def standard_normal(shape: Any, seed: int | None = None) -> jax.Array:
    """Standard normal float32 samples.

    Arguments:
        shape: the output shape.
        seed: mixed into the global key when given.

    Returns:
        the samples.
    """
    return jax.random.normal(_key(seed), _shape_arg("standard_normal", shape), jnp.float32)


@tensor_op
@_named("normal")
def normal(shape: Any, mean: Any, stddev: Any, seed: int | None = None) -> jax.Array:
    """Normal samples ``standard_normal * stddev + mean`` (broadcast with ``shape``).

    Arguments:
        shape: the sample shape.
        mean, stddev: scalars or arrays.
        seed: mixed into the global key when given.

    Returns:
        the samples.
    """
    m, s = _arr(mean), _arr(stddev)
    shp = jnp.broadcast_shapes(_shape_arg("normal", shape), m.shape, s.shape)
    return jax.random.normal(_key(seed), shp, jnp.float32) * s + m


# --- neural-network functions ------------------------------------------------------------

def _pair(op: str, name: str, v: Any, allow_four: bool = False) -> tuple[int, ...]:
    if isinstance(v, (int, np.integer)) and not isinstance(v, bool):
        return (int(v), int(v))
    if isinstance(v, (tuple, list)) and _builtin_all(isinstance(i, (int, np.integer)) for i in v):
        if len(v) == 2:
            return tuple(int(i) for i in v)
        if allow_four and len(v) == 4:
            return tuple(int(i) for i in v)
    raise ValueError(f"For '{op}', '{name}' must be an int or a tuple of 2 ints"
                     f"{' or 4 ints' if allow_four else ''}, got {v!r}")


def _conv(op: str, x: Any, w: Any, stride: Any, pad_mode: str, padding: Any, dilation: Any,
          groups: int, pad_four: bool) -> Any:
    """2-D NCHW convolution shared by ``conv2d`` and ``Conv2D``."""
    if x.ndim != 4 or w.ndim != 4:
        raise ValueError(f"For '{op}', input and weight must be 4-D (NCHW / OIHW), got shapes "
                         f"{x.shape} and {w.shape}")
    if pad_mode not in ("valid", "same", "pad"):
        raise ValueError(f"For '{op}', 'pad_mode' must be one of 'valid', 'same', 'pad', got {pad_mode!r}")
    if not isinstance(groups, (int, np.integer)) or groups <= 0 or x.shape[1] % groups or w.shape[0] % groups:
        raise ValueError(f"For '{op}', 'groups' ({groups}) must divide input channels {x.shape[1]} "
                         f"and output channels {w.shape[0]}")
    if x.shape[1] != w.shape[1] * groups:
        raise ValueError(f"For '{op}', input channels {x.shape[1]} must equal weight.shape[1] * groups "
                         f"= {w.shape[1] * groups} (input {x.shape}, weight {w.shape})")
    strides = _pair(op, "stride", stride, allow_four=True)[-2:]
    dil = _pair(op, "dilation", dilation, allow_four=True)[-2:]
    pads = _pair(op, "padding", padding, allow_four=pad_four)
    if pad_mode != "pad" and _builtin_any(pads):
        raise ValueError(f"For '{op}', 'padding' must be 0 unless pad_mode is 'pad', got {padding!r}")
    if pad_mode == "valid":
        lax_pad: Any = "VALID"
    elif pad_mode == "same":
        lax_pad = "SAME"
    elif len(pads) == 2:
        lax_pad = ((pads[0], pads[0]), (pads[1], pads[1]))
    else:
        lax_pad = ((pads[0], pads[1]), (pads[2], pads[3]))
    return jax.lax.conv_general_dilated(x, w.astype(x.dtype), strides, lax_pad, rhs_dilation=dil,
                                        dimension_numbers=("NCHW", "OIHW", "NCHW"),
                                        feature_group_count=int(groups))


@tensor_op
@_named("conv2d")
def conv2d(input: Any, weight: Any, bias: Any = None, stride: Any = 1, pad_mode: str = "valid",
           padding: Any = 0, dilation: Any = 1, groups: int = 1) -> jax.Array:
    """2-D convolution over NCHW input with OIHW weight.

    Arguments:
        input: ``(N, C_in, H, W)``.
        weight: ``(C_out, C_in / groups, kH, kW)``.
        bias: optional ``(C_out,)``.
        stride, dilation: an int or a pair.
        pad_mode: ``'valid'``, ``'same'`` (TensorFlow-style) or ``'pad'``.
        padding: with ``pad_mode='pad'``, an int or ``(pad_h, pad_w)``.
        groups: the number of channel groups.

    Returns:
        ``(N, C_out, H_out, W_out)``.
    """
    # MindSpore's ops.conv2d: the Conv2D Primitive, then BiasAdd (what mixed precision sees)
    out = run_as("Conv2D", lambda x, w: _conv("conv2d", x, w, stride, pad_mode, padding, dilation, groups, False),
                 _arr(input), _arr(weight))
    if bias is not None:
        out = run_as("BiasAdd", lambda o, b: o + b.reshape(1, -1, 1, 1), out, _arr(bias))
    return out


def _pool_pads(n: int, k: int, s: int, p: int, d: int, ceil_mode: bool) -> tuple[int, int, int]:
    """Left pad, right pad and output size for one spatial axis (PyTorch-style pooling)."""
    span = d * (k - 1) + 1
    if ceil_mode:
        out = -(-(n + 2 * p - span) // s) + 1
        if (out - 1) * s >= n + p:
            out -= 1
    else:
        out = (n + 2 * p - span) // s + 1
    right = _builtin_max(0, (out - 1) * s + span - n - p)
    return p, right, out


def _pool_setup(op: str, x: Any, kernel_size: Any, stride: Any, padding: Any, dilation: Any,
                ceil_mode: bool) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], list[tuple[int, int]]]:
    if x.ndim not in (3, 4):
        raise ValueError(f"For '{op}', input must be 3-D or 4-D (C/N, C, H, W), got shape {x.shape}")
    k = _pair(op, "kernel_size", kernel_size)
    s = k if stride is None else _pair(op, "stride", stride)
    p = _pair(op, "padding", padding)
    d = _pair(op, "dilation", dilation)
    if _builtin_any(v <= 0 for v in k + s + d) or _builtin_any(v < 0 for v in p):
        raise ValueError(f"For '{op}', kernel_size, stride and dilation must be positive and padding "
                         f"non-negative, got {k}, {s}, {d}, {p}")
    if _builtin_any(2 * pi > ki for pi, ki in zip(p, k)):
        raise ValueError(f"For '{op}', 'padding' {p} must be at most half of 'kernel_size' {k}")
    pads = []
    for axis in range(2):
        lo, hi, out = _pool_pads(x.shape[-2 + axis], k[axis], s[axis], p[axis], d[axis], ceil_mode)
        if out <= 0:
            raise ValueError(f"For '{op}', the input {x.shape} is too small for kernel_size {k}")
        pads.append((lo, hi))
    return k, s, d, pads


@tensor_op
@_named("max_pool2d")
def max_pool2d(x: Any, kernel_size: Any, stride: Any = None, padding: Any = 0, dilation: Any = 1,
               return_indices: bool = False, ceil_mode: bool = False) -> Any:
    """2-D max pooling over ``(N, C, H, W)`` or ``(C, H, W)`` input.

    Arguments:
        x: the input.
        kernel_size: an int or a pair.
        stride: an int or a pair; ``kernel_size`` when None.
        padding: implicit ``-inf`` padding on each side (at most half the kernel).
        dilation: spacing between kernel elements.
        return_indices: also return the flat ``H * W`` index of each maximum.
        ceil_mode: round the output size up.

    Returns:
        the pooled array, or ``(pooled, indices)``.
    """
    a = _arr(x)
    k, s, d, pads = _pool_setup("max_pool2d", a, kernel_size, stride, padding, dilation, ceil_mode)
    lead = a.ndim - 2
    init = -jnp.inf if jnp.issubdtype(a.dtype, jnp.floating) else jnp.iinfo(a.dtype).min
    out = jax.lax.reduce_window(a, jnp.asarray(init, a.dtype), jax.lax.max, (1,) * lead + k,
                                (1,) * lead + s, [(0, 0)] * lead + pads,
                                window_dilation=(1,) * lead + d)
    if not return_indices:
        return out
    # Indices: gather each window's elements at static positions, then argmax.
    h, w = a.shape[-2:]
    oh, ow = out.shape[-2:]
    rows = (np.arange(oh)[:, None] * s[0] - pads[0][0] + np.arange(k[0])[None, :] * d[0])
    cols = (np.arange(ow)[:, None] * s[1] - pads[1][0] + np.arange(k[1])[None, :] * d[1])
    r = rows[:, None, :, None]
    c = cols[None, :, None, :]
    valid = (r >= 0) & (r < h) & (c >= 0) & (c < w)
    flat_idx = np.where(valid, np.clip(r, 0, h - 1) * w + np.clip(c, 0, w - 1), 0)
    flat_idx = flat_idx.reshape(oh, ow, -1)
    valid = np.broadcast_to(valid, (oh, ow, k[0], k[1])).reshape(oh, ow, -1)
    patches = a.reshape(a.shape[:-2] + (h * w,))[..., flat_idx]
    patches = jnp.where(valid, patches, jnp.asarray(init, a.dtype))
    pos = jnp.argmax(patches, axis=-1)
    indices = jnp.asarray(flat_idx)[jnp.arange(oh)[:, None], jnp.arange(ow)[None, :], pos]
    return out, indices.astype(_default_int())


@tensor_op
@_named("avg_pool2d")
def avg_pool2d(input_x: Any, kernel_size: Any = 1, stride: Any = 1, padding: Any = 0, ceil_mode: bool = False,
               count_include_pad: bool = True, divisor_override: int = 0) -> jax.Array:
    """2-D average pooling over ``(N, C, H, W)`` or ``(C, H, W)`` input.

    Arguments:
        input_x: the input.
        kernel_size, stride: an int or a pair.
        padding: implicit zero padding on each side.
        ceil_mode: round the output size up.
        count_include_pad: count padded zeros in the divisor.
        divisor_override: when non-zero, divide every window sum by it.

    Returns:
        the pooled array.
    """
    a = _arr(input_x)
    k, s, d, pads = _pool_setup("avg_pool2d", a, kernel_size, stride, padding, 1, ceil_mode)
    lead = a.ndim - 2
    win, strides = (1,) * lead + k, (1,) * lead + s
    total = jax.lax.reduce_window(a, jnp.asarray(0, a.dtype), jax.lax.add, win, strides,
                                  [(0, 0)] * lead + pads)
    if divisor_override:
        return total / divisor_override
    h, w = a.shape[-2:]
    p = _pair("avg_pool2d", "padding", padding)
    if count_include_pad:
        # The padded border counts, the extra ceil_mode overhang does not.
        ones = jnp.ones((h + 2 * p[0], w + 2 * p[1]), a.dtype)
        cpads = [(0, pads[0][1] - p[0]), (0, pads[1][1] - p[1])]
    else:
        ones = jnp.ones((h, w), a.dtype)
        cpads = pads
    count = jax.lax.reduce_window(ones, jnp.asarray(0, a.dtype), jax.lax.add, k, s, cpads)
    return total / count


@tensor_op
@amp_op("Dense")
@_named("dense")
def dense(input: Any, weight: Any, bias: Any = None) -> jax.Array:
    """``input @ weight.T + bias`` (weight laid out ``(out, in)`` as in MindSpore).

    Arguments:
        input: ``(*, in)``.
        weight: ``(out, in)`` or ``(in,)``.
        bias: optional ``(out,)`` or scalar.

    Returns:
        ``(*, out)``.
    """
    x, w = _arr(input), _arr(weight)
    if x.shape[-1:] != w.shape[-1:]:
        raise ValueError(f"input's last dimension must equal weight's last dimension, got shapes "
                         f"{x.shape} and {w.shape}")
    out = jnp.matmul(x, w.T)
    return out if bias is None else out + _arr(bias)


@tensor_op
@amp_op("LayerNorm")
@_named("layer_norm")
def layer_norm(input: Any, normalized_shape: Any, weight: Any = None, bias: Any = None,
               eps: float = 1e-5) -> jax.Array:
    """Normalise over the trailing ``normalized_shape`` axes (biased variance).

    Arguments:
        input: an array whose trailing shape is ``normalized_shape``.
        normalized_shape: an int or a tuple.
        weight, bias: optional affine parameters of ``normalized_shape``.
        eps: added to the variance.

    Returns:
        the normalised array.
    """
    x = _arr(input)
    shp = _shape_arg("layer_norm", normalized_shape, "normalized_shape")
    if tuple(x.shape[x.ndim - len(shp):]) != shp or len(shp) > x.ndim:
        raise ValueError(f"'normalized_shape' {shp} must match the trailing shape of the input {x.shape}")
    axes = tuple(range(x.ndim - len(shp), x.ndim))
    mu = jnp.mean(x, axis=axes, keepdims=True)
    var = jnp.mean(jnp.square(x - mu), axis=axes, keepdims=True)
    y = (x - mu) * jax.lax.rsqrt(var + eps)
    if weight is not None:
        y = y * _arr(weight)
    if bias is not None:
        y = y + _arr(bias)
    return y


def _bn(op: str, x: Any, mean: Any, var: Any, weight: Any, bias: Any, training: bool, momentum: float,
        eps: float, channel_axis: int) -> tuple[Any, Any, Any]:
    """Batch norm core: output, batch mean, biased batch variance (training) or the running ones."""
    if x.ndim < 2:
        raise ValueError(f"For '{op}', input must be at least 2-D, got shape {x.shape}")
    c = x.shape[channel_axis]
    for name, t in (("running_mean", mean), ("running_var", var), ("weight", weight), ("bias", bias)):
        if t is not None and _arr(t).shape != (c,):
            raise ValueError(f"For '{op}', '{name}' must have shape ({c},), got {_arr(t).shape}")
    axes = tuple(i for i in range(x.ndim) if i != channel_axis)
    bshape = [1] * x.ndim
    bshape[channel_axis] = c
    if training:
        mu = jnp.mean(x, axis=axes)
        sigma2 = jnp.mean(jnp.square(x - mu.reshape(bshape)), axis=axes)
        n = x.size // c
        unbiased = sigma2 * (n / _builtin_max(n - 1, 1))
        for holder, batch in ((mean, mu), (var, unbiased)):
            if isinstance(holder, Variable):
                old = holder._value
                holder.set_data((1 - momentum) * old + momentum * batch.astype(old.dtype))
    else:
        mu, sigma2 = _arr(mean), _arr(var)
    y = (x - mu.reshape(bshape)) * jax.lax.rsqrt(sigma2.reshape(bshape) + eps)
    if weight is not None:
        y = y * _arr(weight).reshape(bshape)
    if bias is not None:
        y = y + _arr(bias).reshape(bshape)
    return y, mu, sigma2


@tensor_op
@amp_op("BatchNorm")
@_named("batch_norm")
def batch_norm(input_x: Any, running_mean: Any, running_var: Any, weight: Any, bias: Any,
               training: bool = False, momentum: float = 0.1, eps: float = 1e-5) -> jax.Array:
    """Batch normalisation over axis 1 of ``(N, C, ...)`` input.

    In training, batch statistics normalise the input, and Parameter
    ``running_mean``/``running_var`` are updated in place:
    ``running = (1 - momentum) * running + momentum * batch`` (unbiased variance).

    Arguments:
        input_x: ``(N, C, ...)``.
        running_mean, running_var: ``(C,)`` statistics (Parameters to be updated).
        weight, bias: ``(C,)`` affine parameters.
        training: use batch statistics and update the running ones.
        momentum: the update rate of the running statistics.
        eps: added to the variance.

    Returns:
        the normalised array.
    """
    return _bn("batch_norm", _arr(input_x), running_mean, running_var, weight, bias, training, momentum,
               eps, 1)[0]


_PAD_MODES = {"constant": "constant", "reflect": "reflect", "replicate": "edge", "edge": "edge",
              "circular": "wrap"}


@tensor_op
@_named("pad")
def pad(input_x: Any, padding: Sequence[int], mode: str = "constant", value: Any = None) -> jax.Array:
    """Pad the trailing axes: ``padding = (left_last, right_last, left_prev, right_prev, ...)``.

    Negative amounts crop.

    Arguments:
        input_x: an array.
        padding: an even-length tuple of ints, starting from the last axis.
        mode: ``'constant'``, ``'reflect'``, ``'replicate'`` or ``'circular'``.
        value: the fill for ``'constant'`` (0 by default).

    Returns:
        the padded array.
    """
    x = _arr(input_x)
    if mode not in _PAD_MODES:
        raise ValueError(f"'mode' must be one of 'constant', 'reflect', 'replicate', 'circular', got {mode!r}")
    pads = _shape_arg("pad", padding, "padding")
    if len(pads) % 2 or len(pads) // 2 > x.ndim:
        raise ValueError(f"'padding' must have an even length of at most 2 * rank ({2 * x.ndim}), got {pads}")
    if mode != "constant" and value is not None:
        raise ValueError(f"'value' is only allowed with mode 'constant', got mode {mode!r}")
    widths = [(0, 0)] * x.ndim
    for i in range(len(pads) // 2):
        widths[x.ndim - 1 - i] = (pads[2 * i], pads[2 * i + 1])
    if mode == "constant":
        fill = jnp.asarray(0 if value is None else value, x.dtype)
        return jax.lax.pad(x, fill, [(lo, hi, 0) for lo, hi in widths])
    grow = [(_builtin_max(lo, 0), _builtin_max(hi, 0)) for lo, hi in widths]
    out = jnp.pad(x, grow, mode=_PAD_MODES[mode])
    crop = tuple(_builtin_slice(_builtin_max(-lo, 0), out.shape[i] - _builtin_max(-hi, 0))
                 for i, (lo, hi) in enumerate(widths))
    return out[crop]


def _linear_weights(n_in: int, n_out: int, align_corners: bool, scale: float | None) -> tuple[Any, Any, Any]:
    dst = np.arange(n_out, dtype=np.float64)
    if align_corners:
        src = dst * ((n_in - 1) / (n_out - 1)) if n_out > 1 else np.zeros_like(dst)
    else:
        ratio = scale if scale is not None else n_in / n_out
        src = np.maximum((dst + 0.5) * ratio - 0.5, 0.0)
    i0 = np.minimum(np.floor(src).astype(np.int64), n_in - 1)
    i1 = np.minimum(i0 + 1, n_in - 1)
    return i0, i1, (src - i0).astype(np.float32)


@tensor_op
@_named("interpolate")
def interpolate(input: Any, size: Any = None, scale_factor: Any = None, mode: str = "nearest",
                align_corners: bool | None = None, recompute_scale_factor: bool | None = None) -> jax.Array:
    """Resize the spatial axes of ``(N, C, *spatial)`` input by ``'nearest'``, ``'bilinear'`` or ``'area'``.

    ``'area'`` is MindSpore's: adaptive average pooling to the output size (each output
    element is the mean of its window ``[floor(i * n / m), ceil((i + 1) * n / m))`` per axis);
    with ``scale_factor`` the output size is ``floor(n * scale_factor)``.

    Arguments:
        input: ``(N, C, W)`` for nearest, ``(N, C, H, W)`` for either mode; 3-D to 5-D for area.
        size: the output spatial size (an int or a tuple).
        scale_factor: the spatial scale instead of ``size``.
        mode: ``'nearest'``, ``'bilinear'`` or ``'area'``.
        align_corners: for bilinear: align the corner pixels instead of the half-pixel rule.
        recompute_scale_factor: compute the scale from the output size.

    Returns:
        the resized array.
    """
    x = _arr(input)
    if mode not in ("nearest", "bilinear", "area"):
        raise ValueError(f"'mode' must be 'nearest', 'bilinear' or 'area', got {mode!r}")
    if mode == "area":
        return _interpolate_area(x, size, scale_factor, align_corners, recompute_scale_factor)
    if mode == "bilinear" and x.ndim != 4:
        raise ValueError(f"bilinear mode needs a 4-D input (N, C, H, W), got shape {x.shape}")
    if x.ndim < 3:
        raise ValueError(f"input must be at least 3-D (N, C, ...), got shape {x.shape}")
    if align_corners and mode == "nearest":
        raise ValueError("'align_corners' is only valid for mode 'bilinear'")
    nsp = x.ndim - 2
    if (size is None) == (scale_factor is None):
        raise ValueError("exactly one of 'size' and 'scale_factor' must be given")
    in_sp = x.shape[2:]
    if size is not None:
        out_sp = _shape_arg("interpolate", size, "size")
        out_sp = out_sp * nsp if len(out_sp) == 1 else out_sp
        scales: list[float | None] = [None] * nsp
    else:
        sf = scale_factor if isinstance(scale_factor, (tuple, list)) else (scale_factor,) * nsp
        out_sp = tuple(int(math.floor(n * f)) for n, f in zip(in_sp, sf))
        scales = [None if recompute_scale_factor else 1.0 / f for f in sf]
    if len(out_sp) != nsp or _builtin_any(o <= 0 for o in out_sp):
        raise ValueError(f"'size' must give {nsp} positive sizes, got {out_sp}")
    out = x
    for i, (n_in, n_out) in enumerate(zip(in_sp, out_sp)):
        ax = 2 + i
        if mode == "nearest":
            ratio = scales[i] if scales[i] is not None else n_in / n_out
            idx = np.minimum(np.floor(np.arange(n_out) * ratio).astype(np.int64), n_in - 1)
            out = jnp.take(out, jnp.asarray(idx), axis=ax)
        else:
            i0, i1, lam = _linear_weights(n_in, n_out, bool(align_corners), scales[i])
            shape = [1] * out.ndim
            shape[ax] = n_out
            lam_b = jnp.asarray(lam).reshape(shape).astype(out.dtype)
            out = jnp.take(out, jnp.asarray(i0), axis=ax) * (1 - lam_b) + jnp.take(out, jnp.asarray(i1), axis=ax) * lam_b
    return out


def _interpolate_area(x: Any, size: Any, scale_factor: Any, align_corners: Any,
                      recompute_scale_factor: Any) -> jax.Array:
    """MindSpore's ``mode='area'``: adaptive average pooling of the spatial axes to the output size."""
    if x.ndim not in (3, 4, 5):
        raise ValueError(f"area only supports 3-D, 4-D and 5-D input (N, C, *spatial), got {x.ndim}-D "
                         f"shape {tuple(x.shape)}")
    if not jnp.issubdtype(x.dtype, jnp.floating):
        raise TypeError(f"area mode averages: the input dtype must be floating, got {x.dtype}")
    if align_corners is not None:
        raise ValueError(f"'align_corners' option cannot currently be set with the mode = area, and dim = "
                         f"{x.ndim}D, got align_corners={align_corners!r}")
    if size is not None and scale_factor is not None:
        raise ValueError("'size' and 'scale_factor' cannot be set simultaneously")
    nsp = x.ndim - 2
    if size is not None:
        if recompute_scale_factor:
            raise ValueError("it is incorrect to set 'recompute_scale_factor' to True after specifying an "
                             "explicit 'size'")
        out_sp = _shape_arg("interpolate", size, "size")
        out_sp = out_sp * nsp if len(out_sp) == 1 and not isinstance(size, (tuple, list)) else out_sp
        if len(out_sp) != nsp:
            raise ValueError(f"'input' and 'size' must have the same spatial dimensions, got 'input' "
                             f"{nsp}-D spatial and 'size' {len(out_sp)}-D")
    elif scale_factor is not None:
        sf = tuple(scale_factor) if isinstance(scale_factor, (tuple, list)) else (scale_factor,) * nsp
        if len(sf) != nsp:
            raise ValueError(f"'input' and 'scale_factor' must have the same spatial dimensions, got 'input' "
                             f"{nsp}-D spatial and 'scale_factor' {len(sf)}-D")
        if _builtin_any(isinstance(f, bool) or not isinstance(f, (int, float)) or f <= 0 for f in sf):
            raise ValueError(f"the 'scale_factor' must be float and must > 0, got {scale_factor!r}")
        out_sp = tuple(int(math.floor(n * f)) for n, f in zip(x.shape[2:], sf))
    else:
        raise ValueError("'size' and 'scale_factor' cannot be both empty")
    if _builtin_any(o <= 0 for o in out_sp):
        raise ValueError(f"the output size must be positive, got {out_sp} for input shape {tuple(x.shape)}")
    out = x
    for axis, (n_in, n_out) in enumerate(zip(x.shape[2:], out_sp), start=2):
        if n_in == n_out:
            continue
        windows = [((i * n_in) // n_out, -((-(i + 1) * n_in) // n_out)) for i in range(n_out)]
        out = jnp.stack([jnp.mean(jax.lax.slice_in_dim(out, a, b, axis=axis), axis=axis) for a, b in windows],
                        axis=axis)
    return out


@tensor_op
@amp_op("Dot")
@_named("dot")
def dot(input: Any, other: Any) -> jax.Array:
    """``numpy.dot``: contract the last axis of ``input`` with the second-to-last of ``other``.

    Arguments:
        input, other: arrays of rank >= 1.

    Returns:
        the product.
    """
    a, b = _arr(input), _arr(other)
    k_b = b.shape[0] if b.ndim == 1 else (b.shape[-2] if b.ndim else None)
    if a.ndim == 0 or b.ndim == 0 or a.shape[-1] != k_b:
        raise ValueError(f"input.shape[-1] must equal other.shape[-2], got shapes {a.shape} and {b.shape}")
    return jnp.dot(a, b)


@tensor_op
@_named("tensor_dot")
def tensor_dot(x1: Any, x2: Any, axes: Any) -> jax.Array:
    """Sum products over the given axes (``numpy.tensordot``).

    Arguments:
        x1, x2: arrays.
        axes: an int (last ``axes`` of x1 with first ``axes`` of x2) or a pair of axis lists.

    Returns:
        the contraction.
    """
    a, b = _arr(x1), _arr(x2)
    if isinstance(axes, (list, tuple)):
        axes = tuple(tuple(ax) if isinstance(ax, (list, tuple)) else ax for ax in axes)
    return jnp.tensordot(a, b, axes)


@tensor_op
@amp_op("Einsum")
def einsum(equation: str, *operands: Any) -> jax.Array:
    """Einstein summation (``numpy.einsum``).

    Arguments:
        equation: e.g. ``'ij,jk->ik'``.
        operands: the arrays.

    Returns:
        the result.
    """
    if not isinstance(equation, str):
        raise TypeError(f"For 'einsum', 'equation' must be a str, got {type(equation).__name__}")
    try:
        return jnp.einsum(equation, *[_arr(o) for o in operands])
    except (TypeError, ValueError) as exc:
        if _is_jax_error(exc):
            raise
        raise ValueError(f"For 'einsum', equation {equation!r} does not fit operand shapes "
                         f"{[tuple(_arr(o).shape) for o in operands]}: {exc}") from exc


# --- losses ------------------------------------------------------------------------------

def _class_nll(op: str, logp: Any, target: Any, weight: Any, ignore_index: int, reduction: str,
               label_smoothing: float) -> jax.Array:
    """Negative log-likelihood over class axis 1, with weights, ignore_index and smoothing."""
    c = logp.shape[1]
    if reduction not in ("none", "mean", "sum"):
        raise ValueError(f"For '{op}', 'reduction' must be one of 'none', 'mean', 'sum', got {reduction!r}")
    if not 0.0 <= label_smoothing <= 1.0:
        raise ValueError(f"For '{op}', 'label_smoothing' must be in [0, 1], got {label_smoothing}")
    w = jnp.ones((c,), logp.dtype) if weight is None else _arr(weight).astype(logp.dtype)
    if w.shape != (c,):
        raise ValueError(f"For '{op}', 'weight' must have shape ({c},), got {w.shape}")
    if jnp.issubdtype(target.dtype, jnp.floating):
        if target.shape != logp.shape:
            raise ValueError(f"For '{op}', probability targets must have the input's shape {logp.shape}, "
                             f"got {target.shape}")
        if label_smoothing:
            target = target * (1 - label_smoothing) + label_smoothing / c
        wshape = [1] * logp.ndim
        wshape[1] = c
        loss = -jnp.sum(logp * target * w.reshape(wshape), axis=1)
        if reduction == "mean":
            return jnp.sum(loss) / (loss.size if loss.size else 1)
        return _reduce(loss, reduction, op)
    if target.shape != logp.shape[:1] + logp.shape[2:]:
        raise ValueError(f"For '{op}', class-index target must have shape {logp.shape[:1] + logp.shape[2:]}, "
                         f"got {target.shape}")
    _check_index_range(op, "target", target, 0, c, allowed=ignore_index)
    keep = target != ignore_index
    safe = jnp.where(keep, target, 0).astype(jnp.int32)
    picked = jnp.squeeze(jnp.take_along_axis(logp, jnp.expand_dims(safe, 1), axis=1), 1)
    wt = jnp.where(keep, w[safe], 0)
    nll = -picked * wt
    if label_smoothing:
        wshape = [1] * logp.ndim
        wshape[1] = c
        smooth = -jnp.sum(logp * w.reshape(wshape), axis=1) * keep
        loss = (1 - label_smoothing) * nll + (label_smoothing / c) * smooth
    else:
        loss = nll
    if reduction == "mean":
        return jnp.sum(loss) / jnp.sum(wt)
    return _reduce(loss, reduction, op)


@tensor_op
@amp_op("LogSoftmax")  # MindSpore's cross_entropy starts with LogSoftmax; the rest follows its float32
@_named("cross_entropy")
def cross_entropy(input: Any, target: Any, weight: Any = None, ignore_index: int = -100,
                  reduction: str = "mean", label_smoothing: float = 0.0) -> jax.Array:
    """Cross entropy between logits ``(N, C, ...)`` and class indices or class probabilities.

    Arguments:
        input: unnormalised logits, classes on axis 1.
        target: integer class indices ``(N, ...)`` or float probabilities of the input's shape.
        weight: optional per-class weights ``(C,)``.
        ignore_index: class-index targets equal to this are skipped.
        reduction: ``'mean'``, ``'sum'`` or ``'none'``.
        label_smoothing: mix the target with the uniform distribution.

    Returns:
        the loss.
    """
    for arg, value in (("input", input), ("target", target), ("weight", weight)):
        if not (arg == "weight" and value is None) and not isinstance(value, (Tensor, jax.Array)):
            raise TypeError(f"'{arg}' must be a Tensor, got {type(value).__name__}")
    if not isinstance(ignore_index, int) or isinstance(ignore_index, bool):
        raise TypeError(f"'ignore_index' must be an int, got {type(ignore_index).__name__}")
    if not isinstance(label_smoothing, float):
        raise TypeError(f"'label_smoothing' must be a float, got {type(label_smoothing).__name__}")
    x = _arr(input)
    if not jnp.issubdtype(x.dtype, jnp.floating):
        raise TypeError(f"'input' must have a floating-point dtype (float16, float32 or float64), got {x.dtype}")
    if x.ndim < 1:
        raise ValueError(f"input must be at least 1-D, got shape {x.shape}")
    if x.ndim == 1:
        x = x[None]
        target = _arr(target)[None]
    logp = jax.nn.log_softmax(x, axis=1)
    return _class_nll("cross_entropy", logp, _arr(target), weight, ignore_index, reduction, label_smoothing)


@tensor_op
@amp_op("NLLLoss")
@_named("nll_loss")
def nll_loss(inputs: Any, target: Any, weight: Any = None, ignore_index: int = -100, reduction: str = "mean",
             label_smoothing: float = 0.0) -> jax.Array:
    """Negative log-likelihood of log-probabilities ``(N, C, ...)`` at class indices.

    Arguments:
        inputs: log-probabilities, classes on axis 1.
        target: integer class indices ``(N, ...)``.
        weight: optional per-class weights ``(C,)``.
        ignore_index: targets equal to this are skipped.
        reduction: ``'mean'`` (weighted), ``'sum'`` or ``'none'``.
        label_smoothing: mix the target with the uniform distribution.

    Returns:
        the loss.
    """
    x, t = _arr(inputs), _arr(target)
    if jnp.issubdtype(t.dtype, jnp.floating):
        raise TypeError(f"'target' must hold integer class indices, got {t.dtype}")
    if x.ndim == 1:
        x, t = x[None], t[None]
    return _class_nll("nll_loss", x, t, weight, ignore_index, reduction, label_smoothing)


def _pair_loss(op: str, input: Any, target: Any) -> tuple[Any, Any]:
    x, t = _arr(input), _arr(target)
    try:
        jnp.broadcast_shapes(x.shape, t.shape)
    except ValueError as exc:
        raise ValueError(f"For '{op}', 'input' {x.shape} and 'target' {t.shape} must broadcast") from exc
    return x, t


@tensor_op
@_named("mse_loss")
def mse_loss(input: Any, target: Any, reduction: str = "mean") -> jax.Array:
    """Squared error ``(input - target) ** 2``, reduced.

    Arguments:
        input, target: broadcastable arrays.
        reduction: ``'mean'``, ``'sum'`` or ``'none'``.

    Returns:
        the loss.
    """
    x, t = _pair_loss("mse_loss", input, target)
    return _reduce(jnp.square(x - t), reduction, "mse_loss")


@tensor_op
@_named("l1_loss")
def l1_loss(input: Any, target: Any, reduction: str = "mean") -> jax.Array:
    """Absolute error ``|input - target|``, reduced; arguments as :func:`mse_loss`."""
    x, t = _pair_loss("l1_loss", input, target)
    return _reduce(jnp.abs(x - t), reduction, "l1_loss")


@tensor_op
@amp_op("SmoothL1Loss")
@_named("smooth_l1_loss")
def smooth_l1_loss(input: Any, target: Any, beta: float = 1.0, reduction: str = "none") -> jax.Array:
    """Huber-like loss: ``0.5 d**2 / beta`` where ``|d| < beta``, else ``|d| - 0.5 beta``.

    Arguments:
        input, target: broadcastable arrays.
        beta: the switch point (positive).
        reduction: ``'none'`` (MindSpore's default), ``'mean'`` or ``'sum'``.

    Returns:
        the loss.
    """
    if float(beta) <= 0:
        raise ValueError(f"'beta' must be positive, got {beta}")
    x, t = _pair_loss("smooth_l1_loss", input, target)
    d = jnp.abs(x - t)
    return _reduce(jnp.where(d < beta, 0.5 * d * d / beta, d - 0.5 * beta), reduction, "smooth_l1_loss")


@tensor_op
@amp_op("BCEWithLogitsLoss")
@_named("binary_cross_entropy_with_logits")
def binary_cross_entropy_with_logits(input: Any, target: Any, weight: Any = None, pos_weight: Any = None,
                                     reduction: str = "mean") -> jax.Array:
    """Binary cross entropy on logits, computed stably through ``log_sigmoid``.

    Arguments:
        input: logits.
        target: probabilities of the same shape.
        weight: optional weight broadcast over the loss.
        pos_weight: optional weight of the positive term, broadcast over the classes.
        reduction: ``'mean'``, ``'sum'`` or ``'none'``.

    Returns:
        the loss.
    """
    x, t = _pair_loss("binary_cross_entropy_with_logits", input, target)
    log_p = jax.nn.log_sigmoid(x)
    log_not_p = jax.nn.log_sigmoid(-x)
    pos = t * log_p if pos_weight is None else _arr(pos_weight) * t * log_p
    loss = -(pos + (1 - t) * log_not_p)
    if weight is not None:
        loss = loss * _arr(weight)
    return _reduce(loss, reduction, "binary_cross_entropy_with_logits")


# --- introspection and side effects ------------------------------------------------------

@tensor_op
def size(input_x: Any) -> int:
    """The number of elements, as a Python int."""
    return int(np.prod(np.shape(_arr(input_x))))


@tensor_op
def numel(input: Any) -> int:
    """The number of elements, as a Python int."""
    return size(input)


@tensor_op
def shape(input_x: Any) -> tuple[int, ...]:
    """The shape, as a tuple of ints."""
    return tuple(np.shape(_arr(input_x)))


@tensor_op
def rank(input_x: Any) -> int:
    """The number of dimensions, as a Python int."""
    return int(np.ndim(_arr(input_x)))


@tensor_op
def assign(variable: Any, value: Any) -> jax.Array:
    """Write ``value`` into ``variable`` in place and return the new value.

    As in MindSpore, the variable's dtype never changes: a Tensor ``value`` whose
    dtype would promote it (an int8 Parameter and a uint8 value promote to int16)
    is a TypeError; one that promotes to the variable's own dtype is cast to it.
    Arrays and Python numbers are cast.

    Arguments:
        variable: a :class:`~mindjax.Parameter`, or a Tensor (MindSpore's Tensors are mutable too).
        value: an array broadcastable to the variable's shape.

    Returns:
        the variable's new value.

    Raises:
        TypeError: ``variable`` is neither, or the dtypes need a conversion of the variable.
    """
    if not isinstance(variable, Tensor):
        raise TypeError(f"For 'assign', 'variable' must be a Parameter or Tensor, got {type(variable).__name__}")
    old = variable._value
    new = _arr(value)
    if isinstance(value, Tensor) and new.dtype != old.dtype:
        promoted = jnp.promote_types(old.dtype, new.dtype)
        if promoted != old.dtype:
            raise TypeError(f"For 'assign': Data type conversion is not supported for a 'Parameter', nor for the "
                            f"input tensor of an in-place operator, so data type {_ms_dtype_name(old.dtype)}, "
                            f"which cannot be converted to data type {_ms_dtype_name(promoted)} automatically.")
    if new.shape != old.shape:
        try:
            new = jnp.broadcast_to(new, old.shape)
        except ValueError as exc:
            raise ValueError(f"For 'assign', 'value' shape {new.shape} does not fit the Parameter "
                             f"'{getattr(variable, 'name', 'Tensor')}' of shape {old.shape}") from exc
    if isinstance(variable, Variable) and hasattr(variable, "set_data"):
        variable.set_data(new)
    else:
        variable.assign_value(new)
    return variable._value


def _ms_dtype_name(dtype: Any) -> str:
    """MindSpore's name of a dtype (``Int8``, ``Float32``)."""
    from mindjax.common.dtype import to_ms_dtype

    return str(to_ms_dtype(dtype))


def make_tuple(*elements: Any) -> tuple[Any, ...]:
    """MindSpore's ``MakeTuple``: the tuple of ``elements`` (traced code keeps Python tuples)."""
    return tuple(elements)


def make_list(*elements: Any) -> list[Any]:
    """MindSpore's ``make_list``: the list of ``elements``."""
    return list(elements)


def _sequence_index(op: str, data: Any, index: Any) -> int:
    if not isinstance(data, (tuple, list)):
        raise TypeError(f"For '{op}', 'data' must be a tuple or list, got {type(data).__name__}")
    if not isinstance(index, (int, np.integer)) or isinstance(index, bool):
        raise TypeError(f"For '{op}', 'index' must be an int, got {type(index).__name__}")
    n = len(data)
    if not -n <= index < n:
        raise IndexError(f"For '{op}', 'index' should be in range[{-n}, {n}), but got {index}.")
    return int(index)


def tuple_getitem(data: Sequence[Any], index: int) -> Any:
    """MindSpore's ``TupleGetItem``: ``data[index]`` with a range check that names the op."""
    return data[_sequence_index("TupleGetItem", data, index)]


def list_getitem(data: Sequence[Any], index: int) -> Any:
    """MindSpore's ``list_getitem``: ``data[index]``."""
    return data[_sequence_index("list_getitem", data, index)]


def tuple_setitem(data: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    """MindSpore's ``tuple_setitem``: a new tuple with ``value`` at ``index``."""
    i = _sequence_index("tuple_setitem", data, index) % len(data)
    return tuple(data[:i]) + (value,) + tuple(data[i + 1:])


def list_setitem(data: list[Any], index: int, value: Any) -> list[Any]:
    """MindSpore's ``list_setitem``: a new list with ``value`` at ``index``."""
    i = _sequence_index("list_setitem", data, index) % len(data)
    return list(data[:i]) + [value] + list(data[i + 1:])


def dict_getitem(data: dict[Any, Any], key: Any) -> Any:
    """MindSpore's ``dict_getitem``: ``data[key]``."""
    if not isinstance(data, dict):
        raise TypeError(f"For 'dict_getitem', 'data' must be a dict, got {type(data).__name__}")
    return data[key]


@tensor_op
def depend(value: Any, expr: Any) -> Any:
    """Return ``value`` (execution order is JAX's data dependencies; ``expr`` is kept for compatibility)."""
    return value


@tensor_op
def print_(*input_x: Any) -> None:
    """Print arrays and strings, also from inside compiled code (``jax.debug.print``)."""
    parts, args = [], []
    for item in input_x:
        if isinstance(item, str):
            parts.append(item.replace("{", "{{").replace("}", "}}"))
        else:
            parts.append("{}")
            args.append(_arr(item))
    jax.debug.print("\n".join(parts), *args)


@tensor_op
def partial(func: Callable[..., Any], *args: Any) -> Callable[..., Any]:
    """``func`` with its first arguments fixed (MindSpore's ``F.partial``).

    Example:
        >>> add3 = partial(lambda a, b: a + b, 3)
        >>> add3(4)
        7
    """
    if not callable(func):
        raise TypeError(f"For 'partial', 'func' must be callable, got {type(func).__name__}")
    return functools.partial(func, *args)



# MindSpore's ``ops.functional`` (``from mindspore.ops import functional as F``) also holds the ops of
# the sibling modules. Imported last, since they use the helpers above; this module's own code calls
# the builtins they shadow (all, any, round, slice) through the ``_builtin_*`` names.
from mindjax.ops import functional_array as _functional_array  # noqa: E402
from mindjax.ops import functional_math as _functional_math  # noqa: E402
from mindjax.ops import functional_random_nn as _functional_random_nn  # noqa: E402
from mindjax.ops import functional_scalar as _functional_scalar  # noqa: E402

for _module in (_functional_array, _functional_math, _functional_random_nn, _functional_scalar):
    globals().update({_name: getattr(_module, _name) for _name in _module.__all__})
    __all__ += list(_module.__all__)
del _module


def __getattr__(name: str) -> Any:
    """MindSpore's ``ops.functional`` holds every public op: names defined in the ``ops.function``
    modules (``F.cumprod``, ``F.isinf`` ...) resolve through :mod:`mindjax.ops`."""
    if not name.startswith("_"):
        import mindjax.ops as _ops  # lazy: mindjax.ops imports this module

        value = _ops.__dict__.get(name)
        if value is not None and callable(value) and not isinstance(value, type):
            return value
    raise AttributeError(f"module 'mindjax.ops.functional' has no attribute '{name}'")
