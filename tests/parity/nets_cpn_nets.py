"""Twin nets for the conv/pool/norm parity tests: the same structure in MindSpore and MindJAX.

MindSpore's GRAPH mode parses ``construct`` from source, so these live in a file.
"""
import mindspore
import mindjax


def _layers(nn):
    """The layer stack, built from either framework's ``nn``."""
    return dict(
        conv1=nn.Conv2d(3, 4, 3, stride=2, has_bias=True),
        bn1=nn.BatchNorm2d(4),
        pool=nn.MaxPool2d(kernel_size=3, stride=1, pad_mode="same"),
        up=nn.Conv2dTranspose(4, 2, 2, stride=2, pad_mode="valid", has_bias=True),
        gn=nn.GroupNorm(2, 2),
        ln=nn.LayerNorm((8,)),
        gap=nn.AdaptiveAvgPool2d(1),
    )


class MsNet(mindspore.nn.Cell):
    """conv -> bn -> pool -> transposed conv -> group norm -> layer norm, global pool."""

    def __init__(self):
        super().__init__()
        for name, layer in _layers(mindspore.nn).items():
            setattr(self, name, layer)

    def construct(self, x):
        x = self.pool(self.bn1(self.conv1(x)))
        x = self.ln(self.gn(self.up(x)))
        return x, self.gap(x)


class MjNet(mindjax.nn.Cell):
    """The MindJAX twin of :class:`MsNet`."""

    def __init__(self):
        super().__init__()
        for name, layer in _layers(mindjax.nn).items():
            setattr(self, name, layer)

    def construct(self, x):
        x = self.pool(self.bn1(self.conv1(x)))
        x = self.ln(self.gn(self.up(x)))
        return x, self.gap(x)
