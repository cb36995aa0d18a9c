"""GradAccumulationCell, MicroBatchInterleaved and PipelineGradReducer, as MindSpore scripts use them."""
import numpy as np
import pytest

import mindjax as ms
from mindjax import nn
from tests.parallel.test_pipeline import _batch, _staged_loss_net


def _steps(wrap, steps=3):
    ms.set_context(mode=ms.GRAPH_MODE)
    ms.reset_auto_parallel_context()
    net = _staged_loss_net()
    opt = nn.Momentum(net.trainable_params(), 0.1, 0.9)
    step = nn.TrainOneStepCell(wrap(net), opt)
    step.set_train()
    x, y = _batch()
    return [float(step(x, y)) for _ in range(steps)], [np.asarray(p) for p in net.trainable_params()]


def test_grad_accumulation_trains_as_the_whole_batch():
    plain, plain_params = _steps(lambda net: net)
    accumulated, params = _steps(lambda net: nn.GradAccumulationCell(net, 4))
    np.testing.assert_allclose(accumulated, plain, rtol=1e-5)
    for a, b in zip(params, plain_params):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)


def test_micro_batch_interleaved_sums_the_outputs_of_the_slices(mode):
    net = _staged_loss_net()
    x, y = _batch()
    halves = float(net(x[:4], y[:4])) + float(net(x[4:], y[4:]))
    np.testing.assert_allclose(float(nn.MicroBatchInterleaved(net, 2)(x, y)), halves, rtol=1e-6)


def test_functional_pipeline_step_with_pipeline_grad_reducer_equals_the_plain_step():
    # MindSpore's documented functional pipeline step: value_and_grad over PipelineCell, the reducer, the optimizer.
    def run(pipelined):
        ms.set_context(mode=ms.GRAPH_MODE)
        ms.reset_auto_parallel_context()
        net = _staged_loss_net()
        opt = nn.SGD(net.trainable_params(), 1e-2)
        if pipelined:
            ms.set_auto_parallel_context(pipeline_stages=4)
            net = nn.PipelineCell(net, 4)
        grad_fn = ms.value_and_grad(lambda x, y: net(x, y), None, opt.parameters)
        reducer = nn.PipelineGradReducer(opt.parameters)

        @ms.jit
        def train_one_step(x, y):
            loss, grads = grad_fn(x, y)
            opt(reducer(grads))
            return loss

        x, y = _batch()
        return [float(train_one_step(x, y)) for _ in range(2)]

    np.testing.assert_allclose(run(True), run(False), rtol=1e-5)


def test_micro_batch_wrappers_reject_bad_arguments():
    net = _staged_loss_net()
    with pytest.raises(ValueError, match="For 'GradAccumulationCell', the argument 'micro_size' must be large than 0"):
        nn.GradAccumulationCell(net, 0)
    with pytest.raises(TypeError, match="For 'MicroBatchInterleaved', the argument 'interleave_num' must be integer"):
        nn.MicroBatchInterleaved(net, 2.0)
    with pytest.raises(TypeError, match="the argument 'network' must cell type"):
        nn.GradAccumulationCell(lambda x: x, 2)
    x, y = _batch()
    with pytest.raises(ValueError, match="For 'GradAccumulationCell', the batch size 8 must be divisible by 3"):
        nn.GradAccumulationCell(net, 3)(x, y)
    with pytest.raises(ValueError, match=r"expected 10 gradients \(one per Parameter\), got 1"):
        nn.PipelineGradReducer(net.trainable_params())((x,))
