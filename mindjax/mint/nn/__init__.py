"""``mindspore.mint.nn``: the PyTorch-style Cells.

The ones MindSpore's ``nn`` already has under the same arguments are those classes
(``mint.nn.Dropout`` is ``nn.DropoutExt``, ``mint.nn.Linear`` is ``nn.Linear`` ...); the rest
are in :mod:`mindjax.mint.nn.layers` and call :mod:`mindjax.mint.nn.functional`.
"""
from mindjax.cells.cell import Cell
from mindjax.cells.layers.activation import HShrink as Hardshrink, HSigmoid as Hardsigmoid, \
    HSwish as Hardswish, Mish, ReLU, SoftShrink as Softshrink
from mindjax.cells.layers.basic import Flatten, Identity
from mindjax.cells.layers.ext import AvgPool1dExt as AvgPool1d, AvgPool2dExt as AvgPool2d, \
    AvgPool3dExt as AvgPool3d, Dropout2dExt as Dropout2d, DropoutExt as Dropout, EmbeddingExt as Embedding, \
    L1LossExt as L1Loss, LayerNormExt as LayerNorm, LogSoftmaxExt as LogSoftmax, MaxPool2dExt as MaxPool2d, \
    PReLUExt as PReLU
from mindjax.cells.layers.extra import Upsample, ZeroPad2d
from mindjax.cells.layers.linear import Linear
from mindjax.cells.layers.pooling import AdaptiveAvgPool1d, AdaptiveAvgPool2d, AdaptiveMaxPool2d
from mindjax.cells.loss import BCELoss, CosineEmbeddingLoss, MSELoss
from mindjax.mint.nn import functional
from mindjax.mint.nn.functional import cross_entropy, kl_div as kl_div_ext, mse_loss as mse_loss_ext, \
    nll_loss as nllloss
from mindjax.mint.nn.layers import *  # noqa: F401,F403
from mindjax.mint.nn.layers import __all__ as _layers
from mindjax import nn as _nn

AdaptiveAvgPool3d = _nn.AdaptiveAvgPool3d
ConstantPad1d, ConstantPad2d, ConstantPad3d = _nn.ConstantPad1d, _nn.ConstantPad2d, _nn.ConstantPad3d
CrossEntropyLoss, NLLLoss, SoftMarginLoss = _nn.CrossEntropyLoss, _nn.NLLLoss, _nn.SoftMarginLoss
MaxUnpool2d, PixelShuffle = _nn.MaxUnpool2d, _nn.PixelShuffle

__all__ = ["Cell", "Identity", "ZeroPad2d", "Upsample", "AdaptiveAvgPool1d", "AdaptiveAvgPool2d", "L1Loss",
           "Mish", "MSELoss", "AdaptiveMaxPool2d", "Flatten", "BCELoss", "CosineEmbeddingLoss", "Hardshrink",
           "Hardsigmoid", "Hardswish", "ReLU", "Softshrink", "AvgPool1d", "AvgPool2d", "AvgPool3d", "Dropout",
           "Dropout2d", "Embedding", "LayerNorm", "LogSoftmax", "MaxPool2d", "PReLU", "Linear", "AdaptiveAvgPool3d",
           "ConstantPad1d", "ConstantPad2d", "ConstantPad3d", "CrossEntropyLoss", "NLLLoss", "SoftMarginLoss",
           "MaxUnpool2d", "PixelShuffle", "cross_entropy", "kl_div_ext", "mse_loss_ext", "nllloss", *_layers]
