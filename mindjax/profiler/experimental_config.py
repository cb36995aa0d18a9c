"""``mindspore.profiler.experimental_config``: ``_ExperimentalConfig``, the Ascend-side options."""
from __future__ import annotations

from typing import Any

from mindjax.profiler.common.constant import AicoreMetrics, ExportType, ProfilerLevel

__all__ = ["_ExperimentalConfig"]


class _ExperimentalConfig:
    """Extra profiler options (MindSpore's names and defaults); kept and reported, the JAX trace is the same.

    Arguments:
        profiler_level, aic_metrics, l2_cache, mstx, data_simplification, export_type,
        mstx_domain_include, mstx_domain_exclude, sys_io, sys_interconnection, host_sys:
            as in MindSpore 2.10.
    """

    def __init__(self, profiler_level: ProfilerLevel = ProfilerLevel.Level0,
                 aic_metrics: AicoreMetrics = AicoreMetrics.AiCoreNone, l2_cache: bool = False, mstx: bool = False,
                 data_simplification: bool = True, export_type: list[Any] | None = None,
                 mstx_domain_include: list[str] | None = None, mstx_domain_exclude: list[str] | None = None,
                 sys_io: bool = False, sys_interconnection: bool = False, host_sys: list[Any] | None = None) -> None:
        self.profiler_level = profiler_level
        self.aic_metrics = aic_metrics
        self.l2_cache = l2_cache
        self.mstx = mstx
        self.data_simplification = data_simplification
        self.export_type = list(export_type) if export_type else [ExportType.Text]
        self.mstx_domain_include = list(mstx_domain_include or [])
        self.mstx_domain_exclude = list(mstx_domain_exclude or [])
        self.sys_io = sys_io
        self.sys_interconnection = sys_interconnection
        self.host_sys = list(host_sys or [])
