"""LogNormal distribution (MindSpore's ``mindspore.nn.probability.distribution.LogNormal``): exp of a Normal."""
from __future__ import annotations

from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from mindjax.common import dtype as mstype
from mindjax.nn.probability.distribution._utils import check_distribution_name, check_tuple
from mindjax.nn.probability.distribution.normal import Normal
from mindjax.nn.probability.distribution.transformed_distribution import TransformedDistribution

__all__ = ["LogNormal"]


class LogNormal(TransformedDistribution):
    """LogNormal(loc=None, scale=None, seed=0, dtype=mstype.float32, name="LogNormal").

    Arguments:
        loc, scale (int, float, list, numpy.ndarray, Tensor): mean and standard deviation (> 0) of
            the underlying Normal. Default: None.
        seed (int): Default: 0. dtype (mindspore.dtype): a float type. Default: mstype.float32.
        name (str): Default: "LogNormal".
    """

    def __init__(self, loc: Any = None, scale: Any = None, seed: int = 0, dtype: Any = mstype.float32,
                 name: str = "LogNormal") -> None:
        from mindjax.nn.probability.bijector.exp import Exp
        super().__init__(distribution=Normal(loc, scale, dtype=dtype), bijector=Exp(), seed=seed, name=name)
        self._reset_parameters()
        self._loc = self._add_parameter(loc, "loc")
        self._scale = self._add_parameter(scale, "scale")

    @property
    def loc(self) -> Any:
        """The mean of the underlying Normal."""
        return self._loc

    @property
    def scale(self) -> Any:
        """The standard deviation of the underlying Normal."""
        return self._scale

    def _get_dist_type(self) -> str:
        return "LogNormal"

    def _get_dist_args(self, loc: Any = None, scale: Any = None) -> tuple:
        return self._dist_args(("loc", loc), ("scale", scale))

    def _mean(self, loc: Any = None, scale: Any = None) -> jax.Array:
        mean, sd = self._check_param_type(loc, scale)
        return jnp.exp(mean + 0.5 * jnp.square(sd))

    def _mode(self, loc: Any = None, scale: Any = None) -> jax.Array:
        mean, sd = self._check_param_type(loc, scale)
        return jnp.exp(mean - jnp.square(sd))

    def _var(self, loc: Any = None, scale: Any = None) -> jax.Array:
        mean, sd = self._check_param_type(loc, scale)
        var = jnp.square(sd)
        return jnp.expm1(var) * jnp.exp(2.0 * mean + var)

    def _entropy(self, loc: Any = None, scale: Any = None) -> jax.Array:
        mean, sd = self._check_param_type(loc, scale)
        return mean + 0.5 + jnp.log(sd) + np.float32(0.5 * np.log(2 * np.pi))

    def _cdf(self, value: Any, loc: Any = None, scale: Any = None) -> jax.Array:
        mean, sd = self._check_param_type(loc, scale)
        cdf = self.distribution.cdf(self.bijector.inverse(value), mean, sd)
        return jnp.where(self._check_value(value, "value") > 0.0, cdf, jnp.zeros_like(cdf))

    def _log_prob(self, value: Any, loc: Any = None, scale: Any = None) -> jax.Array:
        mean, sd = self._check_param_type(loc, scale)
        unadjusted = self.distribution.log_prob(self.bijector.inverse(value), mean, sd)
        return unadjusted + self.bijector.inverse_log_jacobian(value)

    def _cross_entropy(self, dist: str, loc_b: Any, scale_b: Any, loc_a: Any = None, scale_a: Any = None) -> jax.Array:
        check_distribution_name(dist, "LogNormal")
        return self._entropy(loc_a, scale_a) + self._kl_loss(dist, loc_b, scale_b, loc_a, scale_a)

    def _kl_loss(self, dist: str, loc_b: Any, scale_b: Any, loc_a: Any = None, scale_a: Any = None) -> jax.Array:
        check_distribution_name(dist, "LogNormal")
        loc_a, scale_a = self._get_dist_args(loc_a, scale_a)
        return self.distribution.kl_loss("Normal", loc_b, scale_b, loc_a, scale_a)

    def _sample(self, shape: tuple = (), loc: Any = None, scale: Any = None) -> jax.Array:
        shape = tuple(check_tuple(shape, "shape"))
        mean, sd = self._check_param_type(loc, scale)
        return self.bijector.forward(self.distribution.sample(shape, mean, sd).astype(mean.dtype))
