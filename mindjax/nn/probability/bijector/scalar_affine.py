"""ScalarAffine bijector (MindSpore's ``mindspore.nn.probability.bijector.ScalarAffine``): y = a * x + b."""
from __future__ import annotations

from typing import Any

import jax
import jax.numpy as jnp

from mindjax.nn.probability.bijector.bijector import Bijector

__all__ = ["ScalarAffine"]


class ScalarAffine(Bijector):
    """ScalarAffine(scale=1.0, shift=0.0, name='ScalarAffine').

    Arguments:
        scale (float, list, numpy.ndarray, Tensor): a. Default: 1.0.
        shift (float, list, numpy.ndarray, Tensor): b. Default: 0.0.
        name (str): Default: 'ScalarAffine'.
    """

    def __init__(self, scale: Any = 1.0, shift: Any = 0.0, name: str = "ScalarAffine") -> None:
        param = dict(locals())
        param["param_dict"] = {"scale": scale, "shift": shift}
        super().__init__(is_constant_jacobian=True, is_injective=True, name=name, dtype=None, param=param)
        self._scale = self._add_parameter(scale, "scale")
        self._shift = self._add_parameter(shift, "shift")

    @property
    def scale(self) -> Any:
        """a."""
        return self._scale

    @property
    def shift(self) -> Any:
        """b."""
        return self._shift

    def _forward(self, x: Any) -> jax.Array:
        x = self._check_value_dtype(x)
        return self._param("scale", x) * x + self._param("shift", x) * jnp.ones_like(x)

    def _inverse(self, y: Any) -> jax.Array:
        y = self._check_value_dtype(y)
        return (y - self._param("shift", y)) / self._param("scale", y)

    def _forward_log_jacobian(self, x: Any) -> jax.Array:
        x = self._check_value_dtype(x)
        return jnp.log(jnp.abs(self._param("scale", x)))

    def _inverse_log_jacobian(self, y: Any) -> jax.Array:
        y = self._check_value_dtype(y)
        return -1.0 * jnp.log(jnp.abs(self._param("scale", y)))
