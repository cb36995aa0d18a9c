"""``untyped_storage``/``storage``, ``set_`` and ``remove_hook`` behave as in MindSpore 2.10 (CPU).

Each scenario runs on both frameworks and compares what the Tensors hold after
each step (shared writes through a storage's ``copy_``, ``set_`` onto a Tensor,
a storage, or a strided part of one) and the storage's description.
"""
from __future__ import annotations

from typing import Any, Callable

import mindspore
import numpy as np
import pytest

import mindjax


def _describe_storage(fw: Any) -> list[Any]:
    t = fw.Tensor(np.arange(6, dtype=np.float32).reshape(2, 3))
    s = t.untyped_storage()
    return [s.size(), s.nbytes(), s.element_size(), str(s.dtype), s.device, s.is_shared(),
            t.storage().data_ptr() == s.data_ptr()]


def _storage_copy(fw: Any) -> list[Any]:
    t = fw.Tensor(np.zeros((2, 3), np.float32))
    # The source Tensor is kept alive: MindSpore 2.10 frees a temporary's bytes under its storage.
    src = fw.Tensor(np.full((2, 3), 7, np.float32))
    t.untyped_storage().copy_(src.untyped_storage())
    return [t.asnumpy().copy(), (t + 1).asnumpy()]


def _set_tensor(fw: Any) -> list[Any]:
    a = fw.Tensor(np.zeros(3, np.float32))
    b = fw.Tensor(np.array([10.0, 20.0, 30.0], np.float32))
    a.set_(b)
    out = [a.asnumpy().copy()]
    b[0] = 99.0
    out += [a.asnumpy().copy(), b.asnumpy().copy()]
    return out


def _set_empty(fw: Any) -> list[Any]:
    c = fw.Tensor(np.zeros(3, np.int32))
    c.set_()
    return [c.shape, str(c.dtype)]


def _set_view(fw: Any) -> list[Any]:
    src = fw.Tensor(np.arange(6, dtype=np.float32))
    d = fw.Tensor(np.zeros(2, np.float32))
    d.set_(src, 1, (2, 2), (2, 1))
    out = [d.asnumpy().copy(), d.shape]
    d[0, 0] = -5.0
    out += [src.asnumpy().copy(), (d * 2).asnumpy()]
    e = fw.Tensor(np.zeros(3, np.float32))
    e.set_(src.untyped_storage())
    out += [e.shape, e.asnumpy().copy()]
    return out


def _remove_hook(fw: Any) -> list[Any]:
    x = fw.Tensor(np.array([1.0, 2.0], np.float32))
    x.register_hook(lambda g: g * 3)
    drop = x.register_hook(lambda g: g * 100)
    fw.Tensor.remove_hook(drop.id)
    grad = fw.grad(lambda t: (t * t).sum())(x)
    return [grad.asnumpy()]


SCENARIOS: dict[str, Callable[[Any], list[Any]]] = {
    "describe_storage": _describe_storage, "storage_copy": _storage_copy, "set_tensor": _set_tensor,
    "set_empty": _set_empty, "set_view": _set_view, "remove_hook": _remove_hook,
}


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_tensor_storage_matches_mindspore(name: str) -> None:
    want, got = SCENARIOS[name](mindspore), SCENARIOS[name](mindjax)
    assert len(want) == len(got)
    for k, (w, g) in enumerate(zip(want, got)):
        if isinstance(w, np.ndarray):
            np.testing.assert_array_equal(np.asarray(g), w, err_msg=f"{name} step {k}")
            assert np.asarray(g).dtype == w.dtype, f"{name} step {k}"
        else:
            assert tuple(g) == tuple(w) if isinstance(w, tuple) else g == w, f"{name} step {k}: {g!r} != {w!r}"


def test_set_dtype_mismatch_raises_like_mindspore() -> None:
    for fw in (mindspore, mindjax):
        with pytest.raises(RuntimeError, match="ould not set tensor of type Float32 to a tensor of type Int32"):
            fw.Tensor(np.zeros(3, np.int32)).set_(fw.Tensor(np.ones(3, np.float32)))
        with pytest.raises(TypeError, match=r'Failed calling set_ with "set_\(int\)"'):
            fw.Tensor(np.zeros(3, np.int32)).set_(3)


@pytest.mark.parametrize("dims", [
    [("max", 10), 3], [("max", 10, "min", 2, "divisor", 4, "remainder", 2), 3], [("max", 8), None], [()],
    [("min", 3)], [("min", 3, "max", 9)], [("divisor", 2)], [None, 3],
])
def test_symbolic_shape_matches_mindspore(dims: list) -> None:
    def build(fw: Any) -> Any:
        shape = [fw.Symbol(**dict(zip(d[::2], d[1::2]))) if isinstance(d, tuple) else d for d in dims]
        return fw.Tensor(shape=shape, dtype=fw.float32).symbolic_shape

    assert build(mindjax) == build(mindspore)


def test_get_bytes_matches_mindspore() -> None:
    for data, dtype in (([1, 2, 3], "int16"), ([[1.0, 2.5], [3.0, -1.0]], "float32"), ([True, False], "bool_")):
        want = mindspore.Tensor(data, getattr(mindspore, dtype)).get_bytes()
        assert mindjax.Tensor(data, getattr(mindjax, dtype)).get_bytes() == want
    assert mindjax.Tensor([1.0]).symbolic_shape is mindspore.Tensor([1.0]).symbolic_shape is None
    assert mindjax.Tensor([1.0]).is_meta is mindspore.Tensor([1.0]).is_meta is False
