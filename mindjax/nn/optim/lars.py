"""``mindspore.nn.optim.lars`` (implemented in :mod:`mindjax.cells.optim.lars`)."""
from mindjax.cells.optim.lars import LARS

__all__ = ["LARS"]
