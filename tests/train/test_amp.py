"""Mixed precision levels (float16 and bfloat16 on CPU), loss-scale managers and all_finite."""
import jax.numpy as jnp
import numpy as np
import pytest

import mindjax as ms
from mindjax import amp, nn
from mindjax.train import DynamicLossScaleManager, FixedLossScaleManager, Model
from tests.train.train_nets import BNNet, MLP, classification_batches, weights


def _dtypes_seen(net, x):
    seen = {}
    for name, cell in net.cells_and_names():
        if name:
            cell.register_forward_hook(lambda c, i, o, name=name: seen.__setitem__(name, o.dtype))
    net(x)
    return seen


@pytest.mark.parametrize("dtype", [ms.float16, ms.bfloat16], ids=["float16", "bfloat16"])
def test_o2_runs_in_low_precision_keeps_batchnorm_float32_and_returns_float32(dtype):
    net = BNNet()
    wrapped = amp.auto_mixed_precision(net, "O2", dtype)
    x = ms.Tensor(classification_batches(n_batches=1)[0][0])
    seen = _dtypes_seen(net, x)
    assert seen["fc1"] == jnp.dtype(dtype) and seen["fc2"] == jnp.dtype(dtype)
    assert seen["bn"] == jnp.dtype(dtype)  # BatchNorm computes in float32 and hands the next layer `dtype`
    assert wrapped(x).dtype == jnp.float32
    assert all(p.dtype == jnp.float32 for p in net.get_parameters())


def test_o1_runs_white_listed_cells_in_low_precision_with_float32_outputs():
    net = MLP()
    amp.auto_mixed_precision(net, "O1", ms.bfloat16)
    x = ms.Tensor(classification_batches(n_batches=1)[0][0])
    assert net(x).dtype == jnp.float32
    assert net.fc1.__dict__["_mixed_dtype"] == jnp.bfloat16


@pytest.mark.parametrize("level", ["O2", "O3"])
def test_model_trains_at_amp_levels_with_float32_master_weights(level):
    ms.set_seed(0)
    net = BNNet()
    opt = nn.Momentum(net.trainable_params(), 0.1, 0.9)
    model = Model(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"), opt, amp_level=level,
                  metrics={"loss"})
    data = classification_batches()
    before = model.eval(data)["loss"]
    model.train(4, data)
    assert model.eval(data)["loss"] < before
    assert all(v.dtype == np.float32 for v in weights(net).values())
    if level == "O2":
        assert isinstance(model.train_network, nn.TrainOneStepWithLossScaleCell)
        # float16 gradients overflow at the default 2**24: the first steps are skipped and the scale lowered.
        assert 1.0 <= float(model.train_network.scale_sense) < 2.0 ** 24


def test_build_train_network_with_bfloat16_cast_and_fixed_loss_scale_without_drop():
    net = MLP()
    opt = nn.Momentum(net.trainable_params(), 0.1, 0.9, loss_scale=128.0)
    train = amp.build_train_network(net, opt, nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"),
                                    level="O0", cast_model_type=ms.bfloat16,
                                    loss_scale_manager=FixedLossScaleManager(128.0, drop_overflow_update=False))
    assert type(train) is nn.TrainOneStepCell and train.sens == 128.0
    x, y = map(ms.Tensor, classification_batches(n_batches=1)[0])
    loss = train(x, y)
    assert loss.dtype == jnp.float32 and np.isfinite(float(loss))


def test_dynamic_loss_scale_manager_in_model_skips_the_overflow_step_and_lowers_the_scale():
    net = MLP()
    opt = nn.Momentum(net.trainable_params(), 0.1, 0.9)
    manager = DynamicLossScaleManager(init_loss_scale=2.0 ** 8, scale_factor=2, scale_window=1000)
    model = Model(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"), opt,
                  loss_scale_manager=manager)
    good = classification_batches(n_batches=1)
    model.train(1, good)
    before = weights(net)
    x, y = good[0]
    bad_x = x.copy()
    bad_x[0, 0] = np.inf
    model.train(1, [(bad_x, y)])
    for name, value in weights(net).items():
        np.testing.assert_array_equal(value, before[name], err_msg=name)
    assert manager.get_loss_scale() == 128.0
    assert int(np.asarray(opt.global_step)[0]) == 1


def test_all_finite_and_loss_scalers():
    assert bool(amp.all_finite((jnp.ones(3), jnp.zeros((2, 2)))))
    assert not bool(amp.all_finite([jnp.array([1.0, jnp.nan])]))
    scaler = amp.DynamicLossScaler(1024.0, 2, 2)
    assert float(scaler.scale(jnp.asarray(2.0))) == 2048.0
    assert float(scaler.unscale(jnp.asarray(2048.0))) == 2.0
    scaler.adjust(jnp.asarray(False))
    assert float(scaler.scale_value) == 512.0
    scaler.adjust(jnp.asarray(True))
    scaler.adjust(jnp.asarray(True))
    assert float(scaler.scale_value) == 1024.0


def test_amp_rejects_bad_levels_and_managers():
    with pytest.raises(ValueError, match="For 'auto_mixed_precision', 'amp_level' must be one of"):
        amp.auto_mixed_precision(MLP(), "O4")
    net = MLP()
    with pytest.raises(TypeError, match="'loss_scale_manager' must be a LossScaleManager"):
        amp.build_train_network(net, nn.SGD(net.trainable_params()), level="O0", loss_scale_manager=3)
    with pytest.raises(ValueError, match="For 'DynamicLossScaleManager', 'scale_window'"):
        DynamicLossScaleManager(scale_window=0)
    with pytest.raises(ValueError, match="For 'FixedLossScaleManager', 'loss_scale'"):
        FixedLossScaleManager(0.5)
