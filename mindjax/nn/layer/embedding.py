"""``mindspore.nn.layer.embedding`` (implemented in :mod:`mindjax.cells.layers.embedding`)."""
from mindjax.cells.layers.embedding import Embedding

__all__ = ["Embedding"]
