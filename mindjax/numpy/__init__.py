"""``mindspore.numpy``: MindSpore's NumPy-style functions, over ``jax.numpy``.

Each function takes MindSpore's arguments (``mindspore.numpy.mean(a, axis=None,
keepdims=False, dtype=None)``, ``zeros(shape, dtype=float32)``, ``ufunc(x1, x2,
dtype=None)`` ...), accepts Tensors, Parameters, numpy arrays and Python sequences,
and returns arrays. The computation is ``jax.numpy``'s, so the functions work eagerly
and under ``jit`` alike. Creation functions default to float32 and int32 as in
MindSpore, also when 64-bit types are on.

Example:
    >>> import mindjax.numpy as mnp
    >>> mnp.roll(mnp.arange(4), 1).tolist()
    [3, 0, 1, 2]
    >>> mnp.mean(mnp.ones((2, 3)), 1, True).shape  # (a, axis, keepdims): MindSpore's order
    (2, 1)
"""
from __future__ import annotations

import ast
import functools
import inspect
from typing import Any, Callable, Sequence

import jax
import jax.numpy as jnp
import numpy as _np

from mindjax.common.dtype import (bool_, float16, float32, float64, float_, int8, int16, int32, int64, int_,
                                  to_jax_dtype, uint8, uint16, uint32, uint64)
from mindjax.common.random import next_key
from mindjax.common.tensor import as_array, tensor_op

pi = _np.pi
e = _np.e
inf = _np.inf
nan = _np.nan
newaxis = None
mgrid = jnp.mgrid
ogrid = jnp.ogrid

_MISSING = inspect.Parameter.empty


def _is_array_like(x: Any) -> bool:
    return getattr(x, "_is_mindjax_variable", False) or hasattr(x, "__jax_array__") and not isinstance(x, jax.Array)


def _conv(x: Any) -> Any:
    """Tensors and Parameters as jax arrays; sequences of them element by element; others unchanged."""
    if isinstance(x, jax.Array):
        return x
    if _is_array_like(x):
        return as_array(x)
    if isinstance(x, (list, tuple)) and any(isinstance(v, (list, tuple)) or _is_array_like(v) for v in x):
        return type(x)(_conv(v) for v in x)
    return x


def _default_width(out: Any) -> Any:
    """Results that only Python numbers typed (weakly typed 64-bit) take mindspore.numpy's
    default int32/float32."""
    if getattr(out, "weak_type", False) and out.dtype in (jnp.int64, jnp.float64):
        return out.astype(jnp.int32 if out.dtype == jnp.int64 else jnp.float32)
    return out


def _dtype(dtype: Any) -> Any:
    return None if dtype is None else to_jax_dtype(dtype)


def _signature(spec: str) -> inspect.Signature:
    """``"a, axis=None, keepdims=False"`` as a Signature (defaults are Python literals)."""
    params = []
    for part in (p.strip() for p in spec.split(",") if p.strip()):
        name, _, default = part.partition("=")
        value = _MISSING if not default else ast.literal_eval(default.strip())
        params.append(inspect.Parameter(name.strip(), inspect.Parameter.POSITIONAL_OR_KEYWORD, default=value))
    return inspect.Signature(params)


def _mapped(name: str, fn: Callable[..., Any], spec: str, rename: dict[str, str] | None = None,
            cast_dtype: bool = False) -> Callable[..., Any]:
    """``fn`` (a jax.numpy function) with MindSpore's signature ``spec``.

    Arguments are bound by MindSpore's names and passed to ``fn`` as keywords (``rename``
    maps a MindSpore name to jax's, ``None`` drops it). The first argument is passed
    positionally. With ``cast_dtype``, MindSpore's ``dtype`` argument casts the result.
    """
    signature = _signature(spec)
    names = list(signature.parameters)
    rename = rename or {}

    def call(*args: Any, **kwargs: Any) -> Any:
        try:
            bound = signature.bind(*args, **kwargs)
        except TypeError as exc:
            raise TypeError(f"For 'mindjax.numpy.{name}', {exc}; the signature is {name}{signature}") from None
        bound.apply_defaults()
        values = {k: _conv(v) for k, v in bound.arguments.items()}
        dtype = values.pop("dtype", None) if cast_dtype else None
        first = values.pop(names[0])
        kw = {}
        for key, value in values.items():
            target = rename.get(key, key)
            if target is not None:
                kw[target] = _dtype(value) if key == "dtype" else value
        out = fn(first, **kw)
        if dtype is not None:
            return out.astype(to_jax_dtype(dtype))
        return _default_width(out)

    call.__name__ = call.__qualname__ = name
    call.__signature__ = signature  # type: ignore[attr-defined]
    call.__doc__ = (f"MindSpore's ``mindspore.numpy.{name}{signature}``, computed by ``jax.numpy.{fn.__name__}``."
                    f"\n\n    Returns:\n        the array (arrays) ``jax.numpy.{fn.__name__}`` returns.")
    return tensor_op(call)


