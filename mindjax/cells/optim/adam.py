"""``Adam`` and ``AdamWeightDecay`` with MindSpore's update math.

MindSpore's ``Adam`` folds bias correction into the step size and adds
``eps`` to the uncorrected ``sqrt(v)``:
``param -= lr * sqrt(1 - beta2^t) / (1 - beta1^t) * m / (sqrt(v) + eps)``,
with ``beta1_power``/``beta2_power`` kept as Parameters. ``optax.adam`` adds
``eps`` after bias correction, so the numbers differ and the math is written
here. ``AdamWeightDecay`` has no bias correction at all and adds
``weight_decay * param`` to the step (decoupled decay).
"""
from __future__ import annotations

from typing import Any

import jax.numpy as jnp

from mindjax.cells.optim._checks import (check_bool, check_float, check_float_range, check_open_unit,
                                         check_positive_float, check_value_type)
from mindjax.cells.optim.optimizer import Optimizer
from mindjax.common.step_guard import guarded
from mindjax.cells.parameter import Parameter

__all__ = ["Adam", "AdamWeightDecay", "AdamOffload"]


def _check_adam_args(beta1: Any, beta2: Any, eps: Any, where: str) -> None:
    check_open_unit(beta1, "beta1", where)
    check_open_unit(beta2, "beta2", where)
    check_float(eps, "eps", where, allow_zero=False)


def _check_adam_values(beta1: Any, beta2: Any, eps: Any, where: str) -> None:
    """MindSpore's ``_check_param_value`` of ``adam.py`` (validator wording)."""
    for name, value in (("beta1", beta1), ("beta2", beta2), ("eps", eps)):
        check_value_type(value, name, float, where)
    check_float_range(beta1, 0.0, 1.0, "beta1", where)
    check_float_range(beta2, 0.0, 1.0, "beta2", where)
    check_positive_float(eps, "eps", where)


def _init_adam_state(opt: Optimizer, beta1: float, beta2: float, eps: float, use_locking: bool,
                     use_nesterov: bool) -> None:
    """The checked hyper-parameters and the state of MindSpore's Adam kernel: beta powers, two moments."""
    where = opt._where()
    _check_adam_values(beta1, beta2, eps, where)
    check_value_type(use_locking, "use_locking", bool, where)
    check_value_type(use_nesterov, "use_nesterov", bool, where)
    opt.beta1, opt.beta2, opt.eps = beta1, beta2, eps
    opt.use_locking, opt.use_nesterov = use_locking, use_nesterov
    opt.beta1_power = Parameter(jnp.ones((1,), jnp.float32), name="beta1_power")
    opt.beta2_power = Parameter(jnp.ones((1,), jnp.float32), name="beta2_power")
    opt.moment1 = opt._clone_state("moment1", "zeros")
    opt.moment2 = opt._clone_state("moment2", "zeros")


def _next_beta_powers(opt: Optimizer) -> tuple[Any, Any]:
    """Multiply ``beta1_power``/``beta2_power`` by the betas, store and return them."""
    beta1_power = opt.beta1_power._value * jnp.float32(opt.beta1)
    beta2_power = opt.beta2_power._value * jnp.float32(opt.beta2)
    opt.beta1_power.set_data(beta1_power)
    opt.beta2_power.set_data(beta2_power)
    return beta1_power, beta2_power


def _apply_adam(opt: Optimizer, grads: tuple[Any, ...], lrs: list[Any], beta1_power: Any, beta2_power: Any) -> None:
    """MindSpore's ``Adam`` kernel on every parameter of ``opt`` (its ``moment1``/``moment2``, betas, eps).

    The bias correction is folded into the step size; ``beta*_power`` may be 0-D or ``(1,)``.
    """
    beta1 = jnp.float32(opt.beta1)
    beta2 = jnp.float32(opt.beta2)
    for param, m, v, grad, lr in zip(opt.parameters, opt.moment1, opt.moment2, grads, lrs):
        g = grad.astype(jnp.float32)
        lr_t = jnp.reshape(lr * jnp.sqrt(1 - beta2_power) / (1 - beta1_power), ())
        # Through the step's guard, so that XLA need not copy the donated moments (common/step_guard).
        new_m = guarded(m._value, m._value + (g - m._value) * (1 - beta1))
        new_v = guarded(v._value, v._value + (g * g - v._value) * (1 - beta2))
        numer = new_m * beta1 + (1 - beta1) * g if opt.use_nesterov else new_m
        m.set_data(new_m)
        v.set_data(new_v)
        param.set_data(param._value - lr_t * (numer / (jnp.sqrt(new_v) + opt.eps)))


