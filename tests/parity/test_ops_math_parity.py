"""mindjax.ops' math ops (functional_math) against the real mindspore 2.10 on the same inputs.

Each case is written once against an ``ops`` module, a ``Tensor`` constructor and a
dtype namespace, then run with mindspore's and with mindjax's; outputs must agree in
shape, dtype kind and value (rtol/atol 1e-5).
"""
import jax
import mindspore
import numpy as np
import pytest
from mindspore import ops as ms_ops

import mindjax
from mindjax import ops as mj_ops

RNG = np.random.default_rng(11)
X = RNG.standard_normal((2, 3)).astype(np.float32)
Y = RNG.standard_normal((2, 3)).astype(np.float32)
B3 = RNG.standard_normal((2, 3, 4)).astype(np.float32)
POS = (np.abs(X) + 0.5).astype(np.float32)
HALVES = np.array([-2.5, -1.5, -0.5, 0.5, 1.5, 2.5, 0.25, -3.75], np.float32)
I = np.array([[-7, 3, 0], [5, -4, 8]], np.int32)
J = np.array([[2, -2, 3], [-3, 3, 5]], np.int32)
MASK = np.array([[1.0, 0.0, 2.0], [0.0, 0.0, 3.0]], np.float32)
M1 = RNG.standard_normal((2, 4)).astype(np.float32)
M2 = RNG.standard_normal((4, 3)).astype(np.float32)
BA = RNG.standard_normal((2, 2, 4)).astype(np.float32)
BB = RNG.standard_normal((2, 4, 3)).astype(np.float32)
V1 = RNG.standard_normal(4).astype(np.float32)
V2 = RNG.standard_normal(3).astype(np.float32)
P1 = RNG.standard_normal((2, 3, 4)).astype(np.float32)
P2 = RNG.standard_normal((2, 5, 4)).astype(np.float32)

