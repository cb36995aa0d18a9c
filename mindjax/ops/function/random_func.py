"""MindSpore's ``mindspore.ops.function.random_func``: sampling ops on MindJAX's global key.

Every op draws from the global key that ``mindjax.set_seed`` seeds (a ``seed`` argument is
mixed into it), so runs are reproducible; the numbers differ from MindSpore's generator,
the distributions do not. The ops MindJAX had before this module (``ops.rand``,
``ops.normal`` ...) are re-exported here from ``mindjax.ops.functional*``.

Example:
    >>> from mindjax import ops
    >>> ops.randperm(5).shape
    (5,)
"""
from __future__ import annotations

from typing import Any

import jax
import jax.numpy as jnp

from mindjax.common import random as _random
from mindjax.common.dtype import to_jax_dtype
from mindjax.common.tensor import tensor_op
from mindjax.ops.function._build import _arr, _float, _named, check_int, check_tensor, int_dtype
# Existing ops of this family, re-exported under MindSpore's module path.
from mindjax.ops.functional import (  # noqa: F401
    bernoulli, multinomial, normal, rand, randint, randn, standard_normal, uniform,
)

__all__ = [
    "rand_like", "randn_like", "randint_like", "randperm", "gamma", "random_gamma", "poisson", "random_poisson",
    "laplace", "standard_laplace", "random_categorical", "shuffle", "multinomial_with_replacement",
    "normal_", "uniform_", "exponential_", "random_",
]


def _key(seed: Any) -> Any:
    key = _random.next_key()
    return key if seed is None else jax.random.fold_in(key, int(seed))


def _shape(op: str, shape: Any) -> tuple[int, ...]:
    if isinstance(shape, int):
        return (shape,)
    if hasattr(shape, "shape") and not isinstance(shape, tuple):
        return tuple(int(v) for v in jnp.asarray(_arr(shape)).reshape(-1).tolist())
    if not isinstance(shape, (tuple, list)):
        raise TypeError(f"'shape' must be a tuple of ints, got {type(shape).__name__}")
    return tuple(check_int("shape", v, 0) for v in shape)


def _float_dtype(dtype: Any, default: Any) -> Any:
    dt = default if dtype is None else to_jax_dtype(dtype)
    if not jnp.issubdtype(dt, jnp.floating):
        raise TypeError(f"'dtype' must be a floating-point type, got {dt}")
    return dt


@tensor_op
@_named("rand_like")
def rand_like(input: Any, seed: int | None = None, *, dtype: Any = None) -> jax.Array:
    """Uniform samples in [0, 1) with the input's shape (and dtype unless ``dtype`` is given)."""
    x = _arr(input)
    dt = _float_dtype(dtype, x.dtype if jnp.issubdtype(x.dtype, jnp.floating) else jnp.float32)
    return jax.random.uniform(_key(seed), x.shape, dt)


@tensor_op
@_named("randn_like")
def randn_like(input: Any, seed: int | None = None, *, dtype: Any = None) -> jax.Array:
    """Standard-normal samples with the input's shape (and dtype unless ``dtype`` is given)."""
    x = _arr(input)
    dt = _float_dtype(dtype, x.dtype if jnp.issubdtype(x.dtype, jnp.floating) else jnp.float32)
    return jax.random.normal(_key(seed), x.shape, dt)


@tensor_op
@_named("randint_like")
def randint_like(input: Any, low: int, high: int, seed: int | None = None, *, dtype: Any = None) -> jax.Array:
    """Integers uniform in ``[low, high)`` with the input's shape."""
    x = _arr(input)
    low, high = check_int("low", low), check_int("high", high)
    if low >= high:
        raise ValueError(f"'low' ({low}) must be below 'high' ({high})")
    dt = int_dtype() if dtype is None else to_jax_dtype(dtype)
    return jax.random.randint(_key(seed), x.shape, low, high, dtype=dt)


@tensor_op
@_named("randperm")
def randperm(n: int, seed: int = 0, offset: int = 0, dtype: Any = None) -> jax.Array:
    """A random permutation of ``0 .. n - 1``."""
    n = check_int("n", n, 0)
    dt = int_dtype() if dtype is None else to_jax_dtype(dtype)
    key = jax.random.fold_in(_key(seed or None), check_int("offset", offset, 0))
    return jax.random.permutation(key, n).astype(dt)


@tensor_op
@_named("gamma")
def gamma(shape: Any, alpha: Any, beta: Any, seed: int | None = None) -> jax.Array:
    """Gamma samples with concentration ``alpha`` and rate ``beta``, shaped ``shape + broadcast(alpha, beta)``."""
    a, b = _float(_arr(alpha)), _float(_arr(beta))
    batch = jnp.broadcast_shapes(a.shape, b.shape)
    out = _shape("gamma", shape) + batch
    return jax.random.gamma(_key(seed), jnp.broadcast_to(a, out), out, a.dtype) / b


@tensor_op
@_named("random_gamma")
def random_gamma(shape: Any, alpha: Any, seed: int | None = None) -> jax.Array:
    """Gamma samples with unit rate, shaped ``shape + alpha.shape``."""
    a = _float(_arr(alpha))
    out = _shape("random_gamma", shape) + a.shape
    return jax.random.gamma(_key(seed), jnp.broadcast_to(a, out), out, a.dtype)


