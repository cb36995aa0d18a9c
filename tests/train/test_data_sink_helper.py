"""data_sink, DatasetHelper and connect_network_with_dataset over Model's dataset reading."""
import numpy as np
import pytest

import mindjax as ms
from mindjax import nn


def _data(n=3):
    return [(np.full((1, 2), i, np.float32), np.array([[float(i)]], np.float32)) for i in range(n)]


def test_data_sink_runs_sink_size_steps_per_call_continuing_across_epochs():
    seen = []

    def step(x, y):
        seen.append(None)  # traced once per signature: the function is compiled
        return (x.sum() + y.sum())

    sink = ms.data_sink(step, _data(), sink_size=2)
    # batches 0,1 then 2,0 then 1,2: the last output of each call
    assert [float(sink()) for _ in range(3)] == [3.0, 0.0, 6.0]
    assert len(seen) == 1


def test_data_sink_trains_a_network_step_by_step():
    ms.set_seed(0)
    net = nn.Dense(2, 1)
    loss = nn.MSELoss()
    opt = nn.SGD(net.trainable_params(), learning_rate=0.01)
    grad_fn = ms.value_and_grad(lambda x, y: loss(net(x), y), None, opt.parameters)

    def train_step(x, y):
        value, grads = grad_fn(x, y)
        opt(grads)
        return value

    sink = ms.data_sink(train_step, _data(), sink_size=3)
    first = float(sink())
    for _ in range(20):
        last = float(sink())
    assert last < first


def test_data_sink_checks_its_arguments():
    with pytest.raises(ValueError, match="^The 'sink_size' must be positive, but got sink_size 0.$"):
        ms.data_sink(lambda x: x, _data(), sink_size=0)
    with pytest.raises(TypeError, match="the type of 'sink_size' should be 'int', but got 'float'"):
        ms.data_sink(lambda x: x, _data(), sink_size=1.0)
    with pytest.raises(TypeError, match="For 'data_sink', 'fn' must be callable, but got int."):
        ms.data_sink(1, _data())


def test_dataset_helper_yields_tensors_per_step_for_the_epochs_asked():
    helper = ms.DatasetHelper(_data(), dataset_sink_mode=False, epoch_num=2)
    batches = list(helper)
    assert len(batches) == len(helper) == 6 and helper.sink_size() == 3
    assert all(isinstance(t, ms.Tensor) for batch in batches for t in batch)
    assert [float(x.sum()) for x, _ in batches] == [0.0, 2.0, 4.0, 0.0, 2.0, 4.0]
    sunk = ms.DatasetHelper(_data(), sink_size=2, epoch_num=2)
    assert [float(x.sum()) for x, _ in sunk] == [0.0, 2.0, 4.0, 0.0] and sunk.sink_size() == 2
    dtypes, shapes = helper.types_shapes()
    assert dtypes == [ms.float32, ms.float32] and shapes == [(1, 2), (1, 1)]


def test_dataset_helper_checks_its_arguments():
    with pytest.raises(TypeError, match="'dataset_sink_mode' must be a bool, but got int"):
        ms.DatasetHelper(_data(), dataset_sink_mode=1)
    with pytest.raises(ValueError, match="'sink_size' must be -1 or a positive int, but got 0"):
        ms.DatasetHelper(_data(), sink_size=0)
    with pytest.raises(ValueError, match="'epoch_num' must be a positive int, but got 0"):
        ms.DatasetHelper(_data(), epoch_num=0)


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
def test_connected_network_reads_the_next_batch_when_called_without_inputs(mode):
    class Net(nn.Cell):
        def construct(self, x, y):
            return x.sum() + y.sum()

    ms.set_context(mode=mode)
    try:
        helper = ms.DatasetHelper(_data(), dataset_sink_mode=True)
        net = ms.connect_network_with_dataset(Net(), helper)
        assert [float(net()) for _ in range(4)] == [0.0, 3.0, 6.0, 0.0]
        x, y = _data()[2]
        assert float(net(ms.Tensor(x), ms.Tensor(y))) == 6.0
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    plain = Net()
    assert ms.connect_network_with_dataset(plain, ms.DatasetHelper(_data(), dataset_sink_mode=False)) is plain
    with pytest.raises(TypeError, match="'dataset_helper' must be a DatasetHelper, but got list"):
        ms.connect_network_with_dataset(plain, [])
