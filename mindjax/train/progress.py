"""``ProgressBar``: a rich progress bar of training steps with loss and speed."""
from __future__ import annotations

import time
from typing import Any

from mindjax.train.callback.callback import Callback, RunContext, _loss_value

__all__ = ["ProgressBar"]


class ProgressBar(Callback):
    """Show steps done, the latest loss and steps per second during training.

    Arguments:
        update_freq: refresh (and read the loss, which waits for the device)
            every this many steps.
        console: a ``rich.console.Console`` to draw on (stderr by default).
    """

    def __init__(self, update_freq: int = 10, console: Any = None) -> None:
        super().__init__()
        if not isinstance(update_freq, int) or isinstance(update_freq, bool) or update_freq <= 0:
            raise ValueError(f"For 'ProgressBar', 'update_freq' must be a positive int, got {update_freq!r}")
        self.update_freq = update_freq
        self._console = console
        self._progress: Any = None
        self._task: Any = None
        self._last_step = 0
        self._start = 0.0
        self.last_loss: float | None = None

    def on_train_begin(self, run_context: RunContext) -> None:
        """Create the bar."""
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

        cb_params = run_context.original_args()
        total = cb_params.batch_num * cb_params.epoch_num
        self._progress = Progress(TextColumn("[bold]epoch {task.fields[epoch]}"), BarColumn(),
                                  MofNCompleteColumn(), TextColumn("loss {task.fields[loss]}"),
                                  TextColumn("{task.fields[speed]} step/s"), TimeElapsedColumn(),
                                  console=self._console, transient=False)
        self._progress.start()
        self._task = self._progress.add_task("train", total=total, epoch=1, loss="-", speed="-")
        self._last_step = cb_params.cur_step_num
        self._start = time.perf_counter()

    def on_train_step_end(self, run_context: RunContext) -> None:
        """Advance the bar."""
        cb_params = run_context.original_args()
        step = cb_params.cur_step_num
        if step - self._last_step < self.update_freq and not cb_params.dataset_sink_mode:
            return
        self._refresh(cb_params)

    def _refresh(self, cb_params: Any) -> None:
        if self._progress is None:
            return
        step = cb_params.cur_step_num
        self.last_loss = _loss_value(cb_params.get("net_outputs"))
        fields = {"completed": step, "epoch": cb_params.get("cur_epoch_num", 1),
                  "loss": f"{self.last_loss:.4f}" if isinstance(self.last_loss, float) else "-"}
        if step > self._last_step:  # the closing refresh adds no step: keep the last speed
            elapsed = max(time.perf_counter() - self._start, 1e-9)
            fields["speed"] = f"{(step - self._last_step) / elapsed:.1f}"
        self._progress.update(self._task, **fields)
        self._last_step = step
        self._start = time.perf_counter()

    def on_train_end(self, run_context: RunContext) -> None:
        """Close the bar."""
        self._refresh(run_context.original_args())
        if self._progress is not None:
            self._progress.stop()
            self._progress = None
