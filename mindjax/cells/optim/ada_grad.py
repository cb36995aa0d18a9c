"""``Adagrad`` (MindSpore's ``ApplyAdagrad``), on ``optax.scale_by_rss``.

``accum += grad**2`` (starting at ``accum``) and
``param -= lr * grad / sqrt(accum)``: ``optax.scale_by_rss`` with ``eps=0``
and the initial value as its accumulator; its state is ``accum.<param>``.
"""
from __future__ import annotations

from typing import Any

import jax
import optax

from mindjax.cells.optim._checks import check_bool, check_float
from mindjax.cells.optim.optimizer import Optimizer

__all__ = ["Adagrad"]


class Adagrad(Optimizer):
    """Adagrad with MindSpore's arguments (note: ``accum`` comes before ``learning_rate``).

    Arguments:
        params: Parameters or parameter groups (see :class:`Optimizer`).
        accum: the accumulator's initial value (float >= 0). Default 0.1.
        learning_rate: fixed, per-step list, or schedule. Default 0.001.
        update_slots: update the accumulator (else it stays at its value).
        loss_scale: gradients are divided by it.
        weight_decay: float >= 0 or a schedule Cell.
    """

    def __init__(self, params: Any, accum: float = 0.1, learning_rate: Any = 0.001, update_slots: bool = True,
                 loss_scale: float = 1.0, weight_decay: Any = 0.0) -> None:
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        where = self._where()
        accum = check_float(accum, "accum", where)
        self.update_slots = check_bool(update_slots, "update_slots", where)
        self.accum = self._clone_state("accum", accum)

    def construct(self, grads: Any) -> bool:
        grads = self._check_gradients(grads)
        grads = self.scale_grad(self.gradients_centralization(self.decay_weight(grads)))
        lrs = self._lr_per_param(self.get_lr())
        self._increase_global_step()
        tx = optax.scale_by_rss(eps=0.0)
        for param, accum, grad, lr in zip(self.parameters, self.accum, grads, lrs):
            if self.update_slots:
                scaled, state = tx.update(grad, optax.ScaleByRssState(sum_of_squares=accum._value))
                accum.set_data(state.sum_of_squares)
            else:
                scaled = grad * jax.lax.rsqrt(accum._value)
            param.set_data(param._value - lr.astype(scaled.dtype) * scaled)
        return True
