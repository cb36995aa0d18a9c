"""``Adadelta`` (MindSpore's ``ApplyAdadelta``), on ``optax.scale_by_adadelta``.

``accum = rho * accum + (1 - rho) * g**2``, ``update = sqrt(accum_update + eps) / sqrt(accum + eps) * g``,
``accum_update = rho * accum_update + (1 - rho) * update**2`` and ``param -= lr * update``: optax's
transformation with its two moments kept as the state Parameters ``accum.<param>`` and
``accum_update.<param>``.
"""
from __future__ import annotations

from typing import Any

import optax

from mindjax.cells.optim._checks import check_float
from mindjax.cells.optim.optimizer import Optimizer

__all__ = ["Adadelta"]


class Adadelta(Optimizer):
    """Adadelta with MindSpore's arguments.

    Arguments:
        params: Parameters or parameter groups (see :class:`Optimizer`).
        learning_rate: fixed, per-step list, or schedule. Default 1.0.
        rho: the decay of the running averages, a float in ``[0, 1]``. Default 0.9.
        epsilon: a float >= 0 added inside the square roots. Default 1e-6.
        loss_scale: gradients are divided by it.
        weight_decay: float >= 0 or a schedule Cell.

    Raises:
        TypeError: ``rho``/``epsilon`` not floats. ValueError: out of range.
    """

    def __init__(self, params: Any, learning_rate: Any = 1.0, rho: float = 0.9, epsilon: float = 1e-6,
                 loss_scale: float = 1.0, weight_decay: Any = 0.0) -> None:
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        where = self._where()
        rho = check_float(rho, "rho", where)
        if rho > 1.0:
            raise ValueError(f"{where}, 'rho' must be in range [0.0, 1.0], got {rho}")
        self.rho = rho
        self.epsilon = check_float(epsilon, "epsilon", where)
        self.accum = self._clone_state("accum", "zeros")
        self.accum_update = self._clone_state("accum_update", "zeros")

    def construct(self, grads: Any) -> bool:
        grads = self._check_gradients(grads)
        grads = self.scale_grad(self.gradients_centralization(self.decay_weight(grads)))
        lrs = self._lr_per_param(self.get_lr())
        self._increase_global_step()
        tx = optax.scale_by_adadelta(rho=self.rho, eps=self.epsilon)
        for param, accum, accum_update, grad, lr in zip(self.parameters, self.accum, self.accum_update, grads, lrs):
            state = optax.ScaleByAdaDeltaState(e_g=accum._value, e_x=accum_update._value)
            update, state = tx.update(grad, state)
            accum.set_data(state.e_g)
            accum_update.set_data(state.e_x)
            param.set_data(param._value - lr.astype(update.dtype) * update)
        return True
