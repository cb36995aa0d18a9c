"""``AdaMax``: Adam with the infinity norm (MindSpore's ``nn.AdaMax`` over ``ApplyAdaMax``).

``m = beta1 * m + (1 - beta1) * g``, ``v = max(beta2 * v, |g|)`` and
``param -= lr / (1 - beta1_power) * m / (v + eps)``, where ``beta1_power``
(a ``(1,)`` float32 Parameter starting at 1) is multiplied by ``beta1``
before the update. optax's ``adamax`` adds ``eps`` inside the max and
corrects the step differently, so the math is written here.
"""
from __future__ import annotations

from typing import Any

import jax.numpy as jnp

from mindjax.cells.optim._checks import check_float, check_open_unit
from mindjax.cells.optim.optimizer import Optimizer
from mindjax.common.step_guard import guarded
from mindjax.cells.parameter import Parameter

__all__ = ["AdaMax"]


class AdaMax(Optimizer):
    """AdaMax with MindSpore's arguments, math and state names.

    State: ``beta1_power`` (shape ``(1,)``), ``moment1.<param>`` and ``moment2.<param>``.

    Arguments:
        params: Parameters or parameter groups (see :class:`Optimizer`).
        learning_rate: fixed, per-step list, or schedule. Default 0.001.
        beta1, beta2: decay rates in (0, 1). Defaults 0.9, 0.999.
        eps: added to ``v`` (float > 0). Default 1e-8.
        weight_decay: float >= 0 or a schedule Cell, added to the gradient.
        loss_scale: gradients are divided by it.

    Raises:
        TypeError: ``beta1``, ``beta2`` or ``eps`` is not a float.
        ValueError: a beta outside (0, 1) or ``eps <= 0``.
    """

    def __init__(self, params: Any, learning_rate: Any = 0.001, beta1: float = 0.9, beta2: float = 0.999,
                 eps: float = 1e-08, weight_decay: Any = 0.0, loss_scale: float = 1.0) -> None:
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        where = self._where()
        self.beta1 = check_open_unit(beta1, "beta1", where)
        self.beta2 = check_open_unit(beta2, "beta2", where)
        self.eps = check_float(eps, "eps", where, allow_zero=False)
        self.beta1_power = Parameter(jnp.ones((1,), jnp.float32), name="beta1_power")
        self.moment1 = self._clone_state("moment1", "zeros")
        self.moment2 = self._clone_state("moment2", "zeros")

    def construct(self, gradients: Any) -> bool:
        grads = self._check_gradients(gradients)
        grads = self.scale_grad(self.gradients_centralization(self.decay_weight(grads)))
        lrs = self._lr_per_param(self.get_lr())
        self._increase_global_step()
        beta1, beta2 = jnp.float32(self.beta1), jnp.float32(self.beta2)
        beta1_power = self.beta1_power._value * beta1
        self.beta1_power.set_data(beta1_power)
        power = jnp.reshape(beta1_power, ())
        for param, m, v, grad, lr in zip(self.parameters, self.moment1, self.moment2, grads, lrs):
            dtype = param.dtype
            g = grad.astype(dtype)
            # Through the step's guard: XLA need not copy the donated moments (mindjax.common.step_guard).
            new_m = guarded(m._value, beta1.astype(dtype) * m._value + (1 - beta1).astype(dtype) * g)
            new_v = guarded(v._value, jnp.maximum(beta2.astype(dtype) * v._value, jnp.abs(g)))
            scale = (jnp.reshape(lr, ()) / (1 - power)).astype(dtype)
            m.set_data(new_m)
            v.set_data(new_v)
            param.set_data(param._value - scale * new_m / (new_v + jnp.asarray(self.eps, dtype)))
        return True
