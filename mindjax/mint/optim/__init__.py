"""``mindspore.mint.optim``: the PyTorch-style optimizers (the same classes as ``mindjax.experimental.optim``)."""
from mindjax.experimental.optim.adam import Adam
from mindjax.experimental.optim.adamw import AdamW
from mindjax.experimental.optim.sgd import SGD

__all__ = ["AdamW", "Adam", "SGD"]
