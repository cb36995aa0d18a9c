"""What this process's compiled programs are doing: the watchdog's view of a multi-process job.

The compiled-call paths (``transforms.jit``, ``train._step``) call
:func:`dispatched` after each dispatch. While a multi-process job's watchdog
runs (``mindjax.communication``, :data:`TRACKING` set), each dispatch is
remembered with one of its outputs until that output is ready: a dispatch
that stays pending means this rank waits, usually in a collective, for
another. The call itself is wrapped in :func:`dispatching`: XLA may run a
program on the calling thread (on CPU, small programs run inline), and then
the call does not return while the collective waits. Without the watchdog a
dispatch costs one counter add.
"""
from __future__ import annotations

import collections
import time
from typing import Any

__all__ = ["DISPATCHES", "TRACKING", "PENDING", "IN_DISPATCH", "dispatching", "dispatched", "oldest_pending"]

# Lists and a deque, so that the watchdog thread sees the main thread's writes.
DISPATCHES: list[int] = [0]
TRACKING: list[bool] = [False]
# (dispatch number, time.monotonic() after the dispatch, an output array of it)
PENDING: collections.deque = collections.deque(maxlen=4096)
# (dispatch number, time.monotonic() when the call began) while a dispatch call is under way, else None.
IN_DISPATCH: list[tuple[int, float] | None] = [None]


class _Dispatching:
    """The context of :func:`dispatching`: a class, not a generator, since it wraps every compiled call."""

    __slots__ = ()

    def __enter__(self) -> None:
        if TRACKING[0]:
            IN_DISPATCH[0] = (DISPATCHES[0] + 1, time.monotonic())

    def __exit__(self, *exc: Any) -> None:
        if TRACKING[0]:
            IN_DISPATCH[0] = None


_DISPATCHING = _Dispatching()


def dispatching() -> _Dispatching:
    """Mark the block (one compiled program's dispatch call) as under way, for :func:`oldest_pending`.

    A call that runs the program inline does not return until the program
    ends; while it waits in a collective it counts as a pending dispatch.
    (The first call of a program also compiles it: a compile longer than
    the collective timeout counts as waiting too.) Without the watchdog it
    does nothing.

    Example:
        >>> with dispatching():
        ...     pass
    """
    return _DISPATCHING


def dispatched(output: Any) -> None:
    """Count one dispatched compiled program; while tracking, remember ``output`` until it is ready.

    Arguments:
        output: one array (or pytree of arrays) the program returns; donated
            state is a poor choice, since the next step consumes it.
    """
    DISPATCHES[0] += 1
    if TRACKING[0]:
        import jax

        leaves = jax.tree_util.tree_leaves(output)
        if leaves and hasattr(leaves[0], "is_ready"):
            PENDING.append((DISPATCHES[0], time.monotonic(), leaves[0]))


def oldest_pending() -> tuple[int, float] | None:
    """``(dispatch number, dispatch time)`` of the oldest dispatch still running, or None.

    Drops the finished entries first. An output consumed by a later program
    (donated) counts as finished: the later dispatch stands for it.
    """
    while PENDING:
        number, at, array = PENDING[0]
        try:
            ready = array.is_ready()
        except Exception:  # deleted by donation
            ready = True
        if not ready:
            return number, at
        PENDING.popleft()
    return IN_DISPATCH[0]
