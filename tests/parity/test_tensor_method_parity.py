"""MindJAX's Tensor methods against MindSpore 2.10's: values, dtypes, shapes and repr.

Each case calls one method with the same small inputs on a ``mindspore.Tensor``
and a ``mindjax.Tensor`` and compares the results leaf by leaf: the numpy
values, ``str(dtype)`` and the shape (tuples of results, such as ``max(dim)``'s
``(values, indices)``, are compared element by element; Python scalars by value
and type).
"""
from __future__ import annotations

from typing import Any

import mindspore
import numpy as np
import pytest

import mindjax

F32 = np.array([[1.5, -2.0, 3.0], [0.5, 4.0, -1.0]], np.float32)
F32_3D = np.arange(24, dtype=np.float32).reshape(2, 3, 4) / 4 - 2
I32 = np.array([[3, -1, 2], [0, 5, -4]], np.int32)
I64 = np.array([[3, 1, 2], [0, 5, 4]], np.int64)
BOOL = np.array([[True, False, True], [False, False, True]])
SQ = np.array([[4.0, 1.0, 0.5], [1.0, 3.0, 0.2], [0.5, 0.2, 2.0]], np.float32)  # symmetric positive definite
VEC = np.array([1.0, -2.0, 3.0], np.float32)
TIES = np.array([[2.0, 1.0, 2.0, 1.0], [0.0, 0.0, 5.0, 5.0]], np.float32)


class T:
    """A Tensor argument: becomes a Tensor of each framework."""

    def __init__(self, data: Any) -> None:
        self.data = np.asarray(data)


class _NoCpuKernel(Exception):
    """MindSpore 2.10 has no CPU kernel for this call."""


class D:
    """A dtype argument: becomes the dtype of each framework (``D("float32")``)."""

    def __init__(self, name: str) -> None:
        self.name = name


# MindSpore 2.10 on CPU has no kernel for some methods (they run on Ascend): those cases are skipped.
_NO_CPU_KERNEL = ("unregistered", "fail! Unsupported data type", "no branch to go",
                  "Unsupported op", "'Registry' object has no attribute", "KernelMod Init Failed", "not supported on this device", "support Ascend only", "should not come here")


def _build(framework: Any, value: Any) -> Any:
    if isinstance(value, T):
        return framework.Tensor(value.data)
    if isinstance(value, D):
        return getattr(framework, value.name)
    if isinstance(value, tuple):
        return tuple(_build(framework, v) for v in value)
    if isinstance(value, list):
        return [_build(framework, v) for v in value]
    return value


def _call(framework: Any, data: np.ndarray, method: str, args: tuple, kwargs: dict) -> Any:
    x = framework.Tensor(data)
    call = getattr(x, method)
    built_args, built_kwargs = _build(framework, args), {k: _build(framework, v) for k, v in kwargs.items()}
    if framework is not mindspore:
        return call(*built_args, **built_kwargs), x
    try:
        out = call(*built_args, **built_kwargs)
        for leaf in _leaves(out) + [x]:  # PYNATIVE runs asynchronously: kernel errors surface on reading
            if isinstance(leaf, mindspore.Tensor):
                leaf.asnumpy()
        return out, x
    except (RuntimeError, ValueError, NotImplementedError, TypeError, AttributeError) as e:
        if any(s in str(e) for s in _NO_CPU_KERNEL):
            raise _NoCpuKernel(f"MindSpore 2.10 has no CPU kernel for Tensor.{method}: "
                               f"{str(e).splitlines()[0]}") from e
        raise


def _leaves(out: Any) -> list[Any]:
    if isinstance(out, (tuple, list)):
        return [leaf for o in out for leaf in _leaves(o)]
    return [out]


