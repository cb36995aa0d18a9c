"""mindjax.ops array ops (tril ... scalar_to_tensor) against the real mindspore 2.10.

Values must match exactly. Index dtypes follow MindJAX's convention: where
MindSpore returns int64, MindJAX returns JAX's default integer (int32 without
x64), so dtypes are compared by kind. ``roll``, ``nonzero(as_tuple=True)``,
``searchsorted(right=True)``, ``out_int32`` and ``sorter`` have no working
CPU kernel in this MindSpore build (a second SearchSorted call with another
output dtype fails), so they are pinned against numpy.
"""
import jax
import mindspore
import numpy as np
import pytest
from mindspore import ops as ms_ops

import mindjax
from mindjax import ops as mj_ops

X = np.arange(12, dtype=np.float32).reshape(3, 4)
I = np.array([3, 1, 2, 1, 3, 0], np.int32)
SEQ = np.array([1., 2., 2., 3.], np.float32)
VALS = np.array([2., 0., 5.], np.float32)

CASES = [
    ("tril", lambda o, T, d: o.tril(T(X), -1)),
    ("triu", lambda o, T, d: o.triu(T(X), 1)),
    ("tril_batched", lambda o, T, d: o.tril(T(np.ones((2, 2, 3), np.float32)))),
    ("flip", lambda o, T, d: o.flip(T(X), (0, 1))),
    ("argsort", lambda o, T, d: o.argsort(T(I))),
    ("argsort_descending_stable", lambda o, T, d: o.argsort(T(np.array([1, 1, 0, 1], np.float32)), descending=True)),
    ("argsort_axis0", lambda o, T, d: o.argsort(T(X), 0, True)),
    ("unique", lambda o, T, d: o.unique(T(I))),
    ("unique_2d_float", lambda o, T, d: o.unique(T(np.array([[2., 1.], [2., 0.]], np.float32)))),
    ("nonzero", lambda o, T, d: o.nonzero(T(X - 5))),
    ("nonzero_bool", lambda o, T, d: o.nonzero(T(np.array([True, False, True])))),
    ("masked_select", lambda o, T, d: o.masked_select(T(X), T(X > 5))),
    ("masked_select_broadcast", lambda o, T, d: o.masked_select(T(X), T(np.array([True, False, True, False])))),
    ("narrow", lambda o, T, d: o.narrow(T(X), -1, 1, 2)),
    ("slice", lambda o, T, d: o.slice(T(X), (1, 0), (2, -1))),
    ("slice_list", lambda o, T, d: o.slice(T(X), [1, 1], [2, 3])),
    ("gather_d", lambda o, T, d: o.gather_d(T(X), 1, T(np.array([[0, 0], [1, 2], [3, 3]], np.int32)))),
    ("scatter", lambda o, T, d: o.scatter(T(X), 1, T(np.array([[0, 1], [1, 2], [3, 0]], np.int64)),
                                          T(-np.ones((3, 2), np.float32)))),
    ("tensor_scatter_update", lambda o, T, d: o.tensor_scatter_update(
        T(X), T(np.array([[0, 1], [2, 2]], np.int32)), T(np.array([-1., -2.], np.float32)))),
    ("tensor_scatter_update_rows", lambda o, T, d: o.tensor_scatter_update(
        T(X), T(np.array([[2]], np.int32)), T(-np.ones((1, 4), np.float32)))),
    ("repeat_interleave_flat", lambda o, T, d: o.repeat_interleave(T(X), 2)),
    ("repeat_interleave_axis", lambda o, T, d: o.repeat_interleave(T(X), 2, 0)),
    ("repeat_interleave_list", lambda o, T, d: o.repeat_interleave(T(X), [1, 0, 2], 0)),
    ("repeat_interleave_tensor", lambda o, T, d: o.repeat_interleave(T(X), T(np.array([1, 0, 2, 1], np.int32)), 1)),
    ("meshgrid_xy", lambda o, T, d: o.meshgrid(T(np.array([1., 2.], np.float32)), T(np.array([3., 4., 5.], np.float32)))),
    ("meshgrid_ij", lambda o, T, d: o.meshgrid(T(np.array([1., 2.], np.float32)), T(np.array([3., 4., 5.], np.float32)),
                                               indexing="ij")),
    ("diag_1d", lambda o, T, d: o.diag(T(np.array([1, 2], np.int32)))),
    ("diag_2d", lambda o, T, d: o.diag(T(X[:2, :3]))),
    ("trace", lambda o, T, d: o.trace(T(X))),
    ("trace_int8", lambda o, T, d: o.trace(T(np.ones((2, 2), np.int8)))),
    ("full_like", lambda o, T, d: o.full_like(T(X), 2)),
    ("full_like_int_truncates", lambda o, T, d: o.full_like(T(I), 2.7)),
    ("full_like_dtype", lambda o, T, d: o.full_like(T(I), 2.5, dtype=d.float32)),
    ("bincount", lambda o, T, d: o.bincount(T(I))),
    ("bincount_weights_minlength", lambda o, T, d: o.bincount(T(I), T(np.arange(6, dtype=np.float32)), 8)),
    ("bincount_ignores_negative", lambda o, T, d: o.bincount(T(np.array([-1, 1], np.int32)))),
    ("searchsorted", lambda o, T, d: o.searchsorted(T(SEQ), T(VALS))),
    ("searchsorted_2d", lambda o, T, d: o.searchsorted(T(np.array([[1., 2., 3.], [0., 5., 6.]], np.float32)),
                                                       T(np.array([[2.], [5.5]], np.float32)))),
    ("histc", lambda o, T, d: o.histc(T(X), 4)),
    ("histc_range", lambda o, T, d: o.histc(T(np.array([1., 2., 9., -5., 4.], np.float32)), 2, 0., 4.)),
    ("histc_edges", lambda o, T, d: o.histc(T(np.array([0., 1., 2., 3., 4.], np.float32)), 4, 0., 4.)),
    ("histc_constant", lambda o, T, d: o.histc(T(np.array([2., 2.], np.float32)), 4)),
    ("histc_int", lambda o, T, d: o.histc(T(I), 4)),
    ("tuple_to_array_int", lambda o, T, d: o.tuple_to_array((1, 2, 3))),
    ("tuple_to_array_float", lambda o, T, d: o.tuple_to_array((1., 2.5))),
    ("tuple_to_array_first_type_wins", lambda o, T, d: o.tuple_to_array((1, 2.5))),
    ("scalar_to_tensor", lambda o, T, d: o.scalar_to_tensor(3)),
    ("scalar_to_tensor_int32", lambda o, T, d: o.scalar_to_tensor(3, d.int32)),
]

