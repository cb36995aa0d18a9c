"""``mindspore.experimental.optim``: PyTorch-style optimizers (``param_groups``, ``optimizer(grads)``) and
their learning-rate schedulers (``lr_scheduler``).

Here: ``Optimizer``, ``Adam``, ``AdamW``, ``NAdam``, ``RAdam`` and ``SGD``, with every scheduler of MindSpore 2.10.
"""
from mindjax.experimental.optim import lr_scheduler
from mindjax.experimental.optim.adam import Adam
from mindjax.experimental.optim.adamw import AdamW
from mindjax.experimental.optim.nadam import NAdam
from mindjax.experimental.optim.optimizer import Optimizer
from mindjax.experimental.optim.radam import RAdam
from mindjax.experimental.optim.sgd import SGD

__all__ = ["Optimizer", "Adam", "AdamW", "NAdam", "RAdam", "SGD", "lr_scheduler"]
