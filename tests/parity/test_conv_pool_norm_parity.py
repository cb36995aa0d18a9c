"""Parity of conv, pooling and normalization layers with the real MindSpore 2.10.

Each test builds the layer in both frameworks, gives MindSpore MindJAX's
(randomised) Parameters through ``set_data``, and compares outputs, parameter
names and shapes. MindSpore runs in GRAPH mode: several of its PYNATIVE kernels
(reshape/squeeze with a shape tuple) fail beside numpy 2.
"""
import os

os.environ.setdefault("GLOG_v", "3")

import re  # noqa: E402

import numpy as np  # noqa: E402
import pytest  # noqa: E402

import mindspore  # noqa: E402

import mindjax as mj  # noqa: E402
from nets_cpn_nets import MjNet, MsNet  # noqa: E402

ATOL = RTOL = 1e-5


@pytest.fixture(autouse=True)
def _mindspore_graph_mode():
    previous = mindspore.get_context("mode")
    mindspore.set_context(mode=mindspore.GRAPH_MODE)
    yield
    mindspore.set_context(mode=previous)


def _randomise_and_copy(mj_cell, ms_cell, seed=0):
    """Give every MindJAX Parameter random values and copy them into MindSpore's twin."""
    rng = np.random.default_rng(seed)
    mj_params = list(mj_cell.parameters_and_names())
    ms_params = list(ms_cell.parameters_and_names())
    assert [(n, p.name, tuple(p.shape), p.requires_grad) for n, p in mj_params] == \
        [(n, p.name, tuple(p.shape), p.requires_grad) for n, p in ms_params]
    for (name, mj_p), (_, ms_p) in zip(mj_params, ms_params):
        value = rng.standard_normal(mj_p.shape).astype(np.float32)
        if "variance" in name:
            value = np.abs(value) + 0.5
        mj_p.set_data(mj.Tensor(value))
        ms_p.set_data(mindspore.Tensor(value))


def _compare(mj_cell, ms_cell, shape, seed=1):
    x = np.random.default_rng(seed).standard_normal(shape).astype(np.float32)
    ms_out = ms_cell(mindspore.Tensor(x))
    mj_out = mj_cell(mj.Tensor(x))
    if isinstance(ms_out, tuple):
        for a, b in zip(mj_out, ms_out):
            np.testing.assert_allclose(np.asarray(a), b.asnumpy(), rtol=RTOL, atol=ATOL)
        return
    assert tuple(mj_out.shape) == tuple(ms_out.shape)
    np.testing.assert_allclose(np.asarray(mj_out), ms_out.asnumpy(), rtol=RTOL, atol=ATOL)


def _pair(name, kwargs):
    return getattr(mj.nn, name)(**kwargs), getattr(mindspore.nn, name)(**kwargs)


def _repr_without_objects(text):
    # MindSpore prints initializers as '<... object at 0x...>'; MindJAX prints their arguments
    return re.sub(r"(weight_init|bias_init)=(<[^>]*>|\w+\([^)]*\))", r"\1=?", text)


