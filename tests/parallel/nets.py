"""Small networks shared by the parallel tests."""
import numpy as np

import mindjax as ms
from mindjax import nn, ops


class MegatronMLP(nn.Cell):
    """d -> 4d -> d with ops.MatMul; sharded column-then-row when ``mp`` > 1."""

    def __init__(self, d=16, mp=1, dp=1):
        super().__init__()
        rng = np.random.default_rng(0)
        self.w1 = ms.Parameter(ms.Tensor(rng.normal(size=(d, 4 * d)).astype(np.float32) * 0.1), name="w1")
        self.w2 = ms.Parameter(ms.Tensor(rng.normal(size=(4 * d, d)).astype(np.float32) * 0.1), name="w2")
        self.matmul1 = ops.MatMul().shard(((dp, 1), (1, mp)))
        self.relu = ops.ReLU().shard(((dp, mp),))
        self.matmul2 = ops.MatMul().shard(((dp, mp), (mp, 1)))

    def construct(self, x):
        return self.matmul2(self.relu(self.matmul1(x, self.w1)), self.w2)


class Block(nn.Cell):
    """Holds a sub-Cell so error paths have depth."""

    def __init__(self, strategy):
        super().__init__()
        self.inner = Inner(strategy)

    def construct(self, x):
        return self.inner(x)


class Inner(nn.Cell):
    def __init__(self, strategy):
        super().__init__()
        self.w = ms.Parameter(ms.Tensor(np.ones((16, 32), np.float32)), name="w")
        self.matmul = ops.MatMul().shard(strategy)

    def construct(self, x):
        return self.matmul(x, self.w)


class LeNetish(nn.Cell):
    """A small conv net (LeNet in miniature) for data-parallel training."""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(1, 4, 3, pad_mode="valid", weight_init="normal")
        self.relu = nn.ReLU()
        self.flatten = nn.Flatten()
        self.fc1 = nn.Dense(4 * 6 * 6, 16, weight_init="normal")
        self.fc2 = nn.Dense(16, 10, weight_init="normal")

    def construct(self, x):
        x = self.flatten(self.relu(self.conv(x)))
        return self.fc2(self.relu(self.fc1(x)))


def batches(steps=3, batch=16, seed=0):
    """``steps`` deterministic (image, label) batches of 8x8 one-channel images."""
    rng = np.random.default_rng(seed)
    return [(rng.normal(size=(batch, 1, 8, 8)).astype(np.float32),
             rng.integers(0, 10, size=(batch,)).astype(np.int32)) for _ in range(steps)]
