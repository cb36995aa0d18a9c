"""MindSpore callbacks that need services MindJAX does not have; each raises NotImplementedError naming why."""
from __future__ import annotations

from typing import Any

__all__ = ["SummaryLandscape", "TrainFaultTolerance"]


class SummaryLandscape:
    """MindSpore's loss-landscape summaries for MindInsight: not available.

    Raises:
        NotImplementedError: always; it re-runs saved checkpoints through MindSpore's summary
        collector into MindInsight's format. Record losses with ``SummaryCollector``
        (TensorBoard) instead.
    """

    def __init__(self, summary_dir: str) -> None:
        raise NotImplementedError("'SummaryLandscape' builds MindInsight loss landscapes from MindSpore summary "
                                  "files; MindJAX writes TensorBoard summaries (SummaryCollector, SummaryRecord).")


class TrainFaultTolerance:
    """MindSpore's training fault tolerance over the MindIO TTP/TFT service: not available.

    Raises:
        NotImplementedError: always; resume a job from ``ModelCheckpoint``/``BackupAndRestore`` checkpoints.
    """

    def __init__(self, ckpt_save_path: str | None = None, **kwargs: Any) -> None:
        raise NotImplementedError("'TrainFaultTolerance' needs MindSpore's MindIO fault-tolerance service (Ascend); "
                                  "resume from ModelCheckpoint or BackupAndRestore checkpoints instead.")
