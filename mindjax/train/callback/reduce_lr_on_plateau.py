"""``ReduceLROnPlateau``: lower the learning rate when a monitored value stalls."""
from __future__ import annotations

import jax.numpy as jnp
import numpy as np

from mindjax.cells.parameter import Parameter
from mindjax.train.callback._monitor import improvement_rule, monitor_value
from mindjax.train.callback.callback import Callback, RunContext

__all__ = ["ReduceLROnPlateau"]


class ReduceLROnPlateau(Callback):
    """Multiply the learning rate by ``factor`` after ``patience`` epochs without improvement.

    Arguments:
        monitor: ``'loss'`` or an evaluation result of ``Model.fit``.
        factor: the multiplier, in (0, 1).
        patience: epochs without improvement before reducing.
        verbose: print each reduction.
        mode: ``'auto'``, ``'min'`` or ``'max'``.
        min_delta: the smallest change that counts as an improvement.
        cooldown: epochs to wait after a reduction.
        min_lr: the lower bound of the learning rate.
    """

    def __init__(self, monitor: str = "eval_loss", factor: float = 0.1, patience: int = 10,
                 verbose: bool = False, mode: str = "auto", min_delta: float = 1e-4, cooldown: int = 0,
                 min_lr: float = 0) -> None:
        super().__init__()
        if not 0.0 < factor < 1.0:
            raise ValueError(f"For 'ReduceLROnPlateau', 'factor' must be in (0, 1), got {factor!r}")
        if not isinstance(patience, int) or patience < 0:
            raise ValueError(f"For 'ReduceLROnPlateau', 'patience' must be a non-negative int, got {patience!r}")
        if not isinstance(cooldown, int) or cooldown < 0:
            raise ValueError(f"For 'ReduceLROnPlateau', 'cooldown' must be a non-negative int, got {cooldown!r}")
        self.monitor = monitor
        self.factor = factor
        self.patience = patience
        self.verbose = verbose
        self.mode = mode
        self.min_delta = abs(min_delta)
        self.cooldown = cooldown
        self.min_lr = min_lr
        self.is_improvement, self.best = improvement_rule("ReduceLROnPlateau", monitor, mode, self.min_delta)
        self.cooldown_counter = 0
        self.wait = 0

    def on_train_begin(self, run_context: RunContext) -> None:
        """Reset the state."""
        self.cooldown_counter = 0
        self.wait = 0
        _, self.best = improvement_rule("ReduceLROnPlateau", self.monitor, self.mode, self.min_delta)

    def on_train_epoch_end(self, run_context: RunContext) -> None:
        """Reduce the learning rate when due."""
        cb_params = run_context.original_args()
        lr = getattr(cb_params.optimizer, "learning_rate", None)
        if not isinstance(lr, Parameter):
            raise ValueError("For 'ReduceLROnPlateau', the optimizer's learning rate must be a fixed number "
                             "(a Parameter); dynamic and group learning rates are not supported")
        current = monitor_value("ReduceLROnPlateau", self.monitor, cb_params)
        if current is None:
            return
        if self.cooldown_counter > 0:
            self.cooldown_counter -= 1
            self.wait = 0
        if self.is_improvement(current, self.best):
            self.best = current
            self.wait = 0
        elif self.cooldown_counter <= 0:
            self.wait += 1
            if self.wait >= self.patience:
                # In the learning rate's own dtype, as MindSpore's Tensor arithmetic: the
                # verbose line then prints 0.1, not 0.10000000149011612.
                cur = np.asarray(lr).reshape(-1)[0]
                if cur > self.min_lr:
                    new_lr = max(cur * cur.dtype.type(self.factor), self.min_lr)
                    lr.set_data(jnp.full(lr.shape, new_lr, lr.dtype))
                    if self.verbose:
                        print(f"Epoch {cb_params.cur_epoch_num:05d}: ReduceLROnPlateau reducing learning "
                              f"rate to {new_lr!s}.")
                self.cooldown_counter = self.cooldown
                self.wait = 0
