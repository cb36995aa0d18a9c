"""``Tensor.from_numpy`` / ``ms.from_numpy`` share memory with the numpy array, as in MindSpore.

The Tensor keeps the array as its storage (``NumpyStorage``): writes to the array show in
the Tensor, in-place writes to the Tensor go into the array, ``asnumpy()`` is the array,
and a compiled Cell reads the array once at each call.
"""
from __future__ import annotations

import numpy as np
import pytest

import mindjax as ms
from mindjax import nn, ops
from mindjax.common.tensor import NumpyStorage, Tensor


def _unaligned(n: int) -> np.ndarray:
    """A float32 array whose buffer is not 64-byte aligned (XLA:CPU would not alias it)."""
    buf = np.zeros(n + 16, np.float32)
    start = next(i for i in range(16) if (buf.ctypes.data + 4 * i) % 64)
    return buf[start:start + n]


def _aligned(n: int) -> np.ndarray:
    """A float32 array whose buffer is 64-byte aligned (XLA:CPU would alias it zero-copy)."""
    buf = np.zeros(n + 16, np.float32)
    start = next(i for i in range(16) if (buf.ctypes.data + 4 * i) % 64 == 0)
    return buf[start:start + n]


@pytest.mark.parametrize("make", [_unaligned, _aligned], ids=["unaligned", "aligned"])
def test_from_numpy_sees_later_writes_to_the_array(make):
    arr = make(4)
    arr[:] = 1.0
    t = ms.from_numpy(arr)
    arr[0] = 7.0
    np.testing.assert_array_equal((t + 1).asnumpy(), [8.0, 2.0, 2.0, 2.0])
    np.add(arr, 1, out=arr)
    np.testing.assert_array_equal(ops.mul(t, 2).asnumpy(), [16.0, 4.0, 4.0, 4.0])
    assert t.shape == (4,) and t.dtype == ms.float32


def test_ops_called_before_a_write_to_the_array_keep_the_old_values():
    arr = _aligned(1 << 16)
    arr[:] = 1.0
    t = Tensor.from_numpy(arr)
    y = t * 3  # dispatched (maybe still running) when the array changes below
    arr[:] = 5.0
    np.testing.assert_array_equal(np.unique(y.asnumpy()), [3.0])
    np.testing.assert_array_equal(np.unique((t * 3).asnumpy()), [15.0])


def test_asnumpy_of_a_from_numpy_tensor_is_the_shared_array():
    arr = np.ones(3, np.float32)
    t = ms.from_numpy(arr)
    out = t.asnumpy()
    assert np.shares_memory(out, arr) and out.flags.writeable
    out[1] = -3.0
    np.testing.assert_array_equal(t.asnumpy(), [1.0, -3.0, 1.0])
    np.testing.assert_array_equal(ops.neg(t).asnumpy(), [-1.0, 3.0, -1.0])
    assert np.shares_memory(np.asarray(t), arr)


def test_in_place_tensor_writes_go_into_the_array():
    arr = np.zeros((2, 3), np.float32)
    t = ms.from_numpy(arr)
    t[0, 1] = 5.0
    t[1] = ms.Tensor([1.0, 2.0, 3.0])
    np.testing.assert_array_equal(arr, [[0.0, 5.0, 0.0], [1.0, 2.0, 3.0]])
    t.add_(1.0)
    np.testing.assert_array_equal(arr, [[1.0, 6.0, 1.0], [2.0, 3.0, 4.0]])
    t.fill_(2.0)
    t.zero_()
    np.testing.assert_array_equal(arr, np.zeros((2, 3), np.float32))
    arr[0, 0] = 9.0  # still shared after the writes
    assert t[0, 0].item() == 9.0


@pytest.mark.parametrize("make", [_unaligned, _aligned], ids=["unaligned", "aligned"])
def test_tensor_and_parameter_of_an_array_copy_it(make):
    """``Tensor(arr)`` copies, as in MindSpore, even where XLA:CPU would alias an aligned buffer."""
    arr = make(3)
    arr[:] = 1.0
    t = ms.Tensor(arr)
    p = ms.Parameter(arr, name="p")
    arr[0] = 5.0
    out = t.asnumpy()
    out[1] = 7.0
    np.testing.assert_array_equal(t.asnumpy(), [1.0, 1.0, 1.0])
    np.testing.assert_array_equal((t + 0).asnumpy(), [1.0, 1.0, 1.0])
    np.testing.assert_array_equal(p.asnumpy(), [1.0, 1.0, 1.0])
    assert not isinstance(t._raw, NumpyStorage)


