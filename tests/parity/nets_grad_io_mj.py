"""MindJAX nets for the gradient input/output parity tests, line for line as ``nets_grad_io_ms.py``.

``nets_grad_io_ms.py`` defines them against MindSpore.
"""
import numpy as np
from mindjax import Parameter, Tensor, nn, ops


class MulThree(nn.Cell):
    """x * z * y: with a Python number for ``y``, only x and z are differentiated."""

    def construct(self, x, y, z):
        return x * z * y


class TupleInput(nn.Cell):
    """A tuple input and a Tensor input: MindSpore differentiates the Tensor alone."""

    def construct(self, t, x):
        return t[0] * t[1] * x


class WithConstants(nn.Cell):
    """A Tensor output beside a string, None and a number: only the Tensor has a sensitivity."""

    def __init__(self):
        super().__init__()
        self.w = Parameter(Tensor(np.array([6.0, 2.0], np.float32)), name="w")

    def construct(self, x):
        return self.w * x, "a", None, 3


class ReturnsParameter(nn.Cell):
    """Returns its Parameter beside the product: both paths reach the Parameter's gradient."""

    def __init__(self):
        super().__init__()
        self.w = Parameter(Tensor(np.array([2.0, 2.0], np.float32)), name="w")

    def construct(self, x, y):
        return x * y * self.w, x, self.w


class DictWithConstant(nn.Cell):
    """A dict output with a constant entry, differentiated with a sens of the same dict."""

    def construct(self, x):
        return {"a": ops.relu(x), "b": 2}


class Imag(nn.Cell):
    """The imaginary part of a complex input: gradient 1j in MindSpore's convention."""

    def construct(self, x):
        return ops.imag(x)


class WritesAttribute(nn.Cell):
    """Writes a Tensor to a plain attribute and reads it back: GRAPH mode cuts its gradient there."""

    def __init__(self):
        super().__init__()
        self.p = 4.0

    def construct(self, x):
        self.p = x * 3
        return self.p * x


class AddsToIntAttribute(nn.Cell):
    """``self.p = self.p + x`` on a Python int attribute, returned (test_grad_graph's ModifyNet)."""

    def __init__(self):
        super().__init__()
        self.p = 4

    def construct(self, x):
        self.p = self.p + x
        return self.p


class Add(nn.Cell):
    """x + y: with a bool ``y`` MindSpore still gives it a gradient, the sensitivity's truth value."""

    def construct(self, x, y):
        return x + y
