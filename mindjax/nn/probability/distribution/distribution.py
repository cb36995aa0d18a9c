"""The base class of MindSpore's distributions (``mindspore.nn.probability.distribution.Distribution``).

A distribution is a Cell. Its public methods (``prob``, ``log_prob``, ``cdf`` ...)
take the value first and then, optionally, the distribution's own parameters
("dist_spec_args"), which replace the ones given at construction for that call.
``construct(name, *args)`` dispatches to them, so ``dist('prob', x)`` works in
PYNATIVE and in GRAPH mode. The numbers are computed on ``jax.Array``s; the public
methods are the Tensor boundary (``tensor_op``).
"""
from __future__ import annotations

from typing import Any, Callable

import jax
import jax.numpy as jnp
import numpy as np

from mindjax import _checkparam as validator

from mindjax.cells.cell import Cell
from mindjax.common import dtype as mstype
from mindjax.common.tensor import as_array, tensor_op
from mindjax.nn.probability.distribution._utils import (
    cast_to_tensor, check_tensor, check_tuple, raise_none_error, raise_not_implemented_util, set_param_type)

__all__ = ["Distribution"]

# Public method -> (own implementation, fallbacks derived from other implementations).
_METHODS = ("log_prob", "prob", "cdf", "log_cdf", "survival_function", "log_survival", "kl_loss", "mean",
            "mode", "sd", "var", "entropy", "cross_entropy", "sample", "get_dist_args", "get_dist_type")


def _has(obj: Any, name: str) -> bool:
    return getattr(type(obj), name, None) is not None


