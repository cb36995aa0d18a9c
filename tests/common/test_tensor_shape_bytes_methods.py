"""``Tensor.symbolic_shape``, ``is_meta``, ``get_bytes`` and ``convert_bytes_to_tensor``."""
from __future__ import annotations

import numpy as np
import pytest

import mindjax as ms

S = ms.Symbol


@pytest.mark.parametrize("shape, want", [
    ([S(max=10), 3], [{"max": 10}, 3]),
    ([S(max=10, min=2, divisor=4, remainder=2), 3], [{"max": 10, "divisor": 4, "remainder": 2}, 3]),
    ([S(max=8), None], [{"max": 8}, None]),
    ([S()], [{}]),
    ([S(min=3, max=9)], [{"max": 9, "min": 3}]),
    ([S(divisor=2)], [{"divisor": 2}]),
])
def test_symbolic_shape_shows_each_symbols_constraints(shape, want):
    t = ms.Tensor(shape=shape, dtype=ms.float32)
    assert t.symbolic_shape == want
    assert t.shape == tuple(-1 if not isinstance(d, int) else d for d in shape)


def test_symbolic_shape_of_a_unique_symbol_names_it():
    sym = S(unique=True)
    assert ms.Tensor(shape=[sym, sym], dtype=ms.float32).symbolic_shape == [{"id": sym.id}, {"id": sym.id}]


def test_symbolic_shape_is_none_without_symbols():
    assert ms.Tensor([1.0]).symbolic_shape is None
    assert ms.Tensor(shape=[None, 3], dtype=ms.float32).symbolic_shape is None


def test_is_meta_is_false():
    assert ms.Tensor([1.0]).is_meta is False


def test_get_bytes_and_convert_bytes_to_tensor_round_trip():
    x = ms.Tensor([1, 2, 3], ms.int16)
    assert x.get_bytes() == b"\x01\x00\x02\x00\x03\x00"
    y = ms.Tensor.convert_bytes_to_tensor(x.get_bytes(), x.shape, x.dtype)
    assert y.dtype == ms.int16 and y.tolist() == [1, 2, 3]
    f = ms.Tensor(np.arange(4, dtype=np.float32).reshape(2, 2))
    np.testing.assert_array_equal(ms.Tensor.convert_bytes_to_tensor(f.get_bytes(), (2, 2), ms.float32).asnumpy(),
                                  f.asnumpy())


def test_convert_bytes_to_tensor_rejects_wrong_sizes_and_types():
    with pytest.raises(ValueError, match=r"shape \(3,\) of Int16 needs 6 bytes, got 1"):
        ms.Tensor.convert_bytes_to_tensor(b"\x01", (3,), ms.int16)
    with pytest.raises(TypeError, match="'bytes_data' must be bytes, got list"):
        ms.Tensor.convert_bytes_to_tensor([1], (1,), ms.int8)
