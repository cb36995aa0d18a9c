"""ResNet with the structure and parameter names of MindSpore's model zoo (``official/cv/ResNet``).

The names a checkpoint of the model zoo's ResNet carries are kept:
``conv1.weight``, ``bn1.gamma``, ``layer1.0.conv1.weight``,
``layer2.0.down_sample_layer.0.weight``, ``end_point.weight``. ResNet-18
uses the zoo's ``res_base`` variant (``ResidualBlockBase``, BatchNorm
``bn1d``/``bn2d``, explicit padding); ResNet-50 the bottleneck
``ResidualBlock``. ``width`` scales every channel count (1.0 is the zoo's
network; smaller values make the smoke tests cheap) without changing names.

Example:
    >>> import mindjax as ms, numpy as np
    >>> net = resnet18(class_num=10, width=0.125)
    >>> net(ms.Tensor(np.zeros((2, 3, 32, 32), np.float32))).shape
    (2, 10)
"""
from __future__ import annotations

import math
from typing import Any, Sequence

import jax.numpy as jnp

from mindjax import nn
from mindjax.common.initializer import HeNormal, HeUniform, Uniform

__all__ = ["ResidualBlock", "ResidualBlockBase", "ResNet", "resnet18", "resnet50"]


def _conv(in_channel: int, out_channel: int, kernel: int, stride: int, res_base: bool) -> nn.Conv2d:
    # The zoo initialises convolutions with Kaiming normal over fan_out; res_base pads explicitly.
    init = HeNormal(mode="fan_out", nonlinearity="relu")
    if res_base and kernel > 1:
        return nn.Conv2d(in_channel, out_channel, kernel_size=kernel, stride=stride, padding=kernel // 2,
                         pad_mode="pad", weight_init=init)
    return nn.Conv2d(in_channel, out_channel, kernel_size=kernel, stride=stride,
                     pad_mode="pad" if res_base else "same", weight_init=init)


def _bn(channel: int, res_base: bool = False, last: bool = False) -> nn.BatchNorm2d:
    # res_base follows the zoo's PyTorch-like statistics (eps 1e-5, momentum 0.1 of the new batch).
    gamma = 0 if last else 1
    if res_base:
        return nn.BatchNorm2d(channel, eps=1e-5, momentum=0.1, gamma_init=gamma, beta_init=0,
                              moving_mean_init=0, moving_var_init=1)
    return nn.BatchNorm2d(channel, eps=1e-4, momentum=0.9, gamma_init=gamma, beta_init=0,
                          moving_mean_init=0, moving_var_init=1)


def _fc(in_channel: int, out_channel: int) -> nn.Dense:
    bound = 1 / math.sqrt(in_channel)
    return nn.Dense(in_channel, out_channel, has_bias=True, weight_init=HeUniform(math.sqrt(5)),
                    bias_init=Uniform(bound))


class ResidualBlock(nn.Cell):
    """The bottleneck block of ResNet-50: 1x1, 3x3 (strided), 1x1 convolutions, four times wider out.

    Arguments:
        in_channel: input channels.
        out_channel: output channels (the inner width is ``out_channel // 4``).
        stride: stride of the 3x3 convolution and of the shortcut.

    Inputs:
        x: ``(N, in_channel, H, W)``.

    Returns:
        ``(N, out_channel, H / stride, W / stride)``.
    """

    expansion = 4

    def __init__(self, in_channel: int, out_channel: int, stride: int = 1) -> None:
        super().__init__()
        channel = out_channel // self.expansion
        self.conv1 = _conv(in_channel, channel, 1, 1, False)
        self.bn1 = _bn(channel)
        self.conv2 = _conv(channel, channel, 3, stride, False)
        self.bn2 = _bn(channel)
        self.conv3 = _conv(channel, out_channel, 1, 1, False)
        self.bn3 = _bn(out_channel, last=True)
        self.relu = nn.ReLU()
        self.down_sample = stride != 1 or in_channel != out_channel
        self.down_sample_layer = None
        if self.down_sample:
            self.down_sample_layer = nn.SequentialCell([_conv(in_channel, out_channel, 1, stride, False),
                                                        _bn(out_channel)])

    def construct(self, x: Any) -> Any:
        identity = x
        out = self.relu(self.bn1(self.conv1(x)))
        out = self.relu(self.bn2(self.conv2(out)))
        out = self.bn3(self.conv3(out))
        if self.down_sample:
            identity = self.down_sample_layer(identity)
        return self.relu(out + identity)


class ResidualBlockBase(nn.Cell):
    """The basic block of ResNet-18: two 3x3 convolutions (the first strided) and a shortcut.

    Arguments:
        in_channel: input channels.
        out_channel: output channels.
        stride: stride of the first convolution and of the shortcut.
        res_base: the zoo's ``res_base`` variant (explicit padding, eps 1e-5).

    Inputs:
        x: ``(N, in_channel, H, W)``.

    Returns:
        ``(N, out_channel, H / stride, W / stride)``.
    """

    def __init__(self, in_channel: int, out_channel: int, stride: int = 1, res_base: bool = True) -> None:
        super().__init__()
        self.res_base = res_base
        self.conv1 = _conv(in_channel, out_channel, 3, stride, res_base)
        self.bn1d = _bn(out_channel, res_base)
        self.conv2 = _conv(out_channel, out_channel, 3, 1, res_base)
        self.bn2d = _bn(out_channel, res_base)
        self.relu = nn.ReLU()
        self.down_sample = stride != 1 or in_channel != out_channel
        self.down_sample_layer = None
        if self.down_sample:
            self.down_sample_layer = nn.SequentialCell([_conv(in_channel, out_channel, 1, stride, res_base),
                                                        _bn(out_channel, res_base)])

    def construct(self, x: Any) -> Any:
        identity = x
        out = self.relu(self.bn1d(self.conv1(x)))
        out = self.bn2d(self.conv2(out))
        if self.down_sample:
            identity = self.down_sample_layer(identity)
        return self.relu(out + identity)


