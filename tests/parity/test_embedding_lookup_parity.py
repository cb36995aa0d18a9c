"""EmbeddingLookup and MultiFieldEmbeddingLookup against MindSpore 2.10 (same table), both modes."""
import os

os.environ.setdefault("GLOG_v", "3")

import numpy as np  # noqa: E402
import pytest  # noqa: E402

mindspore = pytest.importorskip("mindspore")

import mindjax  # noqa: E402

IDS = np.array([[0, 3, 1], [2, 7, -1]], np.int32)  # 7 and -1 are outside a 5-row table


def _pair(cls, *args, **kwargs):
    theirs = getattr(mindspore.nn, cls)(*args, **kwargs)
    ours = getattr(mindjax.nn, cls)(*args, **kwargs)
    ours.embedding_table.set_data(mindjax.Tensor(theirs.embedding_table.asnumpy()))
    return theirs, ours


def _call(framework, cell, graph, *inputs):
    framework.set_context(mode=framework.GRAPH_MODE if graph else framework.PYNATIVE_MODE)
    out = cell(*[framework.Tensor(x) for x in inputs]).asnumpy()
    framework.set_context(mode=framework.PYNATIVE_MODE)
    return out


@pytest.mark.parametrize("graph", [False, True], ids=["pynative", "graph"])
@pytest.mark.parametrize("kwargs, ids", [
    ({}, IDS), ({"param_init": "uniform", "dtype": "float16"}, IDS),
    ({"target": "DEVICE", "sparse": False}, np.array([[0, 4], [2, 1]], np.int32)),
])
def test_embedding_lookup_matches_mindspore(kwargs, ids, graph):
    def build(framework):
        args = {k: (getattr(framework, v) if k == "dtype" else v) for k, v in kwargs.items()}
        return framework.nn.EmbeddingLookup(5, 3, **args)

    theirs, ours = build(mindspore), build(mindjax)
    ours.embedding_table.set_data(mindjax.Tensor(theirs.embedding_table.asnumpy()))
    want = _call(mindspore, theirs, graph, ids)
    got = _call(mindjax, ours, graph, ids)
    np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-7)
    assert [(n, p.shape) for n, p in ours.parameters_and_names()] == [
        (n, tuple(p.shape)) for n, p in theirs.parameters_and_names()]


@pytest.mark.parametrize("target, sparse", [("CPU", True), ("DEVICE", False)])
def test_embedding_lookup_max_norm_clips_each_row_to_the_documented_norm(target, sparse):
    # MindSpore 2.10's CPU ClipByNorm over the last axis of a 3-D tensor scales rows by other rows' norms
    # (a row of norm 0.0104 comes back scaled by 0.646 for max_norm 0.01), so the documented formula is the spec.
    layer = mindjax.nn.EmbeddingLookup(5, 3, target=target, sparse=sparse, max_norm=0.01)
    table = layer.embedding_table.asnumpy()
    ids = np.array([[0, 3, 1], [2, 4, 0]], np.int32)
    rows = table[ids]
    norms = np.linalg.norm(rows, axis=-1, keepdims=True)
    want = np.where(norms > 0.01, rows * 0.01 / norms, rows)
    for graph in (False, True):
        np.testing.assert_allclose(_call(mindjax, layer, graph, ids), want, rtol=1e-5, atol=1e-8)


def test_embedding_lookup_on_device_rejects_an_id_outside_the_table():
    layer = mindjax.nn.EmbeddingLookup(5, 3, target="DEVICE", sparse=False)
    with pytest.raises(Exception, match="indices.*5"):
        layer(mindjax.Tensor(np.array([[0, 5]], np.int32)))


def test_embedding_lookup_device_sparse_gives_the_dense_gather():
    # MindSpore 2.10 has no CPU kernel for SparseGatherV2: its result is the Gather's.
    theirs, ours = _pair("EmbeddingLookup", 5, 3, target="DEVICE", sparse=False)
    sparse = mindjax.nn.EmbeddingLookup(5, 3, target="DEVICE", sparse=True)
    sparse.embedding_table.set_data(ours.embedding_table)
    ids = np.array([[0, 4], [2, 1]], np.int32)
    np.testing.assert_array_equal(_call(mindjax, sparse, False, ids), _call(mindspore, theirs, False, ids))