# (id, case(ops, Tensor, dtypes) -> output)
CASES = [
    ("cos", lambda o, T, d: o.cos(T(X))),
    ("sin", lambda o, T, d: o.sin(T(X))),
    ("ceil", lambda o, T, d: o.ceil(T(X * 3))),
    ("floor", lambda o, T, d: o.floor(T(X * 3))),
    ("round_half_even", lambda o, T, d: o.round(T(HALVES))),
    ("round_int", lambda o, T, d: o.round(T(I))),
    ("trunc", lambda o, T, d: o.trunc(T(X * 3))),
    ("trunc_int", lambda o, T, d: o.trunc(T(I))),
    ("sign", lambda o, T, d: o.sign(T(MASK - 1))),
    ("sign_int", lambda o, T, d: o.sign(T(I))),
    ("erf", lambda o, T, d: o.erf(T(X))),
    ("reciprocal", lambda o, T, d: o.reciprocal(T(POS))),
    ("reciprocal_int", lambda o, T, d: o.reciprocal(T(J))),
    ("remainder", lambda o, T, d: o.remainder(T(X * 5), T(POS))),
    ("remainder_int", lambda o, T, d: o.remainder(T(I), T(J))),
    ("remainder_scalar", lambda o, T, d: o.remainder(T(X * 5), 1.5)),
    ("fmod", lambda o, T, d: o.fmod(T(X * 5), T(POS))),
    ("fmod_int", lambda o, T, d: o.fmod(T(I), T(J))),
    ("fmod_scalar", lambda o, T, d: o.fmod(T(X * 5), -1.5)),
    ("floor_div", lambda o, T, d: o.floor_div(T(X * 5), T(POS))),
    ("floor_div_int", lambda o, T, d: o.floor_div(T(I), T(J))),
    ("floor_divide_int", lambda o, T, d: o.floor_divide(T(I), T(J))),
    ("ge", lambda o, T, d: o.ge(T(X), T(Y))),
    ("gt_scalar", lambda o, T, d: o.gt(T(X), 0.1)),
    ("le", lambda o, T, d: o.le(T(I), T(J))),
    ("lt", lambda o, T, d: o.lt(T(X), T(Y[0]))),
    ("ne", lambda o, T, d: o.ne(T(MASK), 0.0)),
    ("all", lambda o, T, d: o.all(T(MASK))),
    ("all_axis_keep", lambda o, T, d: o.all(T(MASK), 1, True)),
    ("all_bool_axes", lambda o, T, d: o.all(T(MASK > -1), (0, 1))),
    ("any", lambda o, T, d: o.any(T(MASK))),
    ("any_axis", lambda o, T, d: o.any(T(MASK), axis=0)),
    ("any_keep", lambda o, T, d: o.any(T(MASK), -1, keep_dims=True)),
    ("logsumexp", lambda o, T, d: o.logsumexp(T(B3), 1)),
    ("logsumexp_keep", lambda o, T, d: o.logsumexp(T(B3 * 20), -1, keepdim=True)),
    ("logsumexp_tuple", lambda o, T, d: o.logsumexp(T(B3), (0, 2))),
    ("std", lambda o, T, d: o.std(T(B3))),
    ("std_axis_ddof", lambda o, T, d: o.std(T(B3), axis=1, ddof=1)),
    ("std_bool_keep", lambda o, T, d: o.std(T(B3), (0, 2), True, True)),
    ("var", lambda o, T, d: o.var(T(B3))),
    ("var_axis_keep", lambda o, T, d: o.var(T(B3), -1, keepdims=True)),
    ("var_ddof2", lambda o, T, d: o.var(T(B3), 2, ddof=2)),
    ("var_ddof_equals_n", lambda o, T, d: o.var(T(B3), 2, ddof=4)),
    ("var_ddof_above_n", lambda o, T, d: o.var(T(B3), (1, 2), ddof=13)),
    ("std_ddof3_keep", lambda o, T, d: o.std(T(B3), -1, 3, True)),
    ("reduce_mean", lambda o, T, d: o.reduce_mean(T(B3))),
    ("reduce_mean_axis", lambda o, T, d: o.reduce_mean(T(B3), 1)),
    ("reduce_sum_tuple", lambda o, T, d: o.reduce_sum(T(B3), (0, 2))),
    ("reduce_sum_int", lambda o, T, d: o.reduce_sum(T(I), 0)),
    ("count_nonzero", lambda o, T, d: o.count_nonzero(T(MASK))),
    ("count_nonzero_axis_keep", lambda o, T, d: o.count_nonzero(T(MASK), 1, True)),
    ("count_nonzero_int_dtype", lambda o, T, d: o.count_nonzero(T(I), axis=0, dtype=d.float32)),
    ("addmm", lambda o, T, d: o.addmm(T(X), T(M1), T(M2))),
    ("addmm_scaled", lambda o, T, d: o.addmm(T(X[0]), T(M1), T(M2), beta=0.5, alpha=2)),
    ("baddbmm", lambda o, T, d: o.baddbmm(T(X[None].repeat(2, 0)), T(BA), T(BB))),
    ("baddbmm_scaled", lambda o, T, d: o.baddbmm(T(X), T(BA), T(BB), 2, 0.5)),
    ("outer", lambda o, T, d: o.outer(T(V1), T(V2))),
    ("outer_int", lambda o, T, d: o.outer(T(I[0]), T(J[1]))),
    ("inner", lambda o, T, d: o.inner(T(B3), T(M1))),
    ("inner_vec_int", lambda o, T, d: o.inner(T(I[0]), T(J[0]))),
    ("ger", lambda o, T, d: o.ger(T(V1), T(V2))),
    ("cdist", lambda o, T, d: o.cdist(T(P1), T(P2))),
    ("cdist_2d_p1", lambda o, T, d: o.cdist(T(P1[0]), T(P2[0]), 1.0)),
    ("cdist_p3", lambda o, T, d: o.cdist(T(P1), T(P2), 3.0)),
    ("cdist_inf", lambda o, T, d: o.cdist(T(P1), T(P2), float("inf"))),
    ("cdist_p0", lambda o, T, d: o.cdist(T(np.round(P1)), T(np.round(P2)), 0.0)),
    ("cosine_similarity", lambda o, T, d: o.cosine_similarity(T(X), T(Y))),
    ("cosine_similarity_dim", lambda o, T, d: o.cosine_similarity(T(B3), T(B3[:1] + 1), dim=-1)),
]


def _to_numpy(value):
    if isinstance(value, (tuple, list)):
        return [_to_numpy(v) for v in value]
    return value.asnumpy() if hasattr(value, "asnumpy") else np.asarray(value)


def _assert_same(expected, got, name):
    expected, got = np.asarray(expected), np.asarray(got)
    assert got.shape == expected.shape, f"{name}: {got.shape} != {expected.shape}"
    assert got.dtype.kind == expected.dtype.kind, f"{name}: {got.dtype} vs {expected.dtype}"
    np.testing.assert_allclose(got.astype(np.float64), expected.astype(np.float64), rtol=1e-5, atol=1e-5,
                               err_msg=name)


@pytest.mark.parametrize("name,case", CASES, ids=[c[0] for c in CASES])
def test_math_op_matches_mindspore(name, case):
    expected = _to_numpy(case(ms_ops, mindspore.Tensor, mindspore))
    got = _to_numpy(case(mj_ops, mindjax.Tensor, mindjax))
    _assert_same(expected, got, name)


