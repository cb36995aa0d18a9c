"""Functional ops agree with numpy references, eagerly and under jax.jit."""
import jax
import jax.numpy as jnp
import numpy as np
import pytest

import mindjax as ms
from mindjax import ops

RNG = np.random.default_rng(0)
X = RNG.standard_normal((2, 3)).astype(np.float32)
Y = RNG.standard_normal((2, 3)).astype(np.float32)
POS = np.abs(X) + 0.5
M = RNG.standard_normal((3, 4)).astype(np.float32)
B3 = RNG.standard_normal((2, 3, 4)).astype(np.float32)
C3 = RNG.standard_normal((2, 4, 5)).astype(np.float32)
IDX = np.array([2, 0], np.int32)


def _softmax(x, axis=-1):
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


def _erf(x):
    from math import erf
    return np.vectorize(erf)(x)


# (id, fn taking arrays, array args, numpy reference)
CASES = [
    ("matmul", ops.matmul, (X, M), lambda a, b: a @ b),
    ("matmul_vec", ops.matmul, (X, M[:, 0]), lambda a, b: a @ b),
    ("bmm", ops.bmm, (B3, C3), lambda a, b: a @ b),
    ("mm", ops.mm, (X, M), lambda a, b: a @ b),
    ("add", ops.add, (X, Y), np.add),
    ("add_scalar", lambda a: ops.add(a, 2.0), (X,), lambda a: a + 2.0),
    ("sub", ops.sub, (X, Y), np.subtract),
    ("mul", ops.mul, (X, Y), np.multiply),
    ("div", ops.div, (X, POS), np.divide),
    ("div_floor", lambda a, b: ops.div(a, b, rounding_mode="floor"), (X * 4, POS), lambda a, b: np.floor(a / b)),
    ("div_trunc", lambda a, b: ops.div(a, b, rounding_mode="trunc"), (X * 4, POS), lambda a, b: np.trunc(a / b)),
    ("neg", ops.neg, (X,), np.negative),
    ("abs", ops.abs, (X,), np.abs),
    ("exp", ops.exp, (X,), np.exp),
    ("log", ops.log, (POS,), np.log),
    ("sqrt", ops.sqrt, (POS,), np.sqrt),
    ("rsqrt", ops.rsqrt, (POS,), lambda a: 1 / np.sqrt(a)),
    ("square", ops.square, (X,), np.square),
    ("pow", ops.pow, (POS, Y), np.power),
    ("maximum", ops.maximum, (X, Y), np.maximum),
    ("minimum", ops.minimum, (X, Y), np.minimum),
    ("relu", ops.relu, (X,), lambda a: np.maximum(a, 0)),
    ("relu6", ops.relu6, (X * 10,), lambda a: np.clip(a, 0, 6)),
    ("gelu", ops.gelu, (X,), lambda a: 0.5 * a * (1 + _erf(a / np.sqrt(2)))),
    ("gelu_tanh", lambda a: ops.gelu(a, "tanh"), (X,),
     lambda a: 0.5 * a * (1 + np.tanh(np.sqrt(2 / np.pi) * (a + 0.044715 * a ** 3)))),
    ("sigmoid", ops.sigmoid, (X,), lambda a: 1 / (1 + np.exp(-a))),
    ("tanh", ops.tanh, (X,), np.tanh),
    ("softmax", ops.softmax, (X,), _softmax),
    ("softmax_axis0", lambda a: ops.softmax(a, 0), (X,), lambda a: _softmax(a, 0)),
    ("log_softmax", ops.log_softmax, (X,), lambda a: np.log(_softmax(a))),
    ("silu", ops.silu, (X,), lambda a: a / (1 + np.exp(-a))),
    ("leaky_relu", ops.leaky_relu, (X,), lambda a: np.where(a >= 0, a, 0.2 * a)),
    ("elu", ops.elu, (X,), lambda a: np.where(a > 0, a, np.exp(a) - 1)),
    ("softplus", lambda a: ops.softplus(a * 10, 2, 5), (X,),
     lambda a: np.where(a * 20 > 5, a * 10, np.log1p(np.exp(a * 20)) / 2)),
    ("reshape", lambda a: ops.reshape(a, (3, -1)), (X,), lambda a: a.reshape(3, -1)),
    ("transpose", lambda a: ops.transpose(a, (2, 0, 1)), (B3,), lambda a: a.transpose(2, 0, 1)),
    ("permute", lambda a: ops.permute(a, (1, 0)), (X,), lambda a: a.T),
    ("concat", lambda a, b: ops.concat((a, b), 1), (X, Y), lambda a, b: np.concatenate((a, b), 1)),
    ("cat", lambda a, b: ops.cat([a, b]), (X, Y), lambda a, b: np.concatenate((a, b))),
    ("stack", lambda a, b: ops.stack([a, b], -1), (X, Y), lambda a, b: np.stack((a, b), -1)),
    ("squeeze", lambda a: ops.squeeze(a[None, :, None]), (X,), lambda a: a),
    ("squeeze_keeps_non_one", lambda a: ops.squeeze(a[None], (0, 1)), (X,), lambda a: a),
    ("expand_dims", lambda a: ops.expand_dims(a, -1), (X,), lambda a: a[..., None]),
    ("unsqueeze", lambda a: ops.unsqueeze(a, 0), (X,), lambda a: a[None]),
    ("flatten", ops.flatten, (B3,), lambda a: a.reshape(2, -1)),
    ("flatten_all", lambda a: ops.flatten(a, start_dim=0), (B3,), lambda a: a.reshape(-1)),
    ("gather", lambda a, i: ops.gather(a, i, 1), (X, IDX), lambda a, i: a[:, i]),
    ("gather_batch", lambda a, i: ops.gather(a, i, 1, batch_dims=1), (X, np.array([[0, 2], [1, 1]])),
     lambda a, i: np.take_along_axis(a, i, 1)),
    ("gather_elements", lambda a, i: ops.gather_elements(a, 1, i), (X, np.array([[0, 0], [2, 1]])),
     lambda a, i: np.take_along_axis(a, i, 1)),
    ("gather_nd", ops.gather_nd, (X, np.array([[0, 1], [1, 2]])), lambda a, i: a[i[:, 0], i[:, 1]]),
    ("scatter_nd", lambda i, u: ops.scatter_nd(i, u, (4,)), (np.array([[0], [0], [3]]), np.array([1., 2., 5.], np.float32)),
     lambda i, u: np.array([3., 0., 0., 5.])),
    ("tile", lambda a: ops.tile(a, (2, 1, 2)), (X,), lambda a: np.tile(a, (2, 1, 2))),
    ("broadcast_to", lambda a: ops.broadcast_to(a[0], (4, -1)), (X,), lambda a: np.broadcast_to(a[0], (4, 3))),
    ("sum", ops.sum, (X,), np.sum),
    ("sum_dim_keep", lambda a: ops.sum(a, 1, True), (X,), lambda a: a.sum(1, keepdims=True)),
    ("mean", lambda a: ops.mean(a, (0, 1)), (B3,), lambda a: a.mean((0, 1))),
    ("prod", lambda a: ops.prod(a, 1, True), (X,), lambda a: a.prod(1, keepdims=True)),
    ("amax", lambda a: ops.amax(a, 1), (X,), lambda a: a.max(1)),
    ("amin", ops.amin, (X,), np.min),
    ("max_values", lambda a: ops.max(a, 1)[0], (X,), lambda a: a.max(1)),
    ("max_indices", lambda a: ops.max(a, 1)[1], (X,), lambda a: a.argmax(1)),
    ("min_keepdims", lambda a: ops.min(a, 0, True)[1], (X,), lambda a: a.argmin(0)[None]),
    ("argmax", ops.argmax, (X,), np.argmax),
    ("argmax_dim", lambda a: ops.argmax(a, 1, True), (X,), lambda a: a.argmax(1)[:, None]),
    ("argmin", lambda a: ops.argmin(a, 0), (X,), lambda a: a.argmin(0)),
    ("topk_values", lambda a: ops.topk(a, 2)[0], (X,), lambda a: -np.sort(-a, 1)[:, :2]),
    ("topk_smallest", lambda a: ops.topk(a, 2, dim=0, largest=False)[1], (X,), lambda a: np.argsort(a, 0)[:2]),
    ("sort", lambda a: ops.sort(a, 0)[0], (X,), lambda a: np.sort(a, 0)),
    ("sort_desc_idx", lambda a: ops.sort(a, descending=True)[1], (X,), lambda a: np.argsort(-a, 1)),
    ("cumsum", lambda a: ops.cumsum(a, 1), (X,), lambda a: np.cumsum(a, 1)),
    ("one_hot", lambda i: ops.one_hot(i, 4, 5.0, -1.0), (IDX,), lambda i: np.where(np.eye(4)[i] > 0, 5., -1.)),
    ("one_hot_axis0", lambda i: ops.one_hot(i, 3, 1.0, 0.0, 0), (IDX,), lambda i: np.eye(3)[i].T),
    ("cast", lambda a: ops.cast(a * 3, ms.int32), (X,), lambda a: (a * 3).astype(np.int32)),
    ("zeros_like", ops.zeros_like, (X,), np.zeros_like),
    ("ones_like", ops.ones_like, (X,), np.ones_like),
    ("where", lambda a, b: ops.where(a > 0, a, b), (X, Y), lambda a, b: np.where(a > 0, a, b)),
    ("select", lambda a, b: ops.select(a > b, a, 0.0), (X, Y), lambda a, b: np.where(a > b, a, 0.)),
    ("clip_by_value", lambda a: ops.clip_by_value(a, -0.5, 0.5), (X,), lambda a: np.clip(a, -0.5, 0.5)),
    ("clamp", lambda a: ops.clamp(a, max=0.1), (X,), lambda a: np.minimum(a, 0.1)),
    ("clip_by_global_norm", lambda a, b: ops.clip_by_global_norm((a, b), 1.0)[1], (X, Y),
     lambda a, b: b / max(np.sqrt((a ** 2).sum() + (b ** 2).sum()), 1.0)),
    ("norm", ops.norm, (X,), lambda a: np.sqrt((a ** 2).sum())),
    ("norm_dim", lambda a: ops.norm(a, 1, 1), (X,), lambda a: np.abs(a).sum(1)),
    ("l2_normalize", lambda a: ops.l2_normalize(a, 1), (X,),
     lambda a: a / np.sqrt(np.maximum((a ** 2).sum(1, keepdims=True), 1e-4))),
    ("equal", lambda a: ops.equal(a, a[0]), (X,), lambda a: a == a[0]),
    ("not_equal", ops.not_equal, (X, Y), np.not_equal),
    ("greater", ops.greater, (X, Y), np.greater),
    ("less", ops.less, (X, Y), np.less),
    ("logical_and", lambda a, b: ops.logical_and(a > 0, b > 0), (X, Y), lambda a, b: (a > 0) & (b > 0)),
    ("logical_or", lambda a, b: ops.logical_or(a > 0, b > 0), (X, Y), lambda a, b: (a > 0) | (b > 0)),
    ("logical_not", lambda a: ops.logical_not(a > 0), (X,), lambda a: a <= 0),
    ("isnan", lambda a: ops.isnan(ops.log(a)), (X,), lambda a: a < 0),
    ("isfinite", lambda a: ops.isfinite(ops.div(a, 0.0)), (X,), lambda a: np.zeros(a.shape, bool)),
    ("masked_fill", lambda a: ops.masked_fill(a, a > 0, 9.0), (X,), lambda a: np.where(a > 0, 9., a)),
    ("stop_gradient", ops.stop_gradient, (X,), lambda a: a),
    ("dense", ops.dense, (X, M.T, M[0]), lambda a, w, b: a @ w.T + b),
    ("dot", ops.dot, (B3, C3[0]), np.dot),
    ("tensor_dot", lambda a, b: ops.tensor_dot(a, b, ((1, 2), (0, 1))), (B3, B3[0]),
     lambda a, b: np.tensordot(a, b, ((1, 2), (0, 1)))),
    ("einsum", lambda a, b: ops.einsum("bij,bjk->bik", a, b), (B3, C3), lambda a, b: a @ b),
    ("layer_norm", lambda a: ops.layer_norm(a, (4,), np.full(4, 2., np.float32), np.ones(4, np.float32)), (B3,),
     lambda a: 2 * (a - a.mean(-1, keepdims=True)) / np.sqrt(a.var(-1, keepdims=True) + 1e-5) + 1),
    ("batch_norm_eval", lambda a: ops.batch_norm(a, np.ones(3, np.float32), np.full(3, 4., np.float32),
                                                 np.ones(3, np.float32), np.zeros(3, np.float32)), (X,),
     lambda a: (a - 1) / np.sqrt(4 + 1e-5)),
    ("batch_norm_train", lambda a: ops.batch_norm(a, np.zeros(3, np.float32), np.ones(3, np.float32),
                                                  np.ones(3, np.float32), np.zeros(3, np.float32), training=True),
     (X,), lambda a: (a - a.mean(0)) / np.sqrt(a.var(0) + 1e-5)),
    ("pad", lambda a: ops.pad(a, (1, 2, 0, 1), value=7.0), (X,),
     lambda a: np.pad(a, ((0, 1), (1, 2)), constant_values=7.)),
    ("pad_crop", lambda a: ops.pad(a, (-1, 1)), (X,), lambda a: np.pad(a, ((0, 0), (0, 1)))[:, 1:]),
    ("pad_reflect", lambda a: ops.pad(a, (2, 1), mode="reflect"), (X,), lambda a: np.pad(a, ((0, 0), (2, 1)), "reflect")),
    ("pad_replicate", lambda a: ops.pad(a, (1, 1), mode="replicate"), (X,), lambda a: np.pad(a, ((0, 0), (1, 1)), "edge")),
    ("pad_circular", lambda a: ops.pad(a, (1, 1), mode="circular"), (X,), lambda a: np.pad(a, ((0, 0), (1, 1)), "wrap")),
    ("mse_loss", ops.mse_loss, (X, Y), lambda a, b: ((a - b) ** 2).mean()),
    ("l1_loss", lambda a, b: ops.l1_loss(a, b, "sum"), (X, Y), lambda a, b: np.abs(a - b).sum()),
    ("smooth_l1_loss", ops.smooth_l1_loss, (X * 2, Y), lambda a, b: np.where(
        np.abs(a - b) < 1, 0.5 * (a - b) ** 2, np.abs(a - b) - 0.5)),
    ("bce_with_logits", lambda a, b: ops.binary_cross_entropy_with_logits(a, b), (X, 1 / (1 + np.exp(-Y))),
     lambda a, t: np.mean(-(t * np.log(1 / (1 + np.exp(-a))) + (1 - t) * np.log(1 - 1 / (1 + np.exp(-a)))))),
    # cross_entropy takes Tensors or jax arrays only, as MindSpore (which rejects numpy there).
    ("cross_entropy", lambda a, t: ops.cross_entropy(ms.Tensor(a), ms.Tensor(t)), (X, IDX),
     lambda a, t: -np.mean(np.log(_softmax(a))[np.arange(2), t])),
    ("cross_entropy_probs", lambda a, t: ops.cross_entropy(ms.Tensor(a), ms.Tensor(t)), (X, _softmax(Y)),
     lambda a, t: -np.mean((np.log(_softmax(a)) * t).sum(1))),
    ("nll_loss_weight", lambda a, t: ops.nll_loss(a, t, weight=np.array([1., 2., 3.], np.float32)), (X, IDX),
     lambda a, t: -(a[0, 2] * 3 + a[1, 0] * 1) / 4),
]


