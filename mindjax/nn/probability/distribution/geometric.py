"""Geometric distribution (MindSpore's ``mindspore.nn.probability.distribution.Geometric``)."""
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

__all__ = ["Geometric"]


class Geometric(Distribution):
    """Geometric(probs=None, seed=None, dtype=mstype.int32, name="Geometric").

    The number of failures before the first success, success probability ``probs`` in (0, 1).

    Arguments:
        probs (float, list, numpy.ndarray, Tensor): Default: None. seed (int): Default: None.
        dtype (mindspore.dtype): an int or float type. Default: mstype.int32. name (str): Default: "Geometric".
    """

    def __init__(self, probs: Any = None, seed: int | None = None, dtype: Any = mstype.int32,
                 name: str = "Geometric") -> None:
        param = dict(locals())
        param["param_dict"] = {"probs": probs}
        check_dtype(dtype, mstype.int_type + mstype.uint_type + mstype.float_type, type(self).__name__)
        super().__init__(seed, dtype, name, param)
        self._probs = self._add_parameter(probs, "probs")
        if self._probs is not None:
            check_prob(self._probs)

    @property
    def probs(self) -> Any:
        """The success probability given at construction."""
        return self._probs

    def _get_dist_type(self) -> str:
        return "Geometric"

    def _get_dist_args(self, probs1: Any = None) -> tuple:
        return self._dist_args(("probs", probs1))

    def _mean(self, probs1: Any = None) -> jax.Array:
        p = self._check_param_type(probs1)
        return (1.0 - p) / p

    def _mode(self, probs1: Any = None) -> jax.Array:
        return jnp.zeros_like(self._check_param_type(probs1)).astype(mstype.to_jax_dtype(self.dtype))

    def _var(self, probs1: Any = None) -> jax.Array:
        p = self._check_param_type(probs1)
        return (1.0 - p) / jnp.square(p)

    def _entropy(self, probs1: Any = None) -> jax.Array:
        p = self._check_param_type(probs1)
        q = 1.0 - p
        return (-q * jnp.log(q) - p * jnp.log(p)) / p

    def _cross_entropy(self, dist: str, probs1_b: Any, probs1: Any = None) -> jax.Array:
        check_distribution_name(dist, "Geometric")
        return self._entropy(probs1) + self._kl_loss(dist, probs1_b, probs1)

    def _prob(self, value: Any, probs1: Any = None) -> jax.Array:
        value = jnp.floor(self._value_as(value, self.parameter_type))
        p = self._check_param_type(probs1)
        pmf = jnp.exp(jnp.log(1.0 - p) * value + jnp.log(p))
        return jnp.where(value < 0, jnp.zeros_like(pmf), pmf)

    def _cdf(self, value: Any, probs1: Any = None) -> jax.Array:
        value = jnp.floor(self._value_as(value, self.parameter_type))
        p = self._check_param_type(probs1)
        cdf = 1.0 - jnp.power(1.0 - p, value + 1.0)
        return jnp.where(value < 0, jnp.zeros_like(cdf), cdf)

    def _kl_loss(self, dist: str, probs1_b: Any, probs1: Any = None) -> jax.Array:
        check_distribution_name(dist, "Geometric")
        pb = self._check_value(probs1_b, "probs1_b").astype(mstype.to_jax_dtype(self.parameter_type))
        pa = self._check_param_type(probs1)
        return jnp.log(pa / pb) + (1.0 - pa) / pa * jnp.log((1.0 - pa) / (1.0 - pb))

    def _sample(self, shape: tuple = (), probs1: Any = None) -> jax.Array:
        shape = self._sample_shape(shape, ())
        p = self._check_param_type(probs1)
        origin = shape + p.shape
        u = jax.random.uniform(sample_key(self.seed), origin, jnp.float32, minval=np.finfo(np.float32).tiny)
        return self._finish_sample(jnp.floor(jnp.log(u) / jnp.log(1.0 - p)), origin)
