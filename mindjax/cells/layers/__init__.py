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
from mindjax.cells.layers import (combined, dropout_extra, ext, linear, math_image, padding, pooling_extra, shuffle,
                                  sparse, thor_layer)
from mindjax.cells.layers.math_image import *  # noqa: F401,F403
from mindjax.cells.layers.ext import *  # noqa: F401,F403
from mindjax.cells.layers.combined import *  # noqa: F401,F403
from mindjax.cells.layers.dropout_extra import *  # noqa: F401,F403
from mindjax.cells.layers.linear import *  # noqa: F401,F403
from mindjax.cells.layers.padding import *  # noqa: F401,F403
from mindjax.cells.layers.pooling_extra import *  # noqa: F401,F403
from mindjax.cells.layers.shuffle import *  # noqa: F401,F403
from mindjax.cells.layers.thor_layer import *  # noqa: F401,F403
from mindjax.cells.layers.sparse import *  # noqa: F401,F403

__all__ = [name for mod in (activation, basic, conv, embedding, normalization, pooling, rnn,
                            transformer, extra) for name in mod.__all__]
__all__ += [name for mod in (combined, dropout_extra, ext, linear, math_image, padding, pooling_extra, shuffle,
                                     sparse, thor_layer) for name in mod.__all__]
