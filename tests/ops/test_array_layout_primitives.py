"""Scalar, dtype, view, lookup and layout Primitives: ScalarCast, ScalarToArray, TensorToTuple, DtypeToEnum,
TransposeView, TransposeExtView, SelectView, CopyWithSlice, EmbeddingLookup, ConfusionMatrix,
DataFormatDimMap, DataFormatVecPermute, Dilation2D, ExtractVolumePatches, FractionalMaxPool3DWithFixedKsize."""
import jax
import jax.numpy as jnp
import numpy as np
import pytest

import mindjax as ms
from mindjax import ops


def test_scalar_cast_casts_to_the_three_types_mindspore_allows():
    assert ops.ScalarCast()(3.7, ms.int64) == 3 and isinstance(ops.ScalarCast()(3.7, ms.int64), int)
    assert ops.ScalarCast()(3, ms.float64) == 3.0 and isinstance(ops.ScalarCast()(3, ms.float64), float)
    assert ops.ScalarCast()(0, ms.bool_) is False
    with pytest.raises(ValueError, match=r"For 'ScalarCast', the supported type is in the list: \[mindspore.int64, "
                                         r"mindspore.float64, mindspore.bool\], but got Float32"):
        ops.ScalarCast()(3, ms.float32)
    with pytest.raises(TypeError, match=r"the 'input_x' must be a bool or a number, but got str"):
        ops.ScalarCast()("a", ms.int64)


def test_scalar_to_array_is_a_float32_scalar_tensor():
    out = ops.ScalarToArray()(3)
    assert out.shape == () and out.dtype == ms.float32 and float(out) == 3.0


def test_tensor_to_tuple_gives_python_values_of_0d_and_1d_tensors_and_none_otherwise():
    assert ops.TensorToTuple()(ms.Tensor(np.array([1, 2, 3]))) == (1, 2, 3)
    assert ops.TensorToTuple()(ms.Tensor(np.ones((2, 2)))) is None
    assert ops.TensorToTuple()(3) is None
    traced = jax.jit(lambda x: sum(ops.TensorToTuple()(x)))(jnp.arange(4.0))
    assert float(traced) == 6.0


def test_dtype_to_enum_gives_mindspore_type_ids_and_names_the_caller_on_bad_input():
    assert ops.DtypeToEnum()("Op", "dtype", ms.float32) == 43
    assert ops.DtypeToEnum()("Op", "dtype", ms.int64) == 35
    assert ops.DtypeToEnum()("Op", "dtype", ms.bfloat16) == 45
    with pytest.raises(TypeError, match=r"For 'Cast', the input 'dtype' should be mindspore dtype, but got 3"):
        ops.DtypeToEnum()("Cast", "dtype", 3)


def test_views_transpose_and_select():
    x = ms.Tensor(np.arange(6).reshape(2, 3))
    np.testing.assert_array_equal(ops.TransposeView()(x, (1, 0)).asnumpy(), np.arange(6).reshape(2, 3).T)
    np.testing.assert_array_equal(ops.TransposeExtView()(x, -1, 0).asnumpy(), np.arange(6).reshape(2, 3).T)
    np.testing.assert_array_equal(ops.SelectView()(x, 1, 0).asnumpy(), [3, 4, 5])
    np.testing.assert_array_equal(ops.SelectView()(x, 2, -1).asnumpy(), [2, 5])
    with pytest.raises(ValueError, match=r"For 'SelectView', 'input_indices' must be in \[0, 3\) for axis 1 of "
                                         r"size 3, but got 5"):
        ops.SelectView()(x, 5, 1)
    with pytest.raises(ValueError, match=r"'input_indices' must be in \[0, 2\)"):
        ops.SelectView()(x, -1, 0)
    with pytest.raises(TypeError, match=r"For 'SelectView', 'axis' must be an int, got float"):
        ops.SelectView()(x, 0, 1.0)


def test_copy_with_slice_writes_src_into_self_in_place():
    dst = ms.Tensor(np.zeros((2, 3), np.float32))
    out = ops.CopyWithSlice()(dst, ms.Tensor(np.ones((2, 3), np.float32)))
    assert out is dst
    np.testing.assert_array_equal(dst.asnumpy(), np.ones((2, 3)))
    with pytest.raises(ValueError, match=r"For 'CopyWithSlice', 'y' must have the shape of 'x' \(2, 3\), but "
                                         r"got \(3,\)"):
        ops.CopyWithSlice()(dst, ms.Tensor(np.ones(3, np.float32)))
    with pytest.raises(TypeError, match=r"'y' must have the dtype of 'x' float32, but got int32"):
        ops.CopyWithSlice()(dst, ms.Tensor(np.ones((2, 3), np.int32)))


