"""The ops of ``mindjax.ops.function`` that MindSpore 2.10 cannot run on CPU (checked against numpy and
first principles), their errors, their behaviour under ``jax.jit``, and MindSpore's module layout."""
import importlib

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import mindjax
from mindjax import nn, ops

RNG = np.random.default_rng(1)
X = RNG.standard_normal((2, 3)).astype(np.float32)
Y = RNG.standard_normal((2, 3)).astype(np.float32)
B3 = RNG.standard_normal((2, 3, 4)).astype(np.float32)
IMG = RNG.standard_normal((2, 3, 5, 6)).astype(np.float32)


def test_take_indexes_the_flattened_input():
    idx = np.array([[0, 5], [23, 7]], np.int32)
    np.testing.assert_array_equal(np.asarray(ops.take(B3, idx)), np.take(B3, idx))


def test_quantile_matches_numpy_linear_interpolation():
    np.testing.assert_allclose(np.asarray(ops.quantile(B3, 0.3, axis=2)), np.quantile(B3, 0.3, axis=2), rtol=1e-6)
    q = np.array([0.1, 0.9], np.float32)
    np.testing.assert_allclose(np.asarray(ops.quantile(B3, q, axis=1, keepdims=True)),
                               np.quantile(B3, q, axis=1, keepdims=True), rtol=1e-6)
    nan = B3.copy()
    nan[0, 0, 0] = np.nan
    np.testing.assert_allclose(np.asarray(ops.nanquantile(nan, 0.5, axis=2)), np.nanquantile(nan, 0.5, axis=2),
                               rtol=1e-6)


def test_conv_transpose2d_is_the_adjoint_of_conv2d():
    w = RNG.standard_normal((3, 4, 3, 2)).astype(np.float32)  # (C_in, C_out, kH, kW) of the transposed conv
    out = ops.conv_transpose2d(IMG, w, None, 2, 1, 1)
    # <conv_transpose(x), y> == <x, conv(y)> with the conv weight (C_out_conv=C_in, C_in_conv=C_out).
    y = RNG.standard_normal(out.shape).astype(np.float32)
    conv = ops.conv2d(y, w, None, 2, "pad", 1)
    np.testing.assert_allclose(float(jnp.vdot(out, y)), float(jnp.vdot(IMG, conv[:, :, :5, :6])), rtol=1e-4)
    assert out.shape == (2, 4, (5 - 1) * 2 - 2 + 3 + 1, (6 - 1) * 2 - 2 + 2 + 1)


def test_conv3d_transpose_same_mode_multiplies_the_size_by_the_stride():
    x = RNG.standard_normal((1, 2, 3, 4, 5)).astype(np.float32)
    w = RNG.standard_normal((2, 3, 3, 3, 3)).astype(np.float32)
    assert ops.conv3d_transpose(x, w, "same", stride=2).shape == (1, 3, 6, 8, 10)
    assert ops.Conv3DTranspose(2, 3, 3, pad_mode="valid")(x, w).shape == (1, 3, 5, 6, 7)


def test_margin_losses_follow_their_formulas():
    t = np.sign(Y)
    np.testing.assert_allclose(float(ops.soft_margin_loss(X, t)), np.mean(np.log1p(np.exp(-t * X))), rtol=1e-6)
    d_pos = np.linalg.norm(X - Y + 1e-6, axis=-1)
    d_neg = np.linalg.norm(X - 2 * Y + 1e-6, axis=-1)
    np.testing.assert_allclose(float(ops.triplet_margin_loss(X, Y, 2 * Y)),
                               np.mean(np.maximum(d_pos - d_neg + 1.0, 0)), rtol=1e-5)
    # one sample, targets {2, 0}: hinge of each target against the non-target class 1, over C = 3.
    x = np.array([[0.1, 0.2, 0.4]], np.float32)
    want = (max(0, 1 - (0.4 - 0.2)) + max(0, 1 - (0.1 - 0.2))) / 3
    np.testing.assert_allclose(float(ops.multilabel_margin_loss(x, np.array([[2, 0, -1]], np.int32))), want,
                               rtol=1e-6)


