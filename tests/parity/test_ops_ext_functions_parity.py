"""The ``*_ext`` functions, reduce_max/min, sparse_segment_mean, identity, scatter_nd_update and gumbel_softmax
against mindspore 2.10 (einsum_ext and baddbmm_ext have no MindSpore CPU kernel: pinned against numpy)."""
import mindspore
import numpy as np
import pytest
from mindspore import ops as ms_ops

import mindjax
from mindjax import ops as mj_ops

RNG = np.random.default_rng(8)
X = RNG.standard_normal((2, 3)).astype(np.float32)
POS = (np.abs(X) + 0.5).astype(np.float32)
ROWS = RNG.standard_normal((4, 3)).astype(np.float32)

CASES = [
    ("float_power_ext", lambda o, T: o.float_power_ext(T(POS), T(X))),
    ("diff_ext", lambda o, T: o.diff_ext(T(ROWS), 2, 0)),
    ("diff_ext_prepend", lambda o, T: o.diff_ext(T(X), prepend=T(X[:, :1]), append=T(X[:, -1:]))),
    ("reduce_max", lambda o, T: o.reduce_max(T(ROWS), 1)),
    ("reduce_max_all", lambda o, T: o.reduce_max(T(ROWS))),
    ("reduce_min_tuple", lambda o, T: o.reduce_min(T(ROWS), (0, 1))),
    ("sparse_segment_mean", lambda o, T: o.sparse_segment_mean(T(ROWS), T(np.array([0, 3, 1, 1], np.int32)),
                                                               T(np.array([0, 0, 1, 3], np.int32)))),
    ("identity", lambda o, T: o.identity(T(X))),
]


def _numpy(value):
    return value.asnumpy() if hasattr(value, "asnumpy") else np.asarray(value)


@pytest.mark.parametrize("name,case", CASES, ids=[c[0] for c in CASES])
def test_function_matches_mindspore(name, case):
    expected, got = _numpy(case(ms_ops, mindspore.Tensor)), _numpy(case(mj_ops, mindjax.Tensor))
    assert got.shape == expected.shape and got.dtype == expected.dtype, f"{got.dtype} vs {expected.dtype}"
    np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-6)


def test_einsum_ext_and_baddbmm_ext_match_numpy():
    a, b = RNG.standard_normal((2, 3, 4)).astype(np.float32), RNG.standard_normal((2, 4, 5)).astype(np.float32)
    c = RNG.standard_normal((2, 3, 5)).astype(np.float32)
    np.testing.assert_allclose(np.asarray(mj_ops.einsum_ext("bij,bjk->bik", a, b)), a @ b, rtol=1e-5)
    np.testing.assert_allclose(np.asarray(mj_ops.baddbmm_ext(c, a, b, beta=0.5, alpha=2)), 0.5 * c + 2 * (a @ b),
                               rtol=1e-5, atol=1e-5)


def test_scatter_nd_update_writes_the_parameter_like_mindspore():
    results = []
    for o, T, P in ((ms_ops, mindspore.Tensor, mindspore.Parameter), (mj_ops, mindjax.Tensor, mindjax.Parameter)):
        p = P(T(np.zeros((3, 2), np.float32)), name="p")
        out = o.scatter_nd_update(p, T(np.array([[2], [0]], np.int32)), T(X[:, :2].copy()))
        results.append((_numpy(out), p.asnumpy()))
    for e, g in zip(*results):
        np.testing.assert_allclose(g, e)


def _gumbel_frequencies(o, T, logits, hard):
    batch = np.repeat(logits[None], 4000, axis=0)
    sample = _numpy(o.gumbel_softmax(T(batch), 1.0, hard))
    return sample, np.bincount(sample.argmax(-1), minlength=logits.size) / len(batch)


def test_gumbel_softmax_samples_classes_in_the_softmax_proportions_like_mindspore():
    logits = np.log(np.array([0.2, 0.5, 0.3], np.float32))
    mindjax.set_seed(0)
    hard, mj_freq = _gumbel_frequencies(mj_ops, mindjax.Tensor, logits, True)
    soft, _ = _gumbel_frequencies(mj_ops, mindjax.Tensor, logits, False)
    _, ms_freq = _gumbel_frequencies(ms_ops, mindspore.Tensor, logits, True)
    assert set(np.unique(hard)) == {0.0, 1.0} and np.all(hard.sum(-1) == 1)
    np.testing.assert_allclose(soft.sum(-1), 1.0, rtol=1e-5)
    np.testing.assert_allclose(mj_freq, [0.2, 0.5, 0.3], atol=0.03)
    np.testing.assert_allclose(mj_freq, ms_freq, atol=0.04)


def test_gumbel_softmax_is_deterministic_under_a_seed_and_passes_the_soft_gradient_when_hard():
    import jax

    mindjax.set_seed(3)
    first = np.asarray(mj_ops.gumbel_softmax(X, 0.5))
    mindjax.set_seed(3)
    np.testing.assert_array_equal(np.asarray(mj_ops.gumbel_softmax(X, 0.5)), first)
    grad = jax.grad(lambda z: (mj_ops.gumbel_softmax(z, 1.0, True) * np.arange(3.0)).sum())(X)
    assert np.any(np.asarray(grad) != 0)


def test_ext_functions_reject_bad_arguments_naming_the_op():
    with pytest.raises(ValueError, match="For 'gumbel_softmax', 'tau' must be a float > 0, but got 0"):
        mj_ops.gumbel_softmax(X, 0)
    with pytest.raises(TypeError, match="For 'gumbel_softmax', 'logits' must be float16 or float32, but got int32"):
        mj_ops.gumbel_softmax(np.ones((2, 2), np.int32))
    with pytest.raises(ValueError, match=r"For 'sparse_segment_mean', 'segment_ids' must be sorted and non-negative"):
        mj_ops.sparse_segment_mean(ROWS, np.array([0, 1], np.int32), np.array([1, 0], np.int32))
    with pytest.raises(TypeError, match="For 'ScatterNdUpdate', 'input_x' must be a Parameter"):
        mj_ops.scatter_nd_update(X, np.array([[0]], np.int32), X[:1])
