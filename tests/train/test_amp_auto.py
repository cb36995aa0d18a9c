"""``amp_level='auto'``: MindSpore 2.x's operator lists on Cells and functions.

White-listed operators (MatMul, Conv2D, BatchMatMul, Dense ...) run in the low type and
their outputs stay there; black-listed ones (Softmax, BatchNorm, LayerNorm, Exp, SumExt
...) run in float32; promote-listed ones (BiasAdd, AddN, Concat ...) in the widest
floating input type; the others follow their inputs (MindSpore 2.10, measured on CPU:
see tests/parity/test_amp_auto_parity.py).
"""
import numpy as np
import pytest

import mindjax as ms
from mindjax import nn, ops, Tensor
from mindjax.common.precision import active_policy
from mindjax.train.amp import auto_mixed_precision, build_train_network, _OutputTo32
from mindjax.train.loss_scale_manager import FixedLossScaleManager


@pytest.fixture(autouse=True)
def _pynative():
    ms.set_context(mode=ms.PYNATIVE_MODE)
    yield
    ms.set_context(mode=ms.PYNATIVE_MODE)


def _x(shape=(2, 2), dtype=np.float32, seed=0):
    return Tensor(np.random.default_rng(seed).normal(size=shape).astype(dtype))


def _auto(fn, dtype=ms.float16):
    return auto_mixed_precision(fn, "auto", dtype=dtype)


# -- the three lists, on functions -------------------------------------------------------

@pytest.mark.parametrize("name, fn", [
    ("ops.matmul", lambda a, b: ops.matmul(a, b)),
    ("ops.MatMul", lambda a, b: ops.MatMul()(a, b)),
    ("operator @", lambda a, b: a @ b),
    ("Tensor.matmul", lambda a, b: a.matmul(b)),
    ("ops.dense", lambda a, b: ops.dense(a, b)),
])
def test_auto_white_list_runs_low_and_keeps_low_output(name, fn):
    out = _auto(fn)(_x(), _x(seed=1))
    assert out.dtype == ms.float16, name
    expected = np.asarray(fn(_x().astype(ms.float16), _x(seed=1).astype(ms.float16)).asnumpy())
    np.testing.assert_array_equal(out.asnumpy(), expected)


def test_auto_white_list_casts_float64_and_bfloat16():
    x64 = Tensor(np.ones((2, 2)), ms.float64)
    assert _auto(lambda a, b: ops.matmul(a, b))(x64, x64).dtype == ms.float16
    assert _auto(lambda a, b: ops.matmul(a, b), ms.bfloat16)(_x(), _x()).dtype == ms.bfloat16


def test_auto_batch_matmul_and_conv2d_are_white():
    a = _x((1, 2, 2))
    assert _auto(lambda p, q: ops.bmm(p, q))(a, a).dtype == ms.float16
    img = _x((1, 2, 3, 3))
    w = Tensor(np.ones((3, 2, 1, 1), np.float32))
    assert _auto(lambda p, q: ops.conv2d(p, q))(img, w).dtype == ms.float16


@pytest.mark.parametrize("name, fn", [
    ("ops.exp", lambda a: ops.exp(a)),
    ("ops.Exp", lambda a: ops.Exp()(a)),
    ("Tensor.exp", lambda a: a.exp()),
    ("ops.log", lambda a: ops.log(a)),
    ("ops.softmax", lambda a: ops.softmax(a)),
    ("ops.Softmax", lambda a: ops.Softmax()(a)),
    ("ops.log_softmax", lambda a: ops.log_softmax(a)),
    ("ops.sum", lambda a: ops.sum(a)),
    ("ops.pow", lambda a: ops.pow(a, 2)),
    ("operator **", lambda a: a ** 2),
    ("ops.rsqrt", lambda a: ops.rsqrt(a)),
    ("ops.cumsum", lambda a: ops.cumsum(a, 0)),
    ("ops.prod", lambda a: ops.prod(a)),
    ("ops.norm", lambda a: ops.norm(a)),
    ("ops.layer_norm", lambda a: ops.layer_norm(a, (2,))),
    ("Tensor.sum", lambda a: a.sum()),
    ("Tensor.softmax", lambda a: a.softmax(-1)),
    ("ops.cross_entropy", lambda a: ops.cross_entropy(a, Tensor(np.array([0, 1], np.int32)))),
])
def test_auto_black_list_runs_in_float32(name, fn):
    x16 = Tensor(np.abs(_x().asnumpy()).astype(np.float16) + 0.5)
    out = _auto(fn)(x16)
    assert out.dtype == ms.float32, name
    np.testing.assert_allclose(out.asnumpy(), fn(x16.astype(ms.float32)).asnumpy(), rtol=1e-6)


