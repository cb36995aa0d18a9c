"""``mindspore.nn.layer.container``: the Cell containers (implemented in :mod:`mindjax.cells.containers`)."""
from mindjax.cells.containers import CellList, SequentialCell
from mindjax.cells.cell_dict import CellDict

__all__ = ["CellDict", "SequentialCell", "CellList"]
