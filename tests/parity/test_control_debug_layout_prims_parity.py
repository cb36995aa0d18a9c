"""Primitives against MindSpore 2.10's CPU kernels: functional control flow (WhileLoop, ForiLoop, Scan),
CheckNumerics, Assert, PyFunc, TensorToTuple, DtypeToEnum, views, EmbeddingLookup, DataFormatDimMap,
DataFormatVecPermute, ExtractVolumePatches, FractionalMaxPool3DWithFixedKsize, and the window rule of
FractionalMaxPool/FractionalAvgPool, CompareAndBitpack, SparseToDense and RaggedRange.

Left out because MindSpore 2.10's CPU build cannot run them: ConfusionMatrix, DropoutGenMask and SparseGatherV2 (no
CPU kernel), Dilation2D (its pad_mode attribute fails to convert), ScalarCast (calls ``np.cast``, gone in
numpy 2) and ScalarToArray (no shape inference)."""
import os

os.environ.setdefault("GLOG_v", "3")

import numpy as np  # noqa: E402
import pytest  # noqa: E402

mindspore = pytest.importorskip("mindspore")

import mindjax  # noqa: E402

RNG = np.random.default_rng(0)


def _each(fn):
    """``fn(framework)`` for MindSpore, then MindJAX."""
    return [fn(framework) for framework in (mindspore, mindjax)]


def _np(x):
    return x.asnumpy() if hasattr(x, "asnumpy") else x


def test_while_loop_fori_loop_and_scan_equal_mindspore():
    def run(fw):
        x = fw.Tensor(np.arange(3, dtype=np.float32))
        w = fw.ops.WhileLoop()(lambda v: v.sum() < 40, lambda v: v * 2 + 1, x)
        f = fw.ops.ForiLoop()(1, 5, lambda i, v: v * i + 1, x)
        c, ys = fw.ops.Scan()(lambda c, e: (c + e, c * e), x, [x, x + 1, x * 3])
        return [_np(w), _np(f), _np(c)] + [_np(y) for y in ys]

    want, got = _each(run)
    for g, w in zip(got, want):
        np.testing.assert_allclose(g, w, rtol=1e-6)
    assert _each(lambda fw: fw.ops.WhileLoop()(lambda v: v < 100, lambda v: v + 7, 3)) == [101, 101]


def test_check_numerics_passes_finite_values_and_fails_on_inf_as_mindspore():
    x = RNG.standard_normal(5).astype(np.float32)
    want, got = _each(lambda fw: fw.ops.CheckNumerics()(fw.Tensor(x)).asnumpy())
    np.testing.assert_array_equal(got, want)
    bad = np.array([1.0, np.inf], np.float32)
    for fw in (mindspore, mindjax):
        with pytest.raises(RuntimeError, match="Inf values"):
            fw.ops.CheckNumerics()(fw.Tensor(bad)).asnumpy()


def test_assert_passes_true_and_raises_runtime_error_on_false_as_mindspore():
    for fw in (mindspore, mindjax):
        out = fw.ops.Assert()(fw.Tensor(True), [fw.Tensor(np.ones(2, np.float32))])
        assert out.shape == (1,) and out.dtype == fw.int32
        with pytest.raises(RuntimeError):
            fw.ops.Assert(2)(fw.Tensor(False), [fw.Tensor(np.arange(5, dtype=np.float32))]).asnumpy()


def _add_mul(x, y):
    return x + y, x * y


def test_py_func_equals_mindspore():
    a, b = RNG.standard_normal(3).astype(np.float32), RNG.standard_normal(3).astype(np.float32)

    def run(fw):
        op = fw.ops.PyFunc(_add_mul, [fw.float32, fw.float32], [(3,), (3,)], [fw.float32, fw.float32], [(3,), (3,)])
        return [o.asnumpy() for o in op(fw.Tensor(a), fw.Tensor(b))]

    want, got = _each(run)
    for g, w in zip(got, want):
        np.testing.assert_allclose(g, w, rtol=1e-6)


def test_tensor_to_tuple_and_dtype_to_enum_equal_mindspore():
    assert _each(lambda fw: fw.ops.TensorToTuple()(fw.Tensor(np.array([4, 5, 6])))) == [(4, 5, 6)] * 2
    assert _each(lambda fw: fw.ops.TensorToTuple()(fw.Tensor(np.ones((2, 2))))) == [None, None]
    for name in ("bool_", "int8", "int32", "int64", "uint8", "float16", "float32", "float64", "bfloat16"):
        want, got = _each(lambda fw: fw.ops.DtypeToEnum()("Op", "dtype", getattr(fw, name)))
        assert got == want, name


def test_views_and_copy_with_slice_equal_mindspore():
    x = np.arange(12, dtype=np.float32).reshape(3, 4)

    def run(fw):
        t = fw.Tensor(x)
        dst = fw.Tensor(np.zeros((3, 4), np.float32))
        fw.ops.CopyWithSlice()(dst, fw.Tensor(x * 2))
        return [fw.ops.TransposeExtView()(t, -1, 0).asnumpy(), fw.ops.SelectView()(t, 1, 0).asnumpy(),
                fw.ops.SelectView()(t, 3, -1).asnumpy(), dst.asnumpy()]

    want, got = _each(run)
    for g, w in zip(got, want):
        np.testing.assert_array_equal(g, w)


