"""MindSpore 2.10's math and image Cells (Moments, ReduceLogSumExp, the gamma family, CentralCrop,
ImageGradients, L1Regularizer ...) against the installed MindSpore, and their argument errors.

Where MindSpore 2.10 has no CPU kernel (MatrixDiag, MatDet, MatInverse) or fails beside numpy 2
(SSIM, PSNR), the numbers are pinned against numpy/closed forms instead.
"""
import jax.numpy as jnp
import mindspore
import mindspore.nn as msnn
import numpy as np
import pytest

from mindjax import nn

_RNG = np.random.default_rng(5)
_X = _RNG.standard_normal((2, 3, 4)).astype(np.float32)
_POS = (np.abs(_X) + 0.1).astype(np.float32)
_POS2 = (np.abs(_X[::-1]) + 0.2).astype(np.float32)
_IMG = _RNG.random((2, 3, 9, 8)).astype(np.float32)


def _ms(cell, *inputs):
    args = [mindspore.Tensor(x) for x in inputs]
    for attempt in range(2):  # MindSpore's first numpy-2 conversion may fail once
        try:
            out = cell(*args)
            return tuple(o.asnumpy() for o in out) if isinstance(out, tuple) else out.asnumpy()
        except (SystemError, ImportError):
            if attempt:
                raise
    raise AssertionError("unreachable")


def _as_tuple(v):
    return v if isinstance(v, tuple) else (v,)


CASES = [
    ("Moments", {}, (_X,)),
    ("Moments", {"axis": 1}, (_X,)),
    ("Moments", {"axis": (0, 2), "keep_dims": True}, (_X,)),
    ("ReduceLogSumExp", {"axis": 1}, (_X,)),
    ("ReduceLogSumExp", {"axis": (0, 2), "keep_dims": True}, (_X,)),
    ("LGamma", {}, (_POS,)),
    ("DiGamma", {}, (_POS,)),
    ("IGamma", {}, (_POS, _POS2)),
    ("LBeta", {}, (_POS, _POS2)),
    ("CentralCrop", {"central_fraction": 0.5}, (_IMG,)),
    ("CentralCrop", {"central_fraction": 0.7}, (_IMG[0],)),
    ("ImageGradients", {}, (_IMG,)),
    ("L1Regularizer", {"scale": 0.5}, (_X,)),
]


@pytest.mark.parametrize("name,kwargs,inputs", CASES, ids=[f"{n}-{i}" for i, (n, _, _) in enumerate(CASES)])
def test_math_image_cell_matches_mindspore(name, kwargs, inputs):
    theirs = _as_tuple(_ms(getattr(msnn, name)(**kwargs), *inputs))
    ours = _as_tuple(getattr(nn, name)(**kwargs)(*[jnp.asarray(x) for x in inputs]))
    assert len(ours) == len(theirs)
    for o, t in zip(ours, theirs):
        o = np.asarray(o)
        assert o.shape == t.shape and o.dtype == t.dtype
        np.testing.assert_allclose(o, t, rtol=2e-5, atol=2e-5)


def test_matrix_diag_cells_match_numpy():
    d = nn.MatrixDiag()(jnp.asarray(_X))
    np.testing.assert_allclose(np.asarray(d), np.einsum("...i,ij->...ij", _X, np.eye(4)))
    part = nn.MatrixDiagPart()(jnp.asarray(_X))
    np.testing.assert_allclose(np.asarray(part), np.diagonal(_X, axis1=-2, axis2=-1))
    diag = np.ones((2, 3), np.float32)
    out = np.asarray(nn.MatrixSetDiag()(jnp.asarray(_X), jnp.asarray(diag)))
    want = _X.copy()
    for i in range(3):
        want[:, i, i] = 1.0
    np.testing.assert_allclose(out, want)


def test_matrix_set_diag_bad_shape_raises_like_mindspore():
    with pytest.raises(ValueError, match=r"diagonal shape should be = x shape excluding the last dimension"):
        nn.MatrixSetDiag()(jnp.asarray(_X), jnp.asarray(_X[:, :, :3]))


def test_mat_det_and_inverse_of_positive_definite_matrices():
    a = np.array([[[4, 1], [1, 3]], [[2, .5], [.5, 1]]], np.float32)
    np.testing.assert_allclose(np.asarray(nn.MatDet()(jnp.asarray(a))), np.linalg.det(a), rtol=1e-5)
    np.testing.assert_allclose(np.asarray(nn.MatInverse()(jnp.asarray(a))), np.linalg.inv(a), rtol=1e-5)
    with pytest.raises(TypeError, match="MatDet.*input_a"):
        nn.MatDet()(jnp.asarray(a, jnp.int32))