def _compare(ms_out: Any, mj_out: Any, what: str) -> None:
    ms_leaves, mj_leaves = _leaves(ms_out), _leaves(mj_out)
    assert len(ms_leaves) == len(mj_leaves), f"{what}: {len(ms_leaves)} results in MindSpore, {len(mj_leaves)} here"
    for i, (a, b) in enumerate(zip(ms_leaves, mj_leaves)):
        if isinstance(a, mindspore.Tensor):
            assert isinstance(b, mindjax.Tensor), f"{what}[{i}]: MindSpore returns a Tensor, got {type(b)}"
            assert str(b.dtype) == str(a.dtype), f"{what}[{i}]: dtype {b.dtype}, MindSpore {a.dtype}"
            assert tuple(b.shape) == tuple(a.shape), f"{what}[{i}]: shape {b.shape}, MindSpore {a.shape}"
            np.testing.assert_allclose(b.asnumpy(), a.asnumpy(), rtol=2e-5, atol=2e-5, err_msg=f"{what}[{i}]")
        else:
            assert type(b) is type(a), f"{what}[{i}]: {type(b).__name__}, MindSpore {type(a).__name__}"
            assert b == a, f"{what}[{i}]: {b!r}, MindSpore {a!r}"


# (input, method, args, kwargs)
CASES = [
    # reductions, axis and keepdims variants, int/bool promotion
    (F32, "sum", (), {}), (F32, "sum", (1,), {}), (F32, "sum", (0, None, True), {}),
    (I32, "sum", (), {}), (BOOL, "sum", (1,), {}), (I32, "sum", (), {"dtype": D("float32")}),
    (F32, "mean", (), {}), (F32, "mean", (1, True), {}), (F32, "mean", ((0, 1),), {}),
    (F32, "prod", (), {}), (F32, "prod", (1,), {}), (I32, "prod", (0,), {}),
    (F32, "max", (), {}), (F32, "max", (1,), {}), (F32, "max", (1, True), {}), (F32, "max", (), {"axis": 0}),
    (F32, "max", (), {"axis": 0, "keepdims": True}), (I32, "max", (0,), {}),
    (F32, "min", (), {}), (F32, "min", (0,), {}), (F32, "min", (), {"axis": 1, "keepdims": True}),
    (F32, "argmax", (), {}), (F32, "argmax", (1,), {}), (F32, "argmax", (0, True), {}),
    (F32, "argmin", (), {}), (F32, "argmin", (1,), {}),
    (F32, "amax", (), {}), (F32, "amax", (1,), {}), (F32, "amin", (0, True), {}),
    (F32, "std", (), {}), (F32, "std", (1,), {}), (F32, "var", (0,), {}), (F32, "var", (1, 1, True), {}),
    (BOOL, "all", (), {}), (BOOL, "all", (1,), {}), (BOOL, "any", (0, True), {}), (F32, "any", (), {}),
    (F32, "cumsum", (1,), {}), (I32, "cumsum", (0,), {}), (F32, "cumprod", (1,), {}),
    (F32, "norm", (), {}), (F32, "logsumexp", (1,), {}), (F32, "logsumexp", (0, True), {}),
    (F32, "nansum", (), {}), (F32, "nansum", (1,), {}), (F32, "nanmean", (1,), {}), (F32, "ptp", (1,), {}),
    (F32, "count_nonzero", (), {}), (I32, "count_nonzero", (), {"axis": 1}),
    (F32, "aminmax", (), {"axis": 1}), (F32, "median", (), {}), (F32, "median", (0,), {}),
    (F32, "argmax_with_value", (), {}), (F32, "argmin_with_value", (1, True), {}),
    (F32, "cummax", (1,), {}), (F32, "cummin", (0,), {}), (F32, "logcumsumexp", (1,), {}),
    (F32, "trace", (), {}), (I32, "trace", (), {}),
    # sorting and selection
    (F32, "sort", (), {}), (F32, "sort", (0,), {}), (F32, "sort", (), {"descending": True}),
    (I32, "sort", (), {}), (F32, "argsort", (), {}), (F32, "argsort", (0, True), {}),
    (F32, "topk", (2,), {}), (F32, "topk", (1, 0), {}), (F32, "topk", (2,), {"largest": False}),
    (F32, "top_k", (2,), {}), (F32, "kthvalue", (2,), {}), (F32, "kthvalue", (1, 0, True), {}),
    (F32, "msort", (), {}), (BOOL, "nonzero", (), {}), (F32, "argwhere", (), {}),
    (VEC, "searchsorted", (T(np.array([0.0, 2.0], np.float32)),), {}),
    # elementwise math and promotion
    (F32, "abs", (), {}), (I32, "abs", (), {}), (F32, "neg", (), {}), (F32, "exp", (), {}), (I64, "exp", (), {}),
    (F32, "sqrt", (), {}), (I32, "sqrt", (), {}), (F32, "sigmoid", (), {}), (F32 / 4, "tanh", (), {}),
    (F32, "floor", (), {}), (F32, "ceil", (), {}), (F32, "round", (), {}), (F32, "trunc", (), {}),
    (F32, "sign", (), {}), (I32, "sign", (), {}), (F32, "square", (), {}), (I32, "square", (), {}),
    (F32, "reciprocal", (), {}), (F32, "log1p", (), {}), (F32, "frac", (), {}), (F32, "erf", (), {}),
    (F32, "add", (T(F32),), {}), (F32, "add", (2,), {}), (I32, "add", (2,), {}), (I32, "add", (2.5,), {}),
    (I32, "add", (T(F32),), {}), (BOOL, "add", (T(I32),), {}), (F32, "add", (T(F32),), {"alpha": 2}),
    (F32, "sub", (1.5,), {}), (I32, "mul", (T(I64),), {}), (I32, "div", (2,), {}), (I32, "div", (T(I32),), {}),
    (F32, "div", (2.0,), {}), (I32, "div", (3,), {"rounding_mode": "floor"}),
    (F32, "div", (T(F32),), {"rounding_mode": "trunc"}), (I32, "true_divide", (T(I32),), {}),
    (I32, "floor_divide", (3,), {}), (F32, "remainder", (2.0,), {}), (I32, "fmod", (3,), {}),
    (F32, "pow", (2,), {}), (I32, "pow", (2,), {}), (F32, "maximum", (T(F32 * 0),), {}),
    (F32, "clamp", (-1.0, 2.0), {}), (I32, "clamp", (-1, 2), {}), (F32, "clip", (0.0,), {}),
    (F32, "gt", (0.5,), {}), (I32, "eq", (T(I32),), {}), (F32, "isclose", (T(F32),), {}),
    (F32, "lerp", (T(F32 * 2), 0.5), {}), (F32, "addcmul", (T(F32), T(F32)), {"value": 2}),
    (F32, "xlogy", (T(np.abs(F32)),), {}), (F32, "atan2", (T(F32 + 1),), {}), (F32, "hypot", (T(F32),), {}),
    (I32, "bitwise_and", (T(I32),), {}), (BOOL, "logical_not", (), {}), (F32, "nan_to_num", (), {}),
    (F32, "float_power", (2,), {}), (F32, "hardshrink", (1.0,), {}), (F32, "soft_shrink", (), {}),
    (F32, "softmax", (-1,), {}), (F32, "softmax", (0,), {}),
    # shapes
    (F32, "reshape", (3, 2), {}), (F32, "reshape", ((6,),), {}), (F32, "view", (3, 2), {}),
    (F32, "flatten", (), {}), (F32_3D, "flatten", (), {"start_dim": 1}), (F32, "ravel", (), {}),
    (F32, "transpose", (), {}), (F32_3D, "transpose", (2, 0, 1), {}), (F32_3D, "permute", (2, 0, 1), {}),
    (F32, "t", (), {}), (F32, "unsqueeze", (0,), {}), (F32, "expand_dims", (-1,), {}),
    (F32_3D, "swapaxes", (0, 2), {}), (F32_3D, "moveaxis", (0, 2), {}), (F32_3D, "movedim", (0, -1), {}),
    (F32, "squeeze", (), {}), (F32, "tile", ((2, 1),), {}), (F32, "repeat", (2,), {}),
    (F32, "repeat_interleave", (2,), {}), (F32, "repeat_interleave", (2, 1), {}),
    (F32, "broadcast_to", ((2, 2, 3),), {}), (F32, "expand_as", (T(np.zeros((2, 2, 3), np.float32)),), {}),
    (F32, "flip", ((0,),), {}), (F32, "fliplr", (), {}), (F32, "flipud", (), {}), (F32, "roll", (1, 1), {}),
    (F32, "rot90", (1, (0, 1)), {}), (F32, "diagonal", (), {}), (F32_3D, "diagonal", (0, 1, 2), {}),
    (VEC, "diag", (), {}), (SQ, "diag", (), {}), (VEC, "diagflat", (), {}),
    (F32, "split", (1,), {}), (F32, "split", ((1, 2), 1), {}), (F32, "chunk", (2, 1), {}),
    (F32, "tensor_split", (3, 1), {}), (F32, "unbind", (), {}), (F32, "narrow", (1, 0, 2), {}),
    (F32, "tril", (), {}), (F32, "triu", (1,), {}), (F32, "resize", (3, 3), {}), (F32, "sum_to_size", (1, 3), {}),
    # indexing and scatter
    (F32, "take", (T(np.array([0, 4], np.int64)),), {}),
    (F32, "gather", (T(np.array([2, 0], np.int32)), 1), {}),
    (F32, "gather_elements", (1, T(np.array([[0, 0], [2, 1]], np.int64))), {}),
    (F32, "index_select", (1, T(np.array([2, 0], np.int32))), {}),
    (F32, "masked_fill", (T(BOOL), 0.0), {}), (F32, "masked_select", (T(BOOL),), {}),
    (F32, "masked_scatter", (T(BOOL), T(np.array([7.0, 8.0, 9.0], np.float32))), {}),
    (F32, "where", (T(BOOL), T(F32 * 0)), {}),
    (F32, "scatter", (1, T(np.array([[0], [2]], np.int64)), T(np.array([[9.0], [8.0]], np.float32))), {}),
    (F32, "scatter_add", (1, T(np.array([[0], [2]], np.int64)), T(np.array([[9.0], [8.0]], np.float32))), {}),
    (F32, "index_add", (1, T(np.array([0, 2], np.int32)), T(np.ones((2, 2), np.float32))), {}),
    (F32, "index_fill", (1, T(np.array([0, 2], np.int32)), -1.0), {}),
    (F32, "select", (1, 1), {}), (F32, "fill_diagonal", (5.0,), {}),
    (I32, "unique_consecutive", (), {}), (VEC, "outer", (T(VEC),), {}), (VEC, "ger", (T(VEC),), {}),
    # linear algebra
    (SQ, "matmul", (T(SQ),), {}), (SQ, "mm", (T(SQ),), {}), (SQ, "det", (), {}), (SQ, "inverse", (), {}),
    (SQ, "cholesky", (), {}), (SQ, "matrix_power", (2,), {}), (SQ, "slogdet", (), {}), (SQ, "logdet", (), {}),
    (SQ, "addmm", (T(SQ), T(SQ)), {}), (SQ, "addmv", (T(SQ), T(VEC)), {}), (SQ, "addr", (T(VEC), T(VEC)), {}),
    (SQ, "dot", (T(SQ),), {}), (VEC, "inner", (T(VEC),), {}), (VEC, "cross", (T(VEC[::-1].copy()),), {}),
    # dtype casts and predicates
    (F32, "astype", (D("int32"),), {}), (F32, "int", (), {}), (F32, "long", (), {}), (I32, "float", (), {}),
    (I32, "half", (), {}), (F32, "bool", (), {}), (F32, "double", (), {}), (I32, "to", (D("float16"),), {}),
    (F32, "type_as", (T(I32),), {}), (F32, "type", (), {}), (F32, "is_floating_point", (), {}),
    (I32, "is_floating_point", (), {}), (F32, "is_complex", (), {}), (I32, "is_signed", (), {}),
    (np.array([1, 2], np.uint8), "is_signed", (), {}), (F32, "numel", (), {}), (F32, "dim", (), {}),
    (F32, "nelement", (), {}), (F32, "clone", (), {}), (np.array([2.5], np.float32), "item", (), {}), (F32, "tolist", (), {}),
    (F32, "new_zeros", ((2,),), {}), (F32, "new_ones", ((1, 2),), {}), (F32, "new_full", ((2,), 3), {}),
    # int and bool inputs of reductions and scans
    (I32, "mean", (), {}), (I32, "max", (), {}), (I32, "argmax", (1,), {}), (BOOL, "prod", (), {}),
    (I32, "cumprod", (1,), {}), (BOOL, "cumsum", (0,), {}), (I64, "sum", (1, None, True), {}),
    (I32, "amax", (0,), {}), (I32, "cummax", (1,), {}), (I32, "cummin", (1,), {}), (I32, "sort", (0,), {}),
    (I32, "topk", (2,), {}), (I32, "argsort", (), {}), (BOOL, "any", (), {}), (I32, "all", (1,), {}),
    # methods that delegate to the op of the same name
    (SQ, "addbmm", (T(F32_3D), T(F32_3D.transpose(0, 2, 1).copy())), {}),
    (F32_3D[:, :, :3].copy(), "baddbmm", (T(F32_3D), T(F32_3D.transpose(0, 2, 1).copy())), {}),
    (np.array([0, 1, 1, 3], np.int32), "bincount", (), {}), (F32, "cov", (), {}),
    (F32, "diff", (), {}), (F32, "diff", (1, 0), {}), (F32_3D, "flip", ((0, 2),), {}),
    (F32, "gather_nd", (T(np.array([[0, 1], [1, 2]], np.int32)),), {}),
    (F32, "histc", (4, -2.0, 4.0), {}), (F32_3D, "hsplit", (3,), {}), (F32_3D, "vsplit", (1,), {}),
    (np.abs(F32) + 0.5, "igamma", (T(np.abs(F32) + 1),), {}), (np.abs(F32) + 0.5, "igammac", (T(np.abs(F32) + 1),), {}),
    (F32 + 10, "inv", (), {}), (I32, "invert", (), {}), (SQ, "matrix_determinant", (), {}),
    (np.abs(F32) + 2, "mvlgamma", (2,), {}), (np.array([[1.0, np.nan, 3.0]], np.float32), "nanmedian", (), {}),
    (np.array([[1.0, np.nan, 3.0]], np.float32), "nansum", (), {}),
    (np.array([np.nan, np.inf, -np.inf, 1.0], np.float32), "nan_to_num", (), {}),
    (np.array([np.nan, np.inf, -np.inf, 1.0], np.float32), "nan_to_num", (0.0, 9.0, -9.0), {}),
    (F32, "quantile", (0.25,), {}), (F32, "quantile", (0.5, 1, True), {}), (F32, "renorm", (2, 0, 1.0), {}),
    (F32, "reverse", ((1,),), {}), (F32_3D, "rot90", (2, (1, 2)), {}),
    (F32, "scatter_div", (T(np.array([[1]], np.int32)), T(np.full((1, 3), 2.0, np.float32))), {}),
    (F32, "scatter_max", (T(np.array([[0]], np.int32)), T(np.zeros((1, 3), np.float32))), {}),
    (F32, "scatter_min", (T(np.array([[0]], np.int32)), T(np.zeros((1, 3), np.float32))), {}),
    (F32, "scatter_mul", (T(np.array([[1]], np.int32)), T(np.full((1, 3), 3.0, np.float32))), {}),
    (F32, "scatter_sub", (T(np.array([[0, 1], [1, 2]], np.int32)), T(np.array([1.0, 2.0], np.float32))), {}),
    (F32, "select_scatter", (T(np.zeros(3, np.float32)), 0, 1), {}),
    (F32, "slice_scatter", (T(np.zeros((2, 1), np.float32)), 1, 0, 1), {}),
    (F32, "tensor_split", ((1, 2), 1), {}), (np.array([1, 1, 2, 5, 5, 5], np.int32), "unique_with_pad", (9,), {}),
    (np.array([1, 1, 2, 2, 2, 1], np.int32), "unique_consecutive", (True, True), {}),
    (F32, "unsorted_segment_max", (T(np.array([1, 0], np.int32)), 2), {}),
    (F32, "unsorted_segment_min", (T(np.array([0, 0], np.int32)), 2), {}),
    (F32, "unsorted_segment_prod", (T(np.array([0, 0], np.int32)), 1), {}),
    (F32, "xdivy", (T(F32 + 5),), {}), (F32, "fills", (2.5,), {}), (F32, "approximate_equal", (T(F32 + 1e-6),), {}),
    (SQ, "diagonal_scatter", (T(np.ones(3, np.float32)),), {}), (SQ, "cholesky_inverse", (), {}),
    (SQ, "cholesky_solve", (T(np.linalg.cholesky(SQ).astype(np.float32)),), {}), (SQ, "logdet", (), {}),
    (SQ, "log_matrix_determinant", (), {}), (SQ, "top_k", (1,), {}), (F32_3D, "moveaxis", ((0, 1), (2, 0)), {}),
    (F32, "adjoint", (), {}), (F32, "aminmax", (), {"axis": 0, "keepdims": True}), (F32, "argwhere", (), {}),
    (F32, "logcumsumexp", (0,), {}), (VEC, "ger", (T(VEC * 2),), {}),
    # methods whose MindSpore signature differs from the op
    (F32_3D, "trace", (), {}), (SQ, "trace", (1,), {}), (F32, "take", (T(np.array([5, -1], np.int64)),), {}),
    (F32, "take", (T(np.array([0, 2], np.int64)), 1), {}), (F32, "take", (T(np.array([7, -1], np.int64)), None, "clip"), {}),
    (F32, "ptp", (), {}), (F32, "ptp", (0, True), {}), (F32, "resize", (2, 2), {}), (F32, "resize", ((7,),), {}),
    (F32_3D, "sum_to_size", (3, 1), {}), (VEC[[1, 0, 2]].copy(), "searchsorted", (T(VEC),), {"side": "right"}),
    (np.array([0, 1, 2, 1], np.int32), "choose", ([T(np.arange(4, dtype=np.int32)), T(np.full(4, 7, np.int32)),
                                                   T(np.full(4, -1, np.int32))],), {}),
    (SQ, "triangular_solve", (T(np.triu(SQ)),), {}), (F32, "index_put", ((T(np.array([0, 1], np.int64)),
                                                                          T(np.array([2, 0], np.int64))),
                                                                         T(np.array([5.0, 6.0], np.float32))), {}),
    (F32, "masked_scatter", (T(np.array([True, False, True])), T(np.arange(6, dtype=np.float32))), {}),
    (np.zeros((5, 2), np.float32), "fill_diagonal", (1.0, True), {}), (F32, "diagonal", (1,), {}),
    (F32, "argmax_with_value", (1,), {}), (F32, "argmin_with_value", (), {}), (F32, "count_nonzero", (), {"axis": (0, 1)}),
    (I32, "is_signed", (), {}), (BOOL, "is_signed", (), {}), (F32, "split", (2, 1), {}),
    (F32, "select", (0, 1), {}), (F32, "repeat_interleave", (T(np.array([1, 2], np.int64)), 0), {}),
    # more overloads, ties and promotion
    (F32, "max", (), {"axis": 1, "return_indices": True}), (I32, "min", (1, True), {}),
    (TIES, "sort", (), {}), (TIES, "sort", (), {"descending": True}), (TIES, "argsort", (), {"descending": True}),
    (TIES, "topk", (2,), {}), (TIES, "argmax", (1,), {}), (TIES, "max", (1,), {}), (TIES, "median", (1,), {}),
    (F32, "norm", (1,), {}), (F32, "norm", (2, 1), {}), (F32, "reshape", (-1,), {}), (F32, "view", (-1, 2), {}),
    (F32[:1].copy(), "squeeze", (0,), {}), (F32[:1].copy(), "expand", (2, -1), {}), (F32, "transpose", (1, 0), {}),
    (I32, "unique", (), {}), (BOOL, "nonzero", (), {"as_tuple": True}),
    (F32, "fmod", (-1.5,), {}), (I32, "remainder", (3,), {}), (I32, "remainder", (-3,), {}),
    (F32, "floor_divide", (T(F32 + 3),), {}), (I32, "bitwise_left_shift", (T(np.abs(I32)),), {}),
    (I32, "logical_and", (T(I32),), {}), (I32, "masked_fill", (T(BOOL), 7), {}), (F32, "where", (T(BOOL), 0.0), {}),
    (F32, "clamp", (T(F32 * 0),), {}), (I32, "isclose", (T(I32),), {}), (BOOL, "tolist", (), {}),
    (np.array([3], np.int32), "item", (), {}), (I32, "std", (), {}), (np.array([-3, -1, -2, 0, 1, -4], np.int32), "var", (), {}),
    (I32, "std", (0, 1, True), {}), (I32, "var", (1,), {}), (F32, "var", (), {"ddof": 1}),
    (I32, "float_power", (2,), {}), (I32, "mul", (2.5,), {}), (BOOL, "mul", (T(BOOL),), {}),
    (I32, "div", (T(I32 * 0 + 2),), {"rounding_mode": "trunc"}), (F32, "sub", (T(F32),), {"alpha": 0.5}),
]


