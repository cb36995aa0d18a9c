"""deformable_conv2d, DeformableOffsets and multi_scale_deformable_attn_function: reductions to plain ops,
a numpy reference for the attention, and errors."""
import numpy as np
import pytest

import mindjax
from mindjax import ops

RNG = np.random.default_rng(4)


def test_deformable_conv2d_with_zero_offsets_and_unit_mask_is_a_convolution():
    x = RNG.standard_normal((1, 2, 5, 5)).astype(np.float32)
    w = RNG.standard_normal((3, 2, 3, 3)).astype(np.float32)
    off = np.concatenate([np.zeros((1, 18, 3, 3)), np.ones((1, 9, 3, 3))], axis=1).astype(np.float32)
    out = ops.deformable_conv2d(x, w, off, (3, 3), (1, 1, 1, 1), (0, 0, 0, 0)).asnumpy()
    ref = ops.conv2d(mindjax.Tensor(x), mindjax.Tensor(w)).asnumpy()
    np.testing.assert_allclose(out, ref, rtol=1e-5, atol=1e-5)


def test_deformable_conv2d_errors_name_the_op_and_argument():
    x = np.ones((1, 2, 5, 5), np.float32)
    w = np.ones((3, 2, 3, 3), np.float32)
    with pytest.raises(ValueError, match=r"For 'deformable_conv2d', 'offsets' must have shape \(1, 27, 3, 3\)"):
        ops.deformable_conv2d(x, w, np.ones((1, 18, 3, 3), np.float32), (3, 3), (1, 1, 1, 1), (0, 0, 0, 0))
    with pytest.raises(ValueError, match="For 'deformable_conv2d', the N and C dimensions of 'strides' must be 1"):
        ops.deformable_conv2d(x, w, np.ones((1, 27, 3, 3), np.float32), (3, 3), (2, 1, 1, 1), (0, 0, 0, 0))
    with pytest.raises(ValueError, match="For 'deformable_conv2d', 'modulated' must be True"):
        ops.deformable_conv2d(x, w, np.ones((1, 27, 3, 3), np.float32), (3, 3), (1, 1, 1, 1), (0, 0, 0, 0),
                              modulated=False)
    with pytest.raises(TypeError, match="For 'DeformableOffsets', 'pads' must be a tuple of 4 ints"):
        ops.DeformableOffsets((1, 1, 1, 1), (0, 0), (3, 3))


def _np_msda(value, shapes, starts, loc, weight):
    bs, _, heads, dims = value.shape
    _, nq, _, nl, npts, _ = loc.shape
    out = np.zeros((bs, nq, heads, dims))
    for b in range(bs):
        for q in range(nq):
            for h in range(heads):
                for lv in range(nl):
                    hh, ww = shapes[lv]
                    plane = value[b, starts[lv]:starts[lv] + hh * ww, h].reshape(hh, ww, dims)
                    for p in range(npts):
                        x = loc[b, q, h, lv, p, 0] * ww - 0.5
                        y = loc[b, q, h, lv, p, 1] * hh - 0.5
                        x0, y0 = int(np.floor(x)), int(np.floor(y))
                        acc = np.zeros(dims)
                        for yy in (y0, y0 + 1):
                            for xx in (x0, x0 + 1):
                                if 0 <= yy < hh and 0 <= xx < ww:
                                    acc += (1 - abs(y - yy)) * (1 - abs(x - xx)) * plane[yy, xx]
                        out[b, q, h] += weight[b, q, h, lv, p] * acc
    return out.reshape(bs, nq, heads * dims)


def test_multi_scale_deformable_attn_matches_a_bilinear_reference():
    shapes = np.array([[4, 5], [2, 3]], np.int64)
    starts = np.array([0, 20], np.int64)
    value = RNG.standard_normal((2, 26, 2, 8)).astype(np.float32)
    loc = (RNG.random((2, 3, 2, 2, 4, 2)) * 1.2 - 0.1).astype(np.float32)  # some points fall outside
    weight = RNG.random((2, 3, 2, 2, 4)).astype(np.float32)
    out = ops.multi_scale_deformable_attn_function(value, shapes, starts, loc, weight)
    assert out.shape == (2, 3, 16) and out.dtype == mindjax.float32
    np.testing.assert_allclose(out.asnumpy(), _np_msda(value, shapes, starts, loc, weight), rtol=1e-4, atol=1e-5)


def test_multi_scale_deformable_attn_errors():
    value = np.ones((1, 6, 1, 8), np.float32)
    with pytest.raises(ValueError, match=r"For 'multi_scale_deformable_attn_function', 'weight' must have shape "
                                         r"\(1, 2, 1, 1, 3\)"):
        ops.multi_scale_deformable_attn_function(value, np.array([[2, 3]]), np.array([0]),
                                                 np.ones((1, 2, 1, 1, 3, 2), np.float32),
                                                 np.ones((1, 2, 1, 1, 4), np.float32))
    with pytest.raises(ValueError, match="reach past num_keys=6"):
        ops.multi_scale_deformable_attn_function(value, np.array([[3, 3]]), np.array([0]),
                                                 np.ones((1, 2, 1, 1, 3, 2), np.float32),
                                                 np.ones((1, 2, 1, 1, 3), np.float32))
