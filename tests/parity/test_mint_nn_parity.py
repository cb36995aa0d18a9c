"""``mindjax.mint.nn`` Cells against ``mindspore.mint.nn`` 2.10: constructor signatures, Parameter names,
initialisers and numbers, and training through GRAPH mode, PYNATIVE, TrainOneStepCell and ``ms.grad``.

Most of MindSpore 2.10's mint layers run only on Ascend: their numbers are compared with numpy
formulas (PyTorch semantics) where MindSpore raises on CPU (``_mint_cases.mindspore_or_formula``).
"""
import inspect
import math

import mindspore
import mindspore.mint.nn as msmnn
import numpy as np
import pytest
from _mint_cases import assert_close, mindspore_or_formula, to_np

import mindjax as ms
from mindjax import mint, nn
from mindjax.mint import nn as mnn

_RNG = np.random.default_rng(5)
X = _RNG.standard_normal((2, 3, 6, 6)).astype(np.float32)
X1 = _RNG.standard_normal((2, 3, 8)).astype(np.float32)
X3 = _RNG.standard_normal((1, 2, 4, 4, 4)).astype(np.float32)
L = _RNG.standard_normal((4, 6)).astype(np.float32)
Y = (_RNG.random((4, 6)) > 0.5).astype(np.float32)

_CLASSES = sorted(n for n in dir(msmnn) if inspect.isclass(getattr(msmnn, n)) and n != "Cell")


@pytest.mark.parametrize("name", _CLASSES)
def test_constructor_signature_matches_mindspore(name):
    def args(cls):  # a class without arguments of its own may inherit Cell's (auto_prefix, flags)
        return [(n, p.default) for n, p in inspect.signature(cls.__init__).parameters.items()
                if n not in ("auto_prefix", "flags")]
    assert args(getattr(mnn, name)) == args(getattr(msmnn, name))


_PARAMETRISED = [
    ("Conv1d", (3, 4, 3), {}), ("Conv2d", (3, 4, 3), {"bias": False}), ("Conv3d", (2, 4, (1, 2, 3)), {"groups": 2}),
    ("ConvTranspose2d", (3, 4, 2), {}), ("BatchNorm1d", (3,), {}), ("BatchNorm2d", (3,), {"affine": False}),
    ("BatchNorm3d", (2,), {"track_running_stats": False}), ("SyncBatchNorm", (3,), {}), ("GroupNorm", (2, 4), {}),
    ("Linear", (3, 5), {}), ("LayerNorm", ((6,),), {}), ("Embedding", (5, 3), {}), ("PReLU", (), {}),
]


@pytest.mark.parametrize("name,args,kwargs", _PARAMETRISED, ids=[c[0] for c in _PARAMETRISED])
def test_parameter_names_shapes_and_dtypes_match_mindspore(name, args, kwargs):
    theirs = getattr(msmnn, name)(*args, **kwargs)
    ours = getattr(mnn, name)(*args, **kwargs)
    want = [(p.name, tuple(p.shape), str(p.dtype), p.requires_grad) for p in theirs.get_parameters()]
    got = [(p.name, tuple(p.shape), str(p.dtype), p.requires_grad) for p in ours.get_parameters()]
    assert got == want


@pytest.mark.parametrize("name,args", [("Conv2d", (3, 4, 3)), ("Conv1d", (2, 6, 5)), ("ConvTranspose2d", (4, 2, 3)),
                                       ("Conv3d", (2, 2, 2))])
def test_convolution_initialisers_are_mindsporese_kaiming_uniform(name, args):
    ms.set_seed(1)
    cell = getattr(mnn, name)(*args)
    w, b = to_np(cell.weight), to_np(cell.bias)
    bound = 1 / math.sqrt(w.shape[1] * int(np.prod(w.shape[2:])))  # HeUniform(sqrt(5)) and Uniform(1/sqrt(fan_in))
    assert np.abs(w).max() <= bound and np.abs(b).max() <= bound
    assert w.std() > bound / 3 and len(np.unique(b)) == b.size  # spread over the range, not constant


