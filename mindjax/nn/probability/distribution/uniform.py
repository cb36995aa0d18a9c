"""Uniform distribution (MindSpore's ``mindspore.nn.probability.distribution.Uniform``)."""
from __future__ import annotations

from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
from jax.scipy import special

from mindjax.common import dtype as mstype
from mindjax.nn.probability.distribution._utils import (
    check_distribution_name, check_dtype, check_greater, check_greater_zero, check_prob, check_rank,
    check_sum_equal_one, raise_not_defined, sample_key, softplus)
from mindjax.nn.probability.distribution.distribution import Distribution

__all__ = ["Uniform"]


class Uniform(Distribution):
    """Uniform(low=None, high=None, seed=None, dtype=mstype.float32, name="Uniform").

    Arguments:
        low, high (int, float, list, numpy.ndarray, Tensor): the bounds, low < high. Default: None.
        seed (int): Default: None. dtype (mindspore.dtype): a float type. Default: mstype.float32.
        name (str): Default: "Uniform".
    """

    def __init__(self, low: Any = None, high: Any = None, seed: int | None = None,
                 dtype: Any = mstype.float32, name: str = "Uniform") -> None:
        param = dict(locals())
        param["param_dict"] = {"low": low, "high": high}
        check_dtype(dtype, mstype.float_type, type(self).__name__)
        super().__init__(seed, dtype, name, param)
        self._low = self._add_parameter(low, "low")
        self._high = self._add_parameter(high, "high")
        if self._low is not None and self._high is not None:
            check_greater(self._low, self._high, "low", "high")

    @property
    def low(self) -> Any:
        """The lower bound given at construction."""
        return self._low

    @property
    def high(self) -> Any:
        """The upper bound given at construction."""
        return self._high

    def _get_dist_type(self) -> str:
        return "Uniform"

    def _get_dist_args(self, low: Any = None, high: Any = None) -> tuple:
        return self._dist_args(("low", low), ("high", high))

    def _mean(self, low: Any = None, high: Any = None) -> jax.Array:
        low, high = self._check_param_type(low, high)
        return (low + high) / 2.0

    def _var(self, low: Any = None, high: Any = None) -> jax.Array:
        low, high = self._check_param_type(low, high)
        return jnp.square(high - low) / 12.0

    def _entropy(self, low: Any = None, high: Any = None) -> jax.Array:
        low, high = self._check_param_type(low, high)
        return jnp.log(high - low)

    def _cross_entropy(self, dist: str, low_b: Any, high_b: Any, low: Any = None, high: Any = None) -> jax.Array:
        check_distribution_name(dist, "Uniform")
        return self._entropy(low, high) + self._kl_loss(dist, low_b, high_b, low, high)

    def _prob(self, value: Any, low: Any = None, high: Any = None) -> jax.Array:
        value = self._value_as(value, self.dtype)
        low, high = self._check_param_type(low, high)
        prob = jnp.exp(-1.0 * jnp.log(high - low)) * jnp.ones_like(value)
        return jnp.where(value <= high, jnp.where(value < low, 0.0, prob), 0.0).astype(prob.dtype)

    def _kl_loss(self, dist: str, low_b: Any, high_b: Any, low: Any = None, high: Any = None) -> jax.Array:
        check_distribution_name(dist, "Uniform")
        pt = mstype.to_jax_dtype(self.parameter_type)
        low_b = self._check_value(low_b, "low_b").astype(pt)
        high_b = self._check_value(high_b, "high_b").astype(pt)
        low_a, high_a = self._check_param_type(low, high)
        kl = jnp.log(high_b - low_b) - jnp.log(high_a - low_a)
        return jnp.where((low_b <= low_a) & (high_a <= high_b), kl, jnp.inf).astype(kl.dtype)

    def _cdf(self, value: Any, low: Any = None, high: Any = None) -> jax.Array:
        value = self._value_as(value, self.dtype)
        low, high = self._check_param_type(low, high)
        prob = (value - low) / (high - low)
        return jnp.where(value < high, jnp.where(value < low, 0.0, prob), 1.0).astype(prob.dtype)

    def _sample(self, shape: tuple = (), low: Any = None, high: Any = None) -> jax.Array:
        shape = self._sample_shape(shape, ())
        low, high = self._check_param_type(low, high)
        origin = shape + low.shape
        u = jax.random.uniform(sample_key(self.seed), origin, jnp.float32)
        return self._finish_sample((high - low) * u + low, origin)
