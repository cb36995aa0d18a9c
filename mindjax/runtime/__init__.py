"""``mindspore.runtime``: device memory, streams and events, and how work is launched.

MindSpore's module layout: :mod:`~mindjax.runtime.memory`,
:mod:`~mindjax.runtime.stream`, :mod:`~mindjax.runtime.event` and
:mod:`~mindjax.runtime.executor`. Stream and device limits (``set_stream_limit``,
``set_device_limit``...) divide Ascend cube/vector cores and raise
NotImplementedError.
"""
from __future__ import annotations

from typing import Any

from mindjax.runtime.event import Event
from mindjax.runtime.executor import (dispatch_threads_num, launch_blocking, set_cpu_affinity,
                                      set_kernel_launch_capture, set_kernel_launch_group)
from mindjax.runtime.memory import (MemPool, PluggableAllocator, empty_cache, max_memory_allocated,
                                    max_memory_reserved, memory_allocated, memory_replay, memory_reserved,
                                    memory_stats, memory_summary, reset_max_memory_allocated,
                                    reset_max_memory_reserved, reset_peak_memory_stats, set_memory, use_mem_pool)
from mindjax.runtime.stream import (Stream, StreamCtx, communication_stream, current_stream, default_stream,
                                    set_cur_stream, synchronize)

__all__ = ["Event", "MemPool", "PluggableAllocator", "Stream", "StreamCtx", "StreamLimitCtx",
           "communication_stream", "current_stream", "default_stream", "dispatch_threads_num", "empty_cache",
           "get_device_limit", "get_stream_limit", "launch_blocking", "max_memory_allocated",
           "max_memory_reserved", "memory_allocated", "memory_replay", "memory_reserved", "memory_stats",
           "memory_summary", "reset_max_memory_allocated", "reset_max_memory_reserved", "reset_peak_memory_stats",
           "reset_stream_limit", "set_cpu_affinity", "set_cur_stream", "set_device_limit",
           "set_kernel_launch_capture", "set_kernel_launch_group", "set_memory", "set_stream_limit",
           "synchronize", "use_mem_pool"]

_CORES = ("divides Ascend cube/vector cores between streams; XLA schedules a device's work itself")


def _ascend_only(name: str) -> NotImplementedError:
    return NotImplementedError(f"'{name}' {_CORES}.")


class StreamLimitCtx:
    """MindSpore's per-stream Ascend core limit: not available (raises NotImplementedError)."""

    def __init__(self, stream: Stream, cube_num: int = -1, vector_num: int = -1) -> None:
        raise _ascend_only("StreamLimitCtx")


def set_stream_limit(stream: Stream, cube_num: int = -1, vector_num: int = -1) -> None:
    """MindSpore's per-stream Ascend core limit: not available (raises NotImplementedError)."""
    raise _ascend_only("set_stream_limit")


def get_stream_limit(stream: Stream) -> Any:
    """MindSpore's per-stream Ascend core limit: not available (raises NotImplementedError)."""
    raise _ascend_only("get_stream_limit")


def reset_stream_limit(stream: Stream) -> None:
    """MindSpore's per-stream Ascend core limit: not available (raises NotImplementedError)."""
    raise _ascend_only("reset_stream_limit")


def set_device_limit(device: Any, cube_num: int = -1, vector_num: int = -1) -> None:
    """MindSpore's per-device Ascend core limit: not available (raises NotImplementedError)."""
    raise _ascend_only("set_device_limit")


def get_device_limit(device: Any) -> Any:
    """MindSpore's per-device Ascend core limit: not available (raises NotImplementedError)."""
    raise _ascend_only("get_device_limit")
