"""``mindspore.mint``: MindSpore's PyTorch-style functional API.

Every function here is a ``mindjax.ops`` function (or, for the overloaded ones, the
``Tensor`` method that already carries MindSpore's overloads) called through mint's
signature: mint's argument names (``input``, ``dim``, ``keepdim`` ...), order, defaults and
keyword-only arguments (see :mod:`mindjax.mint._signature`). Where mint's semantics differ
from the ops function's (``add(..., alpha=)``, ``amax(dim=())``, ``std``'s ``correction=1``,
``meshgrid``'s ``'ij'`` default ...) the difference is one small ``_adapt_*`` function here.
``mint.nn``, ``mint.nn.functional``, ``mint.optim``, ``mint.special`` and ``mint.linalg``
follow the same rule.

Example:
    >>> from mindjax import mint
    >>> mint.roll(mint.arange(4), 1).tolist()
    [3, 0, 1, 2]
"""
from __future__ import annotations

from typing import Any

import numpy as np

from mindjax import ops as _ops
from mindjax.common.dtype import int64 as _int64
from mindjax.common.tensor import Tensor
from mindjax.mint._signature import KW_ONLY as _KW, REQUIRED as _REQUIRED, in_place as _in_place, \
    input_named as _input_named, mint_signature as _mint_signature, table as _table
from mindjax.ops import (addmm, arange, argmax, bincount, broadcast_to, ceil, cos, dot, einsum, erf, eye,
                         flip, floor, floor_divide, full, full_like, greater, histc, logical_and, logical_or, logsumexp,
                         lt, masked_select, matmul, maximum, minimum, mm, nonzero, not_equal, ones_like, outer, pow,
                         reciprocal, remainder, roll, round, rsqrt, searchsorted, sign, sin, sum, tile, trace, tril,
                         triu, unsqueeze, zeros_like)

_DIM = {"dim": "axis", "keepdim": "keep_dims"}
_DIMS = {"dim": "axis", "keepdim": "keepdims"}
_NO_DEVICE = {"device": None, "generator": None, "pin_memory": None}


def _as_tensor(x: Any) -> Tensor:
    return x if isinstance(x, Tensor) else Tensor(x)


# --- where mint's semantics differ from the ops function's -------------------------------------

def _adapt_alpha(kw: dict[str, Any]) -> dict[str, Any]:
    """``add``/``sub``'s ``alpha``: ``other`` is scaled by it first."""
    alpha = kw.pop("alpha")
    if alpha != 1:
        kw["other"] = _ops.mul(kw["other"], alpha)
    return kw


def _adapt_source_alpha(kw: dict[str, Any]) -> dict[str, Any]:
    """``index_add``'s ``alpha``: ``source`` is scaled by it first."""
    alpha = kw.pop("alpha")
    if alpha != 1:
        kw["source"] = _ops.mul(kw["source"], alpha)
    return kw


def _adapt_all_dims(kw: dict[str, Any]) -> dict[str, Any]:
    """``amax``/``amin``'s ``dim=()`` (and ``count_nonzero``'s ``dim=None``): every axis."""
    if kw.get("dim") in ((), [], None):
        kw["dim"] = None if "keepdim" in kw else ()
    return kw


def _method(name: str, *fixed: Any) -> Any:
    """The ``Tensor`` method ``name`` of the first argument (MindSpore's overloads live there)."""
    def call(input: Any, *args: Any, **kwargs: Any) -> Any:  # noqa: A002
        return getattr(_as_tensor(input), name)(*fixed, *args, **kwargs)
    call.__name__ = f"Tensor.{name}"
    call.__module__ = "mindjax"
    return call


def _size_tuple(size: Any) -> tuple[int, ...]:
    """``f(2, 3)``, ``f((2, 3))`` or ``f([2, 3])`` as a shape."""
    if len(size) == 1 and isinstance(size[0], (tuple, list)):
        size = tuple(size[0])
    return tuple(int(s) for s in size)


def _ones(size: Any, *, dtype: Any = None) -> Any:
    return _ops.ones(size if isinstance(size, (tuple, list)) else (size,), dtype)


