"""LeNet-5 with the structure and parameter names of MindSpore's model zoo."""
from __future__ import annotations

from typing import Any

from mindjax import nn
from mindjax.common.initializer import Normal


class LeNet5(nn.Cell):
    """LeNet-5: two 5x5 'valid' convolutions with max pooling, then three Dense layers.

    Arguments:
        num_class: number of output classes.
        num_channel: input channels.
        include_top: keep the classifier head.

    Example:
        >>> import mindjax as ms, numpy as np
        >>> LeNet5()(ms.Tensor(np.zeros((2, 1, 32, 32)), ms.float32)).shape
        (2, 10)
    """

    def __init__(self, num_class: int = 10, num_channel: int = 1, include_top: bool = True) -> None:
        super().__init__()
        self.conv1 = nn.Conv2d(num_channel, 6, 5, pad_mode="valid")
        self.conv2 = nn.Conv2d(6, 16, 5, pad_mode="valid")
        self.relu = nn.ReLU()
        self.max_pool2d = nn.MaxPool2d(kernel_size=2, stride=2)
        self.include_top = include_top
        if self.include_top:
            self.flatten = nn.Flatten()
            self.fc1 = nn.Dense(16 * 5 * 5, 120, weight_init=Normal(0.02))
            self.fc2 = nn.Dense(120, 84, weight_init=Normal(0.02))
            self.fc3 = nn.Dense(84, num_class, weight_init=Normal(0.02))

    def construct(self, x: Any) -> Any:
        x = self.max_pool2d(self.relu(self.conv1(x)))
        x = self.max_pool2d(self.relu(self.conv2(x)))
        if not self.include_top:
            return x
        x = self.flatten(x)
        x = self.relu(self.fc1(x))
        x = self.relu(self.fc2(x))
        return self.fc3(x)