@pytest.mark.parametrize("offset", [0, 1, 3])
def test_embedding_lookup_equals_mindspore(offset):
    params = RNG.standard_normal((5, 3)).astype(np.float32)
    idx = np.array([[-1, 0, 2], [4, 5, 7]], np.int32)
    want, got = _each(lambda fw: fw.ops.EmbeddingLookup()(fw.Tensor(params), fw.Tensor(idx), offset).asnumpy())
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("src, dst", [("NHWC", "NCHW"), ("NCHW", "NHWC"), ("NHWC", "NHWC")])
def test_data_format_dim_map_and_vec_permute_equal_mindspore(src, dst):
    dims = np.array([-4, -3, -2, -1, 0, 1, 2, 3, 5], np.int32)
    want, got = _each(lambda fw: fw.ops.DataFormatDimMap(src, dst)(fw.Tensor(dims)).asnumpy())
    np.testing.assert_array_equal(got, want)
    for vec in (np.array([1, 2, 3, 4], np.int64), np.arange(8, dtype=np.int32).reshape(4, 2)):
        want, got = _each(lambda fw: fw.ops.DataFormatVecPermute(src, dst)(fw.Tensor(vec)).asnumpy())
        np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("kernel, strides, padding", [
    ((1, 1, 2, 2, 3), (1, 1, 1, 2, 2), "VALID"), ((1, 1, 2, 2, 3), (1, 1, 1, 2, 2), "SAME"),
    ((1, 1, 2, 3, 2), (1, 1, 2, 1, 1), "SAME"), ((1, 1, 2, 1, 1), (1, 1, 1, 1, 1), "valid"),
])
def test_extract_volume_patches_equals_mindspore(kernel, strides, padding):
    x = RNG.standard_normal((2, 2, 4, 4, 5)).astype(np.float32)
    want, got = _each(lambda fw: fw.ops.ExtractVolumePatches(kernel, strides, padding)(fw.Tensor(x)).asnumpy())
    assert got.shape == want.shape
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("ksize, output_shape", [((2, 2, 2), (3, 3, 3)), (3, (2, 3, 2)), ((1, 2, 3), 2)])
def test_fractional_max_pool3d_with_fixed_ksize_equals_mindspore(ksize, output_shape):
    x = RNG.standard_normal((2, 3, 6, 7, 6)).astype(np.float32)
    samples = RNG.uniform(size=(2, 3, 3)).astype(np.float32)

    def run(fw):
        y, argmax = fw.ops.FractionalMaxPool3DWithFixedKsize(ksize, output_shape)(fw.Tensor(x), fw.Tensor(samples))
        return y.asnumpy(), argmax.asnumpy()

    (want_y, want_i), (got_y, got_i) = _each(run)
    np.testing.assert_array_equal(got_y, want_y)
    np.testing.assert_array_equal(got_i, want_i)
    assert got_i.dtype == want_i.dtype


def test_extract_volume_patches_rejects_negative_same_padding_as_mindspore():
    x = np.ones((1, 1, 4, 4, 4), np.float32)
    for fw in (mindspore, mindjax):
        with pytest.raises(ValueError, match="padding"):
            fw.ops.ExtractVolumePatches((1, 1, 1, 2, 2), (1, 1, 2, 1, 1), "SAME")(fw.Tensor(x)).asnumpy()


@pytest.mark.parametrize("cls, reduce", [("FractionalMaxPool", "max"), ("FractionalAvgPool", "mean")])
@pytest.mark.parametrize("pseudo_random", [False, True])
@pytest.mark.parametrize("overlapping", [False, True])
def test_fractional_pool_window_rule_is_mindspores(cls, reduce, pseudo_random, overlapping):
    """The boundaries are random in both (different generators): each framework's output must be the
    reduction of the windows its own boundaries give, by the one numpy rule, and the shapes and dtypes equal."""
    from tests.ops.test_pooling_dropout_primitives import fractional_reference

    x = RNG.standard_normal((2, 9, 7, 3)).astype(np.float32)
    for fw in (mindspore, mindjax):
        op = getattr(fw.ops, cls)([1.0, 1.5, 1.7, 1.0], pseudo_random=pseudo_random, overlapping=overlapping,
                                  deterministic=True, seed=3, seed2=1)
        y, rows, cols = (o.asnumpy() for o in op(fw.Tensor(x)))
        assert y.shape == (2, 6, 4, 3) and rows.dtype == cols.dtype == np.int64
        assert rows[0] == 0 and rows[-1] == 9 and cols[-1] == 7
        np.testing.assert_allclose(y, fractional_reference(x, rows, cols, overlapping, reduce), rtol=1e-5, atol=1e-6)


def test_compare_and_bitpack_sparse_to_dense_and_ragged_range_equal_mindspore():
    x = RNG.standard_normal((3, 16)).astype(np.float32)
    want, got = _each(lambda fw: fw.ops.CompareAndBitpack()(fw.Tensor(x), fw.Tensor(np.float32(0.1))).asnumpy())
    np.testing.assert_array_equal(got, want)
    idx, val = np.array([[0, 1, 0], [1, 2, 3], [2, 0, 1]], np.int64), RNG.standard_normal(3).astype(np.float32)
    want, got = _each(lambda fw: fw.ops.SparseToDense()(fw.Tensor(idx), fw.Tensor(val), (3, 3, 4)).asnumpy())
    np.testing.assert_array_equal(got, want)
    for tsplits in ("int32", "int64"):
        def run(fw):
            return [o.asnumpy() for o in fw.ops.RaggedRange(getattr(fw, tsplits))(
                fw.Tensor(np.array([2, 5, 8, 0], np.int64)), fw.Tensor(np.array([3, 5, 12, -4], np.int64)),
                fw.Tensor(np.array([1, 2, 3, -2], np.int64)))]

        (want_s, want_v), (got_s, got_v) = _each(run)
        np.testing.assert_array_equal(got_s, want_s)
        np.testing.assert_array_equal(got_v, want_v)
        assert got_s.dtype == want_s.dtype and got_v.dtype == want_v.dtype
