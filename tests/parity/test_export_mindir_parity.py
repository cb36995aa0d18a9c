"""MINDIR files written by MindJAX's ms.export, read and run by the real MindSpore 2.10 (and the reverse)."""
import numpy as np
import pytest

import mindspore
import mindjax as mj
from mindjax import nn
from mindjax.train.serialization import export as mj_export
from mindjax.train.serialization._mindir import read_model


def _export(*args, **kwargs):
    """``export``, which returns None as MindSpore's, then the path it wrote."""
    assert mj_export(*args, **kwargs) is None
    name = kwargs["file_name"]
    return name if name.lower().endswith(".mindir") else name + ".mindir"


class LeNetLike(nn.Cell):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 3, 5, pad_mode="valid", has_bias=True)
        self.conv2 = nn.Conv2d(3, 4, 3, stride=2, pad_mode="pad", padding=1)
        self.relu = nn.ReLU()
        self.sigmoid = nn.Sigmoid()
        self.pool = nn.MaxPool2d(kernel_size=2, stride=2)
        self.flatten = nn.Flatten()
        self.fc = nn.Dense(4 * 2 * 2, 5)
        self.softmax = nn.Softmax()

    def construct(self, x):
        x = self.pool(self.relu(self.conv1(x)))
        x = self.pool(self.sigmoid(self.conv2(x)))
        return self.softmax(self.fc(self.flatten(x)))


class ResidualBlock(nn.Cell):
    """Grouped conv, BatchNorm (moving statistics), a residual add, LayerNorm and exact GELU."""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 4, 3, has_bias=False)
        self.bn = nn.BatchNorm2d(4)
        self.conv2 = nn.Conv2d(4, 4, 1, group=2)
        self.bn2 = nn.BatchNorm2d(4)
        self.relu = nn.ReLU()
        self.ln = nn.LayerNorm((4,))
        self.gelu = nn.GELU(approximate=False)
        self.fc = nn.Dense(4, 3)

    def construct(self, x):
        y = self.relu(self.bn(self.conv(x)))
        y = self.relu(self.bn2(self.conv2(y)) + y)
        y = mj.ops.mean(y, (2, 3))
        return mj.ops.tanh(self.fc(self.gelu(self.ln(y))))


def _block():
    net = ResidualBlock()
    rng = np.random.default_rng(1)
    for p in net.get_parameters():
        if "moving" in p.name:
            p.set_data(mj.Tensor(rng.uniform(0.5, 1.5, p.shape).astype(np.float32)))
    return net


class EmbedPool(nn.Cell):
    """Embedding (Gather), a Dense on 3-D input, slicing and AvgPool."""

    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(6, 4)
        self.fc = nn.Dense(4, 3)
        self.pool = nn.AvgPool2d(2, 2)

    def construct(self, ids):
        h = self.fc(self.emb(ids)).reshape(2, 1, 3, 3)
        return self.pool(h[:, :, :2, 1:3])


def _mlp():
    return nn.SequentialCell(nn.Flatten(), nn.Dense(28 * 28, 16), nn.ReLU(), nn.Dense(16, 10))


@pytest.mark.parametrize("make, shape", [(_mlp, (1, 1, 28, 28)), (LeNetLike, (2, 1, 20, 20)), (_block, (2, 3, 8, 8)),
                                         (EmbedPool, None)], ids=["mlp", "lenet", "residual_bn", "embed_pool"])
def test_mindspore_loads_and_runs_a_mindjax_mindir_with_the_same_outputs(tmp_path, make, shape):
    net = make()
    if shape is None:
        x = np.array([[0, 5, 2], [1, 1, 4]], np.int32)
    else:
        x = np.random.default_rng(0).standard_normal(shape).astype(np.float32)
    path = _export(net, mj.Tensor(x), file_name=str(tmp_path / "net"), file_format="MINDIR")
    assert read_model(path).user_info["mindjax.unmapped_ops"] == "[]"
    net.set_train(False)
    expected = net(mj.Tensor(x)).asnumpy()
    mindspore.set_context(mode=mindspore.GRAPH_MODE)
    graph = mindspore.nn.GraphCell(mindspore.load(path))
    got = graph(mindspore.Tensor(x)).asnumpy()
    np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-6)


def test_mindjax_reads_mindspore_mindir_protobuf_and_refuses_to_run_it(tmp_path):
    mindspore.set_context(mode=mindspore.GRAPH_MODE)
    ms_net = mindspore.nn.SequentialCell(mindspore.nn.Flatten(), mindspore.nn.Dense(12, 3))
    mindspore.export(ms_net, mindspore.Tensor(np.ones((1, 1, 3, 4), np.float32)), file_name=str(tmp_path / "ms"),
                     file_format="MINDIR")
    path = str(tmp_path / "ms.mindir")
    model = read_model(path)  # MindJAX's run-time schema parses MindSpore's own file
    assert model.producer_name == "MindSpore"
    assert sorted(t.ref_key for t in model.graph.parameter) == ["1.bias", "1.weight"]
    weight = next(t for t in model.graph.parameter if t.ref_key == "1.weight")
    np.testing.assert_array_equal(np.frombuffer(weight.raw_data, "<f4").reshape(3, 12), ms_net[1].weight.asnumpy())
    with pytest.raises(ValueError, match=f"{path} is a MindIR file from MindSpore without the StableHLO program"):
        mj.load(path)


def test_mindspore_load_mindir_reads_mindjax_file_and_mindjax_reads_mindspore_save(tmp_path):
    net = _mlp()
    path = _export(net, mj.Tensor(np.ones((1, 1, 28, 28), np.float32)), file_name=str(tmp_path / "mj"),
                   file_format="MINDIR")
    theirs = mindspore.load_mindir(path)
    assert theirs.producer_name == "MindJAX"
    assert [t.ref_key for t in theirs.graph.parameter] == ["1.weight", "1.bias", "3.weight", "3.bias"]
    theirs.user_info["version"] = "edited by MindSpore"
    mindspore.save_mindir(theirs, str(tmp_path / "edited"))
    ours = mj.load_mindir(str(tmp_path / "edited.mindir"))
    assert ours.user_info["version"] == "edited by MindSpore"
    x = mj.Tensor(np.ones((1, 1, 28, 28), np.float32))
    np.testing.assert_allclose(mj.load(str(tmp_path / "edited.mindir"))(x).asnumpy(), net(x).asnumpy(), rtol=1e-6)
