"""Dynamic learning-rate lists against MindSpore 2.10: values per step and the error past the end."""
import os

os.environ.setdefault("GLOG_v", "3")

import pytest  # noqa: E402

mindspore = pytest.importorskip("mindspore")

import mindjax  # noqa: E402
from tests.parity.compat_data import classification, nets  # noqa: E402


def test_get_lr_past_the_end_of_a_learning_rate_list_raises_runtime_error_as_in_mindspore():
    def run(framework):
        framework.set_context(mode=framework.GRAPH_MODE)
        net = nets(framework).SmallNet()
        opt = framework.nn.SGD(net.trainable_params(), learning_rate=[0.1, 0.05])
        step = framework.nn.TrainOneStepCell(
            framework.nn.WithLossCell(net, framework.nn.SoftmaxCrossEntropyWithLogits(sparse=True)), opt)
        x, y = classification(8, 3)[0]
        lrs = []
        for _ in range(2):
            lrs.append(float(opt.get_lr().asnumpy()))
            step(framework.Tensor(x), framework.Tensor(y))
        with pytest.raises(RuntimeError):
            opt.get_lr().asnumpy()
        return lrs

    assert run(mindjax) == pytest.approx(run(mindspore))
