"""``AdaSumByGradWrapCell`` and ``AdaSumByDeltaWeightWrapCell`` (MindSpore's ``nn.optim.adasum``).

AdaSum combines the gradients (or weight deltas) of data-parallel workers by a
hierarchical, pairwise adaptive sum over HCCL/NCCL groups; MindSpore runs it only
in distributed Ascend/GPU jobs. Constructing either raises NotImplementedError
naming the data-parallel alternative.
"""
from __future__ import annotations

from typing import Any

from mindjax.cells.optim.optimizer import Optimizer

__all__ = ["AdaSumByGradWrapCell", "AdaSumByDeltaWeightWrapCell"]

_ALTERNATIVE = ("use the optimizer directly in data-parallel mode (set_auto_parallel_context("
                "parallel_mode='data_parallel'); gradients are then averaged across devices by "
                "nn.DistributedGradReducer)")


class AdaSumByGradWrapCell(Optimizer):
    """MindSpore's AdaSum on gradients around ``optimizer`` (distributed Ascend/GPU only).

    Arguments:
        optimizer: the wrapped optimizer.

    Raises:
        NotImplementedError: always; the message names the alternative.
    """

    def __init__(self, optimizer: Any) -> None:
        raise NotImplementedError(f"For '{type(self).__name__}', AdaSum needs MindSpore's distributed "
                                  f"Ascend/GPU collectives and is not available in MindJAX: {_ALTERNATIVE}.")


class AdaSumByDeltaWeightWrapCell(AdaSumByGradWrapCell):
    """MindSpore's AdaSum on weight deltas around ``optimizer`` (distributed Ascend/GPU only).

    Arguments:
        optimizer: the wrapped optimizer.

    Raises:
        NotImplementedError: always; the message names the alternative.
    """
