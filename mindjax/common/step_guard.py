"""The bad-step guard of ``Model``'s compiled training step, as the code inside the step sees it.

``Model``'s step (``mindjax.train._step``) keeps the state a step started with
when its loss is not finite, a value check failed, or an earlier step failed:
each Variable's new value goes through one select on that flag at the end of
the step. That alone makes XLA copy optimizer state: a weight's update reads
the *new* moment, which XLA recomputes from the old moment inside the weight's
update, so the old moment must outlive the moment's own in-place (donated)
write, and every such buffer is copied first (8 MB more memory traffic per
step on an MLP 784-512-512-10). An optimizer that reads its new state again
passes it through :func:`guarded` first; the weight's update then reads the
selected moment, and no copy is needed. The values are the same either way.

Outside a guarded step (PYNATIVE eager code, ``ms.jit``, a directly called
``TrainOneStepCell``), :func:`guarded` returns the new value unchanged.

Example:
    >>> import jax.numpy as jnp
    >>> float(guarded(jnp.float32(1.0), jnp.float32(2.0)))  # no guarded step: the new value
    2.0
"""
from __future__ import annotations

import contextlib
import threading
from typing import Any, Iterator, Sequence

import jax.numpy as jnp

__all__ = ["StepGuard", "step_guard", "note_loss", "guarded"]


class StepGuard:
    """What a guarded step knows of its own failure while it is traced.

    Attributes:
        loss: the loss a training wrapper noted (an array), or None.
        keep_value: the flag :func:`guarded` selected on (computed once), or None.
        checks_seen: how many value checks ``keep_value`` covers.
        selected: the values :func:`guarded` returned, by id (selected on ``keep_value`` already).
    """

    __slots__ = ("halted", "checks", "guard_loss", "loss", "keep_value", "checks_seen", "selected")

    def __init__(self, halted: Any, checks: Sequence[Any], guard_loss: bool) -> None:
        self.halted = halted
        self.checks = checks
        self.guard_loss = guard_loss
        self.loss: Any = None
        self.keep_value: Any = None
        self.checks_seen = 0
        # id -> value of what guarded() returned on keep_value: already selected, nothing to add.
        self.selected: dict[int, Any] = {}

    def keep(self) -> Any:
        """A traced bool: the step keeps its old state (as far as is known at this point of the trace).

        Computed once: every :func:`guarded` value of the step selects on the same flag, and
        the step's final select can reuse it (XLA then folds the nested selects).
        """
        if self.keep_value is None:
            self.keep_value = self._compute()
            self.checks_seen = len(self.checks)
        return self.keep_value

    def _compute(self) -> Any:
        keep = self.halted
        if self.checks:
            keep = keep | jnp.any(jnp.stack([jnp.asarray(c.failed) for c in self.checks]))
        loss = self.loss
        if self.guard_loss and hasattr(loss, "dtype") and jnp.issubdtype(loss.dtype, jnp.inexact):
            keep = keep | jnp.logical_not(jnp.all(jnp.isfinite(loss)))
        return keep


_STATE = threading.local()


def _current() -> StepGuard | None:
    stack = getattr(_STATE, "stack", None)
    return stack[-1] if stack else None


@contextlib.contextmanager
def step_guard(halted: Any, checks: Sequence[Any], guard_loss: bool = True) -> Iterator[StepGuard]:
    """Trace the block as one guarded training step (used by ``Model``'s compiled step).

    Arguments:
        halted: the traced flag of an earlier failed step.
        checks: the list that :func:`mindjax.common.checks.collect_checks` fills for this trace.
        guard_loss: whether a non-finite loss keeps the old state too.
    """
    stack = getattr(_STATE, "stack", None)
    if stack is None:
        stack = _STATE.stack = []
    guard = StepGuard(halted, checks, guard_loss)
    stack.append(guard)
    try:
        yield guard
    finally:
        stack.pop()


def note_loss(loss: Any) -> None:
    """Tell the guarded step its loss (a training wrapper calls this once the loss is computed)."""
    guard = _current()
    if guard is not None:
        if isinstance(loss, (tuple, list)):
            loss = loss[0] if loss else None
        guard.loss = getattr(loss, "_raw", loss)  # a Tensor's array
        guard.keep_value = None  # a later loss (a second wrapper) makes a new flag
        guard.selected = {}


def guarded(old: Any, new: Any) -> Any:
    """``new``, or inside a guarded step whose loss is known, ``old`` where the step keeps its state.

    Arguments:
        old: the state's value when the step began.
        new: its updated value.
    """
    guard = _current()
    if guard is None or guard.loss is None:
        return new
    out = jnp.where(guard.keep(), old, new)
    guard.selected[id(out)] = out
    return out