def _many_ops(x, y, b3, i, j):
    return (mj_ops.cos(x) + mj_ops.erf(y), mj_ops.remainder(i, j), mj_ops.fmod(x, y + 3),
            mj_ops.std(b3, 1, True), mj_ops.var(b3, keepdims=True), mj_ops.logsumexp(b3, -1),
            mj_ops.all(x > -5, 1, True), mj_ops.count_nonzero(i, 0), mj_ops.cdist(b3, b3, 3.0),
            mj_ops.cosine_similarity(x, y), mj_ops.addmm(x, x, y.T @ y, alpha=2), mj_ops.inner(x, y),
            mj_ops.round(x, decimals=1), mj_ops.ge(x, y), mj_ops.baddbmm(b3, b3, b3.transpose(0, 2, 1) @ b3))


def test_math_ops_trace_under_jax_jit():
    args = (X, Y, B3, I, J)
    for e, g in zip(_many_ops(*args), jax.jit(_many_ops)(*args)):
        np.testing.assert_allclose(np.asarray(g, np.float64), np.asarray(e, np.float64), rtol=1e-5, atol=1e-5)


def test_round_with_decimals_matches_numpy():
    got = mj_ops.round(HALVES * 1.2345, decimals=2)
    np.testing.assert_allclose(np.asarray(got), np.round(HALVES * 1.2345, 2), rtol=1e-6)


def test_logsumexp_of_all_minus_inf_row_is_minus_inf():
    x = np.array([[-np.inf, -np.inf], [0.0, 0.0]], np.float32)
    got = np.asarray(mj_ops.logsumexp(x, 1))
    assert got[0] == -np.inf and np.isclose(got[1], np.log(2.0))


@pytest.mark.parametrize("call,error,match", [
    (lambda: mj_ops.cdist(P1, P2, -1.0), ValueError, r"For 'cdist', 'p' must be non-negative"),
    (lambda: mj_ops.cdist(P1, P2[..., :3]), ValueError, r"For 'cdist', 'x1' and 'x2' must be"),
    (lambda: mj_ops.std(X, ddof=0.5), TypeError, r"For 'std', 'ddof' must be an int or a bool"),
    (lambda: mj_ops.var(X, keepdims=1), TypeError, r"For 'var', 'keepdims' must be a bool"),
    (lambda: mj_ops.all(X, 2), ValueError, r"For 'all', 'axis' must be in range"),
    (lambda: mj_ops.any(X, keep_dims="yes"), TypeError, r"For 'any', 'keep_dims' must be a bool"),
    (lambda: mj_ops.addmm(X, M1, M2, alpha="2"), TypeError, r"For 'addmm', 'alpha' must be an int or float"),
    (lambda: mj_ops.addmm(X, M1, M1), ValueError, r"For 'addmm', 'mat1' and 'mat2' must be matrices"),
    (lambda: mj_ops.baddbmm(X, BA, BB.astype(np.float16)), TypeError, r"For 'baddbmm', .*same dtype"),
    (lambda: mj_ops.baddbmm(I[None], I[None], J[None].transpose(0, 2, 1), alpha=0.5), TypeError,
     r"For 'baddbmm', 'alpha' and 'beta' must be ints"),
    (lambda: mj_ops.inner(X, M1), ValueError, r"For 'inner', the last dimension"),
    (lambda: mj_ops.ger(X, V2), ValueError, r"For 'ger', 'input' and 'vec2' must be 1-D"),
    (lambda: mj_ops.fmod(3.0, 2.0), TypeError, r"For 'fmod', at least one of 'input' and 'other'"),
    (lambda: mj_ops.round(X, decimals=1.5), TypeError, r"For 'round', 'decimals' must be an int"),
    (lambda: mj_ops.cosine_similarity(X, Y, dim=3), ValueError, r"For 'cosine_similarity', 'dim' must be in range"),
    (lambda: mj_ops.logsumexp(X, 5), ValueError, r"For 'logsumexp', 'dim' must be in range"),
])
def test_bad_arguments_raise_naming_op_and_argument(call, error, match):
    with pytest.raises(error, match=match):
        call()


def test_binary_ops_take_mindspore_keyword_names():
    np.testing.assert_array_equal(np.asarray(mj_ops.floor_div(x=I, y=J)), np.floor_divide(I, J))
    np.testing.assert_array_equal(np.asarray(mj_ops.ge(input=X, other=Y)), X >= Y)
    with pytest.raises(TypeError, match=r"For 'ne', got an unexpected or repeated argument 'x'"):
        mj_ops.ne(x=X, other=Y)
