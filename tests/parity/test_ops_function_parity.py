"""The ops of ``mindjax.ops.function`` against the real mindspore 2.10 on the same inputs.

Each case is written once against an ``ops`` module, a ``Tensor`` constructor and a dtype
namespace, then run with mindspore's and with mindjax's; outputs must agree in shape, dtype
kind and value.
"""
import numpy as np
import pytest
import mindspore
from mindspore import ops as ms_ops

import mindjax
from mindjax import ops as mj_ops

RNG = np.random.default_rng(7)
X = RNG.standard_normal((2, 3)).astype(np.float32)
Y = RNG.standard_normal((2, 3)).astype(np.float32)
B3 = RNG.standard_normal((2, 3, 4)).astype(np.float32)
IMG = RNG.standard_normal((2, 3, 5, 6)).astype(np.float32)
VOL = RNG.standard_normal((1, 2, 4, 5, 6)).astype(np.float32)
SEQ = RNG.standard_normal((2, 3, 8)).astype(np.float32)
U = (RNG.uniform(0.05, 0.95, (2, 3))).astype(np.float32)
POS = (np.abs(X) + 0.5).astype(np.float32)
I = np.array([[6, -4, 9], [15, 8, -21]], np.int32)
J = np.array([[4, 6, 6], [10, 12, 14]], np.int32)
SPD = (lambda a: (a @ a.T + 3 * np.eye(3)).astype(np.float32))(RNG.standard_normal((3, 3)))
SQ = (RNG.standard_normal((3, 3)) + 2 * np.eye(3)).astype(np.float32)
NAN = np.array([1.0, np.nan, np.inf, -np.inf, -2.0], np.float32)
V4 = RNG.standard_normal(4).astype(np.float32)
W1 = RNG.standard_normal((4, 3, 3)).astype(np.float32)
W2 = RNG.standard_normal((4, 3, 3, 2)).astype(np.float32)
W3 = RNG.standard_normal((3, 2, 2, 3, 2)).astype(np.float32)
WT = RNG.standard_normal((3, 4, 3, 2)).astype(np.float32)
IDX = np.array([2, 0], np.int32)
GRID = RNG.uniform(-1.1, 1.1, (2, 4, 3, 2)).astype(np.float32)
LAB = np.array([[1.0, 0.0, 1.0], [0.0, 1.0, 1.0]], np.float32)
SIGN = np.array([1.0, -1.0], np.float32)
CLS = np.array([2, 0], np.int32)
COLS = RNG.standard_normal((2, 12, 20)).astype(np.float32)
COLS2 = RNG.standard_normal((1, 6, 8)).astype(np.float32)
THETA = RNG.standard_normal((2, 2, 3)).astype(np.float32)
PS = RNG.standard_normal((1, 8, 2, 3)).astype(np.float32)
PU = RNG.standard_normal((1, 2, 4, 6)).astype(np.float32)
CS = RNG.standard_normal((1, 6, 2, 2)).astype(np.float32)
GN = RNG.standard_normal((2, 4, 3)).astype(np.float32)

