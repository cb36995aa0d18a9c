"""``mindspore.nn.grad``: ``Jvp`` and ``Vjp`` Cells."""
from mindjax.nn.grad.cell_grad import Jvp, Vjp

__all__ = ["Jvp", "Vjp"]
