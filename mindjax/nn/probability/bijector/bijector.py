"""The base class of MindSpore's bijectors (``mindspore.nn.probability.bijector.Bijector``).

A bijector is a Cell: ``b('forward', x)`` dispatches as ``b.forward(x)`` does;
``b(distribution)`` returns the ``TransformedDistribution``.
"""
from __future__ import annotations

from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from mindjax.cells.cell import Cell
from mindjax.common import dtype as mstype
from mindjax.common.tensor import Tensor, as_array, tensor_op
from mindjax.nn.probability.distribution._utils import cast_to_tensor, check_dtype, check_tensor, check_type

__all__ = ["Bijector"]


class Bijector(Cell):
    """Bijector(is_constant_jacobian=False, is_injective=True, name=None, dtype=None, param=None).

    Arguments:
        is_constant_jacobian (bool): whether the Jacobian is constant. Default: False.
        is_injective (bool): whether the map is injective. Default: True.
        name (str): the name of the bijector. Default: None.
        dtype (mindspore.dtype): the float type it accepts (None: any float). Default: None.
        param (dict): the parameters used to initialize the bijector. Default: None.
    """

    def __init__(self, is_constant_jacobian: bool = False, is_injective: bool = True, name: str | None = None,
                 dtype: Any = None, param: dict | None = None) -> None:
        super().__init__()
        owner = type(self).__name__
        check_type("name", name, (str,), owner)
        check_type("is_constant_jacobian", is_constant_jacobian, (bool,), name)
        check_type("is_injective", is_injective, (bool,), name)
        if dtype is not None:
            check_dtype(dtype, mstype.float_type, owner)
        param = param or {}
        self._name = name
        self._dtype = dtype
        self._bij_parameters = {k: v for k, v in param.items()
                                if k != "param" and not (k == "self" or k.startswith("_"))}
        self.default_parameters: list = []
        self.parameter_names: list = []
        self.common_dtype = None
        if "bijector" not in param:
            self._batch_shape = self._calc_batch_shape()
            self._is_scalar_batch = self._check_is_scalar_batch()
        self._is_constant_jacobian = is_constant_jacobian
        self._is_injective = is_injective

    @property
    def name(self) -> str:
        """The name of the bijector."""
        return self._name

    @property
    def dtype(self) -> Any:
        """The dtype the bijector accepts (None: any float)."""
        return self._dtype

    @property
    def parameters(self) -> dict:
        """The arguments the bijector was built with."""
        return self._bij_parameters

    @property
    def is_constant_jacobian(self) -> bool:
        """Whether the Jacobian is constant."""
        return self._is_constant_jacobian

    @property
    def is_injective(self) -> bool:
        """Whether the map is injective."""
        return self._is_injective

    @property
    def batch_shape(self) -> tuple | None:
        """The broadcast shape of the parameters."""
        return self._batch_shape

    @property
    def is_scalar_batch(self) -> bool:
        """Whether every parameter was a Python number."""
        return self._is_scalar_batch

    def _add_parameter(self, value: Any, name: str) -> Tensor:
        if isinstance(value, bool) or value is None:
            raise TypeError(f"{name} cannot be type {type(value)}")
        value_t = value if isinstance(value, Tensor) else Tensor(value)
        if self.dtype is None:
            if self.common_dtype is None:
                self.common_dtype = value_t.dtype
            elif value_t.dtype != self.common_dtype:
                raise TypeError(f"{name} should have the same dtype as other arguments.")
            check_dtype(value_t.dtype, mstype.float_type, type(self).__name__, f"dtype of {name}")
        elif value_t.dtype != self.dtype:
            raise TypeError(f"{name} should have the same dtype as the bijector's dtype.")
        self.default_parameters.append(value)
        self.parameter_names.append(name)
        setattr(self, f"_bij_param_{name}", value_t)
        return value_t

    def _param(self, name: str, like: jax.Array) -> jax.Array:
        value = self.__dict__.get(f"_bij_param_{name}")
        if value is None:
            value = self.__dict__.get("_params", {}).get(f"_bij_param_{name}")
        return as_array(value).astype(like.dtype)

    def _calc_batch_shape(self) -> tuple | None:
        if "param_dict" not in self._bij_parameters:
            return None
        shapes = []
        for value in self._bij_parameters["param_dict"].values():
            if value is None:
                return None
            shapes.append(tuple(cast_to_tensor(value).shape))
        return tuple(np.broadcast_shapes(*shapes))

    def _check_is_scalar_batch(self) -> bool:
        if "param_dict" not in self._bij_parameters:
            return False
        return all(v is None or isinstance(v, (int, float)) for v in self._bij_parameters["param_dict"].values())

    def _check_value_dtype(self, value: Any) -> jax.Array:
        check_tensor(value, "input value of bijector")
        x = as_array(value)
        if self.dtype is None:
            if jnp.issubdtype(x.dtype, jnp.floating):
                return x
            raise TypeError(f"For input value of bijector , the type must be or be subclass of Float, "
                            f"but got {mstype.to_ms_dtype(x.dtype)}")
        if mstype.to_ms_dtype(x.dtype) != self.dtype:
            raise TypeError(f"For input value of bijector, the dtype must be {self.dtype}, "
                            f"but got {mstype.to_ms_dtype(x.dtype)}")
        return x

    def _check_value(self, value: Any, name: str) -> Any:
        return check_tensor(value, name)

    def shape_mapping(self, shape: tuple) -> tuple:
        """The shape ``shape`` broadcast with the bijector's batch shape."""
        return tuple(np.broadcast_shapes(tuple(shape), tuple(self.batch_shape or ())))

    def _forward(self, value: Any, *args: Any, **kwargs: Any) -> Any:
        raise NotImplementedError(f"forward is not implemented for {self.name} bijector.")

    _inverse = _forward_log_jacobian = _inverse_log_jacobian = _forward

    @tensor_op
    def forward(self, value: Any, *args: Any, **kwargs: Any) -> Any:
        """The forward mapping y = f(x)."""
        return self._forward(value, *args, **kwargs)

    @tensor_op
    def inverse(self, value: Any, *args: Any, **kwargs: Any) -> Any:
        """The inverse mapping x = f^-1(y)."""
        return self._inverse(value, *args, **kwargs)

    @tensor_op
    def forward_log_jacobian(self, value: Any, *args: Any, **kwargs: Any) -> Any:
        """log|df/dx| at x."""
        return self._forward_log_jacobian(value, *args, **kwargs)

    @tensor_op
    def inverse_log_jacobian(self, value: Any, *args: Any, **kwargs: Any) -> Any:
        """log|df^-1/dy| at y."""
        return self._inverse_log_jacobian(value, *args, **kwargs)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        from mindjax.nn.probability.distribution.distribution import Distribution
        if args and isinstance(args[0], Distribution):
            from mindjax.nn.probability.distribution.transformed_distribution import TransformedDistribution
            return TransformedDistribution(self, args[0])
        return super().__call__(*args, **kwargs)

    def construct(self, name: str, *args: Any, **kwargs: Any) -> Any:
        """Dispatch to ``forward``, ``inverse``, ``forward_log_jacobian`` or ``inverse_log_jacobian``."""
        if name in ("forward", "inverse", "forward_log_jacobian", "inverse_log_jacobian"):
            return getattr(self, name)(*args, **kwargs)
        raise Exception("Invalid name")  # MindSpore's exception type and words