CONV_CASES = [
    ("Conv2d", dict(in_channels=4, out_channels=6, kernel_size=3), (2, 4, 7, 7)),
    ("Conv2d", dict(in_channels=4, out_channels=6, kernel_size=3, stride=2), (2, 4, 8, 7)),
    ("Conv2d", dict(in_channels=4, out_channels=6, kernel_size=4, stride=2, has_bias=True), (2, 4, 9, 8)),
    ("Conv2d", dict(in_channels=4, out_channels=6, kernel_size=3, stride=2, dilation=2), (2, 4, 9, 10)),
    ("Conv2d", dict(in_channels=4, out_channels=6, kernel_size=(2, 3), stride=(1, 2)), (2, 4, 6, 9)),
    ("Conv2d", dict(in_channels=4, out_channels=6, kernel_size=3, pad_mode="valid"), (2, 4, 7, 7)),
    ("Conv2d", dict(in_channels=4, out_channels=6, kernel_size=3, pad_mode="valid", stride=3,
                    dilation=2), (2, 4, 11, 12)),
    ("Conv2d", dict(in_channels=4, out_channels=6, kernel_size=3, pad_mode="pad", padding=1), (2, 4, 7, 7)),
    ("Conv2d", dict(in_channels=4, out_channels=6, kernel_size=3, pad_mode="pad",
                    padding=(1, 2, 0, 3), stride=2, has_bias=True), (2, 4, 7, 8)),
    ("Conv2d", dict(in_channels=4, out_channels=6, kernel_size=3, group=2, has_bias=True), (2, 4, 6, 6)),
    ("Conv2d", dict(in_channels=4, out_channels=4, kernel_size=3, group=4, stride=2), (2, 4, 6, 6)),
    ("Conv1d", dict(in_channels=4, out_channels=6, kernel_size=3, stride=2), (2, 4, 9)),
    ("Conv1d", dict(in_channels=4, out_channels=6, kernel_size=4, pad_mode="valid", has_bias=True), (2, 4, 9)),
    ("Conv1d", dict(in_channels=4, out_channels=6, kernel_size=3, pad_mode="pad", padding=2,
                    dilation=2), (2, 4, 9)),
    ("Conv1d", dict(in_channels=4, out_channels=6, kernel_size=3, group=2, has_bias=True), (2, 4, 8)),
    ("Conv3d", dict(in_channels=2, out_channels=4, kernel_size=3, stride=2, has_bias=True), (1, 2, 5, 6, 7)),
    ("Conv3d", dict(in_channels=2, out_channels=4, kernel_size=(2, 3, 3), pad_mode="pad",
                    padding=(1, 0, 1, 2, 0, 1)), (1, 2, 5, 6, 7)),
    ("Conv3d", dict(in_channels=4, out_channels=4, kernel_size=3, group=2, pad_mode="valid"), (1, 4, 5, 5, 5)),
    ("Conv2dTranspose", dict(in_channels=4, out_channels=6, kernel_size=3), (2, 4, 5, 6)),
    ("Conv2dTranspose", dict(in_channels=4, out_channels=6, kernel_size=3, stride=2, has_bias=True), (2, 4, 5, 6)),
    ("Conv2dTranspose", dict(in_channels=4, out_channels=6, kernel_size=4, stride=2), (2, 4, 5, 6)),
    ("Conv2dTranspose", dict(in_channels=4, out_channels=6, kernel_size=3, stride=2, dilation=2), (2, 4, 5, 6)),
    ("Conv2dTranspose", dict(in_channels=4, out_channels=6, kernel_size=3, pad_mode="valid", stride=2),
     (2, 4, 5, 6)),
    ("Conv2dTranspose", dict(in_channels=4, out_channels=6, kernel_size=2, pad_mode="valid", stride=3),
     (2, 4, 5, 6)),
    ("Conv2dTranspose", dict(in_channels=4, out_channels=6, kernel_size=3, pad_mode="pad",
                             padding=(1, 2, 0, 1), stride=2), (2, 4, 5, 6)),
    ("Conv2dTranspose", dict(in_channels=4, out_channels=6, kernel_size=3, pad_mode="pad", padding=1,
                             stride=2, output_padding=1, has_bias=True), (2, 4, 5, 6)),
    ("Conv2dTranspose", dict(in_channels=4, out_channels=6, kernel_size=3, group=2, stride=2,
                             has_bias=True), (2, 4, 5, 6)),
    ("Conv1dTranspose", dict(in_channels=4, out_channels=6, kernel_size=3, stride=2), (2, 4, 7)),
    ("Conv1dTranspose", dict(in_channels=4, out_channels=6, kernel_size=3, pad_mode="valid", stride=2,
                             has_bias=True), (2, 4, 7)),
    ("Conv1dTranspose", dict(in_channels=4, out_channels=6, kernel_size=3, pad_mode="pad", padding=1,
                             stride=2, dilation=2), (2, 4, 7)),
    ("Conv1dTranspose", dict(in_channels=4, out_channels=6, kernel_size=3, group=2), (2, 4, 7)),
]


@pytest.mark.parametrize("name,kwargs,shape", CONV_CASES,
                         ids=[f"{c[0]}-{i}" for i, c in enumerate(CONV_CASES)])
def test_conv_layers_match_mindspore(name, kwargs, shape):
    mj_cell, ms_cell = _pair(name, kwargs)
    _randomise_and_copy(mj_cell, ms_cell)
    _compare(mj_cell, ms_cell, shape)
    assert _repr_without_objects(mj_cell.extend_repr()) == _repr_without_objects(ms_cell.extend_repr())


