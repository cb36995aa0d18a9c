"""The Cells added for API coverage (losses, pads, shuffles, Linear, SyncBatchNorm ...) against mindspore 2.10."""
import numpy as np
import pytest
import mindspore
from mindspore import nn as ms_nn

import mindjax
from mindjax import nn as mj_nn

RNG = np.random.default_rng(3)
X = RNG.standard_normal((2, 3)).astype(np.float32)
Y = RNG.standard_normal((2, 3)).astype(np.float32)
POS = (np.abs(Y) + 0.3).astype(np.float32)
IMG = RNG.standard_normal((2, 4, 5, 6)).astype(np.float32)
SEQ = RNG.standard_normal((2, 3, 7)).astype(np.float32)
VOL = RNG.standard_normal((1, 2, 4, 4, 5)).astype(np.float32)
PROB = RNG.uniform(0.05, 0.95, (2, 3, 4)).astype(np.float32)
ONEHOT = np.eye(3, dtype=np.float32)[[[0, 1, 2, 1], [2, 2, 0, 1]]].transpose(0, 2, 1).copy()
CTC_LP = np.log((lambda e: e / e.sum(-1, keepdims=True))(np.exp(RNG.standard_normal((6, 2, 4))))).astype(np.float32)

CASES = [
    ("GaussianNLLLoss", lambda n, T: n.GaussianNLLLoss()(T(X), T(Y), T(POS))),
    ("GaussianNLLLoss_full_sum", lambda n, T: n.GaussianNLLLoss(full=True, reduction="sum")(T(X), T(Y), T(POS))),
    ("RMSELoss", lambda n, T: n.RMSELoss()(T(X), T(Y))),
    ("MAELoss", lambda n, T: n.MAELoss()(T(X), T(Y))),
    ("MAELoss_none", lambda n, T: n.MAELoss("none")(T(X), T(Y))),
    ("MarginRankingLoss", lambda n, T: n.MarginRankingLoss(0.3)(T(X), T(Y), T(np.sign(POS - 0.8)))),
    ("HingeEmbeddingLoss", lambda n, T: n.HingeEmbeddingLoss(0.5)(T(X), T(np.sign(Y)))),
    ("MultiMarginLoss", lambda n, T: n.MultiMarginLoss()(T(X), T(np.array([1, 2], np.int64)))),
    ("MultiLabelSoftMarginLoss", lambda n, T: n.MultiLabelSoftMarginLoss()(T(X), T((Y > 0).astype(np.float32)))),
    ("PoissonNLLLoss", lambda n, T: n.PoissonNLLLoss()(T(X), T(POS))),
    ("PoissonNLLLoss_full", lambda n, T: n.PoissonNLLLoss(False, True)(T(POS), T(POS * 3))),
    ("MultiClassDiceLoss", lambda n, T: n.MultiClassDiceLoss()(T(PROB), T(ONEHOT))),
    ("MultiClassDiceLoss_sigmoid_weights_ignore", lambda n, T: n.MultiClassDiceLoss(
        T(np.array([[0.5], [1.0], [2.0]], np.float32)), 1, "sigmoid")(T(PROB), T(ONEHOT))),
    ("CTCLoss", lambda n, T: n.CTCLoss()(T(CTC_LP), T(np.array([[1, 2, 2], [3, 1, 0]], np.int32)),
                                         T(np.array([6, 5], np.int32)), T(np.array([3, 2], np.int32)))),
    ("ReflectionPad1d", lambda n, T: n.ReflectionPad1d(2)(T(SEQ))),
    ("ReflectionPad2d", lambda n, T: n.ReflectionPad2d((1, 2, 2, 0))(T(IMG))),
    ("ReflectionPad3d", lambda n, T: n.ReflectionPad3d(1)(T(VOL))),
    ("ReplicationPad2d", lambda n, T: n.ReplicationPad2d((2, 0, 1, 3))(T(IMG))),
    ("ConstantPad1d", lambda n, T: n.ConstantPad1d((1, 2), 0.5)(T(SEQ))),
    ("ConstantPad3d", lambda n, T: n.ConstantPad3d(1, -1.0)(T(VOL))),
    ("PixelShuffle", lambda n, T: n.PixelShuffle(2)(T(IMG))),
    ("PixelUnshuffle", lambda n, T: n.PixelUnshuffle(2)(T(IMG[:, :, :4]))),
    ("ChannelShuffle", lambda n, T: n.ChannelShuffle(2)(T(IMG))),
    ("MaxPool3d", lambda n, T: n.MaxPool3d(2, 2)(T(VOL))),
    ("AvgPool3d", lambda n, T: n.AvgPool3d(2, 1)(T(VOL))),
    ("AdaptiveAvgPool3d", lambda n, T: n.AdaptiveAvgPool3d((2, 2, 1))(T(VOL))),
    ("LPPool2d", lambda n, T: n.LPPool2d(2, 2)(T(np.abs(IMG)))),
    ("LRN", lambda n, T: n.LRN(2)(T(IMG))),
]


def _to_numpy(value):
    if isinstance(value, (tuple, list)):
        return [_to_numpy(v) for v in value]
    return value.asnumpy() if hasattr(value, "asnumpy") else np.asarray(value)


@pytest.mark.parametrize("name,case", CASES, ids=[c[0] for c in CASES])
def test_cell_matches_mindspore(name, case):
    expected = np.asarray(_to_numpy(case(ms_nn, mindspore.Tensor)))
    got = np.asarray(_to_numpy(case(mj_nn, mindjax.Tensor)))
    assert got.shape == expected.shape, f"{name}: {got.shape} != {expected.shape}"
    np.testing.assert_allclose(got, expected, rtol=1e-4, atol=1e-5, err_msg=name)


