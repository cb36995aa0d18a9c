"""``mindspore.nn.optim.asgd`` (implemented in :mod:`mindjax.cells.optim.asgd`)."""
from mindjax.cells.optim.asgd import ASGD

__all__ = ["ASGD"]
