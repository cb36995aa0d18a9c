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
    "choice_with_mask", "uniform_candidate_sampler", "log_uniform_candidate_sampler",
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
# --- sampling with a mask and candidate samplers (TensorFlow's rules, as MindSpore follows them) -------

def _choice_with_mask(x: Any, count: int, key: Any) -> tuple[jax.Array, jax.Array]:
    a = _arr(x)
    if a.dtype != jnp.bool_:
        raise TypeError(f"'input_x' must be a bool tensor, got {a.dtype}")
    if not 1 <= a.ndim <= 5:
        raise ValueError(f"'input_x' must have 1 to 5 dimensions, got shape {a.shape}")
    count = check_int("count", count, 1)
    flat = a.reshape(-1)
    # A random order of all positions, the True ones first: the first ``count`` are the choice.
    score = jnp.where(flat, jax.random.uniform(key, flat.shape), 2.0)
    order = jnp.argsort(score)
    picked = order[:count] if order.shape[0] >= count else jnp.pad(order, (0, count - order.shape[0]))
    valid = (jnp.arange(count) < jnp.sum(flat)) & (jnp.arange(count) < flat.shape[0])
    coords = jnp.stack(jnp.unravel_index(picked, a.shape), axis=-1).astype(jnp.int32)
    return jnp.where(valid[:, None], coords, 0), valid


@tensor_op
@_named("choice_with_mask")
def choice_with_mask(input_x: Any, count: int = 256, seed: int | None = None) -> tuple[jax.Array, jax.Array]:
    """``count`` coordinates of True elements of a bool tensor, in random order, and which of them are real.

    Arguments:
        input_x: a bool tensor of rank 1 to 5.
        count: how many to choose (positive). Default: ``256``.
        seed: mixed into the global key when given. Default: ``None``.

    Returns:
        ``(index, mask)``: ``index`` int32 ``(count, rank)``, rows past the number of True elements zero;
        ``mask`` bool ``(count,)``, False on those rows.
    """
    return _choice_with_mask(input_x, count, _key(seed))


def _check_true_classes(true_classes: Any, num_true: int, dtypes: tuple[Any, ...]) -> jax.Array:
    t = _arr(true_classes)
    if t.dtype not in dtypes:
        raise TypeError(f"'true_classes' must be a {' or '.join(str(jnp.dtype(d)) for d in dtypes)} tensor, "
                        f"got {t.dtype}")
    if t.ndim != 2 or t.shape[1] != num_true:
        raise ValueError(f"'true_classes' must have shape (batch_size, num_true={num_true}), got {t.shape}")
    return t


def _check_sampler_args(num_true: Any, num_sampled: Any, unique: Any, range_max: Any,
                        seed: Any) -> tuple[int, int, bool, int, int]:
    if not isinstance(unique, bool):
        raise TypeError(f"'unique' must be a bool, got {type(unique).__name__}")
    num_true, num_sampled = check_int("num_true", num_true, 1), check_int("num_sampled", num_sampled, 1)
    range_max, seed = check_int("range_max", range_max, 1), check_int("seed", seed, 0)
    if unique and num_sampled > range_max:
        raise ValueError(f"'num_sampled' ({num_sampled}) must be at most 'range_max' ({range_max}) when "
                         f"'unique' is True")
    return num_true, num_sampled, unique, range_max, seed


def _candidates(key: Any, log_p: jax.Array, num_sampled: int, unique: bool,
                banned: jax.Array | None) -> tuple[jax.Array, jax.Array]:
    """Samples of classes with log-probabilities ``log_p`` and the number of draws it took.

    Drawing with replacement and rejecting repeats (and ``banned`` classes) is sampling without
    replacement in proportion to ``p``: the Gumbel top-k does it in one step, and the draws it took
    are, between the k-th and the next accepted class, geometric in the mass not yet taken.
    """
    k_sample, k_tries = jax.random.split(key)
    allowed = log_p if banned is None else jnp.where(banned, -jnp.inf, log_p)
    mass = jnp.sum(jnp.exp(allowed))
    if not unique:
        picked = jax.random.categorical(k_sample, allowed, shape=(num_sampled,))
        if banned is None:
            return picked, jnp.asarray(num_sampled, jnp.int32)
        return picked, _geometric_sum(k_tries, jnp.full((num_sampled,), mass))
    picked = jax.lax.top_k(allowed + jax.random.gumbel(k_sample, log_p.shape), num_sampled)[1]
    taken = jnp.concatenate([jnp.zeros((1,)), jnp.cumsum(jnp.exp(log_p)[picked])[:-1]])
    return picked, _geometric_sum(k_tries, jnp.clip(mass - taken, 1e-12, 1.0))