def _ssim_numpy(x, y, size=11, sigma=1.5, k1=0.01, k2=0.03):
    """SSIM as MindSpore 2.10 computes it: a valid Gaussian convolution per channel, then means."""
    g = np.arange(-size // 2 + 1, size // 2 + 1, dtype=np.float64) ** 2
    w = np.exp(-(g[:, None] + g[None, :]) / (2 * sigma ** 2))
    w /= w.sum()

    def conv(v):
        n, c, h, ww = v.shape
        out = np.zeros((n, c, h - size + 1, ww - size + 1))
        for i in range(out.shape[2]):
            for j in range(out.shape[3]):
                out[:, :, i, j] = (v[:, :, i:i + size, j:j + size] * w).sum((2, 3))
        return out
    c1, c2 = k1 ** 2, k2 ** 2
    m1, m2 = conv(x), conv(y)
    s11, s22, s12 = conv(x * x) - m1 ** 2, conv(y * y) - m2 ** 2, conv(x * y) - m1 * m2
    return (((2 * m1 * m2 + c1) * (2 * s12 + c2)) / ((m1 ** 2 + m2 ** 2 + c1) * (s11 + s22 + c2))).mean((1, 2, 3))


def test_ssim_and_psnr_numbers():
    x = _RNG.random((2, 3, 16, 14)).astype(np.float32)
    y = np.clip(x + 0.1 * _RNG.standard_normal(x.shape), 0, 1).astype(np.float32)
    np.testing.assert_allclose(np.asarray(nn.SSIM()(jnp.asarray(x), jnp.asarray(y))), _ssim_numpy(x, y),
                               rtol=1e-4)
    np.testing.assert_allclose(np.asarray(nn.SSIM()(jnp.asarray(x), jnp.asarray(x))), [1.0, 1.0], rtol=1e-5)
    mse = ((x - y) ** 2).mean((1, 2, 3))
    np.testing.assert_allclose(np.asarray(nn.PSNR()(jnp.asarray(x), jnp.asarray(y))), 10 * np.log10(1 / mse),
                               rtol=1e-5)
    xi = (x * 255).astype(np.uint8)
    yi = (y * 255).astype(np.uint8)
    np.testing.assert_allclose(np.asarray(nn.PSNR(255)(jnp.asarray(xi), jnp.asarray(yi))),
                               10 * np.log10(1 / ((xi / 255. - yi / 255.) ** 2).mean((1, 2, 3))), rtol=1e-4)


@pytest.mark.parametrize("make,exc,pattern", [
    (lambda: nn.ReduceLogSumExp(1.0), TypeError, "ReduceLogSumExp.*axis"),
    (lambda: nn.Moments(keep_dims=1), TypeError, "Moments.*keep_dims"),
    (lambda: nn.CentralCrop(1), TypeError, "CentralCrop.*central_fraction"),
    (lambda: nn.CentralCrop(1.5), ValueError, "CentralCrop.*central_fraction"),
    (lambda: nn.SSIM(max_val=0), ValueError, "SSIM.*max_val"),
    (lambda: nn.SSIM(filter_size=1.0), TypeError, "SSIM.*filter_size"),
    (lambda: nn.PSNR(max_val="1"), TypeError, "PSNR.*max_val"),
    (lambda: nn.L1Regularizer(-1), ValueError, "L1Regularizer.*scale"),
    (lambda: nn.L1Regularizer(float("inf")), ValueError, "INF or NAN"),
])
def test_bad_constructor_argument_raises_mindspore_error(make, exc, pattern):
    with pytest.raises(exc, match=pattern):
        make()


@pytest.mark.parametrize("ms_make,args", [
    (lambda m: m.CentralCrop(1.5), ()), (lambda m: m.L1Regularizer(-1), ()), (lambda m: m.PSNR(max_val=0), ()),
])
def test_bad_constructor_argument_error_type_matches_mindspore(ms_make, args):
    with pytest.raises(Exception) as theirs:
        ms_make(msnn)
    with pytest.raises(type(theirs.value)):
        ms_make(nn)


def test_input_checks():
    with pytest.raises(ValueError, match="CentralCrop image must be 3d or 4d"):
        nn.CentralCrop(0.5)(jnp.zeros((4, 4)))
    with pytest.raises(ValueError, match="ImageGradients.*4d"):
        nn.ImageGradients()(jnp.zeros((4, 4, 4)))
    with pytest.raises(ValueError, match="SSIM.*filter_size"):
        nn.SSIM()(jnp.zeros((1, 1, 5, 5), jnp.float32), jnp.zeros((1, 1, 5, 5), jnp.float32))
    with pytest.raises(TypeError, match="LGamma.*x"):
        nn.LGamma()(jnp.zeros((2,), jnp.int32))


def test_layer_math_cosine_similarity_cell_matches_mindspore():
    from mindspore.nn.layer import math as ms_math

    from mindjax.nn.layer import math as mj_math
    a, b = _X, _X[::-1].copy()
    theirs = _ms(ms_math.CosineSimilarity(), a, b)
    ours = mj_math.CosineSimilarity()(jnp.asarray(a), jnp.asarray(b))
    np.testing.assert_allclose(np.asarray(ours), theirs, rtol=1e-5, atol=1e-6)
    assert nn.CosineSimilarity is not mj_math.CosineSimilarity  # nn's is the metric, as in MindSpore
    with pytest.raises(TypeError, match="x1"):
        mj_math.CosineSimilarity()([1.0], jnp.asarray(a))
