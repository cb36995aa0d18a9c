"""Loss scaling inside the compiled training step.

``TrainOneStepWithLossScaleCell`` multiplies the loss's cotangent by the
scale, divides the gradients by it, checks them for Inf/NaN and applies the
optimizer only when they are finite. The skip is a select over the
optimizer's state (no Python branch on a tensor value), so the whole step,
scale update included, stays one XLA program.

Example:
    >>> update = nn.DynamicLossScaleUpdateCell(2**12, 2, 1000)              # doctest: +SKIP
    >>> step = nn.TrainOneStepWithLossScaleCell(net_with_loss, opt, update)  # doctest: +SKIP
    >>> loss, overflow, scale = step(x, y)                                  # doctest: +SKIP
"""
from __future__ import annotations

from typing import Any, Callable

import jax
import jax.numpy as jnp

from mindjax.cells.cell import Cell
from mindjax.cells.parameter import Parameter
from mindjax.cells.state import collect_variables
from mindjax.cells.wrap._grad import vjp_of_variables
from mindjax.cells.wrap.cell_wrapper import TrainOneStepCell

__all__ = ["DynamicLossScaleUpdateCell", "FixedLossScaleUpdateCell", "TrainOneStepWithLossScaleCell"]


def all_finite_tree(tree: Any) -> Any:
    """True (a scalar bool array) when every element of every array in ``tree`` is finite.

    Integer and bool arrays count as finite; works inside compiled code.
    """
    leaves = [jnp.asarray(x) for x in jax.tree_util.tree_leaves(tree)]
    flags = [jnp.all(jnp.isfinite(x)) for x in leaves if jnp.issubdtype(x.dtype, jnp.inexact)]
    if not flags:
        return jnp.asarray(True)
    return jnp.all(jnp.stack(flags))


class DynamicLossScaleUpdateCell(Cell):
    """MindSpore's dynamic loss-scale rule, applied to the ``scale_sense`` Parameter.

    On overflow the scale is divided by ``scale_factor`` (not below 1); after
    ``scale_window`` steps without overflow it is multiplied by it.

    Arguments:
        loss_scale_value: the initial scale.
        scale_factor: the factor to lower or raise the scale by.
        scale_window: overflow-free steps before the scale is raised.
    """

    def __init__(self, loss_scale_value: float, scale_factor: float, scale_window: int) -> None:
        super().__init__()
        if not isinstance(scale_window, int) or isinstance(scale_window, bool) or scale_window <= 0:
            raise ValueError(f"For 'DynamicLossScaleUpdateCell', 'scale_window' must be a positive int, "
                             f"got {scale_window!r}")
        if not scale_factor > 1:
            raise ValueError(f"For 'DynamicLossScaleUpdateCell', 'scale_factor' must be > 1, got {scale_factor!r}")
        self.scale_window = int(scale_window)
        self.scale_factor = float(scale_factor)
        self.loss_scale_value = loss_scale_value
        self.cur_iter = Parameter(jnp.asarray(1, jnp.int32), name="current_iterator_step",
                                  requires_grad=False)
        self.last_overflow_iter = Parameter(jnp.asarray(0, jnp.int32), name="last_overflow_iterator_step",
                                            requires_grad=False)

    def get_loss_scale(self) -> float:
        """The initial loss scale."""
        return self.loss_scale_value

    def construct(self, loss_scale: Parameter, overflow: Any) -> Any:
        """Update ``loss_scale`` in place from ``overflow``; return ``overflow``."""
        scale = jnp.asarray(loss_scale)
        factor = jnp.asarray(self.scale_factor, scale.dtype)
        cur = jnp.asarray(self.cur_iter)
        last = jnp.asarray(self.last_overflow_iter)
        on_overflow = jnp.where(overflow, jnp.maximum(scale / factor, jnp.asarray(1.0, scale.dtype)), scale)
        should_inc = (cur - last) >= self.scale_window
        self.last_overflow_iter.set_data(jnp.where(overflow | should_inc, cur, last))
        new_scale = jnp.where(should_inc & ~overflow, on_overflow * factor, on_overflow)
        loss_scale.set_data(new_scale)
        self.cur_iter.set_data(cur + 1)
        return overflow


