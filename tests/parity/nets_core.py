"""Nets built the same way against either framework (for naming parity)."""
import numpy as np


def build_nested(ms, nn):
    """A net with nested Cells, containers, explicit and default names."""

    class Sub(nn.Cell):
        def __init__(self):
            super().__init__()
            self.fc = nn.Dense(3, 4)
            self.w = ms.Parameter(ms.Tensor(np.ones(2), ms.float32), name="explicit")
            self.v = ms.Parameter(ms.Tensor(np.ones(2), ms.float32))

        def construct(self, x):
            return self.fc(x)

    class NoPrefix(nn.Cell):
        def __init__(self):
            super().__init__(auto_prefix=False)
            self.inner = Sub()

        def construct(self, x):
            return self.inner(x)

    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.sub = Sub()
            self.layers = nn.CellList([nn.Dense(4, 4), nn.ReLU(), nn.Dense(4, 2)])
            self.seq = nn.SequentialCell([nn.Dense(2, 2), nn.Dense(2, 2)])
            self.np = NoPrefix()
            self.q = ms.Parameter(ms.Tensor(np.ones(2), ms.float32), name="named_q")

        def construct(self, x):
            return x

    return Net()
