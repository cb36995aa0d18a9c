"""``FTRL`` (MindSpore's ``ApplyFtrl``): follow-the-regularized-leader with L1/L2 terms.

Per parameter, with ``p = -lr_power``: ``accum' = accum + g**2``,
``linear += g - (accum'**p - accum**p) / lr * param``, and ``param`` becomes
``(sign(linear) * l1 - linear) / (accum'**p / lr + 2 * l2)`` where ``|linear| > l1``, else 0.
optax has no FTRL, so the update is written here in ``jax.numpy``; its state Parameters are
``moments.<param>`` (the accumulator) and ``linear.<param>``.
"""
from __future__ import annotations

from typing import Any

import jax.numpy as jnp

from mindjax.cells.optim._checks import check_bool, check_float
from mindjax.cells.optim.optimizer import Optimizer
from mindjax.common.step_guard import guarded

__all__ = ["FTRL"]


class FTRL(Optimizer):
    """FTRL with MindSpore's arguments (note: ``initial_accum`` comes before ``learning_rate``).

    Arguments:
        params: Parameters or parameter groups (one learning rate for all: no group or dynamic lr).
        initial_accum: the accumulator's initial value, a float >= 0. Default 0.1.
        learning_rate: a positive float. Default 0.001.
        lr_power: a float <= 0 (``-0.5`` is Adagrad-like). Default -0.5.
        l1, l2: floats >= 0, the regularisation strengths. Default 0.0.
        use_locking: accepted for MindSpore's signature.
        loss_scale: gradients are divided by it.
        weight_decay: float >= 0 or a schedule Cell.

    Raises:
        TypeError: arguments of the wrong type. ValueError: out of range, or a group/dynamic learning rate.
    """

    _target_setting = "any"

    def __init__(self, params: Any, initial_accum: float = 0.1, learning_rate: float = 0.001, lr_power: float = -0.5,
                 l1: float = 0.0, l2: float = 0.0, use_locking: bool = False, loss_scale: float = 1.0,
                 weight_decay: Any = 0.0) -> None:
        super().__init__(learning_rate, params, weight_decay, loss_scale=loss_scale)
        where = self._where()
        if self.dynamic_lr or self.is_group_lr:
            raise ValueError(f"For 'FTRL', dynamic learning rate and group learning rate are currently not supported "
                             f"in FTRL, they should all be false, but got dynamic learning rate {self.dynamic_lr} and "
                             f"group learning rate {self.is_group_lr}.")
        self.initial_accum = check_float(initial_accum, "initial_accum", where)
        self.lr = check_float(learning_rate, "learning_rate", where, allow_zero=False)
        if not isinstance(lr_power, float):
            raise TypeError(f"{where}, 'lr_power' must be a float, got {type(lr_power).__name__} {lr_power!r}")
        if lr_power > 0.0:
            raise ValueError(f"{where}, 'lr_power' must be <= 0, got {lr_power}")
        self.lr_power = lr_power
        self.l1 = check_float(l1, "l1", where)
        self.l2 = check_float(l2, "l2", where)
        self.use_locking = check_bool(use_locking, "use_locking", where)
        self.moments = self._clone_state("moments", initial_accum)
        self.linear = self._clone_state("linear", "zeros")

    def construct(self, grads: Any) -> bool:
        grads = self._check_gradients(grads)
        grads = self.scale_grad(self.gradients_centralization(self.decay_weight(grads)))
        self._increase_global_step()
        power = -self.lr_power
        for param, accum, linear, grad in zip(self.parameters, self.moments, self.linear, grads):
            var, acc = param._value, accum._value
            # Through the step's guard: XLA need not copy the donated state (mindjax.common.step_guard).
            new_acc = guarded(acc, acc + grad * grad)
            lin = guarded(linear._value, linear._value + grad - (new_acc ** power - acc ** power) / self.lr * var)
            quadratic = new_acc ** power / self.lr + 2 * self.l2
            new_var = jnp.where(jnp.abs(lin) > self.l1, (jnp.sign(lin) * self.l1 - lin) / quadratic,
                                jnp.zeros_like(var))
            accum.set_data(new_acc)
            linear.set_data(lin)
            param.set_data(new_var.astype(var.dtype))
        return True
