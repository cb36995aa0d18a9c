"""index_select, take, the N-D scatters and Tensor indexing reject out-of-range indices (JAX clamps or drops them)."""
import numpy as np
import pytest

import mindjax as ms
from mindjax import ops
from mindjax.common.checks import IndexValueError

X = np.arange(12, dtype=np.float32).reshape(4, 3)


def _i(*values):
    return ms.Tensor(np.array(values, np.int32))


def test_index_select_rejects_an_index_past_the_axis_and_keeps_negative_ones(mode):
    x = ms.Tensor(X)
    with pytest.raises(IndexValueError, match=r"For 'index_select', the value of 'index' must be in \[-3, 3\), "
                                              r"but got 3 \(at position \(1,\)\)"):
        ops.index_select(x, 1, _i(0, 3))
    np.testing.assert_array_equal(ops.index_select(x, 1, _i(-1, 0)).asnumpy(), X[:, [2, 0]])


def test_take_rejects_a_flat_index_past_the_end(mode):
    with pytest.raises(IndexValueError, match=r"For 'take', the value of 'index' must be in \[-12, 12\), but got 12"):
        ops.take(ms.Tensor(X), _i(12))
    assert ops.take(ms.Tensor(X), _i(11)).asnumpy().tolist() == [11.0]


@pytest.mark.parametrize("op", ["tensor_scatter_update", "tensor_scatter_add", "tensor_scatter_max"])
@pytest.mark.parametrize("bad", [4, -1])
def test_tensor_scatters_reject_rows_outside_the_input_instead_of_dropping_them(mode, op, bad):
    with pytest.raises(IndexValueError, match=rf"For '{op}', the value of 'indices\[\.\.\., 0\]' must be in "
                                              rf"\[0, 4\), but got {bad}"):
        getattr(ops, op)(ms.Tensor(X), _i(bad).reshape(1, 1), ms.Tensor(np.ones((1, 3), np.float32)))


def test_scatter_nd_rejects_an_index_outside_the_shape(mode):
    with pytest.raises(IndexValueError, match=r"For 'scatter_nd', the value of 'indices\[\.\.\., 0\]' must be in "
                                              r"\[0, 4\), but got 5"):
        ops.scatter_nd(_i(5).reshape(1, 1), ms.Tensor(np.ones((1,), np.float32)), (4,))


def test_tensor_int_index_out_of_bounds_raises_instead_of_clamping(mode):
    x = ms.Tensor(X)
    with pytest.raises(IndexError, match=r"For 'Tensor.__getitem__', index 4 is out of bounds for dimension 0 "
                                         r"with size 4"):
        x[4]
    with pytest.raises(IndexError, match=r"index 3 is out of bounds for dimension 1 with size 3"):
        x[..., 3]
    with pytest.raises(IndexError, match=r"index -5 is out of bounds for dimension 0"):
        x[-5]
    np.testing.assert_array_equal(x[-4].asnumpy(), X[0])
    np.testing.assert_array_equal(x[None, 3].asnumpy(), X[None, 3])
    np.testing.assert_array_equal(x[x > 3].asnumpy(), X[X > 3])


def test_tensor_array_index_out_of_bounds_raises_on_read_and_write(mode):
    x = ms.Tensor(X)
    with pytest.raises(IndexValueError, match=r"For 'Tensor.__getitem__', the value of 'index' must be in "
                                              r"\[-3, 3\), but got 3 \(at position \(1,\)\)"):
        x[1, _i(0, 3)]
    with pytest.raises(IndexValueError, match=r"For 'Tensor.__setitem__', the value of 'index' must be in \[-4, 4\)"):
        x[_i(4)] = 1.0
    np.testing.assert_array_equal(x.asnumpy(), X)   # nothing written


def test_tensor_index_out_of_bounds_inside_ms_jit_raises_after_the_call():
    @ms.jit
    def pick(t, i):
        return t[i]

    with pytest.raises(IndexValueError, match=r"For 'Tensor.__getitem__', the value of 'index' must be in \[-4, 4\), "
                                              r"but got 5"):
        pick(ms.Tensor(X), _i(5))
    np.testing.assert_array_equal(pick(ms.Tensor(X), _i(3)).asnumpy(), X[[3]])


def test_row_scatters_into_a_parameter_reject_a_row_outside_it_and_write_nothing(mode):
    param = ms.Parameter(ms.Tensor(X), name="p")
    with pytest.raises(IndexValueError, match=r"For 'scatter_add', the value of 'indices' must be in \[0, 4\), "
                                              r"but got 4"):
        ops.scatter_add(param, _i(4), ms.Tensor(np.ones((1, 3), np.float32)))
    np.testing.assert_array_equal(param.asnumpy(), X)


def test_tensor_scatter_elements_rejects_an_index_outside_the_axis(mode):
    with pytest.raises(IndexValueError, match=r"For 'tensor_scatter_elements', the value of 'indices' must be in "
                                              r"\[-3, 3\), but got 3"):
        ops.tensor_scatter_elements(ms.Tensor(X), _i(0, 3).reshape(1, 2), ms.Tensor(np.ones((1, 2), np.float32)), 1)
