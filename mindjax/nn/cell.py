"""``mindspore.nn.cell``: the ``Cell`` base class (implemented in :mod:`mindjax.cells.cell`) and ``GraphCell``."""
from mindjax.cells.cell import Cell
from mindjax.train.serialization.export import GraphCell

__all__ = ["Cell", "GraphCell"]
