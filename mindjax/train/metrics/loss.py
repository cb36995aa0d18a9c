"""``Loss``: the mean of the losses of the evaluated batches."""
from __future__ import annotations

from typing import Any

from mindjax.train.metrics.metric import Metric, rearrange_inputs

__all__ = ["Loss"]


class Loss(Metric):
    """The average over batches of each batch's (mean) loss."""

    def __init__(self) -> None:
        super().__init__()
        self.clear()

    def clear(self) -> None:
        """Reset the sum."""
        self._sum_loss = 0.0
        self._total_num = 0

    @rearrange_inputs
    def update(self, *inputs: Any) -> None:
        """Accumulate one loss (a scalar or a 1-D array)."""
        if len(inputs) != 1:
            raise ValueError(f"For 'Loss.update', it needs 1 input (loss), got {len(inputs)}")
        loss = self._convert_data(inputs[0])
        if loss.ndim == 0:
            loss = loss.reshape(1)
        if loss.ndim != 1:
            raise ValueError(f"For 'Loss.update', the loss must be a scalar or 1-D, got {loss.ndim} dimensions")
        # Kept as a numpy scalar of the loss's dtype, as MindSpore does: eval() is then an
        # np.float32 for a float32 loss, and the sum rounds the same way.
        self._sum_loss += loss.mean(-1)
        self._total_num += 1

    def eval(self) -> Any:
        """The average loss: a numpy scalar of the loss's dtype (``np.float32`` for a float32 loss)."""
        if self._total_num == 0:
            raise RuntimeError("The 'Loss' can not be calculated, because the number of samples is 0; call "
                               "update before eval")
        return self._sum_loss / self._total_num