def _empty(*size: Any, dtype: Any = None) -> Any:
    return _ops.zeros(_size_tuple(size), dtype)


def _linspace(start: Any, end: Any, steps: int, *, dtype: Any = None) -> Any:
    out = _ops.linspace(float(start) if isinstance(start, (int, float)) else start,
                        float(end) if isinstance(end, (int, float)) else end, steps)
    return out if dtype is None else _ops.cast(out, dtype)


def _meshgrid(*tensors: Any, indexing: str | None = None) -> Any:
    if len(tensors) == 1 and isinstance(tensors[0], (tuple, list)):
        tensors = tuple(tensors[0])
    return _ops.meshgrid(*tensors, indexing="ij" if indexing is None else indexing)


def _where(condition: Any, input: Any = None, other: Any = None) -> Any:  # noqa: A002
    if input is None and other is None:
        return _ops.nonzero(condition, as_tuple=True)
    if input is None or other is None:
        raise TypeError("For 'mint.where', 'input' and 'other' must both be given, or neither, "
                        f"but got input={type(input).__name__} and other={type(other).__name__}")
    return _ops.where(condition, input, other)


def _min_max(name: str, pair: Any) -> Any:
    """``max(input)``; ``max(input, dim, keepdim=False)`` -> ``(values, indices)``; ``max(input, other)``."""
    def call(input: Any, dim: Any = None, keepdim: bool = False) -> Any:  # noqa: A002
        if isinstance(dim, (Tensor, np.ndarray)) or hasattr(dim, "shape"):
            return pair(input, dim)
        if dim is None:
            return getattr(_as_tensor(input), name)()
        if not isinstance(dim, (int, np.integer)) or isinstance(dim, bool):
            raise TypeError(f"For 'mint.{name}', 'dim' must be an int or a Tensor 'other', "
                            f"but got {type(dim).__name__}")
        return getattr(_as_tensor(input), name)(int(dim), keepdim)
    call.__name__ = call.__qualname__ = name
    call.__doc__ = (f"``mint.{name}(input)``, ``mint.{name}(input, dim, keepdim=False)`` -> ``(values, indices)``, "
                    f"or ``mint.{name}(input, other)``: :meth:`Tensor.{name}` or :func:`mindjax.ops."
                    f"{pair.__name__}`.")
    return call


def _any(input: Any, dim: Any = None, keepdim: bool = False) -> Any:  # noqa: A002
    return _ops.any(input, dim, keepdim)


def _median(input: Any, dim: Any = None, keepdim: bool = False) -> Any:  # noqa: A002
    if dim is None:  # the median of all elements, value only
        return _ops.median(_ops.reshape(input, (-1,)), 0, False)[0]
    return _ops.median(input, dim, keepdim)


def _kthvalue(input: Any, k: int, dim: int = -1, keepdim: bool = False) -> Any:  # noqa: A002
    """The ``k``-th smallest (1-based) along ``dim``, and its index, from the stable ascending sort."""
    x = _as_tensor(input)
    n = x.shape[dim] if x.ndim else 1
    if not isinstance(k, (int, np.integer)) or not 1 <= k <= n:
        raise ValueError(f"For 'mint.kthvalue', 'k' must be an int in [1, {n}], but got {k!r}")
    values, indices = _ops.sort(x, dim, False)
    values, indices = _ops.narrow(values, dim, k - 1, 1), _ops.narrow(indices, dim, k - 1, 1)
    if not keepdim:
        values, indices = _ops.squeeze(values, dim), _ops.squeeze(indices, dim)
    return values, _ops.cast(indices, _int64)


def _select(input: Any, dim: int, index: int) -> Any:  # noqa: A002
    return _ops.squeeze(_ops.narrow(input, dim, index % _as_tensor(input).shape[dim], 1), dim)


def _std_var(method: str) -> Any:
    def call(input: Any, dim: Any = None, *, correction: Any = 1, keepdim: bool = False) -> Any:  # noqa: A002
        return getattr(_as_tensor(input), method)(dim=dim, correction=correction, keepdim=keepdim)
    return call


