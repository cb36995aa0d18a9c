"""``mindspore.nn.dynamic_lr``: learning-rate lists (implemented in :mod:`mindjax.cells.learning_rate`)."""
from mindjax.cells.learning_rate import (cosine_decay_lr, exponential_decay_lr, inverse_decay_lr, natural_exp_decay_lr,
                                        piecewise_constant_lr, polynomial_decay_lr, warmup_lr)

__all__ = ["piecewise_constant_lr", "exponential_decay_lr", "natural_exp_decay_lr", "inverse_decay_lr",
           "cosine_decay_lr", "polynomial_decay_lr", "warmup_lr"]
