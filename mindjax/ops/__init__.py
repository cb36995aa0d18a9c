"""``mindjax.ops``: functional ops, Primitive classes, and the grad family."""
from mindjax.ops.functional import *  # noqa: F401,F403
from mindjax.ops.primitives import *  # noqa: F401,F403
from mindjax.ops import functional as _functional, primitives as _primitives

__all__ = _functional.__all__ + _primitives.__all__
