"""Training wrappers: ``WithLossCell``, ``TrainOneStepCell``, loss scaling, ``ForwardValueAndGrad``."""
from mindjax.cells.wrap.cell_wrapper import *  # noqa: F401,F403
from mindjax.cells.wrap.loss_scale import *  # noqa: F401,F403
from mindjax.cells.wrap.dataset_helpers import *  # noqa: F401,F403
from mindjax.cells.wrap import cell_wrapper as _cell_wrapper, dataset_helpers as _dataset_helpers, loss_scale as _loss_scale

__all__ = _cell_wrapper.__all__ + _loss_scale.__all__ + _dataset_helpers.__all__
