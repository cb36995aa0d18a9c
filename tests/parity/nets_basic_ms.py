"""MindSpore-side helpers for the basic-layer and loss parity tests.

MindSpore 2.10's PYNATIVE kernels fail in this environment on some ops that
turn Python scalars into tensors (its C extension was built against numpy 1).
The reference runs in PYNATIVE (fast) and, where that fails, in GRAPH mode,
which needs these Cells in a file.
"""
import mindspore
import numpy as np
from mindspore import nn, ops


class Forward(nn.Cell):
    """Call the wrapped Cell (compiled as one graph)."""

    def __init__(self, cell):
        super().__init__()
        self.cell = cell

    def construct(self, *inputs):
        return self.cell(*inputs)


class Softplus(nn.Cell):
    """MindSpore has no nn.Softplus; the reference is ops.softplus."""

    def __init__(self, beta=1, threshold=20):
        super().__init__()
        self.beta = beta
        self.threshold = threshold

    def construct(self, x):
        return ops.softplus(x, self.beta, self.threshold)


def _tensors(inputs):
    return [mindspore.Tensor(np.asarray(x)) for x in inputs]


def _run(fn):
    mindspore.set_context(mode=mindspore.PYNATIVE_MODE)
    try:
        return fn()
    except (SystemError, ImportError):
        mindspore.set_context(mode=mindspore.GRAPH_MODE)
        return fn()


def ms_forward(cell, *inputs):
    """``cell(*inputs)`` in MindSpore, as numpy."""
    return _run(lambda: Forward(cell)(*_tensors(inputs)).asnumpy())


def ms_input_grad(cell, *inputs, position=0):
    """The gradient of ``sum(cell(*inputs))`` w.r.t. input ``position``, as numpy."""
    return _run(lambda: mindspore.grad(Forward(cell), grad_position=position)(
        *_tensors(inputs)).asnumpy())


def copy_parameters(theirs, ours):
    """Give ``ours`` MindSpore's initial values through ``Parameter.set_data``."""
    mine = dict(ours.parameters_and_names())
    for name, param in theirs.parameters_and_names():
        mine[name].set_data(param.asnumpy())


class GetLoss(nn.LossBase):
    """Exposes ``LossBase.get_loss(x, weights)`` as a construct."""

    def construct(self, x, weights):
        return self.get_loss(x, weights)
