"""``ProximalAdagrad`` (MindSpore's ``ApplyProximalAdagrad``): Adagrad steps with an L1/L2 proximal map.

``accum += g**2``, ``v = param - lr * g / sqrt(accum)`` and
``param = sign(v) * max(|v| - lr * l1, 0) / (1 + lr * l2)``. optax has no proximal Adagrad, so it is
written here in ``jax.numpy``; the state Parameters are ``accum.<param>``.
"""
from __future__ import annotations

from typing import Any

import jax
import jax.numpy as jnp

from mindjax.cells.optim._checks import check_bool, check_float
from mindjax.cells.optim.optimizer import Optimizer
from mindjax.common.step_guard import guarded

__all__ = ["ProximalAdagrad"]


class ProximalAdagrad(Optimizer):
    """ProximalAdagrad with MindSpore's arguments (note: ``accum`` comes before ``learning_rate``).

    Arguments:
        params: Parameters or parameter groups (see :class:`Optimizer`).
        accum: the accumulator's initial value, a float >= 0. Default 0.1.
        learning_rate: fixed, per-step list, or schedule. Default 0.001.
        l1, l2: floats >= 0, the regularisation strengths. Default 0.0.
        use_locking: accepted for MindSpore's signature.
        loss_scale: gradients are divided by it.
        weight_decay: float >= 0 or a schedule Cell.

    Raises:
        TypeError: arguments of the wrong type. ValueError: negative values.
    """

    _target_setting = "any"

    def __init__(self, params: Any, accum: float = 0.1, learning_rate: Any = 0.001, l1: float = 0.0, l2: float = 0.0,
                 use_locking: bool = False, loss_scale: float = 1.0, weight_decay: Any = 0.0) -> None:
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        where = self._where()
        accum = check_float(accum, "accum", where)
        self.l1 = check_float(l1, "l1", where)
        self.l2 = check_float(l2, "l2", where)
        self.use_locking = check_bool(use_locking, "use_locking", where)
        self.accum = self._clone_state("accum", accum)

    def construct(self, grads: Any) -> bool:
        grads = self._check_gradients(grads)
        grads = self.scale_grad(self.gradients_centralization(self.decay_weight(grads)))
        lrs = self._lr_per_param(self.get_lr())
        self._increase_global_step()
        for param, accum, grad, lr in zip(self.parameters, self.accum, grads, lrs):
            var = param._value
            lr = lr.astype(var.dtype)
            acc = guarded(accum._value, accum._value + grad * grad)  # see mindjax.common.step_guard
            prox = var - lr * grad * jax.lax.rsqrt(acc)
            shrunk = jnp.maximum(jnp.abs(prox) - lr * self.l1, 0)
            accum.set_data(acc)
            param.set_data((jnp.sign(prox) * shrunk / (1 + lr * self.l2)).astype(var.dtype))
        return True
