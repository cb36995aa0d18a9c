"""CombinedNonMaxSuppression and NonMaxSuppressionWithOverlaps against mindspore 2.10 on CPU."""
import mindspore
import numpy as np
import pytest
from mindspore import ops as ms_ops

import mindjax
from mindjax import ops as mj_ops

RNG = np.random.default_rng(8)
F32 = np.float32


def _boxes(batch, n, q):
    corner = RNG.random((batch, n, q, 2)).astype(F32)
    size = (RNG.random((batch, n, q, 2)) * 0.5).astype(F32)
    return np.concatenate([corner - 0.2, corner + size], axis=-1)  # some coordinates fall outside [0, 1]


BOXES_SHARED, BOXES_PER_CLASS = _boxes(2, 6, 1), _boxes(2, 6, 3)
SCORES = RNG.random((2, 6, 3)).astype(F32)


@pytest.mark.parametrize("pad_per_class", [False, True])
@pytest.mark.parametrize("clip_boxes", [True, False])
@pytest.mark.parametrize("shared", [True, False])
@pytest.mark.parametrize("limits", [(2, 5), (3, 20), (1, 2)])
def test_combined_non_max_suppression_matches_mindspore(pad_per_class, clip_boxes, shared, limits):
    boxes = BOXES_SHARED if shared else BOXES_PER_CLASS
    results = []
    for mod, o in ((mindspore, ms_ops), (mindjax, mj_ops)):
        out = o.CombinedNonMaxSuppression(pad_per_class, clip_boxes)(
            mod.Tensor(boxes), mod.Tensor(SCORES), mod.Tensor(limits[0], mod.int32), mod.Tensor(limits[1], mod.int32),
            mod.Tensor(0.3, mod.float32), mod.Tensor(0.2, mod.float32))
        results.append([t.asnumpy() for t in out])
    for e, g in zip(*results):
        assert g.shape == e.shape and g.dtype == e.dtype
        np.testing.assert_allclose(g, e, rtol=1e-6, atol=1e-6)


@pytest.mark.parametrize("limit,overlap_t,score_t", [(4, 0.1, 0.2), (6, 0.5, 0.0), (2, 0.9, 0.3), (0, 0.5, 0.0)])
def test_non_max_suppression_with_overlaps_matches_mindspore(limit, overlap_t, score_t):
    overlaps = RNG.random((6, 6)).astype(F32)
    scores = RNG.random(6).astype(F32)
    got, expected = (o.NonMaxSuppressionWithOverlaps()(mod.Tensor(overlaps), mod.Tensor(scores),
                                                       mod.Tensor(limit, mod.int32), mod.Tensor(overlap_t, mod.float32),
                                                       mod.Tensor(score_t, mod.float32)).asnumpy()
                     for mod, o in ((mindjax, mj_ops), (mindspore, ms_ops)))
    assert got.dtype == expected.dtype and got.tolist() == expected.tolist()


def test_combined_nms_and_overlaps_reject_bad_inputs():
    with pytest.raises(ValueError, match=r"For 'CombinedNonMaxSuppression', 'iou_threshold' must be in \[0, 1\], "
                                         r"but got 1.5"):
        mj_ops.CombinedNonMaxSuppression()(BOXES_SHARED, SCORES, np.int32(2), np.int32(4), F32(1.5), F32(0))
    with pytest.raises(ValueError, match="For 'CombinedNonMaxSuppression', 'scores' must be"):
        mj_ops.CombinedNonMaxSuppression()(BOXES_SHARED, SCORES[:, :4], np.int32(2), np.int32(4), F32(.5), F32(0))
    with pytest.raises(TypeError, match="For 'CombinedNonMaxSuppression', 'max_total_size' must be an int32"):
        mj_ops.CombinedNonMaxSuppression()(BOXES_SHARED, SCORES, np.int32(2), F32(4), F32(.5), F32(0))
    with pytest.raises(ValueError, match=r"For 'NonMaxSuppressionWithOverlaps', 'overlaps' must be \(N, N\)"):
        mj_ops.NonMaxSuppressionWithOverlaps()(np.ones((3, 4), F32), np.ones(3, F32), 2, F32(.5), F32(0))
