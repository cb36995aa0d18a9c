"""Primitive classes: MindSpore calling conventions, values, shard() recording and validation."""
import jax
import jax.numpy as jnp
import numpy as np
import pytest

import mindjax as ms
from mindjax import ops

RNG = np.random.default_rng(2)
X = RNG.standard_normal((2, 3)).astype(np.float32)
Y = RNG.standard_normal((2, 3)).astype(np.float32)
B3 = RNG.standard_normal((2, 3, 4)).astype(np.float32)
IMG = RNG.standard_normal((1, 2, 4, 4)).astype(np.float32)


def _softmax(x, axis=-1):
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


CASES = [
    ("MatMul", lambda a, b: ops.MatMul(transpose_b=True)(a, b), (X, Y), lambda a, b: a @ b.T),
    ("MatMul_ta", lambda a, b: ops.MatMul(transpose_a=True)(a, b), (X, Y), lambda a, b: a.T @ b),
    ("BatchMatMul", lambda a: ops.BatchMatMul(transpose_b=True)(a, a), (B3,), lambda a: a @ a.transpose(0, 2, 1)),
    ("Add", lambda a, b: ops.Add()(a, b), (X, Y), np.add),
    ("Sub", lambda a, b: ops.Sub()(a, b), (X, Y), np.subtract),
    ("Mul", lambda a, b: ops.Mul()(a, b), (X, Y), np.multiply),
    ("Div", lambda a, b: ops.Div()(a, b), (X, Y), np.divide),
    ("RealDiv", lambda a: ops.RealDiv()(a, 2.0), (X,), lambda a: a / 2),
    ("Neg", lambda a: ops.Neg()(a), (X,), np.negative),
    ("Pow", lambda a: ops.Pow()(a, 3.0), (X,), lambda a: a ** 3),
    ("Exp", lambda a: ops.Exp()(a), (X,), np.exp),
    ("Log", lambda a: ops.Log()(a), (np.abs(X) + 1,), np.log),
    ("Sqrt", lambda a: ops.Sqrt()(a), (np.abs(X),), np.sqrt),
    ("Square", lambda a: ops.Square()(a), (X,), np.square),
    ("Abs", lambda a: ops.Abs()(a), (X,), np.abs),
    ("Maximum", lambda a, b: ops.Maximum()(a, b), (X, Y), np.maximum),
    ("Minimum", lambda a, b: ops.Minimum()(a, b), (X, Y), np.minimum),
    ("ReLU", lambda a: ops.ReLU()(a), (X,), lambda a: np.maximum(a, 0)),
    ("ReLU6", lambda a: ops.ReLU6()(a * 10), (X,), lambda a: np.clip(a * 10, 0, 6)),
    ("GeLU", lambda a: ops.GeLU()(a), (X,), lambda a: 0.5 * a * (1 + np.tanh(np.sqrt(2 / np.pi) * (a + 0.044715 * a ** 3)))),
    ("Sigmoid", lambda a: ops.Sigmoid()(a), (X,), lambda a: 1 / (1 + np.exp(-a))),
    ("Tanh", lambda a: ops.Tanh()(a), (X,), np.tanh),
    ("Softmax", lambda a: ops.Softmax(0)(a), (X,), lambda a: _softmax(a, 0)),
    ("LogSoftmax", lambda a: ops.LogSoftmax()(a), (X,), lambda a: np.log(_softmax(a))),
    ("ReduceSum", lambda a: ops.ReduceSum()(a), (B3,), np.sum),
    ("ReduceSum_keep", lambda a: ops.ReduceSum(keep_dims=True)(a, (0, 2)), (B3,), lambda a: a.sum((0, 2), keepdims=True)),
    ("ReduceMean", lambda a: ops.ReduceMean()(a, 1), (B3,), lambda a: a.mean(1)),
    ("ReduceMax", lambda a: ops.ReduceMax(True)(a, -1), (B3,), lambda a: a.max(-1, keepdims=True)),
    ("ReduceMin", lambda a: ops.ReduceMin()(a, 0), (B3,), lambda a: a.min(0)),
    ("ReduceProd", lambda a: ops.ReduceProd()(a, 1), (X,), lambda a: a.prod(1)),
    ("Reshape", lambda a: ops.Reshape()(a, (4, -1)), (B3,), lambda a: a.reshape(4, -1)),
    ("Transpose", lambda a: ops.Transpose()(a, (2, 0, 1)), (B3,), lambda a: a.transpose(2, 0, 1)),
    ("Cast", lambda a: ops.Cast()(a * 3, ms.int32), (X,), lambda a: (a * 3).astype(np.int32)),
    ("Gather", lambda a: ops.Gather()(a, jnp.array([2, 0]), 1), (X,), lambda a: a[:, [2, 0]]),
    ("GatherV2", lambda a: ops.GatherV2()(a, jnp.array([1]), 0), (X,), lambda a: a[[1]]),
    ("OneHot", lambda: ops.OneHot()(jnp.array([0, 2]), 3, 1.0, 0.0), (), lambda: np.eye(3)[[0, 2]]),
    ("Concat", lambda a, b: ops.Concat(1)((a, b)), (X, Y), lambda a, b: np.concatenate((a, b), 1)),
    ("Stack", lambda a, b: ops.Stack(1)([a, b]), (X, Y), lambda a, b: np.stack((a, b), 1)),
    ("Split", lambda a: ops.Split(1, 3)(a)[2], (X,), lambda a: a[:, 2:]),
    ("Squeeze", lambda a: ops.Squeeze(0)(a[None]), (X,), lambda a: a),
    ("ExpandDims", lambda a: ops.ExpandDims()(a, 1), (X,), lambda a: a[:, None]),
    ("Tile", lambda a: ops.Tile()(a, (2, 2)), (X,), lambda a: np.tile(a, (2, 2))),
    ("Zeros", lambda: ops.Zeros()((2, 2), ms.float32), (), lambda: np.zeros((2, 2))),
    ("Ones", lambda: ops.Ones()(3, ms.float32), (), lambda: np.ones(3)),
    ("Fill", lambda: ops.Fill()(ms.float32, (2,), 4), (), lambda: np.full(2, 4.)),
    ("Select", lambda a, b: ops.Select()(a > b, a, b), (X, Y), np.maximum),
    ("Equal", lambda a: ops.Equal()(a, a[0]), (X,), lambda a: a == a[0]),
    ("Greater", lambda a, b: ops.Greater()(a, b), (X, Y), np.greater),
    ("Less", lambda a, b: ops.Less()(a, b), (X, Y), np.less),
    ("ArgMaxWithValue_index", lambda a: ops.ArgMaxWithValue(1)(a)[0], (X,), lambda a: a.argmax(1)),
    ("ArgMaxWithValue_value", lambda a: ops.ArgMaxWithValue(0, True)(a)[1], (X,), lambda a: a.max(0, keepdims=True)),
    ("Argmax", lambda a: ops.Argmax()(a), (X,), lambda a: a.argmax(-1)),
    ("BiasAdd", lambda a: ops.BiasAdd()(a, jnp.array([1.0, 2.0])), (IMG,), lambda a: a + np.array([1, 2]).reshape(1, 2, 1, 1)),
    ("Flatten", lambda a: ops.Flatten()(a), (B3,), lambda a: a.reshape(2, -1)),
    ("StopGradient", lambda a: ops.StopGradient()(a), (X,), lambda a: a),
    ("Depend", lambda a, b: ops.Depend()(a, b), (X, Y), lambda a, b: a),
    ("L2Normalize", lambda a: ops.L2Normalize(axis=1)(a), (X,), lambda a: a / np.sqrt((a ** 2).sum(1, keepdims=True))),
    ("ZerosLike", lambda a: ops.ZerosLike()(a), (X,), np.zeros_like),
    ("OnesLike", lambda a: ops.OnesLike()(a), (X,), np.ones_like),
    ("Identity", lambda a: ops.Identity()(a), (X,), lambda a: a),
    ("MaxPool", lambda a: ops.MaxPool(2, 2)(a), (IMG,), lambda a: a.reshape(1, 2, 2, 2, 2, 2).max((3, 5))),
    ("AvgPool", lambda a: ops.AvgPool(2, 2)(a), (IMG,), lambda a: a.reshape(1, 2, 2, 2, 2, 2).mean((3, 5))),
    ("Conv2D", lambda a: ops.Conv2D(3, 1)(a, jnp.ones((3, 2, 1, 1))), (IMG,), lambda a: np.repeat(a.sum(1, keepdims=True), 3, 1)),
    ("LayerNorm", lambda a: ops.LayerNorm(-1, -1)(a, jnp.ones(3), jnp.zeros(3))[0], (X,),
     lambda a: (a - a.mean(-1, keepdims=True)) / np.sqrt(a.var(-1, keepdims=True) + 1e-7)),
    ("BatchNorm", lambda a: ops.BatchNorm()(a, jnp.ones(2), jnp.zeros(2), jnp.zeros(2), jnp.ones(2))[0], (IMG,),
     lambda a: a / np.sqrt(1 + 1e-5)),
    ("SoftmaxCrossEntropyWithLogits", lambda a, b: ops.SoftmaxCrossEntropyWithLogits()(a, b)[0], (X, _softmax(Y)),
     lambda a, b: -(np.log(_softmax(a)) * b).sum(-1)),
    ("SparseSoftmaxCrossEntropyWithLogits", lambda a: ops.SparseSoftmaxCrossEntropyWithLogits()(a, jnp.array([1, 2])),
     (X,), lambda a: -np.log(_softmax(a))[[0, 1], [1, 2]].mean()),
]


