"""``mindspore.profiler.common``: the profiler's enums."""
from mindjax.profiler.common.constant import (AicoreMetrics, ExportType, HostSystem, ProfilerActivity,
                                              ProfilerLevel)

__all__ = ["AicoreMetrics", "ExportType", "HostSystem", "ProfilerActivity", "ProfilerLevel"]
