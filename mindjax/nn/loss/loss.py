"""``mindspore.nn.loss.loss``: the loss Cells.

They are implemented in :mod:`mindjax.cells.loss` and :mod:`mindjax.cells.layers.extra`.
"""
from mindjax.cells.layers.extra import DiceLoss, FocalLoss
from mindjax.cells.loss import (BCELoss, BCEWithLogitsLoss, CosineEmbeddingLoss, CrossEntropyLoss, HuberLoss, KLDivLoss,
                                L1Loss, LossBase, MSELoss, NLLLoss, SmoothL1Loss, SoftmaxCrossEntropyWithLogits)
from mindjax.cells.loss_extra import CTCLoss, GaussianNLLLoss, HingeEmbeddingLoss, MAELoss, MarginRankingLoss, MultiClassDiceLoss, MultiLabelSoftMarginLoss, MultiMarginLoss, PoissonNLLLoss, RMSELoss, SoftMarginLoss, TripletMarginLoss

from mindjax.cells.layers.ext import L1LossExt

__all__ = ["CTCLoss", "GaussianNLLLoss", "HingeEmbeddingLoss", "MAELoss", "MarginRankingLoss", "MultiClassDiceLoss", "MultiLabelSoftMarginLoss", "MultiMarginLoss", "PoissonNLLLoss", "RMSELoss", "SoftMarginLoss", "TripletMarginLoss", "LossBase", "L1Loss", "MSELoss", "SmoothL1Loss", "FocalLoss", "SoftmaxCrossEntropyWithLogits", "BCELoss",
           "BCEWithLogitsLoss", "CosineEmbeddingLoss", "DiceLoss", "HuberLoss", "CrossEntropyLoss", "NLLLoss",
           "KLDivLoss"]
__all__ += ["L1LossExt"]
from mindjax.cells.loss_extra import MultilabelMarginLoss, TripletMarginWithDistanceLoss  # noqa: E402

from mindjax.cells.loss_extra import SampledSoftmaxLoss  # noqa: E402

__all__ += ["MultilabelMarginLoss", "TripletMarginWithDistanceLoss", "SampledSoftmaxLoss"]