def _conv(x, w, b, pad=0, stride=1, groups=1):
    nd = w.ndim - 2
    xp = np.pad(x, [(0, 0), (0, 0)] + [(pad, pad)] * nd)
    k = w.shape[2:]
    out_sp = [(xp.shape[2 + i] - k[i]) // stride + 1 for i in range(nd)]
    cin, cout = w.shape[1], w.shape[0] // groups
    out = np.zeros((x.shape[0], w.shape[0], *out_sp))
    for g in range(groups):
        for idx in np.ndindex(*out_sp):
            sl = tuple(slice(i * stride, i * stride + kk) for i, kk in zip(idx, k))
            patch = xp[(slice(None), slice(g * cin, (g + 1) * cin)) + sl]
            out[(slice(None), slice(g * cout, (g + 1) * cout)) + idx] = np.tensordot(
                patch, w[g * cout:(g + 1) * cout], axes=(list(range(1, nd + 2)), list(range(1, nd + 2))))
    return out + (0 if b is None else b.reshape((1, -1) + (1,) * nd))


@pytest.mark.parametrize("name,args,kwargs,x,pad,stride", [
    ("Conv2d", (3, 4, 3), {"padding": 1}, X, 1, 1),
    ("Conv2d", (3, 4, 3), {"stride": 2, "bias": False}, X, 0, 2),
    ("Conv2d", (3, 6, 3), {"padding": "same", "groups": 3}, X, 1, 1),
    ("Conv1d", (3, 2, 3), {"padding": 2}, X1, 2, 1),
    ("Conv3d", (2, 3, 2), {}, X3, 0, 1),
])
def test_convolution_numbers(name, args, kwargs, x, pad, stride):
    theirs, ours = getattr(msmnn, name)(*args, **kwargs), getattr(mnn, name)(*args, **kwargs)
    w = to_np(ours.weight)
    b = None if ours.bias is None else to_np(ours.bias)
    theirs.weight.set_data(mindspore.Tensor(w))
    if b is not None:
        theirs.bias.set_data(mindspore.Tensor(b))
    want, _ = mindspore_or_formula(lambda: theirs(mindspore.Tensor(x)),
                                   lambda: _conv(x, w, b, pad, stride, kwargs.get("groups", 1)))
    assert_close(to_np(ours(ms.Tensor(x))), want, rtol=1e-4, atol=1e-4)


def test_conv2d_padding_modes_pad_the_input_first():
    conv = mnn.Conv2d(3, 2, 3, padding=1, padding_mode="reflect")
    w, b = to_np(conv.weight), to_np(conv.bias)
    xp = np.pad(X, [(0, 0), (0, 0), (1, 1), (1, 1)], mode="reflect")
    assert_close(to_np(conv(ms.Tensor(X))), _conv(xp, w, b), rtol=1e-4, atol=1e-4)


def test_conv_transpose2d_is_the_gradient_of_conv2d():
    ours = mnn.ConvTranspose2d(3, 4, 3, stride=2, padding=1, output_padding=1, bias=False)
    w = to_np(ours.weight)  # (C_in, C_out, k, k)
    y = to_np(ours(ms.Tensor(X)))
    assert y.shape == (2, 4, 12, 12)
    # <conv_transpose(x), z> == <x, conv(z)> with the same weight
    z = _RNG.standard_normal(y.shape).astype(np.float32)
    conv = mint.nn.functional.conv2d(ms.Tensor(z), ms.Tensor(w), stride=2, padding=1)
    np.testing.assert_allclose((y * z).sum(), (X * to_np(conv)[:, :, :6, :6]).sum(), rtol=1e-4)


def test_batch_norm_trains_and_evaluates_as_pytorch():
    bn = mnn.BatchNorm2d(3, momentum=0.2)
    bn.set_train()
    out = to_np(bn(ms.Tensor(X)))
    mean, var = X.mean((0, 2, 3)), X.var((0, 2, 3))
    want = (X - mean.reshape(1, 3, 1, 1)) / np.sqrt(var.reshape(1, 3, 1, 1) + 1e-5)
    assert_close(out, want, rtol=1e-4, atol=1e-4)
    n = X.size / 3
    assert_close(to_np(bn.running_mean), 0.2 * mean, rtol=1e-5, atol=1e-6)
    assert_close(to_np(bn.running_var), 0.8 + 0.2 * var * n / (n - 1), rtol=1e-5, atol=1e-6)
    assert int(to_np(bn.num_batches_tracked)) == 1
    bn.set_train(False)
    ev = to_np(bn(ms.Tensor(X)))
    assert_close(ev, (X - to_np(bn.running_mean).reshape(1, 3, 1, 1))
                 / np.sqrt(to_np(bn.running_var).reshape(1, 3, 1, 1) + 1e-5), rtol=1e-4, atol=1e-4)


def test_batch_norm_cumulative_average_and_no_running_stats():
    bn = mnn.BatchNorm1d(3, momentum=None)
    bn.set_train()
    bn(ms.Tensor(X1))
    bn(ms.Tensor(X1 * 0 + 1))
    assert_close(to_np(bn.running_mean), (X1.mean((0, 2)) + 1) / 2, rtol=1e-5, atol=1e-6)
    free = mnn.BatchNorm3d(2, track_running_stats=False)
    free.set_train(False)
    out = to_np(free(ms.Tensor(X3)))
    want = (X3 - X3.mean((0, 2, 3, 4), keepdims=True)) / np.sqrt(X3.var((0, 2, 3, 4), keepdims=True) + 1e-5)
    assert_close(out, want, rtol=1e-4, atol=1e-4)


def test_group_norm_numbers():
    gn = mnn.GroupNorm(3, 3)
    want = (X - X.mean((2, 3), keepdims=True)) / np.sqrt(X.var((2, 3), keepdims=True) + 1e-5)
    assert_close(to_np(gn(ms.Tensor(X))), want, rtol=1e-4, atol=1e-4)


def _sig(x):
    return 1 / (1 + np.exp(-x))


# (class, constructor args, inputs, numpy formula)
_CELLS = [
    ("ELU", (0.5,), (L,), lambda x: np.where(x > 0, x, 0.5 * (np.exp(x) - 1))),
    ("GELU", (), (L,), lambda x: 0.5 * x * (1 + np.vectorize(math.erf)(x / math.sqrt(2)))),
    ("GELU", ("tanh",), (L,), lambda x: 0.5 * x * (1 + np.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * x ** 3)))),
    ("GLU", (), (L,), lambda x: x[:, :3] * _sig(x[:, 3:])),
    ("Hardtanh", (-0.5, 0.25), (L,), lambda x: np.clip(x, -0.5, 0.25)),
    ("LogSigmoid", (), (L,), lambda x: np.log(_sig(x))),
    ("ReLU6", (), (L * 5,), lambda x: np.clip(x, 0, 6)),
    ("SELU", (), (L,), lambda x: 1.0507009873554805 * np.where(x > 0, x, 1.6732632423543772 * (np.exp(x) - 1))),
    ("SiLU", (), (L,), lambda x: x * _sig(x)),
    ("Sigmoid", (), (L,), _sig),
    ("Tanh", (), (L,), np.tanh),
    ("Softmax", (1,), (L,), lambda x: np.exp(x) / np.exp(x).sum(1, keepdims=True)),
    ("Threshold", (0.2, -1.0), (L,), lambda x: np.where(x > 0.2, x, -1.0)),
    ("Hardshrink", (), (L,), lambda x: np.where(np.abs(x) > 0.5, x, 0)),
    ("Softshrink", (0.3,), (L,), lambda x: np.sign(x) * np.maximum(np.abs(x) - 0.3, 0)),
    ("Hardswish", (), (L,), lambda x: x * np.clip(x / 6 + 0.5, 0, 1)),
    ("Hardsigmoid", (), (L,), lambda x: np.clip(x / 6 + 0.5, 0, 1)),
    ("ReflectionPad1d", (2,), (X1,), lambda x: np.pad(x, [(0, 0), (0, 0), (2, 2)], mode="reflect")),
    ("ReflectionPad2d", ((1, 0, 2, 1),), (X,), lambda x: np.pad(x, [(0, 0), (0, 0), (2, 1), (1, 0)], mode="reflect")),
    ("ReflectionPad3d", (1,), (X3,), lambda x: np.pad(x, [(0, 0), (0, 0), (1, 1), (1, 1), (1, 1)], mode="reflect")),
    ("ReplicationPad1d", ((1, 3),), (X1,), lambda x: np.pad(x, [(0, 0), (0, 0), (1, 3)], mode="edge")),
    ("ReplicationPad2d", (1,), (X,), lambda x: np.pad(x, [(0, 0), (0, 0), (1, 1), (1, 1)], mode="edge")),
    ("ReplicationPad3d", ((1, 0, 0, 1, 1, 0),), (X3,),
     lambda x: np.pad(x, [(0, 0), (0, 0), (1, 0), (0, 1), (1, 0)], mode="edge")),
    ("ZeroPad1d", ((1, 2),), (X1,), lambda x: np.pad(x, [(0, 0), (0, 0), (1, 2)])),
    ("ZeroPad3d", (1,), (X3,), lambda x: np.pad(x, [(0, 0), (0, 0), (1, 1), (1, 1), (1, 1)])),
    ("ConstantPad1d", (1, 2.5), (X1,), lambda x: np.pad(x, [(0, 0), (0, 0), (1, 1)], constant_values=2.5)),
    ("BCEWithLogitsLoss", (), (L, Y), lambda x, y: np.mean(-(y * np.log(_sig(x)) + (1 - y) * np.log(1 - _sig(x))))),
    ("KLDivLoss", ("sum",), (L, _sig(Y + L)), lambda x, p: np.sum(p * (np.log(p) - x))),
    ("SmoothL1Loss", ("sum", 0.5), (L, Y),
     lambda x, y: np.sum(np.where(np.abs(x - y) < 0.5, (x - y) ** 2, np.abs(x - y) - 0.25))),
    ("SoftMarginLoss", (), (L, Y * 2 - 1), lambda x, y: np.mean(np.log1p(np.exp(-y * x)))),
    ("AdaptiveMaxPool1d", (4,), (X1,), lambda x: x.reshape(2, 3, 4, 2).max(-1)),
    ("AdaptiveAvgPool3d", (2,), (X3,), lambda x: x.reshape(1, 2, 2, 2, 2, 2, 2, 2).mean((3, 5, 7))),
    ("AvgPool2d", (2,), (X,), lambda x: x.reshape(2, 3, 3, 2, 3, 2).mean((3, 5))),
    ("MaxPool2d", (3,), (X,), lambda x: x.reshape(2, 3, 2, 3, 2, 3).max((3, 5))),
    ("Unfold", (3, 1, 0, 3), (X,), lambda x: x.reshape(2, 3, 2, 3, 2, 3).transpose(0, 1, 3, 5, 2, 4).reshape(2, 27, 4)),
    ("Fold", ((6, 6), 3, 1, 0, 3), (X.reshape(2, 3, 2, 3, 2, 3).transpose(0, 1, 3, 5, 2, 4).reshape(2, 27, 4),),
     lambda c: X),
    ("PixelShuffle", (2,), (X[:, :1].repeat(4, 1),),
     lambda x: x.reshape(2, 1, 2, 2, 6, 6).transpose(0, 1, 4, 2, 5, 3).reshape(2, 1, 12, 12)),
    ("UpsamplingNearest2d", (None, 2.0), (X,), lambda x: x.repeat(2, 2).repeat(2, 3)),
    ("UpsamplingBilinear2d", ((11, 11),), (X,), lambda x: _bilinear_align_corners(x, 11)),
]


