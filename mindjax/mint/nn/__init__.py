"""``mindspore.mint.nn``: the ``mindjax.nn`` Cells whose constructor arguments match ``mint``'s."""
from mindjax.cells.layers.activation import GELU, Mish
from mindjax.cells.layers.basic import Flatten, Identity
from mindjax.cells.layers.extra import Upsample, ZeroPad2d
from mindjax.cells.layers.pooling import AdaptiveAvgPool1d, AdaptiveAvgPool2d, AdaptiveMaxPool2d
from mindjax.cells.loss import BCELoss, CosineEmbeddingLoss, L1Loss, MSELoss
from mindjax.mint.nn import functional

__all__ = ["Identity", "ZeroPad2d", "Upsample", "AdaptiveAvgPool1d", "AdaptiveAvgPool2d", "GELU", "L1Loss", "Mish",
           "MSELoss", "AdaptiveMaxPool2d", "Flatten", "BCELoss", "CosineEmbeddingLoss"]