class FixedLossScaleUpdateCell(Cell):
    """A constant loss scale: the update leaves it unchanged.

    Arguments:
        loss_scale_value: the scale.
    """

    def __init__(self, loss_scale_value: float) -> None:
        super().__init__()
        self.loss_scale_value = loss_scale_value

    def get_loss_scale(self) -> float:
        """The loss scale."""
        return self.loss_scale_value

    def construct(self, _: Any, overflow: Any) -> Any:
        """Return ``overflow`` unchanged."""
        return overflow


def _apply_unless(skip: Any, update: Callable[[], Any], variables: list[Any]) -> None:
    """Run ``update`` and keep the old value of every Variable it wrote where ``skip`` is true."""
    before = [v._raw for v in variables]
    update()
    for var, old in zip(variables, before):
        new = var._raw
        if new is not old:
            var._value = jnp.where(skip, old, new)


class TrainOneStepWithLossScaleCell(TrainOneStepCell):
    """A training step with loss scaling and overflow skipping.

    Arguments:
        network: a Cell returning the loss.
        optimizer: the optimizer Cell.
        scale_sense: a ``DynamicLossScaleUpdateCell`` / ``FixedLossScaleUpdateCell``
            (the scale lives in the ``scale_sense`` Parameter and is updated
            inside the step), or a Tensor holding a fixed scale.

    Returns (of a call):
        ``(loss, overflow, loss_scale)``: ``loss_scale`` is the scale after this step's
        update (what the next step uses), as MindSpore returns it.
    """

    def __init__(self, network: Cell, optimizer: Cell, scale_sense: Any) -> None:
        super().__init__(network, optimizer, sens=None)
        self.loss_scaling_manager = None
        if isinstance(scale_sense, Cell):
            self.loss_scaling_manager = scale_sense
            value = jnp.asarray(scale_sense.get_loss_scale(), jnp.float32)
        elif isinstance(scale_sense, (jax.Array, Parameter)) or hasattr(scale_sense, "shape"):
            value = jnp.asarray(scale_sense, jnp.float32)
            if value.shape not in ((), (1,)):
                raise ValueError(f"For 'TrainOneStepWithLossScaleCell', 'scale_sense' must be a scalar or "
                                 f"shape (1,) Tensor, got shape {value.shape}")
        else:
            raise TypeError(f"For 'TrainOneStepWithLossScaleCell', 'scale_sense' must be a Cell or a Tensor, "
                            f"got {type(scale_sense).__name__}")
        self.scale_sense = Parameter(value, name="scale_sense", requires_grad=False)
        self._optimizer_state = None

    def set_sense_scale(self, sens: Any) -> None:
        """Replace the loss scale."""
        self.scale_sense.set_data(jnp.asarray(sens, jnp.float32))

    def get_overflow_status(self, status: Any, compute_output: Any) -> Any:
        """True (a bool array) when ``compute_output`` holds an Inf or NaN."""
        return jnp.logical_not(all_finite_tree(compute_output))

    def process_loss_scale(self, overflow: Any) -> Any:
        """Update the scale from ``overflow`` (through the update Cell) and return ``overflow``."""
        if self.loss_scaling_manager is not None:
            return self.loss_scaling_manager(self.scale_sense, overflow)
        return overflow

    def construct(self, *inputs: Any) -> tuple[Any, Any, Any]:
        """One step; return ``(loss, overflow, loss_scale)``."""
        scaling_sens = jnp.asarray(self.scale_sense)
        loss, grads, _ = vjp_of_variables(self.network, self.weights, inputs, sens=scaling_sens)
        inv = 1.0 / scaling_sens
        grads = tuple(g * inv.astype(g.dtype) for g in grads)
        grads = self.grad_reducer(grads)
        cond = self.get_overflow_status(None, grads)
        overflow = self.process_loss_scale(cond)
        state = collect_variables(self.optimizer)
        _apply_unless(overflow, lambda: self.optimizer(grads), state)
        # MindSpore returns its scale_sense Parameter, which the update Cell has
        # already written: the scale for the next step, not the one just used.
        return loss, cond, jnp.asarray(self.scale_sense)
