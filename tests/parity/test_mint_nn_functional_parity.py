"""``mindjax.mint.nn.functional`` against ``mindspore.mint.nn.functional`` 2.10 on small inputs.

Rows carry a numpy (PyTorch-semantics) formula for the ops MindSpore 2.10 runs only on Ascend
(see ``_mint_cases.mindspore_or_formula``).
"""
import math

import mindspore
import mindspore.mint.nn.functional as msF
import numpy as np
import pytest
from _mint_cases import assert_close, mindspore_or_formula, mj, to_np

import mindjax as ms
from mindjax.mint.nn import functional as F

_RNG = np.random.default_rng(7)
X = _RNG.standard_normal((2, 3, 4, 4)).astype(np.float32)
X1 = _RNG.standard_normal((2, 3, 6)).astype(np.float32)
X3 = _RNG.standard_normal((1, 2, 4, 4, 4)).astype(np.float32)
W2 = _RNG.standard_normal((4, 3, 3, 3)).astype(np.float32)
W1 = _RNG.standard_normal((4, 3, 3)).astype(np.float32)
W3 = _RNG.standard_normal((2, 2, 2, 2, 2)).astype(np.float32)
BIAS = _RNG.standard_normal((4,)).astype(np.float32)
L = _RNG.standard_normal((4, 5)).astype(np.float32)
T = np.array([1, 0, 4, 2], np.int64)
PROB = (1 / (1 + np.exp(-L))).astype(np.float32)
Y = (_RNG.random((4, 5)) > 0.5).astype(np.float32)
C = _RNG.standard_normal((3,)).astype(np.float32)


def _sig(x):
    return 1 / (1 + np.exp(-x))


def _softmax(x, ax):
    e = np.exp(x - x.max(ax, keepdims=True))
    return e / e.sum(ax, keepdims=True)


