"""``mindspore.nn.layer.normalization`` (implemented in :mod:`mindjax.cells.layers.normalization`)."""
from mindjax.cells.layers.normalization import (BatchNorm1d, BatchNorm2d, BatchNorm3d, GroupNorm, InstanceNorm1d,
                                                InstanceNorm2d, InstanceNorm3d, LayerNorm)
from mindjax.cells.layers.linear import SyncBatchNorm

from mindjax.cells.layers.ext import LayerNormExt

__all__ = ["SyncBatchNorm", "BatchNorm1d", "BatchNorm2d", "BatchNorm3d", "LayerNorm", "GroupNorm", "InstanceNorm1d", "InstanceNorm2d",
           "InstanceNorm3d"]
__all__ += ["LayerNormExt"]
