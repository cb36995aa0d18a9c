"""``LearningRateScheduler``: set the learning rate from a function of the step."""
from __future__ import annotations

import math
from typing import Callable

import jax.numpy as jnp
import numpy as np

from mindjax.train.callback.callback import Callback, RunContext

__all__ = ["LearningRateScheduler"]


class LearningRateScheduler(Callback):
    """After each step, ``lr = learning_rate_function(lr, cur_step_num)``.

    Arguments:
        learning_rate_function: ``f(current_lr, step) -> new_lr``.

    The optimizer's ``learning_rate`` must be a Parameter (a fixed learning
    rate); it is part of the compiled step's state, so the change takes effect
    without recompiling.
    """

    def __init__(self, learning_rate_function: Callable[[float, int], float]) -> None:
        super().__init__()
        if not callable(learning_rate_function):
            raise TypeError(f"For 'LearningRateScheduler', 'learning_rate_function' must be callable, "
                            f"got {type(learning_rate_function).__name__}")
        self.learning_rate_function = learning_rate_function

    def step_end(self, run_context: RunContext) -> None:
        """Apply the schedule."""
        cb_params = run_context.original_args()
        lr_param = cb_params.optimizer.learning_rate
        lr = float(np.asarray(lr_param).reshape(-1)[0])
        new_lr = self.learning_rate_function(lr, cb_params.cur_step_num)
        if not math.isclose(lr, new_lr, rel_tol=1e-10):
            lr_param.set_data(jnp.full(np.shape(np.asarray(lr_param)), new_lr, jnp.float32))
