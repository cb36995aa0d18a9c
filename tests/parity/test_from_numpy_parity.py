"""``from_numpy`` shares memory with the numpy array, as in MindSpore 2.10.

Each scenario runs on both frameworks from the same starting array and compares
what the Tensor and the array hold at each step: writes to the array after
``from_numpy`` (``arr[0] = ...``, ``np.add(..., out=arr)``), writes through
``asnumpy()``, in-place Tensor writes (``t[i] = ...``), ops on ``t`` afterwards,
``copy_`` (into the array), the calls that give the Tensor data of its own
(``assign_value``, ``set_dtype``) or copy at once (``Tensor(arr)``, a non-contiguous array).
"""
from __future__ import annotations

from typing import Any, Callable

import mindspore
import numpy as np
import pytest

import mindjax


def _aligned(n: int) -> np.ndarray:
    """A float32 array whose buffer is 64-byte aligned (the case XLA:CPU aliases)."""
    buf = np.zeros(n + 16, np.float32)
    start = next(i for i in range(16) if (buf.ctypes.data + 4 * i) % 64 == 0)
    return buf[start:start + n]


def _writes_to_array(fw: Any, arr: np.ndarray) -> list[np.ndarray]:
    t = fw.from_numpy(arr)
    seen = []
    arr[0] = 7.0
    seen.append(t.asnumpy().copy())
    np.add(arr, 1, out=arr)
    seen.append((t * 2).asnumpy())
    return seen


def _writes_through_asnumpy(fw: Any, arr: np.ndarray) -> list[np.ndarray]:
    t = fw.Tensor.from_numpy(arr)
    view = t.asnumpy()
    view[1] = -3.0
    return [t.asnumpy().copy(), (t + t).asnumpy(), arr.copy(), np.array(np.shares_memory(view, arr))]


def _tensor_setitem(fw: Any, arr: np.ndarray) -> list[np.ndarray]:
    t = fw.from_numpy(arr)
    t[2] = 100.0
    t[0:2] = fw.Tensor(np.array([5.0, 6.0], np.float32))
    out = [arr.copy(), t.asnumpy().copy()]
    arr[3] = -1.0  # still shared after the Tensor's writes
    out.append(fw.ops.abs(t).asnumpy())
    return out


def _replacing_calls(fw: Any, arr: np.ndarray) -> list[np.ndarray]:
    out = []
    for change in (lambda t: t.assign_value(fw.Tensor(np.full(arr.shape, 2.0, np.float32))),
                   lambda t: t.copy_(fw.Tensor(np.full(arr.shape, 3.0, np.float32))),
                   lambda t: t.set_dtype(fw.int32)):
        a = arr.copy()
        t = fw.from_numpy(a)
        change(t)
        now = t.asnumpy().copy()  # MindSpore runs copy_ asynchronously: this waits for it
        out += [now, a.copy()]
        a[0] = 9.0
        out += [t.asnumpy().copy()]
    return out


def _copies(fw: Any, arr: np.ndarray) -> list[np.ndarray]:
    t = fw.Tensor(arr)
    strided = np.arange(8, dtype=np.float32)[::2]
    s = fw.from_numpy(strided)
    arr[0] = 50.0
    strided[0] = 50.0
    return [t.asnumpy(), s.asnumpy()]


def _dtypes_and_shapes(fw: Any, arr: np.ndarray) -> list[np.ndarray]:
    ints = np.arange(6, dtype=np.int32).reshape(2, 3)
    t = fw.from_numpy(ints)
    ints[1, 2] = 40
    scalar = np.array(2.5, np.float32)
    s = fw.from_numpy(scalar)
    scalar[...] = 4.5
    return [t.asnumpy().copy(), np.array(str(t.dtype)), np.array(t.shape), s.asnumpy().copy(),
            (s * 2).asnumpy()]


SCENARIOS: dict[str, Callable[[Any, np.ndarray], list[np.ndarray]]] = {
    "writes_to_array": _writes_to_array, "writes_through_asnumpy": _writes_through_asnumpy,
    "tensor_setitem": _tensor_setitem, "replacing_calls": _replacing_calls, "copies": _copies,
    "dtypes_and_shapes": _dtypes_and_shapes,
}


@pytest.mark.parametrize("aligned", [False, True], ids=["numpy_alloc", "aligned"])
@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_from_numpy_memory_sharing_matches_mindspore(name: str, aligned: bool) -> None:
    results = []
    for fw in (mindspore, mindjax):
        arr = _aligned(5) if aligned else np.zeros(5, np.float32)
        arr[:] = 1.0
        results.append(SCENARIOS[name](fw, arr))
    ms_out, mj_out = results
    assert len(ms_out) == len(mj_out)
    for k, (want, got) in enumerate(zip(ms_out, mj_out)):
        np.testing.assert_array_equal(np.asarray(got), np.asarray(want), err_msg=f"{name} step {k}")
        assert np.asarray(got).dtype == np.asarray(want).dtype, f"{name} step {k}"
