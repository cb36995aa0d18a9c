"""Normalization layers: MindSpore's statistics, moving averages, names and errors."""
import numpy as np
import pytest

import mindjax as ms
from mindjax import nn


def _np(shape, seed=0):
    return np.random.default_rng(seed).standard_normal(shape).astype(np.float32)


class _Net(nn.Cell):
    def __init__(self, layer):
        super().__init__()
        self.bn1 = layer

    def construct(self, x):
        return self.bn1(x)


def test_batchnorm_parameter_names_and_flags_follow_mindspore():
    bn = nn.BatchNorm2d(3)
    assert [(p.name, p.shape, p.requires_grad) for p in bn.get_parameters()] == [
        ("mean", (3,), False), ("variance", (3,), False), ("gamma", (3,), True), ("beta", (3,), True)]
    net = _Net(nn.BatchNorm2d(3, affine=False))
    assert [(p.name, p.requires_grad) for p in net.get_parameters()] == [
        ("bn1.moving_mean", False), ("bn1.moving_variance", False), ("bn1.gamma", False),
        ("bn1.beta", False)]
    assert bn.momentum == pytest.approx(0.1)  # MindSpore stores 1 - momentum


def test_batchnorm_training_normalizes_with_batch_stats_and_updates_moving_ones(mode):
    net = _Net(nn.BatchNorm2d(3, momentum=0.8, eps=1e-3)).set_train()
    moving_mean, moving_var = np.zeros(3), np.ones(3)
    for step in range(2):
        x = _np((4, 3, 2, 3), seed=step) * (step + 1) + step
        out = np.asarray(net(ms.Tensor(x)))
        mean, var = x.mean((0, 2, 3)), x.var((0, 2, 3))
        expected = (x - mean[None, :, None, None]) / np.sqrt(var[None, :, None, None] + 1e-3)
        np.testing.assert_allclose(out, expected, rtol=1e-4, atol=1e-5)
        moving_mean = 0.8 * moving_mean + 0.2 * mean
        moving_var = 0.8 * moving_var + 0.2 * x.var((0, 2, 3), ddof=1)  # unbiased, as MindSpore
        np.testing.assert_allclose(np.asarray(net.bn1.moving_mean), moving_mean, rtol=1e-5, atol=1e-6)
        np.testing.assert_allclose(np.asarray(net.bn1.moving_variance), moving_var, rtol=1e-5, atol=1e-6)


def test_batchnorm_eval_uses_and_keeps_the_moving_statistics(mode):
    bn = nn.BatchNorm2d(2, gamma_init=2.0, beta_init=0.5, moving_mean_init=1.0, moving_var_init=4.0)
    bn.set_train(False)
    x = _np((2, 2, 3, 3))
    out = np.asarray(bn(ms.Tensor(x)))
    np.testing.assert_allclose(out, 2.0 * (x - 1.0) / np.sqrt(4.0 + 1e-5) + 0.5, rtol=1e-5, atol=1e-6)
    np.testing.assert_array_equal(np.asarray(bn.moving_mean), [1.0, 1.0])
    np.testing.assert_array_equal(np.asarray(bn.moving_variance), [4.0, 4.0])


def test_batchnorm_use_batch_statistics_overrides_the_training_flag(mode):
    x = _np((4, 2, 2, 2))
    forced = nn.BatchNorm2d(2, use_batch_statistics=True)  # eval, but batch statistics
    out = np.asarray(forced(ms.Tensor(x)))
    np.testing.assert_allclose(out.mean((0, 2, 3)), [0, 0], atol=1e-5)
    assert np.abs(np.asarray(forced.moving_mean)).sum() > 0
    frozen = nn.BatchNorm2d(2, use_batch_statistics=False).set_train()
    np.testing.assert_allclose(np.asarray(frozen(ms.Tensor(x))), x / np.sqrt(1 + 1e-5), rtol=1e-5)
    np.testing.assert_array_equal(np.asarray(frozen.moving_mean), [0, 0])


@pytest.mark.parametrize("shape,axes", [((6, 3), (0,)), ((4, 3, 5), (0, 2))])
def test_batchnorm1d_accepts_2d_and_3d_inputs(mode, shape, axes):
    bn = nn.BatchNorm1d(3).set_train()
    x = _np(shape)
    out = np.asarray(bn(ms.Tensor(x)))
    assert out.shape == shape
    np.testing.assert_allclose(np.asarray(bn.moving_mean), 0.1 * x.mean(axes), rtol=1e-5, atol=1e-6)


def test_batchnorm3d_wraps_a_batchnorm2d_like_mindspore(mode):
    net = _Net(nn.BatchNorm3d(2)).set_train()
    assert [p.name for p in net.get_parameters()][:2] == ["bn1.bn2d.moving_mean",
                                                         "bn1.bn2d.moving_variance"]
    x = _np((2, 2, 3, 2, 2))
    assert net(ms.Tensor(x)).shape == x.shape
    np.testing.assert_allclose(np.asarray(net.bn1.bn2d.moving_mean), 0.1 * x.mean((0, 2, 3, 4)),
                               rtol=1e-5, atol=1e-6)


