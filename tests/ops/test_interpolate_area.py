"""``ops.interpolate`` / ``nn.Upsample`` with ``mode='area'``: MindSpore's adaptive average
pooling to the output size (3-D to 5-D input), and its argument errors."""
import numpy as np
import pytest

import mindjax as ms
from mindjax import nn, ops, Tensor


def _adaptive_mean(x, out_sizes):
    """numpy reference: each output is the mean of [floor(i*n/m), ceil((i+1)*n/m)) per spatial axis."""
    for axis, m in enumerate(out_sizes, start=2):
        n = x.shape[axis]
        parts = [np.take(x, range(i * n // m, -(-(i + 1) * n // m)), axis=axis).mean(axis=axis, keepdims=True)
                 for i in range(m)]
        x = np.concatenate(parts, axis=axis)
    return x


@pytest.mark.parametrize("shape, size", [((1, 3, 4), (2,)), ((2, 2, 5), (3,)), ((1, 2, 5, 7), (2, 3)),
                                         ((1, 1, 4, 4), (8, 2)), ((1, 1, 3, 4, 5), (2, 2, 3))])
def test_area_is_adaptive_average_pooling(shape, size):
    x = np.random.default_rng(0).random(shape).astype(np.float32)
    out = ops.interpolate(Tensor(x), size=size, mode="area")
    np.testing.assert_allclose(out.asnumpy(), _adaptive_mean(x, size), rtol=1e-6)


def test_area_scale_factor_floors_the_output_size():
    x = np.random.default_rng(1).random((1, 3, 4)).astype(np.float32)
    out = ops.interpolate(Tensor(x), scale_factor=0.3, mode="area")
    assert out.shape == (1, 3, 1)
    np.testing.assert_allclose(out.asnumpy(), x.mean(axis=2, keepdims=True), rtol=1e-6)
    x4 = np.random.default_rng(2).random((1, 2, 5, 7)).astype(np.float32)
    out4 = ops.interpolate(Tensor(x4), scale_factor=(0.5, 2.0), mode="area")
    assert out4.shape == (1, 2, 2, 14)
    np.testing.assert_allclose(out4.asnumpy(), _adaptive_mean(x4, (2, 14)), rtol=1e-6)


@pytest.mark.parametrize("mode_ctx", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
def test_upsample_area(mode_ctx):
    ms.set_context(mode=mode_ctx)
    try:
        x = np.random.default_rng(3).random((1, 3, 4)).astype(np.float32)
        out = nn.Upsample(mode="area", size=2)(Tensor(x))
        np.testing.assert_allclose(out.asnumpy(), _adaptive_mean(x, (2,)), rtol=1e-6)
        out = nn.Upsample(mode="area", scale_factor=0.3)(Tensor(x))
        assert out.shape == (1, 3, 1)
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)


def test_area_errors():
    x4 = Tensor(np.ones((1, 2, 5, 7), np.float32))
    with pytest.raises(ValueError, match="'align_corners' option cannot currently be set with the mode = area, "
                                         "and dim = 4D"):
        ops.interpolate(x4, size=(2, 3), mode="area", align_corners=False)
    with pytest.raises(ValueError, match="incorrect to set 'recompute_scale_factor' to True after specifying"):
        ops.interpolate(x4, size=(2, 3), mode="area", recompute_scale_factor=True)
    with pytest.raises(ValueError, match="area only supports 3-D, 4-D and 5-D input"):
        ops.interpolate(Tensor(np.ones((2, 3), np.float32)), size=2, mode="area")
    with pytest.raises(ValueError, match="'input' and 'size' must have the same spatial dimensions"):
        ops.interpolate(x4, size=(2, 3, 4), mode="area")
    with pytest.raises(ValueError, match="'scale_factor' must be float and must > 0"):
        ops.interpolate(x4, scale_factor=-1.0, mode="area")
    with pytest.raises(ValueError, match="'size' and 'scale_factor' cannot be both empty"):
        ops.interpolate(x4, mode="area")
    with pytest.raises(TypeError, match="the input dtype must be floating, got int32"):
        ops.interpolate(Tensor(np.ones((1, 1, 4), np.int32)), size=2, mode="area")
    with pytest.raises(ValueError, match="'mode' must be 'nearest', 'bilinear' or 'area', got 'foo'"):
        ops.interpolate(x4, size=(2, 3), mode="foo")
    with pytest.raises(ValueError, match="align_corners' option cannot currently be set with the mode = area"):
        nn.Upsample(mode="area", size=(2, 3), align_corners=True)(x4)