def _with_mean(method: str) -> Any:
    def call(input: Any, dim: Any = None, *, correction: Any = 1, keepdim: bool = False) -> Any:  # noqa: A002
        x = _as_tensor(input)
        return getattr(x, method)(dim=dim, correction=correction, keepdim=keepdim), x.mean(dim, keepdim)
    return call


def _allclose(input: Any, other: Any, rtol: float = 1e-05, atol: float = 1e-08,  # noqa: A002
              equal_nan: bool = False) -> bool:
    return bool(_ops.isclose(input, other, rtol, atol, equal_nan).all())


def _equal(input: Any, other: Any) -> bool:  # noqa: A002
    a, b = _as_tensor(input), _as_tensor(other)
    return a.shape == b.shape and bool(_ops.equal(a, b).all())


def _vdot(input: Any, other: Any) -> Any:  # noqa: A002
    return _ops.dot(_ops.conj(input), other)


def _normal(mean: Any = 0.0, std: Any = 1.0, size: Any = None) -> Any:
    shape = () if size is None else tuple(size)
    return _ops.normal(shape, mean, std)


def _randint(*args: Any, dtype: Any = None) -> Any:
    """``randint(high, size)`` or ``randint(low, high, size)``."""
    if len(args) == 2:
        args = (0, *args)
    if len(args) != 3:
        raise TypeError(f"For 'mint.randint', expected (high, size) or (low, high, size), but got {len(args)} "
                        "positional arguments")
    low, high, size = args
    return _ops.randint(low, high, tuple(size), dtype=_int64 if dtype is None else dtype)


def _randint_like(*args: Any, dtype: Any = None) -> Any:
    """``randint_like(input, high)`` or ``randint_like(input, low, high)``."""
    if len(args) not in (2, 3):
        raise TypeError(f"For 'mint.randint_like', expected (input, high) or (input, low, high), but got {len(args)} "
                        "positional arguments")
    input, *bounds = args  # noqa: A001
    low, high = (0, *bounds) if len(bounds) == 1 else bounds
    return _ops.randint(low, high, tuple(_as_tensor(input).shape),
                        dtype=_as_tensor(input).dtype if dtype is None else dtype)


def _randperm(n: int, *, dtype: Any = _int64) -> Any:
    """A permutation of ``range(n)`` from the global random state (``ops.randperm`` defaults to seed 0)."""
    return _ops.randperm(n, seed=None, dtype=dtype)


def _item(input: Any) -> Any:  # noqa: A002
    return _as_tensor(input).item()


def _diag(input: Any, diagonal: int = 0) -> Any:  # noqa: A002
    x = _as_tensor(input)
    return _ops.diagflat(x, diagonal) if x.ndim == 1 else _ops.diagonal(x, diagonal)


def _channel_shape(x: Any) -> tuple[int, ...]:
    return (1, -1) + (1,) * (len(x.shape) - 2)


def _batch_norm_stats(input: Any, eps: float) -> Any:  # noqa: A002
    """The per-channel ``(mean, invstd)`` of ``(N, C, ...)`` (biased variance), as one device's share of SyncBN."""
    x = _as_tensor(input)
    axes = tuple(i for i in range(x.ndim) if i != 1)
    return x.mean(axes), _ops.rsqrt(x.var(dim=axes, correction=0) + eps)


def _batch_norm_elemt(input: Any, weight: Any = None, bias: Any = None, mean: Any = None,  # noqa: A002
                      invstd: Any = None, eps: float = 1e-05) -> Any:
    """``(input - mean) * invstd * weight + bias`` per channel (the statistics given)."""
    x = _as_tensor(input)
    shape = _channel_shape(x)
    out = _ops.mul(_ops.sub(x, _ops.reshape(mean, shape)), _ops.reshape(invstd, shape))
    if weight is not None:
        out = _ops.mul(out, _ops.reshape(weight, shape))
    return out if bias is None else _ops.add(out, _ops.reshape(bias, shape))


