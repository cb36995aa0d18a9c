"""MindSpore's ``parameter_broadcast``: make every process's Parameters equal to one source process's.

In one process there is nothing to do: each Parameter is one global array,
whole or laid out over the devices, so every device already sees the same
values. Across ``jax.distributed`` processes a Parameter that has not been
laid out over the global mesh yet is a copy local to each process (built from
each process's own seed, say); those copies are replaced by the source
process's with one ``broadcast_one_to_all``. Parameters already laid out over
the global devices are one array already and are left as they are.

Example:
    >>> parameter_broadcast(net, net.parameters_dict(), cur_rank=get_rank())   # doctest: +SKIP
"""
from __future__ import annotations

from typing import Any, Mapping

import jax
import numpy as np

from mindjax.cells.cell import Cell
from mindjax.communication import management as _management

__all__ = ["parameter_broadcast"]


def parameter_broadcast(net: Cell, layout: Mapping[str, Any], cur_rank: int = 0, initial_rank: int = 0) -> None:
    """Give the Parameters named in ``layout`` the values of process ``initial_rank`` on every process.

    Arguments:
        net: the network whose Parameters are broadcast.
        layout: ``{parameter name: layout}`` (``Cell.parameter_layout_dict`` or a strategy file's); its
            keys choose the Parameters, its values are not needed here.
        cur_rank: this process's rank (must be ``communication.get_rank()``).
        initial_rank: the source rank: the first rank of this process's pipeline stage. Every process
            must name the same one (stages spread over processes are laid out by the pipeline instead).

    Raises:
        TypeError: ``net`` is not a Cell or ``layout`` not a dict. ValueError: ``cur_rank`` is not this
            process's rank, ``initial_rank`` is not a rank at or before it, a name of ``layout`` is not
            a Parameter of ``net``, or the processes name different sources.
    """
    who = "parameter_broadcast"
    if not isinstance(net, Cell):
        raise TypeError(f"For '{who}', 'net' must be a Cell, but got {type(net).__name__}")
    if not isinstance(layout, Mapping):
        raise TypeError(f"For '{who}', 'layout' must be a dict of parameter names, but got {type(layout).__name__}")
    rank = _management.get_rank() if _management.is_initialized() else jax.process_index()
    if cur_rank != rank:
        raise ValueError(f"For '{who}', 'cur_rank' must be the current rank {rank}, but got {cur_rank}")
    if not isinstance(initial_rank, int) or not 0 <= initial_rank <= cur_rank:
        raise ValueError(f"For '{who}', 'initial_rank' must be the first rank of the current pipeline stage "
                         f"(0 .. {cur_rank}), but got {initial_rank}")
    params = net.parameters_dict()
    missing = [name for name in layout if name not in params]
    if missing:
        raise ValueError(f"For '{who}', the parameter(s) {missing} of 'layout' are not in the net's "
                         f"parameters_dict() ({sorted(params)[:8]}...)")
    if jax.process_count() == 1:
        return None
    from jax.experimental import multihost_utils

    sources = np.asarray(multihost_utils.process_allgather(np.int32(initial_rank))).reshape(-1)
    if len(set(sources.tolist())) > 1:
        raise ValueError(f"For '{who}', the processes name different sources {sorted(set(sources.tolist()))}: "
                         f"every process must pass the same 'initial_rank'")
    local = {name: np.asarray(params[name]._value) for name in layout
             if getattr(params[name]._value, "is_fully_addressable", True)}
    received = multihost_utils.broadcast_one_to_all(local, is_source=rank == initial_rank)
    for name, value in received.items():
        params[name].set_data(np.asarray(value))
    return None
