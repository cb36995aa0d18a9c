"""``OptTFTWrapper`` (MindSpore's ``nn.optim.tft_wrapper``): MindIO training fault tolerance on Ascend.

It reports the optimizer's progress to Ascend's MindIO TFT service; constructing it
raises NotImplementedError naming MindJAX's fault-tolerance path.
"""
from __future__ import annotations

from typing import Any

from mindjax.cells.optim.optimizer import Optimizer

__all__ = ["OptTFTWrapper"]


class OptTFTWrapper(Optimizer):
    """MindSpore's MindIO TFT optimizer wrapper (Ascend only).

    Arguments:
        opt: the wrapped optimizer.
        kwargs: MindSpore's TFT options.

    Raises:
        NotImplementedError: always; the message names the alternative.
    """

    def __init__(self, opt: Any, **kwargs: Any) -> None:
        raise NotImplementedError(
            "For 'OptTFTWrapper', MindIO training fault tolerance (TFT) runs only on Ascend: use the optimizer "
            "directly, with the train.BackupAndRestore callback (it resumes at the saved step, with optimizer "
            "state) or train.ModelCheckpoint for recovery.")
