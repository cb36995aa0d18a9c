"""``mindspore.nn.wrap.loss_scale``: loss-scaled training (implemented in :mod:`mindjax.cells.wrap.loss_scale`)."""
from mindjax.cells.wrap.loss_scale import (DynamicLossScaleUpdateCell, FixedLossScaleUpdateCell,
                                          TrainOneStepWithLossScaleCell)

__all__ = ["TrainOneStepWithLossScaleCell", "DynamicLossScaleUpdateCell", "FixedLossScaleUpdateCell"]
