"""MindSpore nets for the grad parity tests (MindSpore's GRAPH mode parses this file).

``nets_grad_mj.py`` defines the same nets against MindJAX, line for line.
Only Tensor-Tensor arithmetic is used: MindSpore 2.10's PYNATIVE Tensor-by-float
products fail beside numpy 2.
"""
import numpy as np
from mindspore import Parameter, Tensor, nn, ops


def _param(shape, seed, name):
    rng = np.random.default_rng(seed)
    return Parameter(Tensor(rng.standard_normal(shape).astype(np.float32)), name=name)


class MLP(nn.Cell):
    """A two-layer perceptron with a mean squared error: one scalar output."""

    def __init__(self):
        super().__init__()
        self.w1 = _param((3, 4), 1, "w1")
        self.b1 = _param((4,), 2, "b1")
        self.w2 = _param((4, 2), 3, "w2")

    def construct(self, x, y):
        h = ops.tanh(ops.matmul(x, self.w1) + self.b1)
        d = ops.matmul(h, self.w2) - y
        return (d * d).mean()


class MLPWithAux(nn.Cell):
    """The MLP returning (loss, logits, hidden) for has_aux."""

    def __init__(self):
        super().__init__()
        self.w1 = _param((3, 4), 1, "w1")
        self.b1 = _param((4,), 2, "b1")
        self.w2 = _param((4, 2), 3, "w2")

    def construct(self, x, y):
        h = ops.tanh(ops.matmul(x, self.w1) + self.b1)
        logits = ops.matmul(h, self.w2)
        d = logits - y
        return (d * d).mean(), logits, h


class VectorOut(nn.Cell):
    """A non-scalar output: differentiated with ones, or with a given sensitivity."""

    def __init__(self):
        super().__init__()
        self.w = _param((3, 2), 4, "w")

    def construct(self, x, y):
        return ops.tanh(ops.matmul(x, self.w)) * y


class ScaleBprop(nn.Cell):
    """A Cell with its own backward rule: dx = dout * out, dy = dout * x.

    MindSpore's GRAPH mode forbids Parameters inside bprop.
    """

    def __init__(self):
        super().__init__()
        self.w = _param((2,), 5, "w")

    def construct(self, x, y):
        return x * y * self.w

    def bprop(self, x, y, out, dout):
        return dout * out, dout * x


class WithBprop(nn.Cell):
    """A net with a Parameter outside and inside a bprop Cell."""

    def __init__(self):
        super().__init__()
        self.inner = ScaleBprop()
        self.v = _param((2,), 6, "v")

    def construct(self, x, y):
        return (self.inner(x * self.v, y) * self.v).sum()


class Square(nn.Cell):
    def construct(self, x):
        return x * x


class Hooked(nn.Cell):
    """A net whose child gets backward hooks in the tests."""

    def __init__(self):
        super().__init__()
        self.sq = Square()
        self.w = _param((2,), 7, "w")

    def construct(self, x):
        return (self.sq(x * self.w) * x).sum()
