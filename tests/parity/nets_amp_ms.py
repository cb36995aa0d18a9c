"""MindSpore side of the O1 mixed-precision parity test (nets parsed from a file, as GRAPH mode needs)."""
import numpy as np
from mindspore import Parameter, Tensor, float32, nn, ops


class PrimBlock(nn.Cell):
    """MatMul (white) on a Parameter, Add (not white), ReLU (white)."""

    def __init__(self):
        super().__init__()
        self.matmul = ops.MatMul(transpose_b=True)
        self.add = ops.Add()
        self.relu = ops.ReLU()
        self.weight = Parameter(Tensor(np.zeros((3, 4), np.float32)), name="weight")
        self.shift = Parameter(Tensor(np.zeros((3,), np.float32)), name="shift")

    def construct(self, x):
        y = self.matmul(x, self.weight)
        z = self.add(y, self.shift)
        return self.relu(z), y, z


class O1Net(nn.Cell):
    """Primitives in construct, a Dense and an nn.ReLU, a BatchMatMul, and a block the user keeps float32."""

    def __init__(self):
        super().__init__()
        self.block = PrimBlock()
        self.kept = PrimBlock()
        self.kept.to_float(float32)
        self.fc = nn.Dense(3, 2)
        self.act = nn.ReLU()
        self.bmm = ops.BatchMatMul()
        self.mul = ops.Mul()

    def construct(self, x):
        r, y, z = self.block(x)
        kept, _, _ = self.kept(x)
        h = self.fc(r)
        a = self.act(self.mul(h, 1.0001))
        g = self.bmm(x.reshape((1, 4, 4)), x.reshape((1, 4, 4)))
        return h, a, y, z, kept, g



class SumOfOutputs(nn.Cell):
    """A scalar of every output, to differentiate the converted network."""

    def __init__(self, net):
        super().__init__(auto_prefix=False)
        self.net = net

    def construct(self, x):
        h, a, y, z, kept, g = self.net(x)
        return h.sum() + a.sum() + y.sum() + z.sum() + kept.sum() + g.sum()
