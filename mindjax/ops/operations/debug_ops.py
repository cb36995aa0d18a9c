"""MindSpore's ``mindspore.ops.operations.debug_ops``: printing and dumping Primitives.

Example:
    >>> from mindjax.ops import operations as P
    >>> type(P.Print()).__name__
    'Print'
"""
from __future__ import annotations

from typing import Any

from mindjax.ops.operations._base import Primitive, record
# Existing Primitives of this family, re-exported under MindSpore's module path.
from mindjax.ops.primitives import Print  # noqa: F401


class TensorDump(Primitive):
    """Save a tensor as a ``.npy`` file, also from compiled code. Call: ``TensorDump(input_output)(file, input_x)``."""

    def __init__(self, input_output: str = "out") -> None:
        super().__init__()
        record(self, input_output=input_output)

    def __call__(self, file: str, input_x: Any) -> None:
        from mindjax.ops.function.debug_func import tensordump

        tensordump(file, input_x, self.input_output)
