"""MaxPoolWithArgmax, NMSWithMask, ROIAlign, ResizeBicubic and ResizeArea against MindSpore 2.10's CPU kernels."""
from __future__ import annotations

from typing import Any, Callable

import mindspore
import numpy as np
import pytest

import mindjax

POOL_X = np.arange(2 * 3 * 5 * 5, dtype=np.float32).reshape(2, 3, 5, 5) % 7
POOL_Y = (np.arange(25, dtype=np.float32).reshape(1, 1, 5, 5) * 7) % 11
BOXES = np.array([[0, 0, 10, 10, 0.9], [1, 1, 11, 11, 0.8], [20, 20, 30, 30, 0.7], [0, 0, 10, 9, 0.95],
                  [21, 21, 29, 29, 0.1]], np.float32)
FEAT_LINEAR = np.arange(72, dtype=np.float32).reshape(1, 2, 6, 6)
FEAT_WAVY = (np.arange(64, dtype=np.float32).reshape(1, 1, 8, 8) ** 2) % 13
ROIS = np.array([[0, 0.5, 0.5, 4.0, 3.0], [0, 1.0, 2.0, 5.5, 5.5]], np.float32)
IMAGE = np.arange(16, dtype=np.float32).reshape(1, 1, 4, 4) ** 1.5
FRAC_X = np.random.default_rng(0).normal(size=(1, 2, 7, 6)).astype(np.float32)
FRAC_SAMPLES = np.array([[[0.3, 0.7], [0.9, 0.1]]], np.float32)
IMAGE_NHWC = np.arange(32, dtype=np.float32).reshape(1, 4, 4, 2) ** 1.5


def _size(ms: Any, hw: tuple[int, int]) -> Any:
    return ms.Tensor(np.array(hw, np.int32))


CASES: dict[str, Callable[[Any], Any]] = {
    "maxpool_argmax_valid": lambda ms: ms.ops.MaxPoolWithArgmax(2, 2)(ms.Tensor(POOL_X)),
    "maxpool_argmax_same_k3_s2": lambda ms: ms.ops.MaxPoolWithArgmax(3, 2, "same")(ms.Tensor(POOL_X)),
    "maxpool_argmax_same_rect": lambda ms: ms.ops.MaxPoolWithArgmax((2, 3), (1, 2), "same")(ms.Tensor(POOL_X)),
    "maxpool_argmax_same_k5_s1": lambda ms: ms.ops.MaxPoolWithArgmax(5, 1, "same")(ms.Tensor(POOL_Y)),
    "maxpool_argmax_same_k4_s1": lambda ms: ms.ops.MaxPoolWithArgmax(4, 1, "same")(ms.Tensor(POOL_Y)),
    "nms_0.5": lambda ms: ms.ops.NMSWithMask(0.5)(ms.Tensor(BOXES)),
    "nms_0.1": lambda ms: ms.ops.NMSWithMask(0.1)(ms.Tensor(BOXES[:4])),
    "roi_align_end1": lambda ms: ms.ops.ROIAlign(2, 2, 1.0, 2, 1)(ms.Tensor(FEAT_LINEAR), ms.Tensor(ROIS)),
    "roi_align_end0": lambda ms: ms.ops.ROIAlign(3, 2, 0.5, 1, 0)(ms.Tensor(FEAT_LINEAR), ms.Tensor(ROIS)),
    "roi_align_3_samples": lambda ms: ms.ops.ROIAlign(2, 2, 1.0, 3, 1)(ms.Tensor(FEAT_WAVY), ms.Tensor(ROIS)),
    "roi_align_auto_samples": lambda ms: ms.ops.ROIAlign(2, 2, 1.0, 0, 1)(ms.Tensor(FEAT_WAVY), ms.Tensor(ROIS)),
    "bicubic": lambda ms: ms.ops.ResizeBicubic()(ms.Tensor(IMAGE), _size(ms, (6, 7))),
    "bicubic_align_corners": lambda ms: ms.ops.ResizeBicubic(True)(ms.Tensor(IMAGE), _size(ms, (6, 7))),
    "bicubic_half_pixel": lambda ms: ms.ops.ResizeBicubic(False, True)(ms.Tensor(IMAGE), _size(ms, (3, 7))),
    "bicubic_down": lambda ms: ms.ops.ResizeBicubic()(ms.Tensor(IMAGE), _size(ms, (2, 3))),
    "fractional_max_pool_fixed_ksize": lambda ms: ms.ops.FractionalMaxPoolWithFixedKsize(2, (3, 4))(
        ms.Tensor(FRAC_X), ms.Tensor(FRAC_SAMPLES)),
    "fractional_max_pool_fixed_ksize_3x2": lambda ms: ms.ops.FractionalMaxPoolWithFixedKsize((3, 2), 2)(
        ms.Tensor(FRAC_X), ms.Tensor(FRAC_SAMPLES)),
    "area_down": lambda ms: ms.ops.ResizeArea()(ms.Tensor(IMAGE_NHWC), _size(ms, (3, 2))),
    "area_align_corners_up": lambda ms: ms.ops.ResizeArea(True)(ms.Tensor(IMAGE_NHWC), _size(ms, (3, 5))),
    "area_up": lambda ms: ms.ops.ResizeArea()(ms.Tensor(IMAGE_NHWC), _size(ms, (6, 7))),
}


@pytest.mark.parametrize("name", list(CASES))
def test_cpu_primitive_matches_mindspore(name: str) -> None:
    expected, got = CASES[name](mindspore), CASES[name](mindjax)
    expected = expected if isinstance(expected, tuple) else (expected,)
    got = got if isinstance(got, tuple) else (got,)
    assert len(got) == len(expected)
    for e, g in zip(expected, got):
        assert g.shape == e.shape and str(g.dtype) == str(e.dtype)
        np.testing.assert_allclose(g.asnumpy(), e.asnumpy(), rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("build", [
    lambda ms: ms.ops.NMSWithMask(1), lambda ms: ms.ops.ROIAlign(2, 2, 1), lambda ms: ms.ops.Cauchy((2, 3)),
    lambda ms: ms.ops.Cauchy([2], 1), lambda ms: ms.ops.LogNormalReverse(1),
])
def test_constructor_type_errors_like_mindspore(build: Callable[[Any], Any]) -> None:
    with pytest.raises(TypeError):
        build(mindspore)
    with pytest.raises(TypeError, match="For '(NMSWithMask|ROIAlign|Cauchy|LogNormalReverse)'"):
        build(mindjax)


def test_randperm_v2_and_multinomial_with_replacement_shapes_match_mindspore() -> None:
    for ms in (mindspore, mindjax):
        perm = ms.ops.RandpermV2(seed=1, dtype=ms.int32)(6)
        assert perm.shape == (6,) and str(perm.dtype) == "Int32"
        assert sorted(perm.asnumpy().tolist()) == list(range(6))
        draws = ms.ops.MultinomialWithReplacement(2, True)(ms.Tensor(np.array([[0., 9., 4., 0.]], np.float32)),
                                                           ms.Tensor(2, ms.int64), ms.Tensor(5, ms.int64))
        assert draws.shape == (1, 2) and str(draws.dtype) == "Int64"
        assert set(draws.asnumpy().ravel().tolist()) <= {1, 2}
