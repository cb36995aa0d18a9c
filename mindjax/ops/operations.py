"""``mindspore.ops.operations``: the Primitive classes, as ``from mindspore.ops import operations as P`` imports them."""
from mindjax.ops.primitives import *  # noqa: F401,F403
from mindjax.ops.primitives_extra import *  # noqa: F401,F403
from mindjax.ops.composite import Partial  # noqa: F401
from mindjax.ops import primitives as _primitives, primitives_extra as _primitives_extra

__all__ = sorted(set(_primitives.__all__ + _primitives_extra.__all__ + ["Partial"]))
