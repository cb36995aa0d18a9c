"""``mindspore.boost``: training accelerations. Here: ``GradientAccumulation`` (``boost.grad_accumulation``)."""
from mindjax.boost import grad_accumulation
from mindjax.boost.grad_accumulation import GradientAccumulation

__all__ = ["GradientAccumulation"]
