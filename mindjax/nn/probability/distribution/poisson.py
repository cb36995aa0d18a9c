"""Poisson distribution (MindSpore's ``mindspore.nn.probability.distribution.Poisson``)."""
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

__all__ = ["Poisson"]


class Poisson(Distribution):
    """Poisson(rate=None, seed=None, dtype=mstype.float32, name="Poisson").

    Arguments:
        rate (list, numpy.ndarray, Tensor): the rate (> 0); a Python scalar is refused, as in
            MindSpore. Default: None.
        seed (int): Default: None. dtype (mindspore.dtype): an int or float type. Default: mstype.float32.
        name (str): Default: "Poisson".
    """

    def __init__(self, rate: Any = None, seed: int | None = None, dtype: Any = mstype.float32,
                 name: str = "Poisson") -> None:
        param = dict(locals())
        param["param_dict"] = {"rate": rate}
        check_dtype(dtype, mstype.int_type + mstype.uint_type + mstype.float_type, type(self).__name__)
        if isinstance(rate, (int, float)):
            raise TypeError("Input rate can't be scalar")
        super().__init__(seed, dtype, name, param)
        self._rate = self._add_parameter(rate, "rate")
        if self._rate is not None:
            check_greater_zero(self._rate, "rate")

    @property
    def rate(self) -> Any:
        """The rate given at construction."""
        return self._rate

    def _get_dist_type(self) -> str:
        return "Poisson"

    def _get_dist_args(self, rate: Any = None) -> tuple:
        return self._dist_args(("rate", rate))

    def _mean(self, rate: Any = None) -> jax.Array:
        return self._check_param_type(rate)

    _var = _mean

    def _mode(self, rate: Any = None) -> jax.Array:
        return jnp.floor(self._check_param_type(rate))

    def _log_prob(self, value: Any, rate: Any = None) -> jax.Array:
        value = self._value_as(value, self.dtype)
        rate = self._check_param_type(rate)
        safe_x = jnp.where(value < 0, jnp.zeros_like(value), value)
        y = jnp.log(rate) * safe_x - special.gammaln(safe_x + 1.0)
        return jnp.where(value == safe_x, y, -jnp.inf) - rate

    def _cdf(self, value: Any, rate: Any = None) -> jax.Array:
        value = self._value_as(value, self.dtype)
        rate = self._check_param_type(rate)
        neg = value < 0
        cdf = 1.0 - special.gammainc(1.0 + jnp.where(neg, jnp.zeros_like(value), value), rate)
        return jnp.where(neg, jnp.zeros_like(cdf), cdf)

    def _sample(self, shape: tuple = (), rate: Any = None) -> jax.Array:
        shape = self._sample_shape(shape, ())
        rate = self._check_param_type(rate).astype(jnp.float32)
        origin = shape + rate.shape
        draw = jax.random.poisson(sample_key(self.seed), rate, origin)
        return self._finish_sample(draw, origin)