def _batch_norm_gather_stats_with_counts(input: Any, mean: Any, invstd: Any, running_mean: Any = None,  # noqa: A002
                                         running_var: Any = None, momentum: float = 0.1, eps: float = 1e-05,
                                         counts: Any = None) -> Any:
    """The global ``(mean, invstd)`` from per-device ``mean``/``invstd`` ``(W, C)`` and element ``counts`` ``(W,)``;
    ``running_mean``/``running_var`` are updated in place (unbiased variance), as PyTorch's SyncBatchNorm."""
    n = _ops.reshape(_ops.cast(counts, _as_tensor(mean).dtype), (-1, 1))
    total = _ops.sum(n)
    global_mean = _ops.div(_ops.sum(_ops.mul(mean, n), 0), total)
    local_var = _ops.sub(_ops.reciprocal(_ops.square(invstd)), eps)
    spread = _ops.square(_ops.sub(mean, global_mean))
    global_var = _ops.div(_ops.sum(_ops.mul(_ops.add(local_var, spread), n), 0), total)
    if running_mean is not None:
        running_mean.assign_value(_ops.add(_ops.mul(running_mean, 1 - momentum), _ops.mul(global_mean, momentum)))
    if running_var is not None:
        unbiased = _ops.div(_ops.mul(global_var, total), _ops.sub(total, 1))
        running_var.assign_value(_ops.add(_ops.mul(running_var, 1 - momentum), _ops.mul(unbiased, momentum)))
    return global_mean, _ops.rsqrt(_ops.add(global_var, eps))


def _conv_tbc(input: Any, weight: Any, bias: Any, pad: int = 0) -> Any:  # noqa: A002
    """The 1-D convolution of time-batch-channel ``(T, N, C_in)`` with weight ``(k, C_in, C_out)``."""
    out = _ops.conv1d(_ops.permute(input, (1, 2, 0)), _ops.permute(weight, (2, 1, 0)), bias, pad_mode="pad",
                      padding=pad)
    return _ops.permute(out, (2, 0, 1))


