"""``AdaFactor``: Adam with factored second moments (MindSpore's ``AdaFactor``).

For a parameter of rank >= 2 the second moment is kept as a row mean
(``exp_avg_sq_row_<name>``, shape ``shape[:-1]``) and a column mean
(``exp_avg_sq_col_<name>``, shape ``shape[:-2] + shape[-1:]``); for a vector it
is kept whole (``exp_avg_sq_<name>``). Step ``t`` (the ``step`` Parameter,
float32 ``(1,)``) uses ``beta2_t = 1 - t ** -decay_rate``; the update is
clipped to RMS ``clip_threshold``, scaled by ``lr`` (``min(1e-2, 1/sqrt(t))``
with ``relative_step``) times ``max(eps[1], rms(param))`` with
``scale_parameter``, and, with ``beta1 > 0``, averaged into ``exp_avg.<name>``.
Weight decay is decoupled: ``param -= weight_decay * lr_t * param``. As in
MindSpore, gradients are not divided by ``loss_scale`` and the base class's
weight decay is not applied.
"""
from __future__ import annotations

from typing import Any

import jax.numpy as jnp

from mindjax.cells.optim._checks import (check_float_range, check_positive_float, check_value_type)
from mindjax.cells.optim.init_args import opt_init_args_register
from mindjax.cells.optim.optimizer import Optimizer
from mindjax.cells.parameter import Parameter, ParameterTuple

__all__ = ["AdaFactor"]


def _rms(x: Any) -> Any:
    return jnp.sqrt(jnp.mean(jnp.square(x)))


