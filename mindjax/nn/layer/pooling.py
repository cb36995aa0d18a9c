"""``mindspore.nn.layer.pooling`` (implemented in :mod:`mindjax.cells.layers.pooling`)."""
from mindjax.cells.layers.pooling import (AdaptiveAvgPool1d, AdaptiveAvgPool2d, AdaptiveMaxPool1d, AdaptiveMaxPool2d,
                                          AvgPool1d, AvgPool2d, MaxPool1d, MaxPool2d)
from mindjax.cells.layers.pooling_extra import FractionalMaxPool2d, FractionalMaxPool3d
from mindjax.cells.layers.pooling_extra import AdaptiveAvgPool3d, AdaptiveMaxPool3d, AvgPool3d, LPPool1d, LPPool2d, MaxPool3d, MaxUnpool1d, MaxUnpool2d, MaxUnpool3d

from mindjax.cells.layers.ext import AvgPool1dExt, AvgPool2dExt, AvgPool3dExt, MaxPool2dExt

__all__ = ["AdaptiveAvgPool3d", "AdaptiveMaxPool3d", "AvgPool3d", "LPPool1d", "LPPool2d", "MaxPool3d", "MaxUnpool1d", "MaxUnpool2d", "MaxUnpool3d", "AvgPool2d", "MaxPool2d", "AvgPool1d", "MaxPool1d", "AdaptiveAvgPool1d", "AdaptiveMaxPool1d",
           "AdaptiveMaxPool2d", "AdaptiveAvgPool2d"]
__all__ += ["FractionalMaxPool2d", "FractionalMaxPool3d"]
__all__ += ["AvgPool1dExt", "AvgPool2dExt", "AvgPool3dExt", "MaxPool2dExt"]