@pytest.mark.parametrize("name,fn,args,ref", CASES, ids=[c[0] for c in CASES])
def test_primitive_matches_numpy_eager_and_jit(name, fn, args, ref):
    expected = np.asarray(ref(*[np.asarray(a, np.float64) for a in args]))
    eager = np.asarray(fn(*args))
    traced = np.asarray(jax.jit(fn)(*[jnp.asarray(a) for a in args]))
    assert eager.shape == expected.shape
    np.testing.assert_allclose(eager, expected, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(traced, eager, rtol=1e-6, atol=1e-6)


def test_introspection_primitives_return_python_values():
    assert ops.Shape()(B3) == (2, 3, 4)
    assert ops.Size()(B3) == 24
    assert ops.Rank()(B3) == 3
    assert ops.DType()(B3) == ms.float32


def test_assign_primitive_writes_the_parameter():
    p = ms.Parameter(ms.Tensor(np.zeros(3, np.float32)), name="p")
    out = ops.Assign()(p, jnp.ones(3))
    assert p.asnumpy().tolist() == [1.0, 1.0, 1.0] and out.tolist() == [1.0, 1.0, 1.0]


def test_batch_norm_primitive_updates_moving_statistics_in_training():
    x = np.array([[1., 5., 3.], [4., 2., 6.]], np.float32)
    mean = ms.Parameter(ms.Tensor(np.zeros(3, np.float32)), name="mean")
    var = ms.Parameter(ms.Tensor(np.ones(3, np.float32)), name="var")
    y, batch_mean, batch_var, _, _ = ops.BatchNorm(is_training=True)(x, jnp.ones(3), jnp.zeros(3), mean, var)
    np.testing.assert_allclose(np.asarray(batch_mean), [2.5, 3.5, 4.5])
    np.testing.assert_allclose(np.asarray(batch_var), [2.25, 2.25, 2.25])
    np.testing.assert_allclose(mean.asnumpy(), [0.25, 0.35, 0.45], rtol=1e-6)
    np.testing.assert_allclose(var.asnumpy(), [1.35, 1.35, 1.35], rtol=1e-6)
    np.testing.assert_allclose(np.asarray(y), [[-1, 1, -1], [1, -1, 1]], atol=1e-5)


def test_shard_records_strategy_and_returns_the_primitive():
    prim = ops.MatMul(transpose_b=True)
    assert prim.shard(((2, 1), (1, 1))) is prim
    assert prim.in_strategy == ((2, 1), (1, 1)) and prim.out_strategy is None
    assert prim.strategy_for_inputs() == ((2, 1), (1, 1))
    prim.shard([[4, 1], [1, 1]], out_strategy=((4, 1),))
    assert prim.in_strategy == ((4, 1), (1, 1)) and prim.out_strategy == ((4, 1),)
    # A strategy changes nothing numerically yet.
    np.testing.assert_allclose(np.asarray(prim(X, Y)), X @ Y.T, rtol=1e-6)
    assert ops.Concat(1).shard(((1, 1), (1, 1), (1, 1))).in_strategy == ((1, 1),) * 3
    assert ops.ReLU().strategy_for_inputs() is None


@pytest.mark.parametrize("prim,strategy,match", [
    (ops.MatMul(), ((2, 1),), r"For 'MatMul', 'in_strategy' must describe 2 input\(s\), got 1"),
    (ops.MatMul(), ((2, 0), (1, 1)), r"For 'MatMul', 'in_strategy'\[0\] must be a tuple of positive ints"),
    (ops.ReLU(), "data", r"For 'ReLU', 'in_strategy' must be a tuple of tuples of positive ints, got str"),
    (ops.Add(), ((2, 1.5), (1, 1)), r"For 'Add', 'in_strategy'\[0\] must be a tuple of positive ints"),
    (ops.Softmax(), (2,), r"For 'Softmax', 'in_strategy'\[0\] must be a tuple of positive ints"),
])
def test_shard_rejects_malformed_strategies_naming_the_primitive(prim, strategy, match):
    with pytest.raises(ValueError, match=match):
        prim.shard(strategy)


def test_primitive_attributes_name_and_repr():
    prim = ops.MatMul(transpose_b=True)
    assert prim.name == "MatMul" and prim.attrs == {"transpose_a": False, "transpose_b": True}
    assert prim.add_prim_attr("fusion", 1) is prim and prim.attrs["fusion"] == 1
    assert prim.set_device("CPU").attrs["primitive_target"] == "CPU"
    assert prim.recompute().attrs["recompute"] is True
    assert repr(ops.MatMul()) == "Prim[MatMul]<transpose_a=False, transpose_b=False>"
    assert ops.Primitive("Custom").name == "Custom" and ops.GatherV2().name == "GatherV2"
    assert isinstance(ops.ReLU(), ops.Primitive)


@pytest.mark.parametrize("call,error,match", [
    (lambda: ops.MatMul()(X, X), ValueError, r"For 'MatMul', the contracted dimensions must be equal, got 3 and 2"),
    (lambda: ops.MatMul(transpose_a=1), TypeError, r"For 'MatMul', 'transpose_a' must be a bool"),
    (lambda: ops.BatchMatMul()(X, X), ValueError, r"For 'BatchMatMul', inputs must be at least 3-D"),
    (lambda: ops.Split(1, 2)(X), ValueError, r"For 'Split', x.shape\[1\] = 3 must be divisible by output_num = 2"),
    (lambda: ops.Softmax(axis=3)(X), ValueError, r"For 'Softmax', 'axis' must be in range"),
    (lambda: ops.ReduceSum()(X, 2), ValueError, r"For 'ReduceSum', 'axis' must be in range"),
    (lambda: ops.Reshape()(X, (5,)), ValueError, r"For 'Reshape', cannot reshape"),
    (lambda: ops.Conv2D(4, 3, pad_mode="foo"), ValueError, r"For 'Conv2D', 'pad_mode' must be one of"),
    (lambda: ops.Conv2D(4, 3)(IMG, jnp.ones((2, 2, 3, 3))), ValueError, r"For 'Conv2D', weight shape \(2, 2, 3, 3\) does not match out_channel=4"),
    (lambda: ops.MaxPool(2, 2, pad_mode="pad"), ValueError, r"For 'MaxPool', 'pad_mode' must be 'valid' or 'same'"),
    (lambda: ops.Dropout(keep_prob=0.0), ValueError, r"For 'Dropout', 'keep_prob' must be in \(0, 1\]"),
    (lambda: ops.BiasAdd()(IMG, jnp.ones(3)), ValueError, r"For 'BiasAdd', 'bias' must have shape \(2,\)"),
    (lambda: ops.LayerNorm()(X, jnp.ones(2), jnp.ones(2)), ValueError, r"For 'LayerNorm', gamma and beta must have shape \(3,\)"),
    (lambda: ops.Add()(X, jnp.ones(4)), ValueError, r"For 'Add', "),
])
def test_primitive_errors_name_the_primitive(call, error, match):
    with pytest.raises(error, match=match):
        call()


def test_same_padding_pools_match_mindspore_values():
    x = (np.arange(50, dtype=np.float32).reshape(2, 1, 5, 5) / 50)
    maxed = np.asarray(ops.MaxPool(3, 2, "same")(x))[0, 0]
    np.testing.assert_allclose(maxed, [[.12, .16, .18], [.32, .36, .38], [.42, .46, .48]], atol=1e-6)
    averaged = np.asarray(ops.AvgPool(3, 2, "same")(x))[0, 0]
    np.testing.assert_allclose(averaged, [[.06, .09, .12], [.21, .24, .27], [.36, .39, .42]], atol=1e-6)


class _OpsNet(ms.nn.Cell):
    """A Cell built from functional ops and Primitives, as MindSpore model code is."""

    def __init__(self):
        super().__init__()
        self.weight = ms.Parameter(ms.Tensor(np.full((3, 2), 0.5, np.float32)), name="weight")
        self.steps = ms.Parameter(ms.Tensor(np.zeros((), np.float32)), name="steps")
        self.matmul = ops.MatMul().shard(((2, 1), (1, 1)))
        self.reduce = ops.ReduceSum(keep_dims=False)

    def construct(self, x):
        h = ops.relu(self.matmul(x, self.weight))
        h = ops.dropout(h, p=0.5, training=self.training)
        ops.assign(self.steps, self.steps + 1)
        return self.reduce(h, 1)


def test_ops_run_inside_a_cell_in_both_modes(mode):
    net = _OpsNet()
    x = np.ones((4, 3), np.float32)
    np.testing.assert_allclose(np.asarray(net(x)), np.full(4, 3.0), rtol=1e-6)
    net.set_train(True)
    out = np.asarray(net(x))
    assert set(np.round(out, 5).tolist()) <= {0.0, 3.0, 6.0}
    assert float(net.steps.asnumpy()) == 2.0
