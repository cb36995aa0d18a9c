"""``mindspore.runtime.event``: ``Event``, a point in a stream's work, with host-side timing.

XLA offers no device events; an Event recorded on a stream waits for the
work dispatched so far and, with ``enable_timing``, takes the host clock then,
so ``elapsed_time`` measures the device work between two records.
"""
from __future__ import annotations

import time
from typing import Any

from mindjax.runtime.stream import Stream, _wait_devices

__all__ = ["Event"]


class Event:
    """A stream event (MindSpore's ``mindspore.runtime.Event``).

    Arguments:
        enable_timing (bool): whether :meth:`elapsed_time` may be used. Default: ``False``.
        blocking (bool): accepted (:meth:`synchronize` always blocks). Default: ``False``.

    Example:
        >>> import mindjax as ms
        >>> start, end = ms.runtime.Event(enable_timing=True), ms.runtime.Event(enable_timing=True)
        >>> start.record(); end.record()
        >>> start.elapsed_time(end) >= 0
        True
    """

    def __init__(self, enable_timing: bool = False, blocking: bool = False) -> None:
        for name, value in (("enable_timing", enable_timing), ("blocking", blocking)):
            if not isinstance(value, bool):
                raise TypeError(f"For 'Event', '{name}' must be a bool, but got {type(value).__name__}.")
        self.enable_timing = enable_timing
        self.blocking = blocking
        self._time: float | None = None

    def record(self, stream: Stream | None = None) -> None:
        """Record the event on ``stream`` (the current one when None)."""
        if stream is not None and not isinstance(stream, Stream):
            raise TypeError(f"For 'Event.record', 'stream' must be a Stream or None, but got "
                            f"{type(stream).__name__}.")
        _wait_devices()
        self._time = time.perf_counter()

    def wait(self, stream: Stream | None = None) -> None:
        """Make ``stream``'s later work wait for the event: ordered already on the device's one stream."""

    def synchronize(self) -> None:
        """Wait until the work before the event has finished (done when it was recorded)."""

    def query(self) -> bool:
        """Whether the work before the event has finished: True once recorded."""
        return self._time is not None

    def elapsed_time(self, end_event: "Event") -> float:
        """Milliseconds from this event to ``end_event``.

        Raises:
            TypeError: ``end_event`` is not an Event.
            RuntimeError: either event was made without ``enable_timing`` or not recorded.
        """
        if not isinstance(end_event, Event):
            raise TypeError(f"For 'elapsed_time', 'end_event' must be an Event, but got "
                            f"{type(end_event).__name__}.")
        if not (self.enable_timing and end_event.enable_timing):
            raise RuntimeError("For 'elapsed_time', both events must be created with enable_timing=True.")
        if self._time is None or end_event._time is None:
            raise RuntimeError("For 'elapsed_time', both events must be recorded first.")
        return (end_event._time - self._time) * 1000.0

    def __repr__(self) -> str:
        return f"Event(enable_timing={self.enable_timing}, blocking={self.blocking})"
