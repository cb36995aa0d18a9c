"""ops.function.sparse_func: conversions, CSR/COO algebra, getters and constructors; jit, grads and errors."""
import jax
import jax.numpy as jnp
import numpy as np
import pytest

import mindjax as ms
from mindjax import ops
from mindjax.ops.function import sparse_func

DENSE = np.array([[1, 0, -2, 0], [0, 0, 0, 0], [0, 3, 0, 0]], np.float32)


def _csr(values=None):
    values = ms.Tensor(np.array([1.0, -2.0, 3.0], np.float32)) if values is None else values
    return ms.CSRTensor(ms.Tensor([0, 2, 2, 3], ms.int32), ms.Tensor([0, 2, 1], ms.int32), values, (3, 4))


def _coo(indices, values, shape=(3, 4)):
    return ms.COOTensor(ms.Tensor(np.asarray(indices, np.int64)), ms.Tensor(np.asarray(values, np.float32)), shape)


def test_every_mindspore_sparse_func_name_is_exported_from_ops():
    for name in sparse_func.__all__:
        assert getattr(ops, name) is getattr(sparse_func, name)
        assert getattr(ops, name).__doc__


def test_csr_to_dense_to_coo_and_dense_to_sparse_round_trip():
    x = _csr()
    np.testing.assert_array_equal(ops.csr_to_dense(x).asnumpy(), DENSE)
    assert ops.csr_to_coo(x).indices.asnumpy().tolist() == [[0, 0], [0, 2], [2, 1]]
    coo = ops.dense_to_sparse_coo(ms.Tensor(DENSE))
    assert coo.indices.dtype == ms.int32 and coo.indices.asnumpy().tolist() == [[0, 0], [0, 2], [2, 1]]
    csr = ops.dense_to_sparse_csr(ms.Tensor(DENSE))
    assert csr.indptr.asnumpy().tolist() == [0, 2, 2, 3] and csr.values.asnumpy().tolist() == [1, -2, 3]
    np.testing.assert_array_equal(ms.Tensor(DENSE).to_csr().to_dense().asnumpy(), DENSE)
    np.testing.assert_array_equal(ms.Tensor(DENSE).to_coo().to_dense().asnumpy(), DENSE)


def test_coo2csr_and_csr2coo_convert_row_indices():
    assert ops.coo2csr(ms.Tensor([0, 0, 2], ms.int32), 4).asnumpy().tolist() == [0, 2, 2, 3, 3]
    assert ops.csr2coo(ms.Tensor([0, 2, 2, 3], ms.int32), 3).asnumpy().tolist() == [0, 0, 2]


def test_csr_mul_and_div_broadcast_the_dense_operand_over_the_entries():
    x = _csr()
    col = ms.Tensor(np.array([[2.0], [3.0], [4.0]], np.float32))
    assert ops.csr_mul(x, col).values.asnumpy().tolist() == [2, -4, 12]
    assert ops.csr_div(x, ms.Tensor(DENSE + 10)).values.asnumpy().tolist() == pytest.approx([1 / 11, -2 / 8, 3 / 13])
    with pytest.raises(ValueError, match="For 'csr_mul', 'y' must broadcast to the sparse tensor's shape \\(3, 4\\), "
                                         "got shape \\(2,\\)"):
        ops.csr_mul(x, ms.Tensor([1.0, 2.0]))


def test_csr_mv_and_mm_with_a_dense_operand():
    x = _csr()
    vec = np.arange(4, dtype=np.float32).reshape(4, 1)
    np.testing.assert_array_equal(ops.csr_mv(x, ms.Tensor(vec)).asnumpy(), DENSE @ vec)
    np.testing.assert_array_equal(x.mv(ms.Tensor(vec)).asnumpy(), DENSE @ vec)
    mat = np.arange(8, dtype=np.float32).reshape(4, 2)
    np.testing.assert_array_equal(x.mm(ms.Tensor(mat)).asnumpy(), DENSE @ mat)
    np.testing.assert_array_equal(ops.csr_mm(x, ms.Tensor(mat.T), trans_b=True).asnumpy(), DENSE @ mat)
    np.testing.assert_array_equal(ops.csr_mm(x, ms.Tensor(np.ones((3, 2), np.float32)), trans_a=True).asnumpy(),
                                  DENSE.T @ np.ones((3, 2)))
    with pytest.raises(ValueError, match="For 'csr_mv', 'dense' must have shape \\(4, 1\\), got \\(3, 1\\)"):
        ops.csr_mv(x, ms.Tensor(np.ones((3, 1), np.float32)))
    with pytest.raises(ValueError, match="For 'csr_mv', only 2-D inputs are supported, got a 2-D CSRTensor and a "
                                         "1-D 'dense'"):
        ops.csr_mv(x, ms.Tensor(np.ones((4,), np.float32)))
    with pytest.raises(ValueError, match="For 'csr_mm', op\\(a\\) is 3x4 and op\\(b\\) is 3x2: the inner"):
        ops.csr_mm(x, ms.Tensor(np.ones((3, 2), np.float32)))
    with pytest.raises(TypeError, match="For 'csr_mm', 'trans_a' must be a bool, got int"):
        ops.csr_mm(x, ms.Tensor(mat), trans_a=1)


