"""``LARS``: layer-wise adaptive rate scaling around another optimizer (MindSpore's ``LARS``).

LARS rescales each gradient before the wrapped optimizer sees it. For a
parameter ``w`` that ``lars_filter`` selects, with ``wd`` its weight decay:

    trust = coefficient * ||w|| / (||g|| + wd * ||w|| + epsilon)   (1 when ||w|| or ||g|| is 0)
    trust = min(trust / lr, 1)                                      (only with use_clip)
    g     = (g + wd * w) * trust

(MindSpore's ``LARSUpdate`` kernel, which has no CPU kernel in MindSpore 2.10.)
The weight decay moves from the wrapped optimizer into this rescaling: LARS
turns the wrapped optimizer's own decay off, and parameters the filter leaves
out get no decay at all, as in MindSpore. The loss-scale division happens here
once. ``global_step`` is the wrapped optimizer's.
"""
from __future__ import annotations

from typing import Any, Callable

import jax.numpy as jnp

from mindjax.cells.optim._checks import check_value_type
from mindjax.cells.optim.init_args import opt_init_args_register
from mindjax.cells.optim.optimizer import Optimizer, _value
from mindjax.cells.parameter import Parameter

__all__ = ["LARS"]


def _lars_update(weight: Any, grad: Any, weight_decay: Any, lr: Any, epsilon: float, coefficient: float,
                 use_clip: bool) -> Any:
    """MindSpore's ``LARSUpdate`` on one parameter."""
    w_norm = jnp.sqrt(jnp.sum(jnp.square(weight)))
    g_norm = jnp.sqrt(jnp.sum(jnp.square(grad)))
    trust = coefficient * w_norm / (g_norm + weight_decay * w_norm + epsilon)
    if use_clip:
        trust = jnp.minimum(trust / lr, 1.0)
    trust = jnp.where((w_norm > 0) & (g_norm > 0), trust, 1.0)
    return ((grad + weight_decay * weight) * trust).astype(grad.dtype)


def _default_lars_filter(param: Parameter) -> bool:
    return "LayerNorm" not in param.name and "bias" not in param.name


class LARS(Optimizer):
    """Wrap ``optimizer`` and rescale its gradients layer by layer (MindSpore's ``LARS``).

    Arguments:
        optimizer: the :class:`Optimizer` that applies the rescaled gradients.
        epsilon: added to the trust ratio's denominator. Default 1e-05.
        coefficient: the trust coefficient. Default 0.001.
        use_clip: clip the local rate to ``min(trust / lr, 1)``, with ``lr`` the
            wrapped optimizer's learning rate. Default False.
        lars_filter: which parameters LARS rescales. Default: names without
            ``LayerNorm`` or ``bias``.

    Inputs:
        gradients: a tuple of arrays, one per parameter of ``optimizer``.

    Raises:
        TypeError: ``optimizer`` not an Optimizer, ``epsilon``/``coefficient`` not floats,
            ``use_clip`` not a bool.
        ValueError: ``use_clip`` with an optimizer that has both group and dynamic learning rates.
    """

    @opt_init_args_register
    def __init__(self, optimizer: Optimizer, epsilon: float = 1e-05, coefficient: float = 0.001,
                 use_clip: bool = False,
                 lars_filter: Callable[[Parameter], bool] = _default_lars_filter) -> None:
        super().__init__(0.0, [Parameter(jnp.zeros((), jnp.float32), name="fake_param")])
        where = self._where()
        check_value_type(optimizer, "optimizer", Optimizer, where)
        check_value_type(epsilon, "epsilon", float, where)
        check_value_type(coefficient, "coefficient", float, where)
        check_value_type(use_clip, "use_clip", bool, where)
        self.opt = optimizer
        self.epsilon = epsilon
        self.coefficient = coefficient
        self.dynamic_decay_flags = optimizer.dynamic_decay_flags
        self.dynamic_weight_decay = optimizer.dynamic_weight_decay
        self.weight_decay = optimizer.weight_decay
        self.global_step = optimizer.global_step
        self.parameters = optimizer.parameters
        self._parameters = self.parameters
        self.param_length = len(self.parameters)
        self.use_clip = use_clip
        self.lars_flag = tuple(bool(lars_filter(p)) for p in self.parameters)
        self.is_group = optimizer.is_group
        self.learning_rate = Parameter(jnp.zeros((), jnp.float32), name="fake_lr")
        self.decay_flags = optimizer.decay_flags
        self.reciprocal_scale = optimizer.reciprocal_scale
        self.need_scale = optimizer.need_scale
        self.loss_scale = optimizer.loss_scale
        if use_clip:
            self.is_group_lr = optimizer.is_group_lr
            self.dynamic_lr = optimizer.dynamic_lr
            self.origin_learning_rate = optimizer.learning_rate
            if self.is_group_lr and self.dynamic_lr:
                raise ValueError(f"{where}, if the argument 'use_clip' is set to True, then the dynamic "
                                 f"learning rate and group learning rate cannot both be true.")
        # The decay and the loss-scale division happen here, so the wrapped optimizer does neither.
        optimizer.dynamic_decay_flags = (tuple(False for _ in self.dynamic_decay_flags) if self.is_group
                                         else False)
        optimizer.decay_flags = tuple(False for _ in self.decay_flags)
        optimizer.dynamic_weight_decay = False
        optimizer.reciprocal_scale = 1.0
        optimizer.exec_weight_decay = False

    def _clip_lrs(self) -> list[Any]:
        """The wrapped optimizer's learning rate of this step, one scalar per parameter."""
        if not self.use_clip:
            return [jnp.asarray(self.learning_rate._value)] * self.param_length
        return self.opt._lr_per_param(self.opt.get_lr())

    def construct(self, gradients: Any) -> Any:
        grads = self.scale_grad(self._check_gradients(gradients))
        lrs = self._clip_lrs()
        wd = self.get_weight_decay()
        wds = wd if self.is_group else (wd,) * self.param_length
        new_grads = []
        for param, grad, lr, w, decay, lars in zip(self.parameters, grads, lrs, wds, self.decay_flags,
                                                   self.lars_flag):
            if lars:
                w = jnp.asarray(_value(w), jnp.float32) / self.loss_scale if decay else jnp.float32(0.0)
                grad = _lars_update(param._value, grad, w, lr, self.epsilon, self.coefficient, self.use_clip)
            new_grads.append(grad)
        success = self.opt(tuple(new_grads))
        # MindSpore steps the shared global_step once more when only LARS holds the schedule.
        if (self.dynamic_lr or self.dynamic_weight_decay) and not self.opt.dynamic_lr \
                and not self.opt.dynamic_weight_decay:
            self._increase_global_step()
        return success
