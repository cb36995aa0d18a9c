"""``mindspore.experimental.optim.nadam``: ``NAdam``, Adam with Nesterov momentum and momentum decay."""
from __future__ import annotations

from typing import Any

import jax.numpy as jnp

from mindjax.cells.parameter import Parameter
from mindjax.common.tensor import as_array
from mindjax.experimental.optim.optimizer import Optimizer
from mindjax.experimental.optim.radam import _check_betas, _check_greater, _check_not_less
from mindjax.ops.functional import assign

__all__ = ["NAdam"]


class NAdam(Optimizer):
    """NAdam (MindSpore's ``experimental.optim.NAdam``): Adam with Nesterov momentum, whose momentum
    coefficient ``mu_t = beta1 * (1 - 0.5 * 0.96 ** (t * momentum_decay))`` warms up over the steps.

    Arguments:
        params: Parameters or parameter groups.
        lr: learning rate (> 0). betas: ``(beta1, beta2)`` in [0, 1). eps: added to the denominator (> 0).
        weight_decay: L2 penalty added to the gradient (>= 0). momentum_decay: the ``psi`` of ``mu_t`` (>= 0).

    Inputs:
        ``gradients``: one gradient per Parameter, in ``parameters`` order.

    Raises:
        ValueError: ``lr`` or ``eps`` not above 0, ``weight_decay`` or ``momentum_decay`` below 0,
        a beta outside [0, 1).

    Example:
        >>> from mindjax import nn
        >>> from mindjax.experimental import optim
        >>> opt = optim.NAdam(nn.Dense(2, 1).trainable_params())
        >>> opt.param_groups[0]["momentum_decay"]
        0.004
    """

    def __init__(self, params: Any, lr: float = 2e-3, betas: tuple[float, float] = (0.9, 0.999),
                 eps: float = 1e-8, weight_decay: float = 0.0, momentum_decay: float = 4e-3) -> None:
        who = type(self).__name__
        _check_greater(who, "lr", lr)
        _check_greater(who, "eps", eps)
        _check_not_less(who, "weight_decay", weight_decay)
        _check_not_less(who, "momentum_decay", momentum_decay)
        _check_betas(who, betas)
        super().__init__(params, dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay,
                                      momentum_decay=momentum_decay))
        self.exp_avg = self.parameters.clone(prefix="exp_avg", init="zeros")
        self.exp_avg_sq = self.parameters.clone(prefix="exp_avg_sq", init="zeros")
        self.mu_product = [Parameter(jnp.asarray(1.0, jnp.float32), name="mu_product_" + p.name, requires_grad=False)
                           for p in self.parameters]
        self.step_t = Parameter(jnp.asarray(0, jnp.int32), name="step_t", requires_grad=False)

    def construct(self, gradients: Any) -> Any:
        step = as_array(self.step_t) + 1
        assign(self.step_t, step)
        step = step.astype(jnp.float32)
        for group_id, group in enumerate(self.param_groups):
            beta1, beta2 = group["betas"]
            lr = as_array(group["lr"])
            wd, eps, psi = group["weight_decay"], group["eps"], group["momentum_decay"]
            bias2 = 1.0 - beta2 ** step
            mu = beta1 * (1.0 - 0.5 * 0.96 ** (step * psi))
            mu_next = beta1 * (1.0 - 0.5 * 0.96 ** ((step + 1.0) * psi))
            start = self.group_start_id[group_id]
            for i, (param, grad) in enumerate(zip(group["params"], self._group_grads(gradients, group_id))):
                k = start + i
                value = as_array(param)
                grad = grad.astype(value.dtype)
                if wd != 0.0:
                    grad = grad + wd * value
                mu_product = as_array(self.mu_product[k]) * mu
                assign(self.mu_product[k], mu_product)
                m = beta1 * as_array(self.exp_avg[k]) + (1.0 - beta1) * grad
                v = beta2 * as_array(self.exp_avg_sq[k]) + (1.0 - beta2) * grad * grad
                assign(self.exp_avg[k], m)
                assign(self.exp_avg_sq[k], v)
                denom = jnp.sqrt(v / bias2) + eps
                value = value - lr * (1.0 - mu) / (1.0 - mu_product) * grad / denom
                value = value - lr * mu_next / (1.0 - mu_product * mu_next) * m / denom
                assign(param, value.astype(as_array(param).dtype))
        return True
