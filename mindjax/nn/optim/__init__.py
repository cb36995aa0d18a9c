"""``mindspore.nn.optim``: the optimizers, one module per family as in MindSpore."""
from mindjax.nn.optim import (ada_grad, adadelta, adafactor, adam, adamax, adasum, asgd, ftrl, lamb, lars, lazyadam, momentum,
                              optimizer, proximal_ada_grad, rmsprop, rprop, sgd,
                              tft_wrapper)
from mindjax.nn.optim.adadelta import Adadelta
from mindjax.nn.optim.ftrl import FTRL
from mindjax.nn.optim.proximal_ada_grad import ProximalAdagrad
from mindjax.nn.optim.ada_grad import Adagrad
from mindjax.nn.optim.adam import Adam, AdamOffload, AdamWeightDecay
from mindjax.nn.optim.adafactor import AdaFactor
from mindjax.nn.optim.adasum import AdaSumByDeltaWeightWrapCell, AdaSumByGradWrapCell
from mindjax.nn.optim.tft_wrapper import OptTFTWrapper
from mindjax.nn.optim.lars import LARS
from mindjax.nn.optim.lazyadam import LazyAdam
from mindjax.nn.optim.adamax import AdaMax
from mindjax.nn.optim.asgd import ASGD
from mindjax.nn.optim.lamb import Lamb
from mindjax.nn.optim.momentum import Momentum
from mindjax.nn.optim.optimizer import Optimizer
from mindjax.nn.optim.rmsprop import RMSProp
from mindjax.nn.optim.rprop import Rprop
from mindjax.nn.optim.sgd import SGD

__all__ = ["Optimizer", "Momentum", "Adam", "AdamWeightDecay", "Lamb", "SGD", "RMSProp", "Adagrad", "AdaMax", "ASGD", "Rprop",
           "Adadelta", "FTRL", "ProximalAdagrad", "AdamOffload", "LazyAdam", "LARS", "AdaFactor",
           "AdaSumByDeltaWeightWrapCell", "AdaSumByGradWrapCell", "OptTFTWrapper"]
