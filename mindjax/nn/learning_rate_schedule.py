"""``mindspore.nn.learning_rate_schedule``: schedule Cells (implemented in :mod:`mindjax.cells.learning_rate`)."""
from mindjax.cells.learning_rate import (CosineDecayLR, ExponentialDecayLR, InverseDecayLR, LearningRateSchedule,
                                        NaturalExpDecayLR, PolynomialDecayLR, WarmUpLR)

__all__ = ["LearningRateSchedule", "ExponentialDecayLR", "NaturalExpDecayLR", "InverseDecayLR", "CosineDecayLR",
           "PolynomialDecayLR", "WarmUpLR"]
