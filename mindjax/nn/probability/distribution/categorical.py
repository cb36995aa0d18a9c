"""Categorical distribution (MindSpore's ``mindspore.nn.probability.distribution.Categorical``)."""
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

__all__ = ["Categorical"]


class Categorical(Distribution):
    """Categorical(probs=None, seed=None, dtype=mstype.int32, name="Categorical").

    Arguments:
        probs (list, numpy.ndarray, Tensor): event probabilities on the last axis (rank >= 1, each
            in (0, 1], summing to one). Default: None.
        seed (int): Default: None. dtype (mindspore.dtype): an int or float type. Default: mstype.int32.
        name (str): Default: "Categorical".
    """

    def __init__(self, probs: Any = None, seed: int | None = None, dtype: Any = mstype.int32,
                 name: str = "Categorical") -> None:
        param = dict(locals())
        param["param_dict"] = {"probs": probs}
        check_dtype(dtype, mstype.uint_type + mstype.int_type + mstype.float_type, type(self).__name__)
        super().__init__(seed, dtype, name, param)
        self._probs = self._add_parameter(probs, "probs")
        if self._probs is not None:
            check_rank(self._probs)
            check_prob(self._probs)
            check_sum_equal_one(self._probs)
            self._broadcast_shape = tuple(self._probs.shape[:-1])

    @property
    def probs(self) -> Any:
        """The event probabilities given at construction."""
        return self._probs

    def _get_dist_type(self) -> str:
        return "Categorical"

    def _get_dist_args(self, probs: Any = None) -> tuple:
        return self._dist_args(("probs", probs))

    def _mean(self, probs: Any = None) -> jax.Array:
        p = self._check_param_type(probs)
        return jnp.sum(jnp.arange(p.shape[-1], dtype=p.dtype) * p, -1, keepdims=True)  # MindSpore keeps the axis

    def _mode(self, probs: Any = None) -> jax.Array:
        p = self._check_param_type(probs)
        return jnp.argmax(p, -1).astype(mstype.to_jax_dtype(self.dtype))

    def _var(self, probs: Any = None) -> jax.Array:
        p = self._check_param_type(probs)
        index = jnp.arange(p.shape[-1], dtype=p.dtype)
        return (jnp.sum(jnp.square(index) * p, -1, keepdims=True)
                - jnp.square(jnp.sum(index * p, -1, keepdims=True)))

    def _entropy(self, probs: Any = None) -> jax.Array:
        p = self._check_param_type(probs)
        return _squeeze0(-jnp.sum(jnp.log(p) * p, -1, keepdims=True))

    def _kl_loss(self, dist: str, probs_b: Any, probs: Any = None) -> jax.Array:
        check_distribution_name(dist, "Categorical")
        pb = self._check_value(probs_b, "probs_b").astype(mstype.to_jax_dtype(self.parameter_type))
        pa = self._check_param_type(probs)
        la, lb = jnp.log(pa), jnp.log(pb)
        kl = jnp.sum(jax.nn.softmax(la, -1) * (jax.nn.log_softmax(la, -1) - jax.nn.log_softmax(lb, -1)), -1,
                     keepdims=True)
        return _squeeze0(kl)

    def _cross_entropy(self, dist: str, probs_b: Any, probs: Any = None) -> jax.Array:
        check_distribution_name(dist, "Categorical")
        return self._entropy(probs) + self._kl_loss(dist, probs_b, probs)

    def _index_value(self, value: Any, probs: Any) -> tuple:
        p = self._check_param_type(probs)
        value = self._check_value(value, "value").astype(p.dtype)
        value = jnp.where((value < 0) & (value > -1.0), jnp.zeros_like(value), jnp.floor(value))
        batch = jnp.broadcast_shapes(value.shape, p.shape[:-1])
        return jnp.broadcast_to(value, batch), jnp.broadcast_to(p, batch + p.shape[-1:])

    def _log_prob(self, value: Any, probs: Any = None) -> jax.Array:
        value, p = self._index_value(value, probs)
        n = p.shape[-1]
        idx = jnp.clip(value, 0, n - 1).astype(jnp.int32)
        picked = jnp.take_along_axis(jnp.log(p), idx[..., None], -1)[..., 0]
        return jnp.where((value < 0) | (value > n - 1), jnp.nan, picked).astype(picked.dtype)

    def _cdf(self, value: Any, probs: Any = None) -> jax.Array:
        value, p = self._index_value(value, probs)
        n = p.shape[-1]
        idx = jnp.clip(value, 0, n - 1).astype(jnp.int32)
        picked = jnp.take_along_axis(jnp.cumsum(p, -1), idx[..., None], -1)[..., 0]
        return jnp.where(value < 0, jnp.zeros_like(picked), picked)

    def _sample(self, shape: tuple = (), probs: Any = None) -> jax.Array:
        shape = self._sample_shape(shape, ())
        p = self._check_param_type(probs)
        origin = shape + p.shape[:-1]
        draw = jax.random.categorical(sample_key(self.seed), jnp.log(p), -1, origin)
        return self._finish_sample(draw, origin)


def _squeeze0(x: jax.Array) -> jax.Array:
    """MindSpore's ``P.Squeeze()``: drop every axis of length 1."""
    return jnp.squeeze(x) if x.ndim else x

