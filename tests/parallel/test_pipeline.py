"""Pipeline parallelism: PipelineCell with GPipe and 1F1B schedules on a mesh axis of stages."""
import jax.numpy as jnp
import numpy as np
import pytest

import mindjax as ms
from mindjax import nn
from mindjax.parallel.pipeline import PipelineCell, pipeline_schedule_1f1b
from mindjax.transforms.jit import compiled_for_cell


class Stack(nn.Cell):
    def __init__(self, stages=4):
        super().__init__()
        self.layers = nn.CellList([nn.Dense(16, 16, activation="tanh") for _ in range(stages)])
        self.out = nn.Dense(16, 4)

    def construct(self, x):
        for layer in self.layers:
            x = layer(x)
        return self.out(x)


def _staged_loss_net(order=(0, 1, 2, 3)):
    ms.set_seed(0)
    net = Stack()
    for layer, stage in zip(net.layers, order):
        layer.pipeline_stage = stage
    net.out.pipeline_stage = 3
    return nn.WithLossCell(net, nn.MSELoss())


def _batch():
    rng = np.random.default_rng(0)
    return (jnp.asarray(rng.normal(size=(8, 16)), jnp.float32),
            jnp.asarray(rng.normal(size=(8, 4)), jnp.float32))


def _train(schedule):
    ms.set_context(mode=ms.GRAPH_MODE)
    ms.reset_auto_parallel_context()
    net = _staged_loss_net()
    if schedule is not None:
        ms.set_auto_parallel_context(pipeline_stages=4)
        net = PipelineCell(net, micro_size=4, schedule=schedule)
    step = nn.TrainOneStepCell(net, nn.Momentum(net.trainable_params(), 0.1, 0.9))
    step.set_train()
    x, y = _batch()
    return [float(step(x, y)) for _ in range(3)], net


@pytest.mark.parametrize("schedule", ["gpipe", "1f1b"])
def test_pipeline_training_equals_the_unpipelined_network_for_three_steps(schedule):
    plain, _ = _train(None)
    piped, net = _train(schedule)
    np.testing.assert_allclose(piped, plain, rtol=1e-5)
    assert net.schedule == schedule


def test_pipeline_program_moves_activations_with_collective_permute():
    ms.set_context(mode=ms.GRAPH_MODE)
    ms.set_auto_parallel_context(pipeline_stages=4, pipeline_config={"pipeline_scheduler": "gpipe"})
    net = PipelineCell(_staged_loss_net(), micro_size=2)
    assert net.schedule == "gpipe"
    text = compiled_for_cell(net).lower(*_batch()).compile().as_text()
    assert "collective-permute" in text


def test_1f1b_table_runs_each_micro_batch_forward_then_backward_on_every_stage():
    kinds, batches = pipeline_schedule_1f1b(3, 5)
    when = {}
    for t in range(kinds.shape[0]):
        for s in range(3):
            if kinds[t, s]:
                when[("fb"[kinds[t, s] - 1], s, int(batches[t, s]))] = t
    assert len(when) == 2 * 3 * 5
    for m in range(5):
        for s in range(1, 3):
            assert when[("f", s - 1, m)] < when[("f", s, m)]
            assert when[("b", s, m)] < when[("b", s - 1, m)]
        assert when[("f", 2, m)] < when[("b", 2, m)]
    # At most `stages - s` micro-batches are in flight on stage s (1F1B's memory bound).
    for s in range(3):
        live = max(sum(1 for m in range(5) if when[("f", s, m)] <= t < when[("b", s, m)])
                   for t in range(kinds.shape[0]))
        assert live <= 3 - s


def test_pipeline_cell_rejects_bad_micro_size_and_schedule():
    with pytest.raises(ValueError, match="'micro_size' must be a positive int, got 0"):
        PipelineCell(_staged_loss_net(), 0)
    with pytest.raises(ValueError, match="'schedule' must be 'gpipe' or '1f1b', got 'zb'"):
        PipelineCell(_staged_loss_net(), 2, schedule="zb")


def test_pipeline_cell_rejects_a_batch_the_micro_size_does_not_divide():
    ms.set_auto_parallel_context(pipeline_stages=4)
    net = PipelineCell(_staged_loss_net(), micro_size=3)
    with pytest.raises(ValueError, match=r"input 0 of shape \(8, 16\) cannot be cut into micro_size=3"):
        net(*_batch())


def test_pipeline_cell_rejects_stages_out_of_order():
    ms.set_auto_parallel_context(pipeline_stages=4)
    net = PipelineCell(_staged_loss_net(order=(0, 2, 1, 3)), micro_size=2)
    with pytest.raises(ValueError, match="stages must run in increasing order of pipeline_stage"):
        net(*_batch())
