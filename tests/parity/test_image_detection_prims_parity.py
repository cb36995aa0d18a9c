"""Image and detection Primitives (IOU, BoundingBoxEncode/Decode, CheckValid, CropAndResize, RGBToHSV, AdjustHue,
NonMaxSuppressionV3, MaxPoolWithArgmaxV2, MaxUnpool2D, Upsample*3D, AffineGrid ...) against mindspore 2.10."""
import mindspore
import numpy as np
import pytest
from mindspore import ops as ms_ops

import mindjax
from mindjax import ops as mj_ops

RNG = np.random.default_rng(13)
F32 = np.float32
ANCHORS = np.array([[0, 0, 4, 4], [1, 1, 5, 6], [2, 0, 3, 8]], F32)
GT = np.array([[1, 1, 4, 5], [0, 2, 6, 6]], F32)
DELTAS = (RNG.standard_normal((3, 4)) * 0.2).astype(F32)
RGB = RNG.random((2, 3, 3)).astype(F32)
NHWC = RNG.standard_normal((2, 6, 5, 3)).astype(F32)
NCHW = RNG.standard_normal((1, 2, 6, 6)).astype(F32)
VOL = RNG.standard_normal((1, 2, 2, 3, 2)).astype(F32)
NMS_BOXES = np.array([[0, 0, 1, 1], [0, 0.1, 1, 1.1], [0, -0.1, 1, 0.9], [0, 10, 1, 11], [0, 10.1, 1, 11.1],
                      [0, 100, 1, 101]], F32)
NMS_SCORES = np.array([0.9, 0.75, 0.6, 0.95, 0.5, 0.3], F32)


def _pool(o, T):
    return o.MaxPoolWithArgmaxV2(kernel_size=2, strides=2)(T(NCHW))


CASES = [
    ("IOU", lambda o, T: o.IOU()(T(ANCHORS), T(GT))),
    ("IOU_iof", lambda o, T: o.IOU(mode="iof")(T(ANCHORS), T(GT))),
    ("BoundingBoxEncode", lambda o, T: o.BoundingBoxEncode(means=(0.1, 0., 0., 0.), stds=(1., 1., 2., 2.))(
        T(ANCHORS), T(np.concatenate([GT, GT[:1]])))),
    ("BoundingBoxDecode", lambda o, T: o.BoundingBoxDecode((7, 6), stds=(.1, .1, .2, .2))(T(ANCHORS), T(DELTAS))),
    ("CheckValid", lambda o, T: o.CheckValid()(T(ANCHORS), T(np.array([6, 5, 1], F32)))),
    ("CropAndResize", lambda o, T: o.CropAndResize()(T(NHWC), T(np.array([[0, 0, 1, 1], [.2, .1, .7, .9]], F32)),
                                                     T(np.array([1, 0], np.int32)), (3, 4))),
    ("CropAndResize_nearest", lambda o, T: o.CropAndResize("nearest", 0.5)(
        T(NHWC), T(np.array([[-.2, 0, 1, 1.3]], F32)), T(np.array([0], np.int32)), (4, 3))),
    ("RGBToHSV", lambda o, T: o.RGBToHSV()(T(RGB))),
    ("HSVToRGB", lambda o, T: o.HSVToRGB()(T(RGB[None]))),
    ("AdjustHue", lambda o, T: o.AdjustHue()(T(RGB), T(F32(0.3)))),
    ("AdjustSaturation", lambda o, T: o.AdjustSaturation()(T(RGB), T(F32(0.4)))),
    ("ResizeLinear1D", lambda o, T: o.ResizeLinear1D()(T(NCHW[0]), T(np.array([9], np.int64)))),
    ("ResizeLinear1D_half_pixel", lambda o, T: o.ResizeLinear1D("half_pixel")(T(NCHW[0]), T(np.array([4], np.int64)))),
    ("MaxPoolWithArgmaxV2", lambda o, T: list(_pool(o, T))),
    ("MaxPoolWithArgmaxV2_padded", lambda o, T: list(o.MaxPoolWithArgmaxV2(3, 2, 1)(T(NCHW)))),
    ("MaxPool3DWithArgmax", lambda o, T: list(o.MaxPool3DWithArgmax(2, 1, 0)(T(VOL)))),
    ("MaxUnpool2D", lambda o, T: o.MaxUnpool2D(2)(*_pool(o, T))),
    ("UpsampleNearest3D", lambda o, T: o.UpsampleNearest3D()(T(VOL), [3, 5, 4], None)),
    ("UpsampleTrilinear3D", lambda o, T: o.UpsampleTrilinear3D()(T(VOL), [3, 4, 4], None)),
    ("UpsampleTrilinear3D_align_scales", lambda o, T: o.UpsampleTrilinear3D(True)(T(VOL), None, [2.0, 1.5, 2.0])),
    ("AffineGrid", lambda o, T: o.AffineGrid()(T(np.array([[[1, .2, .1], [-.3, .9, 0]]], F32)), (1, 1, 3, 4))),
]

