"""``mindspore.nn.loss``: the loss Cells; ``mindjax.nn.loss.loss`` is the module that holds them."""
from mindjax.nn.loss import loss
from mindjax.nn.loss.loss import (BCELoss, BCEWithLogitsLoss, CosineEmbeddingLoss, CrossEntropyLoss, DiceLoss,
                                  FocalLoss, HuberLoss, KLDivLoss, L1Loss, LossBase, MSELoss, NLLLoss, SmoothL1Loss,
                                  SoftmaxCrossEntropyWithLogits)

globals().update({name: getattr(loss, name) for name in loss.__all__})  # the newer losses too

__all__ = list(loss.__all__)
