"""Optimizer states follow their Parameter's layout, also one set after the optimizer was built."""
import numpy as np

import mindjax as ms
from mindjax import nn
from mindjax.parallel.auto import auto_parallel
from tests.parallel.helpers import LossRecorder


class _MLP(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Dense(16, 64)
        self.fc2 = nn.Dense(64, 16)

    def construct(self, x):
        return self.fc2(nn.ReLU()(self.fc1(x)))


def _batches(steps=3):
    rng = np.random.default_rng(0)
    return [(rng.normal(size=(8, 16)).astype(np.float32), rng.normal(size=(8, 16)).astype(np.float32))
            for _ in range(steps)]


def _train(plan_after_optimizer):
    ms.reset_auto_parallel_context()
    ms.set_context(mode=ms.GRAPH_MODE)
    ms.set_seed(0)
    net = _MLP()
    opt = nn.Adam(net.trainable_params(), 0.01)
    if plan_after_optimizer:
        ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.SEMI_AUTO_PARALLEL)
        net.shard(in_strategy=((1, 1),), parameter_plan={"fc1.weight": (8, 1), "fc2.weight": (1, 8)})
    recorder = LossRecorder()
    ms.Model(net, nn.MSELoss(), opt).train(1, _batches(), callbacks=[recorder])
    ms.reset_auto_parallel_context()
    return net, opt, recorder.losses


def test_adam_moments_take_the_layout_set_on_their_weight_after_the_optimizer_was_built():
    _, _, single = _train(plan_after_optimizer=False)
    net, opt, losses = _train(plan_after_optimizer=True)
    np.testing.assert_allclose(losses, single, rtol=1e-5)
    weight = net.fc1.weight._value.sharding
    assert len(weight.device_set) == 8 and not weight.is_fully_replicated
    for state in (opt.moment1, opt.moment2):
        moment = {p.name: p for p in state}["moment1.fc1.weight" if state is opt.moment1 else "moment2.fc1.weight"]
        assert moment._value.sharding.is_equivalent_to(weight, 2)
    assert opt.moment1[1]._value.sharding.is_fully_replicated  # fc1.bias has no plan


def test_a_layout_set_on_the_state_itself_wins_over_its_weight():
    net = _MLP()
    opt = nn.Adam(net.trainable_params(), 0.01)
    moment = opt.moment1[0]
    assert moment._followed_layout() is net.fc1.weight
    moment.sharding = "own"
    assert moment._followed_layout() is None


def test_auto_parallel_network_gives_its_layouts_to_model_and_the_optimizer_states():
    ms.reset_auto_parallel_context()
    ms.set_context(mode=ms.GRAPH_MODE)
    ms.set_seed(0)
    x, y = _batches(1)[0]
    network = auto_parallel(nn.WithLossCell(_MLP(), nn.MSELoss()), x, y,
                            search_mode="recursive_programming", memory_budget_bytes=6_000)
    plan = network.plan
    split = [p for p in network.get_parameters() if plan.param_specs.get(p.name) not in (None,)
             and any(e is not None for e in plan.param_specs[p.name])]
    assert split, "the budget should make the search split some weight"
    for p in network.get_parameters():
        assert p.sharding is not None and tuple(p.sharding.spec) == tuple(plan.param_specs[p.name])
    opt = nn.Momentum(network.trainable_params(), 0.01, 0.9)
    ms.Model(network, optimizer=opt).train(1, _batches(2))
    for p, m in zip(network.trainable_params(), opt.moments):
        assert m._value.sharding.is_equivalent_to(p._value.sharding, p.ndim)
