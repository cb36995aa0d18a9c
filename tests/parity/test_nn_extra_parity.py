"""The extra nn Cells (padding, resizing, masks, FocalLoss, DiceLoss) against MindSpore 2.10.

MindSpore runs in PYNATIVE; MindJAX runs in both modes through the ``mode`` fixture.
Outputs agree within 1e-5.
"""
import jax.numpy as jnp
import mindspore
import mindspore.nn as msnn
import numpy as np
import pytest

import mindjax as ms
from mindjax import nn

_RNG = np.random.default_rng(3)
_X4 = _RNG.standard_normal((2, 3, 4, 5)).astype(np.float32)
_X2 = _RNG.standard_normal((4, 5)).astype(np.float32)


def _ms(cell, *inputs):
    """``cell(*inputs)`` in MindSpore PYNATIVE; numpy arrays become Tensors, the rest stay."""
    args = [mindspore.Tensor(x) if isinstance(x, np.ndarray) else x for x in inputs]
    for attempt in range(2):  # MindSpore's first numpy-2 scalar conversion may fail once
        try:
            return cell(*args).asnumpy()
        except (SystemError, ImportError):
            if attempt:
                raise
    raise AssertionError("unreachable")


def _close(ours, theirs, tol=1e-5):
    ours = np.asarray(ours)
    assert ours.shape == theirs.shape
    np.testing.assert_allclose(ours, theirs, rtol=tol, atol=tol)


def _ours(cell, *inputs):
    return cell(*[jnp.asarray(x) if isinstance(x, np.ndarray) else x for x in inputs])


CASES = [
    ("Pad", {"paddings": ((0, 0), (1, 2), (2, 1), (0, 3))}, (_X4,)),
    ("Pad", {"paddings": ((1, 1), (2, 3)), "mode": "REFLECT"}, (_X2,)),
    ("Pad", {"paddings": ((1, 2), (3, 1)), "mode": "SYMMETRIC"}, (_X2,)),
    ("ZeroPad2d", {"padding": 2}, (_X4,)),
    ("ZeroPad2d", {"padding": (1, 0, 2, 3)}, (_X4,)),
    ("Upsample", {"scale_factor": 2.0}, (_X4[:, :, None],)),
    ("Upsample", {"scale_factor": (1.5, 2.0, 0.5)}, (_X4[:, :, None],)),
    ("Upsample", {"size": (7, 3)}, (_X4,)),
    ("Upsample", {"size": (7, 9), "mode": "bilinear"}, (_X4,)),
    ("Upsample", {"size": (7, 9), "mode": "bilinear", "align_corners": True}, (_X4,)),
    ("Upsample", {"size": (3, 2), "mode": "bilinear", "align_corners": False}, (_X4,)),
    ("OneHot", {"depth": 4}, (np.array([[0, 3], [2, 5]], np.int32),)),
    ("OneHot", {"axis": 0, "depth": 3, "on_value": 5.0, "off_value": -1.0},
     (np.array([1, 0, 2, -1], np.int32),)),
    ("Tril", {}, (_X2,)),
    ("Tril", {}, (_X2, 1)),
    ("Triu", {}, (_X2,)),
    ("Triu", {}, (_X2, -2)),
    ("Range", {"start": 5}, ()),
    ("Range", {"start": 1, "limit": 2.0, "delta": 0.25}, ()),
    ("Range", {"start": 10, "limit": 1, "delta": -3}, ()),
    ("Norm", {}, (_X4,)),
    ("Norm", {"axis": 1}, (_X4,)),
    ("Norm", {"axis": (0, 2), "keep_dims": True}, (_X4,)),
    ("ClipByNorm", {}, (_X2, np.array(1.0, np.float32))),
    ("ClipByNorm", {}, (_X2, np.array(100.0, np.float32))),
    ("DiceLoss", {}, (_X4, np.abs(_X4[::-1]).copy())),
    ("DiceLoss", {"smooth": 0.5}, (_X2, _X2 * 0.5)),
]


@pytest.mark.parametrize("name,kwargs,inputs", CASES,
                         ids=[f"{n}-{i}" for i, (n, _, _) in enumerate(CASES)])
def test_cell_matches_mindspore(mode, name, kwargs, inputs):
    theirs = _ms(getattr(msnn, name)(**kwargs), *inputs)
    ours = _ours(getattr(nn, name)(**kwargs), *inputs)
    _close(ours, theirs)
    assert np.asarray(ours).dtype == theirs.dtype


def test_zero_pad2d_negative_padding_crops(mode):
    # MindSpore 2.10 gives this on its first call and zeros on later calls in the same
    # process (a kernel-cache bug), so the reference is numpy.
    expected = np.pad(_X4[:, :, :-2, 1:], ((0, 0), (0, 0), (1, 0), (0, 2)))
    _close(_ours(nn.ZeroPad2d((-1, 2, 1, -2)), _X4), expected)


