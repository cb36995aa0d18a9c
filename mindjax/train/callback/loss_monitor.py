"""``LossMonitor``: print the loss every few steps; stop on NaN or Inf."""
from __future__ import annotations

import math

from mindjax.train.callback.callback import Callback, RunContext, _loss_value

__all__ = ["LossMonitor"]


class LossMonitor(Callback):
    """Print ``epoch: E step: S, loss is L`` every ``per_print_times`` steps.

    Arguments:
        per_print_times: print every this many steps; 0 never prints.

    Raises (during training):
        ValueError: the loss is NaN or Inf; the message names the epoch and step.
    """

    def __init__(self, per_print_times: int = 1) -> None:
        super().__init__()
        if not isinstance(per_print_times, int) or isinstance(per_print_times, bool) or per_print_times < 0:
            raise ValueError(f"For 'LossMonitor', 'per_print_times' must be a non-negative int, "
                             f"got {per_print_times!r}")
        self._per_print_times = per_print_times
        self._last_print_time = 0

    def step_end(self, run_context: RunContext) -> None:
        """Check the loss and print it when due."""
        cb_params = run_context.original_args()
        cur_epoch_num = cb_params.get("cur_epoch_num", 1)
        loss = _loss_value(cb_params.net_outputs)
        cur_step_in_epoch = (cb_params.cur_step_num - 1) % cb_params.batch_num + 1
        if isinstance(loss, float) and (math.isnan(loss) or math.isinf(loss)):
            raise ValueError(f"In epoch: {cur_epoch_num} step: {cur_step_in_epoch}, loss is NAN or INF, "
                             f"training process cannot continue, terminating training.")
        if self._per_print_times != 0 and cb_params.cur_step_num <= self._last_print_time:
            while cb_params.cur_step_num <= self._last_print_time:
                self._last_print_time -= max(self._per_print_times,
                                             cb_params.batch_num if cb_params.dataset_sink_mode else 1)
        if self._per_print_times != 0 and cb_params.cur_step_num - self._last_print_time >= self._per_print_times:
            self._last_print_time = cb_params.cur_step_num
            print(f"epoch: {cur_epoch_num} step: {cur_step_in_epoch}, loss is {loss}", flush=True)

    def on_train_epoch_end(self, run_context: RunContext) -> None:
        """Print the evaluation metrics of ``Model.fit``."""
        cb_params = run_context.original_args()
        metrics = cb_params.get("metrics")
        if metrics:
            print(f"Eval result: epoch {cb_params.cur_epoch_num}, metrics: {metrics}")
