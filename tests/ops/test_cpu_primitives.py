"""Cauchy, LogNormalReverse, RandpermV2, MultinomialWithReplacement, MaxPoolWithArgmax, NMSWithMask, ROIAlign,
ResizeBicubic: distributions, determinism, shapes and bad input."""
from __future__ import annotations

import numpy as np
import pytest

import mindjax
from mindjax import ops


def test_cauchy_has_its_median_and_half_width() -> None:
    mindjax.set_seed(0)
    x = ops.Cauchy([20000], 5.0, 0.5)().asnumpy()
    assert x.dtype == np.float32 and x.shape == (20000,)
    q25, q50, q75 = np.quantile(x, [0.25, 0.5, 0.75])
    assert abs(q50 - 5.0) < 0.05 and abs((q75 - q25) / 2 - 0.5) < 0.05


def test_cauchy_checks_size() -> None:
    with pytest.raises(ValueError, match=r"For 'Cauchy', the 'size\[1\]' must be int and must > 0, but got '0'"):
        ops.Cauchy([2, 0])
    with pytest.raises(ValueError, match="'size' must not be an empty list"):
        ops.Cauchy([])


def test_log_normal_reverse_keeps_shape_dtype_and_log_moments() -> None:
    mindjax.set_seed(0)
    y = ops.LogNormalReverse(2.0, 0.5)(mindjax.Tensor(np.zeros((100, 100), np.float16)))
    assert y.shape == (100, 100) and str(y.dtype) == "Float16"
    logs = np.log(y.asnumpy().astype(np.float64))
    assert abs(logs.mean() - 2.0) < 0.05 and abs(logs.std() - 0.5) < 0.05
    with pytest.raises(TypeError, match="For 'LogNormalReverse', 'input' must be float16, float32 or float64"):
        ops.LogNormalReverse()(mindjax.Tensor(np.zeros(3, np.int32)))


def test_randperm_v2_is_fixed_by_seed_and_offset() -> None:
    a = ops.RandpermV2(seed=3, offset=1)(10).asnumpy()
    b = ops.RandpermV2(seed=3, offset=1)(mindjax.Tensor(10, mindjax.int64)).asnumpy()
    c = ops.RandpermV2(seed=3, offset=2)(10).asnumpy()
    assert sorted(a.tolist()) == list(range(10)) and a.dtype == np.int64
    np.testing.assert_array_equal(a, b)
    assert not np.array_equal(a, c)
    with pytest.raises(ValueError, match="For 'RandpermV2', the input 'n' must be greater than 0, but got data: 0"):
        ops.RandpermV2()(0)
    with pytest.raises(TypeError, match="For 'RandpermV2', 'n' must be an int or a 0-d integer Tensor"):
        ops.RandpermV2()(mindjax.Tensor(np.array([3, 4])))


def test_multinomial_with_replacement_draws_only_weighted_categories() -> None:
    w = mindjax.Tensor(np.array([[0.0, 9.0, 1.0, 0.0], [1.0, 0.0, 0.0, 3.0]], np.float32))
    seed, offset = mindjax.Tensor(7, mindjax.int64), mindjax.Tensor(1, mindjax.int64)
    draws = ops.MultinomialWithReplacement(500, True)(w, seed, offset).asnumpy()
    assert draws.shape == (2, 500)
    assert set(draws[0].tolist()) <= {1, 2} and set(draws[1].tolist()) <= {0, 3}
    assert 0.85 < np.mean(draws[0] == 1) < 0.95
    again = ops.MultinomialWithReplacement(500, True)(w, seed, offset).asnumpy()
    np.testing.assert_array_equal(draws, again)
    distinct = ops.MultinomialWithReplacement(2, False)(w, seed, offset).asnumpy()
    assert all(len(set(row)) == 2 for row in distinct.tolist())
    with pytest.raises(ValueError, match="without replacement 'numsamples' \\(5\\) must not exceed"):
        ops.MultinomialWithReplacement(5, False)(w, seed, offset)


def test_max_pool_with_argmax_index_is_within_the_sample() -> None:
    x = mindjax.Tensor(np.arange(2 * 2 * 4 * 4, dtype=np.float32).reshape(2, 2, 4, 4))
    out, idx = ops.MaxPoolWithArgmax(2, 2)(x)
    np.testing.assert_array_equal(out.asnumpy()[1, 1], [[53, 55], [61, 63]])
    np.testing.assert_array_equal(idx.asnumpy()[1, 1], [[21, 23], [29, 31]])  # 16 + h * 4 + w
    with pytest.raises(ValueError, match="For 'MaxPoolWithArgmax', 'pad_mode' must be 'valid' or 'same'"):
        ops.MaxPoolWithArgmax(2, 2, "pad")
    with pytest.raises(ValueError, match="For 'MaxPoolWithArgmax', 'x' must be 4-D"):
        ops.MaxPoolWithArgmax(2, 2)(mindjax.Tensor(np.zeros((4, 4), np.float32)))