def test_clip_by_norm_along_an_axis_clips_each_slice(mode):
    # MindSpore 2.10's CPU ClipByNorm kernel misreads the slices when 'axis' is set
    # (rows [1]*3 and [10]*3 clipped at 2 give 1.98, not 2/sqrt(3), for the second row),
    # so the reference is the documented formula.
    x = np.array([[1.0] * 3, [10.0] * 3, [0.0] * 3], np.float32)
    expected = x.copy()
    expected[1] = 2.0 / np.sqrt(3.0)
    _close(_ours(nn.ClipByNorm(axis=1), x, np.array(2.0, np.float32)), expected)
    _close(_ours(nn.ClipByNorm(axis=1), _X2, np.array(1.5, np.float32)),
           _X2 * np.minimum(1.0, 1.5 / np.linalg.norm(_X2, axis=1, keepdims=True)))


def _unfold_reference(x, k, s, r, same):
    """ExtractImagePatches in numpy: features ordered (row, col, channel) as TensorFlow's."""
    n, c, h, w = x.shape
    ek = [(k[i] - 1) * r[i] + 1 for i in range(2)]
    if same:
        out = [-(-d // st) for d, st in zip((h, w), s)]
        pads = [max((o - 1) * st + e - d, 0) for o, st, e, d in zip(out, s, ek, (h, w))]
        x = np.pad(x, ((0, 0), (0, 0), (pads[0] // 2, pads[0] - pads[0] // 2),
                       (pads[1] // 2, pads[1] - pads[1] // 2)))
    else:
        out = [(d - e) // st + 1 for d, e, st in zip((h, w), ek, s)]
    res = np.zeros((n, k[0], k[1], c, out[0], out[1]), x.dtype)
    for i in range(k[0]):
        for j in range(k[1]):
            res[:, i, j] = x[:, :, i * r[0]: i * r[0] + (out[0] - 1) * s[0] + 1: s[0],
                             j * r[1]: j * r[1] + (out[1] - 1) * s[1] + 1: s[1]]
    return res.reshape(n, -1, out[0], out[1])


@pytest.mark.parametrize("k,s,r,padding", [((2, 2), (1, 1), (1, 1), "valid"),
                                           ((2, 3), (2, 1), (1, 2), "same"),
                                           ((3, 2), (2, 2), (1, 2), "valid")])
def test_unfold_matches_extract_image_patches(mode, k, s, r, padding):
    # MindSpore 2.10 has no CPU kernel for ExtractImagePatches: the reference is numpy.
    cell = nn.Unfold([1, *k, 1], [1, *s, 1], [1, *r, 1], padding)
    _close(_ours(cell, _X4), _unfold_reference(_X4, k, s, r, padding == "same"))


def test_upsample_scale_factor_equals_the_scaled_size(mode):
    # MindSpore 2.10 refuses scale_factor for 4-D inputs; ours accepts it (integer
    # factors then equal the size form, which MindSpore does run).
    for kwargs in ({"mode": "bilinear"}, {"mode": "bilinear", "align_corners": True}, {}):
        theirs = _ms(msnn.Upsample(size=(8, 10), **kwargs), _X4)
        _close(_ours(nn.Upsample(scale_factor=2.0, **kwargs), _X4), theirs)


_LOGITS = _RNG.standard_normal((3, 4, 2)).astype(np.float32)
_INDEX = np.array([[[0, 3]], [[1, 1]], [[2, 0]]], np.int32)
_ONEHOT = np.eye(4, dtype=np.float32)[_INDEX[:, 0]].transpose(0, 2, 1).copy()


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
@pytest.mark.parametrize("labels", ["index", "onehot", "2d"])
@pytest.mark.parametrize("weighted", [False, True])
def test_focal_loss_matches_mindspore(mode, reduction, labels, weighted):
    logits, target = {"index": (_LOGITS, _INDEX), "onehot": (_LOGITS, _ONEHOT),
                      "2d": (_LOGITS[:, :, 0].copy(), _INDEX[:, :, 0].copy())}[labels]
    w = np.array([0.5, 1.0, 2.0, 0.25], np.float32)
    theirs = msnn.FocalLoss(weight=mindspore.Tensor(w) if weighted else None, gamma=1.5,
                            reduction=reduction)
    ours = nn.FocalLoss(weight=jnp.asarray(w) if weighted else None, gamma=1.5, reduction=reduction)
    _close(_ours(ours, logits, target), _ms(theirs, logits, target))


def test_dropout2d_is_identity_in_eval(mode):
    cell = nn.Dropout2d(p=0.7)
    np.testing.assert_array_equal(np.asarray(cell(jnp.asarray(_X4))), _X4)
    _close(_ours(nn.Dropout2d(), _X4), _ms(msnn.Dropout2d(), _X4))


def test_dropout2d_drops_whole_channels_at_rate_p(mode):
    ms.set_seed(1)
    cell = nn.Dropout2d(p=0.25)
    cell.set_train(True)
    x = jnp.ones((64, 32, 2, 3), jnp.float32)
    out = np.asarray(cell(x))
    per_channel = out.reshape(64, 32, -1)
    # Each channel is all zeros or all 1 / (1 - p).
    assert np.all(per_channel.min(-1) == per_channel.max(-1))
    assert set(np.unique(out)) <= {0.0, np.float32(1 / 0.75)}
    assert abs((per_channel[..., 0] == 0).mean() - 0.25) < 0.04
    assert not np.array_equal(out, np.asarray(cell(x)))  # a fresh mask per call
    assert np.all(np.asarray(nn.Dropout2d(p=1.0).set_train(True)(x)) == 0)


def test_dropout2d_same_seed_same_mask_in_both_modes():
    x = jnp.ones((4, 8, 1, 1), jnp.float32)
    outs = []
    for m in (ms.PYNATIVE_MODE, ms.GRAPH_MODE):
        ms.set_context(mode=m)
        ms.set_seed(5)
        outs.append(np.asarray(nn.Dropout2d(p=0.5).set_train(True)(x)))
    np.testing.assert_array_equal(outs[0], outs[1])


@pytest.mark.parametrize("build,error,match", [
    (lambda: nn.Dropout2d(p=1.5), ValueError, r"For 'Dropout2d', 'p' must be a number in range \[0, 1\]"),
    (lambda: nn.Dropout2d(p=1), TypeError, r"'p' must be a float"),
    (lambda: nn.Pad(((1, 1),), mode="EDGE"), ValueError, r"For 'Pad', 'mode' must be one of"),
    (lambda: nn.Pad([(1, 1)]), TypeError, r"'paddings' must be a tuple"),
    (lambda: nn.Pad(((1, 1, 1),)), ValueError, r"'paddings' must have shape \(n, 2\)"),
    (lambda: nn.Pad(((0, 0),) * 5), ValueError, r"at most 4 dims"),
    (lambda: nn.ZeroPad2d((1, 2, 3)), ValueError, r"'padding' must be a multiple of 2"),
    (lambda: nn.ZeroPad2d((1,) * 6), ValueError, r"no more than 4"),
    (lambda: nn.Upsample(), ValueError, r"exactly one of 'size' and 'scale_factor'"),
    (lambda: nn.Upsample(size=3, mode="bicubic"), ValueError, r"'mode' must be one of"),
    (lambda: nn.Upsample(size=3, align_corners=True), ValueError, r"'align_corners' is only valid"),
    (lambda: nn.OneHot(depth=-1), ValueError, r"'depth' must be a non-negative int"),
    (lambda: nn.Range(1, 5, 0), ValueError, r"For 'Range', 'delta' can not be zero"),
    (lambda: nn.Norm(keep_dims=1), TypeError, r"'keep_dims' must be a bool"),
    (lambda: nn.ClipByNorm(axis="x"), TypeError, r"'axis' must be None, an int or a tuple"),
    (lambda: nn.Unfold([2, 2], [1, 1, 1, 1], [1, 1, 1, 1]), ValueError, r"'ksizes' must be"),
    (lambda: nn.Unfold([1, 2, 2, 1], [1, 1, 1, 1], [1, 1, 1, 1], "full"), ValueError, r"'padding'"),
    (lambda: nn.FocalLoss(gamma=2), TypeError, r"'gamma' must be a float"),
    (lambda: nn.FocalLoss(weight=jnp.ones((2, 2))), ValueError, r"dimension of 'weight' must be 1"),
    (lambda: nn.FocalLoss(reduction="avg"), ValueError, r"'reduction' must be in"),
    (lambda: nn.DiceLoss(smooth=0.0), ValueError, r"'smooth' must be a positive float"),
])
def test_constructor_rejects_bad_arguments(build, error, match):
    with pytest.raises(error, match=match):
        build()


def test_bad_inputs_name_the_cell_and_its_path():
    net = nn.SequentialCell([nn.Dropout2d()])
    with pytest.raises(ValueError, match=r"For 'Dropout2d' at '0', expected a 4-D input"):
        net(jnp.ones((2, 3)))
    with pytest.raises(ValueError, match=r"For 'Pad', 'paddings' has 1 pairs"):
        nn.Pad(((1, 1),))(jnp.ones((2, 3)))
    with pytest.raises(ValueError, match=r"For 'Upsample', mode 'bilinear' expects an input of rank"):
        nn.Upsample(size=3, mode="bilinear")(jnp.ones((1, 2, 3)))
    with pytest.raises(ValueError, match=r"For 'DiceLoss', 'logits' and 'labels' must have the same"):
        nn.DiceLoss()(jnp.ones((2, 3)), jnp.ones((3, 2)))
    with pytest.raises(ValueError, match=r"For 'FocalLoss', dim 1 of 'labels' must be 1 or 4"):
        nn.FocalLoss()(jnp.ones((2, 4)), jnp.ones((2, 3)))
