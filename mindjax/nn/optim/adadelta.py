"""``mindspore.nn.optim.adadelta`` (implemented in :mod:`mindjax.cells.optim.adadelta`)."""
from mindjax.cells.optim.adadelta import Adadelta

__all__ = ["Adadelta"]