class AdaFactor(Optimizer):
    """AdaFactor with MindSpore's arguments, math and state names.

    Arguments:
        params: Parameters or parameter groups (see :class:`Optimizer`).
        learning_rate: None (relative steps) or a fixed / per-step / schedule rate
            (then ``relative_step`` must be False). Default None.
        eps: ``(eps1, eps2)``: added to ``grad ** 2``, and the floor of the parameter
            scale. Default (1e-30, 1e-3).
        clip_threshold: the RMS bound of an update. Default 1.0.
        decay_rate: the exponent of ``beta2_t``, in (0, 1). Default 0.8.
        beta1: the first-moment rate; 0 or None keeps no first moment. Default 0.9.
        weight_decay: decoupled decay, in [0, 1). Default 0.0.
        scale_parameter: scale the rate by the parameter's RMS. Default True.
        relative_step: use ``min(1e-2, 1/sqrt(t))`` as the rate. Default True.
        warmup_init: use ``min(1e-6 * t, 1/sqrt(t))`` (needs ``relative_step``). Default False.
        compression: keep a vector's ``exp_avg_sq`` in float16. Default False.
        loss_scale: kept as the base class keeps it (gradients are not divided by it). Default 1.0.

    Raises:
        TypeError: ``eps`` not a list or tuple, an ``eps`` value or ``clip_threshold`` /
            ``decay_rate`` not a float, a flag not a bool, ``beta1`` not a number.
        ValueError: ``learning_rate`` with ``relative_step``, ``warmup_init`` without it,
            neither a rate nor ``relative_step``, ``eps`` not of length 2, a value out of range.
    """

    _support_parallel_optimizer = True

    @opt_init_args_register
    def __init__(self, params: Any, learning_rate: Any = None, eps: tuple[float, float] = (1e-30, 1e-3),
                 clip_threshold: float = 1.0, decay_rate: float = 0.8, beta1: float | None = 0.9,
                 weight_decay: float = 0.0, scale_parameter: bool = True, relative_step: bool = True,
                 warmup_init: bool = False, compression: bool = False, loss_scale: float = 1.0) -> None:
        where = f"For '{type(self).__name__}'"
        if learning_rate is not None and relative_step:
            raise ValueError(f"{where}, cannot combine manual lr and relative_step options: got "
                             f"learning_rate={learning_rate!r} with relative_step=True")
        if warmup_init and not relative_step:
            raise ValueError(f"{where}, warmup_init requires relative_step=True")
        if learning_rate is None and not relative_step:
            raise ValueError(f"{where}, learning_rate can not be None when relative_step=False")
        if learning_rate is None:
            learning_rate = 0.0
        if beta1 is None:
            beta1 = 0.0
        self_scale_lr = isinstance(learning_rate, (float, int)) and not isinstance(learning_rate, bool)
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        where = self._where()
        check_value_type(eps, "eps", (list, tuple), where)
        if len(eps) != 2:
            raise ValueError(f"{where}, eps must have 2 value: (eps1, eps2), but got {len(eps)} values.")
        for i, value in enumerate(eps):
            check_value_type(value, f"eps{i}", float, where)
            check_positive_float(value, f"eps{i}", where, allow_zero=True)
        check_value_type(clip_threshold, "clip_threshold", float, where)
        check_positive_float(clip_threshold, "clip_threshold", where, allow_zero=True)
        check_value_type(decay_rate, "decay_rate", float, where)
        check_float_range(decay_rate, 0, 1, "decay_rate", where)
        check_float_range(weight_decay, 0, 1, "weight_decay", where, include_low=True)
        check_value_type(scale_parameter, "scale_parameter", bool, where)
        check_value_type(relative_step, "relative_step", bool, where)
        check_value_type(compression, "compression", bool, where)
        check_value_type(beta1, "beta1", (int, float), where)
        check_positive_float(float(beta1), "beta1", where, allow_zero=True)
        self.scale_lr = self_scale_lr
        self.eps = tuple(float(e) for e in eps)
        self.clip_threshold = clip_threshold
        self.decay_rate = -decay_rate
        self.beta1 = float(beta1)
        self.weight_decay = float(weight_decay)
        self.weight_decay_flag = bool(weight_decay)
        self.scale_parameter = scale_parameter and self.scale_lr
        self.relative_step = relative_step
        self.warmup_init = warmup_init
        self.compression = compression
        self.init_ada_factor_state(beta1)
        self.step = Parameter(jnp.zeros((1,), jnp.float32), name="afactor_step")

    def init_ada_factor_state(self, beta1: float) -> None:
        """Create ``exp_avg``, ``exp_avg_sq_row``, ``exp_avg_sq_col`` and ``exp_avg_sq`` (MindSpore's shapes)."""
        self.use_first_moment = beta1 > 0
        if self.use_first_moment:
            self.exp_avg = self._clone_state("exp_avg", "zeros")
        else:
            # MindSpore shares one 0-D placeholder among all parameters.
            self.exp_avg = ParameterTuple([Parameter(jnp.zeros((), jnp.float32), name="exp_avg")]
                                          * self.param_length)
        rows, cols, full = [], [], []
        for param in self._parameters:
            shape, dtype, name = tuple(param.shape), param.dtype, param.name
            factored = len(shape) > 1
            rows.append(Parameter(jnp.zeros(shape[:-1] if factored else (1,), dtype),
                                  name=f"exp_avg_sq_row_{name}"))
            cols.append(Parameter(jnp.zeros(shape[:-2] + shape[-1:] if factored else (1,), dtype),
                                  name=f"exp_avg_sq_col_{name}"))
            full_dtype = jnp.float16 if self.compression and not factored else dtype
            full.append(Parameter(jnp.zeros((1,) if factored else shape, full_dtype), name=f"exp_avg_sq_{name}"))
        self.exp_avg_sq_row = ParameterTuple(rows)
        self.exp_avg_sq_col = ParameterTuple(cols)
        self.exp_avg_sq = ParameterTuple(full)

    @property
    def supports_memory_efficient_fp16(self) -> bool:
        """True, as in MindSpore."""
        return True

    @property
    def supports_flat_params(self) -> bool:
        """False, as in MindSpore."""
        return False

    def construct(self, gradients: Any) -> bool:
        grads = self._check_gradients(gradients)
        lrs = self._lr_per_param(self.get_lr())
        self._increase_global_step()
        step = self.step._value + 1.0
        self.step.set_data(step)
        if self.scale_lr and self.relative_step:
            min_step = 1e-6 * step if self.warmup_init else 1e-2
            lrs = [jnp.reshape(jnp.minimum(min_step, 1.0 / jnp.sqrt(step)), ())] * self.param_length
        beta2t = 1.0 - jnp.power(step, jnp.float32(self.decay_rate))
        for i, (param, grad, lr) in enumerate(zip(self._parameters, grads, lrs)):
            self._update_one(i, param, grad.astype(jnp.float32), lr, beta2t)
        return True

    def _update_one(self, i: int, param: Parameter, grad: Any, lr: Any, beta2t: Any) -> None:
        p = param._value.astype(jnp.float32)
        if self.scale_parameter:
            lr_t = lr * jnp.maximum(jnp.float32(self.eps[1]), _rms(p))
        else:
            lr_t = lr
        update = jnp.square(grad) + jnp.float32(self.eps[0])
        if grad.ndim >= 2:
            row_p, col_p = self.exp_avg_sq_row[i], self.exp_avg_sq_col[i]
            row = row_p._value.astype(jnp.float32) * beta2t + jnp.mean(update, axis=-1) * (1.0 - beta2t)
            col = col_p._value.astype(jnp.float32) * beta2t + jnp.mean(update, axis=-2) * (1.0 - beta2t)
            row_p.set_data(row.astype(row_p.dtype))
            col_p.set_data(col.astype(col_p.dtype))
            row, col = row_p._value.astype(jnp.float32), col_p._value.astype(jnp.float32)
            r_factor = 1.0 / jnp.sqrt(row / jnp.mean(row, axis=-1, keepdims=True))
            c_factor = 1.0 / jnp.sqrt(col)
            update = r_factor[..., None] * c_factor[..., None, :] * grad
        else:
            sq_p = self.exp_avg_sq[i]
            sq = sq_p._value.astype(jnp.float32) * beta2t + update * (1.0 - beta2t)
            sq_p.set_data(sq.astype(sq_p.dtype))
            update = grad / jnp.sqrt(sq_p._value.astype(jnp.float32))
        update = update / jnp.maximum(_rms(update) / self.clip_threshold, 1.0) * lr_t
        if self.use_first_moment:
            avg_p = self.exp_avg[i]
            avg = avg_p._value.astype(jnp.float32) * self.beta1 + update * (1.0 - self.beta1)
            avg_p.set_data(avg.astype(avg_p.dtype))
            update = avg_p._value.astype(jnp.float32)
        if self.weight_decay_flag:
            p = p - p * self.weight_decay * lr_t
        param.set_data((p - update).astype(param.dtype))
