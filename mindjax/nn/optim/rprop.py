"""``mindspore.nn.optim.rprop`` (implemented in :mod:`mindjax.cells.optim.rprop`)."""
from mindjax.cells.optim.rprop import Rprop

__all__ = ["Rprop"]
