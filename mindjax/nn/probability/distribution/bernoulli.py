"""Bernoulli distribution (MindSpore's ``mindspore.nn.probability.distribution.Bernoulli``)."""
from __future__ import annotations

from typing import Any

import jax
import jax.numpy as jnp

from mindjax.common import dtype as mstype
from mindjax.nn.probability.distribution._utils import (
    check_distribution_name, check_dtype, check_prob, clamp_probs, sample_key)
from mindjax.nn.probability.distribution.distribution import Distribution

__all__ = ["Bernoulli"]


class Bernoulli(Distribution):
    """Bernoulli(probs=None, seed=None, dtype=mstype.int32, name="Bernoulli").

    Arguments:
        probs (float, list, numpy.ndarray, Tensor): the probability of 1, in (0, 1). Default: None.
        seed (int): the sampling seed. Default: None.
        dtype (mindspore.dtype): an int or float type of the samples. Default: mstype.int32.
        name (str): Default: "Bernoulli".
    """

    def __init__(self, probs: Any = None, seed: int | None = None, dtype: Any = mstype.int32,
                 name: str = "Bernoulli") -> None:
        param = dict(locals())
        param["param_dict"] = {"probs": probs}
        check_dtype(dtype, mstype.int_type + mstype.uint_type + mstype.float_type, type(self).__name__)
        super().__init__(seed, dtype, name, param)
        self._probs = self._add_parameter(probs, "probs")
        if self._probs is not None:
            check_prob(self._probs)

    @property
    def probs(self) -> Any:
        """The probability of 1 given at construction."""
        return self._probs

    def _get_dist_type(self) -> str:
        return "Bernoulli"

    def _get_dist_args(self, probs1: Any = None) -> tuple:
        return self._dist_args(("probs", probs1))

    def _mean(self, probs1: Any = None) -> jax.Array:
        return self._check_param_type(probs1)

    def _mode(self, probs1: Any = None) -> jax.Array:
        p = self._check_param_type(probs1)
        return (p > 0.5).astype(mstype.to_jax_dtype(self.dtype))

    def _var(self, probs1: Any = None) -> jax.Array:
        p = self._check_param_type(probs1)
        return jnp.exp(jnp.log(1.0 - p) + jnp.log(p))

    def _entropy(self, probs1: Any = None) -> jax.Array:
        p = self._check_param_type(probs1)
        q = 1.0 - p
        return -(q * jnp.log(q)) - p * jnp.log(p)

    def _cross_entropy(self, dist: str, probs1_b: Any, probs1: Any = None) -> jax.Array:
        check_distribution_name(dist, "Bernoulli")
        return self._entropy(probs1) + self._kl_loss(dist, probs1_b, probs1)

    def _log_prob(self, value: Any, probs1: Any = None) -> jax.Array:
        value = self._value_as(value, self.parameter_type)
        p = clamp_probs(self._check_param_type(probs1))
        return jnp.log(p) * value + jnp.log(1.0 - p) * (1.0 - value)

    def _cdf(self, value: Any, probs1: Any = None) -> jax.Array:
        value = jnp.floor(self._value_as(value, self.parameter_type))
        p = self._check_param_type(probs1)
        shape = jnp.broadcast_shapes(value.shape, p.shape)
        value, q = jnp.broadcast_to(value, shape), jnp.broadcast_to(1.0 - p, shape)
        return jnp.where(value < 1.0, jnp.where(value < 0.0, jnp.zeros_like(q), q), jnp.ones_like(q))

    def _kl_loss(self, dist: str, probs1_b: Any, probs1: Any = None) -> jax.Array:
        check_distribution_name(dist, "Bernoulli")
        pb = self._check_value(probs1_b, "probs1_b").astype(mstype.to_jax_dtype(self.parameter_type))
        pa = self._check_param_type(probs1)
        return pa * jnp.log(pa / pb) + (1.0 - pa) * jnp.log((1.0 - pa) / (1.0 - pb))

    def _sample(self, shape: tuple = (), probs1: Any = None) -> jax.Array:
        shape = self._sample_shape(shape, ())
        p = self._check_param_type(probs1)
        origin = shape + p.shape
        u = jax.random.uniform(sample_key(self.seed), origin, jnp.float32)
        return self._finish_sample(u < p, origin)
