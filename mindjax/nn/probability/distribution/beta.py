"""Beta distribution (MindSpore's ``mindspore.nn.probability.distribution.Beta``)."""
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

__all__ = ["Beta"]


def _lbeta(a: jax.Array, b: jax.Array) -> jax.Array:
    return special.gammaln(a) + special.gammaln(b) - special.gammaln(a + b)


class Beta(Distribution):
    """Beta(concentration1=None, concentration0=None, seed=None, dtype=mstype.float32, name="Beta").

    Arguments:
        concentration1, concentration0 (int, list, numpy.ndarray, Tensor): alpha and beta, both > 0;
            a Python float is refused, as in MindSpore. Default: None.
        seed (int): Default: None. dtype (mindspore.dtype): a float type. Default: mstype.float32.
        name (str): Default: "Beta".
    """

    def __init__(self, concentration1: Any = None, concentration0: Any = None, seed: int | None = None,
                 dtype: Any = mstype.float32, name: str = "Beta") -> None:
        param = dict(locals())
        param["param_dict"] = {"concentration1": concentration1, "concentration0": concentration0}
        check_dtype(dtype, mstype.float_type, type(self).__name__)
        if isinstance(concentration0, float):
            raise TypeError("Input concentration0 can't be scalar")
        if isinstance(concentration1, float):
            raise TypeError("Input concentration1 can't be scalar")
        super().__init__(seed, dtype, name, param)
        self._concentration1 = self._add_parameter(concentration1, "concentration1")
        self._concentration0 = self._add_parameter(concentration0, "concentration0")
        if self._concentration1 is not None:
            check_greater_zero(self._concentration1, "concentration1")
        if self._concentration0 is not None:
            check_greater_zero(self._concentration0, "concentration0")

    @property
    def concentration1(self) -> Any:
        """alpha, given at construction."""
        return self._concentration1

    @property
    def concentration0(self) -> Any:
        """beta, given at construction."""
        return self._concentration0

    def _get_dist_type(self) -> str:
        return "Beta"

    def _get_dist_args(self, concentration1: Any = None, concentration0: Any = None) -> tuple:
        return self._dist_args(("concentration1", concentration1), ("concentration0", concentration0))

    def _mean(self, concentration1: Any = None, concentration0: Any = None) -> jax.Array:
        a, b = self._check_param_type(concentration1, concentration0)
        return a / (a + b)

    def _var(self, concentration1: Any = None, concentration0: Any = None) -> jax.Array:
        a, b = self._check_param_type(concentration1, concentration0)
        t = a + b
        return a * b / (jnp.power(t, 2) * (t + 1.0))

    def _mode(self, concentration1: Any = None, concentration0: Any = None) -> jax.Array:
        a, b = self._check_param_type(concentration1, concentration0)
        return jnp.where((a > 1.0) & (b > 1.0), (a - 1.0) / (a + b - 2.0), jnp.nan).astype(a.dtype)

    def _entropy(self, concentration1: Any = None, concentration0: Any = None) -> jax.Array:
        a, b = self._check_param_type(concentration1, concentration0)
        return (_lbeta(a, b) - (a - 1.0) * special.digamma(a) - (b - 1.0) * special.digamma(b)
                + (a + b - 2.0) * special.digamma(a + b))

    def _cross_entropy(self, dist: str, concentration1_b: Any, concentration0_b: Any,
                       concentration1_a: Any = None, concentration0_a: Any = None) -> jax.Array:
        check_distribution_name(dist, "Beta")
        return (self._entropy(concentration1_a, concentration0_a)
                + self._kl_loss(dist, concentration1_b, concentration0_b, concentration1_a, concentration0_a))

    def _log_prob(self, value: Any, concentration1: Any = None, concentration0: Any = None) -> jax.Array:
        value = self._value_as(value, self.dtype)
        a, b = self._check_param_type(concentration1, concentration0)
        return (a - 1.0) * jnp.log(value) + (b - 1.0) * jnp.log1p(-value) - _lbeta(a, b)

    def _kl_loss(self, dist: str, concentration1_b: Any, concentration0_b: Any,
                 concentration1_a: Any = None, concentration0_a: Any = None) -> jax.Array:
        check_distribution_name(dist, "Beta")
        pt = mstype.to_jax_dtype(self.parameter_type)
        a_b = self._check_value(concentration1_b, "concentration1_b").astype(pt)
        b_b = self._check_value(concentration0_b, "concentration0_b").astype(pt)
        a_a, b_a = self._check_param_type(concentration1_a, concentration0_a)
        return (_lbeta(a_b, b_b) - _lbeta(a_a, b_a) - special.digamma(a_a) * (a_b - a_a)
                - special.digamma(b_a) * (b_b - b_a) + special.digamma(a_a + b_a) * (a_b + b_b - a_a - b_a))

    def _sample(self, shape: tuple = (), concentration1: Any = None, concentration0: Any = None) -> jax.Array:
        shape = self._sample_shape(shape, ())
        a, b = self._check_param_type(concentration1, concentration0)
        origin = shape + a.shape
        draw = jax.random.beta(sample_key(self.seed), a, b, origin, a.dtype)
        return self._finish_sample(draw, origin)
