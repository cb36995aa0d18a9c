"""MindJAX twin of ``nets_compat_ms.py``, line for line."""
from mindjax import nn, ops
from mindjax.amp import all_finite


class SmallNet(nn.Cell):
    """Dense, ReLU, Dense."""

    def __init__(self):
        super().__init__()
        self.fc1 = nn.Dense(4, 8)
        self.fc2 = nn.Dense(8, 3)

    def construct(self, x):
        return self.fc2(ops.relu(self.fc1(x)))


class LossLogitsLabel(nn.Cell):
    """An evaluation network returning (loss, logits, label), as model-zoo code writes it."""

    def __init__(self, net, loss_fn):
        super().__init__(auto_prefix=False)
        self._net = net
        self._loss_fn = loss_fn

    def construct(self, data, label):
        out = self._net(data)
        return self._loss_fn(out, label), out, label


class FiniteCheckLossScaleCell(nn.TrainOneStepWithLossScaleCell):
    """MindSpore 2.10's overflow check is an Ascend/GPU kernel; this one runs on CPU."""

    def get_overflow_status(self, status, compute_output):
        return ops.logical_not(all_finite(compute_output))
