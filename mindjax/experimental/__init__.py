"""``mindspore.experimental``: the PyTorch-style optimizers and learning-rate schedulers (``experimental.optim``)."""
from mindjax.experimental import optim

__all__ = ["optim"]
