"""ops.operations.sparse_ops: SparseToDense, SparseTensorDenseAdd, SparseTensorDenseMatmul, SparseSlice,
SparseGatherV2 and Coalesce."""
import numpy as np
import pytest

import mindjax as ms
from mindjax import ops
from mindjax.ops.operations import sparse_ops

INDICES = np.array([[0, 1], [1, 2], [0, 1]], np.int64)  # (0, 1) twice
VALUES = np.array([1.0, 2.0, 3.0], np.float32)


def test_sparse_primitives_are_exported_from_ops_and_operations():
    for name in ("SparseToDense", "SparseTensorDenseAdd", "SparseTensorDenseMatmul", "SparseSlice", "Coalesce"):
        assert getattr(ops, name) is getattr(sparse_ops, name) is getattr(ops.operations, name)
    # MindSpore keeps SparseGatherV2 in array_ops.
    assert ops.SparseGatherV2 is ops.operations.array_ops.SparseGatherV2 is ops.operations.SparseGatherV2


def test_sparse_to_dense_keeps_the_last_repeated_value():
    out = ops.SparseToDense()(ms.Tensor(INDICES), ms.Tensor(VALUES), (2, 3)).asnumpy()
    np.testing.assert_array_equal(out, [[0, 3, 0], [0, 0, 2]])
    with pytest.raises(ValueError, match="For 'SparseToDense', 'values' must have shape \\(3,\\) \\(one value per row "
                                         "of 'indices'\\), got \\(2,\\)"):
        ops.SparseToDense()(ms.Tensor(INDICES), ms.Tensor(VALUES[:2]), (2, 3))
    with pytest.raises(ValueError, match="For 'SparseToDense', 'indices' must have shape \\(N, 3\\) for a 3-D shape, "
                                         "got \\(3, 2\\)"):
        ops.SparseToDense()(ms.Tensor(INDICES), ms.Tensor(VALUES), (2, 3, 1))


def test_sparse_tensor_dense_add_adds_repeats():
    dense = np.ones((2, 3), np.float32)
    out = ops.SparseTensorDenseAdd()(ms.Tensor(INDICES), ms.Tensor(VALUES), ms.Tensor([2, 3]), ms.Tensor(dense))
    np.testing.assert_array_equal(out.asnumpy(), [[1, 5, 1], [1, 1, 3]])
    with pytest.raises(ValueError, match="For 'SparseTensorDenseAdd', 'x2' must have the shape 'x1_shape' = \\(2, 3\\), "
                                         "got \\(3, 2\\)"):
        ops.SparseTensorDenseAdd()(ms.Tensor(INDICES), ms.Tensor(VALUES), (2, 3), ms.Tensor(dense.T))


@pytest.mark.parametrize("adjoint_st, adjoint_dt", [(False, False), (True, False), (False, True), (True, True)])
def test_sparse_tensor_dense_matmul_matches_the_dense_product(adjoint_st, adjoint_dt):
    s = np.zeros((2, 3), np.float32)
    np.add.at(s, tuple(INDICES.T), VALUES)
    a = s.T if adjoint_st else s
    d = np.arange(a.shape[1] * 2, dtype=np.float32).reshape(a.shape[1], 2)
    prim = ops.SparseTensorDenseMatmul(adjoint_st=adjoint_st, adjoint_dt=adjoint_dt)
    out = prim(ms.Tensor(INDICES), ms.Tensor(VALUES), (2, 3), ms.Tensor(d.T if adjoint_dt else d))
    np.testing.assert_array_equal(out.asnumpy(), a @ d)
    assert prim.adjoint_st is adjoint_st


def test_sparse_tensor_dense_matmul_checks_its_arguments():
    with pytest.raises(TypeError, match="SparseTensorDenseMatmul.*adjoint_st"):
        ops.SparseTensorDenseMatmul(adjoint_st=1)
    with pytest.raises(ValueError, match="For 'SparseTensorDenseMatmul', the sparse matrix is 2x3 .* 'dense' must have "
                                         "3 rows \\(after adjoint_dt\\), got shape \\(2, 2\\)"):
        ops.SparseTensorDenseMatmul()(ms.Tensor(INDICES), ms.Tensor(VALUES), (2, 3), ms.Tensor(np.ones((2, 2))))


def test_sparse_slice_keeps_the_entries_in_the_box_shifted():
    y_idx, y_val, y_shape = ops.SparseSlice()(
        ms.Tensor(np.array([[0, 1], [1, 2], [2, 3]], np.int64)), ms.Tensor([1.0, 2.0, 3.0]), ms.Tensor([3, 4]),
        ms.Tensor([1, 0]), ms.Tensor([2, 3]))
    assert y_idx.asnumpy().tolist() == [[0, 2]] and y_val.asnumpy().tolist() == [2.0]
    assert y_shape.asnumpy().tolist() == [2, 3]
    with pytest.raises(ValueError, match="For 'SparseSlice', 'start' must have 2 entries \\(one per dimension\\), got 1"):
        ops.SparseSlice()(ms.Tensor(INDICES), ms.Tensor(VALUES), (2, 3), ms.Tensor([0]), ms.Tensor([1, 1]))


def test_sparse_gather_v2_is_gather_and_coalesce_is_ops_coalesce():
    params = np.arange(12, dtype=np.float32).reshape(3, 4)
    out = ops.SparseGatherV2()(ms.Tensor(params), ms.Tensor([2, 0], ms.int32), 0)
    np.testing.assert_array_equal(out.asnumpy(), params[[2, 0]])
    idx, values, shape = ops.Coalesce()(ms.Tensor(INDICES.T), ms.Tensor(VALUES), ms.Tensor([2, 3]))
    assert idx.asnumpy().tolist() == [[0, 1], [1, 2]] and values.asnumpy().tolist() == [4, 2]
    with pytest.raises(ValueError, match="For 'Coalesce', 'x_shape' must have shape \\(2,\\)"):
        ops.Coalesce()(ms.Tensor(INDICES.T), ms.Tensor(VALUES), ms.Tensor([2, 3, 4]))


def test_fixed_shape_sparse_primitives_trace_under_jit():
    @ms.jit
    def f(values):
        return (ops.SparseToDense()(ms.Tensor(INDICES), values, (2, 3)).sum()
                + ops.SparseTensorDenseMatmul()(ms.Tensor(INDICES), values, (2, 3), ms.Tensor(np.ones((3, 1)))).sum())

    v = ms.Tensor(VALUES)
    np.testing.assert_allclose(f(v).asnumpy(), 5 + 6)
    np.testing.assert_allclose(ms.grad(f)(v).asnumpy(), [1, 2, 2])  # the first (0, 1) is overwritten in SparseToDense