def test_csr_mm_of_two_csr_tensors_is_the_sparse_product():
    b_dense = np.array([[1, 0], [0, 0], [0, 5], [0, 0]], np.float32)
    b = ops.dense_to_sparse_csr(ms.Tensor(b_dense))
    out = ops.csr_mm(_csr(), b)
    assert isinstance(out, ms.CSRTensor) and out.shape == (3, 2)
    np.testing.assert_array_equal(out.to_dense().asnumpy(), DENSE @ b_dense)
    assert out.indptr.asnumpy().tolist() == [0, 2, 2, 2]  # row 2 meets no stored entry of b
    adj = ops.csr_mm(b, _csr(), adjoint_a=True, adjoint_b=True)
    np.testing.assert_array_equal(adj.to_dense().asnumpy(), b_dense.T @ DENSE.T)


def test_csr_add_takes_the_union_of_entries_with_sorted_columns():
    other = ms.CSRTensor(ms.Tensor([0, 1, 2, 2], ms.int32), ms.Tensor([1, 3], ms.int32), ms.Tensor([5.0, 7.0]),
                         (3, 4))
    out = ops.csr_add(_csr(), other, ms.Tensor(2.0), ms.Tensor(-1.0))
    np.testing.assert_array_equal(out.to_dense().asnumpy(), 2 * DENSE - other.to_dense().asnumpy())
    assert out.indptr.asnumpy().tolist() == [0, 3, 4, 5] and out.indices.asnumpy().tolist() == [0, 1, 2, 3, 1]
    with pytest.raises(ValueError, match="For 'csr_add', 'a' and 'b' must have the same shape, got \\(3, 4\\) and "
                                         "\\(2, 2\\)"):
        ops.csr_add(_csr(), ops.dense_to_sparse_csr(ms.Tensor(np.eye(2, dtype=np.float32))), 1.0, 1.0)


def test_csr_reduce_sum_softmax_and_gather():
    x = _csr()
    np.testing.assert_array_equal(ops.csr_reduce_sum(x, 1).asnumpy(), DENSE.sum(1, keepdims=True))
    np.testing.assert_array_equal(x.sum(-1).asnumpy(), DENSE.sum(1, keepdims=True))
    with pytest.raises(ValueError, match="For 'csr_reduce_sum', 'axis' must be 1 or -1 \\(1 - ndim\\), got 0"):
        ops.csr_reduce_sum(x, 0)
    soft = ops.csr_softmax(x, ms.float32).values.asnumpy()
    np.testing.assert_allclose(soft, [np.exp(3) / (np.exp(3) + 1), 1 / (np.exp(3) + 1), 1.0], rtol=1e-6)
    gathered = ops.csr_gather(x.indptr, x.indices, ms.Tensor(np.arange(12, dtype=np.float32).reshape(3, 4)), (3, 4))
    assert gathered.asnumpy().tolist() == [0, 2, 9]
    with pytest.raises(ValueError, match="For 'csr_gather', 'dense' must start with the dimensions 'sparse_shape' = "
                                         "\\(3, 4\\), got shape \\(4, 3\\)"):
        ops.csr_gather(x.indptr, x.indices, ms.Tensor(np.ones((4, 3), np.float32)), (3, 4))


