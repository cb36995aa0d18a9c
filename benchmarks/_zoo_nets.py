"""LeNet-5, ResNet-18/50 and DenseNet-121 written once against MindSpore's API, for MindJAX and MindSpore alike.

The framework is chosen by the ``BENCH_FRAMEWORK`` environment variable
(``mindjax``, the default, or ``mindspore``) before this module is imported:
the same source then builds the same network on either side (``import mindjax
as ms`` against ``import mindspore as ms``). The constructs use only ``self``
attributes, so MindSpore's graph-mode parser reads them as they are.

The layouts follow the model zoo (torchvision-style ResNet v1.5 bottlenecks,
DenseNet-BC with growth 32); the classifier has ``num_classes`` outputs.
"""
from __future__ import annotations

import importlib
import os

FRAMEWORK = os.environ.get("BENCH_FRAMEWORK", "mindjax")
ms = importlib.import_module(FRAMEWORK)
nn = ms.nn
ops = ms.ops


def _conv(cin: int, cout: int, k: int, stride: int = 1) -> "nn.Conv2d":
    return nn.Conv2d(cin, cout, k, stride=stride, pad_mode="same", has_bias=False)


class Bottleneck(nn.Cell):
    """1x1 reduce, 3x3 (strided), 1x1 expand by 4; projection shortcut when the shape changes."""

    expansion = 4

    def __init__(self, cin: int, width: int, stride: int) -> None:
        super().__init__()
        cout = width * self.expansion
        self.conv1 = _conv(cin, width, 1)
        self.bn1 = nn.BatchNorm2d(width)
        self.conv2 = _conv(width, width, 3, stride)
        self.bn2 = nn.BatchNorm2d(width)
        self.conv3 = _conv(width, cout, 1)
        self.bn3 = nn.BatchNorm2d(cout)
        self.relu = nn.ReLU()
        self.down = stride != 1 or cin != cout
        if self.down:
            self.down_sample = nn.SequentialCell([_conv(cin, cout, 1, stride), nn.BatchNorm2d(cout)])

    def construct(self, x):
        identity = x
        out = self.relu(self.bn1(self.conv1(x)))
        out = self.relu(self.bn2(self.conv2(out)))
        out = self.bn3(self.conv3(out))
        if self.down:
            identity = self.down_sample(x)
        return self.relu(out + identity)


class BasicBlock(nn.Cell):
    """Two 3x3 convolutions (the first strided); projection shortcut when the shape changes."""

    expansion = 1

    def __init__(self, cin: int, width: int, stride: int) -> None:
        super().__init__()
        self.conv1 = _conv(cin, width, 3, stride)
        self.bn1 = nn.BatchNorm2d(width)
        self.conv2 = _conv(width, width, 3)
        self.bn2 = nn.BatchNorm2d(width)
        self.relu = nn.ReLU()
        self.down = stride != 1 or cin != width
        if self.down:
            self.down_sample = nn.SequentialCell([_conv(cin, width, 1, stride), nn.BatchNorm2d(width)])

    def construct(self, x):
        identity = x
        out = self.relu(self.bn1(self.conv1(x)))
        out = self.bn2(self.conv2(out))
        if self.down:
            identity = self.down_sample(x)
        return self.relu(out + identity)


class LeNet5(nn.Cell):
    """LeNet-5 as in MindSpore's tutorials, on 3-channel input (the benchmark's images)."""

    def __init__(self, num_classes: int = 10) -> None:
        super().__init__()
        self.conv1 = nn.Conv2d(3, 6, 5, pad_mode="valid")
        self.conv2 = nn.Conv2d(6, 16, 5, pad_mode="valid")
        self.relu = nn.ReLU()
        self.pool = nn.MaxPool2d(kernel_size=2, stride=2)
        self.flatten = nn.Flatten()
        self.fc1 = nn.Dense(16 * 5 * 5, 120)
        self.fc2 = nn.Dense(120, 84)
        self.fc3 = nn.Dense(84, num_classes)

    def construct(self, x):
        x = self.pool(self.relu(self.conv1(x)))
        x = self.pool(self.relu(self.conv2(x)))
        x = self.relu(self.fc1(self.flatten(x)))
        return self.fc3(self.relu(self.fc2(x)))


