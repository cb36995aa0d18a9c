"""Linear-algebra Primitives (Svd, Qr, Geqrf, Orgqr, Ormqr, LuSolve, MatrixTriangularSolve, MatrixDiagV3 ...)
and orgqr/ormqr against mindspore 2.10; decompositions are compared through sign-free quantities."""
import mindspore
import numpy as np
import pytest
from mindspore import ops as ms_ops

import mindjax
from mindjax import ops as mj_ops

RNG = np.random.default_rng(21)
A = RNG.standard_normal((4, 3)).astype(np.float32)
SQ = (RNG.standard_normal((3, 3)) + 3 * np.eye(3)).astype(np.float32)
SPD = (SQ @ SQ.T + np.eye(3)).astype(np.float32)
CHOL = np.linalg.cholesky(SPD).astype(np.float32)
B = RNG.standard_normal((3, 2)).astype(np.float32)
B4 = RNG.standard_normal((4, 2)).astype(np.float32)
LOWER = np.tril(SQ).astype(np.float32)
DIAGS = RNG.standard_normal((2, 3)).astype(np.float32)
_lu, _piv = __import__("scipy.linalg").linalg.lu_factor(SQ.astype(np.float64))
LU, PIVOTS = _lu.astype(np.float32), (_piv + 1).astype(np.int32)  # MindSpore's pivots are 1-based


def _geqrf(o, T):
    return o.Geqrf()(T(A))


CASES = [
    ("Svd_singular_values", lambda o, T: o.Svd()(T(A))[0]),
    ("Svd_reconstruction", lambda o, T: (lambda s, u, v: u @ o.diag(s) @ v.T)(*o.Svd()(T(A)))),
    ("Svd_full_shapes", lambda o, T: [x.shape for x in o.Svd(full_matrices=True)(T(A))]),
    ("Qr_abs_r", lambda o, T: o.abs(o.Qr()(T(A))[1])),
    ("Qr_full_reconstruction", lambda o, T: (lambda q, r: q @ r)(*o.Qr(full_matrices=True)(T(A)))),
    ("Geqrf", lambda o, T: list(_geqrf(o, T))),
    ("Orgqr", lambda o, T: o.Orgqr()(*_geqrf(o, T))),
    ("orgqr", lambda o, T: o.orgqr(*_geqrf(o, T))),
    ("LuSolve", lambda o, T: o.LuSolve()(T(B), T(LU), T(PIVOTS))),
    ("LuUnpack", lambda o, T: list(o.LuUnpack()(T(LU), T(PIVOTS)))),
    ("MatrixTriangularSolve", lambda o, T: o.MatrixTriangularSolve()(T(LOWER), T(B))),
    ("MatrixTriangularSolve_upper_adjoint", lambda o, T: o.MatrixTriangularSolve(lower=False, adjoint=True)(
        T(LOWER.T.copy()), T(B))),
    ("CholeskySolve", lambda o, T: o.CholeskySolve()(T(B), T(CHOL))),
    ("CholeskySolve_upper", lambda o, T: o.CholeskySolve(upper=True)(T(B), T(CHOL.T.copy()))),
    ("CholeskyInverse", lambda o, T: o.CholeskyInverse()(T(CHOL))),
    ("MatrixSolveLs", lambda o, T: o.MatrixSolveLs()(T(A), T(B4), T(np.float64(0.1)))),
    ("MatrixSolveLs_wide", lambda o, T: o.MatrixSolveLs()(T(A.T.copy()), T(B), T(np.float64(0.5)))),
    ("MatrixDiagV3", lambda o, T: o.MatrixDiagV3()(T(DIAGS), T(np.array([0, 1], np.int32)), T(np.int32(3)),
                                                   T(np.int32(4)), T(np.float32(-1)))),
    ("MatrixDiagPartV3", lambda o, T: o.MatrixDiagPartV3(align="LEFT_RIGHT")(
        T(A), T(np.array([-1, 1], np.int32)), T(np.float32(9)))),
    ("MatrixSetDiagV3", lambda o, T: o.MatrixSetDiagV3()(T(A), T(np.array([1., 2., 3.], np.float32)),
                                                         T(np.int32(0)))),
    ("TridiagonalMatMul", lambda o, T: o.TridiagonalMatMul()(T(DIAGS[:1]), T(DIAGS[1:]), T(DIAGS[:1] * 2), T(B))),
]


def _numpy(value):
    if isinstance(value, (tuple, list)):
        return [_numpy(v) for v in value]
    return value.asnumpy() if hasattr(value, "asnumpy") else np.asarray(value)


def _assert_same(expected, got, name, tol=1e-4):
    if isinstance(expected, list):
        assert isinstance(got, list) and len(got) == len(expected), name
        for e, g in zip(expected, got):
            _assert_same(e, g, name, tol)
        return
    expected, got = np.asarray(expected), np.asarray(got)
    assert got.shape == expected.shape and got.dtype == expected.dtype, \
        f"{name}: {got.shape} {got.dtype} vs {expected.shape} {expected.dtype}"
    np.testing.assert_allclose(got, expected, rtol=tol, atol=tol, err_msg=name)


