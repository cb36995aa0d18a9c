"""``mindspore.profiler``: record a ``jax.profiler`` trace and time it per Cell.

``Profiler`` (also ``mindjax.Profiler``) and the ``profile`` context manager
record with ``jax.profiler`` a trace that TensorBoard's profile plugin (XProf)
and Perfetto open, with Cells' paths as the named scopes of their ops;
``schedule`` picks the steps, ``tensorboard_trace_handler`` analyses each
recording as it ends. The analysis writes ``cell_statistic.csv``,
``op_statistic.csv`` and ``trace_view.json`` and prints a per-Cell summary.

``DynamicProfilerMonitor``, ``EnvProfiler`` and ``mstx`` (Ascend tools) are not provided.
"""
from mindjax.profiler.common.constant import (AicoreMetrics, ExportType, HostSystem, ProfilerActivity,
                                              ProfilerLevel)
from mindjax.profiler.experimental_config import _ExperimentalConfig
from mindjax.profiler.profiler import Profiler, analyse_recording, profile, tensorboard_trace_handler
from mindjax.profiler.schedule import ProfilerAction, Schedule as schedule

__all__ = ["tensorboard_trace_handler", "schedule", "Profiler", "ProfilerLevel", "ProfilerActivity",
           "AicoreMetrics", "ExportType", "HostSystem", "_ExperimentalConfig", "profile"]