def test_batchnorm_extend_repr_uses_mindspore_text():
    assert nn.BatchNorm2d(3).extend_repr() == (
        "num_features=3, eps=1e-05, momentum=0.9, "
        "gamma=Parameter (name=gamma, shape=(3,), dtype=Float32, requires_grad=True), "
        "beta=Parameter (name=beta, shape=(3,), dtype=Float32, requires_grad=True), "
        "moving_mean=Parameter (name=mean, shape=(3,), dtype=Float32, requires_grad=False), "
        "moving_variance=Parameter (name=variance, shape=(3,), dtype=Float32, requires_grad=False)")


@pytest.mark.parametrize("factory,error,match", [
    (lambda: nn.BatchNorm2d(0), ValueError, "'num_features' must be at least 1"),
    (lambda: nn.BatchNorm2d(3, momentum=1.5), ValueError, r"'momentum' must be a number in \[0, 1\]"),
    (lambda: nn.BatchNorm2d(3, use_batch_statistics=1), ValueError, "'use_batch_statistics'"),
    (lambda: nn.BatchNorm2d(3, data_format="NCW"), ValueError, "'data_format'"),
    (lambda: nn.LayerNorm(5), TypeError, "'normalized_shape' must be a tuple or list"),
    (lambda: nn.LayerNorm(()), ValueError, "'normalized_shape' must have at least one element"),
    (lambda: nn.GroupNorm(3, 4), ValueError, "'num_channels' must be divisible by 'num_groups'"),
    (lambda: nn.GroupNorm(0, 4), ValueError, "'num_groups' must be a positive int"),
    (lambda: nn.GroupNorm(2, 4, eps=1), TypeError, "'eps' must be a float"),
])
def test_norms_reject_bad_arguments(factory, error, match):
    with pytest.raises(error, match=match):
        factory()


def test_batchnorm_rejects_wrong_input_naming_the_cell_path(mode):
    net = _Net(nn.BatchNorm2d(3))
    with pytest.raises(ValueError, match=r"For 'BatchNorm2d' at 'bn1', expected input of rank 4 "
                                         r"\(N, C, H, W\), got shape \(2, 3\)"):
        net(ms.Tensor(_np((2, 3))))
    with pytest.raises(ValueError, match=r"For 'BatchNorm2d' at 'bn1', expected 3 channels at axis 1, "
                                         r"got input of shape \(2, 4, 2, 2\)"):
        net(ms.Tensor(_np((2, 4, 2, 2))))


def test_layernorm_normalizes_trailing_axes_with_mindspore_epsilon(mode):
    ln = nn.LayerNorm((3, 4), begin_norm_axis=1, begin_params_axis=1, gamma_init=2.0, beta_init=1.0)
    assert ln.epsilon == 1e-7
    x = _np((2, 3, 4))
    mean = x.mean((1, 2), keepdims=True)
    var = x.var((1, 2), keepdims=True)
    np.testing.assert_allclose(np.asarray(ln(ms.Tensor(x))), 2 * (x - mean) / np.sqrt(var + 1e-7) + 1,
                               rtol=1e-5, atol=1e-5)
    assert [p.name for p in ln.get_parameters()] == ["gamma", "beta"]


def test_layernorm_rejects_input_whose_trailing_dims_differ(mode):
    net = _Net(nn.LayerNorm((5,)))
    with pytest.raises(ValueError, match=r"For 'LayerNorm' at 'bn1', expected input whose dims from "
                                         r"begin_params_axis=-1 are \(5,\) .* got shape \(2, 4\)"):
        net(ms.Tensor(_np((2, 4))))


def test_groupnorm_normalizes_each_group_of_channels(mode):
    gn = nn.GroupNorm(2, 4, gamma_init=3.0, beta_init=-1.0)
    x = _np((2, 4, 3, 3))
    grouped = x.reshape(2, 2, -1)
    expected = ((grouped - grouped.mean(-1, keepdims=True))
                / np.sqrt(grouped.var(-1, keepdims=True) + 1e-5)).reshape(x.shape) * 3 - 1
    np.testing.assert_allclose(np.asarray(gn(ms.Tensor(x))), expected, rtol=1e-5, atol=1e-5)
    with pytest.raises(ValueError, match=r"For 'GroupNorm', expected input of shape \(N, 4, \.\.\.\), "
                                         r"got \(2, 3, 3\)"):
        gn(ms.Tensor(_np((2, 3, 3))))


def test_instancenorm2d_uses_per_sample_statistics_in_train_and_eval(mode):
    norm = nn.InstanceNorm2d(3)
    assert [p.name for p in norm.get_parameters()] == ["mean", "variance", "gamma", "beta"]
    x = _np((2, 3, 4, 4))
    expected = (x - x.mean((2, 3), keepdims=True)) / np.sqrt(x.var((2, 3), keepdims=True) + 1e-5)
    for training in (True, False):
        norm.set_train(training)
        np.testing.assert_allclose(np.asarray(norm(ms.Tensor(x))), expected, rtol=1e-5, atol=1e-5)
