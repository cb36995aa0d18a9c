"""COOTensor, CSRTensor and RowTensor: parts, checks, layouts, methods, operators, printing, pytrees."""
import jax
import jax.numpy as jnp
import numpy as np
import pytest

import mindjax as ms
from mindjax.common import sparse_tensor
from mindjax.common.tensor import CSRTensor as CSRFromTensorModule


def _csr(values=(1.0, -2.0, 3.0)):
    # [[1, 0, -2, 0], [0, 0, 0, 0], [0, 3, 0, 0]]
    return ms.CSRTensor(ms.Tensor([0, 2, 2, 3], ms.int32), ms.Tensor([0, 2, 1], ms.int32),
                        values if isinstance(values, ms.Tensor) else ms.Tensor(np.asarray(values, np.float32)),
                        (3, 4))


def _coo():
    return ms.COOTensor(ms.Tensor([[0, 1], [1, 2]], ms.int32), ms.Tensor([1.0, 2.0]), (3, 4))


def test_csr_tensor_is_importable_from_every_path():
    assert ms.CSRTensor is sparse_tensor.CSRTensor is CSRFromTensorModule is ms.common.CSRTensor
    assert ms.COOTensor is ms.common.COOTensor


def test_csr_tensor_parts_properties_and_dense_form():
    x = _csr()
    assert x.shape == (3, 4) and x.ndim == 2 and x.size == 3 and x.itemsize == 4
    assert x.dtype == ms.float32
    np.testing.assert_array_equal(x.to_dense().asnumpy(), [[1, 0, -2, 0], [0, 0, 0, 0], [0, 3, 0, 0]])
    indptr, indices, values, shape = x.to_tuple()
    assert indptr.asnumpy().tolist() == [0, 2, 2, 3] and indices.asnumpy().tolist() == [0, 2, 1]
    assert values.asnumpy().tolist() == [1, -2, 3] and shape == (3, 4)
    copy = ms.CSRTensor(csr_tensor=x)
    np.testing.assert_array_equal(copy.to_dense().asnumpy(), x.to_dense().asnumpy())


def test_csr_tensor_with_trailing_value_dims_has_them_in_its_shape():
    x = ms.CSRTensor(ms.Tensor([0, 1, 2]), ms.Tensor([0, 3]), ms.Tensor(np.ones((2, 5), np.float32)), (2, 4, 5))
    dense = x.to_dense().asnumpy()
    assert dense.shape == (2, 4, 5) and dense[0, 0].sum() == 5 and dense[1, 3].sum() == 5 and dense.sum() == 10


def test_csr_to_coo_and_back_round_trips():
    x = _csr()
    coo = x.to_coo()
    assert coo.indices.asnumpy().tolist() == [[0, 0], [0, 2], [2, 1]]
    back = coo.to_csr()
    for a, b in zip(back.to_tuple()[:3], x.to_tuple()[:3]):
        np.testing.assert_array_equal(a.asnumpy(), b.asnumpy())


def test_coo_to_csr_orders_by_row_keeping_the_order_within_a_row():
    coo = ms.COOTensor(ms.Tensor([[2, 1], [0, 2], [0, 0]], ms.int32), ms.Tensor([1.0, 2.0, 3.0]), (3, 4))
    csr = coo.to_csr()
    assert csr.indptr.asnumpy().tolist() == [0, 2, 2, 3]
    assert csr.indices.asnumpy().tolist() == [2, 0, 1] and csr.values.asnumpy().tolist() == [2, 3, 1]
    with pytest.raises(ValueError, match="For 'COOTensor.to_csr', the tensor must be 2-D, got shape \\(2, 2, 2\\)"):
        ms.COOTensor(ms.Tensor([[0, 0, 0]]), ms.Tensor([1.0]), (2, 2, 2)).to_csr()


def test_astype_and_abs_keep_the_structure():
    x = _csr()
    assert x.astype(ms.float16).dtype == ms.float16 and x.abs().values.asnumpy().tolist() == [1, 2, 3]
    assert _coo().astype(ms.float16).values.dtype == ms.float16


