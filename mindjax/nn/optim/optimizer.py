"""``mindspore.nn.optim.optimizer``: the ``Optimizer`` base (implemented in :mod:`mindjax.cells.optim.optimizer`)
and ``opt_init_args_register``."""
from mindjax.cells.optim.init_args import opt_init_args_register
from mindjax.cells.optim.optimizer import Optimizer

__all__ = ["Optimizer", "opt_init_args_register"]
