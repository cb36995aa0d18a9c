"""``History``: record the loss and evaluation metrics of every epoch."""
from __future__ import annotations

from typing import Any

from mindjax.train.callback.callback import Callback, RunContext, _loss_value

__all__ = ["History"]


class History(Callback):
    """After training, ``history.epoch['epoch']`` lists the epochs and
    ``history.history`` maps ``'net_output'`` and each metric to per-epoch values."""

    def __init__(self) -> None:
        super().__init__()
        self.history: dict[str, list[Any]] = {}
        self.epoch: dict[str, list[int]] | None = None

    def begin(self, run_context: RunContext) -> None:
        """Reset the epoch list."""
        self.epoch = {"epoch": []}

    def epoch_end(self, run_context: RunContext) -> None:
        """Record this epoch's loss and metrics."""
        cb_params = run_context.original_args()
        if self.epoch is None:
            self.epoch = {"epoch": []}
        self.epoch["epoch"].append(cb_params.get("cur_epoch_num", 1))
        current = {"net_output": _loss_value(cb_params.get("net_outputs"))}
        metrics = cb_params.get("metrics")
        if metrics:
            current.update(metrics)
        for key, value in current.items():
            self.history.setdefault(key, []).append(value)
