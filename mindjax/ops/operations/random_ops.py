"""MindSpore's ``mindspore.ops.operations.random_ops``: sampling Primitives on MindJAX's global key.

``seed`` and ``seed2`` are mixed into the global key (``mindjax.set_seed``) when non-zero;
the numbers differ from MindSpore's generator, the distributions do not.

Example:
    >>> from mindjax.ops import operations as P
    >>> P.UniformInt()((2, 3), 0, 5).shape
    (2, 3)
"""
from __future__ import annotations

from typing import Any

import jax
import jax.numpy as jnp

from mindjax.common import dtype as _mstype, random as _random
from mindjax.common.dtype import to_jax_dtype
from mindjax.common.tensor import as_array
from mindjax.ops.function import random_func as R
from mindjax.ops.operations._base import Primitive, check_int, record
# Existing Primitives of this family, re-exported under MindSpore's module path.
from mindjax.ops.primitives_extra import StandardNormal, UniformReal  # noqa: F401


def _shape(shape: Any) -> tuple[int, ...]:
    if isinstance(shape, int):
        return (shape,)
    if hasattr(shape, "shape") and not isinstance(shape, tuple):
        return tuple(int(v) for v in as_array(shape).reshape(-1).tolist())
    return tuple(int(v) for v in shape)


class _Seeded(Primitive):
    def __init__(self, seed: int = 0, seed2: int = 0) -> None:
        super().__init__()
        record(self, seed=check_int(self.name, "seed", seed), seed2=check_int(self.name, "seed2", seed2))

    def _key(self) -> Any:
        key = _random.next_key()
        if self.seed or self.seed2:
            key = jax.random.fold_in(jax.random.fold_in(key, self.seed), self.seed2)
        return key


class UniformInt(_Seeded):
    """Integers uniform in ``[minval, maxval)``. Call: ``UniformInt(seed, seed2)(shape, minval, maxval)``."""

    def __call__(self, shape: Any, minval: Any, maxval: Any) -> jax.Array:
        lo, hi = as_array(minval), as_array(maxval)
        return jax.random.randint(self._key(), _shape(shape), lo, hi, dtype=jnp.int32)


class StandardLaplace(_Seeded):
    """Laplace(0, 1) samples. Call: ``StandardLaplace(seed, seed2)(shape)``."""

    def __call__(self, shape: Any) -> jax.Array:
        return jax.random.laplace(self._key(), _shape(shape), jnp.float32)


class TruncatedNormal(_Seeded):
    """Standard-normal samples truncated to ``[-2, 2]``. Call: ``TruncatedNormal(seed, seed2, dtype)(shape)``."""

    def __init__(self, seed: int = 0, seed2: int = 0, dtype: Any = None) -> None:
        super().__init__(seed, seed2)
        record(self, dtype=dtype)

    def __call__(self, shape: Any) -> jax.Array:
        dt = jnp.float32 if self.dtype is None else to_jax_dtype(self.dtype)
        return jax.random.truncated_normal(self._key(), -2.0, 2.0, _shape(shape), dt)


class RandomGamma(_Seeded):
    """Gamma samples with unit rate. Call: ``RandomGamma(seed, seed2)(shape, alpha)``."""

    def __call__(self, shape: Any, alpha: Any) -> jax.Array:
        a = as_array(alpha).astype(jnp.float32)
        out = _shape(shape) + a.shape
        return jax.random.gamma(self._key(), jnp.broadcast_to(a, out), out)


class Poisson(_Seeded):
    """Poisson samples (int32). Call: ``Poisson(seed, seed2)(shape, mean)``."""

    def __call__(self, shape: Any, mean: Any) -> jax.Array:
        m = as_array(mean).astype(jnp.float32)
        out = _shape(shape) + m.shape
        return jax.random.poisson(self._key(), jnp.broadcast_to(m, out), out).astype(jnp.int32)


