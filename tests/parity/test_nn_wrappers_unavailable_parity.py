"""ParameterUpdate and VirtualDatasetCellTriple against MindSpore 2.10, and the Ascend/distributed-only
classes (THOR layers, AdaSum, OptTFTWrapper, GetNextSingleOp): MindSpore's signatures, and a
NotImplementedError naming the alternative on construction."""
import inspect
import os

os.environ.setdefault("GLOG_v", "3")

import numpy as np  # noqa: E402
import pytest  # noqa: E402

mindspore = pytest.importorskip("mindspore")

import mindjax  # noqa: E402
from tests.parity import nets_compat_mj, nets_compat_ms  # noqa: E402

UNAVAILABLE = {
    "DenseThor": ((3, 4), "nn.Dense"), "Conv2dThor": ((3, 4, 3), "nn.Conv2d"),
    "EmbeddingThor": ((10, 4), "nn.Embedding"), "EmbeddingLookupThor": ((10, 4), "nn.EmbeddingLookup"),
    "AdaSumByGradWrapCell": ((None,), "data_parallel"), "AdaSumByDeltaWeightWrapCell": ((None,), "data_parallel"),
    "OptTFTWrapper": ((None,), "BackupAndRestore"),
    "GetNextSingleOp": (([mindjax.float32], [(2, 3)], "q"), "create_tuple_iterator"),
}


def _signature(cls):
    return [(p.name, p.kind, repr(p.default)) for p in inspect.signature(cls.__init__).parameters.values()]


@pytest.mark.parametrize("name", sorted(UNAVAILABLE))
def test_ascend_only_class_has_mindspores_signature_and_raises_naming_the_alternative(name):
    ours = getattr(mindjax.nn, name)
    theirs = getattr(mindspore.nn, name)
    got, want = _signature(ours), _signature(theirs)
    assert [g[:2] for g in got] == [w[:2] for w in want]
    # Defaults agree (dtype objects of the two frameworks print alike: 'Float32').
    assert [g[2] for g in got] == [w[2] for w in want]
    args, alternative = UNAVAILABLE[name]
    with pytest.raises(NotImplementedError, match=f"For '{name}'.*{alternative}"):
        ours(*args)


@pytest.mark.parametrize("module", ["nn.layer.thor_layer", "nn.optim.adasum", "nn.optim.tft_wrapper",
                                    "nn.wrap.cell_wrapper"])
def test_classes_are_at_mindspores_module_paths(module):
    import importlib
    ms_mod, mj_mod = importlib.import_module("mindspore." + module), importlib.import_module("mindjax." + module)
    for name in UNAVAILABLE:
        if hasattr(ms_mod, name):
            assert getattr(mj_mod, name) is getattr(mindjax.nn, name)


@pytest.mark.parametrize("graph", [False, True], ids=["pynative", "graph"])
def test_parameter_update_writes_its_input_like_mindspore(graph):
    def run(framework):
        framework.set_context(mode=framework.GRAPH_MODE if graph else framework.PYNATIVE_MODE)
        param = framework.Parameter(framework.Tensor(np.zeros((2, 3), np.float32)), name="w")
        cell = framework.nn.ParameterUpdate(param)
        out = cell(framework.Tensor(np.arange(6, dtype=np.float32).reshape(2, 3)))
        return out.asnumpy(), param.asnumpy(), [p.name for p in cell.get_parameters()]

    want, got = run(mindspore), run(mindjax)
    mindjax.set_context(mode=mindjax.PYNATIVE_MODE)
    for w, g in zip(want[:2], got[:2]):
        np.testing.assert_array_equal(g, w)
    assert got[2] == want[2] == ["w"]


def test_parameter_update_rejects_a_non_parameter_with_mindspores_message():
    with pytest.raises(TypeError) as theirs:
        mindspore.nn.ParameterUpdate(np.zeros(2))
    with pytest.raises(TypeError) as ours:
        mindjax.nn.ParameterUpdate(np.zeros(2))
    assert str(ours.value) == str(theirs.value)


class _Sum3(mindjax.nn.Cell):
    def construct(self, a, b, c):
        return a + b * c


def test_virtual_dataset_cell_triple_passes_three_inputs_to_the_backbone():
    x = [np.full((2,), v, np.float32) for v in (1.0, 2.0, 3.0)]
    net = mindjax.nn.VirtualDatasetCellTriple(_Sum3())
    np.testing.assert_array_equal(net(*[mindjax.Tensor(v) for v in x]).asnumpy(), x[0] + x[1] * x[2])
    backbone = nets_compat_mj.SmallNet()
    wrapped = mindjax.nn.VirtualDatasetCellTriple(backbone)
    theirs = mindspore.nn.VirtualDatasetCellTriple(nets_compat_ms.SmallNet())
    assert [n for n, _ in wrapped.parameters_and_names()] == [n for n, _ in theirs.parameters_and_names()]
    with pytest.raises(TypeError, match="For 'VirtualDatasetCellTriple', 'backbone' must be a Cell"):
        mindjax.nn.VirtualDatasetCellTriple(lambda a, b, c: a)
