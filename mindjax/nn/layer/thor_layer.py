"""``mindspore.nn.layer.thor_layer`` (implemented in :mod:`mindjax.cells.layers.thor_layer`)."""
from mindjax.cells.layers.thor_layer import Conv2dThor, DenseThor, EmbeddingLookupThor, EmbeddingThor

__all__ = ["DenseThor", "Conv2dThor", "EmbeddingThor", "EmbeddingLookupThor"]
