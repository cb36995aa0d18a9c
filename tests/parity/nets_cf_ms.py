"""MindSpore nets with tensor control flow (MindSpore's GRAPH mode parses this file).

``nets_cf_mj.py`` defines the same nets against MindJAX, line for line.
"""
import numpy as np
from mindspore import Parameter, Tensor, nn, ops


def _param(shape, seed, name):
    rng = np.random.default_rng(seed)
    return Parameter(Tensor((rng.standard_normal(shape) * 0.5).astype(np.float32)), name=name)


class BranchNet(nn.Cell):
    """if/elif/else on a tensor, a different weight on each path."""

    def __init__(self):
        super().__init__()
        self.w1 = _param((3, 4), 1, "w1")
        self.w2 = _param((3, 4), 2, "w2")
        self.b = _param((4,), 3, "b")

    def construct(self, x):
        s = x.sum()
        if s > 1:
            h = ops.tanh(ops.matmul(x, self.w1))
        elif s > -1:
            h = ops.matmul(x, self.w2) + self.b
        else:
            h = ops.sigmoid(ops.matmul(x, self.w1 + self.w2))
        return (h * h).sum()


class WhileNet(nn.Cell):
    """A while loop whose trip count depends on the data."""

    def __init__(self):
        super().__init__()
        self.w = _param((4,), 4, "w")
        self.limit = Tensor(6.0)

    def construct(self, x):
        h = x
        while ops.abs(h).sum() < self.limit:
            h = h * 2 + self.w
        return (h * self.w).sum()


class ForBreakNet(nn.Cell):
    """A for loop over a Python range that breaks on a tensor condition."""

    def __init__(self):
        super().__init__()
        self.w = _param((4, 4), 5, "w")
        self.b = _param((4,), 6, "b")
        self.threshold = Tensor(1.0)

    def construct(self, x):
        h = x
        for _ in range(4):
            h = ops.tanh(ops.matmul(h, self.w) + self.b)
            if h.sum() > self.threshold:
                break
        return (h * h).sum()
