"""``mindspore.nn.layer.transformer`` (implemented in :mod:`mindjax.cells.layers.transformer`)."""
from mindjax.cells.layers.transformer import (MultiheadAttention, Transformer, TransformerDecoder,
                                              TransformerDecoderLayer, TransformerEncoder, TransformerEncoderLayer)

__all__ = ["MultiheadAttention", "TransformerEncoderLayer", "TransformerDecoderLayer", "TransformerEncoder",
           "TransformerDecoder", "Transformer"]
