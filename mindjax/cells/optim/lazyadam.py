"""``LazyAdam``: Adam that, for sparse gradients, updates only the rows they touch (MindSpore's ``LazyAdam``).

Gradients are dense arrays here (an ``Embedding`` gradient included), and
MindSpore's ``LazyAdam`` on a dense gradient is its ``Adam`` kernel: the
update is :class:`~mindjax.nn.Adam`'s, with ``beta1_power``/``beta2_power`` of
shape ``(1,)`` and a float ``weight_decay`` only.
"""
from __future__ import annotations

from typing import Any

from mindjax.cells.optim._checks import check_positive_float, check_value_type
from mindjax.cells.optim.adam import _apply_adam, _check_adam_values, _init_adam_state, _next_beta_powers
from mindjax.cells.optim.init_args import opt_init_args_register
from mindjax.cells.optim.optimizer import Optimizer


__all__ = ["LazyAdam"]


class LazyAdam(Optimizer):
    """Adam with MindSpore's ``LazyAdam`` arguments and state names.

    State: ``beta1_power``, ``beta2_power`` (shape ``(1,)``), ``moment1.<param>``, ``moment2.<param>``.

    Arguments:
        params: Parameters or parameter groups (see :class:`Optimizer`).
        learning_rate: fixed, per-step list, or schedule. Default 1e-3.
        beta1, beta2: moment decay rates in (0, 1). Defaults 0.9, 0.999.
        eps: added to ``sqrt(v)`` (> 0). Default 1e-8.
        use_locking: accepted for compatibility. Default False.
        use_nesterov: Nesterov's variant of the first moment. Default False.
        weight_decay: a float >= 0 (no schedule, as in MindSpore). Default 0.0.
        loss_scale: gradients are divided by it. Default 1.0.

    Raises:
        TypeError: a beta, ``eps`` or ``weight_decay`` not a float; a flag not a bool.
        ValueError: a beta outside (0, 1), ``eps`` <= 0, ``weight_decay`` < 0.
    """

    _target_setting = "device"

    @opt_init_args_register
    def __init__(self, params: Any, learning_rate: Any = 1e-3, beta1: float = 0.9, beta2: float = 0.999,
                 eps: float = 1e-8, use_locking: bool = False, use_nesterov: bool = False,
                 weight_decay: float = 0.0, loss_scale: float = 1.0) -> None:
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        where = self._where()
        _check_adam_values(beta1, beta2, eps, where)
        # MindSpore's own spelling of the argument in this message.
        check_value_type(weight_decay, "weight_dacay", float, where)
        check_positive_float(weight_decay, "weight_decay", where, allow_zero=True)
        _init_adam_state(self, beta1, beta2, eps, use_locking, use_nesterov)

    def construct(self, gradients: Any) -> bool:
        grads = self.decay_weight(self._check_gradients(gradients))
        grads = self.scale_grad(self.gradients_centralization(grads))
        lrs = self._lr_per_param(self.get_lr())
        self._increase_global_step()
        _apply_adam(self, grads, lrs, *_next_beta_powers(self))
        return True