CASES = [
    # math: unary
    ("log1p", lambda o, T, d: o.log1p(T(POS))),
    ("expm1", lambda o, T, d: o.expm1(T(X))),
    ("acos", lambda o, T, d: o.acos(T(U))),
    ("arcsinh", lambda o, T, d: o.arcsinh(T(X))),
    ("atanh", lambda o, T, d: o.atanh(T(U - 0.5))),
    ("cosh", lambda o, T, d: o.cosh(T(X))),
    ("tan", lambda o, T, d: o.tan(T(X))),
    ("log2", lambda o, T, d: o.log2(T(POS))),
    ("log10", lambda o, T, d: o.log10(T(POS))),
    ("erfc", lambda o, T, d: o.erfc(T(X))),
    ("erfinv", lambda o, T, d: o.erfinv(T(U - 0.5))),
    ("lgamma", lambda o, T, d: o.lgamma(T(POS))),
    ("digamma", lambda o, T, d: o.digamma(T(POS))),
    ("i0", lambda o, T, d: o.i0(T(X))),
    ("bessel_i1e", lambda o, T, d: o.bessel_i1e(T(X))),
    ("bessel_j0", lambda o, T, d: o.bessel_j0(T(X * 3))),
    ("sinc", lambda o, T, d: o.sinc(T(X))),
    ("frac", lambda o, T, d: o.frac(T(X * 3))),
    ("deg2rad", lambda o, T, d: o.deg2rad(T(X * 90))),
    ("sgn", lambda o, T, d: o.sgn(T(X))),
    ("signbit", lambda o, T, d: o.signbit(T(X))),
    ("isinf", lambda o, T, d: o.isinf(T(NAN))),
    ("isneginf", lambda o, T, d: o.isneginf(T(NAN))),
    ("nan_to_num", lambda o, T, d: o.nan_to_num(T(NAN))),
    ("nan_to_num_values", lambda o, T, d: o.nan_to_num(T(NAN), 1.0, 5.0, -5.0)),
    ("logit_eps", lambda o, T, d: o.logit(T(U), eps=0.1)),
    ("tanhshrink", lambda o, T, d: o.tanhshrink(T(X))),
    ("positive", lambda o, T, d: o.positive(T(I))),
    ("invert", lambda o, T, d: o.invert(T(I))),
    # math: binary
    ("atan2", lambda o, T, d: o.atan2(T(X), T(Y))),
    ("hypot", lambda o, T, d: o.hypot(T(X), T(Y))),
    ("logaddexp", lambda o, T, d: o.logaddexp(T(X), T(Y))),
    ("logaddexp2", lambda o, T, d: o.logaddexp2(T(X), T(Y))),
    ("copysign", lambda o, T, d: o.copysign(T(X), T(Y))),
    ("fmax", lambda o, T, d: o.fmax(T(NAN), T(NAN[::-1].copy()))),
    ("gcd", lambda o, T, d: o.gcd(T(I), T(J))),
    ("lcm", lambda o, T, d: o.lcm(T(I), T(J))),
    ("ldexp", lambda o, T, d: o.ldexp(T(X), T(J))),
    ("heaviside", lambda o, T, d: o.heaviside(T(np.round(X)), T(Y))),
    ("float_power", lambda o, T, d: o.float_power(T(POS), 2.5)),
    ("xlogy", lambda o, T, d: o.xlogy(T(X), T(POS))),
    ("xdivy", lambda o, T, d: o.xdivy(T(X), T(POS))),
    ("bitwise_and", lambda o, T, d: o.bitwise_and(T(I), T(J))),
    ("bitwise_xor", lambda o, T, d: o.bitwise_xor(T(I), T(J))),
    ("bitwise_left_shift", lambda o, T, d: o.bitwise_left_shift(T(I), T(np.ones_like(J)))),
    ("logical_xor", lambda o, T, d: o.logical_xor(T(X > 0), T(Y > 0))),
    ("floor_mod", lambda o, T, d: o.floor_mod(T(I), T(J))),
    ("truncate_div", lambda o, T, d: o.truncate_div(T(I), T(J))),
    ("truncate_mod", lambda o, T, d: o.truncate_mod(T(I), T(J))),
    ("true_divide", lambda o, T, d: o.true_divide(T(I), T(J))),
    ("divide_floor", lambda o, T, d: o.divide(T(X * 5), T(POS), rounding_mode="floor")),
    ("divide_trunc", lambda o, T, d: o.divide(T(X * 5), T(POS), rounding_mode="trunc")),
    ("subtract_alpha", lambda o, T, d: o.subtract(T(X), T(Y), alpha=2)),
    ("greater_equal", lambda o, T, d: o.greater_equal(T(X), T(Y))),
    ("isclose", lambda o, T, d: o.isclose(T(X), T(X + 1e-6))),
    ("isclose_tol", lambda o, T, d: o.isclose(T(X), T(Y), rtol=0.5, atol=0.5)),
    ("isclose_nan", lambda o, T, d: o.isclose(T(NAN), T(NAN), equal_nan=True)),
    ("lerp", lambda o, T, d: o.lerp(T(X), T(Y), 0.3)),
    ("addcdiv", lambda o, T, d: o.addcdiv(T(X), T(Y), T(POS), value=T(np.float32(0.5)))),
    ("addcmul", lambda o, T, d: o.addcmul(T(X), T(Y), T(POS), value=T(np.float32(2.0)))),
    ("zeta", lambda o, T, d: o.zeta(T(POS + 1), T(POS))),
    ("igamma", lambda o, T, d: o.igamma(T(POS), T(POS + 0.3))),
    ("polygamma", lambda o, T, d: o.polygamma(T(np.int32(1)), T(POS))),
    # reductions and cumulative
    ("cumprod", lambda o, T, d: o.cumprod(T(X), 1)),
    ("cummax", lambda o, T, d: o.cummax(T(B3), 2)),
    ("cummin", lambda o, T, d: o.cummin(T(B3), 1)),
    ("logcumsumexp", lambda o, T, d: o.logcumsumexp(T(B3), 2)),
    ("nansum", lambda o, T, d: o.nansum(T(NAN[[0, 1, 4]]))),
    ("nanmean_axis", lambda o, T, d: o.nanmean(T(np.where(X > 1, np.nan, X).astype(np.float32)), 1)),
    ("median", lambda o, T, d: o.median(T(B3), 2)),
    ("median_odd_keep", lambda o, T, d: o.median(T(B3), 1, True)),
    ("std_mean", lambda o, T, d: o.std_mean(T(B3), 2)),
    ("var_mean_ddof", lambda o, T, d: o.var_mean(T(B3), (0, 2), ddof=1, keepdims=True)),
    ("diff", lambda o, T, d: o.diff(T(B3))),
    ("diff_axis_prepend", lambda o, T, d: o.diff(T(B3), 1, 1, T(B3[:, :1]))),
    ("trapz", lambda o, T, d: o.trapz(T(B3))),
    ("trapz_dx", lambda o, T, d: o.trapz(T(B3), dx=0.5, dim=1)),
    ("cov", lambda o, T, d: o.cov(T(B3[0]))),
    ("cov_correction0", lambda o, T, d: o.cov(T(B3[0]), correction=0)),
    ("addn", lambda o, T, d: o.addn([T(X), T(Y), T(X)])),
    ("vector_norm", lambda o, T, d: o.vector_norm(T(B3), 3, (1, 2))),
    ("vector_norm_inf", lambda o, T, d: o.vector_norm(T(B3), float("inf"))),
    ("matrix_norm", lambda o, T, d: o.matrix_norm(T(B3))),
    ("matrix_norm_nuc", lambda o, T, d: o.matrix_norm(T(B3), "nuc")),
    ("dist", lambda o, T, d: o.dist(T(X), T(Y), 3)),
    ("renorm", lambda o, T, d: o.renorm(T(B3), 2, 0, 1.5)),
    # construction
    ("atleast_2d", lambda o, T, d: o.atleast_2d(T(V4))),
    ("vstack", lambda o, T, d: o.vstack([T(X), T(Y)])),
    ("dstack", lambda o, T, d: o.dstack([T(X), T(Y)])),
    ("block_diag", lambda o, T, d: o.block_diag(T(X), T(V4))),
    ("cartesian_prod", lambda o, T, d: o.cartesian_prod(T(V4[:2]), T(X[0]))),
    ("combinations", lambda o, T, d: o.combinations(T(V4))),
    ("combinations_r3_repl", lambda o, T, d: o.combinations(T(V4[:3]), 3, True)),
    ("tril_indices", lambda o, T, d: o.tril_indices(4, 3, 1)),
    ("triu_indices", lambda o, T, d: o.triu_indices(3, 4, -1)),
    ("vander", lambda o, T, d: o.vander(T(V4), 3)),
    ("logspace", lambda o, T, d: o.logspace(0.0, 2.0, 5)),
    ("hann_window", lambda o, T, d: o.hann_window(6)),
    ("hann_window_sym", lambda o, T, d: o.hann_window(6, False)),
    ("kaiser_window", lambda o, T, d: o.kaiser_window(7, False, 5.0)),
    ("hamming_window", lambda o, T, d: o.hamming_window(6)),
    ("bartlett_window", lambda o, T, d: o.bartlett_window(T(np.int32(7)))),
    ("blackman_window", lambda o, T, d: o.blackman_window(T(np.int32(6)), False)),
    ("diag_embed", lambda o, T, d: o.diag_embed(T(X))),
    ("diag_embed_offset", lambda o, T, d: o.diag_embed(T(X), 1, 0, 2)),
    ("rot90", lambda o, T, d: o.rot90(T(B3), 1, [1, 2])),
    ("rot90_neg", lambda o, T, d: o.rot90(T(B3), -3, [2, 0])),
    ("kron", lambda o, T, d: o.kron(T(X), T(Y[:1, :2]))),
    # matrices
    ("t", lambda o, T, d: o.t(T(X))),
    ("mv", lambda o, T, d: o.mv(T(B3[0]), T(V4))),
    ("addmv", lambda o, T, d: o.addmv(T(X[0]), T(B3[0]), T(V4), beta=0.5, alpha=2)),
    ("addr", lambda o, T, d: o.addr(T(B3[0]), T(X[0]), T(V4))),
    ("addbmm", lambda o, T, d: o.addbmm(T(SQ), T(B3), T(B3.transpose(0, 2, 1)[:, :, :3]))),
    ("batch_dot", lambda o, T, d: o.batch_dot(T(B3), T(B3), (2, 2))),
    ("det", lambda o, T, d: o.det(T(SQ))),
    ("slogdet", lambda o, T, d: o.slogdet(T(SQ))),
    ("logdet", lambda o, T, d: o.logdet(T(SPD))),
    ("inverse", lambda o, T, d: o.inverse(T(SQ))),
    ("matrix_power", lambda o, T, d: o.matrix_power(T(SQ), 3)),
    ("matrix_solve", lambda o, T, d: o.matrix_solve(T(SQ), T(X.T.copy()))),
    ("cholesky", lambda o, T, d: o.cholesky(T(SPD))),
    ("cholesky_upper", lambda o, T, d: o.cholesky(T(SPD), upper=True)),
    ("cholesky_solve", lambda o, T, d: o.cholesky_solve(T(X.T.copy()), T(np.linalg.cholesky(SPD)))),
    ("cross", lambda o, T, d: o.cross(T(X), T(Y), 1)),
    ("bucketize", lambda o, T, d: o.bucketize(T(X), [-1.0, 0.0, 1.0])),
    ("bucketize_right", lambda o, T, d: o.bucketize(T(np.round(X)), [-1.0, 0.0, 1.0], right=True)),
    ("iou", lambda o, T, d: o.iou(T(np.array([[0, 0, 4, 4], [1, 1, 6, 5]], np.float32)),
                                  T(np.array([[2, 2, 5, 5]], np.float32)))),
    ("pinv", lambda o, T, d: o.pinv(T(B3[0]))),
    ("svd_values", lambda o, T, d: o.svd(T(B3[0]), compute_uv=False)),
    ("cond", lambda o, T, d: o.cond(T(SQ))),
    # array
    ("unstack", lambda o, T, d: o.unstack(T(B3), 1)),
    ("unbind", lambda o, T, d: o.unbind(T(B3), -1)),
    ("swapaxes", lambda o, T, d: o.swapaxes(T(B3), 0, 2)),
    ("swapdims", lambda o, T, d: o.swapdims(T(B3), -1, 1)),
    ("movedim", lambda o, T, d: o.movedim(T(B3), 0, -1)),
    ("movedim_tuple", lambda o, T, d: o.movedim(T(B3), (0, 1), (2, 0))),
    ("moveaxis", lambda o, T, d: o.moveaxis(T(B3), -1, 0)),
    ("index_select", lambda o, T, d: o.index_select(T(B3), 2, T(np.array([3, 0, 0], np.int32)))),
    ("index_fill", lambda o, T, d: o.index_fill(T(B3), 1, T(IDX), 9.0)),
    ("expand", lambda o, T, d: o.expand(T(X[:1]), T(np.array([4, 3], np.int32)))),
    ("expand_as", lambda o, T, d: o.expand_as(T(X[:1]), T(B3[:, :, :3]))),
    ("ravel", lambda o, T, d: o.ravel(T(B3))),
    ("hstack", lambda o, T, d: o.hstack([T(X), T(Y)])),
    ("hstack_1d", lambda o, T, d: o.hstack([T(V4), T(V4)])),
    ("column_stack", lambda o, T, d: o.column_stack([T(V4), T(V4 * 2)])),
    ("tensor_split", lambda o, T, d: o.tensor_split(T(SEQ), 3, 2)),
    ("tensor_split_indices", lambda o, T, d: o.tensor_split(T(SEQ), [1, 5], 2)),
    ("hsplit", lambda o, T, d: o.hsplit(T(B3), 3)),
    ("vsplit", lambda o, T, d: o.vsplit(T(B3), [1])),
    ("dsplit", lambda o, T, d: o.dsplit(T(B3), 2)),
    ("reverse", lambda o, T, d: o.reverse(T(B3), [0, 2])),
    ("reverse_sequence", lambda o, T, d: o.reverse_sequence(T(SEQ), T(np.array([3, 8], np.int32)), 2)),
    ("strided_slice", lambda o, T, d: o.strided_slice(T(B3), (0, 1, 0), (2, 3, 4), (1, 1, 2))),
    ("select_scatter", lambda o, T, d: o.select_scatter(T(B3), T(X), 2, 1)),
    ("slice_scatter", lambda o, T, d: o.slice_scatter(T(B3), T(B3[:, :, 1:4:2] * 0 + 1), 2, 1, 4, 2)),
    ("diagonal", lambda o, T, d: o.diagonal(T(B3), 1, 1, 2)),
    ("diagonal_scatter", lambda o, T, d: o.diagonal_scatter(T(B3[0]), T(np.ones(3, np.float32)), 1)),
    ("diagflat", lambda o, T, d: o.diagflat(T(X), -1)),
    ("aminmax", lambda o, T, d: o.aminmax(T(B3), axis=1)),
    ("top_k", lambda o, T, d: o.top_k(T(B3), 2)),
    ("repeat_elements", lambda o, T, d: o.repeat_elements(T(X), 2, 1)),
    ("sequence_mask", lambda o, T, d: o.sequence_mask(T(np.array([1, 3, 2], np.int32)), 4)),
    ("unique_consecutive", lambda o, T, d: o.unique_consecutive(T(np.array([1, 1, 2, 2, 3, 1, 1], np.int32)),
                                                                True, True)),
    ("range", lambda o, T, d: o.range(T(np.int32(1)), T(np.int32(10)), T(np.int32(3)))),
    ("tensor_scatter_elements", lambda o, T, d: o.tensor_scatter_elements(
        T(X), T(np.array([[2, 0], [1, 1]], np.int32)), T(np.ones((2, 2), np.float32)), 1)),
    ("tensor_scatter_elements_add", lambda o, T, d: o.tensor_scatter_elements(
        T(X), T(np.array([[1, 1, 0]], np.int32)), T(np.ones((1, 3), np.float32)), 0, "add")),
    ("tensor_scatter_add", lambda o, T, d: o.tensor_scatter_add(T(X), T(np.array([[0, 1], [0, 1]], np.int32)),
                                                                T(np.array([1.0, 2.0], np.float32)))),
    ("tensor_scatter_max", lambda o, T, d: o.tensor_scatter_max(T(X), T(np.array([[1], [0]], np.int32)),
                                                                T(np.zeros((2, 3), np.float32)))),
    ("tensor_scatter_div", lambda o, T, d: o.tensor_scatter_div(T(X), T(np.array([[1, 2]], np.int32)),
                                                                T(np.array([4.0], np.float32)))),
    ("unsorted_segment_sum", lambda o, T, d: o.unsorted_segment_sum(T(B3), T(np.array([1, 0], np.int32)), 3)),
    ("unsorted_segment_max", lambda o, T, d: o.unsorted_segment_max(T(X), T(np.array([0, 0], np.int32)), 2)),
    ("unsorted_segment_prod", lambda o, T, d: o.unsorted_segment_prod(T(X), T(np.array([1, 1], np.int32)), 2)),
    ("matrix_band_part", lambda o, T, d: o.matrix_band_part(T(B3), 1, 0)),
    ("matrix_band_part_all", lambda o, T, d: o.matrix_band_part(T(B3), -1, 1)),
    ("matrix_diag_part", lambda o, T, d: o.matrix_diag_part(T(B3), T(np.array([-1, 1], np.int32)),
                                                            T(np.float32(0.0)))),
    ("matrix_set_diag", lambda o, T, d: o.matrix_set_diag(T(B3), T(np.ones((2, 3), np.float32)))),
    ("unfold", lambda o, T, d: o.unfold(T(IMG), 2)),
    ("unfold_args", lambda o, T, d: o.unfold(T(IMG), (2, 3), 1, 1, (2, 1))),
    ("fold", lambda o, T, d: o.fold(T(COLS),
                                    T(np.array([5, 6], np.int32)), 2)),
    ("fold_args", lambda o, T, d: o.fold(T(COLS2),
                                         T(np.array([4, 5], np.int32)), (3, 1), 1, 1, (2, 2))),
    ("space_to_batch_nd", lambda o, T, d: o.space_to_batch_nd(T(IMG[:, :, :4]), [2, 3], [[0, 0], [0, 0]])),
    ("batch_to_space_nd", lambda o, T, d: o.batch_to_space_nd(T(IMG), [2, 1], [[0, 1], [1, 0]])),
    ("affine_grid", lambda o, T, d: o.affine_grid(T(THETA), (2, 1, 3, 4))),
    ("affine_grid_align", lambda o, T, d: o.affine_grid(T(THETA), (2, 1, 3, 4), True)),
    ("population_count", lambda o, T, d: o.population_count(T(np.array([0, 7, 255, 1024], np.int16)))),
    ("mvlgamma", lambda o, T, d: o.mvlgamma(T(POS + 2), 3)),
    # nn
    ("conv1d", lambda o, T, d: o.conv1d(T(SEQ), T(W1))),
    ("conv1d_pad_stride", lambda o, T, d: o.conv1d(T(SEQ), T(W1), T(V4), 2, "pad", 1, 1, 1)),
    ("conv1d_same_dil", lambda o, T, d: o.conv1d(T(SEQ), T(W1), None, 1, "same", 0, 2)),
    ("conv3d", lambda o, T, d: o.conv3d(T(VOL), T(W3.transpose(0, 1, 2, 3, 4)[:, :2]))),
    ("conv3d_pad", lambda o, T, d: o.conv3d(T(VOL), T(W3[:, :2]), None, (1, 2, 1), "pad", 1)),
    ("pixel_shuffle", lambda o, T, d: o.pixel_shuffle(T(PS), 2)),
    ("pixel_unshuffle", lambda o, T, d: o.pixel_unshuffle(T(PU), 2)),
    ("channel_shuffle", lambda o, T, d: o.channel_shuffle(T(CS), 3)),
    ("grid_sample", lambda o, T, d: o.grid_sample(T(IMG), T(GRID))),
    ("grid_sample_nearest_border", lambda o, T, d: o.grid_sample(T(IMG), T(GRID), "nearest", "border", True)),
    ("grid_sample_reflection", lambda o, T, d: o.grid_sample(T(IMG), T(GRID), "bilinear", "reflection", False)),
    ("avg_pool1d", lambda o, T, d: o.avg_pool1d(T(SEQ), 3, 2)),
    ("avg_pool1d_pad", lambda o, T, d: o.avg_pool1d(T(SEQ), 3, 2, 1, True, False)),
    ("avg_pool3d", lambda o, T, d: o.avg_pool3d(T(VOL), 2, 2)),
    ("max_pool3d", lambda o, T, d: o.max_pool3d(T(VOL), 2, 1, 1)),
    ("max_pool3d_indices", lambda o, T, d: o.max_pool3d(T(VOL), 2, 2, return_indices=True)),
    ("adaptive_avg_pool1d", lambda o, T, d: o.adaptive_avg_pool1d(T(SEQ), 4)),
    ("adaptive_max_pool1d", lambda o, T, d: o.adaptive_max_pool1d(T(SEQ), 2)),
    ("adaptive_max_pool2d", lambda o, T, d: o.adaptive_max_pool2d(T(IMG), (2, 4))),
    ("adaptive_max_pool2d_indices", lambda o, T, d: o.adaptive_max_pool2d(T(IMG), 3, True)),
    ("adaptive_avg_pool3d", lambda o, T, d: o.adaptive_avg_pool3d(T(VOL), (2, 3, 4))),
    ("lp_pool1d", lambda o, T, d: o.lp_pool1d(T(np.abs(SEQ)), 2, 3, 2)),
    ("lp_pool2d", lambda o, T, d: o.lp_pool2d(T(np.abs(IMG)), 3, 2)),
    ("group_norm", lambda o, T, d: o.group_norm(T(GN), 2,
                                                T(V4), T(V4 * 0.5))),
    ("lrn", lambda o, T, d: o.lrn(T(IMG), 1, 1.0, 0.5, 0.75)),
    ("celu", lambda o, T, d: o.celu(T(X), 0.5)),
    ("hardshrink", lambda o, T, d: o.hardshrink(T(X), 0.7)),
    ("softshrink", lambda o, T, d: o.softshrink(T(X), 0.3)),
    ("hardtanh", lambda o, T, d: o.hardtanh(T(X * 2), -0.5, 1.5)),
    ("logsigmoid", lambda o, T, d: o.logsigmoid(T(X))),
    ("softsign", lambda o, T, d: o.softsign(T(X))),
    ("softmin", lambda o, T, d: o.softmin(T(B3), 1)),
    ("threshold", lambda o, T, d: o.threshold(T(X), 0.1, 20.0)),
    ("fast_gelu", lambda o, T, d: o.fast_gelu(T(X))),
    ("mirror_pad_reflect", lambda o, T, d: o.mirror_pad(T(IMG), T(np.array([[0, 0], [0, 0], [1, 2], [2, 1]],
                                                                           np.int64)), "REFLECT")),
    ("mirror_pad_symmetric", lambda o, T, d: o.mirror_pad(T(X), T(np.array([[1, 1], [2, 0]], np.int64)),
                                                          "SYMMETRIC")),
    ("pdist", lambda o, T, d: o.pdist(T(B3[0]))),
    ("pdist_p1", lambda o, T, d: o.pdist(T(B3[0]), 1.0)),
    ("fliplr", lambda o, T, d: o.fliplr(T(B3))),
    ("msort", lambda o, T, d: o.msort(T(X))),
    # losses
    ("binary_cross_entropy", lambda o, T, d: o.binary_cross_entropy(T(U), T(LAB))),
    ("binary_cross_entropy_weight_none", lambda o, T, d: o.binary_cross_entropy(T(U), T(LAB), T(POS), "none")),
    ("huber_loss", lambda o, T, d: o.huber_loss(T(X * 2), T(Y))),
    ("huber_loss_delta_sum", lambda o, T, d: o.huber_loss(T(X * 2), T(Y), "sum", 0.5)),
    ("gaussian_nll_loss", lambda o, T, d: o.gaussian_nll_loss(T(X), T(Y), T(POS))),
    ("gaussian_nll_loss_full_none", lambda o, T, d: o.gaussian_nll_loss(T(X), T(Y), T(POS[:, :1]), True, 1e-3,
                                                                        "none")),
    ("margin_ranking_loss", lambda o, T, d: o.margin_ranking_loss(T(X[0]), T(Y[0]), T(np.array([1, -1, 1],
                                                                                              np.float32)), 0.2)),
    ("hinge_embedding_loss", lambda o, T, d: o.hinge_embedding_loss(T(X), T(np.sign(Y)), 0.5)),
    ("cosine_embedding_loss", lambda o, T, d: o.cosine_embedding_loss(T(X), T(Y), T(SIGN), 0.1)),
    ("multi_margin_loss", lambda o, T, d: o.multi_margin_loss(T(X), T(CLS.astype(np.int64)))),
    ("multi_margin_loss_p2_w", lambda o, T, d: o.multi_margin_loss(T(X), T(CLS.astype(np.int64)), 2, 2, T(POS[0]), "sum")),
    ("multilabel_soft_margin_loss", lambda o, T, d: o.multilabel_soft_margin_loss(T(X), T(LAB))),
    ("ctc_loss", lambda o, T, d: o.ctc_loss(T(np.log(_softmax(RNG_CTC))), T(np.array([[1, 2, 2], [1, 3, 0]],
                                                                                       np.int32)),
                                            T(np.array([6, 5], np.int32)), T(np.array([3, 2], np.int32)))[0]),
    ("ctc_loss_none", lambda o, T, d: o.ctc_loss(T(np.log(_softmax(RNG_CTC))), T(np.array([[1, 2, 2], [1, 3, 0]],
                                                                                            np.int32)),
                                                 T(np.array([6, 5], np.int32)), T(np.array([3, 2], np.int32)),
                                                 reduction="none")[0]),
    # clip, fft, image, parameter
    ("clip", lambda o, T, d: o.clip(T(X), -0.5, 0.5)),
    ("clip_by_norm", lambda o, T, d: o.clip_by_norm(T(X), 1.0)),
    ("fft", lambda o, T, d: o.fft(T(SEQ))),
    ("rfft_n_ortho", lambda o, T, d: o.rfft(T(SEQ), 6, 1, "ortho")),
    ("ifft2", lambda o, T, d: o.ifft2(T(B3))),
    ("fftn_s", lambda o, T, d: o.fftn(T(B3), (2, 3))),
    ("irfft", lambda o, T, d: o.irfft(o.rfft(T(SEQ)))),
    ("hfft", lambda o, T, d: o.hfft(o.fft(T(SEQ)), 8)),
    ("fftshift", lambda o, T, d: o.fftshift(T(SEQ), 2)),
    ("fftfreq", lambda o, T, d: o.fftfreq(7, 0.5)),
    ("bounding_box_encode", lambda o, T, d: o.bounding_box_encode(
        T(np.array([[0, 0, 4, 4], [1, 2, 6, 5]], np.float32)), T(np.array([[1, 1, 5, 6], [0, 2, 7, 4]], np.float32)),
        (0.0, 0.0, 0.0, 0.0), (0.1, 0.1, 0.2, 0.2))),
    ("bounding_box_decode", lambda o, T, d: o.bounding_box_decode(
        T(np.array([[0, 0, 4, 4], [1, 2, 6, 5]], np.float32)), T(X[:, :2].repeat(2, 1) * 0.3), (8, 8),
        (0.0, 0.0, 0.0, 0.0), (0.1, 0.1, 0.2, 0.2))),
    ("check_valid", lambda o, T, d: o.check_valid(T(np.array([[0, 0, 4, 4], [1, 2, 16, 5]], np.float32)),
                                                  T(np.array([8, 10, 1], np.float32)))),
]


