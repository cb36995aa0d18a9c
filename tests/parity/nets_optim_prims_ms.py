"""A Cell that updates its Parameters with optimizer-update Primitives (the same source for both frameworks)."""
import numpy as np

import mindspore as fw
from mindspore import nn, ops


class UpdateNet(nn.Cell):
    """Momentum, Adam and a sparse Adagrad step on its own Parameters, in one construct."""

    def __init__(self, var, accum, m, v):
        super().__init__()
        self.var = fw.Parameter(fw.Tensor(var), name="var")
        self.accum = fw.Parameter(fw.Tensor(accum), name="accum")
        self.m = fw.Parameter(fw.Tensor(m), name="m")
        self.v = fw.Parameter(fw.Tensor(v), name="v")
        self.emb = fw.Parameter(fw.Tensor(var.copy()), name="emb")
        self.emb_accum = fw.Parameter(fw.Tensor(accum.copy()), name="emb_accum")
        self.momentum = ops.ApplyMomentum()
        self.adam = ops.Adam()
        self.sparse = ops.SparseApplyAdagrad(lr=0.1)
        self.lr = fw.Tensor(np.float32(0.1))
        self.mom = fw.Tensor(np.float32(0.9))

    def construct(self, grad, rows, indices):
        out = self.momentum(self.var, self.accum, self.lr, grad, self.mom)
        self.adam(self.var, self.m, self.v, self.mom, self.mom, self.lr, self.mom, self.mom, self.lr, grad)
        self.sparse(self.emb, self.emb_accum, rows, indices)
        return out
