"""``Lamb``: layer-wise adaptive moments (MindSpore's ``Lamb``), on optax.

Per parameter: bias-corrected Adam direction ``m_hat / (sqrt(v_hat) + eps)``
plus ``weight_decay * param``, scaled by the trust ratio
``||param|| / ||direction||`` (1 when either norm is 0), times ``lr``. That is
``optax.scale_by_adam`` -> ``optax.add_decayed_weights`` ->
``optax.scale_by_trust_ratio`` exactly; optax's step count is MindSpore's
``global_step`` and its moments are the ``lamb_m.<param>``/``lamb_v.<param>``
Parameters. MindSpore 2.10 runs Lamb only on Ascend and GPU; this one runs everywhere.
"""
from __future__ import annotations

from typing import Any

import jax.numpy as jnp
import optax

from mindjax.cells.optim.adam import _check_adam_args
from mindjax.cells.optim.optimizer import Optimizer

__all__ = ["Lamb"]


class Lamb(Optimizer):
    """LAMB with MindSpore's arguments and state names.

    Arguments:
        params: Parameters or parameter groups (see :class:`Optimizer`).
        learning_rate: fixed, per-step list, or schedule (required).
        beta1, beta2: moment decay rates in (0, 1).
        eps: added to ``sqrt(v_hat)`` (> 0). Default 1e-6.
        weight_decay: float >= 0 or a schedule Cell; by default not applied to
            parameters with ``beta``/``gamma`` in their names.
    """

    _support_parallel_optimizer = True

    def __init__(self, params: Any, learning_rate: Any, beta1: float = 0.9, beta2: float = 0.999,
                 eps: float = 1e-6, weight_decay: Any = 0.0) -> None:
        super().__init__(learning_rate, params, weight_decay)
        _check_adam_args(beta1, beta2, eps, self._where())
        self.beta1 = beta1
        self.beta2 = beta2
        self.eps = eps
        self.params = self._parameters
        self.moments1 = self._clone_state("lamb_m", "zeros")
        self.moments2 = self._clone_state("lamb_v", "zeros")

    def construct(self, gradients: Any) -> bool:
        grads = self._check_gradients(gradients)
        decays = self._decay_per_param()
        lrs = self._lr_per_param(self.get_lr())
        count = jnp.reshape(self.global_step._value, ())
        self._increase_global_step()
        grads = self.gradients_centralization(grads)
        adam = optax.scale_by_adam(b1=self.beta1, b2=self.beta2, eps=self.eps)
        trust = optax.scale_by_trust_ratio()
        for param, m, v, grad, lr, wd in zip(self.parameters, self.moments1, self.moments2, grads, lrs, decays):
            value = param._value
            state = optax.ScaleByAdamState(count=count, mu=m._value, nu=v._value)
            direction, state = adam.update(grad, state)
            direction, _ = optax.add_decayed_weights(wd).update(direction, optax.EmptyState(), value)
            direction, _ = trust.update(direction, optax.EmptyState(), value)
            m.set_data(state.mu)
            v.set_data(state.nu)
            param.set_data(value - lr.astype(direction.dtype) * direction)
        return True
