"""More of MindSpore's functional ops: random creation and sampling, and neural-network ops.

Random ops draw from the global key (``ms.set_seed``) through
:func:`mindjax.common.random.next_key`, so the same seed gives the same
numbers, also inside ``jax.jit``.

Example:
    >>> import numpy as np
    >>> from mindjax import ops
    >>> ops.rand(2, 3).shape
    (2, 3)
    >>> ops.hardsigmoid(np.array([0.0])).tolist()
    [0.5]
"""
from __future__ import annotations

from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from mindjax.common.precision import amp_op
from mindjax.common.checks import check_index_range as _check_index_range
from mindjax.common.dtype import to_jax_dtype
from mindjax.common.tensor import tensor_op
from mindjax.ops.functional import _arr, _axis, _key, _named, _shape_arg

__all__ = [
    # random
    "rand", "randn", "randint", "bernoulli", "multinomial",
    # neural network
    "hardswish", "hardsigmoid", "mish", "selu", "prelu", "glu", "kl_div", "adaptive_avg_pool2d",
    "embedding", "bias_add",
]


# --- random ------------------------------------------------------------------------------

def _size(op: str, size: tuple[Any, ...]) -> tuple[int, ...]:
    # MindSpore accepts rand(2, 3) and rand((2, 3)) alike.
    if len(size) == 1 and isinstance(size[0], (tuple, list)):
        size = tuple(size[0])
    return _shape_arg(op, size, "size")


def _float_dtype(op: str, dtype: Any) -> Any:
    dt = jnp.float32 if dtype is None else to_jax_dtype(dtype)
    if not jnp.issubdtype(dt, jnp.floating):
        raise TypeError(f"For '{op}', 'dtype' must be a float type, got {np.dtype(dt)}")
    return dt


@tensor_op
@_named("rand")
def rand(*size: Any, dtype: Any = None, seed: int | None = None) -> jax.Array:
    """Uniform samples in ``[0, 1)``.

    Arguments:
        size: the shape, as ints or one tuple.
        dtype: a float dtype (default float32).
        seed: mixed into the global key when given.

    Returns:
        the samples.
    """
    dt = _float_dtype("rand", dtype)
    return jax.random.uniform(_key(seed), _size("rand", size), jnp.float32).astype(dt)


@tensor_op
@_named("randn")
def randn(*size: Any, dtype: Any = None, seed: int | None = None) -> jax.Array:
    """Standard normal samples.

    Arguments:
        size: the shape, as ints or one tuple.
        dtype: a float dtype (default float32).
        seed: mixed into the global key when given.

    Returns:
        the samples.
    """
    dt = _float_dtype("randn", dtype)
    return jax.random.normal(_key(seed), _size("randn", size), jnp.float32).astype(dt)


@tensor_op
@_named("randint")
def randint(low: int, high: int, size: Any, seed: int | None = None, *, dtype: Any = None) -> jax.Array:
    """Integers drawn uniformly from ``[low, high)``.

    Arguments:
        low, high: the bounds (ints, ``low < high``).
        size: the shape (a tuple).
        seed: mixed into the global key when given.
        dtype: an integer dtype (default int64, which is int32 unless x64 is enabled).

    Returns:
        the samples.
    """
    if not isinstance(size, (tuple, list)):
        raise TypeError(f"'size' must be a tuple, got {type(size).__name__}")
    for name, v in (("low", low), ("high", high)):
        if not isinstance(v, (int, np.integer)) or isinstance(v, bool):
            raise TypeError(f"'{name}' must be an int, got {type(v).__name__}")
    if low >= high:
        raise ValueError(f"'low' must be less than 'high', got low={low}, high={high}")
    dt = jnp.dtype(jnp.int64 if dtype is None else to_jax_dtype(dtype))
    dt = jnp.dtype(jax.dtypes.canonicalize_dtype(dt))
    if not jnp.issubdtype(dt, jnp.integer):
        raise TypeError(f"'dtype' must be an integer type, got {dt}")
    return jax.random.randint(_key(seed), _shape_arg("randint", size, "size"), int(low), int(high), dtype=dt)


@tensor_op
@_named("bernoulli")
def bernoulli(input: Any, p: Any = 0.5, seed: int | None = None) -> jax.Array:
    """Ones with probability ``p`` and zeros otherwise, in ``input``'s shape and dtype.

    Arguments:
        input: an array giving the shape and dtype.
        p: a probability in ``[0, 1]`` or an array of them broadcastable to ``input``.
        seed: mixed into the global key when given.

    Returns:
        the samples.
    """
    x = _arr(input)
    if isinstance(p, (int, float)) and not 0 <= float(p) <= 1:
        raise ValueError(f"'p' must be in [0, 1], got {p}")
    prob = jnp.broadcast_to(_arr(p).astype(jnp.float32), x.shape)
    return jax.random.bernoulli(_key(seed), prob, x.shape).astype(x.dtype)


