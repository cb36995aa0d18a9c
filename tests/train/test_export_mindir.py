"""ms.export(..., file_format='MINDIR') / ms.load / nn.GraphCell: MindSpore's MindIR protobuf around the program."""
import base64
import json

import numpy as np
import pytest

import mindjax as ms
from mindjax import nn
from mindjax.train.serialization import export as mj_export
from mindjax.train.serialization._mindir import read_model


def _export(*args, **kwargs):
    """``export``, which returns None as MindSpore's, then the path it wrote."""
    assert mj_export(*args, **kwargs) is None
    name = kwargs["file_name"]
    return name if name.lower().endswith(".mindir") else name + ".mindir"


class ConvNet(nn.Cell):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 3, 3, pad_mode="valid", has_bias=True)
        self.conv2 = nn.Conv2d(3, 2, 3, stride=2, pad_mode="pad", padding=1)
        self.relu = nn.ReLU()
        self.pool = nn.MaxPool2d(kernel_size=2, stride=2)
        self.flatten = nn.Flatten()
        self.fc = nn.Dense(2 * 2 * 2, 4)
        self.softmax = nn.Softmax()

    def construct(self, x):
        x = self.pool(self.relu(self.conv1(x)))
        x = self.conv2(x)
        return self.softmax(self.fc(self.flatten(x)))


def _mlp():
    return nn.SequentialCell(nn.Flatten(), nn.Dense(12, 8), nn.ReLU(), nn.Dense(8, 3))


def _ops(path):
    return [n.op_type.split("::")[1].split(":")[0] for n in read_model(path).graph.node if n.op_type != "Constant"]


@pytest.mark.parametrize("make, shape", [(_mlp, (2, 1, 3, 4)), (ConvNet, (2, 1, 10, 10))], ids=["mlp", "conv"])
def test_mindir_round_trip_gives_the_network_outputs_in_both_modes(tmp_path, mode, make, shape):
    net = make()
    x = ms.Tensor(np.random.default_rng(0).standard_normal(shape).astype(np.float32))
    path = _export(net, x, file_name=str(tmp_path / "net"), file_format="MINDIR")
    assert (tmp_path / "net.mindir").is_file()
    graph = nn.GraphCell(ms.load(path))
    out = graph(x)
    assert out.shape == (2, 3 if make is _mlp else 4)
    np.testing.assert_allclose(out.asnumpy(), net(x).asnumpy(), rtol=1e-6, atol=1e-6)


def test_mindir_holds_the_parameters_by_mindspore_name_and_dtype(tmp_path):
    net = _mlp()
    path = _export(net, ms.Tensor(np.ones((1, 1, 3, 4), np.float32)), file_name=str(tmp_path / "m"),
                     file_format="MINDIR")
    model = read_model(path)
    params = {t.ref_key: t for t in model.graph.parameter}
    assert list(params) == ["1.weight", "1.bias", "3.weight", "3.bias"]
    for name, p in net.parameters_dict().items():
        t = params[name]
        assert tuple(t.dims) == p.shape and t.data_type == 1  # FLOAT
        np.testing.assert_array_equal(np.frombuffer(t.raw_data, "<f4").reshape(p.shape), p.asnumpy())
    assert model.graph.parameter[0].name == f"{model.graph.name}:1.weight"
    assert [tuple(i.tensor[0].dims) for i in model.graph.input] == [(1, 1, 3, 4)]
    assert tuple(model.graph.output[0].tensor[0].dims) == (1, 3)


def test_mindir_nodes_are_mindspore_primitives(tmp_path):
    x = ms.Tensor(np.ones((1, 1, 10, 10), np.float32))
    mlp = _export(_mlp(), ms.Tensor(np.ones((1, 1, 3, 4), np.float32)), file_name=str(tmp_path / "mlp"),
                    file_format="MINDIR")
    assert _ops(mlp) == ["Reshape", "MatMul", "BiasAdd", "ReLU", "MatMul", "BiasAdd"]
    conv = _export(ConvNet(), x, file_name=str(tmp_path / "conv"), file_format="MINDIR")
    ops = _ops(conv)
    assert ops[:5] == ["Conv2D", "BiasAdd", "ReLU", "MaxPool", "Conv2D"]
    assert {"MatMul", "Exp", "ReduceSum", "RealDiv"} <= set(ops)
    model = read_model(conv)
    assert json.loads(model.user_info["mindjax.unmapped_ops"]) == []
    prims = {p.name: p for p in model.primitives}
    first_conv = next(n for n in model.graph.node if n.op_type.startswith("REF::Conv2D"))
    attrs = {a.name: a for a in prims[first_conv.op_type[len("REF::"):]].attribute}
    assert attrs["out_channel"].i == 3 and [v.ints[0] for v in attrs["kernel_size"].values] == [3, 3]
    matmul = next(n for n in model.graph.node if n.op_type.startswith("REF::MatMul"))
    consts = {n.name: n.attribute[0].i for n in model.graph.node if n.op_type == "Constant"}
    assert [consts[i] for i in matmul.input[2:]] == [0, 1]  # transpose_a=False, transpose_b=True (Dense)