POOL_CASES = [
    ("MaxPool2d", dict(kernel_size=2, stride=2), (2, 3, 7, 8)),
    ("MaxPool2d", dict(kernel_size=3, stride=2, pad_mode="same"), (2, 3, 7, 8)),
    ("MaxPool2d", dict(kernel_size=(2, 3), stride=(2, 1), pad_mode="same"), (3, 7, 8)),
    ("MaxPool2d", dict(kernel_size=3, stride=2, pad_mode="pad", padding=1), (2, 3, 7, 8)),
    ("MaxPool2d", dict(kernel_size=2, stride=2, pad_mode="pad", padding=1, ceil_mode=True), (2, 3, 5, 6)),
    ("MaxPool2d", dict(kernel_size=2, stride=1, pad_mode="pad", padding=(1, 0), dilation=2), (2, 3, 6, 6)),
    ("MaxPool2d", dict(kernel_size=3, stride=2, pad_mode="pad", padding=1, return_indices=True), (2, 3, 7, 8)),
    ("MaxPool1d", dict(kernel_size=3, stride=2), (2, 3, 9)),
    ("MaxPool1d", dict(kernel_size=3, stride=2, pad_mode="same"), (2, 3, 8)),
    ("MaxPool1d", dict(kernel_size=3, stride=2, pad_mode="pad", padding=1, return_indices=True), (2, 3, 8)),
    ("AvgPool2d", dict(kernel_size=2, stride=2), (2, 3, 7, 8)),
    ("AvgPool2d", dict(kernel_size=3, stride=2, pad_mode="same"), (2, 3, 7, 8)),
    ("AvgPool2d", dict(kernel_size=3, stride=2, pad_mode="same", ceil_mode=True), (2, 3, 6, 7)),
    ("AvgPool2d", dict(kernel_size=3, stride=2, pad_mode="pad", padding=1), (2, 3, 7, 8)),
    ("AvgPool2d", dict(kernel_size=3, stride=2, pad_mode="pad", padding=(1, 0),
                       count_include_pad=False), (3, 7, 8)),
    ("AvgPool2d", dict(kernel_size=2, stride=2, ceil_mode=True), (2, 3, 5, 7)),
    ("AvgPool2d", dict(kernel_size=3, stride=2, pad_mode="pad", padding=1, ceil_mode=True), (2, 3, 6, 8)),
    ("AvgPool2d", dict(kernel_size=2, stride=2, divisor_override=3), (2, 3, 6, 6)),
    ("AvgPool1d", dict(kernel_size=3, stride=2), (2, 3, 9)),
    ("AvgPool1d", dict(kernel_size=5, stride=2), (2, 3, 5)),
    ("AvgPool1d", dict(kernel_size=4, stride=3), (2, 3, 6)),
    ("AvgPool1d", dict(kernel_size=3, stride=2, pad_mode="same"), (2, 3, 8)),
    ("AvgPool1d", dict(kernel_size=3, stride=2, pad_mode="pad", padding=1, count_include_pad=False),
     (2, 3, 8)),
    ("AdaptiveAvgPool2d", dict(output_size=1), (2, 3, 7, 6)),
    ("AdaptiveAvgPool2d", dict(output_size=(3, 4)), (2, 3, 7, 10)),
    ("AdaptiveAvgPool2d", dict(output_size=(2, None)), (3, 6, 5)),
    ("AdaptiveMaxPool2d", dict(output_size=(3, 4)), (2, 3, 7, 10)),
    ("AdaptiveMaxPool2d", dict(output_size=2), (2, 3, 4, 6)),
    ("AdaptiveMaxPool2d", dict(output_size=(3, 2), return_indices=True), (2, 3, 7, 5)),
    ("AdaptiveAvgPool1d", dict(output_size=3), (2, 3, 9)),
    ("AdaptiveMaxPool1d", dict(output_size=2), (2, 3, 8)),
]


@pytest.mark.parametrize("name,kwargs,shape", POOL_CASES,
                         ids=[f"{c[0]}-{i}" for i, c in enumerate(POOL_CASES)])
def test_pooling_layers_match_mindspore(name, kwargs, shape):
    mj_cell, ms_cell = _pair(name, kwargs)
    _compare(mj_cell, ms_cell, shape)
    if hasattr(ms_cell, "extend_repr"):
        assert mj_cell.extend_repr() == ms_cell.extend_repr()


NORM_CASES = [
    ("LayerNorm", dict(normalized_shape=(5,)), (2, 3, 5)),
    ("LayerNorm", dict(normalized_shape=(3, 5), begin_norm_axis=1, begin_params_axis=1), (2, 3, 5)),
    ("LayerNorm", dict(normalized_shape=(5,), begin_norm_axis=1, begin_params_axis=-1,
                       epsilon=1e-5), (2, 3, 5)),
    ("GroupNorm", dict(num_groups=2, num_channels=4), (2, 4, 3, 3)),
    ("GroupNorm", dict(num_groups=1, num_channels=3, eps=1e-3), (2, 3, 5)),
]


@pytest.mark.parametrize("name,kwargs,shape", NORM_CASES,
                         ids=[f"{c[0]}-{i}" for i, c in enumerate(NORM_CASES)])
def test_layer_and_group_norm_match_mindspore(name, kwargs, shape):
    mj_cell, ms_cell = _pair(name, kwargs)
    _randomise_and_copy(mj_cell, ms_cell)
    _compare(mj_cell, ms_cell, shape)
    assert mj_cell.extend_repr() == ms_cell.extend_repr()