@pytest.mark.parametrize("name,case", CASES, ids=[c[0] for c in CASES])
def test_linalg_primitive_matches_mindspore(name, case):
    _assert_same(_numpy(case(ms_ops, mindspore.Tensor)), _numpy(case(mj_ops, mindjax.Tensor)), name)


def _householder_q(y, tau):
    m = y.shape[0]
    q = np.eye(m)
    for i in range(tau.shape[0]):
        v = np.concatenate([np.zeros(i), [1.0], y[i + 1:, i]])
        q = q @ (np.eye(m) - tau[i] * np.outer(v, v))
    return q.astype(np.float32)


def test_ormqr_applies_the_householder_product_of_mindsporess_geqrf():
    # MindSpore 2.10 has no CPU Ormqr kernel: the full Q is rebuilt in numpy from MindSpore's Geqrf output.
    y, tau = (t.asnumpy() for t in ms_ops.Geqrf()(mindspore.Tensor(A)))
    q = _householder_q(y, tau)
    np.testing.assert_allclose(np.asarray(mj_ops.Ormqr()(y, tau, B4)), q @ B4, rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(np.asarray(mj_ops.ormqr(y, tau, B4.T.copy(), left=False, transpose=True)),
                               B4.T @ q.T, rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(np.asarray(mj_ops.Ormqr(transpose=True)(y, tau, q)), np.eye(4), atol=1e-5)


def test_eig_and_matrix_logarithm_match_mindspore():
    w_ms = ms_ops.Eig()(mindspore.Tensor(SQ))[0].asnumpy()
    w, v = mj_ops.Eig(compute_v=True)(SQ)
    assert mj_ops.Eig()(SQ)[1] is None
    order = lambda z: z[np.lexsort((z.imag, np.round(z.real, 3)))]  # noqa: E731 - robust to rounding
    np.testing.assert_allclose(order(np.asarray(w)), order(w_ms), rtol=1e-4)
    np.testing.assert_allclose(SQ.astype(np.complex64) @ np.asarray(v), np.asarray(v) * np.asarray(w), atol=1e-4)
    c = (SPD / 10).astype(np.complex64)
    expected = ms_ops.MatrixLogarithm()(mindspore.Tensor(c)).asnumpy()
    np.testing.assert_allclose(np.asarray(mj_ops.MatrixLogarithm()(c)), expected, rtol=1e-4, atol=1e-4)


def test_linalg_primitives_work_under_graph_mode_like_mindspore():
    def sample(o, T, jit):
        @jit
        def run(a, lower, b, chol):
            y, tau = o.Geqrf()(a)
            return o.Orgqr()(y, tau), o.MatrixTriangularSolve()(lower, b), o.CholeskySolve()(b, chol), o.Svd()(a)[0]
        return _numpy(run(T(A), T(LOWER), T(B), T(CHOL)))

    mindspore.set_context(mode=mindspore.GRAPH_MODE)
    try:
        expected = sample(ms_ops, mindspore.Tensor, mindspore.jit)
    finally:
        mindspore.set_context(mode=mindspore.PYNATIVE_MODE)
    _assert_same(expected, sample(mj_ops, mindjax.Tensor, mindjax.jit), "graph")


def test_linalg_primitives_reject_bad_arguments_naming_the_op():
    with pytest.raises(ValueError, match=r"For 'MatrixTriangularSolve', 'matrix' must be \(\*, M, M\)"):
        mj_ops.MatrixTriangularSolve()(A, B)
    with pytest.raises(ValueError, match="For 'MatrixSolveLs', 'l2_regularizer' must be 0 when 'fast' is False"):
        mj_ops.MatrixSolveLs(fast=False)(A, B4, 0.5)
    with pytest.raises(ValueError, match="For 'orgqr', 'input' must have m >= n"):
        mj_ops.orgqr(A.T.copy(), np.ones(3, np.float32))
    with pytest.raises(TypeError, match="For 'MatrixLogarithm', 'x' must be complex64 or complex128, but got float32"):
        mj_ops.MatrixLogarithm()(SQ)
    with pytest.raises(ValueError, match="For 'MatrixDiagV3', 'align' must be one of RIGHT_LEFT"):
        mj_ops.MatrixDiagV3(align="UP")
    with pytest.raises(ValueError, match=r"For 'TridiagonalMatMul', 'maindiag' must have shape \(\*, 1, 3\)"):
        mj_ops.TridiagonalMatMul()(DIAGS[:1], DIAGS, DIAGS[:1], B)
    with pytest.raises(TypeError, match="For 'Svd', 'full_matrices' must be a bool"):
        mj_ops.Svd(full_matrices=1)
