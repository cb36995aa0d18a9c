"""``amp_level='auto'``, ``interpolate(mode='area')`` and lazily initialised Tensors against MindSpore 2.10.

The same functions and layers run under both frameworks' ``auto_mixed_precision(..., 'auto')``
in PYNATIVE mode: the output dtypes must be MindSpore's, and the values agree to well
under one float16 ulp (both frameworks round the same inputs at the same places).
"""
import os

os.environ.setdefault("GLOG_v", "3")

import numpy as np  # noqa: E402
import pytest  # noqa: E402

mindspore = pytest.importorskip("mindspore")

import mindjax  # noqa: E402

_BELOW_ULP = dict(rtol=2e-4, atol=1e-4)


def _data(seed, shape, dtype=np.float32, positive=False):
    x = np.random.default_rng(seed).normal(size=shape)
    return (np.abs(x) + 0.5 if positive else x).astype(dtype)


# name -> (builder(fw) -> callable, inputs as numpy arrays)
def _cases():
    x32, y32 = _data(0, (3, 4)), _data(1, (4, 2))
    x16 = _data(2, (3, 4), np.float16, positive=True)
    img = _data(3, (1, 2, 4, 4))
    bias = _data(4, (2,))
    return {
        "ops.matmul": (lambda fw: lambda a, b: fw.ops.matmul(a, b), (x32, y32)),
        "ops.MatMul": (lambda fw: lambda a, b: fw.ops.MatMul()(a, b), (x32, y32)),
        "operator @": (lambda fw: lambda a, b: a @ b, (x32, y32)),
        "ops.bmm": (lambda fw: lambda a, b: fw.ops.bmm(a, b), (x32[None], y32[None])),
        "ops.exp": (lambda fw: lambda a: fw.ops.exp(a), (x16,)),
        "Tensor.exp": (lambda fw: lambda a: a.exp(), (x16,)),
        "ops.log": (lambda fw: lambda a: fw.ops.log(a), (x16,)),
        "ops.softmax": (lambda fw: lambda a: fw.ops.softmax(a), (x16,)),
        "ops.sum": (lambda fw: lambda a: fw.ops.sum(a), (x16,)),
        "ops.ReduceSum": (lambda fw: lambda a: fw.ops.ReduceSum()(a), (x16,)),
        "ops.pow": (lambda fw: lambda a: fw.ops.pow(a, 2), (x16,)),
        "ops.cumsum": (lambda fw: lambda a: fw.ops.cumsum(a, 0), (x16,)),
        "ops.mse_loss": (lambda fw: lambda a, b: fw.ops.mse_loss(a, b), (x16, x16 * 2)),
        "Tensor.sum": (lambda fw: lambda a: a.sum(), (x16,)),
        "Tensor.softmax": (lambda fw: lambda a: a.softmax(-1), (x16,)),
        "ops.addn": (lambda fw: lambda a, b: fw.ops.addn([a, b]), (x16, x32)),
        "ops.AddN": (lambda fw: lambda a, b: fw.ops.AddN()((a, b)), (x16, x32)),
        "ops.cat": (lambda fw: lambda a, b: fw.ops.cat((a, b)), (x16, x32)),
        "ops.bias_add": (lambda fw: lambda a, b: fw.ops.bias_add(a, b), (x16[:, :2], bias)),
        "ops.relu": (lambda fw: lambda a: fw.ops.relu(a), (x32,)),
        "add f16 f32": (lambda fw: lambda a, b: a + b, (x16, x32)),
        "ops.conv2d + bias": (lambda fw: lambda a: fw.ops.conv2d(a, fw.ops.ones((3, 2, 3, 3), fw.float32),
                                                                 fw.ops.ones((3,), fw.float32), 1, "same"),
                              (img,)),
        "nn.Dense": (lambda fw: _dense(fw, True), (x32,)),
        "nn.Dense no bias": (lambda fw: _dense(fw, False), (x32,)),
        "nn.Conv2d": (lambda fw: fw.nn.Conv2d(2, 3, 3, weight_init="ones"), (img,)),
        "nn.Conv2d bias": (lambda fw: fw.nn.Conv2d(2, 3, 3, weight_init="ones", has_bias=True,
                                                   bias_init="ones"), (img,)),
        "nn.BatchNorm2d": (lambda fw: fw.nn.BatchNorm2d(2), (img.astype(np.float16),)),
        "nn.LayerNorm": (lambda fw: fw.nn.LayerNorm((4,)), (x16,)),
        "nn.Softmax": (lambda fw: fw.nn.Softmax(), (x16,)),
    }


