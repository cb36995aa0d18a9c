"""``mindspore.nn.layer``: the layers, one module per family as in MindSpore.

The implementations live in :mod:`mindjax.cells.layers`; these modules only name them where
MindSpore's user code imports them from (``from mindspore.nn.layer.conv import Conv2d``).
"""
from mindjax.nn.layer import (activation, basic, combined, container, conv, embedding, image, math, normalization,
                              padding, pooling, rnn_cells, rnns, thor_layer, timedistributed, transformer)
from mindjax.nn.layer.activation import (CELU, ELU, FastGelu, GELU, get_activation, GLU, Hardtanh, HShrink,
                                         HSigmoid, HSwish, LeakyReLU, LogSigmoid, LogSoftmax, Mish, PReLU, ReLU,
                                         ReLU6, SeLU, Sigmoid, SiLU, Softmax, Softmax2d, Softmin, SoftShrink,
                                         Softsign, Tanh, Tanhshrink, Threshold)
from mindjax.nn.layer.normalization import (BatchNorm1d, BatchNorm2d, BatchNorm3d, GroupNorm, InstanceNorm1d,
                                            InstanceNorm2d, InstanceNorm3d, LayerNorm)
from mindjax.nn.layer.container import CellList, SequentialCell
from mindjax.nn.layer.conv import Conv1d, Conv1dTranspose, Conv2d, Conv2dTranspose, Conv3d, Conv3dTranspose
from mindjax.nn.layer.rnn_cells import GRUCell, LSTMCell, RNNCell
from mindjax.nn.layer.rnns import GRU, LSTM, RNN
from mindjax.nn.layer.basic import (ClipByNorm, Dense, Dropout, Dropout2d, Flatten, Identity, Norm, OneHot, Pad,
                                    Tril, Triu, Unflatten, Unfold, Upsample)
from mindjax.nn.layer.embedding import Embedding
from mindjax.nn.layer.pooling import (AdaptiveAvgPool1d, AdaptiveAvgPool2d, AdaptiveMaxPool1d, AdaptiveMaxPool2d,
                                      AvgPool1d, AvgPool2d, MaxPool1d, MaxPool2d)
from mindjax.nn.layer.math import Range
from mindjax.nn.layer.padding import ZeroPad2d
from mindjax.nn.layer.transformer import (MultiheadAttention, Transformer, TransformerDecoder,
                                          TransformerDecoderLayer, TransformerEncoder, TransformerEncoderLayer)

# Every family module's names, also those added with the newer layers.
globals().update({name: getattr(module, name) for module in (activation, normalization, container, conv, rnn_cells,
                                                              rnns, basic, embedding, pooling, math, image, padding, combined,
                                                              timedistributed, thor_layer,
                                                              transformer)
                  for name in module.__all__})

__all__ = [name for module in (activation, normalization, container, conv, rnn_cells, rnns, basic, embedding, pooling,
                               math, padding, transformer)
           for name in module.__all__]