def _geometric_sum(key: Any, success: jax.Array) -> jax.Array:
    u = jax.random.uniform(key, success.shape, minval=1e-12, maxval=1.0)
    draws = jnp.where(success >= 1.0, 1.0, jnp.ceil(jnp.log(u) / jnp.log1p(-jnp.minimum(success, 1 - 1e-7))))
    return jnp.sum(jnp.maximum(draws, 1.0)).astype(jnp.int32)


def _expected_count(p: jax.Array, num_sampled: int, num_tries: jax.Array) -> jax.Array:
    """TensorFlow's expected count of a class of probability ``p``: ``p * n`` when every draw was kept,
    else ``1 - (1 - p) ** num_tries``."""
    return jnp.where(num_tries == num_sampled, p * num_sampled,
                     -jnp.expm1(num_tries * jnp.log1p(-jnp.minimum(p, 1 - 1e-7)))).astype(jnp.float32)


def _sample_candidates(true: jax.Array, log_p: jax.Array, p_of: Any, num_sampled: int, unique: bool,
                       seed: int, remove_accidental_hits: bool) -> tuple[jax.Array, jax.Array, jax.Array]:
    key = _key(seed or None)
    banned = None
    if remove_accidental_hits:
        classes = jnp.arange(log_p.shape[0])
        banned = jnp.any(classes[:, None] == true.reshape(-1)[None, :], axis=1)
    picked, tries = _candidates(key, log_p, num_sampled, unique, banned)
    return (picked.astype(true.dtype), _expected_count(p_of(true), num_sampled, tries),
            _expected_count(p_of(picked), num_sampled, tries))


@tensor_op
@_named("uniform_candidate_sampler")
def uniform_candidate_sampler(true_classes: Any, num_true: int, num_sampled: int, unique: bool, range_max: int,
                              seed: int = 0, remove_accidental_hits: bool = False
                              ) -> tuple[jax.Array, jax.Array, jax.Array]:
    """``num_sampled`` classes drawn uniformly from ``[0, range_max)``, with their expected counts.

    Arguments:
        true_classes: int32 or int64 ``(batch_size, num_true)``.
        num_true, num_sampled, range_max: positive ints. unique: draw without repeats (then
            ``num_sampled <= range_max``). seed: non-negative; ``0`` draws from the global key.
        remove_accidental_hits: never sample a class that is among ``true_classes``.

    Returns:
        ``(sampled_candidates, true_expected_count, sampled_expected_count)``: the classes
        ``(num_sampled,)`` in ``true_classes``' dtype, and float32 expected counts of ``true_classes`` and of
        them, ``p * num_sampled`` when no draw was rejected, else ``1 - (1 - p) ** num_tries``.
    """
    num_true, num_sampled, unique, range_max, seed = _check_sampler_args(num_true, num_sampled, unique, range_max,
                                                                         seed)
    if not isinstance(remove_accidental_hits, bool):
        raise TypeError(f"'remove_accidental_hits' must be a bool, got {type(remove_accidental_hits).__name__}")
    true = _check_true_classes(true_classes, num_true, (jnp.int32, jnp.int64))
    log_p = jnp.full((range_max,), -jnp.log(float(range_max)))
    return _sample_candidates(true, log_p, lambda c: jnp.full(c.shape, 1.0 / range_max), num_sampled, unique, seed,
                              remove_accidental_hits)


@tensor_op
@_named("log_uniform_candidate_sampler")
def log_uniform_candidate_sampler(true_classes: Any, num_true: int = 1, num_sampled: int = 5, unique: bool = True,
                                  range_max: int = 5, seed: int = 0) -> tuple[jax.Array, jax.Array, jax.Array]:
    """``num_sampled`` classes drawn from ``[0, range_max)`` with ``P(k) = log((k + 2) / (k + 1)) / log(range_max + 1)``
    (Zipf-like), with their expected counts.

    Arguments:
        true_classes: int64 ``(batch_size, num_true)``.
        num_true, num_sampled, range_max: positive ints. unique: draw without repeats. Default: ``True``.
        seed: non-negative; ``0`` draws from the global key.

    Returns:
        ``(sampled_candidates, true_expected_count, sampled_expected_count)`` as
        :func:`uniform_candidate_sampler` returns them.
    """
    num_true, num_sampled, unique, range_max, seed = _check_sampler_args(num_true, num_sampled, unique, range_max,
                                                                         seed)
    true = _check_true_classes(true_classes, num_true, (jnp.int64,) if jax.config.jax_enable_x64
                               else (jnp.int64, jnp.int32))
    scale = jnp.log(range_max + 1.0)

    def p_of(c: jax.Array) -> jax.Array:
        c = c.astype(jnp.float32)
        return jnp.log((c + 2.0) / (c + 1.0)) / scale

    log_p = jnp.log(p_of(jnp.arange(range_max)))
    return _sample_candidates(true, log_p, p_of, num_sampled, unique, seed, False)
