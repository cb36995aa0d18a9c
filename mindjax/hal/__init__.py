"""``mindspore.hal``: the devices and their memory, read from JAX.

MindSpore's memory counters come from its own device memory pool; MindJAX
reads XLA's allocator through ``jax.Device.memory_stats()``. Where a backend
keeps no such counters (XLA:CPU), every counter is 0, as MindSpore 2.10
reports on its CPU backend.
"""
from mindjax.hal.device import device_count, is_available, is_initialized
from mindjax.hal.memory import (empty_cache, max_memory_allocated, max_memory_reserved, memory_allocated,
                                memory_reserved, memory_stats, memory_summary, reset_max_memory_allocated,
                                reset_max_memory_reserved, reset_peak_memory_stats)

__all__ = ["device_count", "is_available", "is_initialized", "memory_stats", "memory_allocated",
           "max_memory_allocated", "memory_reserved", "max_memory_reserved", "memory_summary", "empty_cache",
           "reset_peak_memory_stats", "reset_max_memory_allocated", "reset_max_memory_reserved"]
