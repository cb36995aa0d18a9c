"""The nn layers, one family per module."""
from mindjax.cells.layers.activation import *  # noqa: F401,F403
from mindjax.cells.layers.basic import *  # noqa: F401,F403
from mindjax.cells.layers.conv import *  # noqa: F401,F403
from mindjax.cells.layers.embedding import *  # noqa: F401,F403
from mindjax.cells.layers.normalization import *  # noqa: F401,F403
from mindjax.cells.layers.pooling import *  # noqa: F401,F403
from mindjax.cells.layers.rnn import *  # noqa: F401,F403
from mindjax.cells.layers.transformer import *  # noqa: F401,F403
from mindjax.cells.layers.extra import *  # noqa: F401,F403
from mindjax.cells.layers import (activation, basic, conv, embedding, extra, normalization, pooling, rnn,
                                  transformer)

__all__ = [name for mod in (activation, basic, conv, embedding, normalization, pooling, rnn,
                            transformer, extra) for name in mod.__all__]
