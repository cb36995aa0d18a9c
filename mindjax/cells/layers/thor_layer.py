"""The THOR layers (MindSpore's ``nn.layer.thor_layer``): ``DenseThor``, ``Conv2dThor``, ``EmbeddingThor``,
``EmbeddingLookupThor``.

They collect the second-order statistics of MindSpore's THOR optimizer (``nn.thor``),
whose kernels run only on Ascend and GPU; constructing one raises NotImplementedError
naming the first-order layer to use instead.
"""
from __future__ import annotations

from typing import Any

from mindjax.cells.cell import Cell
from mindjax.common import dtype as mstype

__all__ = ["DenseThor", "Conv2dThor", "EmbeddingThor", "EmbeddingLookupThor"]


def _unavailable(cls: str, alternative: str) -> NotImplementedError:
    return NotImplementedError(
        f"For '{cls}', THOR's second-order layers need MindSpore's Ascend/GPU THOR kernels and are not "
        f"available in MindJAX: use nn.{alternative} with a first-order optimizer (nn.Momentum, nn.Adam ...).")


class DenseThor(Cell):
    """MindSpore's THOR Dense layer (Ascend/GPU only); use :class:`~mindjax.nn.Dense`.

    Raises:
        NotImplementedError: always.
    """

    def __init__(self, in_channels: int, out_channels: int, weight_init: Any = "normal", bias_init: Any = "zeros",
                 has_bias: bool = True, activation: Any = None) -> None:
        raise _unavailable("DenseThor", "Dense")


class Conv2dThor(Cell):
    """MindSpore's THOR Conv2d layer (Ascend/GPU only); use :class:`~mindjax.nn.Conv2d`.

    Raises:
        NotImplementedError: always.
    """

    def __init__(self, in_channels: int, out_channels: int, kernel_size: Any, stride: Any = 1,
                 pad_mode: str = "same", padding: Any = 0, dilation: Any = 1, group: int = 1,
                 has_bias: bool = False, weight_init: Any = "normal", bias_init: Any = "zeros") -> None:
        raise _unavailable("Conv2dThor", "Conv2d")


class EmbeddingThor(Cell):
    """MindSpore's THOR Embedding layer (Ascend/GPU only); use :class:`~mindjax.nn.Embedding`.

    Raises:
        NotImplementedError: always.
    """

    def __init__(self, vocab_size: int, embedding_size: int, use_one_hot: bool = False,
                 embedding_table: Any = "normal", dtype: Any = mstype.float32, padding_idx: int | None = None) -> None:
        raise _unavailable("EmbeddingThor", "Embedding")


class EmbeddingLookupThor(Cell):
    """MindSpore's THOR EmbeddingLookup layer (Ascend/GPU only); use :class:`~mindjax.nn.EmbeddingLookup`.

    Raises:
        NotImplementedError: always.
    """

    def __init__(self, vocab_size: int, embedding_size: int, param_init: Any = "normal", target: str = "CPU",
                 slice_mode: str = "batch_slice", manual_shapes: Any = None, max_norm: float | None = None,
                 sparse: bool = True) -> None:
        raise _unavailable("EmbeddingLookupThor", "EmbeddingLookup")
