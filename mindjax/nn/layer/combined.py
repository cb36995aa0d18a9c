"""``mindspore.nn.layer.combined`` (implemented in :mod:`mindjax.cells.layers.combined`)."""
from mindjax.cells.layers.combined import Conv2dBnAct, DenseBnAct

__all__ = ["Conv2dBnAct", "DenseBnAct"]
