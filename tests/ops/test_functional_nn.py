"""Convolution, pooling and resizing ops against direct numpy computations."""
import jax
import numpy as np
import pytest

from mindjax import ops

RNG = np.random.default_rng(1)
IMG = RNG.standard_normal((2, 3, 5, 5)).astype(np.float32)
W = RNG.standard_normal((4, 3, 3, 3)).astype(np.float32)


def _conv_ref(x, w, stride=1, pad=((0, 0), (0, 0))):
    x = np.pad(x, ((0, 0), (0, 0)) + pad)
    n, _, h, wd = x.shape
    o, _, kh, kw = w.shape
    oh, ow = (h - kh) // stride + 1, (wd - kw) // stride + 1
    out = np.zeros((n, o, oh, ow))
    for i in range(oh):
        for j in range(ow):
            patch = x[:, :, i * stride:i * stride + kh, j * stride:j * stride + kw]
            out[:, :, i, j] = np.einsum("nchw,ochw->no", patch, w)
    return out


def _pool_ref(x, k, s, pad, fn, fill):
    x = np.pad(x, ((0, 0), (0, 0), (pad, pad), (pad, pad)), constant_values=fill)
    h = (x.shape[2] - k) // s + 1
    out = np.zeros(x.shape[:2] + (h, h))
    for i in range(h):
        for j in range(h):
            out[:, :, i, j] = fn(x[:, :, i * s:i * s + k, j * s:j * s + k], axis=(2, 3))
    return out


@pytest.mark.parametrize("kwargs,pad,stride", [
    ({}, ((0, 0), (0, 0)), 1),
    ({"pad_mode": "pad", "padding": 1, "stride": 2}, ((1, 1), (1, 1)), 2),
    ({"pad_mode": "pad", "padding": (1, 0)}, ((1, 1), (0, 0)), 1),
    ({"pad_mode": "same"}, ((1, 1), (1, 1)), 1),
])
def test_conv2d_matches_direct_convolution(kwargs, pad, stride):
    expected = _conv_ref(IMG, W, stride, pad)
    out = ops.conv2d(IMG, W, **kwargs)
    np.testing.assert_allclose(np.asarray(out), expected, rtol=1e-4, atol=1e-4)
    jitted = jax.jit(lambda a, b: ops.conv2d(a, b, **kwargs))(IMG, W)
    np.testing.assert_allclose(np.asarray(jitted), np.asarray(out), rtol=1e-6, atol=1e-6)


def test_conv2d_adds_bias_and_supports_groups():
    w = RNG.standard_normal((6, 1, 3, 3)).astype(np.float32)
    out = ops.conv2d(IMG, w, bias=np.arange(6, dtype=np.float32), groups=3)
    expected = np.concatenate([_conv_ref(IMG[:, c:c + 1], w[2 * c:2 * c + 2]) for c in range(3)], 1)
    np.testing.assert_allclose(np.asarray(out), expected + np.arange(6).reshape(1, 6, 1, 1), rtol=1e-4, atol=1e-4)


def test_max_pool2d_with_padding_and_indices():
    out = ops.max_pool2d(IMG, 3, 2, 1)
    np.testing.assert_allclose(np.asarray(out), _pool_ref(IMG, 3, 2, 1, np.max, -np.inf), rtol=1e-6)
    values, indices = ops.max_pool2d(IMG, 2, return_indices=True)
    flat = IMG.reshape(2, 3, 25)
    np.testing.assert_allclose(np.take_along_axis(flat, np.asarray(indices).reshape(2, 3, -1), 2),
                               np.asarray(values).reshape(2, 3, -1))
    assert ops.max_pool2d(IMG, 2, ceil_mode=True).shape == (2, 3, 3, 3)


def test_avg_pool2d_counts_padding_by_default():
    padded = ops.avg_pool2d(IMG, 3, 2, 1)
    np.testing.assert_allclose(np.asarray(padded), _pool_ref(IMG, 3, 2, 1, np.mean, 0.0), rtol=1e-5, atol=1e-6)
    no_pad = ops.avg_pool2d(IMG, 3, 2, 1, count_include_pad=False)
    assert float(no_pad[0, 0, 0, 0]) == pytest.approx(float(IMG[0, 0, :2, :2].mean()), rel=1e-5)
    override = ops.avg_pool2d(IMG, 2, 2, divisor_override=1)
    assert float(override[0, 0, 0, 0]) == pytest.approx(float(IMG[0, 0, :2, :2].sum()), rel=1e-5)


def test_interpolate_nearest_and_bilinear_match_mindspore_values():
    x = np.arange(6, dtype=np.float32).reshape(1, 1, 2, 3)
    nearest = ops.interpolate(x, size=(4, 5))
    assert np.asarray(nearest)[0, 0].tolist() == [[0, 0, 1, 1, 2], [0, 0, 1, 1, 2], [3, 3, 4, 4, 5], [3, 3, 4, 4, 5]]
    bilinear = ops.interpolate(x, size=(4, 5), mode="bilinear")
    np.testing.assert_allclose(np.asarray(bilinear)[0, 0, 1], [0.75, 1.15, 1.75, 2.35, 2.75], atol=1e-6)
    corners = ops.interpolate(x, size=(4, 5), mode="bilinear", align_corners=True)
    np.testing.assert_allclose(np.asarray(corners)[0, 0, 1], [1.0, 1.5, 2.0, 2.5, 3.0], atol=1e-6)
    assert ops.interpolate(x, scale_factor=2.0).shape == (1, 1, 4, 6)
