"""Normal distribution (MindSpore's ``mindspore.nn.probability.distribution.Normal``)."""
from __future__ import annotations

from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
from jax.scipy import special

from mindjax.common import dtype as mstype
from mindjax.nn.probability.distribution._utils import (
    check_distribution_name, check_dtype, check_greater_zero, sample_key)
from mindjax.nn.probability.distribution.distribution import Distribution

__all__ = ["Normal"]


class Normal(Distribution):
    """Normal(mean=None, sd=None, seed=None, dtype=mstype.float32, name="Normal").

    Arguments:
        mean (int, float, list, numpy.ndarray, Tensor): the mean. Default: None.
        sd (int, float, list, numpy.ndarray, Tensor): the standard deviation (> 0). Default: None.
        seed (int): the sampling seed; 0 when None. Default: None.
        dtype (mindspore.dtype): a float type of the samples. Default: mstype.float32.
        name (str): Default: "Normal".

    Example:
        >>> import mindjax as ms, mindjax.nn.probability as msp
        >>> n = msp.distribution.Normal(0.0, 1.0)
        >>> n.prob(ms.Tensor([0.0]))  # doctest: +SKIP
    """

    def __init__(self, mean: Any = None, sd: Any = None, seed: int | None = None,
                 dtype: Any = mstype.float32, name: str = "Normal") -> None:
        param = dict(locals())
        param["param_dict"] = {"mean": mean, "sd": sd}
        check_dtype(dtype, mstype.float_type, type(self).__name__)
        super().__init__(seed, dtype, name, param)
        self._mean_value = self._add_parameter(mean, "mean")
        self._sd_value = self._add_parameter(sd, "sd")
        if self._sd_value is not None:
            check_greater_zero(self._sd_value, "Standard deviation")

    def _get_dist_type(self) -> str:
        return "Normal"

    def _get_dist_args(self, mean: Any = None, sd: Any = None) -> tuple:
        return self._dist_args(("mean", mean), ("sd", sd))

    def _mean(self, mean: Any = None, sd: Any = None) -> jax.Array:
        return self._check_param_type(mean, sd)[0]

    _mode = _mean

    def _sd(self, mean: Any = None, sd: Any = None) -> jax.Array:
        return self._check_param_type(mean, sd)[1]

    def _entropy(self, mean: Any = None, sd: Any = None) -> jax.Array:
        _, sd = self._check_param_type(mean, sd)
        return np.float32(np.log(np.sqrt(np.e * 2.0 * np.pi))) + jnp.log(sd)

    def _cross_entropy(self, dist: str, mean_b: Any, sd_b: Any, mean: Any = None, sd: Any = None) -> jax.Array:
        check_distribution_name(dist, "Normal")
        return self._entropy(mean, sd) + self._kl_loss(dist, mean_b, sd_b, mean, sd)

    def _log_prob(self, value: Any, mean: Any = None, sd: Any = None) -> jax.Array:
        value = self._value_as(value, self.dtype)
        mean, sd = self._check_param_type(mean, sd)
        return -0.5 * jnp.square((value - mean) / sd) + (np.float32(-0.5 * np.log(2.0 * np.pi)) - jnp.log(sd))

    def _cdf(self, value: Any, mean: Any = None, sd: Any = None) -> jax.Array:
        value = self._value_as(value, self.dtype)
        mean, sd = self._check_param_type(mean, sd)
        return 0.5 * (1.0 + special.erf((value - mean) / (sd * np.float32(np.sqrt(2.0)))))

    def _kl_loss(self, dist: str, mean_b: Any, sd_b: Any, mean: Any = None, sd: Any = None) -> jax.Array:
        check_distribution_name(dist, "Normal")
        pt = mstype.to_jax_dtype(self.parameter_type)
        mean_b = self._check_value(mean_b, "mean_b").astype(pt)
        sd_b = self._check_value(sd_b, "sd_b").astype(pt)
        mean_a, sd_a = self._check_param_type(mean, sd)
        diff_log_scale = jnp.log(sd_a) - jnp.log(sd_b)
        squared_diff = jnp.square(mean_a / sd_b - mean_b / sd_b)
        return 0.5 * squared_diff + 0.5 * jnp.expm1(2 * diff_log_scale) - diff_log_scale

    def _sample(self, shape: tuple = (), mean: Any = None, sd: Any = None) -> jax.Array:
        shape = self._sample_shape(shape, ())
        mean, sd = self._check_param_type(mean, sd)
        origin = shape + mean.shape
        draw = jax.random.normal(sample_key(self.seed), origin, mean.dtype) * sd + mean
        return self._finish_sample(draw, origin)
