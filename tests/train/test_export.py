"""ms.export / ms.load / GraphCell: StableHLO through jax.export, run without the model code."""
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import mindjax as ms
from mindjax import nn
from mindjax.train.serialization import GraphCell, export, load

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


class LeNet5(nn.Cell):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 6, 5, pad_mode="valid")
        self.conv2 = nn.Conv2d(6, 16, 5, pad_mode="valid")
        self.fc1 = nn.Dense(400, 120)
        self.fc2 = nn.Dense(120, 84)
        self.fc3 = nn.Dense(84, 10)
        self.relu = nn.ReLU()
        self.pool = nn.MaxPool2d(kernel_size=2, stride=2)
        self.flatten = nn.Flatten()
        self.dropout = nn.Dropout(p=0.5)

    def construct(self, x):
        x = self.pool(self.relu(self.conv1(x)))
        x = self.pool(self.relu(self.conv2(x)))
        x = self.dropout(self.flatten(x))
        return self.fc3(self.relu(self.fc2(self.relu(self.fc1(x)))))


_RUNNER = textwrap.dedent("""
    import sys
    import numpy as np
    from jax import export as jax_export

    path, x_path, out_path = sys.argv[1:4]
    x = np.load(x_path)
    plain = jax_export.deserialize(bytearray(open(path, "rb").read())).call(x)
    assert not any(m.startswith("mindjax") or m.startswith("tests") for m in sys.modules), "model code imported"

    from mindjax.train.serialization import load
    graph = load(path)
    np.save(out_path, np.stack([np.asarray(plain), np.asarray(graph(x))]))
    print("cells layers imported:", "mindjax.cells.layers.conv" in sys.modules)
""")


def test_exported_lenet_runs_in_a_fresh_process_without_the_model_code(tmp_path):
    net = LeNet5()
    net.set_train(True)  # export must still trace inference (no dropout)
    x = np.random.default_rng(0).standard_normal((3, 1, 32, 32)).astype(np.float32)
    assert export(net, ms.Tensor(x[:1]), file_name=str(tmp_path / "lenet"), file_format="STABLEHLO",
                  dynamic_batch=True) is None  # as MindSpore's
    path = str(tmp_path / "lenet.stablehlo")
    assert os.path.isfile(path) and net.training
    net.set_train(False)
    expected = net(ms.Tensor(x)).asnumpy()
    np.save(tmp_path / "x.npy", x)
    env = dict(os.environ, PYTHONPATH=REPO, JAX_PLATFORMS="cpu")
    result = subprocess.run([sys.executable, "-c", _RUNNER, path, str(tmp_path / "x.npy"), str(tmp_path / "y.npy")],
                            env=env, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr
    plain, graph = np.load(tmp_path / "y.npy")
    np.testing.assert_allclose(plain, expected, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(graph, expected, rtol=1e-5, atol=1e-5)


def test_loaded_graph_cell_serves_any_batch_size_in_both_modes(tmp_path, mode):
    net = nn.SequentialCell([nn.Dense(4, 3), nn.ReLU()])
    export(net, ms.Tensor(np.ones((2, 4), np.float32)), file_name=str(tmp_path / "mlp"), dynamic_batch=True)
    graph = nn.GraphCell(load(str(tmp_path / "mlp"))) if hasattr(nn, "GraphCell") else GraphCell(
        load(str(tmp_path / "mlp")))
    for batch in (1, 5):
        x = ms.Tensor(np.arange(batch * 4, dtype=np.float32).reshape(batch, 4))
        np.testing.assert_allclose(graph(x).asnumpy(), net(x).asnumpy(), rtol=1e-6)


def test_static_export_fixes_the_batch_and_checks_inputs(tmp_path):
    net = nn.Dense(4, 3)
    export(net, ms.Tensor(np.ones((2, 4), np.float32)), file_name=str(tmp_path / "d.stablehlo"))
    graph = load(str(tmp_path / "d.stablehlo"))
    assert graph(ms.Tensor(np.ones((2, 4), np.float32))).shape == (2, 3)
    with pytest.raises(ValueError, match="expected 1 inputs"):
        graph(ms.Tensor(np.ones((2, 4), np.float32)), ms.Tensor(np.ones((2, 4), np.float32)))


def test_air_and_onnx_formats_are_refused(tmp_path):
    net = nn.Dense(4, 3)
    x = ms.Tensor(np.ones((2, 4), np.float32))
    with pytest.raises(ValueError, match="'ONNX' is not supported, use 'STABLEHLO' or 'MINDIR'"):
        export(net, x, file_name=str(tmp_path / "d"), file_format="ONNX")
    with pytest.raises(ValueError, match="'AIR' is not supported"):
        export(net, x, file_name=str(tmp_path / "d"), file_format="AIR")
    with pytest.raises(ValueError, match="must be 'STABLEHLO' or 'MINDIR', got 'PB'"):
        export(net, x, file_name=str(tmp_path / "d"), file_format="PB")
    assert not list(tmp_path.iterdir())


def test_load_rejects_a_corrupted_file_naming_it(tmp_path):
    bad = tmp_path / "bad.stablehlo"
    bad.write_bytes(b"\x00" * 64)
    with pytest.raises(ValueError, match=f"failed to read {bad}"):
        load(str(bad))
    with pytest.raises(ValueError, match="does not exist"):
        load(str(tmp_path / "missing.stablehlo"))
