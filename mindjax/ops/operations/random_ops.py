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

from mindjax.common import random as _random
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