def _case_id(case: tuple) -> str:
    data, method, args, kwargs = case
    return f"{method}-{data.dtype}{list(data.shape)}-{len(args)}a-{'-'.join(sorted(kwargs))}"


@pytest.mark.parametrize("case", CASES, ids=[_case_id(c) for c in CASES])
def test_tensor_method_matches_mindspore(case):
    data, method, args, kwargs = case
    for attempt in range(3):
        try:
            ms_out, _ = _call(mindspore, data, method, args, kwargs)
            break
        except _NoCpuKernel as e:
            pytest.skip(str(e))
        except RuntimeError as exc:
            # MindSpore 2.10's CPU kernels (SearchSorted, FloorDiv) now and then fail on valid inputs late
            # in a long process; the same call then usually succeeds. When it keeps failing, the
            # reference cannot run: the case is skipped.
            if "C++ Call Stack" not in str(exc):
                raise
            if attempt == 2:
                pytest.skip(f"MindSpore's CPU kernel failed on a valid input: {str(exc).splitlines()[0]}")
    mj_out, _ = _call(mindjax, data, method, args, kwargs)
    _compare(ms_out, mj_out, f"Tensor.{method}{args}{kwargs or ''}")


INPLACE = [
    (F32, "add_", (T(F32),), {}), (F32, "sub_", (1.0,), {}), (F32, "mul_", (2,), {}), (F32, "div_", (2.0,), {}),
    (I32, "add_", (3,), {}), (F32, "clamp_", (-1.0, 1.0), {}), (F32, "exp_", (), {}), (F32, "sigmoid_", (), {}),
    (F32, "floor_", (), {}), (F32, "masked_fill_", (T(BOOL), 0.0), {}), (F32, "fill_", (2.5,), {}),
    (F32, "copy_", (T(F32 * 3),), {}),
    (F32, "fill_diagonal_", (7.0,), {}), (F32, "index_fill_", (1, T(np.array([1], np.int32)), 0.0), {}),
    (F32, "scatter_", (1, T(np.array([[0], [2]], np.int64)), T(np.array([[9.0], [8.0]], np.float32))), {}),
    (F32, "scatter_add_", (1, T(np.array([[0], [2]], np.int64)), T(np.array([[9.0], [8.0]], np.float32))), {}),
    (F32, "index_add_", (1, T(np.array([0, 2], np.int32)), T(np.ones((2, 2), np.float32))), {}),
    (F32, "masked_scatter_", (T(BOOL), T(np.array([7.0, 8.0, 9.0], np.float32))), {}),
    (F32, "put_", (T(np.array([0, 5], np.int64)), T(np.array([1.0, 2.0], np.float32))), {}),
    (F32, "index_put_", ((T(np.array([0, 1], np.int64)), T(np.array([2, 0], np.int64))),
                         T(np.array([5.0, 6.0], np.float32))), {}),
    (F32, "remainder_", (2.0,), {}), (F32, "erfinv_", (), {}),
]


