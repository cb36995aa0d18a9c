"""DATA_PARALLEL: batch split over 8 devices, replicated parameters, the gradient mean in the program."""
import jax
import numpy as np
import pytest
from jax.sharding import PartitionSpec as P

import mindjax as ms
from mindjax import nn
from mindjax.transforms.jit import compiled_for_cell
from tests.parallel.helpers import count, max_rel_err, train_lenet
from tests.parallel.nets import LeNetish, batches

DP = dict(parallel_mode=ms.ParallelMode.DATA_PARALLEL, gradients_mean=True)


@pytest.fixture(scope="module")
def single():
    return train_lenet()


def test_model_train_equals_single_device_training_on_the_global_batch(single):
    losses, params, model = train_lenet(**DP)
    np.testing.assert_allclose(losses, single[0], rtol=1e-5)
    assert max_rel_err(single[1], params) < 1e-5
    weight = model.train_network.network.backbone_network.fc1.weight._value
    assert weight.sharding.spec == P() and weight.sharding.mesh.size == 8


def test_data_parallel_step_has_one_combined_all_reduce_and_a_split_batch(single):
    _, _, model = train_lenet(steps=1, **DP)
    program = model._train_program()
    hlo = program.compile(batches(1)[0]).as_text()
    reduces = [line for line in hlo.split("\n") if " all-reduce(" in line]
    # XLA combined the 5 gradients' all-reduces (and the loss) into one; the other is the pred[] OR of
    # the label range check, which every device must agree on.
    assert len([r for r in reduces if "pred[] all-reduce(" not in r]) == 1
    assert len(reduces) <= 2
    # Each device convolves 16 / 8 = 2 images.
    assert "f32[2,4,6,6]" in hlo and "f32[16,4,6,6]" not in hlo


def test_sink_mode_data_parallel_equals_single_device(single, monkeypatch):
    from mindjax.train import _step
    monkeypatch.setattr(_step, "sink_runs_on_device", lambda: True)  # a lax.scan sink, as on GPU
    losses, params, _ = train_lenet(sink=True, **DP)
    np.testing.assert_allclose(losses, single[0][-1:], rtol=1e-5)
    assert max_rel_err(single[1], params) < 1e-5


def test_train_one_step_cell_runs_data_parallel_on_a_sharded_batch(single):
    ms.set_context(mode=ms.GRAPH_MODE)
    ms.set_seed(0)
    ms.set_auto_parallel_context(**DP)
    net = LeNetish()
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    train = nn.TrainOneStepCell(nn.WithLossCell(net, loss), nn.Momentum(net.trainable_params(), 0.1, 0.9))
    losses = []
    for x, y in batches(3):
        x, y = ms.parallel.shard_batch((x, y))
        assert x.sharding.spec[0] == ("d0", "d1", "d2") and y.sharding.spec[0] == ("d0", "d1", "d2")
        losses.append(float(train(x, y)))
    np.testing.assert_allclose(losses, single[0], rtol=1e-5)
    assert max_rel_err(single[1], {p.name: np.asarray(p) for p in net.trainable_params()}) < 1e-5
    hlo = compiled_for_cell(train).lower(x, y).compile().as_text()
    assert count(hlo, "all-reduce") >= 1


def test_batch_that_does_not_divide_over_the_devices_is_rejected():
    ms.set_auto_parallel_context(**DP)
    with pytest.raises(ValueError, match=r"For 'Model.train', in data_parallel the batch dimension of input 0 "
                                         r"\(shape \(12, 3\)\) must be divisible by the 8 devices"):
        ms.parallel.shard_batch((np.zeros((12, 3), np.float32),))


def test_dataset_strategy_splits_each_input_as_given():
    ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.SEMI_AUTO_PARALLEL,
                                 dataset_strategy=((2, 4), (8,)))
    x, y = ms.parallel.shard_batch((np.zeros((8, 8), np.float32), np.zeros((8,), np.int32)))
    assert tuple(x.sharding.spec) == ("d0", ("d1", "d2")) and y.sharding.spec[0] == ("d0", "d1", "d2")
    assert jax.device_count() == 8


def test_ms_jit_step_runs_data_parallel_on_a_sharded_batch(single):
    ms.set_seed(0)
    ms.set_auto_parallel_context(**DP)
    net = LeNetish()
    loss_fn = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    opt = nn.Momentum(net.trainable_params(), 0.1, 0.9)
    grad_fn = ms.value_and_grad(lambda x, y: loss_fn(net(x), y), None, opt.parameters)

    @ms.jit
    def step(x, y):
        loss, grads = grad_fn(x, y)
        opt(grads)
        return loss

    losses = [float(step(*ms.parallel.shard_batch(batch))) for batch in batches(3)]
    np.testing.assert_allclose(losses, single[0], rtol=1e-5)
    assert max_rel_err(single[1], {p.name: np.asarray(p) for p in net.trainable_params()}) < 1e-5


def test_communication_without_a_job_is_one_process():
    from mindjax.communication import get_group_size, get_local_rank, get_rank, init, release

    with pytest.raises(RuntimeError, match=r"For 'get_rank', call mindjax.communication.init\(\) first"):
        get_rank()
    init()
    try:
        assert (get_rank(), get_group_size(), get_local_rank()) == (0, 1, 0)
        with pytest.raises(ValueError, match="only the world group"):
            get_rank("my_group")
    finally:
        release()
