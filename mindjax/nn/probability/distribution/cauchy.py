"""Cauchy distribution (MindSpore's ``mindspore.nn.probability.distribution.Cauchy``)."""
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

__all__ = ["Cauchy"]


class Cauchy(Distribution):
    """Cauchy(loc=None, scale=None, seed=None, dtype=mstype.float32, name="Cauchy").

    Arguments:
        loc, scale (int, float, list, numpy.ndarray, Tensor): location and scale (> 0). Default: None.
        seed (int): Default: None. dtype (mindspore.dtype): a float type. Default: mstype.float32.
        name (str): Default: "Cauchy".
    """

    def __init__(self, loc: Any = None, scale: Any = None, seed: int | None = None,
                 dtype: Any = mstype.float32, name: str = "Cauchy") -> None:
        param = dict(locals())
        param["param_dict"] = {"loc": loc, "scale": scale}
        check_dtype(dtype, mstype.float_type, type(self).__name__)
        super().__init__(seed, dtype, name, param)
        self._loc = self._add_parameter(loc, "loc")
        self._scale = self._add_parameter(scale, "scale")
        if self._scale is not None:
            check_greater_zero(self._scale, "scale")

    @property
    def loc(self) -> Any:
        """The location given at construction."""
        return self._loc

    @property
    def scale(self) -> Any:
        """The scale given at construction."""
        return self._scale

    def _get_dist_type(self) -> str:
        return "Cauchy"

    def _get_dist_args(self, loc: Any = None, scale: Any = None) -> tuple:
        return self._dist_args(("loc", loc), ("scale", scale))

    def _mode(self, loc: Any = None, scale: Any = None) -> jax.Array:
        return self._check_param_type(loc, scale)[0]

    def _mean(self, *args: Any, **kwargs: Any) -> None:
        raise_not_defined("mean", "Cauchy")

    def _sd(self, *args: Any, **kwargs: Any) -> None:
        raise_not_defined("standard deviation", "Cauchy")

    def _var(self, *args: Any, **kwargs: Any) -> None:
        raise_not_defined("variance", "Cauchy")

    def _entropy(self, loc: Any = None, scale: Any = None) -> jax.Array:
        _, scale = self._check_param_type(loc, scale)
        return jnp.log(scale) + np.float32(np.log(4 * np.pi))

    def _z(self, value: Any, loc: Any, scale: Any) -> tuple:
        value = self._value_as(value, self.dtype)
        loc, scale = self._check_param_type(loc, scale)
        return (value - loc) / scale, scale

    def _log_prob(self, value: Any, loc: Any = None, scale: Any = None) -> jax.Array:
        z, scale = self._z(value, loc, scale)
        return -1 * jnp.log1p(jnp.square(z)) - jnp.log(np.float32(np.pi) * scale)

    def _cdf(self, value: Any, loc: Any = None, scale: Any = None) -> jax.Array:
        z, _ = self._z(value, loc, scale)
        return jnp.arctan(z) / np.float32(np.pi) + 0.5

    def _log_cdf(self, value: Any, loc: Any = None, scale: Any = None) -> jax.Array:
        z, _ = self._z(value, loc, scale)
        return jnp.log1p(2.0 * jnp.arctan(z) / np.float32(np.pi)) - np.float32(np.log(2.0))

    def _kl_loss(self, dist: str, loc_b: Any, scale_b: Any, loc: Any = None, scale: Any = None) -> jax.Array:
        check_distribution_name(dist, "Cauchy")
        pt = mstype.to_jax_dtype(self.parameter_type)
        loc_b = self._check_value(loc_b, "loc_b").astype(pt)
        scale_b = self._check_value(scale_b, "scale_b").astype(pt)
        loc_a, scale_a = self._check_param_type(loc, scale)
        return (jnp.log(jnp.square(scale_a + scale_b) + jnp.square(loc_a - loc_b)) - np.float32(np.log(4.0))
                - jnp.log(scale_a) - jnp.log(scale_b))

    def _cross_entropy(self, dist: str, loc_b: Any, scale_b: Any, loc: Any = None, scale: Any = None) -> jax.Array:
        check_distribution_name(dist, "Cauchy")
        return self._entropy(loc, scale) + self._kl_loss(dist, loc_b, scale_b, loc, scale)

    def _sample(self, shape: tuple = (), loc: Any = None, scale: Any = None) -> jax.Array:
        shape = self._sample_shape(shape, ())
        loc, scale = self._check_param_type(loc, scale)
        origin = shape + loc.shape
        u = jax.random.uniform(sample_key(self.seed), origin, jnp.float32)
        return self._finish_sample(loc + scale * jnp.tan(np.float32(np.pi) * (u - 0.5)), origin)
