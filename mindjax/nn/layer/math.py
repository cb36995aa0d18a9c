"""``mindspore.nn.layer.math`` (implemented in :mod:`mindjax.cells.layers.extra`)."""
from mindjax.cells.layers.extra import MatMul, Range

__all__ = ["Range", "MatMul"]