class RandomPoisson(_Seeded):
    """Poisson samples. Call: ``RandomPoisson(seed, seed2, dtype)(shape, rate)``."""

    def __init__(self, seed: int = 0, seed2: int = 0, dtype: Any = None) -> None:
        super().__init__(seed, seed2)
        record(self, dtype=dtype)

    def __call__(self, shape: Any, rate: Any) -> jax.Array:
        r = as_array(rate).astype(jnp.float32)
        out = _shape(shape) + r.shape
        dt = jnp.int64 if self.dtype is None and jax.config.jax_enable_x64 else (
            jnp.int32 if self.dtype is None else to_jax_dtype(self.dtype))
        return jax.random.poisson(self._key(), jnp.broadcast_to(r, out), out).astype(dt)


class RandomCategorical(Primitive):
    """Class samples from 2-D logits. Call: ``RandomCategorical(dtype)(logits, num_sample, seed)``."""

    def __init__(self, dtype: Any = None) -> None:
        super().__init__()
        record(self, dtype=dtype)

    def __call__(self, logits: Any, num_sample: int, seed: int = 0) -> jax.Array:
        return R.random_categorical(logits, num_sample, seed, self.dtype)


class Multinomial(_Seeded):
    """Category samples from (unnormalised) probabilities. Call: ``Multinomial(seed, seed2, dtype)(x, num_samples)``."""

    def __init__(self, seed: int = 0, seed2: int = 0, dtype: Any = None) -> None:
        super().__init__(seed, seed2)
        record(self, dtype=dtype)

    def __call__(self, x: Any, num_samples: int) -> jax.Array:
        from mindjax.ops.functional import multinomial

        out = multinomial(x, num_samples, True, (self.seed or None) and self.seed + self.seed2)
        return out if self.dtype is None else out.astype(to_jax_dtype(self.dtype))


class RandomShuffle(_Seeded):
    """The input with its first axis permuted. Call: ``RandomShuffle(seed, seed2)(x)``."""

    def __call__(self, x: Any) -> jax.Array:
        return jax.random.permutation(self._key(), as_array(x), axis=0)


class Randperm(Primitive):
    """A permutation of ``0 .. n - 1`` padded with ``pad`` to ``max_length``. Call: ``Randperm(max_length, pad,
    dtype)(n)``."""

    def __init__(self, max_length: int = 1, pad: int = -1, dtype: Any = None) -> None:
        super().__init__()
        record(self, max_length=check_int(self.name, "max_length", max_length), pad=check_int(self.name, "pad", pad),
               dtype=dtype)

    def __call__(self, n: Any) -> jax.Array:
        count = int(as_array(n).reshape(-1)[0])
        if count > self.max_length:
            raise ValueError(f"For '{self.name}', n ({count}) must not exceed max_length ({self.max_length})")
        perm = jax.random.permutation(_random.next_key(), count)
        dt = jnp.int32 if self.dtype is None else to_jax_dtype(self.dtype)
        return jnp.full((self.max_length,), self.pad, dt).at[:count].set(perm.astype(dt))


class Bernoulli(Primitive):
    """0/1 samples with probability ``p``, in the input's shape and dtype. Call: ``Bernoulli(seed, offset)(x, p)``."""

    def __init__(self, seed: int = -1, offset: int = 0) -> None:
        super().__init__()
        record(self, seed=check_int(self.name, "seed", seed), offset=check_int(self.name, "offset", offset))

    def __call__(self, x: Any, p: Any = 0.5) -> jax.Array:
        from mindjax.ops.functional import bernoulli

        return bernoulli(x, p, None if self.seed < 0 else self.seed)


def _check_float(prim: str, name: str, value: Any) -> float:
    if not isinstance(value, float):
        raise TypeError(f"For '{prim}', the type of '{name}' should be 'float', but got type "
                        f"'{type(value).__name__}'.")
    return value


def _seeded_key(seed: int, offset: int) -> Any:
    """MindSpore's (seed, offset) rule: both 0 draws from the global key, otherwise a fixed stream."""
    if seed == 0 and offset == 0:
        return _random.next_key()
    return jax.random.fold_in(jax.random.PRNGKey(seed), offset)