def test_coo_add_sums_shared_coordinates_and_drops_those_below_thresh():
    a = _coo([[0, 1], [1, 2]], [1.0, -2.0])
    b = _coo([[0, 1], [2, 2]], [-1.0, 4.0])
    out = ops.coo_add(a, b, ms.Tensor(0.5))
    assert out.indices.asnumpy().tolist() == [[1, 2], [2, 2]] and out.values.asnumpy().tolist() == [-2, 4]
    kept = ops.coo_add(a, b, ms.Tensor(0.0))
    assert kept.indices.asnumpy().tolist() == [[0, 1], [1, 2], [2, 2]] and kept.values.asnumpy().tolist() == [0, -2, 4]
    np.testing.assert_array_equal(a.add(b, ms.Tensor(0.0)).to_dense().asnumpy(), kept.to_dense().asnumpy())
    with pytest.raises(ValueError, match="For 'coo_add', 'x1' and 'x2' must have the same shape"):
        ops.coo_add(a, _coo([[0, 0]], [1.0], (2, 2)), ms.Tensor(0.0))
    with pytest.raises(TypeError, match="For 'coo_add', 'x2' must be a COOTensor, got CSRTensor"):
        ops.coo_add(a, _csr(), ms.Tensor(0.0))


def test_coo_concat_orders_the_coordinates_row_major():
    a = _coo([[0, 1], [1, 2]], [1.0, -2.0])
    b = _coo([[0, 1], [2, 2]], [-1.0, 4.0])
    out = ops.coo_concat((a, b), 1)
    assert out.shape == (3, 8)
    assert out.indices.asnumpy().tolist() == [[0, 1], [0, 5], [1, 2], [2, 6]]
    assert out.values.asnumpy().tolist() == [1, -1, -2, 4]
    assert ops.coo_concat([a, b], -2).shape == (6, 4)
    with pytest.raises(ValueError, match="For 'coo_concat', 'sp_input' must be a list or tuple of at least 2"):
        ops.coo_concat((a,))
    with pytest.raises(ValueError, match="For 'coo_concat', 'concat_dim' must be an int in \\[-2, 2\\), got 2"):
        ops.coo_concat((a, b), 2)
    with pytest.raises(ValueError, match="For 'coo_concat', 'sp_input\\[1\\]' must have shape \\(3, 4\\) outside "
                                         "dimension 1, got \\(2, 4\\)"):
        ops.coo_concat((a, _coo([[0, 0]], [1.0], (2, 4))), 1)


def test_coalesce_sums_repeated_coordinates():
    idx, values, shape = ops.coalesce(ms.Tensor([[0, 0, 1], [1, 1, 2]]), ms.Tensor([1.0, 2.0, 3.0]), ms.Tensor([3, 4]))
    assert idx.asnumpy().tolist() == [[0, 1], [1, 2]] and values.asnumpy().tolist() == [3, 3]
    assert shape.asnumpy().tolist() == [3, 4]
    with pytest.raises(ValueError, match="For 'coalesce', 'x_values' must have shape \\(3,\\) "
                                         "\\(x_indices.shape\\[1\\]\\), got \\(2,\\)"):
        ops.coalesce(ms.Tensor([[0, 0, 1], [1, 1, 2]]), ms.Tensor([1.0, 2.0]), ms.Tensor([3, 4]))


def test_getters_and_constructors():
    x = _csr()
    assert ops.csr_tensor_get_indptr(x).asnumpy().tolist() == [0, 2, 2, 3]
    assert ops.csr_tensor_get_indices(x).asnumpy().tolist() == [0, 2, 1]
    assert ops.csr_tensor_get_values(x).asnumpy().tolist() == [1, -2, 3]
    assert ops.csr_tensor_get_dense_shape(x) == (3, 4)
    coo = ops.make_coo_tensor(ms.Tensor([[0, 1]]), ms.Tensor([2.0]), (2, 2))
    assert isinstance(coo, ms.COOTensor) and ops.coo_tensor_get_dense_shape(coo) == (2, 2)
    assert ops.coo_tensor_get_values(coo).asnumpy().tolist() == [2]
    assert ops.coo_tensor_get_indices(coo).asnumpy().tolist() == [[0, 1]]
    assert isinstance(ops.make_sparse_tensor(ms.Tensor([[0, 1]]), ms.Tensor([2.0]), (2, 2)), ms.COOTensor)
    csr = ops.make_csr_tensor(x.indptr, x.indices, x.values, (3, 4))
    np.testing.assert_array_equal(csr.to_dense().asnumpy(), DENSE)
    rows = ops.make_row_tensor(ms.Tensor([1]), ms.Tensor(np.ones((1, 2), np.float32)), (3, 2))
    assert ops.row_tensor_get_dense_shape(rows) == (3, 2)
    assert ops.row_tensor_get_indices(rows).asnumpy().tolist() == [1]
    assert ops.row_tensor_get_values(rows).asnumpy().tolist() == [[1, 1]]
    assert isinstance(ops.make_row_tensor_inner(ms.Tensor([1]), ms.Tensor(np.ones((1, 2))), (3, 2)), ms.RowTensor)
    with pytest.raises(TypeError, match="For 'csr_tensor_get_indptr', 'x' must be a CSRTensor, got COOTensor"):
        ops.csr_tensor_get_indptr(coo)
    with pytest.raises(ValueError, match="For 'COOTensor', 'values' must have shape \\(1,\\), got \\(2,\\)"):
        ops.make_coo_tensor(ms.Tensor([[0, 1]]), ms.Tensor([2.0, 3.0]), (2, 2))


