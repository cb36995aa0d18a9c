"""``mindspore.nn.optim.lazyadam`` (implemented in :mod:`mindjax.cells.optim.lazyadam`)."""
from mindjax.cells.optim.lazyadam import LazyAdam

__all__ = ["LazyAdam"]
