"""``Rprop``: resilient backpropagation (MindSpore's ``nn.Rprop``).

Each element keeps its own step size (the learning rate on step 1). When the
gradient keeps its sign against the previous one the step grows by
``etaplus``, when it flips the step shrinks by ``etaminus`` and that
element is not moved this step (its stored gradient becomes 0); the step is
clipped to ``step_sizes``. ``param -= sign(grad) * step``. The math runs in
float32 (float16/bfloat16 Parameters keep their own dtype), as in MindSpore.
"""
from __future__ import annotations

from typing import Any

import jax.numpy as jnp

from mindjax.cells.optim.optimizer import Optimizer

__all__ = ["Rprop"]


def _check_pair(value: Any, name: str) -> tuple[Any, Any]:
    if not isinstance(value, tuple):
        raise TypeError(f"For Rprop, {name} must be a tuple, but got {type(value)}.")
    if len(value) != 2:
        raise ValueError(f"For Rprop, {name} must be a tuple with the size of 2, but got {len(value)}.")
    return value


def _check_float_type(value: Any, name: str) -> float:
    if not isinstance(value, float) or isinstance(value, bool):
        raise TypeError(f"For 'Rprop', '{name}' must be a float, got {type(value).__name__} {value!r}")
    return value


class Rprop(Optimizer):
    """Resilient backpropagation with MindSpore's arguments and state names.

    State: ``prev.<param>`` (the last gradient used) and ``step_size.<param>``.

    Arguments:
        params: Parameters or parameter groups (see :class:`Optimizer`).
        learning_rate: fixed, per-step list, or schedule; the initial step size. Default 0.1.
        etas: ``(etaminus, etaplus)`` with ``0 < etaminus < 1 < etaplus``. Default (0.5, 1.2).
        step_sizes: ``(min, max)`` step sizes (floats, min <= max). Default (1e-6, 50.0).
        weight_decay: float >= 0 or a schedule Cell, added to the gradient.

    Raises:
        TypeError: ``etas`` or ``step_sizes`` is not a tuple, or holds non-floats.
        ValueError: a tuple of another size, ``min > max``, or an eta out of range.
    """

    def __init__(self, params: Any, learning_rate: Any = 0.1, etas: tuple[float, float] = (0.5, 1.2),
                 step_sizes: tuple[float, float] = (1e-6, 50.0), weight_decay: Any = 0.0) -> None:
        super().__init__(learning_rate, params, weight_decay)
        etaminus, etaplus = _check_pair(etas, "etas")
        step_min, step_max = _check_pair(step_sizes, "step_sizes")
        if step_min > step_max:
            raise ValueError(f"For Rprop, maximal step size should not be less than minimal step size, "
                             f"but got {step_min} > {step_max}.")
        _check_float_type(etaminus, "etaminus")
        if not 0.0 < etaminus < 1.0:
            raise ValueError(f"For 'Rprop', 'etaminus' must be in range (0.0, 1.0), got {etaminus}")
        _check_float_type(etaplus, "etaplus")
        if etaplus <= 1.0:
            raise ValueError(f"For Rprop, etaplus must be greater than 1.0, but got etaplus {etaplus}.")
        self.etaminus, self.etaplus = etaminus, etaplus
        self.step_size_min = _check_float_type(step_min, "min_step_sizes")
        self.step_size_max = _check_float_type(step_max, "max_step_sizes")
        self.prev = self._clone_state("prev", "zeros")
        self.step_size = self._clone_state("step_size", "zeros")

    def construct(self, gradients: Any) -> bool:
        grads = self._check_gradients(gradients)
        grads = self.scale_grad(self.gradients_centralization(self.decay_weight(grads)))
        lrs = self._lr_per_param(self.get_lr())
        self._increase_global_step()
        first = jnp.reshape(self.global_step._value, ()) == 1
        for param, prev, step_size, grad, lr in zip(self.parameters, self.prev, self.step_size, grads, lrs):
            dtype = param.dtype if param.dtype in (jnp.float16, jnp.bfloat16) else jnp.float32
            lr = jnp.reshape(lr, ()).astype(dtype)
            step = jnp.where(first, jnp.full(step_size.shape, lr, dtype), step_size._value.astype(dtype))
            g = grad.astype(dtype)
            trend = jnp.sign(g * prev._value.astype(dtype))
            factor = jnp.where(trend > 0, jnp.asarray(self.etaplus, dtype),
                               jnp.where(trend < 0, jnp.asarray(self.etaminus, dtype), jnp.asarray(1.0, dtype)))
            step = jnp.clip(step * factor, self.step_size_min, self.step_size_max).astype(dtype)
            used = jnp.where(trend < 0, jnp.zeros_like(g), g)
            param.set_data((param._value.astype(dtype) - jnp.sign(used) * step).astype(param.dtype))
            prev.set_data(used.astype(prev.dtype))
            step_size.set_data(step.astype(step_size.dtype))
        return True