def _softmax(x):
    e = np.exp(x - x.max(-1, keepdims=True))
    return (e / e.sum(-1, keepdims=True)).astype(np.float32)


RNG_CTC = RNG.standard_normal((6, 2, 4)).astype(np.float32)


def _to_numpy(value):
    if isinstance(value, (tuple, list)):
        return [_to_numpy(v) for v in value]
    return value.asnumpy() if hasattr(value, "asnumpy") else np.asarray(value)


def _assert_same(expected, got, name):
    if isinstance(expected, list):
        assert isinstance(got, list) and len(got) == len(expected), f"{name}: {len(got)} outputs, expected " \
                                                                     f"{len(expected)}"
        for i, (e, g) in enumerate(zip(expected, got)):
            _assert_same(e, g, f"{name}[{i}]")
        return
    expected, got = np.asarray(expected), np.asarray(got)
    assert got.shape == expected.shape, f"{name}: {got.shape} != {expected.shape}"
    kinds = {"i": "iu", "u": "iu"}.get(expected.dtype.kind, expected.dtype.kind)
    assert got.dtype.kind in kinds, f"{name}: {got.dtype} vs {expected.dtype}"
    if expected.dtype.kind == "c":
        np.testing.assert_allclose(got, expected, rtol=1e-4, atol=1e-4, err_msg=name)
    else:
        np.testing.assert_allclose(got.astype(np.float64), expected.astype(np.float64), rtol=1e-4, atol=1e-5,
                                   err_msg=name)

def _mindspore_side(run):
    # MindSpore 2.10's CPU kernels (SearchSorted, FloorDiv) now and then fail on valid inputs late in a
    # long process ("the dimension of `v` 24 and the dimension of output 24"); the same call then
    # usually succeeds. When it keeps failing, the reference cannot run: the case is skipped.
    for attempt in range(3):
        try:
            return run()
        except RuntimeError as exc:
            if "C++ Call Stack" not in str(exc):
                raise
            if attempt == 2:
                pytest.skip(f"MindSpore's CPU kernel failed on a valid input: {str(exc).splitlines()[0]}")



@pytest.mark.parametrize("name,case", CASES, ids=[c[0] for c in CASES])
def test_function_op_matches_mindspore(name, case):
    expected = _mindspore_side(lambda: _to_numpy(case(ms_ops, mindspore.Tensor, mindspore)))
    got = _to_numpy(case(mj_ops, mindjax.Tensor, mindjax))
    _assert_same(expected, got, name)
