"""``mindspore.utils``: DLPack exchange, and MindSpore's fault-tolerance and Ascend diagnostics.

``from_dlpack``/``to_dlpack`` are :mod:`mindjax.utils.dlpack`. The rest of
MindSpore's ``utils`` (``ExitByRequest``, ``stress_detect``, ``sdc_detect_*``, the
TFT/RSC fault-tolerance hooks, ``dryrun``) serve MindSpore's Ascend runtime and
its MindIO fault-tolerance service: ``ExitByRequest`` raises NotImplementedError
naming why; the Ascend detectors are :mod:`mindjax.tools`'s.
"""
from __future__ import annotations

from mindjax.tools import get_sdc_detect_result, sdc_detect_start, sdc_detect_stop, stress_detect
from mindjax.utils.dlpack import from_dlpack, to_dlpack

__all__ = ["stress_detect", "ExitByRequest", "sdc_detect_start", "sdc_detect_stop", "get_sdc_detect_result",
           "from_dlpack", "to_dlpack"]


class ExitByRequest:
    """MindSpore's graceful exit on request (its TFT fault-tolerance service): not available.

    Raises:
        NotImplementedError: always. For a graceful stop, end ``Model.train`` from a callback
        (``run_context.request_stop()``) on a signal; a multi-process job is stopped and restarted by
        ``jax.distributed``'s coordination service.
    """

    def __init__(self) -> None:
        raise NotImplementedError("'ExitByRequest' uses MindSpore's TFT graceful-exit service (an AllReduce of "
                                  "exit flags on Ascend); stop Model.train from a callback with "
                                  "run_context.request_stop() instead.")
