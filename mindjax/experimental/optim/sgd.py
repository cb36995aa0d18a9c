"""``mindspore.experimental.optim.sgd``: ``SGD`` with momentum, dampening and Nesterov (PyTorch's semantics)."""
from __future__ import annotations

from typing import Any

import jax.numpy as jnp

from mindjax.cells.parameter import Parameter
from mindjax.common.tensor import as_array
from mindjax.experimental.optim.optimizer import Optimizer
from mindjax.ops.functional import assign

__all__ = ["SGD"]


class SGD(Optimizer):
    """Stochastic gradient descent (MindSpore's ``experimental.optim.SGD``).

    Arguments:
        params: Parameters or parameter groups.
        lr: learning rate. momentum: momentum factor. dampening: dampening of the momentum.
        weight_decay: L2 penalty. nesterov: Nesterov momentum (needs momentum > 0 and
            dampening 0). maximize: ascend instead of descend.

    Inputs:
        ``gradients``: one gradient per Parameter.

    Raises:
        ValueError: a negative option, or ``nesterov`` without momentum or with dampening.
    """

    def __init__(self, params: Any, lr: float, momentum: float = 0, dampening: float = 0,
                 weight_decay: float = 0.0, nesterov: bool = False, *, maximize: bool = False) -> None:
        for arg, value in (("momentum", momentum), ("dampening", dampening)):
            if isinstance(value, bool) or not isinstance(value, (int, float)) or value < 0:
                raise ValueError(f"For 'SGD', '{arg}' must be a non-negative number, got {value!r}")
        if nesterov and (momentum <= 0 or dampening != 0):
            raise ValueError("For 'SGD', nesterov momentum needs momentum > 0 and dampening = 0")
        super().__init__(params, dict(lr=lr, momentum=float(momentum), dampening=float(dampening),
                                      weight_decay=weight_decay, nesterov=nesterov, maximize=maximize))
        self.accum = self.parameters.clone(prefix="accum", init="zeros")
        self.state_step = Parameter(jnp.asarray(0, jnp.int32), name="state_step", requires_grad=False)

    def construct(self, gradients: Any) -> Any:
        first = as_array(self.state_step) == 0
        assign(self.state_step, as_array(self.state_step) + 1)
        for group_id, group in enumerate(self.param_groups):
            lr = as_array(group["lr"])
            momentum, dampening, wd = group["momentum"], group["dampening"], group["weight_decay"]
            start = self.group_start_id[group_id]
            for i, (param, grad) in enumerate(zip(group["params"], self._group_grads(gradients, group_id))):
                value = as_array(param)
                grad = (-grad if group["maximize"] else grad).astype(value.dtype)
                if wd != 0.0:
                    grad = grad + wd * value
                if momentum != 0.0:
                    buf = jnp.where(first, grad, momentum * as_array(self.accum[start + i]) + (1.0 - dampening) * grad)
                    assign(self.accum[start + i], buf)
                    grad = grad + momentum * buf if group["nesterov"] else buf
                assign(param, value - lr * grad)
        return True
