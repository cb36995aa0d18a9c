"""Exp bijector (MindSpore's ``mindspore.nn.probability.bijector.Exp``): y = exp(x)."""
from __future__ import annotations

from mindjax.nn.probability.bijector.power_transform import PowerTransform

__all__ = ["Exp"]


class Exp(PowerTransform):
    """Exp(name='Exp'): the PowerTransform of power 0, y = exp(x).

    Arguments:
        name (str): Default: 'Exp'.
    """

    def __init__(self, name: str = "Exp") -> None:
        super().__init__(name=name)