class Adam(Optimizer):
    """Adam with MindSpore's arguments, math and state names.

    State: ``beta1_power``, ``beta2_power`` (scalars), ``moment1.<param>``,
    ``moment2.<param>`` and, with ``use_amsgrad``, ``vhat.<param>``.

    Arguments:
        params: Parameters or parameter groups (see :class:`Optimizer`).
        learning_rate: fixed, per-step list, or schedule. Default 1e-3.
        beta1, beta2: moment decay rates in (0, 1).
        eps: added to ``sqrt(v)`` (> 0).
        use_locking: accepted for compatibility.
        use_nesterov: Nesterov's variant of the first moment.
        weight_decay: float >= 0 or a schedule Cell, added to the gradient.
        loss_scale: gradients are divided by it.
        use_amsgrad: keep the running maximum of ``v`` (``vhat``).
        use_lazy, use_offload: accepted for compatibility (gradients are dense here).
    """

    _target_setting = "device"

    def __init__(self, params: Any, learning_rate: Any = 1e-3, beta1: float = 0.9, beta2: float = 0.999,
                 eps: float = 1e-8, use_locking: bool = False, use_nesterov: bool = False,
                 weight_decay: Any = 0.0, loss_scale: float = 1.0, use_amsgrad: bool = False,
                 **kwargs: Any) -> None:
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        where = self._where()
        unknown = set(kwargs) - {"use_lazy", "use_offload"}
        if unknown:
            raise KeyError(f"{where}, the only extra keyword arguments are 'use_lazy' and 'use_offload', "
                           f"got {sorted(unknown)}")
        _check_adam_args(beta1, beta2, eps, where)
        check_bool(use_locking, "use_locking", where)
        self.use_nesterov = check_bool(use_nesterov, "use_nesterov", where)
        self.use_amsgrad = check_bool(use_amsgrad, "use_amsgrad", where)
        self.use_lazy = check_bool(kwargs.get("use_lazy", False), "use_lazy", where)
        self.use_offload = check_bool(kwargs.get("use_offload", False), "use_offload", where)
        if self.use_lazy and self.use_offload:
            raise ValueError(f"{where}, 'use_lazy' and 'use_offload' can not both be True")
        if use_amsgrad and (self.use_lazy or self.use_offload):
            raise ValueError(f"{where}, 'use_amsgrad' can not be combined with 'use_lazy' or 'use_offload'")
        self.beta1 = beta1
        self.beta2 = beta2
        self.eps = eps
        self.use_locking = use_locking
        self.beta1_power = Parameter(jnp.ones((), jnp.float32), name="beta1_power")
        self.beta2_power = Parameter(jnp.ones((), jnp.float32), name="beta2_power")
        self.moment1 = self._clone_state("moment1", "zeros")
        self.moment2 = self._clone_state("moment2", "zeros")
        if use_amsgrad:
            self.vhat = self._clone_state("vhat", "zeros")

    def construct(self, gradients: Any) -> bool:
        grads = self._check_gradients(gradients)
        grads = self.decay_weight(grads)
        if not self.use_offload:
            grads = self.gradients_centralization(grads)
        grads = self.scale_grad(grads)
        lrs = self._lr_per_param(self.get_lr())
        self._increase_global_step()
        beta1 = jnp.float32(self.beta1)
        beta2 = jnp.float32(self.beta2)
        beta1_power = self.beta1_power._value * beta1
        beta2_power = self.beta2_power._value * beta2
        self.beta1_power.set_data(beta1_power)
        self.beta2_power.set_data(beta2_power)
        if not self.use_amsgrad:
            _apply_adam(self, grads, lrs, beta1_power, beta2_power)
            return True
        for param, m, v, vhat, grad, lr in zip(self.parameters, self.moment1, self.moment2, self.vhat, grads, lrs):
            g = grad.astype(jnp.float32)
            lr_t = lr * jnp.sqrt(1 - beta2_power) / (1 - beta1_power)
            new_m = guarded(m._value, beta1 * m._value + (1 - beta1) * g)
            new_v = guarded(v._value, beta2 * v._value + (1 - beta2) * g * g)
            new_vhat = guarded(vhat._value, jnp.maximum(vhat._value, new_v))
            vhat.set_data(new_vhat)
            m.set_data(new_m)
            v.set_data(new_v)
            param.set_data(param._value - lr_t * (new_m / (jnp.sqrt(new_vhat) + self.eps)))
        return True


