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


class _Summary(Primitive):
    """Record ``value`` under ``name`` for the next ``SummaryRecord.record(step)``; works in compiled code."""

    _channel = ""

    def __init__(self) -> None:
        super().__init__()
        self.add_prim_attr("side_effect_io", True)
        self.add_prim_attr("channel_name", self._channel)

    def __call__(self, name: str, value: Any) -> None:
        from mindjax.ops.function.debug_func import cache_summary

        cache_summary(self.name, name, value)


class ScalarSummary(_Summary):
    """Put a one-element Tensor into the summary file. Call: ``ScalarSummary()(name, value)``."""

    _channel = "ms_scalar_summary"


class ImageSummary(_Summary):
    """Put an ``(N, C, H, W)`` image Tensor into the summary file. Call: ``ImageSummary()(name, value)``."""

    _channel = "ms_image_summary"


class TensorSummary(_Summary):
    """Put a Tensor (rank >= 1) into the summary file. Call: ``TensorSummary()(name, value)``."""

    _channel = "ms_tensor_summary"


class HistogramSummary(_Summary):
    """Put a Tensor's histogram into the summary file. Call: ``HistogramSummary()(name, value)``."""

    _channel = "ms_histogram_summary"