class ResNet(nn.Cell):
    """ResNet: a 7x7 stem, max pooling, four stages of blocks, global average pooling and ``end_point``.

    Arguments:
        block: ``ResidualBlock`` or ``ResidualBlockBase``.
        layer_nums: blocks per stage.
        in_channels: input channels of each stage.
        out_channels: output channels of each stage.
        strides: stride of each stage's first block.
        num_classes: classifier outputs.
        res_base: the zoo's ``res_base`` variant (ResNet-18).
        stem_channels: channels of the stem (64 in the zoo).

    Inputs:
        x: ``(N, 3, H, W)`` images.

    Returns:
        ``(N, num_classes)`` logits.

    Raises:
        ValueError: the four per-stage lists do not each have 4 entries.
    """

    def __init__(self, block: type, layer_nums: Sequence[int], in_channels: Sequence[int],
                 out_channels: Sequence[int], strides: Sequence[int], num_classes: int,
                 res_base: bool = False, stem_channels: int = 64) -> None:
        super().__init__()
        if not len(layer_nums) == len(in_channels) == len(out_channels) == len(strides) == 4:
            raise ValueError(f"For 'ResNet', 'layer_nums', 'in_channels', 'out_channels' and 'strides' must "
                             f"each have 4 entries, got {len(layer_nums)}, {len(in_channels)}, "
                             f"{len(out_channels)} and {len(strides)}")
        self.res_base = res_base
        self.conv1 = _conv(3, stem_channels, 7, 2, res_base)
        self.bn1 = _bn(stem_channels, res_base)
        self.relu = nn.ReLU()
        if res_base:
            # The zoo pads with zeros after the ReLU and pools 'valid'; -inf padding gives the same maxima.
            self.maxpool = nn.MaxPool2d(kernel_size=3, stride=2, pad_mode="pad", padding=1)
        else:
            self.maxpool = nn.MaxPool2d(kernel_size=3, stride=2, pad_mode="same")
        extra = {"res_base": res_base} if block is ResidualBlockBase else {}
        for k in range(4):
            setattr(self, f"layer{k + 1}", self._make_layer(block, layer_nums[k], in_channels[k],
                                                            out_channels[k], strides[k], extra))
        self.flatten = nn.Flatten()
        self.end_point = _fc(out_channels[3], num_classes)

    @staticmethod
    def _make_layer(block: type, layer_num: int, in_channel: int, out_channel: int, stride: int,
                    extra: dict[str, Any]) -> nn.SequentialCell:
        layers = [block(in_channel, out_channel, stride=stride, **extra)]
        layers += [block(out_channel, out_channel, stride=1, **extra) for _ in range(1, layer_num)]
        return nn.SequentialCell(layers)

    def construct(self, x: Any) -> Any:
        x = self.relu(self.bn1(self.conv1(x)))
        c1 = self.maxpool(x)
        c2 = self.layer1(c1)
        c3 = self.layer2(c2)
        c4 = self.layer3(c3)
        c5 = self.layer4(c4)
        out = jnp.mean(c5, axis=(2, 3), keepdims=True)
        return self.end_point(self.flatten(out))


def _scaled(channels: Sequence[int], width: float) -> list[int]:
    if not width > 0:
        raise ValueError(f"For 'resnet', 'width' must be a positive number, got {width!r}")
    return [max(int(round(c * width)), 1) for c in channels]


def resnet18(class_num: int = 10, width: float = 1.0) -> ResNet:
    """ResNet-18 as the zoo builds it (``res_base``), channels scaled by ``width``.

    Arguments:
        class_num: classifier outputs.
        width: channel multiplier (1.0: 64 ... 512 channels).

    Returns:
        the ResNet Cell.
    """
    ins, outs = _scaled([64, 64, 128, 256], width), _scaled([64, 128, 256, 512], width)
    return ResNet(ResidualBlockBase, [2, 2, 2, 2], ins, outs, [1, 2, 2, 2], class_num, res_base=True,
                  stem_channels=ins[0])


def resnet50(class_num: int = 10, width: float = 1.0) -> ResNet:
    """ResNet-50 as the zoo builds it (bottleneck blocks), channels scaled by ``width``.

    Arguments:
        class_num: classifier outputs.
        width: channel multiplier (1.0: 64 ... 2048 channels); keep output channels divisible by 4.

    Returns:
        the ResNet Cell.
    """
    ins, outs = _scaled([64, 256, 512, 1024], width), _scaled([256, 512, 1024, 2048], width)
    outs = [max(4, c - c % 4) for c in outs]
    return ResNet(ResidualBlock, [3, 4, 6, 3], [ins[0]] + outs[:3], outs, [1, 2, 2, 2], class_num,
                  stem_channels=ins[0])