@pytest.mark.parametrize("name, fn", [
    ("ops.addn", lambda a, b: ops.addn([a, b])),
    ("ops.AddN", lambda a, b: ops.AddN()((a, b))),
    ("ops.cat", lambda a, b: ops.cat((a, b))),
    ("ops.bias_add", lambda a, b: ops.bias_add(a, b[0])),
])
def test_auto_promote_list_runs_in_the_widest_input_type(name, fn):
    out = _auto(fn)(_x(dtype=np.float16), _x(seed=1))
    assert out.dtype == ms.float32, name


def test_auto_leaves_unlisted_operators_to_their_inputs():
    assert _auto(lambda a: ops.relu(a))(_x()).dtype == ms.float32
    assert _auto(lambda a: ops.ReduceSum()(a))(_x(dtype=np.float16)).dtype == ms.float16
    assert _auto(lambda a, b: a + b)(_x(dtype=np.float16), _x()).dtype == ms.float32
    # MindSpore 2.10's ops.mse_loss / l1_loss are composite (not MSELossExt / L1LossExt): not listed
    assert _auto(lambda a: ops.mse_loss(a, a * 2))(_x(dtype=np.float16)).dtype == ms.float16


def test_auto_white_output_flows_on_to_unlisted_operators():
    def inner(x, y):
        return ops.matmul(x, y)

    inner_amp = _auto(inner)

    def outer(x, y):
        return inner_amp(x, y) + 1

    x, y = Tensor(np.ones([1, 2]), ms.float32), Tensor(np.ones([2]), ms.float32)
    assert outer(x, y).dtype == ms.float16
    assert ms.jit(outer)(x, y).dtype == ms.float16
    assert inner(x, y).dtype == ms.float32  # the function itself is unchanged
    assert active_policy() is None


def test_auto_function_is_marked_and_keeps_its_name():
    def func(x):
        return x

    amp = _auto(func)
    assert amp._amp_level == "auto"
    assert amp.__name__ == "func"


# -- compiled functions and Cells -----------------------------------------------------

def test_auto_jit_function_traced_per_policy():
    @ms.jit
    def graph_func(x, y):
        return ops.matmul(x, y)

    x, y = Tensor(np.ones([1, 2]), ms.float32), Tensor(np.ones([2]), ms.float32)
    assert graph_func(x, y).dtype == ms.float32      # compiled without a policy first
    amp = _auto(lambda a, b: graph_func(a, b))
    assert amp(x, y).dtype == ms.float16             # a new trace under the policy
    assert graph_func(x, y).dtype == ms.float32      # the first program again


def test_auto_function_compiled_with_jit_converts_its_control_flow():
    def func(x, y):
        out = ops.matmul(x, y)
        if out.sum() > 0:  # a Tensor condition: GRAPH mode converts it
            out = out * 2
        return out

    x = Tensor(np.ones([2, 2]), ms.float32)
    out = ms.jit(_auto(func))(x, x)
    assert out.dtype == ms.float16
    np.testing.assert_array_equal(out.asnumpy(), np.full((2, 2), 4.0, np.float16))


class _SoftmaxNet(nn.Cell):
    def __init__(self):
        super().__init__()
        self.weight = ms.Parameter(Tensor(np.random.default_rng(5).normal(size=(4, 4)).astype(np.float32)),
                                   name="weight")
        self.matmul = ops.MatMul()
        self.softmax = ops.Softmax(axis=1)

    def construct(self, x):
        out1 = self.matmul(x, self.weight)
        return out1, self.softmax(out1)


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
def test_auto_cell_primitives(mode):
    ms.set_context(mode=mode)
    net = auto_mixed_precision(_SoftmaxNet(), "auto", ms.float16)
    assert net._amp_level == "auto"
    out1, out2 = net(_x((4, 4)))
    assert out1.dtype == ms.float16 and out2.dtype == ms.float32
    assert net.weight.dtype == ms.float32  # master weights stay float32


@pytest.mark.parametrize("has_bias, dtype", [(True, ms.float32), (False, ms.float16)])
def test_auto_dense_and_conv_layers_are_matmul_conv_then_bias_add(has_bias, dtype):
    dense = auto_mixed_precision(nn.Dense(2, 3, has_bias=has_bias), "auto")
    assert dense(_x()).dtype == dtype
    conv = auto_mixed_precision(nn.Conv2d(2, 3, 1, has_bias=has_bias), "auto")
    assert conv(_x((1, 2, 3, 3))).dtype == dtype