@tensor_op
@_named("multinomial")
def multinomial(input: Any, num_samples: int, replacement: bool = True, seed: int | None = None) -> jax.Array:
    """Draw category indices with probabilities proportional to each row of ``input``.

    Arguments:
        input: a 1-D or 2-D array of non-negative weights.
        num_samples: samples per row.
        replacement: draw with replacement; without it ``num_samples`` must not exceed the
            number of categories.
        seed: mixed into the global key when given.

    Returns:
        int32 indices of shape ``(num_samples,)`` or ``(rows, num_samples)``.
    """
    x = _arr(input).astype(jnp.float32)
    if x.ndim not in (1, 2):
        raise ValueError(f"'input' must be 1-D or 2-D, got shape {x.shape}")
    n = int(num_samples)
    if n <= 0:
        raise ValueError(f"'num_samples' must be positive, got {num_samples}")
    if not replacement and n > x.shape[-1]:
        raise ValueError(f"'num_samples' must not exceed the last dimension of input ({x.shape[-1]}) "
                         f"without 'replacement', got {n}")
    rows = x.reshape(-1, x.shape[-1])
    logits = jnp.where(rows > 0, jnp.log(jnp.where(rows > 0, rows, 1.0)), -jnp.inf)
    key = _key(seed)
    if replacement:
        out = jax.random.categorical(key, logits, axis=-1, shape=(n, rows.shape[0])).T
    else:
        # Gumbel top-k draws without replacement.
        g = jax.random.gumbel(key, rows.shape, jnp.float32)
        out = jax.lax.top_k(logits + g, n)[1]
    out = out.astype(jnp.int32)
    return out[0] if x.ndim == 1 else out


# --- neural network -------------------------------------------------------------------------

@tensor_op
@_named("hardswish")
def hardswish(input: Any) -> jax.Array:
    """``input * relu6(input + 3) / 6``.

    Arguments:
        input: a float array.

    Returns:
        the activation.
    """
    x = _arr(input)
    return x * jnp.clip(x + 3, 0, 6) / 6


@tensor_op
@_named("hardsigmoid")
def hardsigmoid(input: Any) -> jax.Array:
    """``relu6(input + 3) / 6``.

    Arguments:
        input: a float array.

    Returns:
        the activation.
    """
    x = _arr(input)
    return jnp.clip(x + 3, 0, 6) / 6


@tensor_op
@_named("mish")
def mish(x: Any) -> jax.Array:
    """``x * tanh(softplus(x))``.

    Arguments:
        x: a float array.

    Returns:
        the activation.
    """
    a = _arr(x)
    return a * jnp.tanh(jax.nn.softplus(a))


@tensor_op
@_named("selu")
def selu(input_x: Any) -> jax.Array:
    """Scaled ELU with MindSpore's constants (scale 1.0507..., alpha 1.6732...).

    Arguments:
        input_x: a float array.

    Returns:
        the activation.
    """
    return jax.nn.selu(_arr(input_x))


@tensor_op
@amp_op("PReLU")
@_named("prelu")
def prelu(input: Any, weight: Any) -> jax.Array:
    """``max(0, x) + weight * min(0, x)`` with one weight per channel (axis 1) or one shared.

    Arguments:
        input: a float array.
        weight: a 1-D array of 1 or ``input.shape[1]`` slopes.

    Returns:
        the activation.
    """
    x, w = _arr(input), _arr(weight)
    channels = x.shape[1] if x.ndim >= 2 else 1
    if w.ndim != 1 or w.shape[0] not in (1, channels):
        raise ValueError(f"'weight' must be 1-D with 1 or {channels} elements, got shape {w.shape}")
    if x.ndim >= 2:
        w = w.reshape((1, -1) + (1,) * (x.ndim - 2))
    return jnp.where(x >= 0, x, w * x).astype(x.dtype)


@tensor_op
@_named("glu")
def glu(x: Any, axis: int = -1) -> jax.Array:
    """Gated linear unit: split ``x`` in two halves ``a, b`` along ``axis``; return ``a * sigmoid(b)``.

    Arguments:
        x: a float array whose ``axis`` dimension is even.
        axis: the split axis.

    Returns:
        the array with that dimension halved.
    """
    a = _arr(x)
    ax = _axis("glu", axis, a.ndim)
    if a.shape[ax] % 2:
        raise ValueError(f"'x' must have an even dimension along axis {axis}, got shape {a.shape}")
    first, second = jnp.split(a, 2, axis=ax)
    return first * jax.nn.sigmoid(second)


