"""``mindspore.nn.optim.adamax`` (implemented in :mod:`mindjax.cells.optim.adamax`)."""
from mindjax.cells.optim.adamax import AdaMax

__all__ = ["AdaMax"]