def _binary(name: str, fn: Callable[..., Any]) -> Callable[..., Any]:
    return _mapped(name, lambda x1, x2: fn(x1, x2), "x1, x2, dtype=None", cast_dtype=True)


def _unary(name: str, fn: Callable[..., Any], arg: str = "x") -> Callable[..., Any]:
    return _mapped(name, lambda x: fn(x), f"{arg}, dtype=None", cast_dtype=True)


# MindSpore's names for the arguments jax.numpy names otherwise (``split(x=...)`` is ``jnp.split(ary=...)``).
_DIRECT_RENAMES = {
    "array_split": {"x": "ary"}, "split": {"x": "ary"}, "dsplit": {"x": "ary"}, "hsplit": {"x": "ary"},
    "vsplit": {"x": "ary"}, "average": {"x": "a"}, "count_nonzero": {"x": "a"}, "ravel": {"x": "a"},
    "rollaxis": {"x": "a"}, "swapaxes": {"x": "a"}, "rot90": {"a": "m"}, "tile": {"a": "A"},
    "pad": {"arr": "array"}, "promote_types": {"type1": "a", "type2": "b"},
}


def _direct(name: str) -> Callable[..., Any]:
    """A jax.numpy function taking MindSpore's arguments (by position, or by MindSpore's names), with
    inputs converted."""
    fn = getattr(jnp, name)
    rename = _DIRECT_RENAMES.get(name, {})

    @functools.wraps(fn)
    def call(*args: Any, **kwargs: Any) -> Any:
        kw = {rename.get(k, k): _conv(v) for k, v in kwargs.items()}
        return _default_width(fn(*(_conv(a) for a in args), **kw))
    if rename:
        back = {v: k for k, v in rename.items()}
        try:
            signature = inspect.signature(fn)
            call.__signature__ = signature.replace(parameters=[  # type: ignore[attr-defined]
                p.replace(name=back.get(p.name, p.name)) for p in signature.parameters.values()])
        except (TypeError, ValueError):
            pass
    call.__doc__ = f"MindSpore's ``mindspore.numpy.{name}``, computed by ``jax.numpy.{name}`` (same arguments)."
    return tensor_op(call)


# -- element-wise functions: (x, dtype=None) and (x1, x2, dtype=None) -----------------------------
_UNARY = ("abs", "absolute", "arccosh", "arcsin", "arcsinh", "arctan", "arctanh", "bitwise_not", "cbrt", "ceil",
          "cos", "cosh", "deg2rad", "exp", "exp2", "expm1", "fabs", "floor", "invert", "isfinite", "isinf", "isnan",
          "log", "log10", "log1p", "log2", "rad2deg", "radians", "reciprocal", "rint", "sign", "signbit", "sin",
          "sinh", "sqrt", "square", "tan", "tanh", "trunc")
_UNARY_A = ("logical_not", "negative", "positive")
_BINARY = ("add", "arctan2", "bitwise_and", "bitwise_or", "bitwise_xor", "copysign", "divide", "divmod", "equal",
           "float_power", "floor_divide", "fmod", "gcd", "greater", "greater_equal", "heaviside", "hypot", "lcm",
           "less", "less_equal", "logaddexp", "logaddexp2", "logical_and", "logical_or", "logical_xor", "maximum",
           "minimum", "mod", "multiply", "not_equal", "power", "remainder", "subtract", "true_divide")

