"""``mindspore.nn.layer.rnn_cells``: the one-step recurrent Cells (implemented in :mod:`mindjax.cells.layers.rnn`)."""
from mindjax.cells.layers.rnn import GRUCell, LSTMCell, RNNCell

__all__ = ["LSTMCell", "GRUCell", "RNNCell"]
