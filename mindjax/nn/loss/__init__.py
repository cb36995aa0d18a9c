"""``mindspore.nn.loss``: the loss Cells; ``mindjax.nn.loss.loss`` is the module that holds them."""
from mindjax.nn.loss import loss
from mindjax.nn.loss.loss import (BCELoss, BCEWithLogitsLoss, CosineEmbeddingLoss, CrossEntropyLoss, DiceLoss,
                                  FocalLoss, HuberLoss, KLDivLoss, L1Loss, LossBase, MSELoss, NLLLoss, SmoothL1Loss,
                                  SoftmaxCrossEntropyWithLogits)

__all__ = list(loss.__all__)
