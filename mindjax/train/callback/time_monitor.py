"""``TimeMonitor``: print the epoch time and the time per step."""
from __future__ import annotations

import time

from mindjax.train.callback.callback import Callback, RunContext

__all__ = ["TimeMonitor"]


class TimeMonitor(Callback):
    """Print ``Train epoch time: T ms, per step time: t ms`` at each epoch end.

    Arguments:
        data_size: steps per epoch, when the run does not know it.
        data_time: also report the time spent waiting for data (non-sink mode).
    """

    def __init__(self, data_size: int | None = None, data_time: bool = False) -> None:
        super().__init__()
        if data_size is not None and (not isinstance(data_size, int) or data_size <= 0):
            raise ValueError(f"For 'TimeMonitor', 'data_size' must be a positive int or None, got {data_size!r}")
        if not isinstance(data_time, bool):
            raise TypeError(f"For 'TimeMonitor', 'data_time' must be a bool, got {data_time!r}")
        self.data_size = data_size
        self.data_time = data_time
        self.epoch_time = time.time()
        self.data_time_sum = 0.0
        self.data_time_start = 0.0
        self.last_epoch_ms = 0.0

    def on_train_step_begin(self, run_context: RunContext) -> None:
        """Accumulate the time since the previous step ended (data loading)."""
        if self.data_time and not run_context.original_args().get("dataset_sink_mode"):
            self.data_time_sum += time.time() - self.data_time_start

    def on_train_step_end(self, run_context: RunContext) -> None:
        """Start the data-time clock."""
        if self.data_time and not run_context.original_args().get("dataset_sink_mode"):
            self.data_time_start = time.time()

    def epoch_begin(self, run_context: RunContext) -> None:
        """Start the epoch clock."""
        self.epoch_time = time.time()
        self.data_time_sum = 0.0
        self.data_time_start = time.time()

    def epoch_end(self, run_context: RunContext) -> None:
        """Print the epoch time."""
        epoch_ms = (time.time() - self.epoch_time) * 1000
        cb_params = run_context.original_args()
        step_size = self.data_size
        batch_num = cb_params.get("batch_num")
        if isinstance(batch_num, int) and batch_num > 0:
            step_size = batch_num
        if not step_size:
            raise ValueError("For 'TimeMonitor', the number of steps per epoch is unknown: pass 'data_size'")
        self.last_epoch_ms = epoch_ms
        mode = cb_params.get("mode", "")
        log = f"{mode.title()} epoch time: {epoch_ms:5.3f} ms, per step time: {epoch_ms / step_size:5.3f} ms"
        if self.data_time and not cb_params.get("dataset_sink_mode"):
            log += f" (data time: {self.data_time_sum * 1000 / step_size:5.3f} ms)"
        print(log, flush=True)