def test_gather_avgpool_slice_and_nd_dense_become_mindspore_primitives(tmp_path):
    class EmbedPool(nn.Cell):
        def __init__(self):
            super().__init__()
            self.emb = nn.Embedding(6, 4)
            self.fc = nn.Dense(4, 3)
            self.pool = nn.AvgPool2d(2, 2)

        def construct(self, ids):
            h = self.fc(self.emb(ids)).reshape(2, 1, 3, 3)
            return self.pool(h[:, :, :2, 1:3])

    net = EmbedPool()
    ids = ms.Tensor(np.array([[0, 5, 2], [1, 1, 4]], np.int32))
    path = _export(net, ids, file_name=str(tmp_path / "ep"), file_format="MINDIR")
    ops = _ops(path)
    assert {"Gather", "MatMul", "Slice", "AvgPool"} <= set(ops) and not any(o.startswith("jax.") for o in ops)
    assert json.loads(read_model(path).user_info["mindjax.unmapped_ops"]) == []
    np.testing.assert_allclose(ms.load(path)(ids).asnumpy(), net(ids).asnumpy(), rtol=1e-6, atol=1e-6)


def test_operations_without_a_mindspore_primitive_are_listed_and_still_run(tmp_path):
    class Odd(nn.Cell):
        def construct(self, x):
            return ms.ops.cumsum(x, 1) * 2.0

    net = Odd()
    x = ms.Tensor(np.arange(6, dtype=np.float32).reshape(2, 3))
    path = _export(net, x, file_name=str(tmp_path / "odd"), file_format="MINDIR")
    unmapped = json.loads(read_model(path).user_info["mindjax.unmapped_ops"])
    assert unmapped and all(isinstance(u, str) for u in unmapped)
    np.testing.assert_allclose(ms.load(path)(x).asnumpy(), net(x).asnumpy())


def test_graph_cell_params_init_replaces_parameters_by_name(tmp_path):
    net = nn.Dense(3, 2)
    x = ms.Tensor(np.ones((1, 3), np.float32))
    path = _export(net, x, file_name=str(tmp_path / "d"), file_format="MINDIR")
    graph = ms.load(path)
    assert sorted(graph.parameters_dict()) == ["bias", "weight"]
    new_bias = np.array([10.0, -10.0], np.float32)
    cell = nn.GraphCell(graph, params_init={"bias": ms.Tensor(new_bias), "absent": ms.Tensor(1.0)})
    expected = x.asnumpy() @ net.weight.asnumpy().T + new_bias
    np.testing.assert_allclose(cell(x).asnumpy(), expected, rtol=1e-6)
    np.testing.assert_allclose(graph(x).asnumpy(), net(x).asnumpy(), rtol=1e-6)  # the loaded one is unchanged
    with pytest.raises(ValueError, match=r"params_init\['bias'\] must be \(2,\) float32 as in the graph, got \(3,\)"):
        nn.GraphCell(graph, params_init={"bias": ms.Tensor(np.ones(3, np.float32))})
    with pytest.raises(TypeError, match="'params_init' must be a dict"):
        nn.GraphCell(graph, params_init=[1])


def test_dynamic_batch_mindir_serves_any_batch(tmp_path):
    net = _mlp()
    path = _export(net, ms.Tensor(np.ones((2, 1, 3, 4), np.float32)), file_name=str(tmp_path / "dyn"),
                     file_format="MINDIR", dynamic_batch=True)
    assert list(read_model(path).graph.input[0].tensor[0].dims) == [-1, 1, 3, 4]
    graph = ms.load(path)
    for batch in (1, 5):
        x = ms.Tensor(np.random.default_rng(batch).standard_normal((batch, 1, 3, 4)).astype(np.float32))
        np.testing.assert_allclose(graph(x).asnumpy(), net(x).asnumpy(), rtol=1e-6, atol=1e-6)


