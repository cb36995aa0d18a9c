"""``mindspore.runtime.memory``: the device memory counters and MindSpore's pool settings.

The counters are :mod:`mindjax.hal.memory`'s (XLA's allocator, through
``jax.Device.memory_stats()``; all 0 on XLA:CPU, as MindSpore reports on CPU),
for the current device. ``set_memory`` checks MindSpore's size strings; XLA
sizes its own pool (``XLA_PYTHON_CLIENT_MEM_FRACTION``/``..._PREALLOCATE``).
MindSpore's pluggable allocators and memory pools are Ascend's.
"""
from __future__ import annotations

import re
from typing import Any

from mindjax import context
from mindjax.hal import memory as _hal

__all__ = ["set_memory", "memory_stats", "memory_reserved", "max_memory_reserved", "empty_cache",
           "reset_peak_memory_stats", "memory_summary", "memory_allocated", "max_memory_allocated",
           "reset_max_memory_reserved", "reset_max_memory_allocated", "memory_replay", "PluggableAllocator",
           "MemPool", "use_mem_pool"]

_SIZE = re.compile(r"^\d+(\.\d+)?GB$")
_MEMORY: dict[str, Any] = {}


def _target() -> str:
    return context.get_context("device_target")


def set_memory(init_size: str = "2GB", increase_size: str = "2GB", max_size: str = "1024GB",
               optimize_level: str = "O0", huge_page_reserve_size: str = "0GB") -> None:
    """Check and record MindSpore's memory-pool settings (XLA sizes its own pool; see the module).

    Arguments:
        init_size (str): the pool's initial size, e.g. ``"2GB"``. Default: ``"2GB"``.
        increase_size (str): how much the pool grows by. Default: ``"2GB"``.
        max_size (str): the pool's largest size. Default: ``"1024GB"``.
        optimize_level (str): ``"O0"`` or ``"O1"``. Default: ``"O0"``.
        huge_page_reserve_size (str): memory kept back from huge pages. Default: ``"0GB"``.

    Raises:
        TypeError: a size or ``optimize_level`` is not a str.
        ValueError: a size is not of the form ``"<number>GB"``, or ``optimize_level`` is neither
            ``"O0"`` nor ``"O1"``.
    """
    sizes = {"init_size": init_size, "increase_size": increase_size, "max_size": max_size,
             "huge_page_reserve_size": huge_page_reserve_size}
    for name, value in sizes.items():
        if not isinstance(value, str):
            raise TypeError(f"For 'set_memory', '{name}' must be a str such as '2GB', but got "
                            f"{type(value).__name__}.")
        if not _SIZE.match(value):
            raise ValueError(f"For 'set_memory', '{name}' must be a number followed by 'GB', such as '2GB', "
                             f"but got '{value}'.")
    if optimize_level not in ("O0", "O1"):
        raise ValueError(f"For 'set_memory', 'optimize_level' must be 'O0' or 'O1', but got {optimize_level!r}.")
    _MEMORY.update(sizes, optimize_level=optimize_level)


def memory_stats() -> dict[str, Any]:
    """MindSpore's memory statistics (bytes) of the current device (see :func:`mindjax.hal.memory_stats`)."""
    return _hal.memory_stats(_target())


def memory_allocated() -> int:
    """Bytes held by live arrays on the current device."""
    return _hal.memory_allocated(_target())


def max_memory_allocated() -> int:
    """The peak of :func:`memory_allocated` since the last reset."""
    return _hal.max_memory_allocated(_target())


def memory_reserved() -> int:
    """Bytes the allocator holds on the current device."""
    return _hal.memory_reserved(_target())


def max_memory_reserved() -> int:
    """The peak of :func:`memory_reserved` since the last reset."""
    return _hal.max_memory_reserved(_target())


def memory_summary() -> str:
    """A table of :func:`memory_stats`'s counters, in bytes."""
    return _hal.memory_summary(_target())


def empty_cache() -> None:
    """Accepted: XLA frees a buffer when its last array goes; there is no cache to empty."""
    _hal.empty_cache()


def reset_peak_memory_stats() -> None:
    """Start the peaks of allocated and reserved memory again from now."""
    _hal.reset_peak_memory_stats(_target())


def reset_max_memory_allocated() -> None:
    """Start the peak of :func:`memory_allocated` again from now."""
    _hal.reset_max_memory_allocated(_target())


def reset_max_memory_reserved() -> None:
    """Start the peak of :func:`memory_reserved` again from now."""
    _hal.reset_max_memory_reserved(_target())


def memory_replay(file_path: str) -> None:
    """MindSpore's replay of a recorded allocation trace on Ascend: not available.

    Raises:
        NotImplementedError: always; XLA plans a program's buffers when it compiles it.
    """
    raise NotImplementedError("'memory_replay' replays MindSpore's Ascend memory-pool trace; XLA plans each "
                              "program's buffers itself (see jax.stages.Compiled.memory_analysis()).")


class PluggableAllocator:
    """MindSpore's Ascend allocator loaded from a shared library: not available.

    Raises:
        NotImplementedError: always; XLA owns device memory (see ``XLA_PYTHON_CLIENT_ALLOCATOR``).
    """

    def __init__(self, path_to_so_file: str, alloc_fn_name: str, free_fn_name: str) -> None:
        raise NotImplementedError("'PluggableAllocator' loads an allocator into MindSpore's Ascend memory pool; "
                                  "XLA owns device memory here (choose its allocator with the "
                                  "XLA_PYTHON_CLIENT_ALLOCATOR environment variable).")


class MemPool:
    """MindSpore's Ascend memory pool over a :class:`PluggableAllocator`: not available.

    Raises:
        NotImplementedError: always.
    """

    def __init__(self, allocator: PluggableAllocator) -> None:
        raise NotImplementedError("'MemPool' is a pool of MindSpore's Ascend allocator; XLA owns device memory "
                                  "here (see XLA_PYTHON_CLIENT_MEM_FRACTION).")


def use_mem_pool(pool: MemPool) -> None:
    """MindSpore's context for allocating from a :class:`MemPool`: not available.

    Raises:
        NotImplementedError: always.
    """
    raise NotImplementedError("'use_mem_pool' selects a MindSpore Ascend memory pool; XLA owns device memory here.")