@pytest.mark.parametrize("case", INPLACE, ids=[_case_id(c) for c in INPLACE])
def test_inplace_method_writes_like_mindspore(case):
    data, method, args, kwargs = case
    try:
        ms_out, _ = _call(mindspore, data, method, args, kwargs)
    except _NoCpuKernel as e:
        # MindSpore's in-place kernel runs on Ascend only: hold MindJAX to the out-of-place method.
        if not hasattr(mindspore.Tensor, method[:-1]):
            pytest.skip(str(e))
        try:
            ms_out, _ = _call(mindspore, data, method[:-1], args, kwargs)
        except _NoCpuKernel as e2:
            pytest.skip(f"{e}; {e2}")
    mj_out, mj_x = _call(mindjax, data, method, args, kwargs)
    _compare(ms_out, mj_out, f"Tensor.{method}{args} (the result)")
    # MindSpore documents the result as written into the Tensor; its CPU backend falls back to an
    # out-of-place kernel for some of these and leaves ``x`` as it was, so ``x`` is held to the result.
    _compare(ms_out, mj_x, f"Tensor.{method}{args} (the written Tensor)")
    assert mj_out is mj_x, f"Tensor.{method} must return the Tensor it wrote"


REPRS = [
    np.array([1.5, -2.0, 3.25], np.float32), np.array([[1, 2], [3, 4]], np.int32),
    np.array([True, False]), np.array([0.5, 1.0], np.float16), np.array(2.5, np.float32),
    np.array([[1, -2]], np.int64), np.array([1.0, 2.0], np.float64), np.array(3, np.int32),
    np.array([1, 200], np.uint8), np.array([-3, 4], np.int8), np.array([1e-8, 12345.678, 0.0], np.float32),
    np.array([np.nan, np.inf, -np.inf, 1.0], np.float32), np.arange(24, dtype=np.float32).reshape(2, 3, 4) - 5,
    np.arange(2000, dtype=np.float32).reshape(40, 50), np.arange(1500, dtype=np.int32),
    np.zeros((0, 3), np.float32), np.array([1 + 2j, -0.5j], np.complex64),
    np.arange(2000, dtype=np.int32).reshape(10, 10, 20), np.array([0.5, -1.25], np.float16).reshape(2, 1),
]


