"""MindSpore 2.10's mint-style ``*Ext`` nn layers: signatures, defaults, parameter names and numbers.

PReLUExt runs on MindSpore's CPU and are compared with it; the others have only
Ascend kernels in 2.10, so their numbers are pinned against numpy (PyTorch-style semantics).
Constructor errors are compared with MindSpore's error types.
"""
import inspect

import jax.numpy as jnp
import mindspore
import mindspore.nn as msnn
import numpy as np
import pytest

import mindjax as ms
from mindjax import nn

_RNG = np.random.default_rng(11)
_X4 = _RNG.standard_normal((2, 3, 6, 6)).astype(np.float32)

_NAMES = ["AvgPool1dExt", "AvgPool2dExt", "AvgPool3dExt", "MaxPool2dExt", "DropoutExt", "Dropout2dExt",
          "EmbeddingExt", "LayerNormExt", "PReLUExt", "LogSoftmaxExt", "L1LossExt"]


@pytest.mark.parametrize("name", _NAMES)
def test_ext_signature_matches_mindspore(name):
    theirs = inspect.signature(getattr(msnn, name).__init__).parameters
    ours = inspect.signature(getattr(nn, name).__init__).parameters
    assert list(ours) == list(theirs)
    assert [p.default for p in ours.values()] == [p.default for p in theirs.values()]


def _ms(cell, *xs):
    for attempt in range(2):
        try:
            return cell(*[mindspore.Tensor(x) for x in xs]).asnumpy()
        except (SystemError, ImportError):
            if attempt:
                raise
    raise AssertionError("unreachable")


