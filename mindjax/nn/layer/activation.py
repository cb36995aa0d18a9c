"""``mindspore.nn.layer.activation`` (implemented in :mod:`mindjax.cells.layers.activation`)."""
from mindjax.cells.layers.activation import (CELU, ELU, GELU, GLU, FastGelu, HShrink, HSigmoid, HSwish, Hardtanh,
                                             LeakyReLU, LogSigmoid, LogSoftmax, Mish, PReLU, ReLU, ReLU6, SeLU, SiLU,
                                             Sigmoid, Softmax, Softmax2d, Softmin, SoftShrink, Softsign, Tanh,
                                             Tanhshrink, Threshold, get_activation)
from mindjax.cells.layers.dropout_extra import RReLU
from mindjax.cells.layers.pooling_extra import LRN

from mindjax.cells.layers.ext import PReLUExt, LogSoftmaxExt

__all__ = ["LRN", "RReLU", "Softmin", "Softmax", "Softmax2d", "LogSoftmax", "ReLU", "ReLU6", "SeLU", "SiLU", "Tanh", "Tanhshrink",
           "Hardtanh", "GELU", "FastGelu", "Sigmoid", "Softsign", "PReLU", "get_activation", "LeakyReLU", "HSigmoid",
           "HSwish", "ELU", "LogSigmoid", "SoftShrink", "HShrink", "CELU", "Threshold", "Mish", "GLU"]
__all__ += ["PReLUExt", "LogSoftmaxExt"]