TOLERANCE = {"AdjustHue": 1e-4, "AdjustSaturation": 1e-4, "HSVToRGB": 1e-5, "RGBToHSV": 1e-5}


def _numpy(value):
    if isinstance(value, (tuple, list)):
        return [_numpy(v) for v in value]
    return value.asnumpy() if hasattr(value, "asnumpy") else np.asarray(value)


def _assert_same(expected, got, name, tol=1e-5):
    if isinstance(expected, list):
        assert isinstance(got, list) and len(got) == len(expected), name
        for e, g in zip(expected, got):
            _assert_same(e, g, name, tol)
        return
    expected, got = np.asarray(expected), np.asarray(got)
    assert got.shape == expected.shape, f"{name}: {got.shape} vs {expected.shape}"
    assert got.dtype == expected.dtype, f"{name}: {got.dtype} vs {expected.dtype}"
    np.testing.assert_allclose(got, expected, rtol=tol, atol=tol, err_msg=name)


@pytest.mark.parametrize("name,case", CASES, ids=[c[0] for c in CASES])
def test_image_primitive_matches_mindspore(name, case):
    _assert_same(_numpy(case(ms_ops, mindspore.Tensor)), _numpy(case(mj_ops, mindjax.Tensor)), name,
                 TOLERANCE.get(name, 1e-5))


def test_non_max_suppression_v3_keeps_the_best_non_overlapping_boxes():
    # MindSpore 2.10 has no CPU NonMaxSuppressionV3 kernel: pinned against the greedy rule by hand.
    keep = mj_ops.NonMaxSuppressionV3()(mindjax.Tensor(NMS_BOXES), mindjax.Tensor(NMS_SCORES), 4, 0.5, 0.4)
    assert keep.dtype == mindjax.int32 and keep.asnumpy().tolist() == [3, 0]
    loose = mj_ops.NonMaxSuppressionV3()(NMS_BOXES, NMS_SCORES, 3, 0.9, 0.0)
    assert np.asarray(loose).tolist() == [3, 0, 1]  # at most max_output_size, the overlaps now allowed


def test_image_primitives_work_under_graph_mode_like_mindspore():
    def sample(o, T, jit):
        @jit
        def run(anchors, gt, rgb, x, vol):
            out, argmax = o.MaxPoolWithArgmaxV2(2, 2)(x)
            return (o.IOU()(anchors, gt), o.RGBToHSV()(rgb), o.MaxUnpool2D(2)(out, argmax),
                    o.UpsampleTrilinear3D()(vol, [3, 4, 4], None), o.BoundingBoxEncode()(anchors, anchors))
        return _numpy(run(T(ANCHORS), T(GT), T(RGB), T(NCHW), T(VOL)))

    mindspore.set_context(mode=mindspore.GRAPH_MODE)
    try:
        expected = sample(ms_ops, mindspore.Tensor, mindspore.jit)
    finally:
        mindspore.set_context(mode=mindspore.PYNATIVE_MODE)
    _assert_same(expected, sample(mj_ops, mindjax.Tensor, mindjax.jit), "graph", 1e-5)


