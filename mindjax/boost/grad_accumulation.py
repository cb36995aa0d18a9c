"""``mindspore.boost.grad_accumulation``: ``GradientAccumulation``, apply the optimizer every N steps.

Example:
    >>> import numpy as np
    >>> import mindjax as ms
    >>> from mindjax import nn
    >>> from mindjax.boost import GradientAccumulation
    >>> net = nn.Dense(2, 1)
    >>> accumulate = GradientAccumulation(2, nn.SGD(net.trainable_params(), 0.1))
    >>> grads = tuple(ms.ops.ones_like(p) for p in net.trainable_params())
    >>> _ = accumulate(ms.Tensor(1.0), grads)  # first step: accumulated, weights unchanged
"""
from __future__ import annotations

from typing import Any, Callable

import jax
import jax.numpy as jnp

from mindjax.cells.cell import Cell
from mindjax.cells.parameter import Parameter
from mindjax.cells.state import collect_variables
from mindjax.ops import functional as F
from mindjax.ops.composite import HyperMap, MultitypeFuncGraph
from mindjax.ops.primitives_extra import AssignAdd

__all__ = ["GradientAccumulation", "gradient_accumulation_op", "gradient_clear_op"]

gradient_accumulation_op = MultitypeFuncGraph("gradient_accumulation_op")
gradient_clear_op = MultitypeFuncGraph("gradient_clear_op")


@gradient_accumulation_op.register("Int64", "Tensor", "Tensor")
def _cumulative_grad_process(accumulation_step: int, cumulative_grad: Parameter, grad: Any) -> Any:
    """Add ``grad / accumulation_step`` to the accumulated gradient."""
    AssignAdd()(cumulative_grad, F._arr(grad) / accumulation_step)
    return cumulative_grad


@gradient_clear_op.register("Tensor")
def _clear_grad(cumulative_grad: Parameter) -> Any:
    """Zero the accumulated gradient."""
    return F.assign(cumulative_grad, jnp.zeros_like(F._arr(cumulative_grad)))


class GradientAccumulation(Cell):
    """Accumulate gradients over ``max_accumulation_step`` calls, then apply ``optimizer`` to their mean.

    Arguments:
        max_accumulation_step: how many steps to accumulate (a positive int).
        optimizer: the optimizer Cell; its ``parameters`` are the weights.

    Inputs:
        ``(loss, grads)``: the step's loss and the gradients of the optimizer's parameters.

    Returns:
        ``loss``, unchanged. Every ``max_accumulation_step``-th call applies the optimizer
        to the accumulated mean gradient and clears it.

    Raises:
        TypeError: ``max_accumulation_step`` is not a positive int.
    """

    def __init__(self, max_accumulation_step: int, optimizer: Cell) -> None:
        super().__init__()
        if isinstance(max_accumulation_step, bool) or not isinstance(max_accumulation_step, int) \
                or max_accumulation_step < 1:
            raise TypeError(f"For 'GradientAccumulation', 'max_accumulation_step' must be a positive int, "
                            f"got {max_accumulation_step!r}")
        self._max_accumulation_step = max_accumulation_step
        self.optimizer = optimizer
        self.weights = optimizer.parameters
        self.hyper_map = HyperMap()
        self._grad_accumulation = self.weights.clone(prefix="grad_accumulation", init="zeros")
        self._accumulation_step = Parameter(jnp.array(0, jnp.int32), name="accumulation_step",
                                            requires_grad=False)

    def construct(self, loss: Any, grads: Any) -> Any:
        loss = F.depend(loss, self.hyper_map(F.partial(gradient_accumulation_op, self._max_accumulation_step),
                                             self._grad_accumulation, grads))
        step = F._arr(self._accumulation_step) + 1
        full = step >= self._max_accumulation_step
        _run_if(full, lambda: self.optimizer(self._grad_accumulation), collect_variables(self.optimizer))
        _run_if(full, lambda: self.hyper_map(F.partial(gradient_clear_op), self._grad_accumulation),
                list(self._grad_accumulation))
        F.assign(self._accumulation_step, jnp.where(full, 0, step))
        return loss


def _run_if(condition: Any, fn: Callable[[], Any], variables: list[Parameter]) -> None:
    """Run ``fn`` (which writes ``variables``) only where ``condition`` holds.

    On a concrete condition this is a Python ``if``; while tracing, ``fn`` runs and each
    Variable keeps its old value where the condition is false, so one program serves
    both cases.
    """
    if not isinstance(condition, jax.core.Tracer):
        if bool(condition):
            fn()
        return
    saved = [F._arr(v) for v in variables]
    fn()
    for var, old in zip(variables, saved):
        F.assign(var, jnp.where(condition, F._arr(var), old))