def _bilinear_align_corners(x, size):
    pos = np.linspace(0, x.shape[-1] - 1, size)
    lo = np.floor(pos).astype(int)
    hi = np.minimum(lo + 1, x.shape[-1] - 1)
    t = pos - lo
    rows = x[:, :, lo] * (1 - t)[:, None] + x[:, :, hi] * t[:, None]
    return rows[..., lo] * (1 - t) + rows[..., hi] * t


@pytest.mark.parametrize("name,args,inputs,formula", _CELLS, ids=[c[0] for c in _CELLS])
def test_cell_numbers(name, args, inputs, formula):
    want, _ = mindspore_or_formula(lambda: getattr(msmnn, name)(*args)(*[mindspore.Tensor(x) for x in inputs]),
                                   lambda: formula(*inputs))
    got = to_np(getattr(mnn, name)(*args)(*[ms.Tensor(x) for x in inputs]))
    assert_close(got, want, rtol=1e-4, atol=1e-5)


def test_aliases_are_the_nn_ext_classes():
    assert mnn.Dropout is nn.DropoutExt and mnn.LayerNorm is nn.LayerNormExt and mnn.Linear is nn.Linear
    assert mnn.MaxPool2d is nn.MaxPool2dExt and mnn.Embedding is nn.EmbeddingExt and mnn.L1Loss is nn.L1LossExt
    assert mnn.Hardswish is nn.HSwish and mnn.Softshrink is nn.SoftShrink


