"""The mutable holder of one array that MindJAX functionalises.

A :class:`Variable` is the unit of state: :class:`~mindjax.Parameter` and the
global random state are Variables. Compiled calls and gradients replace a
Variable's value with a tracer for the duration of a trace (see
``mindjax.cells.state``) and write the result back afterwards, so the Python
object stays mutable while the traced program stays pure.

Reads and writes of ``_value`` can be observed by an access tracker; ``ms.jit``
uses this to discover which Variables a plain function touches.
"""
from __future__ import annotations

import threading
from typing import Any, Callable

from mindjax.common.tensor import Tensor


class _AccessTracker:
    """Records the Variables read or written while it is active."""

    def __init__(self) -> None:
        self.touched: dict[int, "Variable"] = {}
        self.written: dict[int, "Variable"] = {}
        self.originals: dict[int, Any] = {}
        # Variables built while this tracker was active (a Parameter made inside a traced function).
        self.created: set[int] = set()

    def read(self, var: "Variable") -> None:
        if not var._transient:
            self.touched.setdefault(id(var), var)

    def write(self, var: "Variable", old: Any) -> None:
        if not var._transient:
            self.touched.setdefault(id(var), var)
        if id(var) not in self.written:
            self.written[id(var)] = var
            self.originals[id(var)] = old

    def restore_outside(self, keep: set[int]) -> None:
        """Put back the values written to Variables whose ids are not in ``keep``.

        A trace must not leave tracers in Variables that are not its state.
        """
        for key, var in self.written.items():
            if key not in keep:
                object.__setattr__(var, "_raw", self.originals[key])


class _TrackerStack(threading.local):
    """The access trackers of this thread, innermost last (each thread traces on its own)."""

    def __init__(self) -> None:
        self.stack: list[_AccessTracker] = []


_TRACKING = _TrackerStack()


def current_tracker() -> _AccessTracker | None:
    """The innermost access tracker of this thread, or None when nothing is being tracked."""
    stack = _TRACKING.stack
    return stack[-1] if stack else None


class Variable(Tensor):
    """A mutable Tensor that compiled calls treat as state (a Parameter, the random key).

    Unlike a plain Tensor, its reads and writes are seen by the access trackers,
    and its value may be built lazily by ``factory`` on first read.
    """

    _is_mindjax_variable = True
    # True for the short-lived copies that JAX builds when it unflattens a pytree
    # holding Parameters: they are values, not state, so traces do not track them.
    _transient = False
    __slots__ = ("_factory",)

    def __init__(self, value: Any = None, factory: Callable[[], Any] | None = None) -> None:
        object.__setattr__(self, "_raw", value)
        object.__setattr__(self, "_factory", factory)
        for tracker in _TRACKING.stack:
            tracker.created.add(id(self))

    @property
    def _value(self) -> Any:
        raw = self._raw
        if raw is None and self._factory is not None:
            raw = self._factory()
            object.__setattr__(self, "_raw", raw)
        stack = _TRACKING.stack
        if stack:
            stack[-1].read(self)
        return raw

    @_value.setter
    def _value(self, new: Any) -> None:
        stack = _TRACKING.stack
        if stack:
            stack[-1].write(self, self._raw)
        object.__setattr__(self, "_raw", new)


def track_access() -> _AccessTracker:
    """Start recording Variable accesses; pair with :func:`stop_tracking`."""
    tracker = _AccessTracker()
    _TRACKING.stack.append(tracker)
    return tracker


def stop_tracking(tracker: _AccessTracker) -> None:
    """Stop the innermost tracker (which must be ``tracker``)."""
    popped = _TRACKING.stack.pop()
    assert popped is tracker