def test_assign_value_and_set_dtype_give_the_tensor_its_own_data():
    """As in MindSpore 2.10: these replace the Tensor's data; the array keeps the old values
    (``copy_`` writes into the array)."""
    arr = np.zeros(3, np.float32)
    t = ms.from_numpy(arr)
    t.assign_value(ms.Tensor([1.0, 2.0, 3.0]))
    np.testing.assert_array_equal(arr, [0.0, 0.0, 0.0])
    arr[0] = 9.0
    np.testing.assert_array_equal(t.asnumpy(), [1.0, 2.0, 3.0])
    arr = np.zeros(3, np.float32)
    t = ms.from_numpy(arr)
    t.copy_(ms.Tensor([1.0, 2.0, 3.0]))
    np.testing.assert_array_equal(arr, [1.0, 2.0, 3.0])
    arr = np.zeros(3, np.float32)
    t = ms.from_numpy(arr)
    t.set_dtype(ms.int32)
    arr[0] = 5.0
    assert t.dtype == ms.int32 and t.tolist() == [0, 0, 0]


def test_from_numpy_of_a_non_contiguous_array_is_a_copy():
    arr = np.arange(6, dtype=np.float32)[::2]
    t = ms.from_numpy(arr)
    arr[0] = 50.0
    np.testing.assert_array_equal(t.asnumpy(), [0.0, 2.0, 4.0])


def test_from_numpy_keeps_dtype_shape_and_zero_d_arrays():
    arr = np.array([[1, 2], [3, 4]], np.int32)
    t = Tensor.from_numpy(arr)
    assert t.dtype == ms.int32 and t.shape == (2, 2) and t.ndim == 2 and t.size == 4
    scalar = np.array(3.0, np.float32)
    s = ms.from_numpy(scalar)
    scalar[...] = 4.0
    assert s.item() == 4.0 and float(s) == 4.0
    flags = np.array([True, False])
    b = ms.from_numpy(flags)
    flags[1] = True
    assert b.all().item() is True


def test_from_numpy_read_only_array_takes_writes_into_a_copy():
    arr = np.zeros(3, np.float32)
    arr.flags.writeable = False
    t = ms.from_numpy(arr)
    t[0] = 1.0
    np.testing.assert_array_equal(arr, [0.0, 0.0, 0.0])
    np.testing.assert_array_equal(t.asnumpy(), [1.0, 0.0, 0.0])


class _Double(nn.Cell):
    def construct(self, x):
        return x * 2


class _WriteFirst(nn.Cell):
    def construct(self, x):
        x[0] = 42.0
        return x + 1


@pytest.mark.parametrize("mode", [ms.GRAPH_MODE, ms.PYNATIVE_MODE], ids=["graph", "pynative"])
def test_compiled_cell_reads_the_array_at_each_call(mode):
    ms.set_context(mode=mode)
    try:
        arr = np.ones(3, np.float32)
        t = ms.from_numpy(arr)
        net = _Double()
        np.testing.assert_array_equal(net(t).asnumpy(), [2.0, 2.0, 2.0])
        arr[0] = 10.0
        np.testing.assert_array_equal(net(t).asnumpy(), [20.0, 2.0, 2.0])
        f = ms.jit(lambda x, y: x * y)
        np.testing.assert_array_equal(f(t, ms.from_numpy(np.full(3, 3.0, np.float32))).asnumpy(),
                                      [30.0, 3.0, 3.0])
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)


def test_in_place_write_inside_a_compiled_cell_goes_into_the_array():
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        arr = np.zeros(3, np.float32)
        out = _WriteFirst()(ms.from_numpy(arr))
        np.testing.assert_array_equal(out.asnumpy(), [43.0, 1.0, 1.0])
        np.testing.assert_array_equal(arr, [42.0, 0.0, 0.0])
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)


def test_grad_of_a_from_numpy_tensor_uses_the_arrays_values():
    arr = np.array([1.0, 2.0, 3.0], np.float32)
    t = ms.from_numpy(arr)
    grad = ms.grad(lambda x: (x * x).sum())
    np.testing.assert_allclose(grad(t).asnumpy(), [2.0, 4.0, 6.0])
    arr[2] = 5.0
    np.testing.assert_allclose(grad(t).asnumpy(), [2.0, 4.0, 10.0])


def test_from_numpy_rejects_non_arrays_and_non_numeric_arrays():
    with pytest.raises(TypeError, match="'Tensor.from_numpy', 'array' must be a numpy.ndarray, got list"):
        ms.from_numpy([1, 2])
    with pytest.raises(TypeError, match="'Tensor.from_numpy', 'array' must hold numeric or bool data, got <U1"):
        Tensor.from_numpy(np.array(["a"]))