def _int_dtype() -> Any:
    return jnp.int64 if jax.config.jax_enable_x64 else jnp.int32


class Cauchy(Primitive):
    """Cauchy samples (float32) of shape ``size``, with location ``median`` and scale ``sigma``.

    Arguments:
        size: a non-empty list of positive ints.
        median: the location (a float). Default: ``0.0``.
        sigma: the scale (a float). Default: ``1.0``.

    Call: ``Cauchy(size, median, sigma)()`` -> a ``size`` float32 array.
    """

    def __init__(self, size: list, median: float = 0.0, sigma: float = 1.0) -> None:
        super().__init__()
        _check_float(self.name, "median", median)
        _check_float(self.name, "sigma", sigma)
        if not isinstance(size, list):
            raise TypeError(f"For '{self.name}', the type of 'size' should be 'list', but got type "
                            f"'{type(size).__name__}'.")
        if not size:
            raise ValueError(f"For '{self.name}', 'size' must not be an empty list.")
        for i, s in enumerate(size):
            if isinstance(s, bool) or not isinstance(s, int) or s <= 0:
                raise ValueError(f"For '{self.name}', the 'size[{i}]' must be int and must > 0, but got '{s}' with "
                                 f"type '{type(s).__name__}'.")
        record(self, size=list(size), median=median, sigma=sigma)

    def __call__(self) -> jax.Array:
        draw = jax.random.cauchy(_random.next_key(), tuple(self.size), jnp.float32)
        return self.median + self.sigma * draw


class LogNormalReverse(Primitive):
    """Samples of ``exp(N(mean, std))`` in the input's shape and dtype (float16, float32 or float64).

    Arguments:
        mean: the normal distribution's mean (a float). Default: ``1.0``.
        std: its standard deviation (a float). Default: ``2.0``.

    Call: ``LogNormalReverse(mean, std)(input)`` -> an array shaped and typed as ``input``.
    """

    def __init__(self, mean: float = 1.0, std: float = 2.0) -> None:
        super().__init__()
        record(self, mean=_check_float(self.name, "mean", mean), std=_check_float(self.name, "std", std))

    def __call__(self, input: Any) -> jax.Array:
        x = as_array(input)
        if not jnp.issubdtype(x.dtype, jnp.floating) or x.dtype == jnp.bfloat16:
            raise TypeError(f"For '{self.name}', 'input' must be float16, float32 or float64, but got {x.dtype}.")
        draw = jax.random.normal(_random.next_key(), x.shape, jnp.float32)
        return jnp.exp(self.mean + self.std * draw).astype(x.dtype)


class RandpermV2(Primitive):
    """A random permutation of ``0 .. n - 1``.

    Arguments:
        seed: with ``offset``, fixes the stream; both 0 draw from the global key. Default: ``0``.
        offset: see ``seed``. Default: ``0``.
        dtype: the output's integer dtype. Default: ``int64``.

    Call: ``RandpermV2(seed, offset, dtype)(n)`` with ``n`` a positive int (or a 0-d integer Tensor).
    """

    def __init__(self, seed: int = 0, offset: int = 0, dtype: Any = None) -> None:
        super().__init__()
        seed, offset = check_int(self.name, "seed", seed), check_int(self.name, "offset", offset)
        if seed < 0 and seed != -1:
            raise ValueError(f"For '{self.name}', 'seed' must be -1 or non-negative, but got {seed}.")
        if offset < 0:
            raise ValueError(f"For '{self.name}', 'offset' must be non-negative, but got {offset}.")
        record(self, seed=seed, offset=offset, dtype=dtype)

    def __call__(self, n: Any) -> jax.Array:
        if hasattr(n, "shape") and not isinstance(n, int):
            arr = as_array(n)
            if arr.ndim != 0 or not jnp.issubdtype(arr.dtype, jnp.integer):
                raise TypeError(f"For '{self.name}', 'n' must be an int or a 0-d integer Tensor, but got shape "
                                f"{tuple(arr.shape)} and dtype {arr.dtype}.")
            n = int(arr)
        if isinstance(n, bool) or not isinstance(n, int):
            raise TypeError(f"For '{self.name}', 'n' must be an int, but got {type(n).__name__}.")
        if n <= 0:
            raise ValueError(f"For '{self.name}', the input 'n' must be greater than 0, but got data: {n}.")
        dt = _int_dtype() if self.dtype is None else to_jax_dtype(self.dtype)
        key = _seeded_key(max(self.seed, 0), self.offset)
        return jax.random.permutation(key, n).astype(dt)