def test_sparse_tensors_print_as_mindspore_prints_them():
    assert repr(_coo()) == (
        "COOTensor(shape=[3, 4], dtype=Float32, indices=Tensor(shape=[2, 2], dtype=Int32, value=\n[[0 1]\n [1 2]]), "
        "values=Tensor(shape=[2], dtype=Float32, value=[ 1.00000000e+00  2.00000000e+00]))")
    x = ms.CSRTensor(ms.Tensor([0, 1, 2], ms.int32), ms.Tensor([0, 1], ms.int32), ms.Tensor([1.0, 2.0]), (2, 4))
    assert str(x) == (
        "CSRTensor(shape=[2, 4], dtype=Float32, indptr=Tensor(shape=[3], dtype=Int32, value=[0 1 2]), "
        "indices=Tensor(shape=[2], dtype=Int32, value=[0 1]), "
        "values=Tensor(shape=[2], dtype=Float32, value=[ 1.00000000e+00  2.00000000e+00]))")
    rows = ms.RowTensor(ms.Tensor([0, 2], ms.int32), ms.Tensor(np.ones((2, 1), np.float32)), (4, 1))
    assert repr(rows) == ("RowTensor(shape=[4, 1], dtype=Float32, indices=Tensor(shape=[2], dtype=Int32, "
                          "value=[0 2]), values=Tensor(shape=[2, 1], dtype=Float32, value=\n"
                          "[[ 1.00000000e+00]\n [ 1.00000000e+00]]))")


def test_csr_operators():
    x = _csr()
    np.testing.assert_array_equal((-x).values.asnumpy(), [-1, 2, -3])
    np.testing.assert_array_equal((x + x).to_dense().asnumpy(), 2 * x.to_dense().asnumpy())
    assert (x - x).values.asnumpy().tolist() == [0, 0, 0]
    scale = ms.Tensor(np.arange(1, 5, dtype=np.float32))
    np.testing.assert_array_equal((x * scale).values.asnumpy(), [1, -6, 6])
    np.testing.assert_allclose((x / scale).values.asnumpy(), [1, -2 / 3, 1.5], rtol=1e-6)
    with pytest.raises(TypeError, match="CSRTensor add with .*Tensor.* is not supported"):
        x + ms.Tensor(np.ones((3, 4), np.float32))


def test_coo_operators():
    x = _coo()
    ones = ms.Tensor(np.ones((3, 4), np.float32))
    dense = (x + ones).asnumpy()
    assert dense[0, 1] == 2 and dense[1, 2] == 3 and dense.sum() == 15
    np.testing.assert_array_equal((x * ms.Tensor(np.full((3, 4), 3, np.float32))).values.asnumpy(), [3, 6])
    np.testing.assert_array_equal((x / ms.Tensor(np.full((3, 4), 2, np.float32))).values.asnumpy(), [0.5, 1])
    np.testing.assert_array_equal((-x).values.asnumpy(), [-1, -2])
    np.testing.assert_array_equal((x + x).to_dense().asnumpy(), 2 * x.to_dense().asnumpy())
    assert (x - x).values.asnumpy().tolist() == [0, 0]
    with pytest.raises(TypeError, match="COOTensor mul with <class 'int'> is not supported"):
        x * 2


def test_coo_coalesce_sums_repeats_in_row_major_order():
    x = ms.COOTensor(ms.Tensor([[1, 0], [0, 1], [1, 0]]), ms.Tensor([1.0, 2.0, 3.0]), (2, 2))
    y = x.coalesce()
    assert y.indices.asnumpy().tolist() == [[0, 1], [1, 0]] and y.values.asnumpy().tolist() == [2, 4]


