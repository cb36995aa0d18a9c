"""``Tensor.max``/``Tensor.min`` pick MindSpore 2.10's overload from how they are called.

``max(dim, keepdim)`` returns ``(values, indices)``; the numpy-style keywords (``axis``,
``keepdims``, ``initial``, ``where``, ``return_indices``), a None or tuple first argument select
the values-only overload. Each case runs on both frameworks and compares structure, values,
dtypes and shapes.
"""
from __future__ import annotations

from typing import Any

import mindspore
import numpy as np
import pytest

import mindjax

X = np.array([[1.0, 5.0, 3.0], [4.0, 2.0, 6.0]], np.float32)
XI = np.array([[1, 2], [3, 0]], np.int32)
MASK = np.array([[True, False, True], [False, True, True]])

CASES = [
    (X, (), {}), (X, (0,), {}), (X, (0, True), {}), (X, (-1,), {}), (X, (), {"dim": 0}),
    (X, (), {"dim": 1, "keepdim": True}), (X, (0,), {"keepdim": True}),
    (X, (0, True), {"initial": None}), (X, (0, True), {"initial": 10.0}), (X, (1,), {"initial": 4.0}),
    (X, (), {"axis": 0}), (X, (), {"axis": 1, "keepdims": True}), (X, (0,), {"keepdims": True}),
    (X, (), {"axis": 0, "return_indices": True}), (X, (1, True), {"return_indices": True}),
    (X, (0, True), {"return_indices": False}), (X, (None,), {}), (X, (None, True), {}),
    (X, (), {"axis": None, "keepdims": True}), (X, ((0, 1),), {}), (X, ((1,),), {}), (X, ((0, 1), True), {}),
    (X, (), {"axis": (0, 1)}), (X, (), {"initial": 7.0}), (XI, (0,), {}), (XI, (0,), {"initial": None}),
    (X, (0,), {"initial": 0.0, "where": "MASK"}),
]


def _call(framework: Any, data: np.ndarray, method: str, args: tuple, kwargs: dict) -> Any:
    kwargs = {k: framework.Tensor(MASK) if v == "MASK" else v for k, v in kwargs.items()}
    return getattr(framework.Tensor(data), method)(*args, **kwargs)


def _leaves(out: Any) -> list:
    if isinstance(out, tuple):
        return [("tuple", len(out))] + [leaf for o in out for leaf in _leaves(o)]
    return [(np.asarray(out.asnumpy()).tolist(), tuple(out.shape), str(out.dtype))]


@pytest.mark.parametrize("method", ["max", "min"])
@pytest.mark.parametrize("data,args,kwargs", CASES, ids=[f"{a}-{k}" for _, a, k in CASES])
def test_max_min_overload_matches_mindspore(method: str, data: np.ndarray, args: tuple, kwargs: dict) -> None:
    expected = _leaves(_call(mindspore, data, method, args, kwargs))
    got = _leaves(_call(mindjax, data, method, args, kwargs))
    assert got == expected


@pytest.mark.parametrize("args,kwargs", [((0, False, None), {}), ((), {"dim": None})])
def test_max_bad_overload_raises_like_mindspore(args: tuple, kwargs: dict) -> None:
    with pytest.raises(TypeError):
        _call(mindspore, X, "max", args, kwargs)
    with pytest.raises(TypeError, match=r"Tensor\.max"):
        _call(mindjax, X, "max", args, kwargs)