@pytest.mark.parametrize("data", REPRS, ids=[f"{d.dtype}{list(d.shape)}" for d in REPRS])
def test_result_repr_matches_mindspore(data):
    ms_out = mindspore.Tensor(data).reshape(data.shape)
    mj_out = mindjax.Tensor(data).reshape(data.shape)
    assert repr(mj_out) == repr(ms_out)
    assert str(mj_out) == str(ms_out)


@pytest.mark.parametrize("data", REPRS[:4], ids=[f"{d.dtype}{list(d.shape)}" for d in REPRS[:4]])
@pytest.mark.parametrize("method", ["sum", "abs", "flatten"])
def test_method_result_repr_matches_mindspore(data, method):
    ms_out, mj_out = getattr(mindspore.Tensor(data), method)(), getattr(mindjax.Tensor(data), method)()
    assert repr(mj_out) == repr(ms_out)


def test_every_delegated_method_has_its_op():
    from mindjax.common._tensor_methods import _DELEGATED
    import mindjax.ops as mj_ops

    assert [n for n in _DELEGATED if not callable(getattr(mj_ops, n, None))] == []


# MindSpore 2.10 Tensor attributes MindJAX does not provide: graph-compiler, Ascend-runtime, parameter-server
# and storage internals with no meaning for a Tensor holding a jax.Array, and sparse formats (unsupported).
_NOT_PROVIDED = {
    "assign_value_cpp", "convert_bytes_to_tensor", "delete_", "delta_seed", "flush_from_cache", "get_bytes",
    "getitem_index_info", "setitem_index_info", "hooks", "remove_hook", "index", "index_of_parent_",
    "parent_tensor_", "init_finished", "init_flag", "set_init_flag", "is_meta", "offload", "offload_file_path",
    "param_info", "set_param_info", "set_", "set_cast_dtype", "set_device_address", "storage", "untyped_storage",
    "symbolic_shape", "virtual_flag", "wait_pipeline", "to_coo", "to_csr",
}


def test_tensor_lacks_only_mindspore_internal_methods():
    from benchmarks.api_coverage import measure

    tensor_family = [f for f in measure() if f.name == "Tensor methods"][0]
    assert sorted(set(tensor_family.missing) - _NOT_PROVIDED) == []