class _Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.conv = mnn.Conv2d(3, 4, 3, padding=1)
        self.bn = mnn.BatchNorm2d(4)
        self.act = mnn.SiLU()
        self.pool = mnn.AdaptiveAvgPool2d(1)
        self.fc = mnn.Linear(4, 3)
        self.norm = mnn.LayerNorm(3)

    def construct(self, x):
        return self.norm(self.fc(mint.flatten(self.pool(self.act(self.bn(self.conv(x)))), 1)))


def _train(mode):
    ms.set_context(mode=mode)
    ms.set_seed(0)
    try:
        net = _Net()
        step = nn.TrainOneStepCell(nn.WithLossCell(net, mnn.CrossEntropyLoss()), nn.SGD(net.trainable_params(), 0.5))
        step.set_train()
        x, y = ms.Tensor(X), ms.Tensor(np.array([0, 2], np.int32))
        losses = [float(to_np(step(x, y))) for _ in range(4)]
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    return losses, net


def test_training_in_graph_and_pynative_modes_agrees_and_updates_batchnorm():
    losses, net = _train(ms.PYNATIVE_MODE)
    graph_losses, graph_net = _train(ms.GRAPH_MODE)
    np.testing.assert_allclose(losses, graph_losses, rtol=1e-5)
    assert losses[-1] < losses[0]
    assert int(to_np(net.bn.num_batches_tracked)) == 4 == int(to_np(graph_net.bn.num_batches_tracked))
    np.testing.assert_allclose(to_np(net.bn.running_mean), to_np(graph_net.bn.running_mean), rtol=1e-5, atol=1e-7)
    assert not np.allclose(to_np(net.bn.running_mean), 0.0)


