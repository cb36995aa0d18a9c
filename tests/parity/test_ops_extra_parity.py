"""mindjax.ops' extra functional ops and Primitives against the real mindspore 2.10.

Deterministic ops match within 1e-5 (FastGeLU and Erf within 1e-4: MindSpore's CPU
kernels approximate). Random ops are compared on shape, dtype and range, and pinned
for determinism under ``set_seed`` and under ``jax.jit``. ``ops.embedding`` has no
kernel in MindSpore's CPU build, so it is pinned against numpy.
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
X4 = (RNG.standard_normal((2, 4)) * 3).astype(np.float32)
POS = (np.abs(X) + 0.5).astype(np.float32)
IMG = RNG.standard_normal((2, 3, 5, 7)).astype(np.float32)
B3 = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
P1 = np.array([[.2, .3, .5], [.1, .1, .8]], np.float32)
P2 = np.array([[.3, .3, .4], [.5, .25, .25]], np.float32)
BOOL_A = np.array([True, False, True, False])
BOOL_B = np.array([True, True, False, False])
INT_IDX = np.array([[0, 2], [1, 0]], np.int32)

FUNCTIONAL = [
    ("hardswish", lambda o, T: o.hardswish(T(X4))),
    ("hardsigmoid", lambda o, T: o.hardsigmoid(T(X4))),
    ("mish", lambda o, T: o.mish(T(X4))),
    ("selu", lambda o, T: o.selu(T(X4))),
    ("prelu_per_channel", lambda o, T: o.prelu(T(IMG), T(np.array([0.1, 0.2, 0.3], np.float32)))),
    ("prelu_shared", lambda o, T: o.prelu(T(X), T(np.array([0.25], np.float32)))),
    ("glu", lambda o, T: o.glu(T(X4))),
    ("glu_axis0", lambda o, T: o.glu(T(X4), axis=0)),
    ("kl_div_mean", lambda o, T: o.kl_div(T(np.log(P1)), T(P2))),
    ("kl_div_batchmean", lambda o, T: o.kl_div(T(np.log(P1)), T(P2), "batchmean")),
    ("kl_div_sum", lambda o, T: o.kl_div(T(np.log(P1)), T(P2), "sum")),
    ("kl_div_none", lambda o, T: o.kl_div(T(np.log(P1)), T(P2), "none")),
    ("adaptive_avg_pool2d", lambda o, T: o.adaptive_avg_pool2d(T(IMG), (3, 4))),
    ("adaptive_avg_pool2d_none", lambda o, T: o.adaptive_avg_pool2d(T(IMG), (2, None))),
    ("adaptive_avg_pool2d_3d", lambda o, T: o.adaptive_avg_pool2d(T(IMG[0]), 3)),
    ("bias_add", lambda o, T: o.bias_add(T(IMG), T(np.array([1., 2., 3.], np.float32)))),
]

PRIMITIVES = [
    ("TopK", lambda o, T: o.TopK()(T(X4), 2)),
    ("Sort", lambda o, T: o.Sort()(T(X4))),
    ("Sort_axis0_desc", lambda o, T: o.Sort(axis=0, descending=True)(T(X4))),
    ("StridedSlice", lambda o, T: o.StridedSlice()(T(B3), (0, 1, 0), (2, 3, 4), (1, 1, 2))),
    ("StridedSlice_masks", lambda o, T: o.StridedSlice(begin_mask=1, end_mask=4, shrink_axis_mask=2)(
        T(B3), (1, 1, 1), (2, 2, 2), (1, 1, 1))),
    ("StridedSlice_negative", lambda o, T: o.StridedSlice()(T(B3), (1, 2, 3), (0, 0, 0), (-1, -1, -2))),
    ("Slice", lambda o, T: o.Slice()(T(B3), (0, 1, 1), (2, -1, 2))),
    ("CumSum", lambda o, T: o.CumSum()(T(X4), 1)),
    ("CumSum_exclusive_reverse", lambda o, T: o.CumSum(exclusive=True, reverse=True)(T(X4), 1)),
    ("Rsqrt", lambda o, T: o.Rsqrt()(T(POS))),
    ("SquaredDifference", lambda o, T: o.SquaredDifference()(T(X), T(Y))),
    ("Sign", lambda o, T: o.Sign()(T(np.array([-2.0, 0.0, 3.0], np.float32)))),
    ("Floor", lambda o, T: o.Floor()(T(X4))),
    ("LogicalAnd", lambda o, T: o.LogicalAnd()(T(BOOL_A), T(BOOL_B))),
    ("LogicalNot", lambda o, T: o.LogicalNot()(T(BOOL_A))),
    ("GatherD", lambda o, T: o.GatherD()(T(X), 1, T(INT_IDX))),
    ("TensorScatterUpdate", lambda o, T: o.TensorScatterUpdate()(
        T(X), T(np.array([[0, 1], [1, 2]], np.int32)), T(np.array([9., 8.], np.float32)))),
]

LOOSE = [
    ("Erf", lambda o, T: o.Erf()(T(X4))),
    ("FastGeLU", lambda o, T: o.FastGeLU()(T(X4))),
]


def _to_numpy(value):
    if isinstance(value, (tuple, list)):
        return [_to_numpy(v) for v in value]
    return value.asnumpy() if hasattr(value, "asnumpy") else np.asarray(value)


def _assert_same(expected, got, name, tol=1e-5):
    if isinstance(expected, list):
        assert isinstance(got, list) and len(got) == len(expected), name
        for e, g in zip(expected, got):
            _assert_same(e, g, name, tol)
        return
    expected, got = np.asarray(expected), np.asarray(got)
    assert got.shape == expected.shape, f"{name}: {got.shape} != {expected.shape}"
    assert got.dtype.kind == expected.dtype.kind, f"{name}: {got.dtype} vs {expected.dtype}"
    np.testing.assert_allclose(got.astype(np.float64), expected.astype(np.float64), rtol=tol, atol=tol,
                               err_msg=name)


def _run_both(case):
    return _to_numpy(case(ms_ops, mindspore.Tensor)), _to_numpy(case(mj_ops, mindjax.Tensor))


@pytest.mark.parametrize("name,case", FUNCTIONAL, ids=[c[0] for c in FUNCTIONAL])
def test_extra_functional_op_matches_mindspore(name, case):
    _assert_same(*_run_both(case), name)


@pytest.mark.parametrize("name,case", PRIMITIVES, ids=[c[0] for c in PRIMITIVES])
def test_extra_primitive_matches_mindspore(name, case):
    _assert_same(*_run_both(case), name)


@pytest.mark.parametrize("name,case", LOOSE, ids=[c[0] for c in LOOSE])
def test_approximating_primitive_matches_mindspore_within_1e_4(name, case):
    _assert_same(*_run_both(case), name, tol=1e-4)


def test_assign_add_and_scatter_nd_update_write_the_parameter_like_mindspore():
    results = []
    for o, T, P in ((ms_ops, mindspore.Tensor, mindspore.Parameter), (mj_ops, mindjax.Tensor, mindjax.Parameter)):
        a = P(T(X.copy()), name="a")
        out_a = o.AssignAdd()(a, T(Y))
        s = P(T(np.zeros((3, 2), np.float32)), name="s")
        out_s = o.ScatterNdUpdate()(s, T(np.array([[0], [2]], np.int32)), T(np.ones((2, 2), np.float32)))
        results.append([_to_numpy(out_a), a.asnumpy(), _to_numpy(out_s), s.asnumpy()])
    _assert_same(results[0], results[1], "AssignAdd/ScatterNdUpdate")


def test_assign_add_rejects_a_plain_array():
    with pytest.raises(TypeError, match="For 'AssignAdd', 'variable' must be a Parameter or Tensor"):
        mj_ops.AssignAdd()(X, mindjax.Tensor(Y))


def test_embedding_looks_up_rows_and_applies_max_norm():
    w = np.arange(12, dtype=np.float32).reshape(4, 3)
    idx = np.array([[0, 3], [1, 1]], np.int32)
    np.testing.assert_allclose(np.asarray(mj_ops.embedding(idx, w)), w[idx])
    rows = w[idx]
    norms = np.linalg.norm(rows, axis=-1, keepdims=True)
    expected = np.where(norms > 2.0, rows * 2.0 / (norms + 1e-7), rows)
    np.testing.assert_allclose(np.asarray(mj_ops.embedding(idx, w, max_norm=2.0)), expected, rtol=1e-5)


def test_primitives_keep_mindspore_constructor_defaults_and_shard():
    assert mj_ops.TopK().sorted is True
    assert (mj_ops.Sort().axis, mj_ops.Sort().descending) == (-1, False)
    assert mj_ops.ScatterNdUpdate().use_locking is True
    assert (mj_ops.UniformReal().seed, mj_ops.StandardNormal().seed2) == (0, 0)
    prim = mj_ops.SquaredDifference().shard(((2, 1), (2, 1)))
    assert prim.in_strategy == ((2, 1), (2, 1))
    np.testing.assert_allclose(np.asarray(prim(X, Y)), (X - Y) ** 2, rtol=1e-6)


# --- random ----------------------------------------------------------------------------------

RANDOM = [
    ("rand", lambda o, T: o.rand(2, 3), (0.0, 1.0)),
    ("rand_tuple_f16", lambda o, T: o.rand((2, 3), dtype=mindspore.float16 if o is ms_ops else mindjax.float16),
     (0.0, 1.0)),
    ("randn", lambda o, T: o.randn(4, 5), (-10.0, 10.0)),
    ("randint", lambda o, T: o.randint(2, 7, (3, 4)), (2, 6)),
    ("bernoulli", lambda o, T: o.bernoulli(T(X), 0.5), (0.0, 1.0)),
    ("multinomial", lambda o, T: o.multinomial(T(P1), 2), (0, 2)),
    ("multinomial_1d_no_replacement", lambda o, T: o.multinomial(T(P1[0]), 3, False), (0, 2)),
    ("UniformReal", lambda o, T: o.UniformReal(seed=2)((2, 3)), (0.0, 1.0)),
    ("StandardNormal", lambda o, T: o.StandardNormal()((2, 3)), (-10.0, 10.0)),
]


@pytest.mark.parametrize("name,case,bounds", RANDOM, ids=[c[0] for c in RANDOM])
def test_random_op_matches_mindspore_shape_dtype_and_range(name, case, bounds):
    expected, got = _run_both(case)
    assert got.shape == expected.shape, name
    assert got.dtype.kind == expected.dtype.kind, name
    assert got.dtype.itemsize == expected.dtype.itemsize or got.dtype.kind == "i", name
    assert bounds[0] <= got.min() and got.max() <= bounds[1], name


@pytest.mark.parametrize("name,case,bounds", RANDOM, ids=[c[0] for c in RANDOM])
def test_random_op_repeats_under_set_seed(name, case, bounds):
    mindjax.set_seed(5)
    first = _to_numpy(case(mj_ops, mindjax.Tensor))
    second = _to_numpy(case(mj_ops, mindjax.Tensor))
    mindjax.set_seed(5)
    again = _to_numpy(case(mj_ops, mindjax.Tensor))
    np.testing.assert_array_equal(first, again)
    if first.size > 4 and name != "multinomial_1d_no_replacement":
        assert not np.array_equal(first, second), name


def test_multinomial_never_draws_zero_probability_and_without_replacement_is_distinct():
    p = np.array([[0.0, 1.0, 0.0], [0.5, 0.0, 0.5]], np.float32)
    draws = np.asarray(mj_ops.multinomial(p, 50))
    assert (draws[0] == 1).all() and set(draws[1].tolist()) <= {0, 2}
    once = np.asarray(mj_ops.multinomial(np.ones((4, 5), np.float32), 5, replacement=False))
    assert all(sorted(row) == list(range(5)) for row in once.tolist())
    with pytest.raises(ValueError, match="For 'multinomial', 'num_samples'"):
        mj_ops.multinomial(p, 4, replacement=False)


def test_random_ops_work_under_jit_and_repeat_with_the_seed():
    @jax.jit
    def draw(x):
        return (mj_ops.rand(2, 2) + mj_ops.randn(2, 2) + mj_ops.bernoulli(x, 0.3)
                + mj_ops.randint(0, 3, (2, 2)) + mj_ops.multinomial(x, 2)
                + mj_ops.UniformReal()((2, 2)) + mj_ops.StandardNormal()((2, 2)))

    x = np.ones((2, 2), np.float32)
    mindjax.set_seed(3)
    first = np.asarray(draw(x))
    mindjax.set_seed(3)
    np.testing.assert_array_equal(np.asarray(draw(x)), first)
    assert first.shape == (2, 2) and np.isfinite(first).all()


def test_deterministic_extra_ops_work_under_jit():
    @jax.jit
    def run(x, img):
        return (mj_ops.hardswish(x).sum() + mj_ops.glu(x).sum() + mj_ops.adaptive_avg_pool2d(img, 2).sum()
                + mj_ops.StridedSlice(shrink_axis_mask=1)(x, (1, 0), (2, 4), (1, 2)).sum()
                + mj_ops.CumSum(reverse=True)(x, 1).sum() + mj_ops.TopK()(x, 2)[0].sum())

    eager = (mj_ops.hardswish(X4).sum() + mj_ops.glu(X4).sum() + mj_ops.adaptive_avg_pool2d(IMG, 2).sum()
             + X4[1, 0:4:2].sum() + mj_ops.CumSum(reverse=True)(X4, 1).sum() + mj_ops.TopK()(X4, 2)[0].sum())
    np.testing.assert_allclose(float(run(X4, IMG)), float(eager), rtol=1e-5)


def test_bad_arguments_raise_naming_the_op():
    with pytest.raises(ValueError, match="For 'kl_div', 'reduction'"):
        mj_ops.kl_div(P1, P2, "avg")
    with pytest.raises(ValueError, match="For 'glu', 'x' must have an even dimension"):
        mj_ops.glu(X)
    with pytest.raises(ValueError, match="For 'randint', 'low' must be less than 'high'"):
        mj_ops.randint(3, 3, (2,))
    with pytest.raises(ValueError, match="For 'Slice', slice"):
        mj_ops.Slice()(B3, (0, 0, 3), (1, 1, 2))
    with pytest.raises(ValueError, match="For 'TensorScatterUpdate', 'updates' must have shape"):
        mj_ops.TensorScatterUpdate()(X, np.array([[0, 1]], np.int32), np.ones(2, np.float32))