global_param = ms.Parameter(ms.Tensor(np.array([1, 2, 3], np.int32)), name="global_param")


class UsesGlobal(nn.Cell):
    def __init__(self):
        super().__init__()
        self.bias = ms.Parameter(ms.Tensor(np.array([0, 1, -1], np.int32)))

    def construct(self, x):
        return x + global_param + self.bias


class UsesOwnAndArgument(nn.Cell):
    def __init__(self):
        super().__init__()
        self.bias = ms.Parameter(ms.Tensor(np.array([0, 1, -1], np.int32)))

    def construct(self, x):
        return x + self.bias


def test_a_parameter_from_outside_the_cell_is_refused_with_mindspore_message(tmp_path, mode):
    arg = ms.Parameter(ms.Tensor(np.array([1, 2, 3], np.int32)), name="input_param")
    msg = ("There's a mindspore.Parameter that wasn't created in nn.Cell, and mindspore.export() does not "
           "support exporting such Parameters. The parameter name is: global_param.")
    with pytest.raises(ValueError, match=f"^{msg.replace('(', '[(]').replace(')', '[)]')}$"):
        _export(UsesGlobal(), arg, file_name=str(tmp_path / "g"), file_format="MINDIR")
    assert not list(tmp_path.iterdir())
    # The Cell's own Parameters and Parameters given as arguments are exportable.
    path = _export(UsesOwnAndArgument(), arg, file_name=str(tmp_path / "ok"), file_format="MINDIR")
    np.testing.assert_array_equal(ms.load(path)(arg).asnumpy(), [1, 3, 2])


