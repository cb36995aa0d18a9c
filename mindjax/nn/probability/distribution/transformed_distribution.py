"""TransformedDistribution (MindSpore's ``mindspore.nn.probability.distribution.TransformedDistribution``).

Y = f(X), X from ``distribution`` and f a ``bijector``:
log p_Y(y) = log p_X(f^-1(y)) + log|df^-1/dy|, cdf_Y(y) = cdf_X(f^-1(y)).
"""
from __future__ import annotations

from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from mindjax.common import dtype as mstype
from mindjax.nn.probability.distribution._utils import check_dtype, check_type, raise_not_impl_error
from mindjax.nn.probability.distribution.distribution import Distribution

__all__ = ["TransformedDistribution"]


class TransformedDistribution(Distribution):
    """TransformedDistribution(bijector, distribution, seed=None, name="transformed_distribution").

    Arguments:
        bijector (Bijector): the transformation.
        distribution (Distribution): the distribution transformed; its dtype must be a float type.
        seed (int): the sampling seed. Default: None.
        name (str): Default: "transformed_distribution".
    """

    def __init__(self, bijector: Any, distribution: Distribution, seed: int | None = None,
                 name: str = "transformed_distribution") -> None:
        from mindjax.nn.probability.bijector.bijector import Bijector
        param = dict(locals())
        owner = type(self).__name__
        check_type("bijector", bijector, (Bijector,), owner)
        check_type("distribution", distribution, (Distribution,), owner)
        check_dtype(distribution.dtype, mstype.float_type, owner)
        super().__init__(seed, distribution.dtype, name, param)
        self._bijector = bijector
        self._distribution = distribution
        self._is_linear_transformation = bijector.is_constant_jacobian
        self._batch_shape = distribution.batch_shape
        self._is_scalar_batch = distribution.is_scalar_batch
        self.default_parameters = distribution.default_parameters
        self.parameter_names = distribution.parameter_names
        self.parameter_type = distribution.parameter_type
        self._broadcast_shape = self._broadcast_bijector_dist()

    @property
    def bijector(self) -> Any:
        """The bijector f."""
        return self._bijector

    @property
    def distribution(self) -> Distribution:
        """The distribution of X."""
        return self._distribution

    @property
    def is_linear_transformation(self) -> bool:
        """Whether f has a constant Jacobian."""
        return self._is_linear_transformation

    def _broadcast_bijector_dist(self) -> tuple | None:
        if self.batch_shape is None or self.bijector.batch_shape is None:
            return None
        return tuple(np.broadcast_shapes(tuple(self.bijector.batch_shape), tuple(self.batch_shape)))

    def _cdf(self, value: Any, *args: Any, **kwargs: Any) -> jax.Array:
        return self.distribution.cdf(self.bijector.inverse(value), *args, **kwargs)

    def _log_cdf(self, value: Any, *args: Any, **kwargs: Any) -> jax.Array:
        return jnp.log(self._cdf(value, *args, **kwargs))

    def _survival_function(self, value: Any, *args: Any, **kwargs: Any) -> jax.Array:
        return 1.0 - self._cdf(value, *args, **kwargs)

    def _log_survival(self, value: Any, *args: Any, **kwargs: Any) -> jax.Array:
        return jnp.log(self._survival_function(value, *args, **kwargs))

    def _log_prob(self, value: Any, *args: Any, **kwargs: Any) -> jax.Array:
        unadjusted = self.distribution.log_prob(self.bijector.inverse(value), *args, **kwargs)
        log_jacobian = self.bijector.inverse_log_jacobian(value)
        return jnp.where(unadjusted == -jnp.inf, unadjusted, unadjusted + log_jacobian)

    def _prob(self, value: Any, *args: Any, **kwargs: Any) -> jax.Array:
        return jnp.exp(self._log_prob(value, *args, **kwargs))

    def _sample(self, *args: Any, **kwargs: Any) -> jax.Array:
        return self.bijector.forward(self.distribution.sample(*args, **kwargs))

    def _mean(self, *args: Any, **kwargs: Any) -> jax.Array:
        if not self.is_linear_transformation:
            raise_not_impl_error("mean")
        return self.bijector.forward(self.distribution.mean(*args, **kwargs))
