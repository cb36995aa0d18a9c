"""``mindspore.nn.wrap.grad_reducer``: gradient reduction over devices (implemented in :mod:`mindjax.parallel`)."""
from mindjax.parallel.grad_reducer import DistributedGradReducer
from mindjax.parallel.micro_batch import PipelineGradReducer

__all__ = ["DistributedGradReducer", "PipelineGradReducer"]
