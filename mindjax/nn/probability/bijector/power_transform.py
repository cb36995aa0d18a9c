"""PowerTransform bijector (MindSpore's ``mindspore.nn.probability.bijector.PowerTransform``)."""
from __future__ import annotations

from typing import Any

import jax
import jax.numpy as jnp

from mindjax.nn.probability.bijector.bijector import Bijector
from mindjax.nn.probability.distribution._utils import check_greater_equal_zero

__all__ = ["PowerTransform"]


class PowerTransform(Bijector):
    """PowerTransform(power=0.0, name='PowerTransform'): y = (1 + x * c)^(1 / c), exp(x) when c = 0.

    Arguments:
        power (float, list, numpy.ndarray, Tensor): c, >= 0. Default: 0.0.
        name (str): Default: 'PowerTransform'.
    """

    def __init__(self, power: Any = 0.0, name: str = "PowerTransform") -> None:
        param = dict(locals())
        param["param_dict"] = {"power": power}
        super().__init__(name=name, param=param)
        self._power = self._add_parameter(power, "power")
        check_greater_equal_zero(self._power, "Power")

    @property
    def power(self) -> Any:
        """The power c."""
        return self._power

    def _both(self, x: Any) -> tuple:
        x = self._check_value_dtype(x)
        c = self._param("power", x)
        shape = jnp.broadcast_shapes(x.shape, c.shape)
        return jnp.broadcast_to(x, shape), jnp.broadcast_to(c, shape)

    def _forward(self, x: Any) -> jax.Array:
        x, c = self._both(x)
        zero = c == 0
        safe = jnp.where(zero, jnp.ones_like(c), c)
        return jnp.where(zero, jnp.exp(x), jnp.exp(jnp.log1p(x * safe) / safe))

    def _inverse(self, y: Any) -> jax.Array:
        y, c = self._both(y)
        zero = c == 0
        safe = jnp.where(zero, jnp.ones_like(c), c)
        return jnp.where(zero, jnp.log(y), jnp.expm1(jnp.log(y) * safe) / safe)

    def _forward_log_jacobian(self, x: Any) -> jax.Array:
        x, c = self._both(x)
        return jnp.where(c == 0, x, (1.0 / c - 1) * jnp.log1p(x * c))

    def _inverse_log_jacobian(self, y: Any) -> jax.Array:
        y = self._check_value_dtype(y)
        return (self._param("power", y) - 1) * jnp.log(y)
