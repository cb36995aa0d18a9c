"""Gamma distribution (MindSpore's ``mindspore.nn.probability.distribution.Gamma``)."""
from __future__ import annotations

from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
from jax.scipy import special

from mindjax.common import dtype as mstype
from mindjax.nn.probability.distribution._utils import (
    check_distribution_name, check_dtype, check_greater_zero, check_prob, check_rank, check_sum_equal_one,
    sample_key)
from mindjax.nn.probability.distribution.distribution import Distribution

__all__ = ["Gamma"]


class Gamma(Distribution):
    """Gamma(concentration=None, rate=None, seed=None, dtype=mstype.float32, name="Gamma").

    Arguments:
        concentration, rate (list, numpy.ndarray, Tensor): both > 0; Python scalars are refused,
            as in MindSpore. Default: None.
        seed (int): Default: None. dtype (mindspore.dtype): a float type. Default: mstype.float32.
        name (str): Default: "Gamma".
    """

    def __init__(self, concentration: Any = None, rate: Any = None, seed: int | None = None,
                 dtype: Any = mstype.float32, name: str = "Gamma") -> None:
        param = dict(locals())
        param["param_dict"] = {"concentration": concentration, "rate": rate}
        check_dtype(dtype, mstype.float_type, type(self).__name__)
        if isinstance(concentration, (int, float)):
            raise TypeError("Input concentration can't be scalar")
        if isinstance(rate, (int, float)):
            raise TypeError("Input rate can't be scalar")
        super().__init__(seed, dtype, name, param)
        self._concentration = self._add_parameter(concentration, "concentration")
        self._rate = self._add_parameter(rate, "rate")
        if self._concentration is not None:
            check_greater_zero(self._concentration, "concentration")
        if self._rate is not None:
            check_greater_zero(self._rate, "rate")

    @property
    def concentration(self) -> Any:
        """The concentration given at construction."""
        return self._concentration

    @property
    def rate(self) -> Any:
        """The rate given at construction."""
        return self._rate

    def _get_dist_type(self) -> str:
        return "Gamma"

    def _get_dist_args(self, concentration: Any = None, rate: Any = None) -> tuple:
        return self._dist_args(("concentration", concentration), ("rate", rate))

    def _mean(self, concentration: Any = None, rate: Any = None) -> jax.Array:
        c, r = self._check_param_type(concentration, rate)
        return c / r

    def _var(self, concentration: Any = None, rate: Any = None) -> jax.Array:
        c, r = self._check_param_type(concentration, rate)
        return c / jnp.square(r)

    def _sd(self, concentration: Any = None, rate: Any = None) -> jax.Array:
        c, r = self._check_param_type(concentration, rate)
        return jnp.sqrt(c) / r

    def _mode(self, concentration: Any = None, rate: Any = None) -> jax.Array:
        c, r = self._check_param_type(concentration, rate)
        return jnp.where(c > 1.0, (c - 1.0) / r, jnp.nan).astype(c.dtype)

    def _entropy(self, concentration: Any = None, rate: Any = None) -> jax.Array:
        c, r = self._check_param_type(concentration, rate)
        return c - jnp.log(r) + special.gammaln(c) + (1.0 - c) * special.digamma(c)

    def _cross_entropy(self, dist: str, concentration_b: Any, rate_b: Any, concentration_a: Any = None,
                       rate_a: Any = None) -> jax.Array:
        check_distribution_name(dist, "Gamma")
        return (self._entropy(concentration_a, rate_a)
                + self._kl_loss(dist, concentration_b, rate_b, concentration_a, rate_a))

    def _log_prob(self, value: Any, concentration: Any = None, rate: Any = None) -> jax.Array:
        value = self._value_as(value, self.dtype)
        c, r = self._check_param_type(concentration, rate)
        return (c - 1.0) * jnp.log(value) - r * value - (special.gammaln(c) - c * jnp.log(r))

    def _cdf(self, value: Any, concentration: Any = None, rate: Any = None) -> jax.Array:
        value = self._value_as(value, self.dtype)
        c, r = self._check_param_type(concentration, rate)
        return special.gammainc(c, r * value)

    def _kl_loss(self, dist: str, concentration_b: Any, rate_b: Any, concentration_a: Any = None,
                 rate_a: Any = None) -> jax.Array:
        check_distribution_name(dist, "Gamma")
        pt = mstype.to_jax_dtype(self.parameter_type)
        cb = self._check_value(concentration_b, "concentration_b").astype(pt)
        rb = self._check_value(rate_b, "rate_b").astype(pt)
        ca, ra = self._check_param_type(concentration_a, rate_a)
        return ((ca - cb) * special.digamma(ca) + special.gammaln(cb) - special.gammaln(ca)
                + cb * jnp.log(ra) - cb * jnp.log(rb) + ca * (rb / ra - 1.0))

    def _sample(self, shape: tuple = (), concentration: Any = None, rate: Any = None) -> jax.Array:
        shape = self._sample_shape(shape, ())
        c, r = self._check_param_type(concentration, rate)
        origin = shape + c.shape
        draw = jax.random.gamma(sample_key(self.seed), jnp.broadcast_to(c, origin), origin, c.dtype) / r
        return self._finish_sample(draw, origin)