class AdamWeightDecay(Optimizer):
    """Adam with decoupled weight decay and no bias correction (MindSpore's ``AdamWeightDecay``).

    ``update = m / (sqrt(v) + eps) + weight_decay * param`` and
    ``param -= lr * update``; the decay applies to the decayed parameters
    only (by default those without ``beta``/``gamma`` in their names).
    State: ``adam_m.<param>``, ``adam_v.<param>``.

    Arguments:
        params: Parameters or parameter groups (see :class:`Optimizer`).
        learning_rate: fixed, per-step list, or schedule. Default 1e-3.
        beta1, beta2: moment decay rates in (0, 1).
        eps: added to ``sqrt(v)`` (> 0). Default 1e-6.
        weight_decay: float >= 0 or a schedule Cell.
    """

    _support_parallel_optimizer = True

    def __init__(self, params: Any, learning_rate: Any = 1e-3, beta1: float = 0.9, beta2: float = 0.999,
                 eps: float = 1e-6, weight_decay: Any = 0.0) -> None:
        super().__init__(learning_rate, params, weight_decay)
        _check_adam_args(beta1, beta2, eps, self._where())
        self.beta1 = beta1
        self.beta2 = beta2
        self.eps = eps
        self.moments1 = self._clone_state("adam_m", "zeros")
        self.moments2 = self._clone_state("adam_v", "zeros")

    def construct(self, gradients: Any) -> bool:
        grads = self._check_gradients(gradients)
        decays = self._decay_per_param()
        lrs = self._lr_per_param(self.get_lr())
        self._increase_global_step()
        beta1 = jnp.float32(self.beta1)
        beta2 = jnp.float32(self.beta2)
        for param, m, v, grad, lr, wd in zip(self.parameters, self.moments1, self.moments2, grads, lrs, decays):
            g = grad.astype(jnp.float32)
            new_m = guarded(m._value, m._value + (g - m._value) * (1 - beta1))
            new_v = guarded(v._value, v._value + (g * g - v._value) * (1 - beta2))
            update = new_m / (jnp.sqrt(new_v) + self.eps) + wd * param._value.astype(jnp.float32)
            m.set_data(new_m)
            v.set_data(new_v)
            param.set_data(param._value - lr * update)
        return True


class AdamOffload(Optimizer):
    """Adam whose moments live on the host (MindSpore's ``AdamOffload``).

    On CPU the host is the device, so this is :class:`Adam`'s math and numbers
    (no gradient centralization, as in MindSpore), with MindSpore's state:
    ``beta1_power``/``beta2_power`` of shape ``(1,)``, ``moment1.<param>``,
    ``moment2.<param>``.

    Arguments:
        params: Parameters or parameter groups (see :class:`Optimizer`).
        learning_rate: fixed, per-step list, or schedule. Default 1e-3.
        beta1, beta2: moment decay rates in (0, 1). Defaults 0.9, 0.999.
        eps: added to ``sqrt(v)`` (> 0). Default 1e-8.
        use_locking: accepted for compatibility. Default False.
        use_nesterov: Nesterov's variant of the first moment. Default False.
        weight_decay: float >= 0 or a schedule Cell, added to the gradient. Default 0.0.
        loss_scale: gradients are divided by it. Default 1.0.

    Raises:
        TypeError: a beta, ``eps`` not a float; ``use_locking``/``use_nesterov`` not a bool.
        ValueError: a beta outside (0, 1), ``eps`` <= 0.
    """

    def __init__(self, params: Any, learning_rate: Any = 1e-3, beta1: float = 0.9, beta2: float = 0.999,
                 eps: float = 1e-8, use_locking: bool = False, use_nesterov: bool = False,
                 weight_decay: Any = 0.0, loss_scale: float = 1.0) -> None:
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        self.params = self.parameters
        _init_adam_state(self, beta1, beta2, eps, use_locking, use_nesterov)

    def construct(self, gradients: Any) -> bool:
        grads = self.scale_grad(self.decay_weight(self._check_gradients(gradients)))
        lrs = self._lr_per_param(self.get_lr())
        self._increase_global_step()
        _apply_adam(self, grads, lrs, *_next_beta_powers(self))
        return True