def test_linear_matches_mindspore_with_the_same_weights():
    ms_layer = ms_nn.Linear(3, 4)
    mj_layer = mj_nn.Linear(3, 4)
    mj_layer.weight.set_data(mindjax.Tensor(ms_layer.weight.asnumpy()))
    mj_layer.bias.set_data(mindjax.Tensor(ms_layer.bias.asnumpy()))
    np.testing.assert_allclose(np.asarray(mj_layer(X)), ms_layer(mindspore.Tensor(X)).asnumpy(), rtol=1e-5, atol=1e-6)
    assert [p.name for p in mj_layer.trainable_params()] == [p.name for p in ms_layer.trainable_params()]


def test_sync_batchnorm_trains_as_batchnorm_on_one_process():
    ms_bn, mj_bn = ms_nn.SyncBatchNorm(4), mj_nn.SyncBatchNorm(4)
    ms_bn.set_train(True)
    mj_bn.set_train(True)
    np.testing.assert_allclose(np.asarray(mj_bn(IMG)), ms_bn(mindspore.Tensor(IMG)).asnumpy(), rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(np.asarray(mj_bn.moving_mean.value()), ms_bn.moving_mean.asnumpy(), rtol=1e-5,
                               atol=1e-6)


def test_cell_dict_names_parameters_by_key_as_mindspore():
    def build(n):
        class Net(n.Cell):
            def __init__(self):
                super().__init__()
                self.blocks = n.CellDict({"a": n.Dense(2, 3), "b": n.Dense(3, 1)})

            def construct(self, x):
                return self.blocks["b"](self.blocks["a"](x))
        return Net()

    assert [p.name for p in build(mj_nn).trainable_params()] == [p.name for p in build(ms_nn).trainable_params()]
    d = mj_nn.CellDict({"a": mj_nn.ReLU()})
    d["b"] = mj_nn.Tanh()
    assert list(d.keys()) == ["a", "b"] and "a" in d and len(d) == 2
    assert isinstance(d.pop("a"), mj_nn.ReLU) and list(d) == ["b"]
    with pytest.raises(TypeError, match=r"For 'CellDict', the value of key 'c' must be a Cell"):
        d["c"] = 3
    with pytest.raises(TypeError, match=r"must not be a CellDict, CellList or SequentialCell"):
        d["c"] = mj_nn.CellList([mj_nn.ReLU()])
    for bad in ("_scope", "a.b", ""):
        with pytest.raises(KeyError, match=r"For 'CellDict'"):
            d[bad] = mj_nn.ReLU()


def test_roll_matches_numpy():
    # MindSpore 2.10 registers no Roll kernel on CPU, so numpy is the reference here.
    np.testing.assert_array_equal(np.asarray(mj_nn.Roll((1, -2), (0, 2))(SEQ)), np.roll(SEQ, (1, -2), (0, 2)))


_PAD_X = np.arange(24, dtype=np.float32).reshape(1, 2, 3, 4)
_PAD_CASES = [
    ("ConstantPad2d", (0, 1), (0.5,)), ("ConstantPad3d", (0, 1), (0.5,)), ("ConstantPad3d", (1, 0, 2, 1), (-1.0,)),
    ("ReflectionPad2d", (1, 2), ()), ("ReflectionPad1d", (1, 1, 1, 1), ()), ("ReplicationPad1d", (1, 2, 1, 1), ()),
]


@pytest.mark.parametrize("name,padding,extra", _PAD_CASES)
def test_pad_cells_take_fewer_or_more_pairs_as_mindspore(name, padding, extra):
    """Constant pads take up to their own number of pairs; reflection/replication pads any number."""
    theirs = getattr(ms_nn, name)(padding, *extra)(mindspore.Tensor(_PAD_X)).asnumpy()
    ours = np.asarray(getattr(mj_nn, name)(padding, *extra)(mindjax.Tensor(_PAD_X)))
    np.testing.assert_array_equal(ours, theirs)


@pytest.mark.parametrize("name,padding,err,msg", [
    ("ConstantPad2d", (0, 1, 2), ValueError, "multiple of 2, got 3"),
    ("ConstantPad1d", (0, 1, 1, 1), ValueError, "at most 2, got 4"),
    ("ReflectionPad1d", (1, 2, 2), ValueError, "multiple of 2, got 3"),
    ("ReflectionPad2d", (-1, 2), ValueError, "non-negative"),
    ("ReflectionPad1d", ("2", 2), TypeError, "every element of 'padding' must be an int"),
    ("ReflectionPad1d", "-1", TypeError, "must be an int or a tuple of ints, got str"),
])
def test_pad_cells_refuse_bad_padding_as_mindspore(name, padding, err, msg):
    extra = (0.5,) if name.startswith("Constant") else ()
    with pytest.raises(err):
        getattr(ms_nn, name)(padding, *extra)
    with pytest.raises(err, match=f"For '{name}', .*{msg}"):
        getattr(mj_nn, name)(padding, *extra)


def test_reflection_pad_with_more_pairs_than_input_axes_is_refused():
    x = [[1.0, 2.0, 3.0], [1.0, 2.0, 3.0]]
    with pytest.raises(ValueError):
        ms_nn.ReflectionPad1d((1,) * 8)(mindspore.Tensor(x))
    with pytest.raises(ValueError, match=r"For 'ReflectionPad1d'.*at least 4-D for 'padding' of length 8"):
        mj_nn.ReflectionPad1d((1,) * 8)(mindjax.Tensor(x))
