"""``mindspore.common.parameter``: ``Parameter`` and ``ParameterTuple``.

They are implemented in :mod:`mindjax.cells.parameter` (a Parameter is a Cell-tree
state Variable); this module names them where MindSpore's user code imports them
from. Nothing in the lower layers imports it.
"""
from mindjax.cells.buffers import Buffer as _Buffer
from mindjax.cells.parameter import Parameter, ParameterTuple

__all__ = ["Parameter", "ParameterTuple"]
