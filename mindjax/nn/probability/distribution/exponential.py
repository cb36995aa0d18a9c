"""Exponential distribution (MindSpore's ``mindspore.nn.probability.distribution.Exponential``)."""
from __future__ import annotations

from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from mindjax.common import dtype as mstype
from mindjax.nn.probability.distribution._utils import (
    check_distribution_name, check_dtype, check_greater_zero, sample_key)
from mindjax.nn.probability.distribution.distribution import Distribution

__all__ = ["Exponential"]


class Exponential(Distribution):
    """Exponential(rate=None, seed=None, dtype=mstype.float32, name="Exponential").

    Arguments:
        rate (int, float, list, numpy.ndarray, Tensor): the rate (> 0). Default: None.
        seed (int): the sampling seed. Default: None.
        dtype (mindspore.dtype): a float type of the samples. Default: mstype.float32.
        name (str): Default: "Exponential".
    """

    def __init__(self, rate: Any = None, seed: int | None = None, dtype: Any = mstype.float32,
                 name: str = "Exponential") -> None:
        param = dict(locals())
        param["param_dict"] = {"rate": rate}
        check_dtype(dtype, mstype.float_type, type(self).__name__)
        super().__init__(seed, dtype, name, param)
        self._rate = self._add_parameter(rate, "rate")
        if self._rate is not None:
            check_greater_zero(self._rate, "rate")

    @property
    def rate(self) -> Any:
        """The rate given at construction."""
        return self._rate

    def _get_dist_type(self) -> str:
        return "Exponential"

    def _get_dist_args(self, rate: Any = None) -> tuple:
        return self._dist_args(("rate", rate))

    def _mean(self, rate: Any = None) -> jax.Array:
        return 1.0 / self._check_param_type(rate)

    def _mode(self, rate: Any = None) -> jax.Array:
        return jnp.zeros_like(self._check_param_type(rate)).astype(mstype.to_jax_dtype(self.dtype))

    _sd = _mean

    def _entropy(self, rate: Any = None) -> jax.Array:
        return 1.0 - jnp.log(self._check_param_type(rate))

    def _cross_entropy(self, dist: str, rate_b: Any, rate: Any = None) -> jax.Array:
        check_distribution_name(dist, "Exponential")
        return self._entropy(rate) + self._kl_loss(dist, rate_b, rate)

    def _log_prob(self, value: Any, rate: Any = None) -> jax.Array:
        value = self._value_as(value, self.dtype)
        rate = self._check_param_type(rate)
        prob = jnp.log(rate) - rate * value
        return jnp.where(value < 0, -jnp.inf, prob)

    def _cdf(self, value: Any, rate: Any = None) -> jax.Array:
        value = self._value_as(value, self.dtype)
        rate = self._check_param_type(rate)
        cdf = 1.0 - jnp.exp(-1.0 * rate * value)
        return jnp.where(value < 0, jnp.zeros_like(cdf), cdf)

    def _log_survival(self, value: Any, rate: Any = None) -> jax.Array:
        value = self._value_as(value, self.dtype)
        rate = self._check_param_type(rate)
        sf = -1.0 * rate * value
        return jnp.where(value < 0, jnp.zeros_like(sf), sf)

    def _kl_loss(self, dist: str, rate_b: Any, rate: Any = None) -> jax.Array:
        check_distribution_name(dist, "Exponential")
        rate_b = self._check_value(rate_b, "rate_b").astype(mstype.to_jax_dtype(self.parameter_type))
        rate_a = self._check_param_type(rate)
        return jnp.log(rate_a) - jnp.log(rate_b) + rate_b / rate_a - 1.0

    def _sample(self, shape: tuple = (), rate: Any = None) -> jax.Array:
        shape = self._sample_shape(shape, ())
        rate = self._check_param_type(rate)
        origin = shape + rate.shape
        u = jax.random.uniform(sample_key(self.seed), origin, jnp.float32, minval=np.finfo(np.float32).tiny)
        return self._finish_sample(-jnp.log(u) / rate, origin)
