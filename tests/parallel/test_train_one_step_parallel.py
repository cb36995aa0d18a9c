"""A TrainOneStepCell called directly is data parallel too (not only through Model)."""
import numpy as np
import pytest

import mindjax as ms
from mindjax import nn
from mindjax.transforms.jit import compiled_for_cell
from tests.parallel.helpers import count
from tests.parallel.nets import LeNetish, batches


def _steps(parallel: bool):
    ms.set_context(mode=ms.GRAPH_MODE)
    if parallel:
        ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.DATA_PARALLEL, gradients_mean=True)
    ms.set_seed(0)
    net = LeNetish()
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    step = nn.TrainOneStepCell(nn.WithLossCell(net, loss), nn.Momentum(net.trainable_params(), 0.1, 0.9))
    losses = [float(step(x, y)) for x, y in batches(3)]
    return step, losses, [p.asnumpy() for p in net.trainable_params()]


def test_direct_train_one_step_cell_splits_the_batch_and_matches_one_device():
    _, single_losses, single_params = _steps(parallel=False)
    ms.reset_auto_parallel_context()
    step, losses, params = _steps(parallel=True)
    np.testing.assert_allclose(losses, single_losses, rtol=1e-5)
    for a, b in zip(params, single_params):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)
    x, y = batches(1)[0]
    hlo = compiled_for_cell(step).lower(x, y).compile().as_text()
    assert count(hlo, "all-reduce") >= 1
    assert "f32[2,4,6,6]" in hlo           # each of the 8 devices convolves 16 / 8 images


def test_without_gradients_mean_the_step_sums_the_device_gradients_as_mindspore():
    # MindSpore's default gradients_mean=False all-reduces a sum: 8 devices give 8x the mean gradient.
    def one_step(lr, **parallel):
        ms.reset_auto_parallel_context()
        ms.set_context(mode=ms.GRAPH_MODE)
        if parallel:
            ms.set_auto_parallel_context(**parallel)
        ms.set_seed(0)
        net = LeNetish()
        loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
        step = nn.TrainOneStepCell(nn.WithLossCell(net, loss), nn.SGD(net.trainable_params(), lr))
        step(*batches(1)[0])
        ms.reset_auto_parallel_context()
        return [p.asnumpy() for p in net.trainable_params()]

    from mindjax.parallel import data_parallel

    data_parallel._SUM_WARNED[0] = False
    with pytest.warns(UserWarning, match="gradients_mean=False .* summed over the 8 devices"):
        summed = one_step(0.01, parallel_mode=ms.ParallelMode.DATA_PARALLEL)
    assert ms.get_auto_parallel_context("gradients_mean") is False
    for a, b in zip(summed, one_step(0.08)):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)
