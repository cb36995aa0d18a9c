"""``EarlyStopping``: stop training when a monitored value stops improving."""
from __future__ import annotations

from typing import Any

import jax.numpy as jnp
import numpy as np

from mindjax.train.callback._monitor import improvement_rule, monitor_value
from mindjax.train.callback.callback import Callback, RunContext

__all__ = ["EarlyStopping"]


class EarlyStopping(Callback):
    """Stop when ``monitor`` has not improved for ``patience`` epochs.

    Arguments:
        monitor: ``'loss'`` (training loss) or an evaluation result of
            ``Model.fit`` (``'eval_loss'``, ``'acc'`` ...).
        min_delta: the smallest change that counts as an improvement.
        patience: epochs without improvement before stopping.
        verbose: print when stopping.
        mode: ``'auto'``, ``'min'`` or ``'max'``.
        baseline: a value the monitor must beat to reset the patience.
        restore_best_weights: load the best epoch's weights when stopping.
    """

    def __init__(self, monitor: str = "eval_loss", min_delta: float = 0, patience: int = 0,
                 verbose: bool = False, mode: str = "auto", baseline: float | None = None,
                 restore_best_weights: bool = False) -> None:
        super().__init__()
        if not isinstance(monitor, str):
            raise TypeError(f"For 'EarlyStopping', 'monitor' must be a str, got {monitor!r}")
        if not isinstance(patience, int) or isinstance(patience, bool) or patience < 0:
            raise ValueError(f"For 'EarlyStopping', 'patience' must be a non-negative int, got {patience!r}")
        self.monitor = monitor
        self.min_delta = abs(min_delta)
        self.patience = patience
        self.verbose = verbose
        self.mode = mode
        self.baseline = baseline
        self.restore_best_weights = restore_best_weights
        self.is_improvement, self.best = improvement_rule("EarlyStopping", monitor, mode, self.min_delta)
        self.wait = 0
        self.stopped_epoch = 0
        self.best_weights: dict[str, Any] | None = None

    def on_train_begin(self, run_context: RunContext) -> None:
        """Reset the state."""
        self.wait = 0
        self.stopped_epoch = 0
        _, self.best = improvement_rule("EarlyStopping", self.monitor, self.mode, self.min_delta)
        self.best_weights = None

    @staticmethod
    def _snapshot(network: Any) -> dict[str, Any]:
        return {p.name: np.array(p._value) for p in network.get_parameters()}

    def on_train_epoch_end(self, run_context: RunContext) -> None:
        """Compare the monitored value with the best so far."""
        cb_params = run_context.original_args()
        current = monitor_value("EarlyStopping", self.monitor, cb_params)
        if current is None:
            return
        # As in MindSpore, the network is needed (and read) only to restore the best weights.
        network = cb_params.train_network if self.restore_best_weights else None
        if self.restore_best_weights and self.best_weights is None:
            self.best_weights = self._snapshot(network)
        self.wait += 1
        if self.is_improvement(current, self.best):
            self.best = current
            if self.restore_best_weights:
                self.best_weights = self._snapshot(network)
            if self.baseline is None or self.is_improvement(current, self.baseline):
                self.wait = 0
        if self.wait >= self.patience:
            self.stopped_epoch = cb_params.get("cur_epoch_num")
            run_context.request_stop()
            if self.restore_best_weights and self.best_weights is not None:
                if self.verbose:
                    print("Restoring model weights from the end of the best epoch.")
                for p in network.get_parameters():
                    if p.name in self.best_weights:
                        p.set_data(jnp.asarray(self.best_weights[p.name]))

    def on_train_end(self, run_context: RunContext) -> None:
        """Report the stop."""
        if self.stopped_epoch > 0 and self.verbose:
            print(f"Epoch {self.stopped_epoch:05d}: early stopping")