_RENAMED: dict[str, tuple[Any, ...]] = {
    "mean": (_method("mean"), (("input", _REQUIRED), ("dim", None), ("keepdim", False), _KW, ("dtype", None))),
    "prod": (_ops.prod, (("input", _REQUIRED), ("dim", None), ("keepdim", False), _KW, ("dtype", None)), _DIM),
    "all": (_ops.all, (("input", _REQUIRED), ("dim", None), ("keepdim", False)), _DIM),
    "any": (_any, (("input", _REQUIRED), ("dim", None), ("keepdim", False))),
    "cat": (_ops.cat, (("tensors", _REQUIRED), ("dim", 0)), {"dim": "axis"}),
    "concat": (_ops.concat, (("tensors", _REQUIRED), ("dim", 0)), {"dim": "axis"}),
    "stack": (_ops.stack, (("tensors", _REQUIRED), ("dim", 0)), {"dim": "axis"}),
    "permute": (_ops.permute, (("input", _REQUIRED), ("dims", _REQUIRED)), {"dims": "axis"}),
    "softmax": (_ops.softmax, (("input", _REQUIRED), ("dim", _REQUIRED), _KW, ("dtype", None)), {"dim": "axis"}),
    "topk": (_ops.topk, (("input", _REQUIRED), ("k", _REQUIRED), ("dim", -1), ("largest", True), ("sorted", True))),
    "zeros": (_ops.zeros, (("size", _REQUIRED), _KW, ("dtype", None))),
    "baddbmm": (_ops.baddbmm, (("input", _REQUIRED), ("batch1", _REQUIRED), ("batch2", _REQUIRED), _KW, ("beta", 1),
                               ("alpha", 1))),
    "isnan": (_ops.isnan, (("tensor", _REQUIRED),), {"tensor": "input"}),
    "split": (_ops.split, (("tensor", _REQUIRED), ("split_size_or_sections", _REQUIRED), ("dim", 0)),
              {"dim": "axis"}),
    "chunk": (_ops.chunk, (("input", _REQUIRED), ("chunks", _REQUIRED), ("dim", 0)), {"dim": "axis"}),
    "narrow": (_ops.narrow, (("input", _REQUIRED), ("dim", _REQUIRED), ("start", _REQUIRED), ("length", _REQUIRED)),
               {"dim": "axis"}),
    "argmin": (_ops.argmin, (("input", _REQUIRED), ("dim", None), ("keepdim", False)), _DIMS),
    "argsort": (_ops.argsort, (("input", _REQUIRED), ("dim", -1), ("descending", False), ("stable", False)),
                {"dim": "axis", "stable": None}),  # the sort is stable either way
    "cumsum": (_ops.cumsum, (("input", _REQUIRED), ("dim", _REQUIRED), ("dtype", None)), {"input": "x", "dim": "axis"}),
    "cumprod": (_ops.cumprod, (("input", _REQUIRED), ("dim", _REQUIRED), ("dtype", None))),
    "cummax": (_ops.cummax, (("input", _REQUIRED), ("dim", _REQUIRED)), {"dim": "axis"}),
    "cummin": (_ops.cummin, (("input", _REQUIRED), ("dim", _REQUIRED)), {"dim": "axis"}),
    "amax": (_ops.amax, (("input", _REQUIRED), ("dim", ()), ("keepdim", False)), _DIMS, _adapt_all_dims),
    "amin": (_ops.amin, (("input", _REQUIRED), ("dim", ()), ("keepdim", False)), _DIMS, _adapt_all_dims),
    "count_nonzero": (_ops.count_nonzero, (("input", _REQUIRED), ("dim", None)), {"input": "x", "dim": "axis"},
                      _adapt_all_dims),
    "nansum": (_ops.nansum, (("input", _REQUIRED), ("dim", None), ("keepdim", False), _KW, ("dtype", None)), _DIMS),
    "median": (_median, (("input", _REQUIRED), ("dim", None), ("keepdim", False))),
    "kthvalue": (_kthvalue, (("input", _REQUIRED), ("k", _REQUIRED), ("dim", -1), ("keepdim", False))),
    "std": (_std_var("std"), (("input", _REQUIRED), ("dim", None), _KW, ("correction", 1), ("keepdim", False))),
    "var": (_std_var("var"), (("input", _REQUIRED), ("dim", None), _KW, ("correction", 1), ("keepdim", False))),
    "std_mean": (_with_mean("std"), (("input", _REQUIRED), ("dim", None), _KW, ("correction", 1),
                                     ("keepdim", False))),
    "var_mean": (_with_mean("var"), (("input", _REQUIRED), ("dim", None), _KW, ("correction", 1),
                                     ("keepdim", False))),
    "norm": (_ops.norm, (("input", _REQUIRED), ("p", "fro"), ("dim", None), ("keepdim", False), _KW, ("dtype", None)),
             {"input": "A", "p": "ord"}),
    "sort": (_ops.sort, (("input", _REQUIRED), _KW, ("dim", -1), ("descending", False), ("stable", False)),
             {"input": "input_x", "dim": "axis", "stable": None}),
    "unique": (_method("unique"), (("input", _REQUIRED), ("sorted", True), ("return_inverse", False),
                                   ("return_counts", False), ("dim", None))),
    "unique_consecutive": (_ops.unique_consecutive, (("input", _REQUIRED), ("return_inverse", False),
                                                     ("return_counts", False), ("dim", None))),
    # arithmetic
    "add": (_ops.add, (("input", _REQUIRED), ("other", _REQUIRED), _KW, ("alpha", 1)), None, _adapt_alpha),
    "sub": (_ops.sub, (("input", _REQUIRED), ("other", _REQUIRED), _KW, ("alpha", 1)), None, _adapt_alpha),
    "div": (_ops.div, (("input", _REQUIRED), ("other", _REQUIRED), _KW, ("rounding_mode", None))),
    "divide": (_ops.div, (("input", _REQUIRED), ("other", _REQUIRED), _KW, ("rounding_mode", None))),
    "addbmm": (_ops.addbmm, (("input", _REQUIRED), ("batch1", _REQUIRED), ("batch2", _REQUIRED), _KW, ("beta", 1),
                             ("alpha", 1))),
    "addmv": (_ops.addmv, (("input", _REQUIRED), ("mat", _REQUIRED), ("vec", _REQUIRED), _KW, ("beta", 1),
                           ("alpha", 1))),
    "addcdiv": (_ops.addcdiv, (("input", _REQUIRED), ("tensor1", _REQUIRED), ("tensor2", _REQUIRED), _KW,
                               ("value", 1))),
    "addcmul": (_ops.addcmul, (("input", _REQUIRED), ("tensor1", _REQUIRED), ("tensor2", _REQUIRED), _KW,
                               ("value", 1))),
    "clamp": (_ops.clamp, (("input", _REQUIRED), ("min", None), ("max", None))),
    "clip": (_ops.clamp, (("input", _REQUIRED), ("min", None), ("max", None))),
    "lerp": (_ops.lerp, (("input", _REQUIRED), ("end", _REQUIRED), ("weight", _REQUIRED))),
    "nan_to_num": (_ops.nan_to_num, (("input", _REQUIRED), ("nan", None), ("posinf", None), ("neginf", None))),
    "float_power": (_ops.float_power, (("input", _REQUIRED), ("exponent", _REQUIRED))),
    "bmm": (_ops.bmm, (("input", _REQUIRED), ("mat2", _REQUIRED)), {"input": "input_x"}),
    "mv": (_ops.mv, (("input", _REQUIRED), ("vec", _REQUIRED)), {"input": "mat"}),
    "vdot": (_vdot, (("input", _REQUIRED), ("other", _REQUIRED))),
    "cdist": (_ops.cdist, (("x1", _REQUIRED), ("x2", _REQUIRED), ("p", 2.0),
                           ("compute_mode", "use_mm_for_euclid_dist_if_necessary")), {"compute_mode": None}),
    "cross": (_ops.cross, (("input", _REQUIRED), ("other", _REQUIRED), ("dim", None))),
    "diff": (_ops.diff, (("input", _REQUIRED), ("n", 1), ("dim", -1), ("prepend", None), ("append", None)),
             {"input": "x", "dim": "axis"}),
    "allclose": (_allclose, (("input", _REQUIRED), ("other", _REQUIRED), ("rtol", 1e-05), ("atol", 1e-08),
                             ("equal_nan", False))),
    "isclose": (_ops.isclose, (("input", _REQUIRED), ("other", _REQUIRED), ("rtol", 1e-05), ("atol", 1e-08),
                               ("equal_nan", False))),
    "equal": (_equal, (("input", _REQUIRED), ("other", _REQUIRED))),
    "triangular_solve": (_method("triangular_solve"), (("b", _REQUIRED), ("A", _REQUIRED), ("upper", True),
                                             ("transpose", False), ("unitriangular", False)), {"b": "input"}),
    "batch_norm_stats": (_batch_norm_stats, (("input", _REQUIRED), ("eps", _REQUIRED))),
    "batch_norm_elemt": (_batch_norm_elemt, (("input", _REQUIRED), ("weight", None), ("bias", None), ("mean", None),
                                             ("invstd", None), ("eps", 1e-05))),
    "batch_norm_gather_stats_with_counts": (_batch_norm_gather_stats_with_counts, (
        ("input", _REQUIRED), ("mean", _REQUIRED), ("invstd", _REQUIRED), ("running_mean", None),
        ("running_var", None), ("momentum", 0.1), ("eps", 1e-05), ("counts", None))),
    "conv_tbc": (_conv_tbc, (("input", _REQUIRED), ("weight", _REQUIRED), ("bias", _REQUIRED), ("pad", 0))),
    # indexing
    "gather": (_ops.gather_elements, (("input", _REQUIRED), ("dim", _REQUIRED), ("index", _REQUIRED))),
    "index_select": (_ops.index_select, (("input", _REQUIRED), ("dim", _REQUIRED), ("index", _REQUIRED)),
                     {"dim": "axis"}),
    "index_add": (_ops.index_add, (("input", _REQUIRED), ("dim", _REQUIRED), ("index", _REQUIRED),
                                   ("source", _REQUIRED), _KW, ("alpha", 1)),
                  {"input": "x", "dim": "axis", "index": "indices", "source": "y"}, _adapt_source_alpha),
    "scatter": (_ops.scatter, (("input", _REQUIRED), ("dim", _REQUIRED), ("index", _REQUIRED), ("src", _REQUIRED)),
                {"dim": "axis"}),
    "scatter_add": (_ops.tensor_scatter_elements, (("input", _REQUIRED), ("dim", _REQUIRED), ("index", _REQUIRED),
                                                   ("src", _REQUIRED)),
                    {"input": "input_x", "dim": "axis", "index": "indices", "src": "updates"},
                    lambda kw: {**kw, "reduction": "add"}),
    "select": (_select, (("input", _REQUIRED), ("dim", _REQUIRED), ("index", _REQUIRED))),
    "take": (_ops.take, (("input", _REQUIRED), ("index", _REQUIRED))),
    "where": (_where, (("condition", _REQUIRED), ("input", None), ("other", None))),
    # shapes
    "flatten": (_ops.flatten, (("input", _REQUIRED), ("start_dim", 0), ("end_dim", -1))),
    "reshape": (_ops.reshape, (("input", _REQUIRED), ("shape", _REQUIRED))),
    "squeeze": (_ops.squeeze, (("input", _REQUIRED), ("dim", None)), {"dim": "axis"}),
    "swapaxes": (_ops.swapaxes, (("input", _REQUIRED), ("axis0", _REQUIRED), ("axis1", _REQUIRED))),
    "transpose": (_ops.swapaxes, (("input", _REQUIRED), ("dim0", _REQUIRED), ("dim1", _REQUIRED)),
                  {"dim0": "axis0", "dim1": "axis1"}),
    "unbind": (_ops.unbind, (("input", _REQUIRED), ("dim", 0))),
    "repeat_interleave": (_ops.repeat_interleave, (("input", _REQUIRED), ("repeats", _REQUIRED), ("dim", None), _KW,
                                                   ("output_size", None)), {"dim": "axis", "output_size": None}),
    "diag": (_diag, (("input", _REQUIRED), ("diagonal", 0))),
    "dstack": (_ops.dstack, (("tensors", _REQUIRED),)),
    "hstack": (_ops.hstack, (("tensors", _REQUIRED),)),
    "meshgrid": (_meshgrid, (("*tensors", _REQUIRED), _KW, ("indexing", None))),
    "item": (_item, (("input", _REQUIRED),)),
    # creation and random numbers
    "ones": (_ones, (("size", _REQUIRED), _KW, ("dtype", None))),
    "empty": (_empty, (("*size", _REQUIRED), _KW, ("dtype", None), ("device", None), ("pin_memory", False)),
              _NO_DEVICE),
    "empty_like": (_ops.zeros_like, (("input", _REQUIRED), _KW, ("dtype", None), ("device", None),
                                     ("pin_memory", False)), _NO_DEVICE),
    "linspace": (_linspace, (("start", _REQUIRED), ("end", _REQUIRED), ("steps", _REQUIRED), _KW, ("dtype", None))),
    "polar": (_ops.polar, (("abs", _REQUIRED), ("angle", _REQUIRED))),
    "rand": (_ops.rand, (("*size", _REQUIRED), ("generator", None), ("dtype", None), ("device", None)),
             _NO_DEVICE),
    "randn": (_ops.randn, (("*size", _REQUIRED), ("generator", None), ("dtype", None), ("device", None)),
              _NO_DEVICE),
    "rand_like": (_ops.rand_like, (("input", _REQUIRED), _KW, ("dtype", None), ("device", None)), _NO_DEVICE),
    "randn_like": (_ops.randn_like, (("input", _REQUIRED), _KW, ("dtype", None), ("device", None)), _NO_DEVICE),
    "randint": (_randint, (("*args", _REQUIRED), ("generator", None), ("dtype", None), ("device", None)),
                _NO_DEVICE),
    "randint_like": (_randint_like, (("*args", _REQUIRED), ("dtype", None),
                                     ("device", None)), _NO_DEVICE),
    "randperm": (_randperm, (("n", _REQUIRED), _KW, ("generator", None), ("dtype", _int64)), _NO_DEVICE),
    "normal": (_normal, (("mean", 0.0), ("std", 1.0), ("size", None), ("generator", None)), _NO_DEVICE),
    "multinomial": (_ops.multinomial, (("input", _REQUIRED), ("num_samples", _REQUIRED), ("replacement", False), _KW,
                                       ("generator", None)), _NO_DEVICE),
    "bernoulli": (_ops.bernoulli, (("input", _REQUIRED), _KW, ("generator", None)), _NO_DEVICE,
                  lambda kw: {**kw, "p": kw["input"]}),
}
_table(globals(), _RENAMED)