def test_row_tensor_add_adds_a_dense_tensor():
    rows = ms.RowTensor(ms.Tensor([0, 2]), ms.Tensor(np.ones((2, 3), np.float32)), (4, 3))
    dense = np.arange(12, dtype=np.float32).reshape(4, 3)
    out = ops.row_tensor_add(rows, ms.Tensor(dense))
    assert isinstance(out, ms.RowTensor)
    np.testing.assert_array_equal(out.to_dense().asnumpy(), rows.to_dense().asnumpy() + dense)
    with pytest.raises(ValueError, match="For 'row_tensor_add', 'y' must have the RowTensor's dense shape \\(4, 3\\), "
                                         "got \\(3, 3\\)"):
        ops.row_tensor_add(rows, ms.Tensor(dense[:3]))


def test_fixed_size_ops_trace_under_jit_and_differentiate_the_values():
    mat = jnp.arange(8, dtype=jnp.float32).reshape(4, 2)

    def loss(values):
        x = _csr(values)
        return (ops.csr_mm(x, ms.Tensor(mat)).sum() + ops.csr_mv(x, ms.Tensor(mat[:, :1])).sum()
                + ops.csr_softmax(x, ms.float32).values[0] + ops.csr_reduce_sum(x, 1).sum()
                + ops.coo_concat((x.to_coo(), x.to_coo()), 0).values.sum())

    v = ms.Tensor(np.array([1.0, -2.0, 3.0], np.float32))
    eager, compiled = loss(v).asnumpy(), ms.jit(loss)(v).asnumpy()
    np.testing.assert_allclose(compiled, eager, rtol=1e-6)
    grad, jit_grad = ms.grad(loss)(v).asnumpy(), ms.jit(ms.grad(loss))(v).asnumpy()
    np.testing.assert_allclose(jit_grad, grad, rtol=1e-6)
    numeric = jax.grad(lambda w: jnp.asarray(loss(ms.Tensor(w))))(jnp.asarray(v.asnumpy()))
    np.testing.assert_allclose(grad, numeric, rtol=1e-6)
    # rows of mat at columns 0, 2, 1 summed, + mat[col, 0], + softmax, + row sums, + both copies of the values
    s = float(np.exp(3) / (np.exp(3) + 1))
    np.testing.assert_allclose(grad, [1 + 0 + s * (1 - s) + 1 + 2, 9 + 4 - s * (1 - s) + 1 + 2, 5 + 2 + 1 + 2],
                               rtol=1e-5)


def test_data_dependent_ops_differentiate_the_values_in_pynative():
    def loss(values):
        x = _csr(values)
        return (ops.csr_add(x, x, ms.Tensor(1.0), ms.Tensor(2.0)).values.sum()
                + ops.csr_mm(x, ops.dense_to_sparse_csr(ms.Tensor(np.ones((4, 2), np.float32)))).values.sum())

    grad = ms.grad(loss)(ms.Tensor(np.array([1.0, -2.0, 3.0], np.float32)))
    np.testing.assert_allclose(grad.asnumpy(), [3 + 2, 3 + 2, 3 + 2])


def test_data_dependent_ops_say_they_need_pynative_under_jit():
    @ms.jit
    def add(x):
        return ops.csr_add(x, x, ms.Tensor(1.0), ms.Tensor(1.0))

    with pytest.raises(ValueError, match="For 'csr_add', the number of values of the result depends on the indices of "
                                         "'a' and 'b', so they must be concrete: this op runs in PYNATIVE mode only"):
        add(_csr())

    @ms.jit
    def to_sparse(d):
        return ops.dense_to_sparse_coo(d)

    with pytest.raises(ValueError, match="For 'dense_to_sparse_coo', the number of values .* values of 'tensor'"):
        to_sparse(ms.Tensor(DENSE))
