"""Pipeline as MindSpore's tutorial writes it: semi-auto, device_num=8, pipeline_stages=2, Model.train."""
import numpy as np
import pytest

import mindjax as ms
from mindjax import nn
from tests.parallel.helpers import LossRecorder


class _MLP(nn.Cell):
    def __init__(self):
        super().__init__()
        self.layer1 = nn.Dense(8, 16)
        self.relu = nn.ReLU()
        self.layer2 = nn.Dense(16, 4)

    def construct(self, x):
        return self.layer2(self.relu(self.layer1(x)))


def _batches():
    rng = np.random.default_rng(0)
    return [(rng.normal(size=(8, 8)).astype(np.float32), rng.integers(0, 4, size=(8,)).astype(np.int32))
            for _ in range(3)]


def _train(pipeline, scheduler="1f1b"):
    ms.reset_auto_parallel_context()
    ms.set_seed(0)
    net = _MLP()
    loss = nn.WithLossCell(net, nn.CrossEntropyLoss())
    if pipeline:
        ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.SEMI_AUTO_PARALLEL, device_num=8,
                                     pipeline_stages=2,
                                     pipeline_config={"pipeline_interleave": scheduler == "gpipe",
                                                      "pipeline_scheduler": scheduler})
        net.layer1.pipeline_stage = 0
        net.layer2.pipeline_stage = 1
        loss = nn.PipelineCell(loss, 4)
    model = ms.Model(loss, optimizer=nn.Momentum(net.trainable_params(), 0.1, 0.9))
    recorder = LossRecorder()
    model.train(1, _batches(), callbacks=[recorder], dataset_sink_mode=False)
    ms.reset_auto_parallel_context()
    return recorder.losses


@pytest.mark.parametrize("scheduler", ["1f1b", "gpipe"])
def test_two_stages_on_eight_devices_train_like_one_device(scheduler):
    np.testing.assert_allclose(_train(True, scheduler), _train(False), rtol=1e-5)


def test_stages_that_do_not_divide_the_devices_are_rejected():
    ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.SEMI_AUTO_PARALLEL, device_num=8,
                                 pipeline_stages=3)
    net = _MLP()
    net.layer1.pipeline_stage = 0
    net.layer2.pipeline_stage = 2
    cell = nn.PipelineCell(nn.WithLossCell(net, nn.CrossEntropyLoss()), 2)
    x, y = _batches()[0]
    with pytest.raises(ValueError, match="pipeline_stages=3 must divide the device number 8"):
        cell(ms.Tensor(x), ms.Tensor(y))