max = _min_max("max", _ops.maximum)  # noqa: A001
min = _min_max("min", _ops.minimum)  # noqa: A001

_UNARY = ("abs", "exp", "log", "sqrt", "square", "neg", "tanh", "sigmoid", "logical_not", "isfinite",
          "acos", "acosh", "arccos", "arccosh", "arcsinh", "arctan", "arctanh", "asin", "asinh", "atan", "atanh",
          "cosh", "sinh", "tan", "erfc", "erfinv", "exp2", "expm1", "log10", "log1p", "log2", "negative", "sinc",
          "trunc", "frac", "isinf", "isneginf", "real", "imag", "ravel", "t", "inverse")
for _name in _UNARY:
    globals()[_name] = _input_named(getattr(_ops, _name), _name)
arcsin = _mint_signature("arcsin", _ops.arcsin, (("x", _REQUIRED),), {"x": "input"})  # mint names it x
fix = _input_named(_ops.trunc, "fix")
addr_ = _in_place("addr_", _mint_signature("addr", _ops.addr, (("input", _REQUIRED), ("vec1", _REQUIRED),
                                                                ("vec2", _REQUIRED), ("beta", 1), ("alpha", 1)),
                                           {"input": "x"}), module="mint")
bitwise_not = _input_named(_ops.invert, "bitwise_not")
clone = _input_named(_ops.deepcopy, "clone")

