"""``mindspore.nn.optim.sgd`` (implemented in :mod:`mindjax.cells.optim.sgd`)."""
from mindjax.cells.optim.sgd import SGD

__all__ = ["SGD"]