# -- functions whose MindSpore arguments differ from jax.numpy's (order, names or defaults) ------
_SPECS: dict[str, tuple[Callable[..., Any], str, dict[str, str] | None]] = {
    "arccos": (jnp.arccos, "input, dtype=None", None),
    "amax": (jnp.amax, "a, axis=None, keepdims=False, initial=None, where=None", None),
    "amin": (jnp.amin, "a, axis=None, keepdims=False, initial=None, where=None", None),
    "max": (jnp.max, "a, axis=None, keepdims=False, initial=None, where=None", None),
    "min": (jnp.min, "a, axis=None, keepdims=False, initial=None, where=None", None),
    "mean": (jnp.mean, "a, axis=None, keepdims=False, dtype=None", None),
    "nanmax": (jnp.nanmax, "a, axis=None, dtype=None, keepdims=False", {"dtype": None}),
    "nanmin": (jnp.nanmin, "a, axis=None, dtype=None, keepdims=False", {"dtype": None}),
    "nanmean": (jnp.nanmean, "a, axis=None, dtype=None, keepdims=False", None),
    "nansum": (jnp.nansum, "a, axis=None, dtype=None, keepdims=False", None),
    "nanstd": (jnp.nanstd, "a, axis=None, dtype=None, ddof=0, keepdims=False", None),
    "nanvar": (jnp.nanvar, "a, axis=None, dtype=None, ddof=0, keepdims=False", None),
    "std": (jnp.std, "x, axis=None, ddof=0, keepdims=False", None),
    "var": (jnp.var, "x, axis=None, ddof=0, keepdims=False", None),
    "sum": (jnp.sum, "a, axis=None, dtype=None, keepdims=False, initial=None", None),
    "ptp": (jnp.ptp, "x, axis=None, keepdims=False", None),
    "clip": (jnp.clip, "x, xmin, xmax, dtype=None", {"xmin": "min", "xmax": "max"}),
    "reshape": (jnp.reshape, "x, new_shape", {"new_shape": "shape"}),
    "take": (jnp.take, "a, indices, axis=None, mode='clip'", None),
    "choose": (jnp.choose, "a, choices, mode='clip'", None),
    "isin": (jnp.isin, "element, test_elements, invert=False", None),
    "matmul": (jnp.matmul, "x1, x2, dtype=None", {"dtype": "preferred_element_type"}),
    "bincount": (jnp.bincount, "x, weights=None, minlength=0, length=None", None),
    "unravel_index": (jnp.unravel_index, "indices, shape, order='C'", {"order": None}),
    "unique": (jnp.unique, "x, return_inverse=False", None),
}


# -- creation: MindSpore's defaults (float32 / int32 even with 64-bit types on) ------------------
def _default_int_or_float(values: Sequence[Any], dtype: Any) -> Any:
    if dtype is not None:
        return to_jax_dtype(dtype)
    if all(isinstance(v, (int, _np.integer)) and not isinstance(v, bool) for v in values if v is not None):
        return jnp.int32
    return jnp.float32


@tensor_op
def zeros(shape: Any, dtype: Any = float32) -> jax.Array:
    """An array of zeros of ``shape`` (MindSpore's default dtype: float32)."""
    return jnp.zeros(shape, to_jax_dtype(dtype))


@tensor_op
def ones(shape: Any, dtype: Any = float32) -> jax.Array:
    """An array of ones of ``shape`` (MindSpore's default dtype: float32)."""
    return jnp.ones(shape, to_jax_dtype(dtype))


@tensor_op
def empty(shape: Any, dtype: Any = float32) -> jax.Array:
    """An array of ``shape``; its contents are zeros here (MindSpore's default dtype: float32)."""
    return jnp.zeros(shape, to_jax_dtype(dtype))


@tensor_op
def full(shape: Any, fill_value: Any, dtype: Any = None) -> jax.Array:
    """An array of ``shape`` filled with ``fill_value``; an int fill gives int32, a float float32."""
    fill_value = _conv(fill_value)
    if dtype is None and not isinstance(fill_value, jax.Array):
        dtype = _default_int_or_float([fill_value], None) if not isinstance(fill_value, bool) else jnp.bool_
    return jnp.full(shape, fill_value, _dtype(dtype))


@tensor_op
def eye(N: int, M: int | None = None, k: int = 0, dtype: Any = float32) -> jax.Array:  # noqa: N803 - numpy's names
    """An ``N x M`` array with ones on the ``k``-th diagonal (default dtype float32)."""
    return jnp.eye(N, M, k, dtype=to_jax_dtype(dtype))


