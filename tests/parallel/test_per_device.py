"""Per-device runs: a network holding collectives trains in DATA_PARALLEL as MindSpore's ranks do (8 devices)."""
import numpy as np
import pytest

import mindjax as ms
from mindjax import nn, ops
from mindjax.parallel import per_device
from mindjax.transforms.jit import compiled_for_cell
from tests.parallel.helpers import count


class Centered(nn.Cell):
    """Centres its input by the mean over every rank's batch (two AllReduces), then a Dense."""

    def __init__(self):
        super().__init__()
        self.all_reduce = ops.AllReduce()
        self.dense = nn.Dense(4, 3)

    def construct(self, x):
        total = self.all_reduce(x.sum(0))
        rows = self.all_reduce(ops.ones((), ms.float32) * x.shape[0])
        return self.dense(x - total / rows)


def batches(steps=3):
    rng = np.random.default_rng(0)
    return [(rng.normal(size=(16, 4)).astype(np.float32) + 3, rng.normal(size=(16, 3)).astype(np.float32))
            for _ in range(steps)]


def train(loop, parallel, mode):
    """Train Centered for 3 steps; return (losses, final weight)."""
    ms.reset_auto_parallel_context()
    ms.set_context(mode=mode)
    ms.set_seed(0)
    if parallel:
        ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.DATA_PARALLEL, gradients_mean=True)
    net = Centered()
    loss_fn = nn.MSELoss()
    opt = nn.Momentum(net.trainable_params(), 0.1, 0.9)
    if loop == "TrainOneStepCell":
        step = nn.TrainOneStepCell(nn.WithLossCell(net, loss_fn), opt)
    else:
        grad_fn = ms.value_and_grad(lambda x, y: loss_fn(net(x), y), None, opt.parameters)
        reducer = ms.parallel.DistributedGradReducer(opt.parameters)

        def step(x, y):
            loss, grads = grad_fn(x, y)
            opt(reducer(grads))
            return loss

        if mode == ms.GRAPH_MODE:
            step = ms.jit(step)
    losses = [float(step(ms.Tensor(x), ms.Tensor(y)).asnumpy()) for x, y in batches()]
    return np.array(losses), net.dense.weight.asnumpy()


@pytest.mark.parametrize("loop", ["TrainOneStepCell", "value_and_grad"])
def test_data_parallel_training_with_all_reduce_equals_one_device(loop, mode):
    """The construct's AllReduces make the per-device mean the global one: the training equals one device."""
    ref_losses, ref_weight = train(loop, False, ms.PYNATIVE_MODE)
    losses, weight = train(loop, True, mode)
    np.testing.assert_allclose(losses, ref_losses, rtol=1e-5)
    np.testing.assert_allclose(weight, ref_weight, atol=1e-5)


def test_compiled_step_holds_the_constructs_all_reduces_and_the_gradient_reduction():
    ms.set_context(mode=ms.GRAPH_MODE)
    ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.DATA_PARALLEL, gradients_mean=True)
    net = Centered()
    step = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), nn.SGD(net.trainable_params(), 0.1))
    x, y = (ms.Tensor(a) for a in batches(1)[0])
    hlo = compiled_for_cell(step).lower(x, y).compile().as_text()
    # Forward: the construct's two AllReduces; then the gradient reduction (one per Parameter) and the
    # loss average. XLA's combiner joins the forward pair and the rest into one each (x needs no gradient,
    # so the AllReduce bprop is dead code). Nothing is gathered: the program runs per device.
    reduces = count(hlo, "all-reduce")
    assert 2 <= reduces <= 5, reduces
    assert "replica_groups={{0,1,2,3,4,5,6,7}}" in hlo or "'axis_0'=8" in hlo
    assert count(hlo, "all-gather") == 0


def test_per_device_state_writes_keep_each_rank_own_value():
    """BatchNorm in a per-device run updates its statistics from the device's own slice; rank 0's are read back."""

    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.norm = nn.BatchNorm1d(2, momentum=0.0)
            self.all_reduce = ops.AllReduce()

        def construct(self, x):
            return self.all_reduce(self.norm(x))

    ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.DATA_PARALLEL)
    net = Net()
    net.set_train()
    x = np.arange(32, dtype=np.float32).reshape(16, 2)
    net(ms.Tensor(x))
    np.testing.assert_allclose(net.norm.moving_mean.asnumpy(), x[:2].mean(0), rtol=1e-6)