class MultinomialWithReplacement(Primitive):
    """``numsamples`` category indices per row of the (unnormalised, non-negative) weights ``x``.

    Arguments:
        numsamples: samples per row (a non-negative int).
        replacement: draw with replacement. Default: ``False`` (then ``numsamples`` must not exceed the
            number of categories).

    Call: ``MultinomialWithReplacement(numsamples, replacement)(x, seed, offset)`` with ``x`` 1-D or 2-D and
    ``seed``/``offset`` ints (or 0-d Tensors): both 0 draw from the global key, otherwise the stream is fixed.
    Returns int64 indices, ``(numsamples,)`` or ``(rows, numsamples)``.
    """

    def __init__(self, numsamples: int, replacement: bool = False) -> None:
        super().__init__()
        numsamples = check_int(self.name, "numsamples", numsamples)
        if numsamples < 0:
            raise ValueError(f"For '{self.name}', the 'numsamples' must be int and must >= 0, but got "
                             f"'{numsamples}' with type 'int'.")
        if not isinstance(replacement, bool):
            raise TypeError(f"For '{self.name}', the type of 'replacement' should be 'bool', but got type "
                            f"'{type(replacement).__name__}'.")
        record(self, numsamples=numsamples, replacement=replacement)

    def __call__(self, x: Any, seed: Any, offset: Any) -> jax.Array:
        w = as_array(x)
        if w.ndim not in (1, 2):
            raise ValueError(f"For '{self.name}', 'x' must be 1-D or 2-D, but got shape {tuple(w.shape)}.")
        if not jnp.issubdtype(w.dtype, jnp.floating):
            raise TypeError(f"For '{self.name}', 'x' must be a float tensor, but got {w.dtype}.")
        rows = w.reshape(-1, w.shape[-1]).astype(jnp.float32)
        if not self.replacement and self.numsamples > rows.shape[-1]:
            raise ValueError(f"For '{self.name}', without replacement 'numsamples' ({self.numsamples}) must not "
                             f"exceed the number of categories ({rows.shape[-1]}).")
        key = _seeded_key(int(as_array(seed)), int(as_array(offset)))
        logits = jnp.where(rows > 0, jnp.log(jnp.where(rows > 0, rows, 1.0)), -jnp.inf)
        if self.replacement:
            out = jax.random.categorical(key, logits, axis=-1, shape=(self.numsamples, rows.shape[0])).T
        else:
            out = jax.lax.top_k(logits + jax.random.gumbel(key, logits.shape), self.numsamples)[1]
        out = out.astype(_int_dtype())
        return out.reshape(self.numsamples) if w.ndim == 1 else out


class RandomChoiceWithMask(_Seeded):
    """``count`` random coordinates of True elements of a bool tensor, and which of them are real.

    Arguments:
        count: how many to choose (positive). Default: ``256``. seed, seed2: Default: ``0``.

    Call: ``RandomChoiceWithMask(count, seed, seed2)(input_x)`` -> ``(index, mask)`` as
    :func:`mindjax.ops.choice_with_mask` returns them.
    """

    def __init__(self, count: int = 256, seed: int = 0, seed2: int = 0) -> None:
        super().__init__(seed, seed2)
        count = check_int(self.name, "count", count)
        if count <= 0:
            raise ValueError(f"For '{self.name}', 'count' must be a positive int, but got {count}.")
        record(self, count=count)

    def __call__(self, input_x: Any) -> tuple[jax.Array, jax.Array]:
        try:
            return R._choice_with_mask(input_x, self.count, self._key())
        except (TypeError, ValueError) as exc:
            raise type(exc)(f"For '{self.name}', {exc}") from None