@tensor_op
@amp_op("KLDivLoss")
@_named("kl_div")
def kl_div(logits: Any, labels: Any, reduction: str = "mean") -> jax.Array:
    """Kullback-Leibler divergence ``labels * (log(labels) - logits)``, with ``logits`` log-probabilities.

    Arguments:
        logits: log-probabilities.
        labels: probabilities (same shape).
        reduction: ``'none'``, ``'mean'`` (over all elements), ``'batchmean'`` (over the first
            dimension) or ``'sum'``.

    Returns:
        the loss.
    """
    if reduction not in ("none", "mean", "batchmean", "sum"):
        raise ValueError(f"'reduction' must be 'none', 'mean', 'batchmean' or 'sum', got {reduction!r}")
    lg, lb = _arr(logits), _arr(labels)
    loss = jnp.where(lb > 0, lb * (jnp.log(jnp.where(lb > 0, lb, 1)) - lg), -lb * lg)
    if reduction == "none":
        return loss
    total = jnp.sum(loss)
    if reduction == "sum":
        return total
    if reduction == "batchmean":
        return total / (lg.shape[0] if lg.ndim else 1)
    return total / loss.size


def _adaptive_bounds(n_in: int, n_out: int) -> list[tuple[int, int]]:
    return [((i * n_in) // n_out, -((-(i + 1) * n_in) // n_out)) for i in range(n_out)]


@tensor_op
@_named("adaptive_avg_pool2d")
def adaptive_avg_pool2d(input: Any, output_size: Any) -> jax.Array:
    """Average-pool the last two dimensions into ``output_size`` bins (PyTorch-style bin edges).

    Arguments:
        input: a 3-D ``(C, H, W)`` or 4-D ``(N, C, H, W)`` array.
        output_size: an int or ``(h, w)``; None in either keeps that dimension.

    Returns:
        the pooled array.
    """
    x = _arr(input)
    if x.ndim not in (3, 4):
        raise ValueError(f"'input' must be 3-D or 4-D, got shape {x.shape}")
    size = (output_size, output_size) if isinstance(output_size, int) else tuple(output_size)
    if len(size) != 2:
        raise ValueError(f"'output_size' must be an int or a pair, got {output_size!r}")
    h_in, w_in = x.shape[-2:]
    h_out = h_in if size[0] is None else int(size[0])
    w_out = w_in if size[1] is None else int(size[1])
    rows = [jnp.mean(x[..., a:b, :], axis=-2) for a, b in _adaptive_bounds(h_in, h_out)]
    xr = jnp.stack(rows, axis=-2)
    cols = [jnp.mean(xr[..., a:b], axis=-1) for a, b in _adaptive_bounds(w_in, w_out)]
    return jnp.stack(cols, axis=-1)


@tensor_op
@_named("embedding")
def embedding(input: Any, weight: Any, padding_idx: int | None = None, max_norm: float | None = None,
              norm_type: float = 2.0, scale_grad_by_freq: bool = False) -> jax.Array:
    """Look up rows of ``weight`` at integer indices ``input``.

    Arguments:
        input: integer indices.
        weight: the ``(num_embeddings, dim)`` table.
        padding_idx: the index whose row gets no gradient.
        max_norm: when given, looked-up rows with a larger ``norm_type``-norm are rescaled to it
            (MindSpore also writes the rescaled rows back into ``weight``; MindJAX returns them only).
        norm_type: the norm order for ``max_norm``.
        scale_grad_by_freq: accepted for compatibility (gradients are not rescaled).

    Returns:
        the embeddings, of shape ``input.shape + (dim,)``.
    """
    idx, w = _arr(input), _arr(weight)
    if not jnp.issubdtype(idx.dtype, jnp.integer):
        raise TypeError(f"'input' must be an integer array, got {idx.dtype}")
    if w.ndim != 2:
        raise ValueError(f"'weight' must be 2-D, got shape {w.shape}")
    n = w.shape[0]
    _check_index_range("embedding", "input", idx, -n, n)
    if padding_idx is not None:
        if not -n <= int(padding_idx) < n:
            raise ValueError(f"'padding_idx' must be in [{-n}, {n}), got {padding_idx}")
        pad = int(padding_idx) % n
        mask = (jnp.arange(n) == pad)[:, None]
        w = jnp.where(mask, jax.lax.stop_gradient(w), w)
    rows = jnp.take(w, idx, axis=0)
    if max_norm is not None:
        norms = jnp.linalg.norm(rows, ord=norm_type, axis=-1, keepdims=True)
        scale = jnp.where(norms > max_norm, max_norm / (norms + 1e-7), 1.0)
        rows = rows * jax.lax.stop_gradient(scale)
    return rows


@tensor_op
@amp_op("BiasAdd")
@_named("bias_add")
def bias_add(input_x: Any, bias: Any) -> jax.Array:
    """Add a 1-D bias along the channel axis 1.

    Arguments:
        input_x: an array with at least 2 dimensions.
        bias: a 1-D array of ``input_x.shape[1]`` elements.

    Returns:
        ``input_x + bias`` broadcast along axis 1.
    """
    x, b = _arr(input_x), _arr(bias)
    if x.ndim < 2 or b.shape != (x.shape[1],):
        raise ValueError(f"'bias' must have shape ({x.shape[1] if x.ndim >= 2 else '?'},) for input {x.shape}, "
                         f"got {b.shape}")
    return x + b.reshape((1, -1) + (1,) * (x.ndim - 2))