BN_CASES = [
    ("BatchNorm2d", dict(num_features=3), (4, 3, 2, 3)),
    ("BatchNorm2d", dict(num_features=3, momentum=0.7, eps=1e-3), (2, 3, 4, 4)),
    ("BatchNorm1d", dict(num_features=3), (5, 3)),
    ("BatchNorm1d", dict(num_features=3), (4, 3, 5)),
    ("BatchNorm3d", dict(num_features=2), (2, 2, 3, 2, 3)),
]


@pytest.mark.parametrize("name,kwargs,shape", BN_CASES,
                         ids=[f"{c[0]}-{i}" for i, c in enumerate(BN_CASES)])
def test_batchnorm_training_statistics_and_eval_match_mindspore(name, kwargs, shape):
    mj_cell, ms_cell = _pair(name, kwargs)
    _randomise_and_copy(mj_cell, ms_cell)
    mj_cell.set_train()
    ms_cell.set_train()
    for step in range(2):
        _compare(mj_cell, ms_cell, shape, seed=10 + step)
    for (name_, mj_p), (_, ms_p) in zip(mj_cell.parameters_and_names(), ms_cell.parameters_and_names()):
        np.testing.assert_allclose(np.asarray(mj_p), ms_p.asnumpy(), rtol=RTOL, atol=ATOL,
                                   err_msg=name_)
    mj_cell.set_train(False)
    ms_cell.set_train(False)
    _compare(mj_cell, ms_cell, shape, seed=20)
    if name != "BatchNorm3d":
        assert mj_cell.extend_repr() == ms_cell.extend_repr()


@pytest.mark.parametrize("use_batch_statistics", [True, False])
def test_batchnorm_use_batch_statistics_matches_mindspore_in_eval(use_batch_statistics):
    mj_cell, ms_cell = _pair("BatchNorm2d", dict(num_features=3,
                                                 use_batch_statistics=use_batch_statistics))
    _randomise_and_copy(mj_cell, ms_cell)
    _compare(mj_cell, ms_cell, (2, 3, 3, 3))
    np.testing.assert_allclose(np.asarray(mj_cell.moving_mean), ms_cell.moving_mean.asnumpy(),
                               rtol=RTOL, atol=ATOL)


def test_composite_net_names_shapes_and_outputs_match_mindspore():
    mj_net, ms_net = MjNet(), MsNet()
    _randomise_and_copy(mj_net, ms_net)
    assert [p.name for p in mj_net.get_parameters()][:6] == [
        "conv1.weight", "conv1.bias", "bn1.moving_mean", "bn1.moving_variance", "bn1.gamma",
        "bn1.beta"]
    mj_net.set_train()
    ms_net.set_train()
    _compare(mj_net, ms_net, (2, 3, 8, 8))
    np.testing.assert_allclose(np.asarray(mj_net.bn1.moving_variance),
                               ms_net.bn1.moving_variance.asnumpy(), rtol=RTOL, atol=ATOL)
    mj_net.set_train(False)
    ms_net.set_train(False)
    _compare(mj_net, ms_net, (2, 3, 8, 8), seed=3)


@pytest.mark.parametrize("shape", [(4, 64, 1, 1), (4, 64, 2, 2), (8, 16, 8, 8)])
def test_batchnorm_training_on_few_values_per_channel_is_as_close_to_exact_as_mindspore(shape):
    # Deep bottleneck nets (ResNet-50 at 32x32: 4 values per channel in the last stage) differ from
    # MindSpore in train mode by 1e-4 and more at the output. The cause is not a formula: batch
    # statistics over few values amplify each side's float32 rounding alike. Here both sides stay
    # within float32 rounding of the exact (float64) normalisation, and of each other.
    rng = np.random.default_rng(1)
    x = (rng.standard_normal(shape) * 3 + 5).astype(np.float32)
    mj_cell, ms_cell = _pair("BatchNorm2d", dict(num_features=shape[1]))
    mj_cell.set_train()
    ms_cell.set_train()
    got, want = mj_cell(mj.Tensor(x)).asnumpy(), ms_cell(mindspore.Tensor(x)).asnumpy()
    mean = x.astype(np.float64).mean((0, 2, 3), keepdims=True)
    exact = (x - mean) / np.sqrt(x.astype(np.float64).var((0, 2, 3), keepdims=True) + 1e-5)
    assert np.abs(got - exact).max() < 2e-6 and np.abs(want - exact).max() < 2e-6
    np.testing.assert_allclose(got, want, atol=2e-6)
    np.testing.assert_allclose(mj_cell.moving_variance.asnumpy(), ms_cell.moving_variance.asnumpy(), rtol=1e-6)
