"""``mindspore.nn.layer.embedding`` (implemented in :mod:`mindjax.cells.layers.embedding`)."""
from mindjax.cells.layers.embedding import Embedding

from mindjax.cells.layers.ext import EmbeddingExt

__all__ = ["Embedding"]
__all__ += ["EmbeddingExt"]