def test_nms_with_mask_suppresses_overlaps_in_score_order() -> None:
    boxes = mindjax.Tensor(np.array([[0, 0, 2, 2, 0.6], [0, 0, 2, 2.1, 0.9], [5, 5, 6, 6, 0.5]], np.float32))
    sorted_boxes, idx, keep = ops.NMSWithMask(0.5)(boxes)
    np.testing.assert_allclose(sorted_boxes.asnumpy()[:, 4], [0.9, 0.6, 0.5])
    np.testing.assert_array_equal(keep.asnumpy(), [True, False, True])
    np.testing.assert_array_equal(idx.asnumpy(), [0, 1, 2])
    with pytest.raises(ValueError, match=r"For 'NMSWithMask', 'bboxes' must be of shape \(N, 5\)"):
        ops.NMSWithMask(0.5)(mindjax.Tensor(np.zeros((3, 4), np.float32)))


def test_roi_align_of_a_linear_image_is_its_bin_centres() -> None:
    feat = mindjax.Tensor(np.tile(np.arange(8, dtype=np.float32), (8, 1))[None, None])  # value = x
    out = ops.ROIAlign(1, 2, 1.0, 2, 0)(feat, mindjax.Tensor(np.array([[0, 1.0, 1.0, 5.0, 3.0]], np.float32)))
    np.testing.assert_allclose(out.asnumpy().ravel(), [2.0, 4.0])  # bins [1, 3) and [3, 5)
    with pytest.raises(ValueError, match=r"For 'ROIAlign', 'rois' must be of shape \(R, 5\)"):
        ops.ROIAlign(1, 1, 1.0)(feat, mindjax.Tensor(np.zeros((1, 4), np.float32)))
    with pytest.raises(ValueError, match="'roi_end_mode' must be 0 or 1"):
        ops.ROIAlign(1, 1, 1.0, 2, 2)


def test_resize_bicubic_keeps_constants_and_checks_size() -> None:
    out = ops.ResizeBicubic()(mindjax.Tensor(np.full((1, 2, 3, 3), 4.0, np.float32)), (5, 4))
    assert out.shape == (1, 2, 5, 4)
    np.testing.assert_allclose(out.asnumpy(), 4.0, rtol=1e-3)
    with pytest.raises(ValueError, match="For 'ResizeBicubic', 'size' must be two positive ints"):
        ops.ResizeBicubic()(mindjax.Tensor(np.zeros((1, 1, 2, 2), np.float32)), (0, 2))
    with pytest.raises(ValueError, match="cannot both be True"):
        ops.ResizeBicubic(True, True)


def test_resize_area_averages_whole_blocks() -> None:
    x = np.arange(16, dtype=np.float32).reshape(1, 4, 4, 1)
    out = ops.ResizeArea()(mindjax.Tensor(x), mindjax.Tensor(np.array([2, 2], np.int32)))
    np.testing.assert_allclose(out.asnumpy()[0, :, :, 0], x[0, :, :, 0].reshape(2, 2, 2, 2).mean(axis=(1, 3)))
    with pytest.raises(ValueError, match=r"For 'ResizeArea', 'images' must be 4-D \(N, H, W, C\)"):
        ops.ResizeArea()(mindjax.Tensor(x[0]), (2, 2))


def test_fractional_max_pool_functions_and_primitive_agree() -> None:
    x = mindjax.Tensor(np.random.default_rng(1).normal(size=(1, 2, 7, 6)).astype(np.float32))
    samples = mindjax.Tensor(np.array([[[0.3, 0.7], [0.9, 0.1]]], np.float32))
    y, idx = ops.FractionalMaxPoolWithFixedKsize(2, (3, 4))(x, samples)
    y2, idx2 = ops.fractional_max_pool2d(x, 2, (3, 4), return_indices=True, _random_samples=samples)
    np.testing.assert_array_equal(y.asnumpy(), y2.asnumpy())
    np.testing.assert_array_equal(idx.asnumpy(), idx2.asnumpy())
    flat = x.asnumpy().reshape(1, 2, -1)
    np.testing.assert_array_equal(np.take_along_axis(flat, idx.asnumpy().reshape(1, 2, -1), -1).ravel(),
                                  y.asnumpy().ravel())
    assert ops.fractional_max_pool2d(x, 2, output_ratio=0.5).shape == (1, 2, 3, 3)
    with pytest.raises(ValueError, match="'output_size' and 'output_ratio' can not be None at the same time"):
        ops.fractional_max_pool2d(x, 2)
    with pytest.raises(ValueError, match=r"For FractionalMaxPoolWithFixedKsize, ksize H \[2\] \+ output_shape_h \[7\]"):
        ops.FractionalMaxPoolWithFixedKsize(2, (7, 2))(x, samples)
    assert ops.fractional_max_pool3d(mindjax.Tensor(np.ones((1, 1, 4, 4, 4), np.float32)), 2, 2).shape == (1, 1, 2, 2, 2)
