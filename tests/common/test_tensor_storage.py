"""``Tensor.untyped_storage``/``storage``, ``set_``, ``index`` and ``remove_hook`` with MindSpore 2.10's semantics.

A storage is the numpy memory a Tensor shares (``NumpyStorage``); an ordinary Tensor
moves onto one when its storage is first asked for, so the storage and the Tensors
``set_`` onto it share memory.
"""
from __future__ import annotations

import numpy as np
import pytest

import mindjax as ms
from mindjax.common.storage import UntypedStorage


def test_untyped_storage_describes_the_tensors_bytes():
    t = ms.Tensor(np.arange(6, dtype=np.float32).reshape(2, 3))
    s = t.untyped_storage()
    assert isinstance(s, UntypedStorage)
    assert (s.size(), s.nbytes(), s.element_size(), len(s)) == (24, 24, 1, 24)
    assert s.dtype == ms.float32 and s.device == "CPU" and s.is_shared() is False
    assert t.storage().data_ptr() == s.data_ptr()
    np.testing.assert_array_equal(t.asnumpy(), np.arange(6, dtype=np.float32).reshape(2, 3))


def test_storage_copy_writes_into_the_tensor():
    t = ms.Tensor(np.zeros((2, 3), np.float32))
    t.untyped_storage().copy_(ms.Tensor(np.full((2, 3), 7, np.float32)).untyped_storage())
    np.testing.assert_array_equal((t + 1).asnumpy(), np.full((2, 3), 8, np.float32))


def test_storage_copy_rejects_other_sizes_and_non_storages():
    s = ms.Tensor(np.zeros(3, np.float32)).untyped_storage()
    with pytest.raises(RuntimeError, match="same number of bytes, got 8 into 12"):
        s.copy_(ms.Tensor(np.zeros(2, np.float32)).untyped_storage())
    with pytest.raises(TypeError, match="'src' must be an UntypedStorage, got Tensor"):
        s.copy_(ms.Tensor([1.0]))


def test_set_tensor_shares_data_both_ways():
    a = ms.Tensor(np.zeros(3, np.float32))
    b = ms.Tensor([10.0, 20.0, 30.0], ms.float32)
    assert a.set_(b) is a
    np.testing.assert_array_equal(a.asnumpy(), [10.0, 20.0, 30.0])
    b[0] = 99.0
    a[2] = -1.0
    np.testing.assert_array_equal(a.asnumpy(), [99.0, 20.0, -1.0])
    np.testing.assert_array_equal(b.asnumpy(), [99.0, 20.0, -1.0])


def test_set_with_no_source_empties_the_tensor():
    c = ms.Tensor(np.zeros(3, np.int32))
    c.set_()
    assert c.shape == (0,) and c.dtype == ms.int32


def test_set_with_offset_size_and_stride_is_a_view_of_the_storage():
    src = ms.Tensor(np.arange(6, dtype=np.float32))
    d = ms.Tensor(np.zeros(2, np.float32))
    d.set_(src, 1, (2, 2), (2, 1))
    np.testing.assert_array_equal(d.asnumpy(), [[1.0, 2.0], [3.0, 4.0]])
    d[0, 0] = -5.0
    np.testing.assert_array_equal(src.asnumpy(), [0.0, -5.0, 2.0, 3.0, 4.0, 5.0])
    np.testing.assert_array_equal((d * 2).asnumpy(), [[-10.0, 4.0], [6.0, 8.0]])
    e = ms.Tensor(np.zeros(3, np.float32))
    e.set_(src.untyped_storage())
    assert e.shape == (6,)
    e[5] = 50.0
    assert src[5].item() == 50.0


def test_set_of_a_from_numpy_tensor_shares_the_numpy_array():
    arr = np.ones(3, np.float32)
    t = ms.Tensor(np.zeros(3, np.float32))
    t.set_(ms.from_numpy(arr))
    arr[1] = 4.0
    t[0] = 2.0
    np.testing.assert_array_equal(arr, [2.0, 4.0, 1.0])
    np.testing.assert_array_equal(t.asnumpy(), [2.0, 4.0, 1.0])


def test_set_rejects_bad_sources_dtypes_and_views():
    t = ms.Tensor(np.zeros(3, np.int32))
    with pytest.raises(RuntimeError, match="could not set tensor of type Float32 to a tensor of type Int32"):
        t.set_(ms.Tensor([1.0, 2.0, 3.0], ms.float32))
    with pytest.raises(TypeError, match=r'Failed calling set_ with "set_\(int\)"'):
        t.set_(3)
    src = ms.Tensor(np.arange(6, dtype=np.int32))
    with pytest.raises(RuntimeError, match="reaches element 6, past the storage's 6 elements"):
        t.set_(src, 3, (2, 2), (2, 1))
    with pytest.raises(RuntimeError, match="'storage_offset' must be an int >= 0, got -1"):
        t.set_(src, -1, (2,), (1,))
    with pytest.raises(RuntimeError, match="must have as many elements"):
        t.set_(src, 0, (2, 2), (1,))
    with pytest.raises(TypeError, match="'size' must be a tuple or list of ints"):
        t.set_(src, 0, 2, (1,))


def test_parameters_have_no_shared_storage():
    p = ms.Parameter(ms.Tensor([1.0]), name="w")
    with pytest.raises(TypeError, match="'Tensor.untyped_storage', a Parameter is state of compiled programs"):
        p.untyped_storage()
    with pytest.raises(TypeError, match="'Tensor.set_', a Parameter is state of compiled programs"):
        p.set_(ms.Tensor([2.0]))


def test_storage_of_a_traced_tensor_raises():
    @ms.jit
    def f(x):
        x.untyped_storage()
        return x

    with pytest.raises(TypeError, match="'Tensor.untyped_storage', the Tensor must hold concrete data"):
        f(ms.Tensor([1.0]))


def test_index_is_advanced_indexing_by_a_tuple_of_tensors():
    t = ms.Tensor(np.arange(6, dtype=np.float32).reshape(2, 3))
    np.testing.assert_array_equal(t.index((ms.Tensor([1, 0]),)).asnumpy(), [[3.0, 4.0, 5.0], [0.0, 1.0, 2.0]])
    np.testing.assert_array_equal(t.index([ms.Tensor([1, 0]), ms.Tensor([2, 1])]).asnumpy(), [5.0, 1.0])
    with pytest.raises(TypeError, match="'Tensor.index', 'indices' must be a tuple of Tensor, got NoneType at "
                                        "position 0"):
        t.index((None, ms.Tensor([1])))
    with pytest.raises(TypeError, match="'Tensor.index', 'indices' must be a tuple of Tensor, got int"):
        t.index(0)


def test_remove_hook_by_handle_id():
    x = ms.Tensor([1.0, 2.0])
    keep = x.register_hook(lambda g: g * 3)
    drop = x.register_hook(lambda g: g * 100)
    ms.Tensor.remove_hook(drop.id)
    assert len(x.hooks()) == 1
    ms.Tensor.remove_hook(drop.id)  # an id already removed: nothing happens
    x.remove_hook(123456789)
    grad = ms.grad(lambda t: (t * t).sum())(x)
    np.testing.assert_allclose(grad.asnumpy(), [6.0, 12.0])
    keep.remove()
    assert x.hooks() == []
