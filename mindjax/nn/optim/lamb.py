"""``mindspore.nn.optim.lamb`` (implemented in :mod:`mindjax.cells.optim.lamb`)."""
from mindjax.cells.optim.lamb import Lamb

__all__ = ["Lamb"]
