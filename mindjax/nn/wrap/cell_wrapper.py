"""``mindspore.nn.wrap.cell_wrapper``: training wrappers.

They are implemented in :mod:`mindjax.cells.wrap` and :mod:`mindjax.parallel`.
"""
from mindjax.cells.wrap.cell_wrapper import (ForwardValueAndGrad, TrainOneStepCell, WithEvalCell, WithGradCell,
                                            WithLossCell)
from mindjax.cells.wrap.dataset_helpers import GetNextSingleOp, ParameterUpdate, VirtualDatasetCellTriple
from mindjax.parallel.micro_batch import GradAccumulationCell, MicroBatchInterleaved
from mindjax.parallel.pipeline import PipelineCell

__all__ = ["ForwardValueAndGrad", "TrainOneStepCell", "WithLossCell", "WithGradCell", "WithEvalCell",
           "GradAccumulationCell", "MicroBatchInterleaved", "PipelineCell", "ParameterUpdate",
           "VirtualDatasetCellTriple", "GetNextSingleOp"]
