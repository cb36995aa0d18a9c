"""``mindspore.nn.optim.rmsprop`` (implemented in :mod:`mindjax.cells.optim.rmsprop`)."""
from mindjax.cells.optim.rmsprop import RMSProp

__all__ = ["RMSProp"]
