"""``mindspore.nn.layer.conv``: the convolution layers (implemented in :mod:`mindjax.cells.layers.conv`)."""
from mindjax.cells.layers.conv import Conv1d, Conv1dTranspose, Conv2d, Conv2dTranspose, Conv3d, Conv3dTranspose

__all__ = ["Conv2d", "Conv2dTranspose", "Conv1d", "Conv1dTranspose", "Conv3d", "Conv3dTranspose"]
