"""``mindjax.amp``: MindSpore's ``mindspore.amp`` (mixed precision and loss scaling)."""
from mindjax.train.amp import (DynamicLossScaler, LossScaler, StaticLossScaler, all_finite, auto_mixed_precision,
                               build_train_network, custom_mixed_precision, get_black_list, get_white_list)
from mindjax.train.loss_scale import DynamicLossScaleManager, FixedLossScaleManager, LossScaleManager

__all__ = ["DynamicLossScaler", "LossScaler", "StaticLossScaler", "all_finite", "auto_mixed_precision",
           "build_train_network", "custom_mixed_precision", "get_black_list", "get_white_list",
           "DynamicLossScaleManager", "FixedLossScaleManager", "LossScaleManager"]