class _CandidateSampler(Primitive):
    _fn: Any = None

    def _check(self, num_true: Any, num_sampled: Any, unique: Any, range_max: Any, seed: Any) -> None:
        try:
            values = R._check_sampler_args(num_true, num_sampled, unique, range_max, seed)
        except (TypeError, ValueError) as exc:
            raise type(exc)(f"For '{self.name}', {exc}") from None
        record(self, **dict(zip(("num_true", "num_sampled", "unique", "range_max", "seed"), values)))


class UniformCandidateSampler(_CandidateSampler):
    """Classes drawn uniformly from ``[0, range_max)`` with their expected counts (deprecated in MindSpore 2.10).

    Arguments: ``num_true, num_sampled, unique, range_max, seed=0, remove_accidental_hits=False`` as
    :func:`mindjax.ops.uniform_candidate_sampler` takes them.

    Call: ``UniformCandidateSampler(...)(true_classes)`` -> ``(sampled_candidates, true_expected_count,
    sampled_expected_count)``.
    """

    def __init__(self, num_true: int, num_sampled: int, unique: bool, range_max: int, seed: int = 0,
                 remove_accidental_hits: bool = False) -> None:
        super().__init__()
        self._check(num_true, num_sampled, unique, range_max, seed)
        if not isinstance(remove_accidental_hits, bool):
            raise TypeError(f"For '{self.name}', 'remove_accidental_hits' must be a bool, but got "
                            f"{type(remove_accidental_hits).__name__}.")
        record(self, remove_accidental_hits=remove_accidental_hits)

    def __call__(self, true_classes: Any) -> tuple[jax.Array, jax.Array, jax.Array]:
        out = R.uniform_candidate_sampler(true_classes, self.num_true, self.num_sampled, self.unique, self.range_max,
                                          self.seed, self.remove_accidental_hits)
        return out


class LogUniformCandidateSampler(_CandidateSampler):
    """Classes drawn from ``[0, range_max)`` with log-uniform (Zipf-like) probabilities, and their expected counts
    (deprecated in MindSpore 2.10).

    Arguments: ``num_true=1, num_sampled=5, unique=True, range_max=5, seed=0`` as
    :func:`mindjax.ops.log_uniform_candidate_sampler` takes them.

    Call: ``LogUniformCandidateSampler(...)(true_classes)`` -> ``(sampled_candidates, true_expected_count,
    sampled_expected_count)``.
    """

    def __init__(self, num_true: int = 1, num_sampled: int = 5, unique: bool = True, range_max: int = 5,
                 seed: int = 0) -> None:
        super().__init__()
        self._check(num_true, num_sampled, unique, range_max, seed)

    def __call__(self, true_classes: Any) -> tuple[jax.Array, jax.Array, jax.Array]:
        return R.log_uniform_candidate_sampler(true_classes, self.num_true, self.num_sampled, self.unique,
                                               self.range_max, self.seed)