def test_matrix_exp_matches_the_series():
    a = (RNG.standard_normal((3, 3)) * 0.3).astype(np.float32)
    series, term = np.eye(3), np.eye(3)
    for k in range(1, 20):
        term = term @ a / k
        series = series + term
    np.testing.assert_allclose(np.asarray(ops.matrix_exp(a)), series, rtol=1e-5, atol=1e-6)


def test_ctc_loss_equals_the_brute_force_sum_over_alignments():
    lp = np.log(jax.nn.softmax(RNG.standard_normal((4, 1, 3)), -1)).astype(np.float32)
    target = [1, 2]
    total = 0.0
    for path in np.ndindex(3, 3, 3, 3):
        collapsed = [c for i, c in enumerate(path) if c != 0 and (i == 0 or c != path[i - 1])]
        if collapsed == target:
            total += np.exp(sum(lp[t, 0, c] for t, c in enumerate(path)))
    loss, _ = ops.ctc_loss(lp, np.array([target], np.int32), np.array([4]), np.array([2]), reduction="none")
    np.testing.assert_allclose(float(loss[0]), -np.log(total), rtol=1e-5)


def test_ops_trace_under_jax_jit():
    def f(x, y, img):
        return (ops.atan2(x, y), ops.cummax(x, 1)[0], ops.unfold(img, 2), ops.pixel_shuffle(img[:, :, :4], 1),
                ops.grid_sample(img, jnp.zeros((2, 2, 2, 2))), ops.huber_loss(x, y), ops.index_select(x, 1, jnp.array([2, 0])),
                ops.tensor_scatter_elements(x, jnp.array([[1], [0]]), jnp.ones((2, 1)), 1), ops.movedim(img, 1, -1),
                ops.nan_to_num(jnp.asarray(x) / 0.0), ops.logcumsumexp(x, 1))
    for eager, traced in zip(f(X, Y, IMG), jax.jit(f)(X, Y, IMG)):
        np.testing.assert_allclose(np.asarray(traced), np.asarray(eager), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("call,error,match", [
    (lambda: ops.unstack(np.float32(1.0)), ValueError, r"For 'unstack', 'input_x' must be at least 1-D"),
    (lambda: ops.swapaxes(X, 0, 3), ValueError, r"For 'swapaxes', 'axis1' must be in range"),
    (lambda: ops.index_select(X, 1, np.array([[0]])), ValueError, r"For 'index_select', 'index' must be 1-D"),
    (lambda: ops.index_select(X, 1, np.array([0.5])), TypeError, r"For 'index_select', 'index' must hold integers"),
    (lambda: ops.pixel_shuffle(IMG, 2), ValueError, r"For 'pixel_shuffle', the channel axis"),
    (lambda: ops.huber_loss(X, Y, "avg"), ValueError, r"For 'huber_loss', 'reduction' must be one of"),
    (lambda: ops.huber_loss(X, Y, delta=0.0), ValueError, r"For 'huber_loss', 'delta' must be positive"),
    (lambda: ops.conv1d(B3, np.ones((2, 2, 3), np.float32)), ValueError, r"For 'conv1d', input channels 3"),
    (lambda: ops.grid_sample(IMG, np.zeros((2, 3, 3, 3))), ValueError, r"For 'grid_sample', 'input' must be 4-D"),
    (lambda: ops.isclose(X, Y, equal_nan=1), TypeError, r"For 'isclose', 'equal_nan' must be a bool"),
    (lambda: ops.atan2(X, Y, Y), TypeError, r"For 'atan2', too many positional arguments"),
    (lambda: ops.tensor_scatter_elements(X, np.zeros((2,), np.int32), np.ones(2)), ValueError,
     r"For 'tensor_scatter_elements', 'indices' must have the input's rank"),
    (lambda: ops.gaussian_nll_loss(X, Y, np.ones((3, 2))), ValueError, r"For 'gaussian_nll_loss', 'var' shape"),
    (lambda: ops.fold(np.ones((1, 5, 4)), 3, 2), ValueError, r"For 'fold', input.shape\[1\] \(5\) must be divisible"),
    (lambda: ops.flash_attention_score(X, X, X, 1), RuntimeError,
     r"For 'flash_attention_score', MindSpore implements this op only on Ascend.*ops.softmax"),
])
def test_bad_arguments_raise_naming_op_and_argument(call, error, match):
    with pytest.raises(error, match=match):
        call()


def test_keyword_arguments_use_mindspore_names():
    np.testing.assert_allclose(np.asarray(ops.atan2(input=X, other=Y)), np.arctan2(X, Y), rtol=1e-6)
    np.testing.assert_array_equal(np.asarray(ops.floor_mod(x=np.array([-7]), y=np.array([3]))), [2])


def test_mindspore_module_layout_is_importable():
    for path, name in [("mindjax.ops.function.math_func", "log1p"), ("mindjax.ops.function.array_func", "unstack"),
                       ("mindjax.ops.function.nn_func", "conv1d"), ("mindjax.ops.function.nn_func", "conv2d"),
                       ("mindjax.ops.function.random_func", "randperm"), ("mindjax.ops.function.linalg_func", "svd"),
                       ("mindjax.ops.function.clip_func", "clip_by_value"), ("mindjax.ops.function.grad", "grad"),
                       ("mindjax.ops.operations.math_ops", "MatMul"), ("mindjax.ops.operations.array_ops", "Unstack"),
                       ("mindjax.ops.operations.nn_ops", "ResizeNearestNeighbor"),
                       ("mindjax.ops.operations.nn_ops", "Conv2D"), ("mindjax.ops.operations.random_ops", "UniformInt"),
                       ("mindjax.ops.operations.comm_ops", "ReduceOp")]:
        assert hasattr(importlib.import_module(path), name), (path, name)
    assert ops.operations.MatMul is ops.MatMul and ops.function.log1p is ops.log1p


def test_primitives_record_constructor_arguments_and_shard():
    prim = ops.IsClose(rtol=0.1).shard(((2, 1), (2, 1)))
    assert prim.rtol == 0.1 and prim.attrs["equal_nan"] is False and prim.in_strategy == ((2, 1), (2, 1))
    with pytest.raises(TypeError, match=r"For 'CumProd', 'exclusive' must be a bool"):
        ops.CumProd(exclusive=1)


def test_layer_norm_subclass_can_call_mindspore_primitive_attribute():
    class MyNorm(nn.LayerNorm):
        def construct(self, x):
            y, _, _ = self.layer_norm(x, self.gamma, self.beta)
            return y

    x = RNG.standard_normal((2, 4)).astype(np.float32)
    np.testing.assert_allclose(np.asarray(MyNorm((4,))(x)), np.asarray(nn.LayerNorm((4,))(x)), rtol=1e-4, atol=1e-5)


def test_cells_reject_bad_arguments_naming_the_cell():
    with pytest.raises(TypeError, match=r"For 'ReflectionPad2d', 'padding' must be an int or a tuple of ints"):
        nn.ReflectionPad2d("1")
    with pytest.raises(ValueError, match=r"For 'PixelShuffle', 'upscale_factor' must be a positive int"):
        nn.PixelShuffle(0)
    with pytest.raises(ValueError, match=r"For 'MultiMarginLoss', 'p' must be 1 or 2"):
        nn.MultiMarginLoss(p=3)
    with pytest.raises(ValueError, match=r"reflection padding"):
        nn.ReflectionPad1d(4)(np.zeros((1, 1, 3), np.float32))