@pytest.mark.parametrize("mode", ["PYNATIVE_MODE", "GRAPH_MODE"])
def test_grad_through_mint_layers_matches_finite_differences(mode):
    ms.set_context(mode=getattr(ms, mode))
    try:
        ms.set_seed(0)
        net = nn.SequentialCell([mnn.Conv1d(3, 2, 3, padding=1), mnn.GroupNorm(1, 2), mnn.ELU(), mnn.Tanh()])
        net.set_train(False)
        x = X1[:1].astype(np.float64).astype(np.float32)
        g = to_np(ms.grad(lambda t: net(t).sum())(ms.Tensor(x)))
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    eps = 1e-2
    for idx in [(0, 0, 0), (0, 2, 5)]:
        up, down = x.copy(), x.copy()
        up[idx] += eps
        down[idx] -= eps
        fd = (float(to_np(net(ms.Tensor(up)).sum())) - float(to_np(net(ms.Tensor(down)).sum()))) / (2 * eps)
        np.testing.assert_allclose(g[idx], fd, rtol=2e-2, atol=2e-3)


def test_bad_constructor_arguments_name_the_cell():
    with pytest.raises(ValueError, match=r"For 'Conv2d', 'padding_mode' must be one of .*but got 'mirror'"):
        mnn.Conv2d(3, 4, 3, padding_mode="mirror")
    with pytest.raises(ValueError, match=r"For 'Conv2d', 'in_channels' \(3\) and 'out_channels' \(4\) must be "
                                         r"divisible by 'groups' \(2\)"):
        mnn.Conv2d(3, 4, 3, groups=2)
    with pytest.raises(ValueError, match=r"For 'Conv1d', padding='same' needs stride 1"):
        mnn.Conv1d(3, 4, 3, stride=2, padding="same")
    with pytest.raises(ValueError, match=r"For 'BatchNorm2d', 'momentum' must be a number in \[0, 1\] or None, "
                                         r"but got 2"):
        mnn.BatchNorm2d(3, momentum=2)
    with pytest.raises(ValueError, match=r"For 'GroupNorm', 'num_channels' \(5\) must be divisible by 'num_groups'"):
        mnn.GroupNorm(2, 5)
    with pytest.raises(TypeError, match=r"For 'ReflectionPad2d', 'padding' must be an int or a tuple of 4 ints"):
        mnn.ReflectionPad2d((1, 2))
    with pytest.raises(ValueError, match=r"For 'UpsamplingNearest2d', exactly one of 'size' and 'scale_factor'"):
        mnn.UpsamplingNearest2d()
    with pytest.raises(ValueError, match=r"For 'BatchNorm2d', expected a 4-D input, but got shape \(2, 3, 8\)"):
        mnn.BatchNorm2d(3)(ms.Tensor(X1))


def test_batch_norm_without_running_stats_trains_on_batch_statistics():
    bn = mnn.BatchNorm2d(3, track_running_stats=False)
    bn.set_train()
    want = (X - X.mean((0, 2, 3), keepdims=True)) / np.sqrt(X.var((0, 2, 3), keepdims=True) + 1e-5)
    assert_close(to_np(bn(ms.Tensor(X))), want, rtol=1e-4, atol=1e-4)
    assert [p.name for p in bn.get_parameters()] == ["weight", "bias"]


def test_conv_same_padding_with_a_padding_mode():
    conv = mnn.Conv1d(3, 2, 4, padding="same", padding_mode="replicate", dilation=1)
    w, b = to_np(conv.weight), to_np(conv.bias)
    xp = np.pad(X1, [(0, 0), (0, 0), (1, 2)], mode="edge")
    assert_close(to_np(conv(ms.Tensor(X1))), _conv(xp, w, b), rtol=1e-4, atol=1e-4)
