"""``mindjax.ops``: functional ops, Primitive classes, and the grad family."""
from mindjax.ops.functional import *  # noqa: F401,F403
from mindjax.ops.primitives import *  # noqa: F401,F403
from mindjax.ops import functional as _functional, primitives as _primitives
from mindjax.transforms.custom_grad import HookBackward, InsertGradientOf, stop_gradient
from mindjax.transforms.grad import (GradOperation, get_grad, grad, jacfwd, jacrev, jvp,
                                     value_and_grad, vjp, vmap)

__all__ = sorted(set(_functional.__all__ + _primitives.__all__ + [
    "HookBackward", "InsertGradientOf", "stop_gradient", "GradOperation", "get_grad", "grad",
    "jacfwd", "jacrev", "jvp", "value_and_grad", "vjp", "vmap"]))