def _conv_nd(x, w, b, pad, stride=1):
    """Direct cross-correlation, zero padding ``pad`` on each spatial side."""
    nd = w.ndim - 2
    xp = np.pad(x, [(0, 0), (0, 0)] + [(pad, pad)] * nd)
    k = w.shape[2:]
    out_sp = [(xp.shape[2 + i] - k[i]) // stride + 1 for i in range(nd)]
    out = np.zeros((x.shape[0], w.shape[0], *out_sp), np.float64)
    for idx in np.ndindex(*out_sp):
        sl = tuple(slice(i * stride, i * stride + kk) for i, kk in zip(idx, k))
        patch = xp[(slice(None), slice(None)) + sl]
        out[(slice(None), slice(None)) + idx] = np.tensordot(patch, w, axes=(list(range(1, nd + 2)),
                                                                             list(range(1, nd + 2))))
    return out + (0 if b is None else b.reshape((1, -1) + (1,) * nd))


def _avg_pool2d(x, k, s):
    n, c, h, w = x.shape
    oh, ow = (h - k) // s + 1, (w - k) // s + 1
    return np.stack([[x[:, :, i * s:i * s + k, j * s:j * s + k].mean((2, 3)) for j in range(ow)]
                     for i in range(oh)]).transpose(2, 3, 0, 1)


def _max_pool2d(x, k, s):
    n, c, h, w = x.shape
    oh, ow = (h - k) // s + 1, (w - k) // s + 1
    return np.stack([[x[:, :, i * s:i * s + k, j * s:j * s + k].max((2, 3)) for j in range(ow)]
                     for i in range(oh)]).transpose(2, 3, 0, 1)


def _cos(a, b):
    return (a * b).sum(1) / (np.linalg.norm(a, axis=1) * np.linalg.norm(b, axis=1))


def _bce_logits(x, y, pos_weight=1.0):
    return np.mean(-(pos_weight * y * np.log(_sig(x)) + (1 - y) * np.log(1 - _sig(x))))


def _nll(logp, t):
    return -np.mean(logp[np.arange(len(t)), t])


def _log_softmax(x, ax):
    return x - x.max(ax, keepdims=True) - np.log(np.exp(x - x.max(ax, keepdims=True)).sum(ax, keepdims=True))


CASES = [
    ("conv2d", lambda f, x, w, b: f.conv2d(x, w, b, padding=1), (X, W2, BIAS), lambda x, w, b: _conv_nd(x, w, b, 1)),
    ("conv2d_same", lambda f, x, w: f.conv2d(x, w, padding="same"), (X, W2), lambda x, w: _conv_nd(x, w, None, 1)),
    ("conv2d_stride", lambda f, x, w: f.conv2d(x, w, stride=2), (X, W2), lambda x, w: _conv_nd(x, w, None, 0, 2)),
    ("conv1d", lambda f, x, w, b: f.conv1d(x, w, b, 1, 1), (X1, W1, BIAS), lambda x, w, b: _conv_nd(x, w, b, 1)),
    ("conv3d", lambda f, x, w: f.conv3d(x, w), (X3, W3), lambda x, w: _conv_nd(x, w, None, 0)),
    ("linear", lambda f, l, b: f.linear(l, l[:3], b[:3]), (L, BIAS), lambda l, b: l @ l[:3].T + b[:3]),
    ("linear_no_bias", lambda f, l: f.linear(l, l[:2]), (L,), lambda l: l @ l[:2].T),
    ("avg_pool2d", lambda f, x: f.avg_pool2d(x, 2), (X,), lambda x: _avg_pool2d(x, 2, 2)),
    ("avg_pool2d_stride", lambda f, x: f.avg_pool2d(x, 3, 1), (X,), lambda x: _avg_pool2d(x, 3, 1)),
    ("avg_pool1d", lambda f, x: f.avg_pool1d(x, 2), (X1,), lambda x: x.reshape(2, 3, 3, 2).mean(-1)),
    ("max_pool2d", lambda f, x: f.max_pool2d(x, 2), (X,), lambda x: _max_pool2d(x, 2, 2)),
    ("adaptive_avg_pool1d", lambda f, x: f.adaptive_avg_pool1d(x, 3), (X1,), lambda x: x.reshape(2, 3, 3, 2).mean(-1)),
    ("adaptive_max_pool1d", lambda f, x: f.adaptive_max_pool1d(x, 3), (X1,), lambda x: x.reshape(2, 3, 3, 2).max(-1)),
    ("adaptive_max_pool1d_idx", lambda f, x: f.adaptive_max_pool1d(x, 3, True)[1], (X1,),
     lambda x: x.reshape(2, 3, 3, 2).argmax(-1) + np.arange(3) * 2),
    ("adaptive_avg_pool3d", lambda f, x: f.adaptive_avg_pool3d(x, 2), (X3,),
     lambda x: x.reshape(1, 2, 2, 2, 2, 2, 2, 2).mean((3, 5, 7))),
    ("batch_norm_eval", lambda f, x, c: f.batch_norm(x, c * 0, c * 0 + 1, c, c), (X, C),
     lambda x, c: x / np.sqrt(1 + 1e-5) * c.reshape(1, 3, 1, 1) + c.reshape(1, 3, 1, 1)),
    ("group_norm", lambda f, x: f.group_norm(x, 3), (X,),
     lambda x: (x - x.mean((2, 3), keepdims=True)) / np.sqrt(x.var((2, 3), keepdims=True) + 1e-5)),
    ("normalize", lambda f, l: f.normalize(l), (L,), lambda l: l / np.linalg.norm(l, axis=1, keepdims=True)),
    ("normalize_p1", lambda f, l: f.normalize(l, 1.0, 0), (L,), lambda l: l / np.abs(l).sum(0, keepdims=True)),
    ("elu", lambda f, l: f.elu(l, 0.5), (L,), lambda l: np.where(l > 0, l, 0.5 * (np.exp(l) - 1))),
    ("gelu", lambda f, l: f.gelu(l), (L,), lambda l: 0.5 * l * (1 + np.vectorize(math.erf)(l / math.sqrt(2)))),
    ("gelu_tanh", lambda f, l: f.gelu(l, approximate="tanh"), (L,),
     lambda l: 0.5 * l * (1 + np.tanh(math.sqrt(2 / math.pi) * (l + 0.044715 * l ** 3)))),
    ("glu", lambda f, l: f.glu(l[:, :4], 1), (L,), lambda l: l[:, :2] * _sig(l[:, 2:4])),
    ("hardshrink", lambda f, l: f.hardshrink(l, 0.7), (L,), lambda l: np.where(np.abs(l) > 0.7, l, 0)),
    ("softshrink", lambda f, l: f.softshrink(l), (L,), lambda l: np.sign(l) * np.maximum(np.abs(l) - 0.5, 0)),
    ("hardsigmoid", lambda f, l: f.hardsigmoid(l), (L,), lambda l: np.clip(l / 6 + 0.5, 0, 1)),
    ("hardswish", lambda f, l: f.hardswish(l), (L,), lambda l: l * np.clip(l / 6 + 0.5, 0, 1)),
    ("hardtanh", lambda f, l: f.hardtanh(l, -0.5, 0.5), (L,), lambda l: np.clip(l, -0.5, 0.5)),
    ("leaky_relu", lambda f, l: f.leaky_relu(l), (L,), lambda l: np.where(l > 0, l, 0.01 * l)),
    ("log_softmax", lambda f, l: f.log_softmax(l, 1), (L,), lambda l: _log_softmax(l, 1)),
    ("log_softmax_implicit", lambda f, l: f.log_softmax(l), (L,), lambda l: _log_softmax(l, 1)),
    ("softmax_implicit_3d", lambda f, x: f.softmax(x), (X1,), lambda x: _softmax(x, 0)),
    ("softmax", lambda f, l: f.softmax(l, 0), (L,), lambda l: _softmax(l, 0)),
    ("logsigmoid", lambda f, l: f.logsigmoid(l), (L,), lambda l: np.log(_sig(l))),
    ("mish", lambda f, l: f.mish(l), (L,), lambda l: l * np.tanh(np.log1p(np.exp(l)))),
    ("relu6", lambda f, l: f.relu6(l * 4), (L,), lambda l: np.clip(l * 4, 0, 6)),
    ("selu", lambda f, l: f.selu(l), (L,),
     lambda l: 1.0507009873554805 * np.where(l > 0, l, 1.6732632423543772 * (np.exp(l) - 1))),
    ("sigmoid", lambda f, l: f.sigmoid(l), (L,), _sig),
    ("silu", lambda f, l: f.silu(l), (L,), lambda l: l * _sig(l)),
    ("tanh", lambda f, l: f.tanh(l), (L,), np.tanh),
    ("softplus", lambda f, l: f.softplus(l, 2.0), (L,), lambda l: np.log1p(np.exp(2 * l)) / 2),
    ("threshold", lambda f, l: f.threshold(l, 0.1, 20.0), (L,), lambda l: np.where(l > 0.1, l, 20.0)),
    ("bce", lambda f, p, y: f.binary_cross_entropy(p, y), (PROB, Y),
     lambda p, y: np.mean(-(y * np.log(p) + (1 - y) * np.log(1 - p)))),
    ("bce_logits", lambda f, l, y: f.binary_cross_entropy_with_logits(l, y), (L, Y), _bce_logits),
    ("bce_logits_pos", lambda f, l, y: f.binary_cross_entropy_with_logits(l, y, pos_weight=y[0] * 0 + 2), (L, Y),
     lambda l, y: _bce_logits(l, y, 2.0)),
    ("kl_div", lambda f, l, p: f.kl_div(l, p), (L, PROB), lambda l, p: np.mean(p * (np.log(p) - l))),
    ("kl_div_log_target", lambda f, l, p: f.kl_div(l, p, "sum", True), (L, PROB),
     lambda l, p: np.sum(np.exp(p) * (p - l))),
    ("l1_loss", lambda f, l, y: f.l1_loss(l, y), (L, Y), lambda l, y: np.abs(l - y).mean()),
    ("nll_loss", lambda f, l, t: f.nll_loss(l, t), (L, T), _nll),
    ("smooth_l1_loss", lambda f, l, y: f.smooth_l1_loss(l, y, beta=0.5), (L, Y),
     lambda l, y: np.mean(np.where(np.abs(l - y) < 0.5, 0.5 * (l - y) ** 2 / 0.5, np.abs(l - y) - 0.25))),
    ("soft_margin_loss", lambda f, l, y: f.soft_margin_loss(l, y * 2 - 1), (L, Y),
     lambda l, y: np.mean(np.log1p(np.exp(-(y * 2 - 1) * l)))),
    ("cosine_embedding_loss", lambda f, l, y: f.cosine_embedding_loss(l, l[::-1].copy(), y[:, 0] * 2 - 1), (L, Y),
     lambda l, y: np.mean(np.where(y[:, 0] > 0, 1 - _cos(l, l[::-1]), np.maximum(0, _cos(l, l[::-1]))))),
    ("pad_constant", lambda f, x: f.pad(x, (1, 2), value=3.0), (X1,),
     lambda x: np.pad(x, [(0, 0), (0, 0), (1, 2)], constant_values=3.0)),
    ("pad_reflect", lambda f, x: f.pad(x, (1, 1, 2, 0), "reflect"), (X,),
     lambda x: np.pad(x, [(0, 0), (0, 0), (2, 0), (1, 1)], mode="reflect")),
    ("pad_replicate", lambda f, x: f.pad(x, (2, 1), "replicate"), (X1,),
     lambda x: np.pad(x, [(0, 0), (0, 0), (2, 1)], mode="edge")),
    ("pixel_shuffle", lambda f, x: f.pixel_shuffle(x[:, :1].repeat(4, 1), 2), (X,),
     lambda x: x[:, :1].repeat(4, 1).reshape(2, 1, 2, 2, 4, 4).transpose(0, 1, 4, 2, 5, 3).reshape(2, 1, 8, 8)),
    ("one_hot", lambda f, t: f.one_hot(t), (T,), lambda t: np.eye(5, dtype=np.int64)[t]),
    ("one_hot_classes", lambda f, t: f.one_hot(t, 6), (T,), lambda t: np.eye(6, dtype=np.int64)[t]),
    ("upsample_nearest", lambda f, x: f.upsample(x, scale_factor=2.0), (X,), lambda x: x.repeat(2, 2).repeat(2, 3)),
    ("unfold", lambda f, x: f.unfold(x, 2, stride=2), (X,),
     lambda x: x.reshape(2, 3, 2, 2, 2, 2).transpose(0, 1, 3, 5, 2, 4).reshape(2, 12, 4)),
    ("fold", lambda f, x: f.fold(x.reshape(2, 3, 2, 2, 2, 2).transpose(0, 1, 3, 5, 2, 4).reshape(2, 12, 4),
                                 (4, 4), 2, stride=2), (X,), lambda x: x),
    ("dropout_eval", lambda f, l: f.dropout(l, 0.5, training=False), (L,), lambda l: l),
    ("flatten", lambda f, x: f.flatten(x, 1), (X,), lambda x: x.reshape(2, -1)),
    ("clamp", lambda f, l: f.clamp(l, 0.0), (L,), lambda l: np.maximum(l, 0)),
]


@pytest.mark.parametrize("name,call,inputs,formula", CASES, ids=[c[0] for c in CASES])
def test_functional(name, call, inputs, formula):
    want, _ = mindspore_or_formula(lambda: call(msF, *[mindspore.Tensor(x) for x in inputs]),
                                   lambda: formula(*inputs))
    got = to_np(call(F, *[mj(x) for x in inputs]))
    assert_close(np.asarray(got), np.asarray(want), rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("name,base", [("relu_", lambda v: np.maximum(v, 0)), ("sigmoid_", _sig), ("inplace_silu", lambda v: v * _sig(v)),
                                       ("elu_", lambda v: np.where(v > 0, v, np.exp(v) - 1)),
                                       ("hardtanh_", lambda v: np.clip(v, -1, 1))])
def test_in_place_functions_write_into_their_input(name, base):
    x = ms.Tensor(L.copy())
    out = getattr(F, name)(x)
    assert out is x
    np.testing.assert_allclose(to_np(x), base(L), rtol=1e-5, atol=1e-6)


def test_inplace_argument_writes_into_input():
    x = ms.Tensor(L.copy())
    F.relu6(x, inplace=True)
    np.testing.assert_allclose(to_np(x), np.clip(L, 0, 6), rtol=1e-6)
    y = ms.Tensor(L.copy())
    F.silu(y)
    np.testing.assert_array_equal(to_np(y), L)


def test_batch_norm_training_updates_running_stats():
    rm, rv = ms.Parameter(ms.Tensor(np.zeros(3, np.float32)), "rm"), ms.Parameter(ms.Tensor(np.ones(3, np.float32)), "rv")
    out = F.batch_norm(ms.Tensor(X), rm, rv, training=True, momentum=0.1)
    mean = X.mean((0, 2, 3))
    np.testing.assert_allclose(to_np(rm), 0.1 * mean, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(to_np(out), (X - mean.reshape(1, 3, 1, 1)) /
                               np.sqrt(X.var((0, 2, 3)).reshape(1, 3, 1, 1) + 1e-5), rtol=1e-4, atol=1e-4)


def test_bad_arguments_name_the_function():
    with pytest.raises(ValueError, match=r"mint.nn.functional.conv.*'padding' must be 'same', 'valid'.*'full'"):
        F.conv2d(ms.Tensor(X), ms.Tensor(W2), padding="full")
    with pytest.raises(TypeError, match=r"For 'mint.nn.functional.linear', .*linear\(input, weight, bias=None\)"):
        F.linear(ms.Tensor(L))
