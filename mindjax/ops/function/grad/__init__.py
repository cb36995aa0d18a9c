"""MindSpore's ``mindspore.ops.function.grad``: the gradient functions (``grad``, ``vjp``, ``jvp`` ...)."""
from mindjax.ops.function.grad.grad_func import *  # noqa: F401,F403
from mindjax.ops.function.grad.grad_func import __all__  # noqa: F401