class Distribution(Cell):
    """Base class for all mathematical distributions (MindSpore's ``Distribution(seed, dtype, name, param)``).

    Arguments:
        seed (int): the seed used in sampling; 0 when None.
        dtype (mindspore.dtype): the type of the event samples.
        name (str): the name of the distribution.
        param (dict): the parameters used to initialize the distribution.

    Subclasses define ``_log_prob``/``_prob``, ``_cdf`` ... and ``_mean`` ...; the
    missing ones are derived as MindSpore derives them (``prob = exp(log_prob)``,
    ``survival = 1 - cdf`` ...), and a method with no way to compute it raises
    ``NotImplementedError("<method> is not implemented for <name> distribution.")``.
    """

    _log_prob: Callable[..., Any] | None = None
    _prob: Callable[..., Any] | None = None
    _cdf: Callable[..., Any] | None = None
    _log_cdf: Callable[..., Any] | None = None
    _survival_function: Callable[..., Any] | None = None
    _log_survival: Callable[..., Any] | None = None
    _sd: Callable[..., Any] | None = None
    _var: Callable[..., Any] | None = None
    _cross_entropy: Callable[..., Any] | None = None

    def __init__(self, seed: int | None, dtype: Any, name: str, param: dict) -> None:
        super().__init__()
        if seed is None:
            seed = 0
        if not isinstance(name, str):
            raise TypeError(f"For '{type(self).__name__}', the type of 'name' should be 'str', "
                            f"but got type '{type(name).__name__}'.")
        validator.check_non_negative_int(seed, "seed", name)  # a numpy int is refused too, as in MindSpore
        self._name = name
        self._seed = int(seed)
        self._dtype = dtype
        self._dist_parameters = {k: v for k, v in param.items() if not (k == "self" or k.startswith("_"))}
        self.default_parameters: list = []
        self.parameter_names: list = []
        if "distribution" not in self._dist_parameters:
            self.parameter_type = set_param_type(self._dist_parameters.get("param_dict", {}), dtype)
            self._batch_shape = self._calc_batch_shape()
            self._is_scalar_batch = self._check_is_scalar_batch()
            self._broadcast_shape = self._batch_shape

    # --- properties (MindSpore's names) -------------------------------------------------------
    @property
    def name(self) -> str:
        """The name of the distribution."""
        return self._name

    @property
    def dtype(self) -> Any:
        """The type of the event samples."""
        return self._dtype

    @property
    def seed(self) -> int:
        """The seed used in sampling."""
        return self._seed

    @property
    def parameters(self) -> dict:
        """The arguments the distribution was built with."""
        return self._dist_parameters

    @property
    def is_scalar_batch(self) -> bool:
        """Whether every construction parameter was a Python number."""
        return self._is_scalar_batch

    @property
    def batch_shape(self) -> tuple | None:
        """The broadcast shape of the construction parameters (None when one is missing)."""
        return self._batch_shape

    @property
    def broadcast_shape(self) -> tuple | None:
        """The batch shape broadcast with a bijector's (for transformed distributions)."""
        return self._broadcast_shape

    # --- parameters ---------------------------------------------------------------------------
    def _reset_parameters(self) -> None:
        self.default_parameters = []
        self.parameter_names = []

    def _add_parameter(self, value: Any, name: str) -> Any:
        """Keep ``value`` (as a Tensor of ``parameter_type``, a Parameter as it is) as default ``name``."""
        value_t = None if value is None else cast_to_tensor(value, self.parameter_type)
        self.default_parameters.append(value_t)
        self.parameter_names.append(name)
        if value_t is not None:
            # Registered on the Cell, so that a Parameter is part of the network's state (ms.grad).
            setattr(self, f"_dist_param_{name}", value_t)
        return value_t

    def _default(self, name: str) -> Any:
        value = self.__dict__.get(f"_dist_param_{name}")
        if value is None:
            value = self.__dict__.get("_params", {}).get(f"_dist_param_{name}")
        return value

    def _check_param_type(self, *args: Any) -> Any:
        """The distribution's parameters as arrays of ``parameter_type``, broadcast together.

        An argument given overrides the default; one given as None takes the default, and
        raises when there is none.
        """
        out = []
        for arg, name in zip(args, self.parameter_names):
            if arg is not None:
                check_tensor(arg, name)
            else:
                arg = self._default(name)
                if arg is None:
                    raise_none_error(name)
            out.append(as_array(arg).astype(mstype.to_jax_dtype(self.parameter_type)))
        if len(out) == 1:
            return out[0]
        shape = jnp.broadcast_shapes(*(o.shape for o in out))
        return tuple(jnp.broadcast_to(o, shape) for o in out)

    def _check_value(self, value: Any, name: str) -> jax.Array:
        check_tensor(value, name)
        return as_array(value)

    def _value_as(self, value: Any, dtype: Any) -> jax.Array:
        return self._check_value(value, "value").astype(mstype.to_jax_dtype(dtype))

    def _dist_args(self, *pairs: tuple[str, Any]) -> tuple:
        out = []
        for name, given in pairs:
            if given is not None:
                check_tensor(given, name)
                out.append(given)
            else:
                out.append(self._default(name))
        return tuple(out)

    def _check_is_scalar_batch(self) -> bool:
        for value in self._dist_parameters.get("param_dict", {}).values():
            if value is not None and not isinstance(value, (int, float)):
                return False
        return True

    def _calc_batch_shape(self) -> tuple | None:
        shapes = []
        for value in self._dist_parameters.get("param_dict", {}).values():
            if value is None:
                return None
            shapes.append(tuple(cast_to_tensor(value).shape))
        return tuple(np.broadcast_shapes(*shapes)) if shapes else None

    def _finish_sample(self, draw: jax.Array, origin_shape: tuple) -> jax.Array:
        return draw.astype(mstype.to_jax_dtype(self.dtype)).reshape(origin_shape)

    # --- derived implementations, as MindSpore derives them -----------------------------------
    def _impl(self, method: str) -> Callable[..., Any]:
        has = lambda n: _has(self, n)  # noqa: E731
        exp, log = jnp.exp, jnp.log
        if method == "prob":
            if has("_prob"):
                return self._prob
            if has("_log_prob"):
                return lambda *a, **k: exp(self._log_prob(*a, **k))
        elif method == "log_prob":
            if has("_log_prob"):
                return self._log_prob
            if has("_prob"):
                return lambda *a, **k: log(self._prob(*a, **k))
        elif method == "cdf":
            if has("_cdf"):
                return self._cdf
            if has("_log_cdf"):
                return lambda *a, **k: exp(self._log_cdf(*a, **k))
            if has("_survival_function"):
                return lambda *a, **k: 1.0 - self._survival_function(*a, **k)
            if has("_log_survival"):
                return lambda *a, **k: 1.0 - exp(self._log_survival(*a, **k))
        elif method == "survival_function":
            if has("_survival_function"):
                return self._survival_function
            if has("_log_survival"):
                return lambda *a, **k: exp(self._log_survival(*a, **k))
            if has("_cdf") or has("_log_cdf"):
                return lambda *a, **k: 1.0 - self._impl("cdf")(*a, **k)
        elif method == "log_cdf":
            if has("_log_cdf"):
                return self._log_cdf
            if has("_cdf") or has("_survival_function") or has("_log_survival"):
                return lambda *a, **k: log(self._impl("cdf")(*a, **k))
        elif method == "log_survival":
            if has("_log_survival"):
                return self._log_survival
            if has("_survival_function") or has("_cdf") or has("_log_cdf"):
                return lambda *a, **k: log(self._impl("survival_function")(*a, **k))
            method = "log_cdf"  # MindSpore's message names log_cdf here
        elif method == "sd":
            if has("_sd"):
                return self._sd
            if has("_var"):
                return lambda *a, **k: jnp.sqrt(self._var(*a, **k))
        elif method == "var":
            if has("_var"):
                return self._var
            if has("_sd"):
                return lambda *a, **k: jnp.square(self._sd(*a, **k))
        elif method == "cross_entropy":
            if has("_cross_entropy"):
                return self._cross_entropy
        elif method == "get_dist_type":
            return self._get_dist_type
        else:
            return getattr(self, "_" + method)
        name = self.name
        return lambda *a, **k: raise_not_implemented_util(method, name)

    def _mean(self, *args: Any, **kwargs: Any) -> Any:
        raise_not_implemented_util("mean", self.name)

    def _mode(self, *args: Any, **kwargs: Any) -> Any:
        raise_not_implemented_util("mode", self.name)

    def _entropy(self, *args: Any, **kwargs: Any) -> Any:
        raise_not_implemented_util("entropy", self.name)

    def _kl_loss(self, *args: Any, **kwargs: Any) -> Any:
        raise_not_implemented_util("kl_loss", self.name)

    def _sample(self, *args: Any, **kwargs: Any) -> Any:
        raise_not_implemented_util("sample", self.name)

    def _get_dist_args(self, *args: Any, **kwargs: Any) -> Any:
        raise_not_implemented_util("get_dist_args", self.name)

    def _get_dist_type(self) -> str:
        raise_not_implemented_util("get_dist_type", self.name)

    def _sample_shape(self, shape: Any, batch_shape: tuple) -> tuple:
        return tuple(check_tuple(shape, "shape")) + tuple(batch_shape)

    # --- public surface -----------------------------------------------------------------------
    @tensor_op
    def log_prob(self, value: Any, *args: Any, **kwargs: Any) -> Any:
        """The log probability (pdf or pmf) at ``value``; then the optional dist_spec_args."""
        return self._impl("log_prob")(value, *args, **kwargs)

    @tensor_op
    def prob(self, value: Any, *args: Any, **kwargs: Any) -> Any:
        """The probability (pdf or pmf) at ``value``; then the optional dist_spec_args."""
        return self._impl("prob")(value, *args, **kwargs)

    @tensor_op
    def cdf(self, value: Any, *args: Any, **kwargs: Any) -> Any:
        """The cumulative distribution function at ``value``."""
        return self._impl("cdf")(value, *args, **kwargs)

    @tensor_op
    def log_cdf(self, value: Any, *args: Any, **kwargs: Any) -> Any:
        """The log of the cdf at ``value``."""
        return self._impl("log_cdf")(value, *args, **kwargs)

    @tensor_op
    def survival_function(self, value: Any, *args: Any, **kwargs: Any) -> Any:
        """1 - cdf at ``value``."""
        return self._impl("survival_function")(value, *args, **kwargs)

    @tensor_op
    def log_survival(self, value: Any, *args: Any, **kwargs: Any) -> Any:
        """The log of the survival function at ``value``."""
        return self._impl("log_survival")(value, *args, **kwargs)

    @tensor_op
    def kl_loss(self, dist: str, *args: Any, **kwargs: Any) -> Any:
        """KL(a || b), ``dist`` naming the type of b, then b's parameters, then a's optional ones."""
        return self._kl_loss(dist, *args, **kwargs)

    @tensor_op
    def mean(self, *args: Any, **kwargs: Any) -> Any:
        """The mean, for the optional dist_spec_args."""
        return self._mean(*args, **kwargs)

    @tensor_op
    def mode(self, *args: Any, **kwargs: Any) -> Any:
        """The mode, for the optional dist_spec_args."""
        return self._mode(*args, **kwargs)

    @tensor_op
    def sd(self, *args: Any, **kwargs: Any) -> Any:
        """The standard deviation, for the optional dist_spec_args."""
        return self._impl("sd")(*args, **kwargs)

    @tensor_op
    def var(self, *args: Any, **kwargs: Any) -> Any:
        """The variance, for the optional dist_spec_args."""
        return self._impl("var")(*args, **kwargs)

    @tensor_op
    def entropy(self, *args: Any, **kwargs: Any) -> Any:
        """The entropy, for the optional dist_spec_args."""
        return self._entropy(*args, **kwargs)

    @tensor_op
    def cross_entropy(self, dist: str, *args: Any, **kwargs: Any) -> Any:
        """Cross entropy with the distribution named ``dist`` and given by the next arguments."""
        return self._impl("cross_entropy")(dist, *args, **kwargs)

    @tensor_op
    def sample(self, *args: Any, **kwargs: Any) -> Any:
        """Samples of shape ``shape + batch_shape`` (``shape`` a tuple, default ())."""
        return jax.lax.stop_gradient(self._sample(*args, **kwargs))

    def get_dist_args(self, *args: Any, **kwargs: Any) -> tuple:
        """The distribution's parameters: each given one, else the default."""
        return self._get_dist_args(*args, **kwargs)

    def get_dist_type(self) -> str:
        """The type of the distribution, e.g. ``'Normal'``."""
        return self._get_dist_type()

    def construct(self, name: str, *args: Any, **kwargs: Any) -> Any:
        """Dispatch to the method called ``name`` (``'prob'``, ``'sample'`` ...)."""
        if name in _METHODS:
            if name == "get_dist_args":
                return self._get_dist_args(*args, **kwargs)
            if name == "sample":
                return jax.lax.stop_gradient(self._sample(*args, **kwargs))
            return self._impl(name)(*args, **kwargs)
        return raise_not_implemented_util(name, self.name)