def _dense(fw, has_bias):
    return fw.nn.Dense(4, 2, weight_init="ones", bias_init="ones", has_bias=has_bias)


def _run(fw, name):
    fw.set_context(mode=fw.PYNATIVE_MODE)
    build, inputs = _cases()[name]
    target = build(fw)
    if isinstance(target, fw.nn.Cell):
        target.set_train(False)
    amp = fw.amp.auto_mixed_precision(target, "auto", fw.float16)
    out = amp(*[fw.Tensor(a) for a in inputs])
    return str(out.dtype), out.asnumpy().astype(np.float64)


@pytest.mark.parametrize("name", sorted(_cases()))
def test_auto_dtypes_and_values_match_mindspore(name):
    ms_dtype, ms_out = _run(mindspore, name)
    mj_dtype, mj_out = _run(mindjax, name)
    assert mj_dtype == ms_dtype
    np.testing.assert_allclose(mj_out, ms_out, **_BELOW_ULP)


def test_auto_network_matches_mindspore():
    def build(fw):
        class Net(fw.nn.Cell):
            def __init__(self):
                super().__init__()
                self.relu = fw.nn.ReLU()
                self.bn1 = fw.nn.BatchNorm2d(2)
                self.conv = fw.nn.Conv2d(2, 3, 3, weight_init="ones")
                self.bn2 = fw.nn.BatchNorm2d(3)
                self.mean = fw.ops.ReduceMean(keep_dims=False)

            def construct(self, x):
                return self.mean(self.relu(self.bn2(self.conv(self.bn1(self.relu(x))))), (2, 3))
        return Net()

    x = _data(5, (2, 2, 6, 6))
    outs = []
    for fw in (mindspore, mindjax):
        fw.set_context(mode=fw.PYNATIVE_MODE)
        net = fw.amp.auto_mixed_precision(build(fw), "auto", fw.float16)
        out = net(fw.Tensor(x))
        outs.append((str(out.dtype), out.asnumpy()))
    assert outs[1][0] == outs[0][0]
    np.testing.assert_allclose(outs[1][1], outs[0][1], **_BELOW_ULP)


@pytest.mark.parametrize("shape, kwargs", [((1, 3, 4), {"size": 2}), ((1, 3, 4), {"scale_factor": 0.3}),
                                           ((1, 2, 5, 7), {"size": (2, 3)}),
                                           ((1, 2, 5, 7), {"scale_factor": (0.5, 2.0)}),
                                           ((1, 1, 3, 4, 5), {"size": (2, 2, 3)})])
def test_interpolate_area_matches_mindspore(shape, kwargs):
    x = np.random.default_rng(6).random(shape).astype(np.float32)
    outs = [fw.ops.interpolate(fw.Tensor(x), mode="area", **kwargs).asnumpy() for fw in (mindspore, mindjax)]
    np.testing.assert_allclose(outs[1], outs[0], rtol=1e-6, atol=1e-7)
    up = [fw.nn.Upsample(mode="area", **kwargs)(fw.Tensor(x)).asnumpy() for fw in (mindspore, mindjax)]
    np.testing.assert_allclose(up[1], up[0], rtol=1e-6, atol=1e-7)


@pytest.mark.parametrize("shape", [(2, 2), (3,), (2, 1, 2)])
def test_lazy_tensor_text_matches_mindspore(shape):
    texts = []
    for fw in (mindspore, mindjax):
        t = fw.Tensor(shape=shape, dtype=fw.float32, init=fw.common.initializer.One())
        before = str(t)
        t.init_data()
        texts.append((before, str(t), t.has_init))
    assert texts[1] == texts[0]
