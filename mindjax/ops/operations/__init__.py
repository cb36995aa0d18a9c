"""``mindspore.ops.operations``: the Primitive classes, as ``from mindspore.ops import operations as P`` imports them.

Split as MindSpore splits them: ``math_ops``, ``array_ops``, ``nn_ops``, ``random_ops``,
``other_ops``, ``image_ops``, ``sparse_ops``, ``spectral_ops``, ``debug_ops``, ``comm_ops`` and ``custom_ops``. The Primitives of ``mindjax.ops.primitives*``
are re-exported by those modules and here.
"""
from mindjax.ops.primitives import *  # noqa: F401,F403
from mindjax.ops.primitives_extra import *  # noqa: F401,F403
from mindjax.ops.composite import Partial  # noqa: F401
from mindjax.ops import primitives as _primitives, primitives_extra as _primitives_extra
from mindjax.ops.operations import (array_ops, comm_ops, custom_ops, debug_ops, image_ops, math_ops,  # noqa: F401
                                    nn_ops, other_ops, random_ops, sparse_ops, spectral_ops)


def _primitive_names(module: object) -> list[str]:
    from mindjax.ops.primitives import Primitive

    return [name for name, value in vars(module).items()
            if isinstance(value, type) and issubclass(value, Primitive) and not name.startswith("_")]


#: The Primitives this package's modules define (the older ones are in ``mindjax.ops.primitives*``).
_MODULES = (array_ops, custom_ops, debug_ops, image_ops, math_ops, nn_ops, other_ops, random_ops, sparse_ops,
            spectral_ops)
NEW_PRIMITIVES = sorted({name for module in _MODULES
                         for name in _primitive_names(module)} - set(_primitives.__all__ + _primitives_extra.__all__))

for _module in _MODULES:
    globals().update({_name: getattr(_module, _name) for _name in _primitive_names(_module)
                      if _name in NEW_PRIMITIVES})
del _module
ReduceOp = comm_ops.ReduceOp
# The collective Primitives (AllReduce ...) join the exported ones.
_COMM_PRIMITIVES = [_name for _name in _primitive_names(comm_ops) if _name not in NEW_PRIMITIVES]
NEW_PRIMITIVES = sorted(NEW_PRIMITIVES + _COMM_PRIMITIVES)
globals().update({_name: getattr(comm_ops, _name) for _name in _COMM_PRIMITIVES})

__all__ = sorted(set(_primitives.__all__ + _primitives_extra.__all__ + ["Partial", "ReduceOp"] + NEW_PRIMITIVES))

# ``P.HookBackward`` and ``P.InsertGradientOf`` are the gradient tags of mindjax.transforms (a layer
# above this one); they are looked up on first use, so importing this package does not load it.
_GRADIENT_TAGS = ("HookBackward", "InsertGradientOf")


def __getattr__(name: str) -> object:
    if name in _GRADIENT_TAGS:
        from mindjax.transforms import custom_grad

        return getattr(custom_grad, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
