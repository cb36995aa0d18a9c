"""Small networks and data shared by the training tests."""
import numpy as np

from mindjax import nn


class MLP(nn.Cell):
    """4 -> 16 -> 3 perceptron."""

    def __init__(self, hidden=16):
        super().__init__()
        self.fc1 = nn.Dense(4, hidden)
        self.relu = nn.ReLU()
        self.fc2 = nn.Dense(hidden, 3)

    def construct(self, x):
        return self.fc2(self.relu(self.fc1(x)))


class BNNet(nn.Cell):
    """Dense, BatchNorm1d, ReLU, Dense: has BatchNorm statistics to carry."""

    def __init__(self):
        super().__init__()
        self.fc1 = nn.Dense(4, 8)
        self.bn = nn.BatchNorm1d(8)
        self.relu = nn.ReLU()
        self.fc2 = nn.Dense(8, 3)

    def construct(self, x):
        return self.fc2(self.relu(self.bn(self.fc1(x))))


def classification_batches(n_batches=4, batch=16, seed=0):
    """``[(x float32 (batch, 4), y int32 (batch,))]`` with a learnable rule."""
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(n_batches * batch, 4)).astype(np.float32)
    y = ((x[:, 0] > 0).astype(np.int32) + (x[:, 1] > 0)).astype(np.int32)
    return [(x[i:i + batch], y[i:i + batch]) for i in range(0, n_batches * batch, batch)]


def make_model(net=None, lr=0.1, metrics=None, **kwargs):
    """A Model over ``net`` (an MLP by default) with sparse softmax cross-entropy and Momentum."""
    from mindjax.train import Model

    net = net if net is not None else MLP()
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    opt = nn.Momentum(net.trainable_params(), lr, 0.9)
    return Model(net, loss, opt, metrics=metrics, **kwargs), net, opt


def weights(net):
    """``{name: numpy value}`` of every Parameter."""
    return {p.name: np.asarray(p._value) for p in net.get_parameters()}