_BINARY = ("arctan2", "atan2", "bitwise_and", "bitwise_or", "bitwise_xor", "eq", "fmod", "gcd", "ge", "greater_equal",
           "gt", "le", "less", "less_equal", "ne", "logaddexp", "logaddexp2", "logical_xor", "mul", "xlogy")
for _name in _BINARY:
    globals()[_name] = _mint_signature(_name, getattr(_ops, _name), (("input", _REQUIRED), ("other", _REQUIRED)))
del _name

from mindjax.mint import distributed, linalg, nn, optim, special  # noqa: E402  (they use the functions above)

conv2d = nn.functional.conv2d
softmax_ext = nn.functional.softmax
flatten_ext = flatten

__all__ = sorted([
    "Tensor", "addmm", "arange", "argmax", "bincount", "broadcast_to", "ceil", "cos", "dot", "einsum",
    "erf", "eye", "flip", "floor", "floor_divide", "full", "full_like", "greater", "histc", "logical_and",
    "logical_or", "logsumexp", "lt", "masked_select", "matmul", "maximum", "minimum", "mm", "nonzero", "not_equal",
    "ones_like", "outer", "pow", "reciprocal", "remainder", "roll", "round", "rsqrt", "searchsorted", "sign", "sin",
    "sum", "tile", "trace", "tril", "triu", "unsqueeze", "zeros_like", "max", "min", "arcsin", "fix",
    "bitwise_not", "clone", "addr_", "conv2d", "softmax_ext", "flatten_ext", *_UNARY, *_BINARY, *_RENAMED])