def test_image_primitives_reject_bad_arguments_naming_the_op():
    with pytest.raises(KeyError, match="For 'IOU', 'mode' must be 'iou' or 'iof', but got 'dice'"):
        mj_ops.IOU(mode="dice")
    with pytest.raises(ValueError, match="For 'BoundingBoxEncode', 'means' must be a tuple of 4 floats"):
        mj_ops.BoundingBoxEncode(means=(0.0, 0.0))
    with pytest.raises(ValueError, match="For 'RGBToHSV', the last dimension of 'images' must be 3, but got shape"):
        mj_ops.RGBToHSV()(np.ones((2, 4), F32))
    with pytest.raises(ValueError, match="For 'CropAndResize', 'method' must be 'bilinear', 'nearest' or "):
        mj_ops.CropAndResize(method="cubic")
    with pytest.raises(ValueError, match=r"For 'NonMaxSuppressionV3', 'boxes' must be \(N, 4\)"):
        mj_ops.NonMaxSuppressionV3()(NMS_BOXES[:, :3], NMS_SCORES, 2, 0.5, 0.0)
    with pytest.raises(ValueError, match="For 'UpsampleTrilinear3D', exactly one of 'output_size' and 'scales'"):
        mj_ops.UpsampleTrilinear3D()(VOL, None, None)
    with pytest.raises(ValueError, match="For 'MaxUnpool2D', 'data_format' must be 'NCHW', but got 'NHWC'"):
        mj_ops.MaxUnpool2D(2, data_format="NHWC")
    with pytest.raises(TypeError, match="For 'MaxPoolWithArgmaxV2', 'argmax_type' must be int32 or int64"):
        mj_ops.MaxPoolWithArgmaxV2(2, argmax_type=mindjax.float32)
    with pytest.raises(ValueError, match="For 'ResizeLinear1D', 'coordinate_transformation_mode' must be"):
        mj_ops.ResizeLinear1D("asymmetric")


# --- CTC -------------------------------------------------------------------------------------------------

CTC_X = RNG.standard_normal((4, 2, 4)).astype(F32)
CTC_LEN = np.array([4, 3], np.int32)


def test_ctc_greedy_decoder_matches_mindspore():
    for merge in (True, False):
        expected = [t.asnumpy() for t in ms_ops.ctc_greedy_decoder(mindspore.Tensor(CTC_X), mindspore.Tensor(CTC_LEN),
                                                                    merge)]
        got = [np.asarray(t) for t in mj_ops.CTCGreedyDecoder(merge_repeated=merge)(CTC_X, CTC_LEN)]
        for e, g in zip(expected, got):
            assert e.shape == g.shape, (e, g)
            np.testing.assert_allclose(g.astype(e.dtype), e, rtol=1e-6)


def test_ctc_loss_primitive_matches_mindspore_loss_and_gradient():
    indices = np.array([[0, 0], [0, 1], [1, 0]], np.int64)
    values = np.array([1, 1, 2], np.int32)
    for collapse in (False, True):
        ms_loss, ms_grad = ms_ops.CTCLoss(preprocess_collapse_repeated=collapse)(
            mindspore.Tensor(CTC_X), mindspore.Tensor(indices), mindspore.Tensor(values), mindspore.Tensor(CTC_LEN))
        loss, grad = mj_ops.CTCLoss(preprocess_collapse_repeated=collapse)(CTC_X, indices, values, CTC_LEN)
        np.testing.assert_allclose(np.asarray(loss), ms_loss.asnumpy(), rtol=1e-5, atol=1e-5)
        np.testing.assert_allclose(np.asarray(grad), ms_grad.asnumpy(), rtol=1e-4, atol=1e-5)


def test_ctc_primitives_reject_bad_arguments():
    with pytest.raises(NotImplementedError, match="For 'CTCLoss', 'ctc_merge_repeated=False' is not available"):
        mj_ops.CTCLoss(ctc_merge_repeated=False)
    with pytest.raises(ValueError, match="For 'CTCLoss', the labels of batch 1 are longer than its sequence_length 1"):
        mj_ops.CTCLoss()(CTC_X, np.array([[1, 0], [1, 1]], np.int64), np.array([0, 1], np.int32),
                         np.array([4, 1], np.int32))
    with pytest.raises(ValueError, match=r"For 'ctc_greedy_decoder', each 'sequence_length' must be in \[0, 4\]"):
        mj_ops.ctc_greedy_decoder(CTC_X, np.array([5, 1], np.int32))
