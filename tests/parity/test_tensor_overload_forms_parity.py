"""MindJAX's Tensor methods take every argument form of MindSpore 2.10's overloads.

MindSpore resolves a Tensor method among its overloads (the current signature and the
deprecated one, e.g. ``expand_as(other)`` / ``expand_as(x)``, ``gather(dim, index)`` /
``gather(input_indices, axis, batch_dims=0)``): each form, positional and by keyword, is called
on both frameworks and the results compared; the forms MindSpore refuses are refused here too.
"""
from __future__ import annotations

import mindspore
import numpy as np
import pytest

import mindjax
from tests.parity.test_tensor_method_parity import T, _call, _compare, _NoCpuKernel

F32 = np.array([[1.5, -2.0, 3.0], [0.5, 4.0, -1.0]], np.float32)
F32_3D = np.arange(24, dtype=np.float32).reshape(2, 3, 4) / 4 - 2
SQ = np.array([[4.0, 1.0, 0.5], [1.0, 3.0, 0.2], [0.5, 0.2, 2.0]], np.float32)
VEC = np.array([1.0, -2.0, 3.0], np.float32)
BOOL = np.array([[True, False, True], [False, False, True]])
IDX = np.array([[0, 0], [2, 1]], np.int64)

CASES = [
    (VEC, "expand_as", (), {"other": T(F32)}), (VEC, "expand_as", (), {"x": T(F32)}),
    (F32, "remainder", (), {"other": 2.0}), (F32, "remainder", (), {"divisor": T(F32 + 5)}),
    (F32, "sub", (), {"y": T(F32)}), (F32, "pow", (), {"exponent": 2}),
    (SQ, "mm", (), {"mat2": T(SQ)}), (SQ, "matmul", (), {"tensor2": T(SQ)}), (VEC, "outer", (), {"vec2": T(VEC)}),
    (F32_3D, "flatten", (1,), {}), (F32_3D, "flatten", (0, 1), {}), (F32_3D, "flatten", (1,), {"end_dim": 2}),
    (F32_3D, "flatten", (), {"end_dim": 1}), (F32_3D, "flatten", (), {"end_dim": 1, "start_dim": 0}),
    (F32_3D, "flatten", ("F",), {}), (F32_3D, "flatten", (), {"order": "F", "start_dim": 1}),
    (F32, "gather", (1, T(IDX)), {}), (F32, "gather", (), {"dim": 1, "index": T(IDX)}),
    (F32, "gather", (), {"index": T(IDX), "dim": 1}),
    (F32, "gather", (T(np.array([2, 0], np.int32)),), {"axis": 1}),
    (F32, "gather", (T(np.array([[2], [0]], np.int32)), 1), {"batch_dims": 1}),
    (F32, "index_select", (), {"dim": 1, "index": T(np.array([2, 0], np.int32))}),
    (F32, "index_select", (), {"axis": 1, "index": T(np.array([2, 0], np.int32))}),
    (F32, "scatter", (), {"dim": 1, "index": T(IDX), "src": T(np.array([[9.0, 8.0], [7.0, 6.0]], np.float32))}),
    (F32, "scatter", (), {"axis": 1, "index": T(IDX), "src": T(np.array([[9.0, 8.0], [7.0, 6.0]], np.float32))}),
    (F32, "scatter", (1, T(IDX), 7.0), {}),
    # an empty axis reduces every axis
    (BOOL, "any", (), {"axis": (), "keep_dims": True}), (BOOL, "all", (), {"axis": ()}), (F32, "sum", ((),), {}),
    (F32, "clip", (T(np.float32(0.0)), 2), {}), (F32, "clamp", (), {"min": 0.5}),
]


@pytest.mark.parametrize("case", CASES, ids=[f"{c[1]}-{i}" for i, c in enumerate(CASES)])
def test_overload_form_matches_mindspore(case):
    data, method, args, kwargs = case
    try:
        ms_out, _ = _call(mindspore, data, method, args, kwargs)
    except _NoCpuKernel as e:
        pytest.skip(str(e))
    mj_out, _ = _call(mindjax, data, method, args, kwargs)
    _compare(ms_out, mj_out, f"Tensor.{method}{args}{kwargs}")


REFUSED = [
    (VEC, "expand_as", (), {}, TypeError), (F32, "remainder", (), {}, TypeError),
    (SQ, "mm", (3,), {}, TypeError), (SQ, "matmul", (3,), {}, TypeError), (VEC, "outer", (3,), {}, TypeError),
    (F32, "flatten", (1.5,), {}, TypeError), (F32, "flatten", ("X",), {}, ValueError),
]


@pytest.mark.parametrize("case", REFUSED, ids=[f"{c[1]}-{i}" for i, c in enumerate(REFUSED)])
def test_overload_form_refused_as_mindspore(case):
    data, method, args, kwargs, error = case
    with pytest.raises(error):
        _call(mindspore, data, method, args, kwargs)
    with pytest.raises(error, match=method):
        _call(mindjax, data, method, args, kwargs)


def test_flatten_order_error_names_order():
    with pytest.raises(ValueError, match="'order' must be 'C' or 'F', but got 'X'"):
        mindjax.Tensor(F32).flatten("X")


def test_scatter_refuses_dim_and_axis_together():
    x = mindjax.Tensor(F32)
    with pytest.raises(TypeError, match="'dim' or 'axis'"):
        x.scatter(dim=1, axis=1, index=mindjax.Tensor(IDX), src=mindjax.Tensor(F32))
    with pytest.raises(TypeError, match="missing required argument"):
        x.scatter(1, mindjax.Tensor(IDX))


CLAMP_REFUSED = [
    (F32, (None, None), "at least one of 'min' or 'max' must not be None"),
    (F32, (5, True), "must not be bool"), (BOOL, (0, 1), "must not be bool"),
]


@pytest.mark.parametrize("method", ["clamp", "clip"])
@pytest.mark.parametrize("case", CLAMP_REFUSED, ids=["both-none", "bool-bound", "bool-input"])
def test_clamp_refuses_as_mindspore(method, case):
    data, args, message = case
    with pytest.raises(ValueError, match=message):
        _call(mindspore, data, method, args, {})
    with pytest.raises(ValueError, match=message):
        _call(mindjax, data, method, args, {})
