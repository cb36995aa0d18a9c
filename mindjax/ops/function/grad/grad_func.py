"""MindSpore's ``mindspore.ops.function.grad.grad_func``: the gradient family, from ``mindjax.transforms``.

Example:
    >>> import numpy as np
    >>> from mindjax.ops.function.grad import grad
    >>> float(grad(lambda x: (x * x).sum())(np.float32(3.0)))
    6.0
"""
import jax

from mindjax.common.tensor import Tensor
from mindjax.transforms.custom_grad import custom_vjp, stop_gradient
from mindjax.transforms.grad import (derivative, get_grad, grad, jacfwd, jacrev, jet, jvp, linearize, value_and_grad,
                                     vjp, vmap)

__all__ = ["grad", "value_and_grad", "get_grad", "jacfwd", "jacrev", "jvp", "vjp", "vmap", "stop_gradient",
           "stop_gradient_", "jet", "derivative", "linearize"]


def stop_gradient_(input: Tensor) -> None:  # noqa: A002
    """Cut ``input`` from differentiation in place: later uses of it (and it, returned) carry no gradient.

    Raises:
        TypeError: ``input`` is not a Tensor.
    """
    if not isinstance(input, Tensor):
        raise TypeError(f"For 'stop_gradient_', 'input' must be a Tensor, but got {type(input).__name__}")
    input._write(jax.lax.stop_gradient(input._value))
