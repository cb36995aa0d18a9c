"""``Momentum``: SGD with momentum (MindSpore's ``ApplyMomentum``), on ``optax.trace``.

Update, per parameter: ``moment = momentum * moment + grad`` and
``param -= lr * moment`` (``lr * (grad + momentum * moment)`` with Nesterov),
which is exactly ``optax.trace``; its state is the ``moments.<param>`` Parameters.
"""
from __future__ import annotations

from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
import optax

from mindjax.cells.optim._checks import check_bool, check_float
from mindjax.common.step_guard import guarded
from mindjax.cells.optim.optimizer import Optimizer
from mindjax.cells.parameter import Parameter

__all__ = ["Momentum"]


class Momentum(Optimizer):
    """Momentum SGD with MindSpore's arguments and state names.

    Arguments:
        params: Parameters or parameter groups (see :class:`Optimizer`).
        learning_rate: fixed, per-step list, or schedule.
        momentum: the momentum (float >= 0); kept as the ``momentum`` Parameter.
        weight_decay: float >= 0 or a schedule Cell.
        loss_scale: gradients are divided by it.
        use_nesterov: Nesterov momentum.

    Example:
        >>> opt = nn.Momentum(net.trainable_params(), learning_rate=0.1, momentum=0.9)   # doctest: +SKIP
    """

    def __init__(self, params: Any, learning_rate: Any, momentum: float, weight_decay: Any = 0.0,
                 loss_scale: float = 1.0, use_nesterov: bool = False) -> None:
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        momentum = check_float(momentum, "momentum", self._where())
        self.use_nesterov = check_bool(use_nesterov, "use_nesterov", self._where())
        self.momentum = Parameter(jax.device_put(np.float32(momentum)), name="momentum")  # no XLA program
        self.params = self._parameters
        self.moments = self._clone_state("moments", "zeros")

    def construct(self, gradients: Any) -> bool:
        grads = self._check_gradients(gradients)
        grads = self.scale_grad(self.gradients_centralization(self.decay_weight(grads)))
        lrs = self._lr_per_param(self.get_lr())
        self._increase_global_step()
        tx = optax.trace(decay=self.momentum._value, nesterov=self.use_nesterov)
        state = optax.TraceState(trace=[m._value for m in self.moments])
        updates, state = tx.update(list(grads), state)
        # The weights' updates read the guarded moments (see mindjax.common.step_guard): then XLA
        # need not copy the donated moments in Model's step.
        moments = [guarded(m._value, t) for m, t in zip(self.moments, state.trace)]
        if self.use_nesterov:
            updates = [g + self.momentum._value * t for g, t in zip(grads, moments)]
        else:
            updates = moments
        for param, moment, new_moment, update, lr in zip(self.parameters, self.moments, moments, updates, lrs):
            moment.set_data(new_moment)
            param.set_data(param._value - lr.astype(update.dtype) * update)
        return True
