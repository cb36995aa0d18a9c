"""``mindspore.runtime.stream``: streams, as far as JAX has them.

JAX runs each device's programs on streams XLA owns, in dispatch order, and
offers no user streams. So there is one stream per device: ``Stream()``,
``current_stream()`` and ``default_stream()`` all stand for it, work on it is
ordered as MindSpore's default stream orders it, and ``synchronize`` waits for
everything dispatched so far (as ``jax.block_until_ready`` on every output would).
"""
from __future__ import annotations

from typing import Any

import jax
import numpy as np

__all__ = ["Stream", "synchronize", "set_cur_stream", "current_stream", "default_stream", "communication_stream",
           "StreamCtx"]


def _wait_devices() -> None:
    """Wait for the work dispatched so far: a program runs after all earlier ones on its device."""
    jax.effects_barrier()
    for device in jax.local_devices():
        jax.device_put(np.zeros((), np.int8), device).block_until_ready()


class Stream:
    """A device stream (MindSpore's ``mindspore.runtime.Stream``): here, the device's one ordered stream.

    Arguments:
        priority (int): accepted (XLA orders a device's work itself). Default: ``0``.
        kwargs: MindSpore's ``stream`` (an existing Stream to stand for) is accepted.

    Example:
        >>> import mindjax as ms
        >>> s = ms.runtime.Stream()
        >>> s.query(), s == ms.runtime.current_stream()
        (True, True)
    """

    def __init__(self, priority: int = 0, **kwargs: Any) -> None:
        if isinstance(priority, bool) or not isinstance(priority, int):
            raise TypeError(f"For 'Stream', 'priority' must be an int, but got {type(priority).__name__}.")
        unknown = set(kwargs) - {"stream"}
        if unknown:
            raise TypeError(f"For 'Stream', got unexpected keyword arguments {sorted(unknown)}.")
        self.priority = priority
        self.device_id = jax.local_devices()[0].id
        self.id = 0

    @property
    def stream_id(self) -> int:
        """The stream's id: 0, the device's stream."""
        return self.id

    def query(self) -> bool:
        """Whether all work on the stream has finished (it waits for it: XLA exposes no non-blocking query)."""
        _wait_devices()
        return True

    def synchronize(self) -> None:
        """Wait for all work dispatched to the stream."""
        _wait_devices()

    def wait_stream(self, stream: "Stream") -> None:
        """Order this stream after ``stream``: always so, the device has one stream."""
        if not isinstance(stream, Stream):
            raise TypeError(f"For 'wait_stream', 'stream' must be a Stream, but got {type(stream).__name__}.")

    def record_event(self, event: Any = None) -> Any:
        """Record ``event`` (a new one when None) on this stream and return it."""
        from mindjax.runtime.event import Event  # event imports this module

        event = Event() if event is None else event
        event.record(self)
        return event

    def wait_event(self, event: Any) -> None:
        """Make later work wait for ``event``: ordered already on the device's one stream."""

    def __eq__(self, other: Any) -> bool:
        return isinstance(other, Stream) and (other.device_id, other.id) == (self.device_id, self.id)

    def __hash__(self) -> int:
        return hash((self.device_id, self.id))

    def __repr__(self) -> str:
        return f"Stream(device_id={self.device_id}, stream_id={self.id})"


def synchronize() -> None:
    """Wait for all work dispatched to the devices so far."""
    _wait_devices()


def set_cur_stream(stream: Stream) -> None:
    """Make ``stream`` current: every Stream is the device's one stream, so this only checks the type.

    Raises:
        TypeError: ``stream`` is not a Stream.
    """
    if not isinstance(stream, Stream):
        raise TypeError(f"For 'set_cur_stream', the argument 'stream' must be a Stream, but got "
                        f"{type(stream).__name__}.")


def current_stream() -> Stream:
    """The current stream: the device's one stream."""
    return Stream()


def default_stream() -> Stream:
    """The default stream: the device's one stream."""
    return Stream()


def communication_stream() -> Stream:
    """The stream collectives run on: XLA schedules them on the device's stream too."""
    return Stream()


class StreamCtx:
    """``with StreamCtx(stream):`` run the block on ``stream`` (the device's one stream).

    Raises:
        TypeError: ``ctx_stream`` is neither a Stream nor None.
    """

    def __init__(self, ctx_stream: Stream | None) -> None:
        if ctx_stream is not None and not isinstance(ctx_stream, Stream):
            raise TypeError(f"For 'StreamCtx', 'ctx_stream' must be a Stream or None, but got "
                            f"{type(ctx_stream).__name__}.")
        self.stream = ctx_stream

    def __enter__(self) -> "StreamCtx":
        return self

    def __exit__(self, *exc: Any) -> None:
        return None
