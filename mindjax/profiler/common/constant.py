"""The profiler's enums, with MindSpore 2.10's members and values (``mindspore.profiler.common.constant``).

Most select Ascend collectors; MindJAX records one ``jax.profiler`` trace whatever
they say, and keeps them so scripts that pass them run unchanged.
"""
from __future__ import annotations

import enum

__all__ = ["AicoreMetrics", "ExportType", "HostSystem", "ProfilerActivity", "ProfilerLevel"]


class ProfilerLevel(enum.Enum):
    """How much is collected (Ascend levels; every level records the same JAX trace here)."""

    LevelNone = "LevelNone"
    Level0 = "Level0"
    Level1 = "Level1"
    Level2 = "Level2"


class ProfilerActivity(enum.Enum):
    """Which side is traced: ``CPU`` the framework (host), ``GPU``/``NPU`` the device."""

    NPU = "NPU"
    GPU = "GPU"
    CPU = "CPU"


class AicoreMetrics(enum.Enum):
    """Ascend AI Core counters (accepted, not collected)."""

    PipeUtilization = "PipeUtilization"
    ArithmeticUtilization = "ArithmeticUtilization"
    Memory = "Memory"
    MemoryL0 = "MemoryL0"
    MemoryUB = "MemoryUB"
    ResourceConflictRatio = "ResourceConflictRatio"
    L2Cache = "L2Cache"
    MemoryAccess = "MemoryAccess"
    AiCoreNone = "None"


class ExportType(enum.Enum):
    """Output formats: ``Text`` (csv/json files, what MindJAX writes) or ``Db``."""

    Db = "db"
    Text = "text"


class HostSystem(enum.Enum):
    """Host-system samplers (accepted, not collected)."""

    CPU = "cpu"
    MEM = "mem"
    DISK = "disk"
    NETWORK = "network"
    OSRT = "osrt"