# Dtypes MindSpore types as int32 (not int64) must stay exactly int32 here.
EXACT_INT32 = {"argsort", "argsort_descending_stable", "argsort_axis0", "unique", "unique_2d_float",
               "histc_int", "tuple_to_array_int", "tuple_to_array_first_type_wins",
               "diag_1d", "full_like_int_truncates", "scalar_to_tensor_int32"}


def _to_numpy(value):
    if isinstance(value, (tuple, list)):
        return [_to_numpy(v) for v in value]
    return value.asnumpy() if hasattr(value, "asnumpy") else np.asarray(value)


def _assert_same(expected, got, name):
    if isinstance(expected, list):
        assert isinstance(got, list) and len(got) == len(expected), name
        for e, g in zip(expected, got):
            _assert_same(e, g, name)
        return
    assert got.shape == expected.shape, f"{name}: {got.shape} != {expected.shape}"
    if name in EXACT_INT32 and expected.dtype == np.int32:
        assert got.dtype == np.int32, f"{name}: {got.dtype}"
    elif expected.dtype == np.int64:
        assert got.dtype == np.dtype(jax.dtypes.canonicalize_dtype(np.int64)), f"{name}: {got.dtype}"
    else:
        assert got.dtype == expected.dtype, f"{name}: {got.dtype} vs {expected.dtype}"
    np.testing.assert_array_equal(got, expected, err_msg=name)


@pytest.mark.parametrize("name,case", CASES, ids=[c[0] for c in CASES])
def test_array_op_matches_mindspore(name, case):
    expected = _to_numpy(case(ms_ops, mindspore.Tensor, mindspore))
    got = _to_numpy(case(mj_ops, mindjax.Tensor, mindjax))
    _assert_same(expected, got, name)


def test_dtype_returns_the_tensor_dtype():
    assert mj_ops.dtype(mindjax.Tensor(X)) == mindjax.float32
    assert ms_ops.dtype(mindspore.Tensor(X)) == mindspore.float32
    with pytest.raises(TypeError, match="For 'dtype', 'x' must be a Tensor"):
        mj_ops.dtype(3)


def test_ops_without_a_cpu_kernel_match_numpy():
    np.testing.assert_array_equal(mj_ops.roll(X, 1), np.roll(X, 1))
    np.testing.assert_array_equal(mj_ops.roll(X, (1, -1), (0, 1)), np.roll(X, (1, -1), (0, 1)))
    rows, cols = mj_ops.nonzero(X - 5, as_tuple=True)
    np.testing.assert_array_equal(np.stack([rows, cols]), np.stack(np.nonzero(X - 5)))
    np.testing.assert_array_equal(mj_ops.searchsorted(SEQ, VALS, right=True), np.searchsorted(SEQ, VALS, "right"))
    np.testing.assert_array_equal(mj_ops.searchsorted(SEQ, VALS, side="right"), [3, 0, 4])
    as_int32 = mj_ops.searchsorted(SEQ, VALS, out_int32=True)
    assert as_int32.dtype == np.int32 and as_int32.tolist() == [1, 0, 4]
    unsorted = np.array([3., 1., 2.], np.float32)
    np.testing.assert_array_equal(mj_ops.searchsorted(unsorted, np.array([2.5], np.float32),
                                                      sorter=np.array([1, 2, 0], np.int32)), [2])