def test_load_names_a_corrupt_truncated_or_foreign_mindir(tmp_path):
    path = _export(_mlp(), ms.Tensor(np.ones((1, 1, 3, 4), np.float32)), file_name=str(tmp_path / "m"),
                     file_format="MINDIR")
    data = open(path, "rb").read()
    cases = {"garbage.mindir": b"\xff" * 64, "truncated.mindir": data[: len(data) // 2], "empty.mindir": b""}
    for name, content in cases.items():
        bad = tmp_path / name
        bad.write_bytes(content)
        with pytest.raises(ValueError, match=f"For 'load', failed to read {bad}"):
            ms.load(str(bad))
    model = read_model(path)
    del model.user_info["mindjax.stablehlo"]
    foreign = tmp_path / "foreign.mindir"
    foreign.write_bytes(model.SerializeToString())
    with pytest.raises(ValueError, match=f"{foreign} is a MindIR file from MindJAX without the StableHLO program"):
        ms.load(str(foreign))
    model = read_model(path)
    model.user_info["mindjax.stablehlo"] = base64.b64encode(b"not a program").decode()
    broken = tmp_path / "broken.mindir"
    broken.write_bytes(model.SerializeToString())
    with pytest.raises(ValueError, match=f"failed to read {broken}: its StableHLO program is corrupted"):
        ms.load(str(broken))
    model = read_model(path)
    model.graph.parameter[0].raw_data = model.graph.parameter[0].raw_data[:-4]
    short = tmp_path / "short.mindir"
    short.write_bytes(model.SerializeToString())
    with pytest.raises(ValueError, match=r"parameter '1.weight' holds 380 bytes, expected 384 .* corrupted"):
        ms.load(str(short))
    with pytest.raises(ValueError, match="does not exist"):
        ms.load(str(tmp_path / "missing.mindir"))


def test_mindir_write_is_atomic_and_leaves_no_temporary(tmp_path):
    net = _mlp()
    x = ms.Tensor(np.ones((1, 1, 3, 4), np.float32))
    _export(net, x, file_name=str(tmp_path / "m"), file_format="MINDIR")
    _export(net, x, file_name=str(tmp_path / "m.mindir"), file_format="mindir")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["m.mindir"]


def test_load_mindir_and_save_mindir_edit_the_model_proto(tmp_path):
    net = _mlp()
    x = ms.Tensor(np.ones((1, 1, 3, 4), np.float32))
    path = _export(net, x, file_name=str(tmp_path / "m"), file_format="MINDIR")
    model = ms.load_mindir(path)
    assert model.producer_name == "MindJAX" and len(model.graph.parameter) == 4
    model.user_info["version"] = "v100"
    ms.save_mindir(model, str(tmp_path / "edited"))  # .mindir appended, as MindSpore's
    edited = ms.load_mindir(str(tmp_path / "edited.mindir"))
    assert edited.user_info["version"] == "v100"
    np.testing.assert_allclose(ms.load(str(tmp_path / "edited.mindir"))(x).asnumpy(), net(x).asnumpy(), rtol=1e-6)
    with pytest.raises(TypeError, match="For 'save_mindir', the argument 'model' must be ModelProto"):
        ms.save_mindir(object(), str(tmp_path / "x.mindir"))
    with pytest.raises(TypeError, match="The '3' must be string"):
        ms.load_mindir(3)
    with pytest.raises(ValueError, match="For 'load_mindir', the file .*missing.mindir does not exist"):
        ms.load_mindir(str(tmp_path / "missing.mindir"))
    (tmp_path / "bad.mindir").write_bytes(b"\xff\xff\xff")
    with pytest.raises(ValueError, match="For 'load_mindir', failed to read .*bad.mindir"):
        ms.load_mindir(str(tmp_path / "bad.mindir"))
    assert not (tmp_path / "x.mindir").exists()


class Embed(nn.Cell):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(6, 4)
        self.fc = nn.Dense(4, 2)

    def construct(self, ids):
        return self.fc(self.emb(ids)).sum(1)


@pytest.mark.parametrize("fmt", ["MINDIR", "STABLEHLO"])
def test_a_network_with_index_checks_exports_in_both_modes(tmp_path, mode, fmt):
    net = Embed()
    ids = ms.Tensor(np.array([[0, 5, 2], [1, 1, 4]], np.int32))
    assert ms.export(net, ids, file_name=str(tmp_path / "e"), file_format=fmt) is None
    graph = ms.load(str(tmp_path / ("e.mindir" if fmt == "MINDIR" else "e.stablehlo")))
    np.testing.assert_allclose(graph(ids).asnumpy(), net(ids).asnumpy(), rtol=1e-6, atol=1e-6)
    if fmt == "MINDIR":
        assert [t.ref_key for t in read_model(str(tmp_path / "e.mindir")).graph.parameter] == [
            "emb.embedding_table", "fc.weight", "fc.bias"]


def test_tuple_outputs_and_a_function_export_as_mindir(tmp_path):
    class Two(nn.Cell):
        def __init__(self):
            super().__init__()
            self.fc = nn.Dense(3, 2)

        def construct(self, x):
            y = self.fc(x)
            return y, ms.ops.exp(y)

    net = Two()
    x = ms.Tensor(np.ones((2, 3), np.float32))
    path = _export(net, x, file_name=str(tmp_path / "two"), file_format="MINDIR")
    model = read_model(path)
    assert model.graph.output[0].denotation == "Tuple" and len(model.graph.output[0].attr_info.values) == 2
    for got, want in zip(ms.load(path)(x), net(x)):
        np.testing.assert_allclose(got.asnumpy(), want.asnumpy(), rtol=1e-6)

    def double(a):
        return a * 2.0 + 1.0

    path = _export(double, x, file_name=str(tmp_path / "fn"), file_format="MINDIR")
    assert not read_model(path).graph.parameter
    np.testing.assert_allclose(ms.load(path)(x).asnumpy(), 3.0)


def test_load_recognises_a_mindir_file_under_another_name(tmp_path):
    net = _mlp()
    x = ms.Tensor(np.ones((1, 1, 3, 4), np.float32))
    path = _export(net, x, file_name=str(tmp_path / "m"), file_format="MINDIR")
    renamed = tmp_path / "model.bin"
    renamed.write_bytes(open(path, "rb").read())
    np.testing.assert_allclose(ms.load(str(renamed))(x).asnumpy(), net(x).asnumpy(), rtol=1e-6)
    other = tmp_path / "other.bin"
    other.write_bytes(b"\x00" * 16)
    with pytest.raises(ValueError, match=f"failed to read {other}: it is truncated, corrupted or not a file written"):
        ms.load(str(other))