def test_per_device_runs_a_function_over_the_devices():
    @per_device
    def global_sum(x):
        return ops.AllReduce()(x.sum())

    x = ms.Tensor(np.arange(16, dtype=np.float32))
    assert float(global_sum(x).asnumpy()) == pytest.approx(float(np.arange(16).sum()))


def test_stand_alone_runs_the_construct_once():
    net = Centered()
    x = batches(1)[0][0]
    out = net(ms.Tensor(x)).asnumpy()
    expect = (x - x.mean(0)) @ net.dense.weight.asnumpy().T + net.dense.bias.asnumpy()
    np.testing.assert_allclose(out, expect, rtol=1e-5, atol=1e-5)


def test_an_input_that_does_not_split_over_the_devices_names_the_cell_and_shape():
    ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.DATA_PARALLEL)
    with pytest.raises(ValueError, match=r"For 'Centered', running per device on 8 devices splits each input "
                                         r"along its first dimension.*input 0 has shape \(12, 4\)"):
        Centered()(ms.Tensor(np.ones((12, 4), np.float32)))


def test_a_custom_training_cell_runs_per_device_and_its_reducer_all_reduces(mode):
    """A TrainOneStepCell subclass with its own construct runs whole per device, as MindSpore's ranks do."""

    class MyStep(nn.TrainOneStepCell):
        def __init__(self, network, optimizer):
            super().__init__(network, optimizer)
            self.reducer = ms.parallel.DistributedGradReducer(optimizer.parameters)
            self.grad = ms.ops.GradOperation(get_by_list=True)

        def construct(self, x, y):
            loss = self.network(x, y)
            grads = self.reducer(self.grad(self.network, self.weights)(x, y))
            self.optimizer(grads)
            return loss

    def run(parallel):
        ms.reset_auto_parallel_context()
        ms.set_seed(0)
        if parallel:
            ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.DATA_PARALLEL, gradients_mean=True)
        net = Centered()
        step = MyStep(nn.WithLossCell(net, nn.MSELoss()), nn.Momentum(net.trainable_params(), 0.1, 0.9))
        return [float(step(ms.Tensor(x), ms.Tensor(y)).asnumpy()) for x, y in batches()], net.dense.weight.asnumpy()

    ref, ref_w = run(False)
    got, got_w = run(True)
    np.testing.assert_allclose(got, ref, rtol=1e-5)
    np.testing.assert_allclose(got_w, ref_w, atol=1e-5)


def test_train_one_step_cell_returns_whole_gradients_with_a_per_device_network():
    ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.DATA_PARALLEL, gradients_mean=True)
    net = Centered()
    step = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), nn.SGD(net.trainable_params(), 0.0),
                               return_grad=True)
    x, y = batches(1)[0]
    _, grads = step(ms.Tensor(x), ms.Tensor(y))
    ms.reset_auto_parallel_context()
    _, ref = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), nn.SGD(net.trainable_params(), 0.0),
                                 return_grad=True)(ms.Tensor(x), ms.Tensor(y))
    assert set(grads) == set(ref)
    for name in ref:
        assert grads[name].shape == ref[name].shape
        np.testing.assert_allclose(grads[name].asnumpy(), ref[name].asnumpy(), rtol=1e-5, atol=1e-6)


def test_model_train_with_a_network_holding_collectives_equals_one_device(monkeypatch):
    from mindjax.train import _step
    monkeypatch.setattr(_step, "sink_runs_on_device", lambda: True)  # a lax.scan sink, as on GPU

    def run(parallel, sink):
        ms.reset_auto_parallel_context()
        ms.set_seed(0)
        if parallel:
            ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.DATA_PARALLEL, gradients_mean=True)
        net = Centered()
        model = ms.Model(net, nn.MSELoss(), nn.Momentum(net.trainable_params(), 0.1, 0.9))
        model.train(1, batches(4), dataset_sink_mode=sink, sink_size=2 if sink else -1)
        return net.dense.weight.asnumpy()

    np.testing.assert_allclose(run(True, False), run(False, False), atol=1e-5)
    np.testing.assert_allclose(run(True, True), run(False, True), atol=1e-5)  # sink: a scan of shard_maps