def test_embedding_lookup_shifts_by_offset_and_zeroes_rows_out_of_range():
    params = ms.Tensor(np.arange(12, dtype=np.float32).reshape(4, 3))
    out = ops.EmbeddingLookup()(params, ms.Tensor(np.array([[0, 5], [2, 3]], np.int32)), 1)
    want = np.zeros((2, 2, 3), np.float32)
    want[1, 0], want[1, 1] = [3, 4, 5], [6, 7, 8]
    np.testing.assert_array_equal(out.asnumpy(), want)
    with pytest.raises(ValueError, match=r"For 'EmbeddingLookup', 'input_params' must be 1-D or 2-D, but got 3-D"):
        ops.EmbeddingLookup()(ms.Tensor(np.ones((2, 2, 2), np.float32)), ms.Tensor(np.array([0], np.int32)), 0)
    with pytest.raises(TypeError, match=r"'input_indices' must be an int32 or int64 Tensor, but got float32"):
        ops.EmbeddingLookup()(params, ms.Tensor(np.array([1.0], np.float32)), 0)


def test_confusion_matrix_counts_label_prediction_pairs_with_weights():
    labels = ms.Tensor(np.array([0, 1, 1, 3], np.int32))
    preds = ms.Tensor(np.array([0, 2, 1, 3], np.int32))
    want = np.zeros((4, 4), np.int32)
    want[0, 0], want[1, 2], want[1, 1], want[3, 3] = 1, 1, 1, 1
    np.testing.assert_array_equal(ops.ConfusionMatrix(4)(labels, preds).asnumpy(), want)
    weighted = ops.ConfusionMatrix(4)(labels, preds, ms.Tensor(np.array([1, 2, 3, 4], np.int32))).asnumpy()
    assert weighted[1, 2] == 2 and weighted[1, 1] == 3 and weighted.sum() == 10
    with pytest.raises(ValueError, match=r"For 'ConfusionMatrix', 'predictions' must have the shape of 'labels' "
                                         r"\(4,\), but got \(3,\)"):
        ops.ConfusionMatrix(4)(labels, ms.Tensor(np.array([0, 1, 2], np.int32)))
    with pytest.raises(TypeError, match=r"'num_classes' must be an int, but got float"):
        ops.ConfusionMatrix(4.0)


def test_data_format_dim_map_and_vec_permute_follow_mindspore():
    dims = ms.Tensor(np.array([-4, -3, -2, -1, 0, 1, 2, 3], np.int32))
    np.testing.assert_array_equal(ops.DataFormatDimMap()(dims).asnumpy(), [0, 3, 1, 2, 0, 3, 1, 2])
    np.testing.assert_array_equal(ops.DataFormatDimMap("NCHW", "NHWC")(dims).asnumpy(), [0, 2, 3, 1] * 2)
    vec = ms.Tensor(np.array([1, 2, 3, 4], np.int32))
    np.testing.assert_array_equal(ops.DataFormatVecPermute()(vec).asnumpy(), [1, 4, 2, 3])
    np.testing.assert_array_equal(ops.DataFormatVecPermute("NCHW", "NHWC")(vec).asnumpy(), [1, 3, 4, 2])
    rows = ms.Tensor(np.arange(1, 9, dtype=np.int32).reshape(4, 2))
    np.testing.assert_array_equal(ops.DataFormatVecPermute()(rows).asnumpy(), [[1, 2], [7, 8], [3, 4], [5, 6]])


def test_data_format_ops_reject_bad_formats_dtypes_and_shapes():
    with pytest.raises(ValueError, match=r"For 'DataFormatDimMap', the 'dst_format' must be str and must be in "
                                         r"'\['NHWC', 'NCHW'\]', but got 'NHW'"):
        ops.DataFormatDimMap("NCHW", "NHW")
    with pytest.raises(TypeError, match=r"For 'DataFormatVecPermute', the 'input_x' must be an int32 or int64 "
                                        r"Tensor, but got float32"):
        ops.DataFormatVecPermute()(ms.Tensor(np.ones(4, np.float32)))
    with pytest.raises(ValueError, match=r"'input_x' must be of shape \(4,\) or \(4, 2\), but got \(3,\)"):
        ops.DataFormatVecPermute()(ms.Tensor(np.array([1, 2, 3], np.int32)))


def _dilation_reference(x, f, stride, dilation, pads):
    n, c, h, w = x.shape
    xp = np.pad(x, ((0, 0), (0, 0)) + pads, constant_values=-np.inf)
    kh, kw = f.shape[1:]
    oh = (xp.shape[2] - (kh - 1) * dilation[0] - 1) // stride[0] + 1
    ow = (xp.shape[3] - (kw - 1) * dilation[1] - 1) // stride[1] + 1
    out = np.full((n, c, oh, ow), -np.inf, np.float32)
    for a in range(oh):
        for b in range(ow):
            for i in range(kh):
                for j in range(kw):
                    v = xp[:, :, a * stride[0] + i * dilation[0], b * stride[1] + j * dilation[1]] + f[:, i, j]
                    out[:, :, a, b] = np.maximum(out[:, :, a, b], v)
    return out


