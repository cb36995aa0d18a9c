"""GumbelCDF bijector (MindSpore's ``mindspore.nn.probability.bijector.GumbelCDF``)."""
from __future__ import annotations

from typing import Any

import jax
import jax.numpy as jnp

from mindjax.nn.probability.bijector.bijector import Bijector
from mindjax.nn.probability.distribution._utils import check_greater_zero

__all__ = ["GumbelCDF"]


class GumbelCDF(Bijector):
    """GumbelCDF(loc=0.0, scale=1.0, name='GumbelCDF'): y = exp(-exp(-(x - loc) / scale)).

    Arguments:
        loc (float, list, numpy.ndarray, Tensor): Default: 0.0.
        scale (float, list, numpy.ndarray, Tensor): > 0. Default: 1.0.
        name (str): Default: 'GumbelCDF'.
    """

    def __init__(self, loc: Any = 0.0, scale: Any = 1.0, name: str = "GumbelCDF") -> None:
        param = dict(locals())
        param["param_dict"] = {"loc": loc, "scale": scale}
        super().__init__(name=name, param=param)
        self._loc = self._add_parameter(loc, "loc")
        self._scale = self._add_parameter(scale, "scale")
        check_greater_zero(self._scale, "scale")

    @property
    def loc(self) -> Any:
        """The location."""
        return self._loc

    @property
    def scale(self) -> Any:
        """The scale."""
        return self._scale

    def _forward(self, x: Any) -> jax.Array:
        x = self._check_value_dtype(x)
        z = (x - self._param("loc", x)) / self._param("scale", x)
        return jnp.exp(-1 * jnp.exp(-z))

    def _inverse(self, y: Any) -> jax.Array:
        y = self._check_value_dtype(y)
        return self._param("loc", y) - self._param("scale", y) * jnp.log(-1 * jnp.log(y))

    def _forward_log_jacobian(self, x: Any) -> jax.Array:
        x = self._check_value_dtype(x)
        scale = self._param("scale", x)
        z = (x - self._param("loc", x)) / scale
        return -z - jnp.exp(-z) - jnp.log(scale)

    def _inverse_log_jacobian(self, y: Any) -> jax.Array:
        y = self._check_value_dtype(y)
        return jnp.log(self._param("scale", y) / (-1.0 * y * jnp.log(y)))
