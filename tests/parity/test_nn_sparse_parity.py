"""COOTensor, SparseToDense and SparseTensorDenseMatmul against MindSpore 2.10, in both modes."""
import os

os.environ.setdefault("GLOG_v", "3")

import numpy as np  # noqa: E402
import pytest  # noqa: E402

mindspore = pytest.importorskip("mindspore")

import mindjax  # noqa: E402

INDICES = np.array([[0, 1], [1, 2], [0, 1], [2, 3]], np.int32)  # (0, 1) twice
VALUES = np.array([1.0, 2.0, 3.0, -4.0], np.float32)


def _in_mode(framework, graph, fn):
    framework.set_context(mode=framework.GRAPH_MODE if graph and framework is mindjax else framework.PYNATIVE_MODE)
    try:
        return fn()
    finally:
        framework.set_context(mode=framework.PYNATIVE_MODE)


@pytest.mark.parametrize("graph", [False, True], ids=["pynative", "graph"])
def test_sparse_to_dense_keeps_the_last_repeated_value_like_mindspore(graph):
    outs = []
    for fw in (mindspore, mindjax):
        coo = fw.COOTensor(fw.Tensor(INDICES), fw.Tensor(VALUES), (3, 4))
        outs.append(_in_mode(fw, graph, lambda: fw.nn.SparseToDense()(coo).asnumpy()))
    np.testing.assert_array_equal(outs[1], outs[0])
    assert outs[1][0, 1] == 3.0


@pytest.mark.parametrize("graph", [False, True], ids=["pynative", "graph"])
@pytest.mark.parametrize("adjoint_st, adjoint_dt, dense_shape", [
    (False, False, (4, 2)), (True, False, (3, 2)), (False, True, (2, 4)), (True, True, (5, 3)),
])
def test_sparse_tensor_dense_matmul_matches_mindspore(adjoint_st, adjoint_dt, dense_shape, graph):
    dense = np.random.default_rng(0).standard_normal(dense_shape).astype(np.float32)
    outs = []
    for fw in (mindspore, mindjax):
        layer = fw.nn.SparseTensorDenseMatmul(adjoint_st=adjoint_st, adjoint_dt=adjoint_dt)
        outs.append(_in_mode(fw, graph, lambda: layer(fw.Tensor(INDICES), fw.Tensor(VALUES), (3, 4),
                                                      fw.Tensor(dense)).asnumpy()))
    assert outs[1].shape == outs[0].shape
    np.testing.assert_allclose(outs[1], outs[0], rtol=1e-6, atol=1e-6)


def test_coo_tensor_parts_and_dense_form():
    coo = mindjax.COOTensor(mindjax.Tensor(INDICES), mindjax.Tensor(VALUES), (3, 4))
    want = np.zeros((3, 4), np.float32)
    np.add.at(want, tuple(INDICES.T), VALUES)
    np.testing.assert_array_equal(coo.to_dense().asnumpy(), want)
    assert coo.shape == (3, 4) and coo.ndim == 2 and coo.size == 4 and coo.itemsize == 4
    np.testing.assert_array_equal(coo.abs().values.asnumpy(), np.abs(VALUES))
    assert coo.astype(mindjax.float16).dtype == np.float16
    np.testing.assert_array_equal(mindjax.COOTensor(coo_tensor=coo).indices.asnumpy(), INDICES)
    with pytest.raises(ValueError, match="For 'COOTensor', 'values' must have shape \\(4,\\)"):
        mindjax.COOTensor(mindjax.Tensor(INDICES), mindjax.Tensor(VALUES[:3]), (3, 4))
    with pytest.raises(ValueError, match="'indices' must have shape \\(N, 3\\)"):
        mindjax.COOTensor(mindjax.Tensor(INDICES), mindjax.Tensor(VALUES), (3, 4, 5))
    with pytest.raises(TypeError, match="'shape' must be a tuple of positive ints"):
        mindjax.COOTensor(mindjax.Tensor(INDICES), mindjax.Tensor(VALUES), 12)


def test_bad_arguments_raise_naming_the_cell():
    with pytest.raises(TypeError) as theirs:
        mindspore.nn.SparseTensorDenseMatmul(adjoint_st=1)
    with pytest.raises(TypeError) as ours:
        mindjax.nn.SparseTensorDenseMatmul(adjoint_st=1)
    assert str(ours.value) == str(theirs.value).split("\n")[0]
    layer = mindjax.nn.SparseTensorDenseMatmul()
    # MindSpore 2.10 multiplies a 3x4 sparse matrix by a 3x2 dense one without a word; MindJAX refuses.
    with pytest.raises(ValueError, match="'dense' must have 4 rows \\(after adjoint_dt\\), got shape \\(3, 2\\)"):
        layer(mindjax.Tensor(INDICES), mindjax.Tensor(VALUES), (3, 4), mindjax.Tensor(np.ones((3, 2), np.float32)))
    with pytest.raises(TypeError, match="For 'SparseToDense', 'sparse_tensor' must be a COOTensor"):
        mindjax.nn.SparseToDense()(mindjax.Tensor(VALUES))
