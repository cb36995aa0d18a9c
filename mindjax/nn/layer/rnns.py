"""``mindspore.nn.layer.rnns``: the multi-layer recurrent Cells (implemented in :mod:`mindjax.cells.layers.rnn`)."""
from mindjax.cells.layers.rnn import GRU, LSTM, RNN

__all__ = ["LSTM", "GRU", "RNN"]