@pytest.mark.parametrize("pad_mode, pads", [("VALID", ((0, 0), (0, 0))), ("SAME", ((0, 1), (2, 2)))])
def test_dilation2d_is_the_max_of_input_plus_filter_over_the_window(pad_mode, pads):
    rng = np.random.default_rng(0)
    x = rng.standard_normal((1, 2, 5, 6)).astype(np.float32)
    f = rng.standard_normal((2, 2, 3)).astype(np.float32)
    got = ops.Dilation2D((1, 1, 2, 1), (1, 1, 1, 2), pad_mode)(ms.Tensor(x), ms.Tensor(f)).asnumpy()
    want = _dilation_reference(x, f, (2, 1), (1, 2), pads)
    np.testing.assert_allclose(got, want, rtol=1e-6)


def test_dilation2d_checks_arguments():
    with pytest.raises(ValueError, match=r"For 'Dilation2D', 'stride' must be \(1, 1, stride_height, stride_width\) "
                                         r"for 'NCHW'.*but got \(2, 1, 1, 1\)"):
        ops.Dilation2D((2, 1, 1, 1), 1)
    with pytest.raises(ValueError, match=r"'pad_mode' must be 'SAME' or 'VALID', but got 'full'"):
        ops.Dilation2D(1, 1, "full")
    with pytest.raises(ValueError, match=r"'filter' \(C, kH, kW\) with the same C, but got \(1, 2, 4, 4\) and "
                                         r"\(3, 2, 2\)"):
        ops.Dilation2D(1, 1)(ms.Tensor(np.ones((1, 2, 4, 4), np.float32)), ms.Tensor(np.ones((3, 2, 2), np.float32)))


def test_extract_volume_patches_orders_channels_kernel_first():
    x = np.arange(2 * 3 * 3 * 3, dtype=np.float32).reshape(1, 2, 3, 3, 3)
    out = ops.ExtractVolumePatches((1, 1, 2, 2, 2), 1, "VALID")(ms.Tensor(x)).asnumpy()
    assert out.shape == (1, 16, 2, 2, 2)
    # Channel k * 2 + c holds input channel c at kernel offset k = (kd, kh, kw) flattened.
    for kd in range(2):
        for kh in range(2):
            for kw in range(2):
                for c in range(2):
                    k = (kd * 2 + kh) * 2 + kw
                    np.testing.assert_array_equal(out[0, k * 2 + c], x[0, c, kd:kd + 2, kh:kh + 2, kw:kw + 2])
    with pytest.raises(ValueError, match=r"For 'ExtractVolumePatches', 'kernel_size' must start with \(1, 1\)"):
        ops.ExtractVolumePatches((2, 1, 2, 2, 2), 1, "VALID")
    with pytest.raises(ValueError, match=r"'padding' must be 'VALID' or 'SAME', but got 'full'"):
        ops.ExtractVolumePatches(2, 1, "full")
    with pytest.raises(ValueError, match=r"the 'SAME' padding of axis 2 \(input 4, kernel 1, stride 2\) must be "
                                         r">= 0, but got -1"):
        ops.ExtractVolumePatches((1, 1, 1, 2, 2), (1, 1, 2, 1, 1), "SAME")(ms.Tensor(np.ones((1, 1, 4, 4, 4),
                                                                                             np.float32)))
    with pytest.raises(ValueError, match=r"'input_x' must be 5-D \(N, C, D, H, W\), but got shape \(2, 3\)"):
        ops.ExtractVolumePatches(2, 1, "VALID")(ms.Tensor(np.ones((2, 3), np.float32)))


def test_fractional_max_pool3d_with_fixed_ksize_matches_the_functional_op_in_both_layouts():
    rng = np.random.default_rng(1)
    x = rng.standard_normal((1, 2, 6, 6, 6)).astype(np.float32)
    samples = rng.uniform(size=(1, 2, 3)).astype(np.float32)
    y, argmax = ops.FractionalMaxPool3DWithFixedKsize(2, (3, 3, 3))(ms.Tensor(x), ms.Tensor(samples))
    want_y, want_idx = ops.fractional_max_pool3d(ms.Tensor(x), 2, (3, 3, 3), None, True, ms.Tensor(samples))
    np.testing.assert_array_equal(y.asnumpy(), want_y.asnumpy())
    np.testing.assert_array_equal(argmax.asnumpy(), want_idx.asnumpy())
    y_last, _ = ops.FractionalMaxPool3DWithFixedKsize(2, (3, 3, 3), "NDHWC")(ms.Tensor(np.moveaxis(x, 1, -1)),
                                                                             ms.Tensor(samples))
    np.testing.assert_array_equal(np.moveaxis(y_last.asnumpy(), -1, 1), y.asnumpy())
    with pytest.raises(ValueError, match=r"For 'FractionalMaxPool3DWithFixedKsize', 'data_format' must be 'NCDHW' "
                                         r"or 'NDHWC', but got 'NCHW'"):
        ops.FractionalMaxPool3DWithFixedKsize(2, 3, "NCHW")
    with pytest.raises(ValueError, match=r"'random_samples' must be a Tensor of shape \(N, C, 3\)"):
        ops.FractionalMaxPool3DWithFixedKsize(2, 3)(ms.Tensor(x), None)
