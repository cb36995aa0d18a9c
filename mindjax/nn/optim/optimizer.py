"""``mindspore.nn.optim.optimizer``: the ``Optimizer`` base (implemented in :mod:`mindjax.cells.optim.optimizer`)."""
from mindjax.cells.optim.optimizer import Optimizer

__all__ = ["Optimizer"]
