"""``mindspore.experimental.optim.adam``: ``Adam`` (PyTorch's semantics)."""
from __future__ import annotations

from typing import Any

import jax.numpy as jnp

from mindjax.cells.parameter import Parameter, ParameterTuple
from mindjax.common.tensor import as_array
from mindjax.experimental.optim.optimizer import Optimizer
from mindjax.ops.functional import assign

__all__ = ["Adam"]


def _check_adam_args(who: str, lr: Any, betas: Any, eps: Any) -> None:
    if not isinstance(lr, bool) and isinstance(lr, (int, float)) and lr < 0:
        raise ValueError(f"For '{who}', 'lr' must be non-negative, got {lr}")
    if not isinstance(eps, (int, float)) or eps < 0:
        raise ValueError(f"For '{who}', 'eps' must be a non-negative float, got {eps!r}")
    if not (isinstance(betas, (tuple, list)) and len(betas) == 2 and all(0.0 <= b < 1.0 for b in betas)):
        raise ValueError(f"For '{who}', 'betas' must be two floats in [0, 1), got {betas!r}")


class Adam(Optimizer):
    """Adam (MindSpore's ``experimental.optim.Adam``, PyTorch's algorithm).

    Arguments:
        params: Parameters or parameter groups.
        lr: learning rate. betas: ``(beta1, beta2)``. eps: added to the denominator.
        weight_decay: L2 penalty added to the gradient. amsgrad: use the running maximum
            of the second moment. maximize: ascend instead of descend.

    Inputs:
        ``gradients``: one gradient per Parameter, in ``parameters`` order.

    Example:
        >>> from mindjax import nn
        >>> from mindjax.experimental import optim
        >>> opt = optim.Adam(nn.Dense(2, 1).trainable_params(), lr=0.01)
        >>> round(float(opt.param_groups[0]["lr"]), 6)
        0.01
    """

    def __init__(self, params: Any, lr: float = 1e-3, betas: tuple[float, float] = (0.9, 0.999),
                 eps: float = 1e-8, weight_decay: float = 0.0, amsgrad: bool = False, *,
                 maximize: bool = False) -> None:
        _check_adam_args(type(self).__name__, lr, betas, eps)
        super().__init__(params, dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay, amsgrad=amsgrad,
                                      maximize=maximize))
        self.exp_avg = self.parameters.clone(prefix="exp_avg", init="zeros")
        self.exp_avg_sq = self.parameters.clone(prefix="exp_avg_sq", init="zeros")
        self.max_exp_avg_sq = self.parameters.clone(prefix="max_exp_avg_sq", init="zeros")
        self.state_step = Parameter(jnp.asarray(0, jnp.int32), name="state_step", requires_grad=False)

    _decoupled_decay = False

    def construct(self, gradients: Any) -> Any:
        step = as_array(self.state_step) + 1
        assign(self.state_step, step)
        step = step.astype(jnp.float32)
        for group_id, group in enumerate(self.param_groups):
            beta1, beta2 = group["betas"]
            lr = as_array(group["lr"])
            wd, eps = group["weight_decay"], group["eps"]
            start = self.group_start_id[group_id]
            for i, (param, grad) in enumerate(zip(group["params"], self._group_grads(gradients, group_id))):
                k = start + i
                value = as_array(param)
                grad = (-grad if group["maximize"] else grad).astype(value.dtype)
                if wd != 0.0:
                    if self._decoupled_decay:
                        value = value * (1.0 - lr * wd)
                    else:
                        grad = grad + wd * value
                m = beta1 * as_array(self.exp_avg[k]) + (1.0 - beta1) * grad
                v = beta2 * as_array(self.exp_avg_sq[k]) + (1.0 - beta2) * grad * grad
                assign(self.exp_avg[k], m)
                assign(self.exp_avg_sq[k], v)
                if group["amsgrad"]:
                    v = jnp.maximum(as_array(self.max_exp_avg_sq[k]), v)
                    assign(self.max_exp_avg_sq[k], v)
                bias1 = 1.0 - beta1 ** step
                bias2 = 1.0 - beta2 ** step
                denom = jnp.sqrt(v) / jnp.sqrt(bias2) + eps
                assign(param, value - (lr / bias1) * m / denom)
        return True