@pytest.mark.parametrize("name,fn,args,ref", CASES, ids=[c[0] for c in CASES])
def test_functional_op_matches_numpy_eager_and_jit(name, fn, args, ref):
    expected = np.asarray(ref(*[np.asarray(a, np.float64) if np.asarray(a).dtype == np.float32 else a
                                for a in args]))
    eager = np.asarray(fn(*args))
    traced = np.asarray(jax.jit(fn)(*[jnp.asarray(a) for a in args]))
    assert eager.shape == expected.shape
    np.testing.assert_allclose(eager, expected, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(traced, eager, rtol=1e-6, atol=1e-6)


def test_ops_accept_parameters_numpy_and_python_scalars():
    w = ms.Parameter(ms.Tensor(X), name="w")
    np.testing.assert_allclose(np.asarray(ops.matmul(w, M)), X @ M, rtol=1e-5)
    np.testing.assert_allclose(np.asarray(ops.gather(w, IDX, 1)), X[:, IDX])
    np.testing.assert_allclose(np.asarray(ops.conv2d(w[None, None], np.ones((1, 1, 1, 1), np.float32))), X[None, None])
    assert float(ops.add(2.0, 3)) == 5.0
    assert ops.mul(np.float16(2) * np.ones(2, np.float16), 3.0).dtype == jnp.float16


def test_split_takes_a_size_or_a_list_of_sizes():
    parts = ops.split(np.arange(5.0), 2)
    assert [p.tolist() for p in parts] == [[0, 1], [2, 3], [4]]
    parts = ops.split(np.arange(10.0).reshape(2, 5), [1, 4], axis=1)
    assert [p.shape for p in parts] == [(2, 1), (2, 4)]
    assert [p.shape for p in ops.chunk(np.arange(6.0), 4)] == [(2,), (2,), (2,)]


def test_max_returns_values_and_indices_and_mean_of_ints_stays_int():
    values, indices = ops.max(np.array([[1., 5.], [4., 2.]]), 1)
    assert values.tolist() == [5.0, 4.0] and indices.tolist() == [1, 0]
    value, index = ops.max(np.array([[1., 5.], [7., 2.]]))
    assert float(value) == 7.0 and int(index) == 2
    assert ops.mean(np.array([1, 2], np.int32)).dtype == jnp.int32


def test_creation_ops_use_mindspore_default_dtypes():
    assert ops.zeros(3).dtype == jnp.float32 and ops.zeros((2, 3)).shape == (2, 3)
    assert ops.ones((2,), ms.int32).tolist() == [1, 1]
    assert ops.fill(ms.float32, (2,), 3).tolist() == [3.0, 3.0]
    assert jnp.issubdtype(ops.full((2,), 3).dtype, jnp.integer)
    assert ops.full((2,), 1.5, dtype=ms.float32).tolist() == [1.5, 1.5]
    assert jnp.issubdtype(ops.arange(5).dtype, jnp.integer) and ops.arange(5).tolist() == list(range(5))
    assert ops.arange(0, 1, 0.25).tolist() == [0.0, 0.25, 0.5, 0.75]
    np.testing.assert_allclose(np.asarray(ops.linspace(0, 1, 5)), np.linspace(0, 1, 5))
    assert ops.eye(2, 3).tolist() == [[1, 0, 0], [0, 1, 0]] and ops.eye(2).dtype == jnp.float32
    assert ops.one_hot(np.array([1]), 2).tolist() == [[0, 1]]


def test_shape_size_rank_numel_are_python_ints():
    assert ops.shape(B3) == (2, 3, 4)
    assert ops.size(B3) == 24 and ops.numel(B3) == 24
    assert ops.rank(B3) == 3


def test_cross_entropy_handles_weight_ignore_index_and_label_smoothing():
    logits = ms.Tensor(np.array([[1., 2., 0.5], [0.1, 0.2, 3.]], np.float32))
    labels = ms.Tensor(np.array([1, 2], np.int32))
    # Values measured on mindspore 2.10.
    assert float(ops.cross_entropy(logits, labels)) == pytest.approx(0.2870, abs=1e-4)
    smoothed = ops.cross_entropy(logits, labels, reduction="none", label_smoothing=0.1)
    np.testing.assert_allclose(np.asarray(smoothed), [0.5477, 0.2996], atol=1e-4)
    weighted = ops.cross_entropy(logits, labels, weight=ms.Tensor(np.array([1., 2., 3.], np.float32)))
    assert float(weighted) == pytest.approx(0.2515, abs=1e-4)
    ignored = ops.cross_entropy(logits, ms.Tensor(np.array([1, -100], np.int32)))
    assert float(ignored) == pytest.approx(0.4644, abs=1e-4)


@pytest.mark.parametrize("args, kwargs, message", [
    ((np.ones((3, 5), np.float32), "T", "W"), {}, "'input' must be a Tensor, got ndarray"),
    (("X", np.zeros(3, np.int32), "W"), {}, "'target' must be a Tensor, got ndarray"),
    (("X", "T", np.ones(5)), {}, "'weight' must be a Tensor, got ndarray"),
    (("XI", "T", "W"), {}, "'input' must have a floating-point dtype"),
    (("X", "T", "W"), {"ignore_index": "1"}, "'ignore_index' must be an int, got str"),
    (("X", "T", "W"), {"label_smoothing": "0.5"}, "'label_smoothing' must be a float, got str"),
])
def test_cross_entropy_rejects_what_mindspore_rejects_with_type_errors(args, kwargs, message):
    known = {"X": ms.Tensor(np.ones((3, 5), np.float32)), "XI": ms.Tensor(np.ones((3, 5), np.int32)),
             "T": ms.Tensor(np.zeros(3, np.int32)), "W": ms.Tensor(np.ones(5, np.float32))}
    args = [known[a] if isinstance(a, str) else a for a in args]
    with pytest.raises(TypeError, match=f"For 'cross_entropy', {message}"):
        ops.cross_entropy(*args, **kwargs)


def test_batch_norm_updates_parameter_running_stats_in_training():
    x = np.array([[1., 5., 3.], [4., 2., 6.]], np.float32)
    mean = ms.Parameter(ms.Tensor(np.zeros(3, np.float32)), name="mean")
    var = ms.Parameter(ms.Tensor(np.ones(3, np.float32)), name="var")
    ops.batch_norm(x, mean, var, np.ones(3, np.float32), np.zeros(3, np.float32), training=True)
    np.testing.assert_allclose(mean.asnumpy(), [0.25, 0.35, 0.45], rtol=1e-6)
    np.testing.assert_allclose(var.asnumpy(), [1.35, 1.35, 1.35], rtol=1e-6)


def test_assign_writes_the_parameter_and_returns_the_new_value():
    p = ms.Parameter(ms.Tensor(np.zeros(2, np.float32)), name="p")
    out = ops.assign(p, np.array([1.0, 2.0]))
    assert out.tolist() == [1.0, 2.0] and p.asnumpy().tolist() == [1.0, 2.0]
    assert p.dtype == jnp.float32
    assert ops.depend(out, ops.assign(p, out * 2)) is out


def test_assign_never_changes_the_variable_dtype_as_mindspore():
    p = ms.Parameter(ms.Tensor(np.zeros((), np.float32)), name="p", requires_grad=False)
    ops.assign(p, ms.Tensor(3, ms.uint8))  # uint8 promotes to float32: cast
    assert p.dtype == jnp.float32 and float(p.asnumpy()) == 3.0
    with pytest.raises(TypeError, match=r"For 'assign': Data type conversion is not supported for a 'Parameter'.* "
                                        r"data type Float32, which cannot be converted to data type Float64"):
        ops.assign(p, ms.Tensor(np.ones((), np.float64)))
    small = ms.Tensor(2, ms.int8)
    with pytest.raises(TypeError, match=r"data type Int8, which cannot be converted to data type Int16"):
        ops.assign(small, ms.Tensor(3, ms.uint8))
    ops.assign(small, ms.Tensor(5, ms.int8))  # a plain Tensor is mutable, as in MindSpore
    assert int(small.asnumpy()) == 5 and small.dtype == jnp.int8


def test_assign_inside_ms_jit_writes_back():
    p = ms.Parameter(ms.Tensor(np.zeros(2, np.float32)), name="p")

    @ms.jit
    def step(x):
        return ops.assign(p, p + x)

    step(np.ones(2, np.float32))
    step(np.ones(2, np.float32))
    assert p.asnumpy().tolist() == [2.0, 2.0]


def test_print_works_eagerly_and_under_jit(capfd):
    ops.print_("value:", np.array([1.0, 2.0]))
    jax.jit(lambda a: ops.print_(a) or a)(np.array([3.0]))
    jax.effects_barrier()
    out = capfd.readouterr().out
    assert "value:" in out and "[1. 2.]" in out and "[3.]" in out


def test_gather_d_with_a_smaller_index_reads_the_leading_rows_as_mindspore():
    x = ms.Tensor(np.arange(6, dtype=np.float32).reshape(3, 2))
    assert ops.gather_d(x, 1, ms.Tensor(np.array([[1]], np.int32))).asnumpy().tolist() == [[1.0]]
    assert ops.gather_elements(x, 0, ms.Tensor(np.array([[2]], np.int32))).asnumpy().tolist() == [[4.0]]
    with pytest.raises(ValueError, match=r"For 'gather_d', 'index' shape \(4, 1\) must not exceed the input shape"):
        ops.gather_d(x, 1, ms.Tensor(np.zeros((4, 1), np.int32)))


def test_graph_sequence_helpers_build_and_index_python_sequences():
    from mindjax.ops import functional as F

    pair = F.make_tuple(1, "a")
    assert pair == (1, "a") and F.tuple_getitem(pair, -1) == "a"
    assert F.tuple_setitem(pair, 0, 5) == (5, "a") and F.list_setitem([1, 2], 1, 3) == [1, 3]
    assert F.make_list(1, 2) == [1, 2] and F.list_getitem([1, 2], 0) == 1 and F.dict_getitem({"k": 2}, "k") == 2
    with pytest.raises(IndexError, match=r"For 'TupleGetItem', 'index' should be in range\[-2, 2\), but got 5"):
        F.tuple_getitem(pair, 5)
