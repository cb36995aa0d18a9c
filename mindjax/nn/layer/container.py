"""``mindspore.nn.layer.container``: the Cell containers (implemented in :mod:`mindjax.cells.containers`)."""
from mindjax.cells.containers import CellList, SequentialCell

__all__ = ["SequentialCell", "CellList"]
