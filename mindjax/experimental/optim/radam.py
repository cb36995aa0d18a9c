"""``mindspore.experimental.optim.radam``: ``RAdam``, Adam with a rectified adaptive step."""
from __future__ import annotations

from typing import Any

import jax.numpy as jnp

from mindjax import _checkparam as validator
from mindjax.cells.parameter import Parameter
from mindjax.common.tensor import as_array
from mindjax.experimental.optim.optimizer import Optimizer
from mindjax.ops.functional import assign

__all__ = ["RAdam"]


def _check_greater(who: str, name: str, value: Any, bound: float = 0.0) -> None:
    if not value > bound:
        raise ValueError(f"For {who}, the {name} must be greater than {bound}, but got {value}.")


def _check_not_less(who: str, name: str, value: Any, bound: float = 0.0) -> None:
    if value < bound:
        raise ValueError(f"For {who}, the {name} must be greater than or equal to {bound}, but got {value}.")


def _check_betas(who: str, betas: Any) -> None:
    if not (isinstance(betas, (tuple, list)) and len(betas) == 2):
        raise ValueError(f"For '{who}', 'betas' must be a pair of floats, got {betas!r}")
    validator.check_float_range(betas[0], 0., 1., validator.INC_LEFT, "betas[0]", who)
    validator.check_float_range(betas[1], 0., 1., validator.INC_LEFT, "betas[1]", who)


class RAdam(Optimizer):
    """RAdam (MindSpore's ``experimental.optim.RAdam``): Adam whose adaptive step is rectified by
    ``sqrt((rho_t-4)(rho_t-2)rho_inf / ((rho_inf-4)(rho_inf-2)rho_t))`` once ``rho_t > 5``, and is plain
    bias-corrected momentum SGD before that.

    Arguments:
        params: Parameters or parameter groups.
        lr: learning rate (> 0). betas: ``(beta1, beta2)`` in [0, 1). eps: added to the denominator (> 0).
        weight_decay: L2 penalty added to the gradient (>= 0).

    Inputs:
        ``gradients``: one gradient per Parameter, in ``parameters`` order.

    Raises:
        ValueError: ``lr`` or ``eps`` not above 0, ``weight_decay`` below 0, a beta outside [0, 1).

    Example:
        >>> from mindjax import nn
        >>> from mindjax.experimental import optim
        >>> opt = optim.RAdam(nn.Dense(2, 1).trainable_params(), lr=0.01)
        >>> opt.param_groups[0]["betas"]
        (0.9, 0.999)
    """

    def __init__(self, params: Any, lr: float = 1e-3, betas: tuple[float, float] = (0.9, 0.999),
                 eps: float = 1e-8, weight_decay: float = 0.0) -> None:
        who = type(self).__name__
        _check_greater(who, "lr", lr)
        _check_not_less(who, "weight_decay", weight_decay)
        _check_greater(who, "eps", eps)
        _check_betas(who, betas)
        super().__init__(params, dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay))
        self.exp_avg = self.parameters.clone(prefix="exp_avg", init="zeros")
        self.exp_avg_sq = self.parameters.clone(prefix="exp_avg_sq", init="zeros")
        self.step_t = Parameter(jnp.asarray(0, jnp.int32), name="step_t", requires_grad=False)

    def construct(self, gradients: Any) -> Any:
        step = as_array(self.step_t) + 1
        assign(self.step_t, step)
        step = step.astype(jnp.float32)
        for group_id, group in enumerate(self.param_groups):
            beta1, beta2 = group["betas"]
            lr = as_array(group["lr"])
            wd, eps = group["weight_decay"], group["eps"]
            bias1 = 1.0 - beta1 ** step
            bias2 = 1.0 - beta2 ** step
            rho_inf = 2.0 / (1.0 - beta2) - 1.0
            rho_t = rho_inf - 2.0 * step * beta2 ** step / bias2
            rectified = rho_t > 5.0
            safe_rho = jnp.where(rectified, rho_t, rho_inf)
            rect = jnp.sqrt((safe_rho - 4) * (safe_rho - 2) * rho_inf / ((rho_inf - 4) * (rho_inf - 2) * safe_rho))
            start = self.group_start_id[group_id]
            for i, (param, grad) in enumerate(zip(group["params"], self._group_grads(gradients, group_id))):
                k = start + i
                value = as_array(param)
                grad = grad.astype(value.dtype)
                if wd != 0.0:
                    grad = grad + wd * value
                m = beta1 * as_array(self.exp_avg[k]) + (1.0 - beta1) * grad
                v = beta2 * as_array(self.exp_avg_sq[k]) + (1.0 - beta2) * grad * grad
                assign(self.exp_avg[k], m)
                assign(self.exp_avg_sq[k], v)
                m_hat = m / bias1
                adaptive = jnp.sqrt(bias2) / (jnp.sqrt(v) + eps)
                update = jnp.where(rectified, m_hat * lr * adaptive * rect, m_hat * lr)
                assign(param, (value - update).astype(value.dtype))
        return True
