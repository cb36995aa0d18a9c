"""``mindspore.nn.layer.embedding`` (implemented in :mod:`mindjax.cells.layers.embedding`)."""
from mindjax.cells.layers.embedding import Embedding, EmbeddingLookup, MultiFieldEmbeddingLookup

from mindjax.cells.layers.ext import EmbeddingExt

__all__ = ["Embedding", "EmbeddingLookup", "MultiFieldEmbeddingLookup"]
__all__ += ["EmbeddingExt"]
