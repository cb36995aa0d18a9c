"""Logistic distribution (MindSpore's ``mindspore.nn.probability.distribution.Logistic``)."""
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

__all__ = ["Logistic"]


class Logistic(Distribution):
    """Logistic(loc=None, scale=None, seed=None, dtype=mstype.float32, name="Logistic").

    Arguments:
        loc, scale (int, float, list, numpy.ndarray, Tensor): location and scale (> 0). Default: None.
        seed (int): Default: None. dtype (mindspore.dtype): a float type. Default: mstype.float32.
        name (str): Default: "Logistic".
    """

    def __init__(self, loc: Any = None, scale: Any = None, seed: int | None = None,
                 dtype: Any = mstype.float32, name: str = "Logistic") -> None:
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
        return "Logistic"

    def _get_dist_args(self, loc: Any = None, scale: Any = None) -> tuple:
        return self._dist_args(("loc", loc), ("scale", scale))

    def _mean(self, loc: Any = None, scale: Any = None) -> jax.Array:
        return self._check_param_type(loc, scale)[0]

    _mode = _mean

    def _sd(self, loc: Any = None, scale: Any = None) -> jax.Array:
        return self._check_param_type(loc, scale)[1] * np.float32(np.pi / np.sqrt(3))

    def _entropy(self, loc: Any = None, scale: Any = None) -> jax.Array:
        return jnp.log(self._check_param_type(loc, scale)[1]) + 2.0

    def _z(self, value: Any, loc: Any, scale: Any) -> tuple:
        value = self._value_as(value, self.dtype)
        loc, scale = self._check_param_type(loc, scale)
        return (value - loc) / scale, scale

    def _log_prob(self, value: Any, loc: Any = None, scale: Any = None) -> jax.Array:
        z, scale = self._z(value, loc, scale)
        return -z - 2.0 * softplus(-z) - jnp.log(scale)

    def _cdf(self, value: Any, loc: Any = None, scale: Any = None) -> jax.Array:
        return jax.nn.sigmoid(self._z(value, loc, scale)[0])

    def _log_cdf(self, value: Any, loc: Any = None, scale: Any = None) -> jax.Array:
        return -1 * softplus(-self._z(value, loc, scale)[0])

    def _survival_function(self, value: Any, loc: Any = None, scale: Any = None) -> jax.Array:
        return jax.nn.sigmoid(-self._z(value, loc, scale)[0])

    def _log_survival(self, value: Any, loc: Any = None, scale: Any = None) -> jax.Array:
        return -1 * softplus(self._z(value, loc, scale)[0])

    def _sample(self, shape: tuple = (), loc: Any = None, scale: Any = None) -> jax.Array:
        shape = self._sample_shape(shape, ())
        loc, scale = self._check_param_type(loc, scale)
        origin = shape + loc.shape
        u = jax.random.uniform(sample_key(self.seed), origin, jnp.float32, minval=np.finfo(np.float32).tiny)
        return self._finish_sample((jnp.log(u) - jnp.log1p(-u)) * scale + loc, origin)