@tensor_op
def identity(n: int, dtype: Any = float32) -> jax.Array:
    """The ``n x n`` identity (default dtype float32)."""
    return jnp.identity(n, dtype=to_jax_dtype(dtype))


@tensor_op
def arange(start: Any, stop: Any = None, step: Any = None, dtype: Any = None) -> jax.Array:
    """Evenly spaced values in ``[start, stop)``; int arguments give int32, others float32."""
    return jnp.arange(start, stop, step, dtype=_default_int_or_float([start, stop, step], dtype))


@tensor_op
def linspace(start: Any, stop: Any, num: int = 50, endpoint: bool = True, retstep: bool = False,
             dtype: Any = None, axis: int = 0) -> Any:
    """``num`` evenly spaced values from ``start`` to ``stop`` (float32 unless ``dtype`` says otherwise)."""
    return jnp.linspace(_conv(start), _conv(stop), num, endpoint, retstep, _dtype(dtype) or jnp.float32, axis)


@tensor_op
def logspace(start: Any, stop: Any, num: int = 50, endpoint: bool = True, base: float = 10.0,
             dtype: Any = None, axis: int = 0) -> jax.Array:
    """``base ** linspace(start, stop, num)`` (float32 unless ``dtype`` says otherwise)."""
    return jnp.logspace(_conv(start), _conv(stop), num, endpoint, base, _dtype(dtype) or jnp.float32, axis)


@tensor_op
def array(obj: Any, dtype: Any = None, copy: bool = True, ndmin: int = 0) -> jax.Array:
    """An array from ``obj``; Python floats give float32 and ints int32, as in MindSpore."""
    obj = _conv(obj)
    if dtype is None and not isinstance(obj, (jax.Array, _np.ndarray)):
        kind = _np.asarray(obj).dtype.kind
        dtype = {"f": jnp.float32, "i": jnp.int32, "u": jnp.int32}.get(kind)
    return jnp.array(obj, _dtype(dtype), copy=copy, ndmin=ndmin)


@tensor_op
def asarray(a: Any, dtype: Any = None) -> jax.Array:
    """``a`` as an array (no copy when it already is one of ``dtype``); MindSpore's default dtypes."""
    a = _conv(a)
    if isinstance(a, jax.Array) and dtype is None:
        return a
    return array(a, dtype, copy=False)


@tensor_op
def asfarray(a: Any, dtype: Any = float32) -> jax.Array:
    """``a`` as a floating array (float32 by default; a non-float ``dtype`` gives float32)."""
    dtype = to_jax_dtype(dtype)
    if not jnp.issubdtype(dtype, jnp.floating):
        dtype = jnp.float32
    return jnp.asarray(_conv(a), dtype)


# -- functions jax.numpy spells differently ---------------------------------------------------
@tensor_op
def fix(x: Any) -> jax.Array:
    """Round toward zero, keeping floats (``numpy.fix``)."""
    x = jnp.asarray(_conv(x))
    return jnp.trunc(x if jnp.issubdtype(x.dtype, jnp.floating) else x.astype(jnp.float32))


@tensor_op
def in1d(ar1: Any, ar2: Any, invert: bool = False) -> jax.Array:
    """Whether each element of ``ar1`` (flattened) is in ``ar2``."""
    return jnp.isin(jnp.ravel(jnp.asarray(_conv(ar1))), _conv(ar2), invert=invert)


@tensor_op
def multi_dot(arrays: Sequence[Any]) -> jax.Array:
    """The product of a chain of matrices, in the cheapest order."""
    return jnp.linalg.multi_dot([_conv(a) for a in arrays])


@tensor_op
def norm(x: Any, ord: Any = None, axis: Any = None, keepdims: bool = False) -> jax.Array:  # noqa: A002
    """A vector or matrix norm (``numpy.linalg.norm``)."""
    return jnp.linalg.norm(_conv(x), ord, axis, keepdims)


@tensor_op
def sometrue(a: Any, axis: Any = None, keepdims: bool = False) -> jax.Array:
    """Whether any element (along ``axis``) is true."""
    return jnp.any(_conv(a), axis=axis, keepdims=keepdims)


@tensor_op
def trapz(y: Any, x: Any = None, dx: float = 1.0, axis: int = -1) -> jax.Array:
    """The integral of ``y`` by the trapezoidal rule."""
    return jnp.trapezoid(_conv(y), _conv(x), dx, axis)


