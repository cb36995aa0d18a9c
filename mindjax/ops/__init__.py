"""``mindjax.ops``: functional ops, Primitive classes, and the grad family.

The submodules ``operations`` (Primitives), ``composite`` (HyperMap, MultitypeFuncGraph ...)
and ``functional`` answer MindSpore's ``from mindspore.ops import operations as P``,
``composite as C`` and ``functional as F`` (``F`` holds the ops of ``functional.py``;
the newer ones are in ``ops`` itself).
"""
from mindjax.ops.functional import *  # noqa: F401,F403
from mindjax.ops.primitives import *  # noqa: F401,F403
from mindjax.ops.primitives_extra import *  # noqa: F401,F403
from mindjax.ops.functional_math import *  # noqa: F401,F403
from mindjax.ops.functional_array import *  # noqa: F401,F403
from mindjax.ops.functional_random_nn import *  # noqa: F401,F403
from mindjax.ops.functional_scalar import *  # noqa: F401,F403
from mindjax.ops.composite import HyperMap, Map, MultitypeFuncGraph, Partial, hyper_add, tail, zip_operation
from mindjax.ops import primitive
from mindjax.ops.primitive import (PrimitiveWithCheck, PrimitiveWithInfer, constexpr, prim_arg_register,
                                   prim_attr_register)
# MindSpore's ops.function/ops.operations layout: the newer ops and Primitives live there.
from mindjax.ops.function import *  # noqa: F401,F403
from mindjax.ops.operations import *  # noqa: F401,F403
from mindjax.ops import function, operations
from mindjax.ops.function import NEW_OPS as _NEW_OPS
from mindjax.ops.operations import NEW_PRIMITIVES as _NEW_PRIMITIVES, ReduceOp
from mindjax.ops import functional as _functional, primitives as _primitives
from mindjax.ops import (functional_array as _functional_array, functional_math as _functional_math,
                         functional_random_nn as _functional_random_nn, functional_scalar as _functional_scalar,
                         primitives_extra as _primitives_extra)
from mindjax.transforms.custom_grad import HookBackward, InsertGradientOf, stop_gradient
from mindjax.transforms.grad import (GradOperation, derivative, get_grad, grad, jacfwd, jacrev, jet, jvp,
                                     linearize, value_and_grad, vjp, vmap)

__all__ = sorted(set(_functional.__all__ + _primitives.__all__ + _primitives_extra.__all__ + _functional_math.__all__
                     + _functional_array.__all__ + _functional_random_nn.__all__ + _functional_scalar.__all__ + [
    "HyperMap", "Map", "MultitypeFuncGraph", "Partial", "HookBackward", "InsertGradientOf", "stop_gradient",
    "GradOperation", "get_grad", "grad", "jacfwd", "jacrev", "jvp", "value_and_grad", "vjp", "vmap",
    "jet", "derivative", "linearize",
    "PrimitiveWithCheck", "PrimitiveWithInfer", "constexpr", "prim_arg_register", "prim_attr_register",
    "ReduceOp", "tensor_range", "tail", "zip_operation", "hyper_add"] + _NEW_OPS + _NEW_PRIMITIVES))

#: MindSpore's ``F.tensor_range``: an instance of the ``Range`` Primitive, ``tensor_range(start, end, step)``.
tensor_range = Range()

# MindSpore's ``ops.functional`` (F) holds the grad family and stop_gradient too. They are
# implemented in transforms, above ops, so this facade adds them to F once both are loaded.
for _name, _obj in (("grad", grad), ("value_and_grad", value_and_grad), ("vjp", vjp), ("jvp", jvp),
                    ("jacfwd", jacfwd), ("jacrev", jacrev), ("vmap", vmap), ("get_grad", get_grad),
                    ("stop_gradient", stop_gradient), ("tensor_range", tensor_range), ("jet", jet),
                    ("derivative", derivative), ("linearize", linearize)):
    if not hasattr(_functional, _name):
        setattr(_functional, _name, _obj)
# MindSpore's ``ops.operations`` (P) holds the backward-hook Primitives, implemented in transforms too.
for _name, _obj in (("HookBackward", HookBackward), ("InsertGradientOf", InsertGradientOf)):
    if not hasattr(operations, _name):
        setattr(operations, _name, _obj)
del _name, _obj
