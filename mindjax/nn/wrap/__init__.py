"""``mindspore.nn.wrap``: the training wrappers, by MindSpore module."""
from mindjax.nn.wrap import cell_wrapper, grad_reducer, loss_scale
from mindjax.nn.wrap.cell_wrapper import (ForwardValueAndGrad, GetNextSingleOp, GradAccumulationCell,
                                          MicroBatchInterleaved, ParameterUpdate, PipelineCell, TrainOneStepCell,
                                          VirtualDatasetCellTriple, WithEvalCell, WithGradCell, WithLossCell)
from mindjax.nn.wrap.grad_reducer import DistributedGradReducer, PipelineGradReducer
from mindjax.nn.wrap.loss_scale import (DynamicLossScaleUpdateCell, FixedLossScaleUpdateCell,
                                        TrainOneStepWithLossScaleCell)

from mindjax.nn.layer.timedistributed import TimeDistributed

__all__ = cell_wrapper.__all__ + loss_scale.__all__ + grad_reducer.__all__ + ["TimeDistributed"]
