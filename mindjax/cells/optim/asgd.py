"""``ASGD``: averaged stochastic gradient descent with MindSpore's update order.

Per parameter, with ``eta`` starting at the learning rate on step 1 and ``mu``
at 1 (``t`` is the step count after this step's increment)::

    w  = w * (1 - lambd * eta) - eta * g
    ax = ax + (w - ax) * mu     (ax = w while mu == 1)
    eta = lr / (1 + lambd * lr * t) ** alpha
    mu  = 1 / max(1, t - t0)

The math runs in float32 and the results are cast back to each Parameter's
dtype. optax has no averaged SGD with this schedule, so it is written here.
"""
from __future__ import annotations

from typing import Any

import jax.numpy as jnp

from mindjax.cells.optim.optimizer import Optimizer
from mindjax.common.step_guard import guarded
from mindjax.cells.parameter import Parameter, ParameterTuple

__all__ = ["ASGD"]


def _check_type_float(value: Any, name: str, where: str) -> float:
    if not isinstance(value, float) or isinstance(value, bool):
        raise TypeError(f"{where}, '{name}' must be a float, got {type(value).__name__} {value!r}")
    return value


class ASGD(Optimizer):
    """Average stochastic gradient descent (MindSpore's ``nn.ASGD``).

    State: ``mu_<param>`` and ``eta_<param>`` (float32 scalars) and
    ``ax_.<param>``, the averaged parameter.

    Arguments:
        params: Parameters or parameter groups (see :class:`Optimizer`).
        learning_rate: fixed, per-step list, or schedule. Default 0.1.
        lambd: the decay term (float). Default 1e-4.
        alpha: the power of the ``eta`` update (float). Default 0.75.
        t0: the step at which averaging starts (float). Default 1e6.
        weight_decay: float >= 0 or a schedule Cell, added to the gradient.

    Raises:
        TypeError: ``lambd``, ``alpha`` or ``t0`` is not a float.

    Example:
        >>> opt = nn.ASGD(net.trainable_params(), learning_rate=0.01, t0=10.0)   # doctest: +SKIP
    """

    def __init__(self, params: Any, learning_rate: Any = 0.1, lambd: float = 1e-4, alpha: float = 0.75,
                 t0: float = 1e6, weight_decay: Any = 0.0) -> None:
        super().__init__(learning_rate, params, weight_decay)
        where = self._where()
        self.lambd = _check_type_float(lambd, "lambd", where)
        self.alpha = _check_type_float(alpha, "alpha", where)
        self.t0 = _check_type_float(t0, "t0", where)
        self.mu = ParameterTuple([Parameter(jnp.ones((), jnp.float32), name=f"mu_{p.name}")
                                  for p in self.parameters])
        self.eta = ParameterTuple([Parameter(jnp.zeros((), jnp.float32), name=f"eta_{p.name}")
                                   for p in self.parameters])
        self.ax = self._clone_state("ax_", "zeros")

    def construct(self, gradients: Any) -> bool:
        grads = self._check_gradients(gradients)
        grads = self.scale_grad(self.gradients_centralization(self.decay_weight(grads)))
        lrs = self._lr_per_param(self.get_lr())
        self._increase_global_step()
        step = jnp.reshape(self.global_step._value, ()).astype(jnp.float32)
        first = step == 1
        for param, mu, eta, ax, grad, lr in zip(self.parameters, self.mu, self.eta, self.ax, grads, lrs):
            lr = jnp.reshape(lr, ()).astype(jnp.float32)
            eta_now = jnp.where(first, lr, eta._value)
            mu_now = mu._value
            w = param._value.astype(jnp.float32) * (1.0 - self.lambd * eta_now) - eta_now * grad.astype(jnp.float32)
            # The average reads the written weight through the step's guard (mindjax.common.step_guard).
            w = guarded(param._value.astype(jnp.float32), w)
            param.set_data(w.astype(param.dtype))
            averaged = ax._value.astype(jnp.float32) + (w - ax._value.astype(jnp.float32)) * mu_now
            ax.set_data(jnp.where(mu_now != 1, averaged.astype(ax.dtype), w.astype(param.dtype).astype(ax.dtype)))
            eta.set_data(lr / jnp.power(1.0 + self.lambd * lr * step, self.alpha))
            mu.set_data(1.0 / jnp.maximum(jnp.float32(1.0), step - jnp.float32(self.t0)))
        return True
