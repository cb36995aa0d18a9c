"""Primitives of ``mindjax.ops.operations`` against mindspore 2.10's: constructor arguments and call."""
import numpy as np
import pytest
import mindspore
from mindspore import ops as ms_ops

import mindjax
from mindjax import ops as mj_ops

RNG = np.random.default_rng(5)
IMG = RNG.standard_normal((1, 2, 3, 4)).astype(np.float32)
X = RNG.standard_normal((2, 3)).astype(np.float32)
Y = RNG.standard_normal((2, 3)).astype(np.float32)
B3 = RNG.standard_normal((2, 3, 4)).astype(np.float32)
I = np.array([[7, -3, 5], [4, 9, -8]], np.int32)
J = np.array([[2, 2, -3], [3, 4, 3]], np.int32)

CASES = [
    ("ResizeNearestNeighbor", lambda o, T: o.ResizeNearestNeighbor((5, 7))(T(IMG))),
    ("ResizeNearestNeighbor_align", lambda o, T: o.ResizeNearestNeighbor((5, 7), True)(T(IMG))),
    ("ResizeNearestNeighbor_half_pixel", lambda o, T: o.ResizeNearestNeighbor((5, 7), False, True)(T(IMG))),
    ("ResizeNearestNeighbor_down", lambda o, T: o.ResizeNearestNeighbor((2, 3))(T(IMG))),
    ("ResizeBilinearV2", lambda o, T: o.ResizeBilinearV2()(T(IMG), (5, 7))),
    ("ResizeBilinearV2_align", lambda o, T: o.ResizeBilinearV2(True)(T(IMG), (5, 7))),
    ("ResizeBilinearV2_half_pixel", lambda o, T: o.ResizeBilinearV2(False, True)(T(IMG), (5, 7))),
    ("Unstack", lambda o, T: o.Unstack(axis=1)(T(B3))),
    ("Unpack", lambda o, T: o.Unpack()(T(B3))),
    ("IsClose", lambda o, T: o.IsClose(rtol=0.1, atol=0.5)(T(X), T(Y))),
    ("CumProd_exclusive_reverse", lambda o, T: o.CumProd(True, True)(T(X), 1)),
    ("ReduceAll", lambda o, T: o.ReduceAll(True)(T(X > -1), 1)),
    ("ReduceAny", lambda o, T: o.ReduceAny()(T(X > 1))),
    ("TensorScatterElements", lambda o, T: o.TensorScatterElements(1, "add")(
        T(X), T(np.array([[2, 2], [0, 1]], np.int32)), T(np.ones((2, 2), np.float32)))),
    ("Atan2", lambda o, T: o.Atan2()(T(X), T(Y))),
    ("FloorMod", lambda o, T: o.FloorMod()(T(I), T(J))),
    ("Mod", lambda o, T: o.Mod()(T(I), T(J))),
    ("TruncateDiv", lambda o, T: o.TruncateDiv()(T(I), T(J))),
    ("DivNoNan", lambda o, T: o.DivNoNan()(T(X), T(np.where(Y > 0, Y, 0).astype(np.float32)))),
    ("Xlogy", lambda o, T: o.Xlogy()(T(X), T(np.abs(Y)))),
    ("Log1p", lambda o, T: o.Log1p()(T(np.abs(X)))),
    ("GreaterEqual", lambda o, T: o.GreaterEqual()(T(X), T(Y))),
    ("Cummax", lambda o, T: o.Cummax(1)(T(B3))),
    ("Tril", lambda o, T: o.Tril(1)(T(B3))),
    ("Triu", lambda o, T: o.Triu(-1)(T(B3))),
    ("BroadcastTo", lambda o, T: o.BroadcastTo((2, -1, 3))(T(X[:1]))),
    ("GatherNd", lambda o, T: o.GatherNd()(T(B3), T(np.array([[0, 1], [1, 2]], np.int32)))),
    ("ScatterNd", lambda o, T: o.ScatterNd()(T(np.array([[0], [2]], np.int32)), T(X), (4, 3))),
    ("DepthToSpace", lambda o, T: o.DepthToSpace(2)(T(RNG_D))),
    ("SpaceToDepth", lambda o, T: o.SpaceToDepth(2)(T(RNG_S))),
    ("ReverseV2", lambda o, T: o.ReverseV2((0, 2))(T(B3))),
    ("Elu", lambda o, T: o.Elu()(T(X))),
    ("HShrink", lambda o, T: o.HShrink(0.3)(T(X))),
    ("SoftShrink", lambda o, T: o.SoftShrink(0.3)(T(X))),
    ("Softsign", lambda o, T: o.Softsign()(T(X))),
    ("HSwish", lambda o, T: o.HSwish()(T(X))),
    ("L2Loss", lambda o, T: o.L2Loss()(T(X))),
    ("Pad", lambda o, T: o.Pad(((1, 0), (0, 2)))(T(X))),
    ("MirrorPad", lambda o, T: o.MirrorPad("SYMMETRIC")(T(X), T(np.array([[1, 1], [2, 1]], np.int64)))),
    ("BinaryCrossEntropy", lambda o, T: o.BinaryCrossEntropy()(T(PROB), T(LAB), T(np.ones_like(PROB)))),
    ("SmoothL1Loss", lambda o, T: o.SmoothL1Loss(0.5)(T(X), T(Y))),
    ("KLDivLoss", lambda o, T: o.KLDivLoss("sum")(T(np.log(PROB)), T(LAB))),
    ("NLLLoss", lambda o, T: o.NLLLoss()(T(np.log(PROB)), T(np.array([2, 0], np.int32)),
                                         T(np.array([1.0, 0.5, 2.0], np.float32)))),
    ("Conv3D", lambda o, T: o.Conv3D(2, 2)(T(VOL), T(W3))),
    ("AvgPool3D", lambda o, T: o.AvgPool3D(2, 1, "same")(T(VOL))),
    ("MaxPool3D", lambda o, T: o.MaxPool3D(2, 2)(T(VOL))),
    ("AdaptiveAvgPool2D", lambda o, T: o.AdaptiveAvgPool2D((1, 2))(T(IMG))),
    ("Conv2DBackpropInput", lambda o, T: o.Conv2DBackpropInput(3, 2, "pad", 1)(T(DOUT), T(WB), (1, 2, 4, 5))),
    ("Conv2DTranspose_pad_four", lambda o, T: o.Conv2DTranspose(3, 3, "pad", pad=(1, 0, 1, 1), stride=2)(
        T(DOUT2), T(WB3), (1, 2, 6, 8))),
    ("Conv2DTranspose_same_stride", lambda o, T: o.Conv2DTranspose(3, 3, "same", stride=2)(T(DOUT2), T(WB3),
                                                                                          (1, 2, 6, 8))),
    ("UnsortedSegmentSum", lambda o, T: o.UnsortedSegmentSum()(T(B3), T(np.array([1, 1], np.int32)), 2)),
    ("Meshgrid", lambda o, T: o.Meshgrid("ij")((T(X[0]), T(Y[1])))),
    ("Range", lambda o, T: o.Range()(T(np.float32(0.5)), T(np.float32(3.0)), T(np.float32(0.75)))),
    ("Cdist", lambda o, T: o.Cdist(1.0)(T(B3), T(B3[:, :2]))),
    ("AddN", lambda o, T: o.AddN()((T(X), T(Y)))),
    ("LinSpace", lambda o, T: o.LinSpace()(T(np.float32(0)), T(np.float32(1)), 5)),
    ("ReduceStd", lambda o, T: o.ReduceStd(1)(T(B3))),
    ("Lerp", lambda o, T: o.Lerp()(T(X), T(Y), T(np.float32(0.25)))),
    ("MatrixInverse", lambda o, T: o.MatrixInverse()(T(SQ))),
    ("ArgMinWithValue", lambda o, T: o.ArgMinWithValue(1, True)(T(X))),
    ("Argmin", lambda o, T: o.Argmin()(T(X))),
]
RNG_D = RNG.standard_normal((1, 8, 2, 3)).astype(np.float32)
RNG_S = RNG.standard_normal((1, 2, 4, 6)).astype(np.float32)
PROB = RNG.uniform(0.05, 0.95, (2, 3)).astype(np.float32)
LAB = (RNG.uniform(size=(2, 3)) > 0.5).astype(np.float32)
VOL = RNG.standard_normal((1, 2, 4, 5, 6)).astype(np.float32)
W3 = RNG.standard_normal((2, 2, 2, 2, 2)).astype(np.float32)
DOUT = RNG.standard_normal((1, 3, 5, 6)).astype(np.float32)
WB = RNG.standard_normal((3, 2, 2, 2)).astype(np.float32)
DOUT2 = RNG.standard_normal((1, 3, 3, 4)).astype(np.float32)
WB3 = RNG.standard_normal((3, 2, 3, 3)).astype(np.float32)
SQ = (RNG.standard_normal((3, 3)) + 3 * np.eye(3)).astype(np.float32)