@tensor_op
@_named("poisson")
def poisson(shape: Any, mean: Any, seed: int | None = None) -> jax.Array:
    """Poisson samples (int32) with rate ``mean``, shaped ``shape + mean.shape``."""
    m = _float(_arr(mean))
    out = _shape("poisson", shape) + m.shape
    return jax.random.poisson(_key(seed), jnp.broadcast_to(m, out), out).astype(jnp.int32)


@tensor_op
@_named("random_poisson")
def random_poisson(shape: Any, rate: Any, seed: int | None = None, dtype: Any = None) -> jax.Array:
    """Poisson samples with rate ``rate``, shaped ``shape + rate.shape`` (float32 by default)."""
    r = _float(_arr(rate))
    out = _shape("random_poisson", shape) + r.shape
    dt = jnp.float32 if dtype is None else to_jax_dtype(dtype)
    return jax.random.poisson(_key(seed), jnp.broadcast_to(r, out), out).astype(dt)


@tensor_op
@_named("laplace")
def laplace(shape: Any, mean: Any, lambda_param: Any, seed: int | None = None) -> jax.Array:
    """Laplace samples with location ``mean`` and scale ``lambda_param``."""
    m, s = _float(_arr(mean)), _float(_arr(lambda_param))
    out = _shape("laplace", shape)
    return m + s * jax.random.laplace(_key(seed), out, m.dtype)


@tensor_op
@_named("standard_laplace")
def standard_laplace(shape: Any, seed: int | None = None) -> jax.Array:
    """Laplace samples with location 0 and scale 1 (float32)."""
    return jax.random.laplace(_key(seed), _shape("standard_laplace", shape), jnp.float32)


@tensor_op
@_named("random_categorical")
def random_categorical(logits: Any, num_sample: int, seed: int = 0, dtype: Any = None) -> jax.Array:
    """``num_sample`` class indices per row of 2-D unnormalised log-probabilities ``logits``."""
    lg = _float(_arr(logits))
    if lg.ndim != 2:
        raise ValueError(f"'logits' must be 2-D, got shape {lg.shape}")
    n = check_int("num_sample", num_sample, 1)
    dt = int_dtype() if dtype is None else to_jax_dtype(dtype)
    out = jax.random.categorical(_key(seed or None), lg, axis=-1, shape=(n, lg.shape[0]))
    return out.T.astype(dt)


@tensor_op
@_named("shuffle")
def shuffle(x: Any, seed: int | None = None) -> jax.Array:
    """``x`` with its first axis randomly permuted."""
    return jax.random.permutation(_key(seed), _arr(x), axis=0)


@tensor_op
@_named("multinomial_with_replacement")
def multinomial_with_replacement(x: Any, seed: Any, offset: Any, numsamples: int,
                                 replacement: bool = False) -> jax.Array:
    """``numsamples`` category indices per row of the (unnormalised) probabilities ``x``."""
    from mindjax.ops.functional import multinomial as _multinomial

    return _multinomial(x, check_int("numsamples", numsamples, 1), replacement, seed)




# -- in place: the Tensor methods of the same name, as functions ------------------------------------------

def normal_(input: Any, mean: Any = 0, std: Any = 1, *, generator: Any = None) -> Any:  # noqa: A002
    """Fill ``input`` in place with samples of ``N(mean, std**2)`` (``Tensor.normal_``).

    Arguments:
        input: the Tensor written into (its shape and dtype are kept).
        mean, std: numbers or one-element Tensors.
        generator: a ``mindspore.Generator`` to draw from (None: the global random state).

    Returns:
        ``input``.
    """
    return check_tensor("normal_", "input", input).normal_(mean, std, generator=generator)


def uniform_(input: Any, from_: Any = 0, to: Any = 1, *, generator: Any = None) -> Any:  # noqa: A002
    """Fill ``input`` in place with samples uniform in ``[from_, to)`` (``Tensor.uniform_``).

    Returns:
        ``input``.

    Raises:
        RuntimeError: ``from_`` is larger than ``to``.
    """
    return check_tensor("uniform_", "input", input).uniform_(from_, to, generator=generator)


def exponential_(input: Any, lambd: Any = 1, *, generator: Any = None) -> Any:  # noqa: A002
    """Fill ``input`` in place with exponential samples of rate ``lambd`` (``Tensor.exponential_``).

    Returns:
        ``input``.
    """
    return check_tensor("exponential_", "input", input).exponential_(lambd, generator=generator)


def random_(input: Any, from_: int = 0, to: int | None = None, *, generator: Any = None) -> Any:  # noqa: A002
    """Fill ``input`` in place with integers uniform in ``[from_, to)`` (``to`` None: up to the dtype's largest
    value), as ``Tensor.random_``.

    Returns:
        ``input``.

    Raises:
        TypeError: ``from_`` or ``to`` is not an int.
        ValueError: ``from_ >= to``.
    """
    return check_tensor("random_", "input", input).random_(from_, to, generator=generator)
