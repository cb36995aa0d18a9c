"""``mindspore.nn.layer.padding`` (implemented in :mod:`mindjax.cells.layers.extra`)."""
from mindjax.cells.layers.extra import ZeroPad2d

__all__ = ["ZeroPad2d"]