class ResNet(nn.Cell):
    """ResNet; ``ResNet((3, 4, 6, 3))`` is ResNet-50, ``ResNet((2, 2, 2, 2), BasicBlock)`` ResNet-18."""

    def __init__(self, blocks: tuple[int, ...] = (3, 4, 6, 3), block: type = Bottleneck,
                 num_classes: int = 10) -> None:
        super().__init__()
        self.conv1 = _conv(3, 64, 7, 2)
        self.bn1 = nn.BatchNorm2d(64)
        self.relu = nn.ReLU()
        self.maxpool = nn.MaxPool2d(kernel_size=3, stride=2, pad_mode="same")
        layers = []
        cin = 64
        for i, (n, width) in enumerate(zip(blocks, (64, 128, 256, 512))):
            stage = []
            for j in range(n):
                stage.append(block(cin, width, 2 if (j == 0 and i > 0) else 1))
                cin = width * block.expansion
            layers.append(nn.SequentialCell(stage))
        self.layer1, self.layer2, self.layer3, self.layer4 = layers
        self.mean = ops.ReduceMean(keep_dims=False)
        self.fc = nn.Dense(cin, num_classes)

    def construct(self, x):
        x = self.maxpool(self.relu(self.bn1(self.conv1(x))))
        x = self.layer4(self.layer3(self.layer2(self.layer1(x))))
        return self.fc(self.mean(x, (2, 3)))


class DenseLayer(nn.Cell):
    """BN-ReLU-1x1 conv to ``4 * growth``, BN-ReLU-3x3 conv to ``growth``; the input is concatenated on."""

    def __init__(self, cin: int, growth: int) -> None:
        super().__init__()
        self.bn1 = nn.BatchNorm2d(cin)
        self.conv1 = _conv(cin, 4 * growth, 1)
        self.bn2 = nn.BatchNorm2d(4 * growth)
        self.conv2 = _conv(4 * growth, growth, 3)
        self.relu = nn.ReLU()
        self.concat = ops.Concat(axis=1)

    def construct(self, x):
        new = self.conv1(self.relu(self.bn1(x)))
        new = self.conv2(self.relu(self.bn2(new)))
        return self.concat((x, new))


class Transition(nn.Cell):
    """BN-ReLU-1x1 conv halving the channels, 2x2 average pool."""

    def __init__(self, cin: int, cout: int) -> None:
        super().__init__()
        self.bn = nn.BatchNorm2d(cin)
        self.relu = nn.ReLU()
        self.conv = _conv(cin, cout, 1)
        self.pool = nn.AvgPool2d(kernel_size=2, stride=2)

    def construct(self, x):
        return self.pool(self.conv(self.relu(self.bn(x))))


class DenseNet(nn.Cell):
    """DenseNet-BC; ``DenseNet((6, 12, 24, 16))`` is DenseNet-121."""

    def __init__(self, blocks: tuple[int, ...] = (6, 12, 24, 16), growth: int = 32, num_classes: int = 10) -> None:
        super().__init__()
        channels = 2 * growth
        cells = [_conv(3, channels, 7, 2), nn.BatchNorm2d(channels), nn.ReLU(),
                 nn.MaxPool2d(kernel_size=3, stride=2, pad_mode="same")]
        for i, n in enumerate(blocks):
            for _ in range(n):
                cells.append(DenseLayer(channels, growth))
                channels += growth
            if i + 1 < len(blocks):
                cells.append(Transition(channels, channels // 2))
                channels //= 2
        cells += [nn.BatchNorm2d(channels), nn.ReLU()]
        self.features = nn.SequentialCell(cells)
        self.mean = ops.ReduceMean(keep_dims=False)
        self.classifier = nn.Dense(channels, num_classes)

    def construct(self, x):
        return self.classifier(self.mean(self.features(x), (2, 3)))


NETS = {
    "lenet5": LeNet5,
    "resnet18": lambda: ResNet((2, 2, 2, 2), BasicBlock),
    "resnet50": lambda: ResNet((3, 4, 6, 3)),
    "densenet121": lambda: DenseNet((6, 12, 24, 16)),
}
