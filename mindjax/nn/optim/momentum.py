"""``mindspore.nn.optim.momentum`` (implemented in :mod:`mindjax.cells.optim.momentum`)."""
from mindjax.cells.optim.momentum import Momentum

__all__ = ["Momentum"]
