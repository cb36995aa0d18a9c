"""MindSpore's ``mindspore.ops.operations.comm_ops``: the reduction-operator names collectives take.

Collectives themselves run through ``mindjax.communication`` and the parallel layer (GSPMD
inserts them from shardings); this module holds MindSpore's ``ReduceOp`` constants, which
model code imports at its top level.

Example:
    >>> from mindjax.ops import ReduceOp
    >>> ReduceOp.SUM
    'sum'
"""
from __future__ import annotations


class ReduceOp:
    """The reduction a collective applies: ``SUM``, ``MAX``, ``MIN``, ``PROD`` or ``AVG`` (strings, as in MindSpore)."""

    SUM = "sum"
    MAX = "max"
    MIN = "min"
    PROD = "prod"
    AVG = "avg"


__all__ = ["ReduceOp"]
