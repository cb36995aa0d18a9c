"""MindSpore 2.10's ms.parallel helpers: algo parameters, DistributedGradReducer, unsupported helpers."""
import numpy as np
import pytest

import mindjax as ms
from mindjax import nn


@pytest.fixture(autouse=True)
def _reset():
    ms.reset_auto_parallel_context()
    ms.parallel.reset_algo_parameters()
    yield
    ms.reset_auto_parallel_context()
    ms.parallel.reset_algo_parameters()


def test_algo_parameters_round_trip_with_mindspore_defaults_and_checks():
    assert ms.parallel.get_algo_parameters("fully_use_devices") is False
    assert ms.parallel.get_algo_parameters("tensor_slice_align_size") == 16
    ms.parallel.set_algo_parameters(elementwise_op_strategy_follow=True, algo_approxi_epsilon=0.2)
    assert ms.parallel.get_algo_parameters("elementwise_op_strategy_follow") is True
    assert ms.parallel.get_algo_parameters("algo_approxi_epsilon") == 0.2
    with pytest.raises(TypeError, match="'fully_use_devices' must be bool, but got int"):
        ms.parallel.set_algo_parameters(fully_use_devices=1)
    with pytest.raises(ValueError, match="'bogus' is not recognized"):
        ms.parallel.set_algo_parameters(bogus=1)
    ms.parallel.reset_algo_parameters()
    assert ms.parallel.get_algo_parameters("elementwise_op_strategy_follow") is False


def _functional_losses(reducer_kwargs=None, **parallel):
    ms.reset_auto_parallel_context()
    ms.set_seed(0)
    if parallel:
        ms.set_auto_parallel_context(**parallel)
    net = nn.Dense(4, 3)
    optimizer = nn.SGD(net.trainable_params(), 0.1)
    loss_fn = nn.CrossEntropyLoss()
    grad_fn = ms.value_and_grad(lambda x, y: loss_fn(net(x), y), None, net.trainable_params())
    reducer = ms.parallel.DistributedGradReducer(optimizer.parameters, **(reducer_kwargs or {}))

    @ms.jit
    def train_step(x, y):
        loss, grads = grad_fn(x, y)
        optimizer(reducer(grads))
        return loss

    rng = np.random.default_rng(0)
    x, y = rng.normal(size=(8, 4)).astype(np.float32), rng.integers(0, 3, size=(8,)).astype(np.int32)
    x, y = ms.parallel.shard_batch((x, y)) if parallel else (x, y)
    return [float(train_step(x, y)) for _ in range(3)]


def test_distributed_grad_reducer_step_equals_stand_alone_with_gradients_mean():
    single = _functional_losses()
    parallel = _functional_losses(parallel_mode=ms.ParallelMode.DATA_PARALLEL, gradients_mean=True)
    np.testing.assert_allclose(parallel, single, rtol=1e-5)


def test_distributed_grad_reducer_without_mean_sums_like_mindspore():
    # MindSpore sums the 8 per-device gradients: the same as 8x the learning rate on one device.
    summed = _functional_losses(parallel_mode=ms.ParallelMode.DATA_PARALLEL, gradients_mean=False)
    scaled = _functional_losses(reducer_kwargs={"mean": False, "degree": 8})
    np.testing.assert_allclose(summed, scaled, rtol=1e-5)
    assert abs(summed[2] - _functional_losses()[2]) > 1e-3


def test_distributed_grad_reducer_checks_its_arguments_and_the_gradient_count():
    with pytest.raises(ValueError, match="'degree' must be a positive int, got 0"):
        ms.parallel.DistributedGradReducer([], degree=0)
    reducer = ms.parallel.DistributedGradReducer(nn.Dense(2, 2).trainable_params())
    with pytest.raises(ValueError, match="expected 2 gradients"):
        reducer((np.zeros(2),))


def test_set_op_strategy_config_raises_naming_the_alternative():
    with pytest.raises(NotImplementedError, match=r"'mindjax.parallel.set_op_strategy_config' is not supported: "
                                                  r".*get_strategy"):
        ms.parallel.set_op_strategy_config("SAVE", "/tmp/s.json")


def test_parameter_broadcast_in_one_process_checks_its_arguments_and_keeps_the_values():
    net = nn.Dense(3, 2)
    before = {p.name: p.asnumpy() for p in net.get_parameters()}
    assert ms.parameter_broadcast(net, net.parameters_dict()) is None
    assert ms.parallel.parameter_broadcast is ms.parameter_broadcast
    for p in net.get_parameters():
        np.testing.assert_array_equal(p.asnumpy(), before[p.name])
    with pytest.raises(ValueError, match=r"For 'parameter_broadcast', 'cur_rank' must be the current rank 0, but "
                                         r"got 1"):
        ms.parameter_broadcast(net, {}, cur_rank=1)
    with pytest.raises(ValueError, match=r"'initial_rank' must be the first rank of the current pipeline stage "
                                         r"\(0 .. 0\), but got 2"):
        ms.parameter_broadcast(net, {}, initial_rank=2)
    with pytest.raises(ValueError, match=r"the parameter\(s\) \['fc.weight'\] of 'layout' are not in the net's"):
        ms.parameter_broadcast(net, {"fc.weight": None})
    with pytest.raises(TypeError, match="For 'parameter_broadcast', 'net' must be a Cell"):
        ms.parameter_broadcast({}, {})


def test_sync_pipeline_shared_parameters_is_a_no_op():
    assert ms.parallel.sync_pipeline_shared_parameters(nn.Dense(2, 2)) is None
