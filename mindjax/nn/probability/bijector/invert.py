"""Invert bijector (MindSpore's ``mindspore.nn.probability.bijector.Invert``): the inverse of a bijector."""
from __future__ import annotations

from typing import Any

from mindjax.common.tensor import tensor_op
from mindjax.nn.probability.bijector.bijector import Bijector
from mindjax.nn.probability.distribution._utils import check_type

__all__ = ["Invert"]


class Invert(Bijector):
    """Invert(bijector, name=''): forward is ``bijector``'s inverse and the other way round.

    Arguments:
        bijector (Bijector): the bijector to invert.
        name (str): Default: '' (then 'Invert' + bijector.name).
    """

    def __init__(self, bijector: Bijector, name: str = "") -> None:
        param = dict(locals())
        check_type("bijector", bijector, (Bijector,), "Invert")
        name = name or "Invert" + bijector.name
        param["name"] = name
        super().__init__(is_constant_jacobian=bijector.is_constant_jacobian, is_injective=bijector.is_injective,
                         name=name, dtype=bijector.dtype, param=param)
        self._bijector = bijector
        self._batch_shape = bijector.batch_shape
        self._is_scalar_batch = bijector.is_scalar_batch

    @property
    def bijector(self) -> Bijector:
        """The inverted bijector."""
        return self._bijector

    @tensor_op
    def forward(self, x: Any) -> Any:
        """The inverted bijector's inverse."""
        return self._bijector.inverse(x)

    @tensor_op
    def inverse(self, y: Any) -> Any:
        """The inverted bijector's forward."""
        return self._bijector.forward(y)

    @tensor_op
    def forward_log_jacobian(self, x: Any) -> Any:
        """The inverted bijector's inverse_log_jacobian."""
        return self._bijector.inverse_log_jacobian(x)

    @tensor_op
    def inverse_log_jacobian(self, y: Any) -> Any:
        """The inverted bijector's forward_log_jacobian."""
        return self._bijector.forward_log_jacobian(y)
