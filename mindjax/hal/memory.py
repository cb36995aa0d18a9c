"""``mindspore.hal`` memory counters over ``jax.Device.memory_stats()``.

XLA's allocator counts bytes in use (``bytes_in_use``), their peak
(``peak_bytes_in_use``) and the pool it holds (``bytes_reserved``,
``peak_bytes_reserved`` where the backend reports them). It cannot reset its
peaks: after ``reset_peak_memory_stats`` a peak reads the peak reached since,
when that passed the old one, else the larger of the bytes in use then and
now (a lower bound of the true peak).
"""
from __future__ import annotations

from typing import Any

from mindjax.hal.device import devices_of

__all__ = ["memory_stats", "memory_allocated", "max_memory_allocated", "memory_reserved", "max_memory_reserved",
           "memory_summary", "empty_cache", "reset_peak_memory_stats", "reset_max_memory_allocated",
           "reset_max_memory_reserved"]

# Per device id: the allocator's (in use, peak) at the last reset, for "allocated" and "reserved".
_RESETS: dict[tuple[str, int], tuple[int, int]] = {}


def _raw(device_target: str | None, who: str) -> dict[str, int]:
    devices = devices_of(device_target, who)
    stats = devices[0].memory_stats() if devices else None
    return dict(stats or {})


def _key(device_target: str | None, kind: str, who: str) -> tuple[str, int]:
    devices = devices_of(device_target, who)
    return (kind, devices[0].id if devices else -1)


def _counters(stats: dict[str, int], kind: str) -> tuple[int, int]:
    """(now, peak) of ``kind`` ("allocated" or "reserved") in XLA's counters; 0 where absent."""
    if kind == "allocated":
        now = stats.get("bytes_in_use", 0)
        return now, stats.get("peak_bytes_in_use", now)
    now = stats.get("bytes_reserved", stats.get("pool_bytes", stats.get("bytes_in_use", 0)))
    return now, stats.get("peak_bytes_reserved", stats.get("peak_pool_bytes", max(now, _counters(stats, "allocated")[1])))


def _peak(stats: dict[str, int], kind: str, key: tuple[str, int]) -> int:
    now, peak = _counters(stats, kind)
    if key not in _RESETS:
        return int(peak)
    now_then, peak_then = _RESETS[key]
    return int(peak if peak > peak_then else max(now_then, now))


def _reset(device_target: str | None, kind: str, who: str) -> None:
    _RESETS[_key(device_target, kind, who)] = _counters(_raw(device_target, who), kind)


def memory_stats(device_target: str | None = None) -> dict[str, Any]:
    """MindSpore's memory statistics (bytes) of the first device of ``device_target``.

    Returns:
        ``total_reserved_memory``, ``total_allocated_memory``, ``total_idle_memory``,
        ``total_eager_free_memory``, ``max_reserved_memory``, ``max_allocated_memory``, and the
        (empty) ``common_mem_pool_stats`` / ``persistent_mem_pool_stats`` MindSpore's pool adds.

    Raises:
        ValueError: an unknown ``device_target``.
    """
    return _stats(device_target, "memory_stats")


def _stats(device_target: str | None, who: str) -> dict[str, Any]:
    stats = _raw(device_target, who)
    allocated, _ = _counters(stats, "allocated")
    reserved, _ = _counters(stats, "reserved")
    return {
        "total_reserved_memory": int(reserved),
        "total_allocated_memory": int(allocated),
        "total_idle_memory": int(max(reserved - allocated, 0)),
        "total_eager_free_memory": 0,
        "max_reserved_memory": _peak(stats, "reserved", _key(device_target, "reserved", who)),
        "max_allocated_memory": _peak(stats, "allocated", _key(device_target, "allocated", who)),
        "common_mem_pool_stats": {"block_unit_size": 0, "block_counts": 0, "blocks_info": {}},
        "persistent_mem_pool_stats": {"block_counts": 0, "block_unit_size": 0, "blocks_info": {}},
    }


def memory_allocated(device_target: str | None = None) -> int:
    """Bytes held by live arrays on the first device of ``device_target`` (0 where not counted)."""
    return _stats(device_target, "memory_allocated")["total_allocated_memory"]


def max_memory_allocated(device_target: str | None = None) -> int:
    """The peak of :func:`memory_allocated` (since the last reset)."""
    return _stats(device_target, "max_memory_allocated")["max_allocated_memory"]


def memory_reserved(device_target: str | None = None) -> int:
    """Bytes the allocator holds on the first device of ``device_target`` (0 where not counted)."""
    return _stats(device_target, "memory_reserved")["total_reserved_memory"]


def max_memory_reserved(device_target: str | None = None) -> int:
    """The peak of :func:`memory_reserved` (since the last reset)."""
    return _stats(device_target, "max_memory_reserved")["max_reserved_memory"]


def memory_summary(device_target: str | None = None) -> str:
    """A table of :func:`memory_stats`'s counters, in bytes."""
    stats = _stats(device_target, "memory_summary")
    rows = [(name, value) for name, value in stats.items() if isinstance(value, int)]
    width = max(len(name) for name, _ in rows)
    return "\n".join(["=" * (width + 16), f"{'Metric':<{width}}  {'Bytes':>12}", "-" * (width + 16)]
                     + [f"{name:<{width}}  {value:>12}" for name, value in rows] + ["=" * (width + 16)])


def empty_cache() -> None:
    """Accepted: XLA's allocator frees a buffer when its last array goes; there is no cache to empty."""


def reset_peak_memory_stats(device_target: str | None = None) -> None:
    """Start the peaks of allocated and reserved memory again from now."""
    _reset(device_target, "allocated", "reset_peak_memory_stats")
    _reset(device_target, "reserved", "reset_peak_memory_stats")


def reset_max_memory_allocated(device_target: str | None = None) -> None:
    """Start the peak of :func:`memory_allocated` again from now."""
    _reset(device_target, "allocated", "reset_max_memory_allocated")


def reset_max_memory_reserved(device_target: str | None = None) -> None:
    """Start the peak of :func:`memory_reserved` again from now."""
    _reset(device_target, "reserved", "reset_max_memory_reserved")
