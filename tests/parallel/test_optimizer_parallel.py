"""enable_parallel_optimizer: optimizer state split over the data-parallel devices (ZeRO-1/2)."""
import numpy as np
import pytest

import mindjax as ms
from mindjax import nn
from tests.parallel.helpers import count, max_rel_err


class MLP(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Dense(16, 64)
        self.fc2 = nn.Dense(64, 8)

    def construct(self, x):
        return self.fc2(self.fc1(x))


def _data(steps=3):
    rng = np.random.default_rng(0)
    return [(rng.normal(size=(16, 16)).astype(np.float32), rng.normal(size=(16, 8)).astype(np.float32))
            for _ in range(steps)]


def _train(**parallel):
    ms.reset_auto_parallel_context()
    ms.set_seed(0)
    ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.DATA_PARALLEL, gradients_mean=True, **parallel)
    net = MLP()
    opt = nn.Adam(net.trainable_params(), 0.01)
    model = ms.Model(net, nn.MSELoss(), opt)
    model.train(1, _data())
    compiled = model._train_program().compile(_data(1)[0])
    moments = [p for p in opt.get_parameters() if p.name.startswith(("moment1", "moment2"))]
    return {p.name: np.asarray(p) for p in net.trainable_params()}, compiled, moments


@pytest.fixture(scope="module")
def replicated():
    return _train()


def test_zero1_splits_optimizer_state_and_keeps_the_numbers(replicated):
    params, compiled, moments = _train(enable_parallel_optimizer=True)
    assert max_rel_err(replicated[0], params) < 1e-5
    total = sum(m._value.nbytes for m in moments)
    per_device = sum(m._value.addressable_shards[0].data.nbytes for m in moments)
    assert per_device * 8 == total
    # XLA's own accounting: the step's arguments shrink by exactly 7/8 of the moments.
    saved = (replicated[1].memory_analysis().argument_size_in_bytes
             - compiled.memory_analysis().argument_size_in_bytes)
    assert saved == total - per_device


def test_zero2_splits_the_gradients_and_keeps_the_numbers(replicated):
    params, compiled, _ = _train(enable_parallel_optimizer=True,
                                 parallel_optimizer_config={"optimizer_level": "level2"})
    assert max_rel_err(replicated[0], params) < 1e-5
    hlo = compiled.as_text()
    # XLA on CPU keeps one all-reduce and slices it (it has no reduce-scatter pass); the
    # updated weight slices are gathered back.
    assert count(hlo, "all-reduce") == 1 and count(hlo, "all-gather") >= 1


def test_unknown_optimizer_level_is_rejected():
    with pytest.raises(ValueError, match=r"optimizer_level'\] must be one of \['level1', 'level2'\], "
                                         r"got 'level9'"):
        _train(enable_parallel_optimizer=True, parallel_optimizer_config={"optimizer_level": "level9"})
