"""``mindspore.nn.layer.timedistributed`` (implemented in :mod:`mindjax.cells.layers.combined`)."""
from mindjax.cells.layers.combined import TimeDistributed

__all__ = ["TimeDistributed"]
