"""Softplus bijector (MindSpore's ``mindspore.nn.probability.bijector.Softplus``): y = log(1 + exp(k x)) / k."""
from __future__ import annotations

from typing import Any

import jax
import jax.numpy as jnp

from mindjax.nn.probability.bijector.bijector import Bijector
from mindjax.nn.probability.distribution._utils import inverse_softplus, softplus

__all__ = ["Softplus"]


class Softplus(Bijector):
    """Softplus(sharpness=1.0, name='Softplus').

    Arguments:
        sharpness (float, list, numpy.ndarray, Tensor): k. Default: 1.0.
        name (str): Default: 'Softplus'.
    """

    def __init__(self, sharpness: Any = 1.0, name: str = "Softplus") -> None:
        param = dict(locals())
        param["param_dict"] = {"sharpness": sharpness}
        super().__init__(name=name, dtype=None, param=param)
        self._sharpness = self._add_parameter(sharpness, "sharpness")

    @property
    def sharpness(self) -> Any:
        """k."""
        return self._sharpness

    def _forward(self, x: Any) -> jax.Array:
        x = self._check_value_dtype(x)
        k = self._param("sharpness", x)
        return softplus(k * x) / k

    def _inverse(self, y: Any) -> jax.Array:
        y = self._check_value_dtype(y)
        k = self._param("sharpness", y)
        return inverse_softplus(k * y) / k

    def _forward_log_jacobian(self, x: Any) -> jax.Array:
        x = self._check_value_dtype(x)
        return jax.nn.log_sigmoid(self._param("sharpness", x) * x)

    def _inverse_log_jacobian(self, y: Any) -> jax.Array:
        y = self._check_value_dtype(y)
        s = self._param("sharpness", y) * y
        return s - inverse_softplus(s)
