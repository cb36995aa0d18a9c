"""Optimizers and learning-rate schedules: MindSpore's ``nn.Optimizer`` family.

``nn.SGD``, ``nn.Momentum``, ``nn.Adam``, ``nn.AdamWeightDecay``, ``nn.Lamb``,
``nn.RMSProp``, ``nn.Adagrad``, ``nn.AdaMax``, ``nn.ASGD``, ``nn.Rprop``, ``nn.LazyAdam``, ``nn.AdamOffload``, ``nn.LARS``, ``nn.AdaFactor`` and the learning-rate functions and schedule
Cells of :mod:`mindjax.cells.learning_rate`.
"""
from mindjax.cells import learning_rate as _learning_rate
from mindjax.cells.learning_rate import *  # noqa: F401,F403
from mindjax.cells.optim.optimizer import Optimizer
from mindjax.cells.optim.sgd import SGD
from mindjax.cells.optim.momentum import Momentum
from mindjax.cells.optim.adam import Adam, AdamOffload, AdamWeightDecay
from mindjax.cells.optim.lazyadam import LazyAdam
from mindjax.cells.optim.lars import LARS
from mindjax.cells.optim.adafactor import AdaFactor
from mindjax.cells.optim.adasum import AdaSumByDeltaWeightWrapCell, AdaSumByGradWrapCell
from mindjax.cells.optim.tft_wrapper import OptTFTWrapper
from mindjax.cells.optim.lamb import Lamb
from mindjax.cells.optim.rmsprop import RMSProp
from mindjax.cells.optim.ada_grad import Adagrad
from mindjax.cells.optim.adamax import AdaMax
from mindjax.cells.optim.asgd import ASGD
from mindjax.cells.optim.rprop import Rprop
from mindjax.cells.optim.adadelta import Adadelta
from mindjax.cells.optim.ftrl import FTRL
from mindjax.cells.optim.proximal_ada_grad import ProximalAdagrad

__all__ = (["Optimizer", "SGD", "Momentum", "Adam", "AdamWeightDecay", "Lamb", "RMSProp", "Adagrad", "AdaMax", "ASGD", "Rprop",
            "Adadelta", "FTRL", "ProximalAdagrad", "AdamOffload", "LazyAdam", "LARS", "AdaFactor",
            "AdaSumByDeltaWeightWrapCell", "AdaSumByGradWrapCell", "OptTFTWrapper"]
           + _learning_rate.__all__)