FIELD_IDS = np.array([[0, 1, 1, 2], [2, 2, 0, 0]], np.int32)
IN_IDS = np.array([[0, 3, 1, 4], [2, 6, 1, 0]], np.int32)
VALUES = np.array([[1.0, 0.5, -2.0, 0.0], [0.3, 1.0, 0.0, 0.0]], np.float32)


@pytest.mark.parametrize("graph", [False, True], ids=["pynative", "graph"])
@pytest.mark.parametrize("operator", ["SUM", "MEAN", "MAX"])
def test_multi_field_embedding_lookup_matches_mindspore(operator, graph):
    theirs, ours = _pair("MultiFieldEmbeddingLookup", 5, 3, 3, operator=operator)
    want = _call(mindspore, theirs, graph, IN_IDS, VALUES, FIELD_IDS)
    got = _call(mindjax, ours, graph, IN_IDS, VALUES, FIELD_IDS)
    assert got.shape == (2, 3, 3)
    np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-7)


BAD = [
    lambda nn: nn.EmbeddingLookup(4, 3, sparse=False), lambda nn: nn.EmbeddingLookup(0, 3),
    lambda nn: nn.EmbeddingLookup(4, 0), lambda nn: nn.EmbeddingLookup(4, 3, target="GPU"),
    lambda nn: nn.EmbeddingLookup(4, 3, max_norm=-1.0), lambda nn: nn.EmbeddingLookup(4, 3, max_norm=1),
    lambda nn: nn.EmbeddingLookup(4, 3, sparse=1), lambda nn: nn.MultiFieldEmbeddingLookup(4, 3, 0),
    lambda nn: nn.MultiFieldEmbeddingLookup(4, 3, 2, operator="MIN"),
]


@pytest.mark.parametrize("index", range(len(BAD)))
def test_bad_constructor_argument_raises_mindspores_error(index):
    with pytest.raises((TypeError, ValueError)) as theirs:
        BAD[index](mindspore.nn)
    with pytest.raises(type(theirs.value)) as ours:
        BAD[index](mindjax.nn)
    want = str(theirs.value).split("\n")[0]
    # MindSpore's positive-int check of 'vocab_size' forgets the Cell's name; MindJAX's names it.
    assert str(ours.value).endswith(want.removeprefix("The "))
    assert str(ours.value).startswith("For '")


def test_multi_field_inputs_must_be_2d_with_mindspores_dtypes():
    layer = mindjax.nn.MultiFieldEmbeddingLookup(5, 3, 3)
    ok = [mindjax.Tensor(x) for x in (IN_IDS, VALUES, FIELD_IDS)]
    with pytest.raises(ValueError, match="the dimension of 'input_values' must be 2d, but got 1"):
        layer(ok[0], mindjax.Tensor(VALUES[0]), ok[2])
    with pytest.raises(TypeError, match="'field_ids' must be a Tensor of Int32, but got Int64"):
        layer(ok[0], ok[1], mindjax.Tensor(FIELD_IDS.astype(np.int64)))


def test_field_slice_in_auto_parallel_raises_naming_why():
    mindjax.set_auto_parallel_context(parallel_mode="semi_auto_parallel")
    with pytest.raises(NotImplementedError, match="'field_slice'.*manual_split"):
        mindjax.nn.EmbeddingLookup(8, 4, slice_mode="field_slice", manual_shapes=(4, 4))
    with pytest.raises(ValueError, match="'slice_mode' must be in"):
        mindjax.nn.EmbeddingLookup(8, 4, slice_mode="rows")
    layer = mindjax.nn.EmbeddingLookup(8, 4, slice_mode="table_row_slice")
    assert layer(mindjax.Tensor(np.array([1, 2], np.int32))).shape == (2, 4)
