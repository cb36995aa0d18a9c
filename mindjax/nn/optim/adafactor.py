"""``mindspore.nn.optim.adafactor`` (implemented in :mod:`mindjax.cells.optim.adafactor`)."""
from mindjax.cells.optim.adafactor import AdaFactor

__all__ = ["AdaFactor"]
