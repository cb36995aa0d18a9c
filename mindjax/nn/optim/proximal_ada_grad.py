"""``mindspore.nn.optim.proximal_ada_grad`` (implemented in :mod:`mindjax.cells.optim.proximal_ada_grad`)."""
from mindjax.cells.optim.proximal_ada_grad import ProximalAdagrad

__all__ = ["ProximalAdagrad"]