def test_traceable_ops_work_under_jit():
    idx = np.array([[0, 1], [1, 2], [3, 0]], np.int32)

    @jax.jit
    def f(x):
        return (mj_ops.tril(x), mj_ops.flip(x, (1,)), mj_ops.roll(x, 1, 0), mj_ops.argsort(x, 0),
                mj_ops.narrow(x, 1, 1, 2), mj_ops.slice(x, (0, 1), (2, -1)), mj_ops.gather_d(x, 1, idx),
                mj_ops.scatter(x, 1, idx, -x[:, :2]), mj_ops.repeat_interleave(x, 2, 1), mj_ops.diag(x[0]),
                mj_ops.trace(x), mj_ops.full_like(x, 3), mj_ops.searchsorted(x[0], x[1]), mj_ops.histc(x, 3),
                mj_ops.meshgrid(x[0], x[1]))

    eager = jax.tree_util.tree_leaves(f.__wrapped__(X))
    traced = jax.tree_util.tree_leaves(f(X))
    for e, t in zip(eager, traced):
        np.testing.assert_array_equal(t, e)


@pytest.mark.parametrize("op,call", [
    ("unique", lambda x: mj_ops.unique(x)),
    ("nonzero", lambda x: mj_ops.nonzero(x)),
    ("masked_select", lambda x: mj_ops.masked_select(x, x > 2)),
    ("bincount", lambda x: mj_ops.bincount(x.astype(np.int32))),
    ("repeat_interleave", lambda x: mj_ops.repeat_interleave(x, x.astype(np.int32))),
])
def test_value_dependent_ops_refuse_to_trace(op, call):
    with pytest.raises(ValueError, match=f"For '{op}', the output shape depends on the input's values"):
        jax.jit(call)(np.arange(4, dtype=np.float32))


@pytest.mark.parametrize("call,exc,match", [
    (lambda: mj_ops.tril(np.ones(3)), ValueError, "For 'tril', 'input' must have rank >= 2"),
    (lambda: mj_ops.flip(X, 1), TypeError, "For 'flip', 'dims' must be a tuple or list"),
    (lambda: mj_ops.roll(X, (1, 2), 0), ValueError, "For 'roll', 'shifts' and 'dims' must have the same length"),
    (lambda: mj_ops.narrow(X, 1, 3, 2), ValueError, "For 'narrow', 'length' must be in"),
    (lambda: mj_ops.slice(X, (1, 0), (3, 1)), ValueError, "For 'slice', begin"),
    (lambda: mj_ops.gather_d(X, 2, np.zeros((1, 1), np.int32)), ValueError, "For 'gather_d', 'dim' must be in"),
    (lambda: mj_ops.scatter(X, 1, np.zeros((1, 1), np.float32), X[:1, :1]), TypeError,
     "For 'scatter', 'index' must be an integer"),
    (lambda: mj_ops.tensor_scatter_update(X, np.array([[0, 1]], np.int32), np.ones(2, np.float32)), ValueError,
     "For 'tensor_scatter_update', 'updates' must have shape"),
    (lambda: mj_ops.repeat_interleave(np.ones(3), [1, 2]), ValueError, "For 'repeat_interleave', the length"),
    (lambda: mj_ops.meshgrid(np.ones(2), indexing="xx"), ValueError, "For 'meshgrid', 'indexing'"),
    (lambda: mj_ops.trace(np.ones((2, 2, 2))), ValueError, "For 'trace', 'input' must be 2-D"),
    (lambda: mj_ops.trace(np.ones((2, 2), bool)), TypeError, "For 'trace', 'input' must be a numeric"),
    (lambda: mj_ops.bincount(np.ones((1, 2), np.int32)), ValueError, "For 'bincount', 'input' must be one-dim"),
    (lambda: mj_ops.masked_select(X, X), TypeError, "For 'masked_select', 'mask' must be a bool"),
    (lambda: mj_ops.histc(X, 2, 4., 1.), ValueError, "For 'histc', 'min' must be <= 'max'"),
    (lambda: mj_ops.searchsorted(SEQ, VALS, right=True, side="left"), ValueError, "For 'searchsorted', 'side'"),
    (lambda: mj_ops.nonzero(np.float32(3)), ValueError, "For 'nonzero', 'input' must have rank >= 1"),
    (lambda: mj_ops.tuple_to_array([1, 2]), TypeError, "For 'tuple_to_array', 'input_x' must be a tuple"),
    (lambda: mj_ops.scalar_to_tensor("a"), TypeError, "For 'scalar_to_tensor', 'input_x' must be a bool"),
])
def test_bad_input_names_op_and_argument(call, exc, match):
    with pytest.raises(exc, match=match):
        call()
