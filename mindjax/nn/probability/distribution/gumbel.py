"""Gumbel distribution (MindSpore's ``mindspore.nn.probability.distribution.Gumbel``)."""
from __future__ import annotations

from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
from jax.scipy import special

from mindjax.common import dtype as mstype
from mindjax.common.tensor import as_array
from mindjax.nn.probability.distribution._utils import check_distribution_name, check_dtype
from mindjax.nn.probability.distribution.transformed_distribution import TransformedDistribution
from mindjax.nn.probability.distribution.uniform import Uniform

__all__ = ["Gumbel"]


class Gumbel(TransformedDistribution):
    """Gumbel(loc, scale, seed=0, dtype=mstype.float32, name="Gumbel").

    Its methods take no dist_spec_args (as MindSpore's): the parameters are the ones given here.

    Arguments:
        loc (int, float, list, numpy.ndarray, Tensor): the location.
        scale (int, float, list, numpy.ndarray, Tensor): the scale (> 0).
        seed (int): Default: 0. dtype (mindspore.dtype): a float type. Default: mstype.float32.
        name (str): Default: "Gumbel".
    """

    def __init__(self, loc: Any, scale: Any, seed: int = 0, dtype: Any = mstype.float32,
                 name: str = "Gumbel") -> None:
        from mindjax.nn.probability.bijector.gumbel_cdf import GumbelCDF
        from mindjax.nn.probability.bijector.invert import Invert
        check_dtype(dtype, mstype.float_type, type(self).__name__)
        gumbel_cdf = GumbelCDF(loc, scale)
        super().__init__(distribution=Uniform(0.0, 1.0, dtype=dtype), bijector=Invert(gumbel_cdf),
                         seed=seed, name=name)
        self._reset_parameters()
        self._loc = self._add_parameter(loc, "loc")
        self._scale = self._add_parameter(scale, "scale")
        self._gumbel_bijector = gumbel_cdf

    @property
    def loc(self) -> Any:
        """The location."""
        return self._loc

    @property
    def scale(self) -> Any:
        """The scale."""
        return self._scale

    def _ls(self) -> tuple:
        pt = mstype.to_jax_dtype(self.parameter_type)
        return (as_array(self._default("loc")).astype(pt), as_array(self._default("scale")).astype(pt))

    def _get_dist_type(self) -> str:
        return "Gumbel"

    def _get_dist_args(self, loc: Any = None, scale: Any = None) -> tuple:
        return self._dist_args(("loc", loc), ("scale", scale))

    def _mean(self) -> jax.Array:
        loc, scale = self._ls()
        return loc + scale * np.float32(np.euler_gamma)

    def _mode(self) -> jax.Array:
        loc, scale = self._ls()
        return loc * jnp.ones_like(scale)

    def _sd(self) -> jax.Array:
        _, scale = self._ls()
        scale = scale * jnp.ones(self.broadcast_shape, scale.dtype)
        return scale * np.float32(np.pi) / np.float32(np.sqrt(6.0))

    def _entropy(self) -> jax.Array:
        _, scale = self._ls()
        scale = scale * jnp.ones(self.broadcast_shape, scale.dtype)
        return 1.0 + jnp.log(scale) + np.float32(np.euler_gamma)

    def _log_prob(self, value: Any) -> jax.Array:
        value = self._check_value(value, "value")
        loc, scale = self._ls()
        z = (value - loc) / scale
        return -(z + jnp.exp(-z)) - jnp.log(scale)

    def _cdf(self, value: Any) -> jax.Array:
        return self._gumbel_bijector.forward(self._check_value(value, "value"))

    def _cross_entropy(self, dist: str, loc_b: Any, scale_b: Any) -> jax.Array:
        check_distribution_name(dist, "Gumbel")
        return self._entropy() + self._kl_loss(dist, loc_b, scale_b)

    def _kl_loss(self, dist: str, loc_b: Any, scale_b: Any) -> jax.Array:
        check_distribution_name(dist, "Gumbel")
        pt = mstype.to_jax_dtype(self.parameter_type)
        loc_b = self._check_value(loc_b, "loc_b").astype(pt)
        scale_b = self._check_value(scale_b, "scale_b").astype(pt)
        loc, scale = self._ls()
        return (jnp.log(scale_b / scale) + np.float32(np.euler_gamma) * (scale / scale_b - 1.0)
                + (loc - loc_b) / scale_b + jnp.expm1((loc_b - loc) / scale_b + special.gammaln(scale / scale_b + 1.0)))

    def _sample(self, shape: tuple = ()) -> jax.Array:
        origin = tuple(shape) + tuple(self._broadcast_shape)
        org = self.distribution.sample(origin)
        value = self.bijector.forward(org.astype(mstype.to_jax_dtype(self.dtype)))
        return value.reshape(origin)