def _shape(args: Sequence[Any]) -> tuple[int, ...]:
    if len(args) == 1 and isinstance(args[0], (tuple, list)):
        return tuple(int(d) for d in args[0])
    return tuple(int(d) for d in args)


@tensor_op
def rand(*shape: Any, dtype: Any = float32) -> jax.Array:
    """Uniform samples in ``[0, 1)`` of ``shape``, from MindJAX's global random state (``set_seed``)."""
    return jax.random.uniform(next_key(), _shape(shape), to_jax_dtype(dtype))


@tensor_op
def randn(*shape: Any, dtype: Any = float32) -> jax.Array:
    """Standard normal samples of ``shape``, from MindJAX's global random state (``set_seed``)."""
    return jax.random.normal(next_key(), _shape(shape), to_jax_dtype(dtype))


@tensor_op
def randint(minval: int, maxval: int | None = None, shape: Any = None, dtype: Any = int32) -> jax.Array:
    """Integers in ``[minval, maxval)`` (``[0, minval)`` without ``maxval``), from the global random state."""
    if maxval is None:
        minval, maxval = 0, minval
    shape = () if shape is None else (tuple(shape) if isinstance(shape, (tuple, list)) else (int(shape),))
    return jax.random.randint(next_key(), shape, minval, maxval, to_jax_dtype(dtype))


# -- everything else: same arguments as jax.numpy ---------------------------------------------
_DIRECT = (
    "append", "apply_along_axis", "apply_over_axes", "argmax", "argmin", "argwhere", "array_equal", "array_equiv",
    "array_split", "array_str", "atleast_1d", "atleast_2d", "atleast_3d", "average", "bartlett", "blackman",
    "broadcast_arrays", "broadcast_to", "column_stack", "concatenate", "convolve", "corrcoef", "correlate",
    "count_nonzero", "cov", "cross", "cumprod", "cumsum", "diag", "diag_indices", "diagflat", "diagonal", "diff",
    "digitize", "dot", "dsplit", "dstack", "ediff1d", "empty_like", "expand_dims", "flip", "fliplr", "flipud",
    "full_like", "geomspace", "gradient", "hamming", "hanning", "histogram", "histogram2d", "histogram_bin_edges",
    "histogramdd", "hsplit", "hstack", "indices", "inner", "interp", "intersect1d", "isclose", "isneginf",
    "isposinf", "isscalar", "ix_", "kron", "meshgrid", "moveaxis", "nancumsum", "ones_like", "outer", "pad",
    "piecewise", "polyadd", "polyder", "polyint", "polymul", "polysub", "polyval", "promote_types", "ravel",
    "ravel_multi_index", "repeat", "result_type", "roll", "rollaxis", "rot90", "searchsorted", "select",
    "setdiff1d", "size", "split", "squeeze", "stack", "swapaxes", "take_along_axis", "tensordot", "tile", "trace",
    "transpose", "tri", "tril", "tril_indices", "tril_indices_from", "triu", "triu_indices", "triu_indices_from",
    "unwrap", "vander", "vsplit", "vstack", "where", "zeros_like",
)

for _name in _UNARY:
    globals()[_name] = _unary(_name, getattr(jnp, _name))
for _name in _UNARY_A:
    globals()[_name] = _unary(_name, getattr(jnp, _name), arg="a")
for _name in _BINARY:
    globals()[_name] = _binary(_name, getattr(jnp, _name))
for _name, (_fn, _spec, _rename) in _SPECS.items():
    globals()[_name] = _mapped(_name, _fn, _spec, _rename, cast_dtype=_name in ("arccos", "clip"))
for _name in _DIRECT:
    globals()[_name] = _direct(_name)
del _name

_DTYPES = ["bool_", "int8", "int16", "int32", "int64", "int_", "uint8", "uint16", "uint32", "uint64", "float16",
           "float32", "float64", "float_"]
_DEFINED = ["zeros", "ones", "empty", "full", "eye", "identity", "arange", "linspace", "logspace", "array",
            "asarray", "asfarray", "fix", "in1d", "multi_dot", "norm", "sometrue", "trapz", "rand", "randn",
            "randint", "mgrid", "ogrid"]
__all__ = sorted(set(_UNARY + _UNARY_A + _BINARY + tuple(_SPECS) + _DIRECT) | set(_DEFINED) | set(_DTYPES))
