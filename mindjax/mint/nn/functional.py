"""``mindspore.mint.nn.functional``: the ``mindjax.ops`` functions whose arguments match ``mint``'s."""
from mindjax.ops import (adaptive_avg_pool2d, cross_entropy, embedding, interpolate, layer_norm, mse_loss, prelu,
                         relu)

__all__ = ["interpolate", "layer_norm", "relu", "prelu", "cross_entropy", "embedding", "mse_loss",
           "adaptive_avg_pool2d"]
