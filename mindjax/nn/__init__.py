"""``mindjax.nn``: MindSpore's ``mindspore.nn`` namespace.

The Cells come from the ``cells`` layer; the metrics and ``GraphCell`` live in
``train`` and the parallel wrappers (``PipelineCell``, ``DistributedGradReducer``,
``GradAccumulationCell`` ...) in ``parallel``; all are re-exported here, as
``mindspore.nn`` exports them.

MindSpore's submodules are here too, so that imports such as
``from mindspore.nn.optim.momentum import Momentum`` or
``from mindspore.nn.layer.conv import Conv2d`` work once they say ``mindjax``:
``cell``, ``layer`` (``layer.basic``, ``layer.conv`` ...), ``loss`` (``loss.loss``),
``optim`` (``optim.adam`` ...), ``wrap`` (``wrap.cell_wrapper``, ``wrap.loss_scale``),
``sparse``, ``grad``, ``dynamic_lr``, ``learning_rate_schedule`` and ``probability``
(``probability.distribution``, ``probability.bijector``). They name the same objects.
"""
from mindjax.cells import *  # noqa: F401,F403
from mindjax.cells import __all__ as _cells_all
from mindjax.train.metrics import *  # noqa: F401,F403
from mindjax.train.metrics import __all__ as _metrics_all
from mindjax.train.serialization.export import GraphCell
from mindjax.parallel.pipeline import PipelineCell
from mindjax.parallel.grad_reducer import DistributedGradReducer
from mindjax.parallel.micro_batch import GradAccumulationCell, MicroBatchInterleaved, PipelineGradReducer
from mindjax.nn import cell, dynamic_lr, grad, layer, learning_rate_schedule, loss, optim, sparse, wrap
from mindjax.nn import probability, utils
from mindjax.nn.grad import Jvp, Vjp

__all__ = (list(_cells_all) + [n for n in _metrics_all if n not in _cells_all]
           + ["GraphCell", "PipelineCell", "DistributedGradReducer", "GradAccumulationCell",
              "MicroBatchInterleaved", "PipelineGradReducer", "Jvp", "Vjp"])
