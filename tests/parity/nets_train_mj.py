"""MindJAX twin of ``nets_train_ms.py``, line for line."""
from mindjax import nn


class TrainNet(nn.Cell):
    """Dense, BatchNorm1d, ReLU, Dense."""

    def __init__(self):
        super().__init__()
        self.fc1 = nn.Dense(4, 8)
        self.bn = nn.BatchNorm1d(8)
        self.relu = nn.ReLU()
        self.fc2 = nn.Dense(8, 3)

    def construct(self, x):
        return self.fc2(self.relu(self.bn(self.fc1(x))))
