"""Cells, Parameters, layers, losses, optimizers and wrappers: ``mindjax.nn``."""
from mindjax.cells.cell import Cell, HookHandle
from mindjax.cells.containers import CellList, SequentialCell
from mindjax.cells.parameter import Parameter, ParameterTuple
from mindjax.cells.layers import *  # noqa: F401,F403
from mindjax.cells.loss import *  # noqa: F401,F403
from mindjax.cells.optim import *  # noqa: F401,F403
from mindjax.cells.wrap import *  # noqa: F401,F403
from mindjax.cells import layers as _layers, loss as _loss, optim as _optim, wrap as _wrap
from mindjax.cells.cell_dict import CellDict
from mindjax.cells.loss_extra import *  # noqa: F401,F403
from mindjax.cells import loss_extra as _loss_extra

__all__ = (["Cell", "HookHandle", "CellList", "SequentialCell", "Parameter", "ParameterTuple"]
           + _layers.__all__ + _loss.__all__ + _optim.__all__ + _wrap.__all__ + ["CellDict"] + _loss_extra.__all__)
