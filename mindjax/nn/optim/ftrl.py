"""``mindspore.nn.optim.ftrl`` (implemented in :mod:`mindjax.cells.optim.ftrl`)."""
from mindjax.cells.optim.ftrl import FTRL

__all__ = ["FTRL"]
