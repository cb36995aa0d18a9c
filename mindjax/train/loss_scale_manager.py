"""``mindspore.train.loss_scale_manager``: the loss-scale managers (implemented in :mod:`mindjax.train.loss_scale`)."""
from mindjax.train.loss_scale import DynamicLossScaleManager, FixedLossScaleManager, LossScaleManager

__all__ = ["LossScaleManager", "FixedLossScaleManager", "DynamicLossScaleManager"]
