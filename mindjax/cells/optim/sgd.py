"""``SGD``: stochastic gradient descent with momentum and dampening (MindSpore's ``SGD`` op).

Per element, with ``accum`` starting at 0 and ``stat`` at 1: when
``momentum > 0``, the first step sets ``accum = grad`` (no dampening) and
later steps ``accum = momentum * accum + (1 - dampening) * grad``; the step
is ``grad + momentum * accum`` with Nesterov, else ``accum``. With
``momentum == 0`` the step is the gradient and the state is untouched.
optax has no first-step rule of this kind, so the math is written here.
"""
from __future__ import annotations

from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from mindjax.cells.optim._checks import check_bool, check_float
from mindjax.cells.optim.optimizer import Optimizer
from mindjax.cells.parameter import Parameter

__all__ = ["SGD"]


class SGD(Optimizer):
    """SGD with MindSpore's arguments, defaults and state (``accum.<param>``, ``stat.<param>``).

    Arguments:
        params: Parameters or parameter groups (see :class:`Optimizer`).
        learning_rate: fixed, per-step list, or schedule. Default 0.1.
        momentum: float >= 0.
        dampening: float >= 0.
        weight_decay: float >= 0 (a schedule is rejected, as in MindSpore).
        nesterov: Nesterov momentum; needs ``momentum > 0`` and ``dampening == 0``.
        loss_scale: gradients are divided by it.
    """

    def __init__(self, params: Any, learning_rate: Any = 0.1, momentum: float = 0.0, dampening: float = 0.0,
                 weight_decay: Any = 0.0, nesterov: bool = False, loss_scale: float = 1.0) -> None:
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        where = self._where()
        momentum = check_float(momentum, "momentum", where, ints=True)
        self.dampening = check_float(dampening, "dampening", where, ints=True)
        self.nesterov = check_bool(nesterov, "nesterov", where)
        if nesterov and (momentum <= 0.0 or self.dampening != 0.0):
            raise ValueError(f"{where}, 'nesterov' needs 'momentum' > 0 and 'dampening' == 0, got momentum "
                             f"{momentum}, dampening {self.dampening}")
        if self.dynamic_weight_decay:
            raise TypeError("For 'SGD', dynamic weight decay is currently not supported, the argument 'weight_decay' "
                            "or 'weight_decay' set in grouped 'params' must be float or int type.")
        self.momentum = Parameter(jax.device_put(np.float32(momentum)), name="momentum")  # no XLA program
        self.accum = self._clone_state("accum", "zeros")
        self.stat = self._clone_state("stat", "ones")

    def construct(self, gradients: Any) -> bool:
        grads = self._check_gradients(gradients)
        grads = self.scale_grad(self.gradients_centralization(self.decay_weight(grads)))
        lrs = self._lr_per_param(self.get_lr())
        self._increase_global_step()
        for param, accum, stat, grad, lr in zip(self.parameters, self.accum, self.stat, grads, lrs):
            dtype = param.dtype
            momentum = self.momentum._value.astype(dtype)
            use_momentum = momentum > 0
            first = stat._value > 0
            damped = accum._value * momentum + (1 - jnp.asarray(self.dampening, dtype)) * grad
            new_accum = jnp.where(first, grad, damped)
            step = grad + new_accum * momentum if self.nesterov else new_accum
            accum.set_data(jnp.where(use_momentum, new_accum, accum._value))
            stat.set_data(jnp.where(use_momentum, jnp.zeros_like(stat._value), stat._value))
            param.set_data(param._value - lr.astype(dtype) * jnp.where(use_momentum, step, grad))
        return True
