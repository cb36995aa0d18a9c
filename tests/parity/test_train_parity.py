"""Model.train against MindSpore 2.10: same initial weights and data order, Momentum, a few steps.

The per-step losses, the final weights, the BatchNorm statistics and the
optimizer's moments must agree within 1e-5, in non-sink and sink mode.
"""
import os

os.environ.setdefault("GLOG_v", "3")

import numpy as np  # noqa: E402
import pytest  # noqa: E402

mindspore = pytest.importorskip("mindspore")

import mindjax  # noqa: E402
import mindjax.train  # noqa: E402,F401  (until mindjax/__init__ exports it)
from tests.parity import nets_train_mj, nets_train_ms  # noqa: E402


class _BatchList:
    """The dataset interface MindSpore's Model reads (MindSpore's own datasets need numpy<2)."""

    def __init__(self, framework, batches):
        self._framework = framework
        self._batches = batches

    def get_dataset_size(self):
        return len(self._batches)

    def create_tuple_iterator(self, num_epochs=-1, output_numpy=False, do_copy=True):
        epochs = 1 if num_epochs == -1 else num_epochs
        for _ in range(epochs):
            for batch in self._batches:
                yield [self._framework.Tensor(a) for a in batch]

    def reset(self):
        pass

    def get_col_names(self):
        return ["x", "y"]


def _data():
    rng = np.random.default_rng(0)
    return [(rng.normal(size=(8, 4)).astype(np.float32), rng.integers(0, 3, 8).astype(np.int32))
            for _ in range(3)]


def _initial_weights():
    rng = np.random.default_rng(1)
    return {"fc1.weight": rng.normal(size=(8, 4)).astype(np.float32) * 0.5,
            "fc1.bias": rng.normal(size=(8,)).astype(np.float32) * 0.1,
            "fc2.weight": rng.normal(size=(3, 8)).astype(np.float32) * 0.5,
            "fc2.bias": rng.normal(size=(3,)).astype(np.float32) * 0.1}


def _train(framework, net_module, epochs, sink):
    if framework is mindspore:
        # MindSpore's PYNATIVE BatchNorm1d reshape fails beside numpy 2; its GRAPH mode works.
        mindspore.set_context(mode=mindspore.GRAPH_MODE)
    net = net_module.TrainNet()
    for p in net.get_parameters():
        if p.name in _initial_weights():
            p.set_data(framework.Tensor(_initial_weights()[p.name]))
    loss = framework.nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    opt = framework.nn.Momentum(net.trainable_params(), learning_rate=0.1, momentum=0.9)
    model = framework.train.Model(net, loss, opt)
    losses = []
    record = framework.train.LambdaCallback(
        on_train_step_end=lambda rc: losses.append(float(np.asarray(rc.original_args().net_outputs))))
    model.train(epochs, _BatchList(framework, _data()), callbacks=[record], dataset_sink_mode=sink)
    state = {n: np.asarray(p.asnumpy()) for n, p in model.train_network.parameters_and_names()}
    return losses, state


def test_model_train_matches_mindspore_losses_weights_and_optimizer_state():
    want_losses, want = _train(mindspore, nets_train_ms, epochs=2, sink=False)
    got_losses, got = _train(mindjax, nets_train_mj, epochs=2, sink=False)
    assert len(got_losses) == len(want_losses) == 6
    np.testing.assert_allclose(got_losses, want_losses, rtol=1e-5, atol=1e-5)
    assert sorted(got) == sorted(want)
    for name in want:
        np.testing.assert_allclose(got[name], want[name].reshape(got[name].shape), rtol=1e-5, atol=1e-5,
                                   err_msg=name)


def test_sink_mode_on_cpu_gives_mindspores_loss_at_every_step_and_its_weights():
    # MindSpore's CPU backend runs sink mode as the plain loop: step_end sees every step's loss.
    want_losses, want = _train(mindspore, nets_train_ms, epochs=2, sink=True)
    got_losses, got = _train(mindjax, nets_train_mj, epochs=2, sink=True)
    assert len(got_losses) == len(want_losses) == 6
    np.testing.assert_allclose(got_losses, want_losses, rtol=1e-5, atol=1e-5)
    for name in want:
        np.testing.assert_allclose(got[name], want[name].reshape(got[name].shape), rtol=1e-5, atol=1e-5,
                                   err_msg=name)