@pytest.mark.parametrize("layer, shape", [(lambda: nn.BatchNorm2d(2), (2, 2, 3, 3)),
                                          (lambda: nn.LayerNorm((2,)), (2, 2)),
                                          (lambda: nn.GroupNorm(1, 2), (2, 2, 3)),
                                          (lambda: nn.Softmax(), (2, 2)),
                                          (lambda: nn.LogSoftmax(), (2, 2))])
def test_auto_normalization_and_softmax_layers_run_in_float32(layer, shape):
    net = auto_mixed_precision(layer(), "auto")
    assert net(_x(shape, np.float16)).dtype == ms.float32


class _NetWithToFloat(nn.Cell):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 4, 3, weight_init="ones").to_float(ms.float32)

    def construct(self, x):
        return self.conv(x)


def test_auto_keeps_the_precision_set_by_to_float():
    net = auto_mixed_precision(_NetWithToFloat(), "auto")
    assert net(_x((1, 3, 5, 5), np.float16)).dtype == ms.float32


class _Net(nn.Cell):
    def __init__(self, fp16=False):
        super().__init__()
        self.relu = nn.ReLU()
        self.bn1 = nn.BatchNorm2d(2)
        self.bn2 = nn.BatchNorm2d(3)
        self.conv = nn.Conv2d(2, 3, 3, weight_init="ones")
        if fp16:
            self.conv.to_float(ms.float16)
        self.fp16 = fp16
        self.mean = ops.ReduceMean(keep_dims=False)

    def construct(self, x):
        x = self.relu(x)
        x = self.bn1(x)
        if self.fp16:
            x = ops.cast(x, ms.float16)
        x = self.conv(x)
        if self.fp16:
            x = ops.cast(x, ms.float32)
        x = self.bn2(x)
        return self.mean(self.relu(x), (2, 3))


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
def test_auto_network_equals_hand_cast_network(mode):
    ms.set_context(mode=mode)
    x = _x((2, 2, 6, 6))
    out = auto_mixed_precision(_Net(), "auto")(x)
    expected = _Net(fp16=True)(x)
    assert out.dtype == ms.float32
    np.testing.assert_allclose(out.asnumpy(), expected.asnumpy(), rtol=1e-6, atol=1e-6)


def test_auto_build_train_network_casts_the_loss_inputs_and_trains():
    ms.set_seed(0)
    net, ref = _Net(), _OutputTo32(_Net(fp16=True))
    nets = []
    for n in (net, ref):
        opt = nn.Momentum(n.trainable_params(), learning_rate=0.01, momentum=0.9)
        nets.append(build_train_network(n, opt, nn.SoftmaxCrossEntropyWithLogits(sparse=False, reduction='mean'),
                                        level="auto" if n is net else "O0",
                                        loss_scale_manager=FixedLossScaleManager(drop_overflow_update=False)))
    x, label = _x((2, 2, 6, 6)), _x((2, 3), seed=2)
    losses = [[float(t(x, label).asnumpy()) for _ in range(3)] for t in nets]
    assert net._amp_level == "auto"
    np.testing.assert_allclose(losses[0], losses[1], rtol=1e-5)


def test_auto_model_trains():
    from mindjax.train import Model
    import mindjax.dataset as ds

    rng = np.random.default_rng(0)
    data = ds.NumpySlicesDataset({"x": rng.normal(size=(8, 4)).astype(np.float32),
                                  "y": rng.normal(size=(8, 2)).astype(np.float32)}, shuffle=False).batch(4)
    net = nn.Dense(4, 2)
    model = Model(net, nn.MSELoss(), nn.SGD(net.trainable_params(), 0.1), amp_level="auto")
    model.train(1, data)
    assert net._amp_level == "auto"
    assert net.weight.dtype == ms.float32


# -- bad input ------------------------------------------------------------------------

def test_auto_bad_network_dtype_and_level():
    with pytest.raises(TypeError, match="amp_level 'auto' the network type should be Cell or function, got int"):
        auto_mixed_precision(3, "auto")
    with pytest.raises(TypeError, match="amp_level 'O1' the network type should be Cell, got function"):
        auto_mixed_precision(lambda x: x, "O1")
    with pytest.raises(ValueError, match="'dtype' must be float16 or bfloat16, got float32"):
        auto_mixed_precision(lambda x: x, "auto", ms.float32)
    with pytest.raises(ValueError, match="'amp_level' must be one of"):
        auto_mixed_precision(nn.Dense(2, 2), "O5")