@pytest.mark.parametrize("name,kwargs", [
    ("PReLUExt", {}),
    ("PReLUExt", {"num_parameters": 3, "init": 0.1}),
])
def test_ext_layer_matches_mindspore(name, kwargs):
    theirs_cell, ours_cell = getattr(msnn, name)(**kwargs), getattr(nn, name)(**kwargs)
    assert ([p.name for p in ours_cell.get_parameters()] == [p.name for p in theirs_cell.get_parameters()])
    np.testing.assert_allclose(np.asarray(ours_cell(jnp.asarray(_X4))), _ms(theirs_cell, _X4), rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("kwargs", [{"normalized_shape": 6}, {"normalized_shape": (6, 6), "eps": 1e-3},
                                    {"normalized_shape": [6], "elementwise_affine": False}])
def test_layer_norm_ext_parameters_and_numbers(kwargs):
    theirs, ours = msnn.LayerNormExt(**kwargs), nn.LayerNormExt(**kwargs)
    assert [p.name for p in ours.get_parameters()] == [p.name for p in theirs.get_parameters()]
    shape = ours.normalized_shape
    axes = tuple(range(4 - len(shape), 4))
    mean = _X4.mean(axes, keepdims=True)
    want = (_X4 - mean) / np.sqrt(_X4.var(axes, keepdims=True) + kwargs.get("eps", 1e-5))
    np.testing.assert_allclose(np.asarray(ours(jnp.asarray(_X4))), want, rtol=1e-4, atol=1e-5)


def _avg2d_numpy(x, k, s, pad, include_pad=True):
    xp = np.pad(x, ((0, 0), (0, 0), (pad, pad), (pad, pad)))
    ones = np.pad(np.ones_like(x), ((0, 0), (0, 0), (pad, pad), (pad, pad)))
    oh = (xp.shape[2] - k) // s + 1
    out = np.zeros(x.shape[:2] + (oh, oh), np.float32)
    for i in range(oh):
        for j in range(oh):
            win = xp[:, :, i * s:i * s + k, j * s:j * s + k].sum((2, 3))
            cnt = k * k if include_pad else ones[:, :, i * s:i * s + k, j * s:j * s + k].sum((2, 3))
            out[:, :, i, j] = win / cnt
    return out


def test_avg_pool_ext_numbers_and_default_stride():
    np.testing.assert_allclose(np.asarray(nn.AvgPool2dExt(2)(jnp.asarray(_X4))), _avg2d_numpy(_X4, 2, 2, 0),
                               rtol=1e-5, atol=1e-6)
    out = nn.AvgPool2dExt(3, 2, 1, count_include_pad=False)(jnp.asarray(_X4))
    np.testing.assert_allclose(np.asarray(out), _avg2d_numpy(_X4, 3, 2, 1, False), rtol=1e-5, atol=1e-6)
    out = nn.AvgPool2dExt(2, divisor_override=1)(jnp.asarray(_X4))
    np.testing.assert_allclose(np.asarray(out), _avg2d_numpy(_X4, 2, 2, 0) * 4, rtol=1e-5, atol=1e-5)
    x3 = _X4[:, :, 0]
    want1 = x3.reshape(2, 3, 3, 2).mean(-1)
    np.testing.assert_allclose(np.asarray(nn.AvgPool1dExt(2)(jnp.asarray(x3))), want1, rtol=1e-5, atol=1e-6)
    x5 = np.stack([_X4, _X4 * 2], 2)
    out = np.asarray(nn.AvgPool3dExt((1, 2, 2))(jnp.asarray(x5)))
    np.testing.assert_allclose(out[:, :, 1], 2 * _avg2d_numpy(_X4, 2, 2, 0), rtol=1e-5, atol=1e-5)


def test_max_pool2d_ext_numbers_and_indices():
    cell = nn.MaxPool2dExt(2)
    assert cell.stride == 2
    want = _X4.reshape(2, 3, 3, 2, 3, 2).max((3, 5))
    np.testing.assert_allclose(np.asarray(cell(jnp.asarray(_X4))), want)
    out, idx = nn.MaxPool2dExt(3, 2, 1, return_indices=True)(jnp.asarray(_X4))
    assert out.shape == idx.shape == (2, 3, 3, 3)
    flat = _X4.reshape(2, 3, -1)
    np.testing.assert_allclose(np.take_along_axis(flat, np.asarray(idx).reshape(2, 3, -1), -1).reshape(out.shape),
                               np.asarray(out))


def test_dropout_ext_scales_in_training_and_is_identity_in_eval():
    ms.set_seed(1)
    x = jnp.ones((4, 8, 5, 5), jnp.float32)
    cell = nn.DropoutExt(p=0.25)
    np.testing.assert_array_equal(np.asarray(cell(x)), np.ones((4, 8, 5, 5)))  # Cells start in eval mode
    cell.set_train()
    out = np.asarray(cell(x))
    np.testing.assert_allclose(np.unique(out), [0.0, 1 / 0.75], rtol=1e-6)
    chan = np.asarray(nn.Dropout2dExt(0.5).set_train()(x))
    assert all(len(np.unique(chan[n, c])) == 1 for n in range(4) for c in range(8))
    cell.set_train(False)
    np.testing.assert_array_equal(np.asarray(cell(x)), np.ones((4, 8, 5, 5)))


def test_embedding_ext_padding_row_and_lookup():
    ms.set_seed(0)
    cell = nn.EmbeddingExt(5, 3, padding_idx=-1)
    assert cell.padding_idx == 4 and cell.weight.name == "weight"
    table = np.asarray(cell.weight.value())
    np.testing.assert_array_equal(table[4], 0)
    idx = np.array([[0, 4], [2, 1]], np.int32)
    np.testing.assert_allclose(np.asarray(cell(jnp.asarray(idx))), table[idx])
    frozen = nn.EmbeddingExt(2, 2, _weight=ms.Tensor(np.eye(2, dtype=np.float32)), _freeze=True)
    assert not frozen.weight.requires_grad


def test_log_softmax_ext_implicit_dim_and_l1_loss_ext():
    x3 = _X4[0]
    want = x3 - np.log(np.exp(x3).sum(0, keepdims=True))
    np.testing.assert_allclose(np.asarray(nn.LogSoftmaxExt()(jnp.asarray(x3))), want, rtol=1e-5, atol=1e-5)
    want = _X4 - np.log(np.exp(_X4).sum(1, keepdims=True))
    np.testing.assert_allclose(np.asarray(nn.LogSoftmaxExt()(jnp.asarray(_X4))), want, rtol=1e-5, atol=1e-5)
    y = _X4[::-1].copy()
    np.testing.assert_allclose(np.asarray(nn.L1LossExt()(jnp.asarray(_X4), jnp.asarray(y))), np.abs(_X4 - y).mean(),
                               rtol=1e-5)
    np.testing.assert_allclose(np.asarray(nn.L1LossExt("sum")(jnp.asarray(_X4), jnp.asarray(y))),
                               np.abs(_X4 - y).sum(), rtol=1e-5)


@pytest.mark.parametrize("make,pattern", [
    (lambda m: m.EmbeddingExt(5, 3, sparse=True), "sparse"),
    (lambda m: m.EmbeddingExt(5.0, 3), "num_embeddings"),
    (lambda m: m.EmbeddingExt(5, 3, padding_idx=9), "padding_idx"),
    (lambda m: m.LayerNormExt("6"), "normalized_shape"),
    (lambda m: m.LayerNormExt(()), "normalized_shape"),
    (lambda m: m.L1LossExt("avg"), "reduction"),
])
def test_ext_bad_argument_raises_mindspores_error_type(make, pattern):
    with pytest.raises(Exception) as theirs:
        make(msnn)
    with pytest.raises(type(theirs.value), match=pattern):
        make(nn)
