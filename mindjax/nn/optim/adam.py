"""``mindspore.nn.optim.adam`` (implemented in :mod:`mindjax.cells.optim.adam`)."""
from mindjax.cells.optim.adam import Adam, AdamOffload, AdamWeightDecay

__all__ = ["Adam", "AdamWeightDecay", "AdamOffload"]
