"""MindSpore's ``mindspore.ops.function.grad.grad_func``: the gradient family, from ``mindjax.transforms``.

Example:
    >>> import numpy as np
    >>> from mindjax.ops.function.grad import grad
    >>> float(grad(lambda x: (x * x).sum())(np.float32(3.0)))
    6.0
"""
from mindjax.transforms.custom_grad import custom_vjp, stop_gradient
from mindjax.transforms.grad import get_grad, grad, jacfwd, jacrev, jvp, value_and_grad, vjp, vmap

__all__ = ["grad", "value_and_grad", "get_grad", "jacfwd", "jacrev", "jvp", "vjp", "vmap", "stop_gradient"]
