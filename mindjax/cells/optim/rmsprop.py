"""``RMSProp`` (MindSpore's ``ApplyRMSProp`` / ``ApplyCenteredRMSProp``), on optax.

``mean_square = decay * mean_square + (1 - decay) * grad**2`` (starting at 1),
``moment = momentum * moment + lr * grad / sqrt(mean_square + epsilon)`` and
``param -= moment``; centered, ``mean_grad**2`` is subtracted under the root.
The scaling is ``optax.scale_by_rms`` / ``optax.scale_by_stddev`` with
``initial_scale=1``; the momentum holds ``lr`` inside it, so that part is written here.
"""
from __future__ import annotations

from typing import Any

import optax

from mindjax.cells.optim._checks import check_bool, check_float
from mindjax.cells.optim.optimizer import Optimizer
from mindjax.common.step_guard import guarded

__all__ = ["RMSProp"]


class RMSProp(Optimizer):
    """RMSProp with MindSpore's arguments, defaults and state names.

    State: ``mean_square.<param>`` (starts at 1), ``moment.<param>`` and,
    when ``centered``, ``mean_grad.<param>``.

    Arguments:
        params: Parameters or parameter groups (see :class:`Optimizer`).
        learning_rate: fixed, per-step list, or schedule. Default 0.1.
        decay: the mean-square decay (float >= 0).
        momentum: float >= 0.
        epsilon: added under the square root (float > 0).
        use_locking: accepted for compatibility.
        centered: subtract the squared mean gradient.
        loss_scale: gradients are divided by it.
        weight_decay: float >= 0 or a schedule Cell.
    """

    def __init__(self, params: Any, learning_rate: Any = 0.1, decay: float = 0.9, momentum: float = 0.0,
                 epsilon: float = 1e-10, use_locking: bool = False, centered: bool = False,
                 loss_scale: float = 1.0, weight_decay: Any = 0.0) -> None:
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        where = self._where()
        self.decay = check_float(decay, "decay", where)
        self.momentum = check_float(momentum, "momentum", where)
        self.epsilon = check_float(epsilon, "epsilon", where, allow_zero=False)
        check_bool(use_locking, "use_locking", where)
        self.centered = check_bool(centered, "centered", where)
        if centered:
            self.mg = self._clone_state("mean_grad", "zeros")
        self.ms = self._clone_state("mean_square", "ones")
        self.moment = self._clone_state("moment", "zeros")

    def construct(self, gradients: Any) -> bool:
        grads = self._check_gradients(gradients)
        grads = self.scale_grad(self.gradients_centralization(self.decay_weight(grads)))
        lrs = self._lr_per_param(self.get_lr())
        self._increase_global_step()
        if self.centered:
            tx = optax.scale_by_stddev(decay=self.decay, eps=self.epsilon, initial_scale=1.0)
            states = [optax.ScaleByRStdDevState(mu=mg._value, nu=ms._value) for mg, ms in zip(self.mg, self.ms)]
        else:
            tx = optax.scale_by_rms(decay=self.decay, eps=self.epsilon, initial_scale=1.0)
            states = [optax.ScaleByRmsState(nu=ms._value) for ms in self.ms]
        for i, (param, mom, grad, lr, state) in enumerate(zip(self.parameters, self.moment, grads, lrs, states)):
            scaled, state = tx.update(grad, state)
            if self.centered:
                self.mg[i].set_data(state.mu)
            self.ms[i].set_data(state.nu)
            new_mom = guarded(mom._value, self.momentum * mom._value + lr.astype(scaled.dtype) * scaled)
            mom.set_data(new_mom)
            param.set_data(param._value - new_mom)
        return True