class NonDeterministicInts(Primitive):
    """Integers drawn uniformly over their dtype's whole range (deprecated in MindSpore 2.8).

    Arguments:
        dtype: ``mindjax.int32`` or ``mindjax.int64``. Default: ``mindjax.int64``.

    Call: ``NonDeterministicInts(dtype)(shape)`` with ``shape`` a 1-D int tensor of at least two non-negative
    values -> the samples. They come from MindJAX's global key (``mindjax.set_seed``).
    """

    _strategy_inputs = 1

    def __init__(self, dtype: Any = None) -> None:
        super().__init__()
        dtype = _mstype.int64 if dtype is None else dtype
        try:
            dt = to_jax_dtype(dtype)
        except (TypeError, ValueError, KeyError):
            dt = None
        if dt not in (jnp.int32, jnp.int64):
            raise TypeError(f"For '{self.name}', 'dtype' must be int32 or int64, but got {dtype!r}.")
        record(self, dtype=dtype)
        self._dtype = dt

    def __call__(self, shape: Any) -> jax.Array:
        s = as_array(shape)
        if not jnp.issubdtype(s.dtype, jnp.integer):
            raise TypeError(f"For '{self.name}', 'shape' must be an int32 or int64 tensor, but got {s.dtype}.")
        if s.ndim != 1 or s.shape[0] < 2:
            raise ValueError(f"For '{self.name}', 'shape' must be 1-D with at least 2 elements, but got shape "
                             f"{s.shape}.")
        dims = tuple(int(v) for v in s.tolist())
        if min(dims) < 0:
            raise ValueError(f"For '{self.name}', 'shape' must not be negative, but got {dims}.")
        bits = jax.random.bits(_random.next_key(), dims, jnp.uint64 if self._dtype == jnp.int64 else jnp.uint32)
        return jax.lax.bitcast_convert_type(bits, self._dtype)


class ParameterizedTruncatedNormal(_Seeded):
    """Normal samples with per-batch ``mean`` and ``stdevs``, truncated to ``[min, max]`` (deprecated in
    MindSpore 2.8).

    Arguments:
        seed, seed2: non-negative; mixed into the global key when non-zero. Default: ``0``.

    Call: ``ParameterizedTruncatedNormal(seed, seed2)(shape, mean, stdevs, min, max)``: ``shape``
    ``(batch_size, ...)`` as a 1-D int tensor; ``mean``, ``stdevs``, ``min`` and ``max`` of one float dtype,
    shaped ``()`` or ``(batch_size,)`` -> samples of ``shape`` in that dtype.
    """

    _strategy_inputs = 5

    def __init__(self, seed: int = 0, seed2: int = 0) -> None:
        super().__init__(seed, seed2)
        for arg in ("seed", "seed2"):
            if getattr(self, arg) < 0:
                raise ValueError(f"For '{self.name}', '{arg}' must be non-negative, but got {getattr(self, arg)}.")

    def __call__(self, shape: Any, mean: Any, stdevs: Any, min: Any, max: Any) -> jax.Array:
        name = self.name
        s = as_array(shape)
        if not jnp.issubdtype(s.dtype, jnp.integer) or s.ndim != 1 or s.shape[0] < 2:
            raise ValueError(f"For '{name}', 'shape' must be a 1-D int tensor (batch_size, ...) of at least 2 "
                             f"values, but got {s.dtype} of shape {s.shape}.")
        dims = tuple(int(v) for v in s.tolist())
        if any(d <= 0 for d in dims):
            raise ValueError(f"For '{name}', 'shape' elements must be positive, but got {dims}.")
        params = [as_array(v) for v in (mean, stdevs, min, max)]
        dtype = params[0].dtype
        for arg, a in zip(("mean", "stdevs", "min", "max"), params):
            if not jnp.issubdtype(a.dtype, jnp.floating) or a.dtype != dtype:
                raise TypeError(f"For '{name}', '{arg}' must be a float tensor of the dtype of 'mean' ({dtype}), "
                                f"but got {a.dtype}.")
            if a.shape not in ((), (dims[0],)):
                raise ValueError(f"For '{name}', '{arg}' must have shape () or ({dims[0]},), but got {a.shape}.")
        mu, sd, lo, hi = (jnp.broadcast_to(a.astype(jnp.float32), (dims[0],)).reshape((dims[0],) + (1,) *
                                                                                        (len(dims) - 1))
                          for a in params)
        z = jax.random.truncated_normal(self._key(), (lo - mu) / sd, (hi - mu) / sd, dims, jnp.float32)
        return jnp.clip(mu + sd * z, lo, hi).astype(dtype)