def test_csr_tensor_rejects_bad_parts_naming_the_argument():
    ip, ix, v = ms.Tensor([0, 1, 2]), ms.Tensor([0, 1]), ms.Tensor([1.0, 2.0])
    with pytest.raises(ValueError, match="For 'CSRTensor', 'values' must have shape \\(len\\(indices\\), "
                                         "\\*shape\\[2:\\]\\) = \\(2,\\), got \\(3,\\)"):
        ms.CSRTensor(ip, ix, ms.Tensor([1.0, 2.0, 3.0]), (2, 4))
    with pytest.raises(ValueError, match="For 'CSRTensor', 'indptr' must have shape \\(3,\\) \\(1 \\+ shape\\[0\\]\\), "
                                         "got \\(4,\\)"):
        ms.CSRTensor(ms.Tensor([0, 1, 2, 2]), ix, v, (2, 4))
    with pytest.raises(ValueError, match="'indices' must be 1-D, got shape \\(1, 2\\)"):
        ms.CSRTensor(ip, ms.Tensor([[0, 1]]), v, (2, 4))
    with pytest.raises(TypeError, match="For 'CSRTensor', 'indptr' must be an int Tensor, got dtype float32"):
        ms.CSRTensor(ms.Tensor([0.0, 1.0, 2.0]), ix, v, (2, 4))
    with pytest.raises(ValueError, match="For 'CSRTensor', 'shape' must have at least 2 dimensions, got \\(4,\\)"):
        ms.CSRTensor(ip, ix, v, (4,))
    with pytest.raises(TypeError, match="'shape' must be a tuple of positive ints, got \\[2, -4\\]"):
        ms.CSRTensor(ip, ix, v, [2, -4])
    with pytest.raises(TypeError, match="'csr_tensor' must be a CSRTensor, got COOTensor"):
        ms.CSRTensor(csr_tensor=_coo())
    with pytest.raises(TypeError, match="must all be None"):
        ms.CSRTensor(ip, csr_tensor=_csr())


def test_coo_tensor_rejects_non_int_indices():
    with pytest.raises(TypeError, match="For 'COOTensor', 'indices' must be an int Tensor, got dtype float32"):
        ms.COOTensor(ms.Tensor([[0.0, 1.0]]), ms.Tensor([1.0]), (2, 2))


def test_row_tensor_takes_mindspores_shape_argument():
    rows = ms.RowTensor(ms.Tensor([1]), ms.Tensor(np.ones((1, 2), np.float32)), shape=(3, 2))
    assert rows.dense_shape == (3, 2) and rows.dtype == ms.float32
    assert ms.RowTensor(ms.Tensor([1]), ms.Tensor(np.ones((1, 2), np.float32)), dense_shape=(3, 2)).dense_shape == (3, 2)
    assert isinstance(rows.indices, ms.Tensor) and isinstance(rows.values, ms.Tensor)


def test_sparse_tensors_are_pytrees_through_jax_jit():
    @jax.jit
    def f(csr, coo):
        return ms.CSRTensor(csr.indptr, csr.indices, csr.values * 2, csr.shape), coo.to_dense()

    csr, dense = f(_csr(), _coo())
    assert isinstance(csr, ms.CSRTensor) and csr.values.asnumpy().tolist() == [2, -4, 6]
    np.testing.assert_array_equal(np.asarray(dense), _coo().to_dense().asnumpy())
    leaves, tree = jax.tree_util.tree_flatten(_csr())
    assert len(leaves) == 3 and all(isinstance(leaf, jax.Array) for leaf in leaves)
    assert jax.tree_util.tree_unflatten(tree, leaves).shape == (3, 4)


def test_gradient_reaches_csr_values_through_to_dense_in_both_modes():
    weight = jnp.arange(12, dtype=jnp.float32).reshape(3, 4)

    def loss(values):
        return (_csr(values).to_dense() * ms.Tensor(weight)).sum()

    v = ms.Tensor(np.array([1.0, -2.0, 3.0], np.float32))
    want = [0.0, 2.0, 9.0]  # weight at (0, 0), (0, 2), (2, 1)
    np.testing.assert_array_equal(ms.grad(loss)(v).asnumpy(), want)
    np.testing.assert_array_equal(ms.jit(ms.grad(loss))(v).asnumpy(), want)


def test_row_tensor_inner_is_a_row_tensor_that_survives_jit() -> None:
    import jax
    import numpy as np
    from mindjax.common.sparse_tensor import RowTensor, RowTensorInner
    from mindjax.ops.function.sparse_func import make_row_tensor_inner

    r = make_row_tensor_inner(np.array([1]), np.ones((1, 2), np.float32), (3, 2))
    assert type(r) is RowTensorInner and isinstance(r, RowTensor)
    out = jax.jit(lambda t: t)(r)
    assert type(out) is RowTensorInner
    np.testing.assert_array_equal(out.to_dense().asnumpy(), [[0, 0], [1, 1], [0, 0]])
    with pytest.raises(TypeError, match="'shape'"):
        RowTensorInner(np.array([0]), np.ones((1, 2)), "bad")