def _to_numpy(value):
    if isinstance(value, (tuple, list)):
        return [_to_numpy(v) for v in value]
    return value.asnumpy() if hasattr(value, "asnumpy") else np.asarray(value)


def _assert_same(expected, got, name):
    if isinstance(expected, list):
        assert isinstance(got, list) and len(got) == len(expected), name
        for i, (e, g) in enumerate(zip(expected, got)):
            _assert_same(e, g, f"{name}[{i}]")
        return
    expected, got = np.asarray(expected), np.asarray(got)
    assert got.shape == expected.shape, f"{name}: {got.shape} != {expected.shape}"
    np.testing.assert_allclose(got.astype(np.float64), expected.astype(np.float64), rtol=1e-4, atol=1e-5,
                               err_msg=name)


@pytest.mark.parametrize("name,case", CASES, ids=[c[0] for c in CASES])
def test_primitive_matches_mindspore(name, case):
    _assert_same(_to_numpy(case(ms_ops, mindspore.Tensor)), _to_numpy(case(mj_ops, mindjax.Tensor)), name)


def test_primitives_keep_mindspore_attributes():
    for ms_prim, mj_prim, names in [
        (ms_ops.ResizeNearestNeighbor((3, 4), True), mj_ops.ResizeNearestNeighbor((3, 4), True),
         ("size", "align_corners", "half_pixel_centers")),
        (ms_ops.IsClose(0.1, 0.2, True), mj_ops.IsClose(0.1, 0.2, True), ("rtol", "atol", "equal_nan")),
        (ms_ops.CumProd(True, False), mj_ops.CumProd(True, False), ("exclusive", "reverse")),
    ]:
        for n in names:
            ms_value, mj_value = getattr(ms_prim, n), getattr(mj_prim, n)
            assert tuple(np.atleast_1d(ms_value)) == tuple(np.atleast_1d(mj_value)), (type(mj_prim).__name__, n)


def test_resize_bilinear_keeps_mindspore_1x_signature():
    x = mindjax.Tensor(IMG)
    out = mj_ops.operations.ResizeBilinear((5, 7))(x)
    np.testing.assert_allclose(np.asarray(out), np.asarray(mj_ops.ResizeBilinearV2()(x, (5, 7))))


def test_split_v_and_einsum_match_numpy():
    # MindSpore 2.10 registers no SplitV or Einsum kernel on CPU, so numpy is the reference here.
    parts = mj_ops.SplitV((1, -1), 2, 2)(B3)
    for got, want in zip(parts, np.split(B3, [1], axis=2)):
        np.testing.assert_array_equal(np.asarray(got), want)
    np.testing.assert_allclose(np.asarray(mj_ops.Einsum("ij,kj->ik")((X, Y))), X @ Y.T, rtol=1e-5)
