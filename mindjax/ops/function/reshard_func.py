"""MindSpore's ``mindspore.ops.function.reshard_func``: ``reshard``, laying a Tensor out as a ``Layout`` says.

The layout is the parallel layer's business (:func:`mindjax.parallel.reshard`, reached through the
``reshard`` slot of :data:`mindjax.common.upcalls.UPCALLS`): in SEMI_AUTO_PARALLEL and AUTO_PARALLEL
the value gets a sharding constraint; in the other modes it is returned as it is.
"""
from __future__ import annotations

from typing import Any

from mindjax.common.upcalls import UPCALLS

__all__ = ["reshard"]


def reshard(tensor: Any, layout: Any) -> Any:
    """``tensor`` laid out as ``layout`` (a ``mindspore.parallel.Layout`` with its tensor map) says.

    Returns:
        the same values, in the Layout.

    Raises:
        TypeError: ``tensor`` is not a Tensor, or ``layout`` not a Layout.
        ValueError: the Layout does not fit the tensor's shape.
    """
    return UPCALLS.require("reshard")(tensor, layout)
