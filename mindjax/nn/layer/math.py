"""``mindspore.nn.layer.math`` (implemented in :mod:`mindjax.cells.layers.extra` and ``math_image``)."""
from mindjax.cells.layers.extra import MatMul, Range
from mindjax.cells.layers.math_image import (CosineSimilarity, DiGamma, IGamma, LBeta, LGamma, MatDet, MatInverse, Moments,
                                             ReduceLogSumExp)

__all__ = ["Range", "MatMul", "Moments", "ReduceLogSumExp", "MatDet", "MatInverse", "LGamma", "DiGamma", "IGamma",
           "LBeta", "CosineSimilarity"]
