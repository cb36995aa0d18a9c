"""``mindspore.nn.optim.ada_grad`` (implemented in :mod:`mindjax.cells.optim.ada_grad`)."""
from mindjax.cells.optim.ada_grad import Adagrad

__all__ = ["Adagrad"]
