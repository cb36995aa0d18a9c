"""MindSpore 2.10's Tensor method set, added to :class:`~mindjax.common.tensor.Tensor`.

The methods whose MindSpore signature or result differs from the functional op
of the same name are written here on ``jax.numpy``; the rest of MindSpore's
Tensor API (``_MINDSPORE_METHODS``) resolves to the functional op of the same
name in :mod:`mindjax.ops`, called with the Tensor as its first argument.
Every result goes through the same boundary as the ops: a Tensor for user
code, a ``jax.Array`` inside MindJAX.
"""
from __future__ import annotations

import importlib
from typing import Any, Callable, Sequence

import jax
import jax.numpy as jnp
import numpy as np

from mindjax.common.dtype import to_jax_dtype, to_ms_dtype
from mindjax.common.tensor import Tensor, _float_default, _out, _promote, _true_divide, as_array

# The public method names of MindSpore 2.10's Tensor (from ``dir(mindspore.Tensor)``).
_MINDSPORE_METHODS = frozenset((
    'H', 'T', 'abs', 'absolute', 'acos', 'acosh', 'add', 'add_', 'addbmm', 'addcdiv', 'addcmul',
    'addmm', 'addmm_', 'addmv', 'addr', 'adjoint', 'all', 'allclose', 'amax', 'amin', 'aminmax',
    'angle', 'any', 'approximate_equal', 'arccos', 'arccosh', 'arcsin', 'arcsinh', 'arctan', 'arctan2',
    'arctanh', 'argmax', 'argmax_with_value', 'argmin', 'argmin_with_value', 'argsort', 'argwhere',
    'asin', 'asinh', 'asnumpy', 'assign_value', 'assign_value_cpp', 'astype', 'atan', 'atan2', 'atanh',
    'baddbmm', 'bernoulli', 'bernoulli_', 'bfloat16', 'bincount', 'bitwise_and', 'bitwise_left_shift',
    'bitwise_not', 'bitwise_or', 'bitwise_right_shift', 'bitwise_xor', 'bmm', 'bool', 'broadcast_to',
    'byte', 'cauchy', 'ceil', 'cholesky', 'cholesky_inverse', 'cholesky_solve', 'choose', 'chunk',
    'clamp', 'clamp_', 'clip', 'clone', 'col2im', 'conj', 'const_arg', 'contiguous',
    'convert_bytes_to_tensor', 'copy', 'copy_', 'copysign', 'cos', 'cosh', 'count_nonzero', 'cov',
    'cross', 'cummax', 'cummin', 'cumprod', 'cumsum', 'data', 'data_ptr', 'data_sync', 'deg2rad',
    'delete_', 'delta_seed', 'det', 'device', 'diag', 'diagflat', 'diagonal', 'diagonal_scatter',
    'diff', 'digamma', 'dim', 'div', 'div_', 'divide', 'dot', 'double', 'dsplit', 'dtype', 'eigvals',
    'eq', 'equal', 'erf', 'erfc', 'erfinv', 'erfinv_', 'exp', 'exp_', 'expand', 'expand_as',
    'expand_dims', 'expm1', 'exponential_', 'fill', 'fill_', 'fill_diagonal', 'fill_diagonal_', 'fills',
    'flatten', 'flip', 'fliplr', 'flipud', 'float', 'float_power', 'floor', 'floor_', 'floor_divide',
    'floor_divide_', 'flush_from_cache', 'fmax', 'fmin', 'fmod', 'fold', 'frac', 'from_dlpack',
    'from_numpy', 'gather', 'gather_elements', 'gather_nd', 'gcd', 'ge', 'geqrf', 'ger', 'get_bytes',
    'getitem_index_info', 'greater', 'greater_equal', 'gt', 'half', 'hardshrink', 'has_init',
    'heaviside', 'histc', 'hooks', 'hsplit', 'hypot', 'i0', 'igamma', 'igammac', 'imag', 'index',
    'index_add', 'index_add_', 'index_copy_', 'index_fill', 'index_fill_', 'index_of_parent_',
    'index_put', 'index_put_', 'index_select', 'init', 'init_data', 'init_finished', 'init_flag',
    'inner', 'inplace_update', 'int', 'inv', 'inverse', 'invert', 'is_complex', 'is_contiguous',
    'is_floating_point', 'is_init', 'is_meta', 'is_pinned', 'is_shared', 'is_signed', 'isclose',
    'isfinite', 'isinf', 'isnan', 'isneginf', 'isposinf', 'isreal', 'item', 'itemset', 'itemsize',
    'kthvalue', 'lcm', 'ldexp', 'le', 'lerp', 'less', 'less_equal', 'lgamma', 'log', 'log10', 'log1p',
    'log2', 'log_', 'log_matrix_determinant', 'log_normal', 'logaddexp', 'logaddexp2', 'logcumsumexp',
    'logdet', 'logical_and', 'logical_not', 'logical_or', 'logical_xor', 'logit', 'logsumexp', 'long',
    'lstsq', 'lt', 'lu_solve', 'mH', 'mT', 'masked_fill', 'masked_fill_', 'masked_scatter',
    'masked_scatter_', 'masked_select', 'matmul', 'matrix_determinant', 'matrix_power', 'max',
    'maximum', 'mean', 'median', 'min', 'minimum', 'mm', 'move_to', 'moveaxis', 'movedim', 'msort',
    'mul', 'mul_', 'multinomial', 'multiply', 'mvlgamma', 'nan_to_num', 'nanmean', 'nanmedian',
    'nanquantile', 'nansum', 'narrow', 'nbytes', 'ndim', 'ndimension', 'ne', 'neg', 'negative',
    'nelement', 'new_empty', 'new_full', 'new_ones', 'new_zeros', 'nextafter', 'nonzero', 'norm',
    'normal_', 'not_equal', 'numel', 'numpy', 'offload', 'offload_file_path', 'orgqr', 'ormqr', 'outer',
    'param_info', 'parent_tensor_', 'permute', 'pin_memory', 'positive', 'pow', 'prod', 'ptp', 'put_',
    'qr', 'quantile', 'rad2deg', 'random_', 'random_categorical', 'ravel', 'real', 'reciprocal',
    'register_hook', 'remainder', 'remainder_', 'remove_hook', 'renorm', 'repeat', 'repeat_interleave',
    'requires_grad_', 'reshape', 'reshape_as', 'resize', 'reverse', 'reverse_sequence', 'roll', 'rot90',
    'round', 'rsqrt', 'scatter', 'scatter_', 'scatter_add', 'scatter_add_', 'scatter_div',
    'scatter_max', 'scatter_min', 'scatter_mul', 'scatter_sub', 'searchsorted', 'select',
    'select_scatter', 'set_', 'set_cast_dtype', 'set_const_arg', 'set_device_address', 'set_dtype',
    'set_init_flag', 'set_param_info', 'setitem_index_info', 'sgn', 'shape', 'short', 'sigmoid',
    'sigmoid_', 'sign', 'sign_', 'signbit', 'sin', 'sinc', 'sinh', 'size', 'slice_scatter', 'slogdet',
    'soft_shrink', 'softmax', 'sort', 'split', 'sqrt', 'square', 'squeeze', 'std', 'storage',
    'storage_offset', 'stride', 'strides', 'sub', 'sub_', 'subtract', 'sum', 'sum_to_size', 'svd',
    'swapaxes', 'swapdims', 'symbolic_shape', 't', 'take', 'tan', 'tanh', 'tanh_', 'tensor_split',
    'tile', 'to', 'to_', 'to_coo', 'to_csr', 'to_dlpack', 'tolist', 'top_k', 'topk', 'trace',
    'transpose', 'triangular_solve', 'tril', 'triu', 'true_divide', 'trunc', 'type', 'type_as',
    'unbind', 'unfold', 'uniform', 'uniform_', 'unique', 'unique_consecutive', 'unique_with_pad',
    'unsorted_segment_max', 'unsorted_segment_min', 'unsorted_segment_prod', 'unsqueeze',
    'untyped_storage', 'value', 'var', 'view', 'view_as', 'virtual_flag', 'vsplit', 'wait_pipeline',
    'where', 'xdivy', 'xlogy', 'zero_'

))

_OPS: list[Any] = []


def _ops() -> Any:
    # mindjax.ops sits above common: resolved on first use, never at import.
    if not _OPS:
        _OPS.append(importlib.import_module("mindjax.ops"))
    return _OPS[0]


def _shape_args(shape: Sequence[Any]) -> tuple[int, ...]:
    if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
        shape = tuple(shape[0])
    return tuple(int(as_array(s)) if isinstance(s, Tensor) else int(s) for s in shape)


def _axis(axis: Any, dim: Any) -> Any:
    """MindSpore spells the reduction axis ``axis`` (Tensor API) or ``dim`` (mint API)."""
    axis = dim if axis is None else axis
    if isinstance(axis, list):
        axis = tuple(axis)
    return axis


def _keep(keepdims: Any, keep_dims: Any, keepdim: Any) -> bool:
    return bool(keepdims or keep_dims or keepdim)


def _int64() -> Any:
    return jnp.int64 if jax.config.jax_enable_x64 else jnp.int32


def _method(fn: Callable[..., Any], name: str | None = None) -> None:
    fn.__name__ = name or fn.__name__
    fn.__qualname__ = f"Tensor.{fn.__name__}"
    setattr(Tensor, fn.__name__, fn)


# --- shapes -----------------------------------------------------------------------------

def reshape(self: Tensor, *shape: Any, order: str = "C") -> Tensor:
    """The data in a new shape (``reshape(2, 3)`` or ``reshape((2, 3))``)."""
    return _out(jnp.reshape(self._value, _shape_args(shape), order=order))


def view(self: Tensor, *shape: Any) -> Tensor:
    """The data in a new shape, as :meth:`reshape`; ``view(dtype)`` reinterprets the bytes."""
    if len(shape) == 1 and not isinstance(shape[0], (int, np.integer, tuple, list, Tensor)):
        return _out(jax.lax.bitcast_convert_type(self._value, to_jax_dtype(shape[0])))
    return _out(jnp.reshape(self._value, _shape_args(shape)))


def view_as(self: Tensor, other: Any) -> Tensor:
    """The data in ``other``'s shape."""
    return _out(jnp.reshape(self._value, tuple(as_array(other).shape)))


def reshape_as(self: Tensor, other: Any) -> Tensor:
    """The data in ``other``'s shape."""
    return _out(jnp.reshape(self._value, tuple(as_array(other).shape)))


def flatten(self: Tensor, order: str = "C", *, start_dim: int = 0, end_dim: int = -1) -> Tensor:
    """Dimensions ``start_dim`` .. ``end_dim`` merged into one (all by default)."""
    if isinstance(order, int):  # flatten(start_dim, end_dim) positionally (mint style)
        start_dim, order = order, "C"
    x = self._value
    if x.ndim == 0:
        return _out(x.reshape(1))
    start, end = start_dim % x.ndim, end_dim % x.ndim
    if order == "F":
        x = jnp.transpose(x)
    shape = x.shape[:start] + (-1,) + x.shape[end + 1:]
    return _out(jnp.reshape(x, shape))


def ravel(self: Tensor) -> Tensor:
    """The data as one dimension."""
    return _out(jnp.ravel(self._value))


def squeeze(self: Tensor, axis: Any = None) -> Tensor:
    """Size-1 dimensions removed (all, or those in ``axis``; others are kept)."""
    x = self._value
    if axis is None:
        return _out(jnp.squeeze(x))
    axes = (axis,) if isinstance(axis, int) else tuple(axis)
    axes = tuple(a % x.ndim for a in axes if x.shape[a] == 1)
    return _out(jnp.squeeze(x, axes) if axes else x)


def unsqueeze(self: Tensor, dim: int) -> Tensor:
    """A size-1 dimension inserted at ``dim``."""
    return _out(jnp.expand_dims(self._value, dim))


def expand_dims(self: Tensor, axis: int) -> Tensor:
    """A size-1 dimension inserted at ``axis``."""
    return _out(jnp.expand_dims(self._value, axis))


def transpose(self: Tensor, *axes: Any) -> Tensor:
    """Axes permuted (reversed by default; ``transpose(1, 0)`` or ``transpose((1, 0))``)."""
    x = self._value
    if not axes or axes == (None,):
        return _out(jnp.transpose(x))
    if len(axes) == 1 and isinstance(axes[0], (tuple, list)):
        axes = tuple(axes[0])
    if len(axes) == 2 and x.ndim != 2:  # torch-style transpose(dim0, dim1)
        return _out(jnp.swapaxes(x, axes[0], axes[1]))
    return _out(jnp.transpose(x, axes))


def permute(self: Tensor, *axes: Any) -> Tensor:
    """Axes permuted (``permute(2, 0, 1)`` or ``permute((2, 0, 1))``)."""
    if len(axes) == 1 and isinstance(axes[0], (tuple, list)):
        axes = tuple(axes[0])
    return _out(jnp.transpose(self._value, axes))


def swapaxes(self: Tensor, axis0: int, axis1: int) -> Tensor:
    """Two axes exchanged."""
    return _out(jnp.swapaxes(self._value, axis0, axis1))


def t(self: Tensor) -> Tensor:
    """The transpose of a Tensor of at most 2 dimensions."""
    x = self._value
    if x.ndim > 2:
        raise ValueError(f"For 'Tensor.t', the input must have at most 2 dimensions, got {x.ndim}")
    return _out(jnp.transpose(x))


def broadcast_to(self: Tensor, shape: Any) -> Tensor:
    """The data broadcast to ``shape`` (-1 keeps a dimension)."""
    x = self._value
    shape = tuple(shape)
    lead = len(shape) - x.ndim
    full = tuple(x.shape[i - lead] if s == -1 else s for i, s in enumerate(shape))
    return _out(jnp.broadcast_to(x, full))


def expand(self: Tensor, *size: Any) -> Tensor:
    """The data broadcast to ``size`` (-1 keeps a dimension)."""
    return broadcast_to(self, _shape_args(size))


def expand_as(self: Tensor, other: Any) -> Tensor:
    """The data broadcast to ``other``'s shape."""
    return _out(jnp.broadcast_to(self._value, tuple(as_array(other).shape)))


def tile(self: Tensor, reps: Any) -> Tensor:
    """The data repeated ``reps`` times along each axis."""
    return _out(jnp.tile(self._value, tuple(reps) if isinstance(reps, (list, tuple)) else reps))


def repeat(self: Tensor, repeats: Any, axis: Any = None) -> Tensor:
    """Each element repeated ``repeats`` times (flattened unless ``axis`` is given), as numpy."""
    r = np.asarray(as_array(repeats)) if isinstance(repeats, Tensor) else repeats
    return _out(jnp.repeat(self._value, r, axis=axis))


# --- dtype ----------------------------------------------------------------------------------

def astype(self: Tensor, dtype: Any, copy: bool = True) -> Tensor:
    """The data cast to ``dtype``."""
    return _out(self._value.astype(to_jax_dtype(dtype)))


def to(self: Tensor, dtype: Any = None, *args: Any, **kwargs: Any) -> Tensor:
    """The data cast to ``dtype`` (devices are ignored)."""
    if dtype is None or isinstance(dtype, str) and dtype.lower() in ("cpu", "gpu", "cuda", "npu", "ascend"):
        dtype = kwargs.get("dtype", args[0] if args else None)
        if dtype is None:
            return self
    return _out(self._value.astype(to_jax_dtype(dtype)))


def type(self: Tensor, dtype: Any = None) -> Any:  # noqa: A001 (MindSpore's name)
    """The dtype's name (``'Float32'``), or the data cast to ``dtype``."""
    if dtype is None:
        return str(self.dtype)
    return astype(self, dtype)


def type_as(self: Tensor, other: Any) -> Tensor:
    """The data cast to ``other``'s dtype."""
    return _out(self._value.astype(as_array(other).dtype))


def _caster(name: str, dtype: Any) -> None:
    def cast(self: Tensor) -> Tensor:
        return _out(self._value.astype(dtype))
    cast.__doc__ = f"The data as {name}."
    _method(cast, name)


for _n, _d in (("float", jnp.float32), ("half", jnp.float16), ("double", jnp.float64),
               ("int", jnp.int32), ("long", jnp.int64), ("short", jnp.int16), ("byte", jnp.uint8),
               ("char", jnp.int8), ("bool", jnp.bool_), ("bfloat16", jnp.bfloat16)):
    _caster(_n, _d)


# --- sizes -------------------------------------------------------------------------------------

def numel(self: Tensor) -> int:
    """The number of elements."""
    return self.size


def dim(self: Tensor) -> int:
    """The number of dimensions."""
    return self.ndim


def dim_order(self: Tensor) -> tuple[int, ...]:
    """The dimension order of the (contiguous) layout."""
    return tuple(range(self.ndim))


# --- reductions -------------------------------------------------------------------------------------

def _sum_dtype(x: Any, dtype: Any) -> Any:
    if dtype is not None:
        return to_jax_dtype(dtype)
    if x.dtype == jnp.bool_ or jnp.issubdtype(x.dtype, jnp.integer):
        return _int64() if jnp.issubdtype(x.dtype, jnp.signedinteger) or x.dtype == jnp.bool_ else None
    return None


def sum(self: Tensor, axis: Any = None, dtype: Any = None, keepdims: bool = False, initial: Any = None,
        *, dim: Any = None, keepdim: bool = False) -> Tensor:  # noqa: A001
    """The sum over ``axis`` (all axes by default); int and bool data sum as Int64."""
    x = self._value
    out = jnp.sum(x, axis=_axis(axis, dim), dtype=_sum_dtype(x, dtype), keepdims=keepdims or keepdim,
                  initial=initial)
    return _out(out)


def mean(self: Tensor, axis: Any = None, keep_dims: bool = False, *, dim: Any = None,
         keepdim: bool = False, keepdims: bool = False, dtype: Any = None) -> Tensor:
    """The mean over ``axis`` (all axes by default); integer data keeps its dtype, as MindSpore."""
    x = self._value
    out = jnp.mean(x, axis=_axis(axis, dim), keepdims=_keep(keepdims, keep_dims, keepdim))
    target = to_jax_dtype(dtype) if dtype is not None else (x.dtype if x.dtype != jnp.bool_ else jnp.float32)
    return _out(out.astype(target))


def prod(self: Tensor, axis: Any = None, keep_dims: bool = False, dtype: Any = None, *, dim: Any = None,
         keepdim: bool = False) -> Tensor:
    """The product over ``axis`` (all axes by default)."""
    x = self._value
    out = jnp.prod(x, axis=_axis(axis, dim), keepdims=keep_dims or keepdim)
    return _out(out.astype(to_jax_dtype(dtype)) if dtype is not None else out)


def _min_max(self: Tensor, fn: Any, arg: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    """MindSpore 2.10's overloads: ``max()``; ``max(dim, keepdim=False)`` -> ``(values, indices)``;
    ``max(axis=None, keepdims=False, *, initial, where, return_indices)`` -> values (and indices)."""
    x = self._value
    pairs = bool(args) or "dim" in kwargs or kwargs.get("return_indices", False)
    names = ("dim", "keepdim") if args or "dim" in kwargs else ("axis", "keepdims")
    bound = dict(zip(names, args))
    bound.update(kwargs)
    ax = _axis(bound.get("axis"), bound.get("dim"))
    keep = bool(bound.get("keepdims", False) or bound.get("keepdim", False))
    extra = {}
    if bound.get("initial") is not None:
        extra["initial"] = bound["initial"]
    if bound.get("where") is not None:
        extra["where"] = as_array(bound["where"])
    if ax is None:
        return _out(fn(x, keepdims=keep, **extra))
    values = fn(x, axis=ax, keepdims=keep, **extra)
    if pairs:
        return _out(values), _out(arg(x, axis=ax, keepdims=keep).astype(_int64()))
    return _out(values)


def max(self: Tensor, *args: Any, **kwargs: Any) -> Any:  # noqa: A001
    """The maximum: of all elements, over ``axis=``, or ``(values, indices)`` for ``max(dim)``."""
    return _min_max(self, jnp.max, jnp.argmax, args, kwargs)


def min(self: Tensor, *args: Any, **kwargs: Any) -> Any:  # noqa: A001
    """The minimum: of all elements, over ``axis=``, or ``(values, indices)`` for ``min(dim)``."""
    return _min_max(self, jnp.min, jnp.argmin, args, kwargs)


def argmax(self: Tensor, axis: Any = None, keepdims: bool = False, *, dim: Any = None,
           keepdim: bool = False) -> Tensor:
    """The index of the maximum (Int64), flattened or over ``axis``."""
    return _out(jnp.argmax(self._value, axis=_axis(axis, dim), keepdims=keepdims or keepdim).astype(_int64()))


def argmin(self: Tensor, axis: Any = None, keepdims: bool = False, *, dim: Any = None,
           keepdim: bool = False) -> Tensor:
    """The index of the minimum (Int32, as MindSpore 2.10), flattened or over ``axis``."""
    return _out(jnp.argmin(self._value, axis=_axis(axis, dim), keepdims=keepdims or keepdim).astype(jnp.int32))


def amax(self: Tensor, axis: Any = None, keepdims: bool = False, *, initial: Any = None,
         where: Any = None) -> Tensor:
    """The maximum over ``axis`` (values only)."""
    kwargs = {} if initial is None else {"initial": initial}
    if where is not None:
        kwargs["where"] = as_array(where)
    return _out(jnp.max(self._value, axis=_axis(axis, None), keepdims=keepdims, **kwargs))


def amin(self: Tensor, axis: Any = None, keepdims: bool = False, *, initial: Any = None,
         where: Any = None) -> Tensor:
    """The minimum over ``axis`` (values only)."""
    kwargs = {} if initial is None else {"initial": initial}
    if where is not None:
        kwargs["where"] = as_array(where)
    return _out(jnp.min(self._value, axis=_axis(axis, None), keepdims=keepdims, **kwargs))


def std(self: Tensor, axis: Any = None, ddof: int = 0, keepdims: bool = False, *, dim: Any = None,
        correction: Any = None, keepdim: bool = False) -> Tensor:
    """The standard deviation over ``axis`` (``ddof`` 0 by default, as MindSpore's Tensor.std)."""
    ddof = correction if correction is not None else ddof
    return _out(jnp.std(_float_default(self._value), axis=_axis(axis, dim), ddof=ddof,
                        keepdims=keepdims or keepdim))


def var(self: Tensor, axis: Any = None, ddof: int = 0, keepdims: bool = False, *, dim: Any = None,
        correction: Any = None, keepdim: bool = False) -> Tensor:
    """The variance over ``axis`` (``ddof`` 0 by default, as MindSpore's Tensor.var)."""
    ddof = correction if correction is not None else ddof
    return _out(jnp.var(_float_default(self._value), axis=_axis(axis, dim), ddof=ddof,
                        keepdims=keepdims or keepdim))


def all(self: Tensor, axis: Any = None, keep_dims: bool = False, *, dim: Any = None,
        keepdim: bool = False) -> Tensor:  # noqa: A001
    """True where every element over ``axis`` is non-zero."""
    return _out(jnp.all(self._value, axis=_axis(axis, dim), keepdims=keep_dims or keepdim))


def any(self: Tensor, axis: Any = None, keep_dims: bool = False, *, dim: Any = None,
        keepdim: bool = False) -> Tensor:  # noqa: A001
    """True where some element over ``axis`` is non-zero."""
    return _out(jnp.any(self._value, axis=_axis(axis, dim), keepdims=keep_dims or keepdim))


def cumsum(self: Tensor, axis: Any = None, dtype: Any = None, *, dim: Any = None) -> Tensor:
    """The running sum along ``axis`` (flattened by default)."""
    return _out(jnp.cumsum(self._value, axis=_axis(axis, dim), dtype=to_jax_dtype(dtype) if dtype else None))


def cumprod(self: Tensor, dim: int, dtype: Any = None) -> Tensor:
    """The running product along ``dim``."""
    return _out(jnp.cumprod(self._value, axis=dim, dtype=to_jax_dtype(dtype) if dtype else None))


def norm(self: Tensor, ord: Any = None, dim: Any = None, keepdim: bool = False, *, dtype: Any = None) -> Tensor:
    """The vector or matrix norm (2-norm of all elements by default)."""
    x = _float_default(self._value)
    if dtype is not None:
        x = x.astype(to_jax_dtype(dtype))
    if dim is None and ord is None:
        return _out(jnp.sqrt(jnp.sum(jnp.abs(x) ** 2)))
    return _out(jnp.linalg.norm(x, ord=ord, axis=_axis(dim, None), keepdims=keepdim))


def allclose(self: Tensor, other: Any, rtol: float = 1e-05, atol: float = 1e-08, equal_nan: bool = False) -> bool:
    """True when every element is close to ``other``'s (a Python bool)."""
    return bool(jnp.allclose(self._value, as_array(other), rtol=rtol, atol=atol, equal_nan=equal_nan))


def isclose(self: Tensor, x2: Any, rtol: float = 1e-05, atol: float = 1e-08, equal_nan: bool = False) -> Tensor:
    """Where the elements are close to ``x2``'s."""
    return _out(jnp.isclose(self._value, as_array(x2), rtol=rtol, atol=atol, equal_nan=equal_nan))


def median(self: Tensor, axis: int = -1, keepdims: bool = False) -> Any:
    """The lower median along ``axis`` and its Int64 index, as MindSpore's Tensor.median."""
    x = self._value
    n = x.shape[axis]
    order = jnp.argsort(x, axis=axis, stable=True)
    idx = jnp.take(order, jnp.asarray([(n - 1) // 2]), axis=axis)
    values = jnp.take_along_axis(x, idx, axis=axis)
    if not keepdims:
        values, idx = jnp.squeeze(values, axis), jnp.squeeze(idx, axis)
    return _out(values), _out(idx.astype(_int64()))


# --- sorting and selection --------------------------------------------------------------------------------

def sort(self: Tensor, axis: int = -1, descending: bool = False, *, dim: Any = None, stable: bool = False) -> Any:
    """``(values, indices)`` sorted along ``axis``; indices are Int32 as in MindSpore 2.10."""
    x = self._value
    ax = dim if dim is not None else axis
    key = -x if descending and not x.dtype == jnp.bool_ else x
    order = jnp.argsort(key, axis=ax, stable=True, descending=bool(descending and x.dtype == jnp.bool_))
    return _out(jnp.take_along_axis(x, order, axis=ax)), _out(order.astype(jnp.int32))


def argsort(self: Tensor, axis: int = -1, descending: bool = False, *, dim: Any = None,
            stable: bool = False) -> Tensor:
    """The indices (Int32) that sort the data along ``axis``."""
    return sort(self, axis, descending, dim=dim)[1]


def topk(self: Tensor, k: int, dim: Any = None, largest: bool = True, sorted: bool = True) -> Any:  # noqa: A002
    """``(values, indices)`` of the ``k`` largest (or smallest) along ``dim`` (the last by default)."""
    x = self._value
    ax = -1 if dim is None else dim
    moved = jnp.moveaxis(x, ax, -1)
    values, idx = jax.lax.top_k(moved if largest else -moved, int(k))
    if not largest:
        values = -values
    return _out(jnp.moveaxis(values, -1, ax)), _out(jnp.moveaxis(idx, -1, ax).astype(jnp.int32))


def nonzero(self: Tensor, *, as_tuple: bool = False) -> Any:
    """The indices of the non-zero elements: a 2-D Int64 Tensor, or one per dimension."""
    x = np.asarray(self.asnumpy())
    idx = np.nonzero(x) if x.ndim else np.nonzero(x.reshape(1))
    if as_tuple:
        return tuple(_out(jnp.asarray(i, _int64())) for i in idx)
    return _out(jnp.asarray(np.stack(idx, axis=-1), _int64()))


def unique(self: Tensor, sorted: bool = True, return_inverse: bool = False, return_counts: bool = False,
           dim: Any = None) -> Any:  # noqa: A002
    """The distinct values (sorted), with the inverse indices and counts on request."""
    values, inverse, counts = np.unique(self.asnumpy(), return_inverse=True, return_counts=True, axis=dim)
    out = [_out(jnp.asarray(values))]
    if return_inverse:
        out.append(_out(jnp.asarray(inverse.reshape(self.shape) if dim is None else inverse, _int64())))
    if return_counts:
        out.append(_out(jnp.asarray(counts, _int64())))
    return out[0] if len(out) == 1 else tuple(out)


def split(self: Tensor, split_size_or_sections: Any, axis: int = 0, *, dim: Any = None) -> tuple[Tensor, ...]:
    """Pieces of ``split_size_or_sections`` elements (an int or a list of sizes) along ``axis``."""
    x = self._value
    ax = dim if dim is not None else axis
    n = x.shape[ax]
    if isinstance(split_size_or_sections, int):
        size = split_size_or_sections
        bounds = list(range(size, n, size))
    else:
        sizes = list(split_size_or_sections)
        if sum(sizes) != n:
            raise ValueError(f"For 'Tensor.split', the sizes {sizes} must add up to the length {n} of axis {ax}")
        bounds = list(np.cumsum(sizes)[:-1])
    return tuple(_out(p) for p in jnp.split(x, bounds, axis=ax))


def chunk(self: Tensor, chunks: int, axis: int = 0, *, dim: Any = None) -> tuple[Tensor, ...]:
    """``chunks`` pieces (the last may be smaller) along ``axis``."""
    x = self._value
    ax = dim if dim is not None else axis
    size = -(-x.shape[ax] // chunks)
    return split(self, size, ax)


def unbind(self: Tensor, dim: int = 0) -> tuple[Tensor, ...]:
    """The slices along ``dim``, that dimension removed."""
    x = self._value
    return tuple(_out(jnp.take(x, i, axis=dim)) for i in range(x.shape[dim]))


def narrow(self: Tensor, axis: int, start: int, length: int) -> Tensor:
    """``length`` elements from ``start`` along ``axis``."""
    return _out(jax.lax.slice_in_dim(self._value, start, start + length, axis=axis))


def gather(self: Tensor, input_indices: Any, axis: int, batch_dims: int = 0) -> Tensor:
    """Slices at ``input_indices`` along ``axis`` (MindSpore's ops.gather)."""
    return _ops().gather(self, input_indices, axis, batch_dims)


def index_select(self: Tensor, axis: int, index: Any) -> Tensor:
    """Slices at the 1-D ``index`` along ``axis``."""
    return _out(jnp.take(self._value, as_array(index), axis=axis))


def masked_fill(self: Tensor, mask: Any, value: Any) -> Tensor:
    """``value`` where ``mask`` is True."""
    x = self._value
    return _out(jnp.where(as_array(mask), as_array(value).astype(x.dtype), x))


def masked_select(self: Tensor, mask: Any) -> Tensor:
    """The elements where ``mask`` (broadcast) is True, as 1-D."""
    x = np.asarray(self.asnumpy())
    m = np.broadcast_to(np.asarray(as_array(mask)), np.broadcast_shapes(x.shape, np.shape(as_array(mask))))
    return _out(jnp.asarray(np.broadcast_to(x, m.shape)[m]))


def where(self: Tensor, condition: Any, y: Any) -> Tensor:
    """This Tensor where ``condition`` is True, ``y`` elsewhere."""
    x = self._value
    other = as_array(y)
    return _out(jnp.where(as_array(condition), x, other.astype(x.dtype) if other.ndim == 0 else other))


def clip(self: Tensor, min: Any = None, max: Any = None) -> Tensor:  # noqa: A002
    """Values limited to ``[min, max]``."""
    x = self._value
    lo = None if min is None else as_array(min)
    hi = None if max is None else as_array(max)
    return _out(jnp.clip(x, lo, hi).astype(x.dtype))


def fill(self: Tensor, value: Any) -> Tensor:
    """A Tensor of this shape and dtype filled with ``value``."""
    x = self._value
    return _out(jnp.full(x.shape, as_array(value), x.dtype))


def _new(fill_value: Any) -> Callable[..., Tensor]:
    def new(self: Tensor, *size: Any, dtype: Any = None, **_: Any) -> Tensor:
        target = to_jax_dtype(dtype) if dtype is not None else self._value.dtype
        return _out(jnp.full(_shape_args(size), fill_value, target))
    return new


def new_full(self: Tensor, size: Any, fill_value: Any, *, dtype: Any = None, **_: Any) -> Tensor:
    """A Tensor of ``size`` filled with ``fill_value``, this Tensor's dtype by default."""
    target = to_jax_dtype(dtype) if dtype is not None else self._value.dtype
    return _out(jnp.full(_shape_args((size,)), as_array(fill_value), target))


def new_tensor(self: Tensor, data: Any, *, dtype: Any = None, **_: Any) -> Tensor:
    """A Tensor of ``data``, this Tensor's dtype by default."""
    target = to_jax_dtype(dtype) if dtype is not None else self._value.dtype
    return _out(jnp.asarray(as_array(data), target))


def softmax(self: Tensor, axis: int = -1, dtype: Any = None) -> Tensor:
    """The softmax along ``axis``."""
    x = _float_default(self._value)
    return _out(jax.nn.softmax(x.astype(to_jax_dtype(dtype)) if dtype else x, axis=axis))


def log_softmax(self: Tensor, axis: int = -1, dtype: Any = None) -> Tensor:
    """The log-softmax along ``axis``."""
    x = _float_default(self._value)
    return _out(jax.nn.log_softmax(x.astype(to_jax_dtype(dtype)) if dtype else x, axis=axis))


def float_power(self: Tensor, other: Any) -> Tensor:
    """The power in double precision (Float64)."""
    return _out(jnp.power(self._value.astype(jnp.float64), as_array(other).astype(jnp.float64)))


def div(self: Tensor, value: Any, *, rounding_mode: Any = None) -> Tensor:
    """The quotient; ``rounding_mode`` 'floor' or 'trunc' rounds it."""
    a, b = self._value, as_array(value) if not isinstance(value, (int, float)) else value
    q = _true_divide(a, b)
    if rounding_mode == "floor":
        q = jnp.floor(q).astype(jnp.result_type(a, b)) if not jnp.issubdtype(a.dtype, jnp.inexact) else jnp.floor(q)
    elif rounding_mode == "trunc":
        q = jnp.trunc(q).astype(jnp.result_type(a, b)) if not jnp.issubdtype(a.dtype, jnp.inexact) else jnp.trunc(q)
    return _out(q)


def equal(self: Tensor, other: Any) -> Tensor:
    """Where the elements equal ``other``'s."""
    return _out(jnp.equal(self._value, as_array(other)))


def lerp(self: Tensor, end: Any, weight: Any) -> Tensor:
    """``self + weight * (end - self)``."""
    x = self._value
    return _out(x + as_array(weight) * (as_array(end) - x))


def addcmul(self: Tensor, tensor1: Any, tensor2: Any, value: Any = 1) -> Tensor:
    """``self + value * tensor1 * tensor2``."""
    return _out(self._value + as_array(value) * as_array(tensor1) * as_array(tensor2))


def addcdiv(self: Tensor, tensor1: Any, tensor2: Any, value: Any = 1) -> Tensor:
    """``self + value * tensor1 / tensor2``."""
    return _out(self._value + as_array(value) * as_array(tensor1) / as_array(tensor2))


def addmm(self: Tensor, mat1: Any, mat2: Any, *, beta: Any = 1, alpha: Any = 1) -> Tensor:
    """``beta * self + alpha * (mat1 @ mat2)``."""
    return _out(beta * self._value + alpha * jnp.matmul(as_array(mat1), as_array(mat2)))


def scatter(self: Tensor, axis: int, index: Any, src: Any, *, reduce: Any = None, **kwargs: Any) -> Tensor:
    """``src`` written at ``index`` along ``axis`` (MindSpore's Tensor.scatter)."""
    x = self._value
    if "dim" in kwargs:
        axis = kwargs.pop("dim")
    src = kwargs.pop("value", src)
    idx = as_array(index)
    values = jnp.broadcast_to(as_array(src).astype(x.dtype), idx.shape)
    grids = list(jnp.meshgrid(*[jnp.arange(n) for n in idx.shape], indexing="ij"))
    grids[axis] = idx
    where = tuple(grids)
    if reduce == "add":
        return _out(x.at[where].add(values))
    if reduce == "multiply":
        return _out(x.at[where].multiply(values))
    return _out(x.at[where].set(values))


# --- elementwise math --------------------------------------------------------------------------------------

def _unary(name: str, fn: Callable[[Any], Any], to_float: bool = False) -> None:
    def method(self: Tensor) -> Tensor:
        x = self._value
        return _out(fn(_float_default(x) if to_float else x))
    method.__doc__ = f"Elementwise {name}."
    _method(method, name)


_FLOAT_UNARY = {
    "exp": jnp.exp, "exp2": jnp.exp2, "expm1": jnp.expm1, "log": jnp.log, "log2": jnp.log2, "log10": jnp.log10,
    "log1p": jnp.log1p, "sqrt": jnp.sqrt, "rsqrt": jax.lax.rsqrt, "sin": jnp.sin, "cos": jnp.cos,
    "tan": jnp.tan, "asin": jnp.arcsin, "arcsin": jnp.arcsin, "acos": jnp.arccos, "arccos": jnp.arccos,
    "atan": jnp.arctan, "arctan": jnp.arctan, "sinh": jnp.sinh, "cosh": jnp.cosh, "tanh": jnp.tanh,
    "asinh": jnp.arcsinh, "arcsinh": jnp.arcsinh, "acosh": jnp.arccosh, "arccosh": jnp.arccosh,
    "atanh": jnp.arctanh, "arctanh": jnp.arctanh, "sigmoid": jax.nn.sigmoid, "erf": jax.scipy.special.erf,
    "erfc": jax.scipy.special.erfc, "erfinv": jax.scipy.special.erfinv, "reciprocal": jnp.reciprocal,
    "sinc": jnp.sinc, "deg2rad": jnp.deg2rad, "rad2deg": jnp.rad2deg, "digamma": jax.scipy.special.digamma,
    "lgamma": jax.scipy.special.gammaln, "i0": jnp.i0, "logit": jax.scipy.special.logit,
}
_SAME_UNARY = {
    "abs": jnp.abs, "absolute": jnp.abs, "neg": jnp.negative, "negative": jnp.negative, "square": jnp.square,
    "floor": jnp.floor, "ceil": jnp.ceil, "trunc": jnp.trunc, "fix": jnp.trunc, "sign": jnp.sign,
    "logical_not": jnp.logical_not, "isnan": jnp.isnan, "isinf": jnp.isinf, "isfinite": jnp.isfinite,
    "isneginf": jnp.isneginf, "isposinf": jnp.isposinf, "isreal": jnp.isreal, "conj": jnp.conj,
    "angle": jnp.angle, "bitwise_not": jnp.invert, "positive": lambda x: x, "signbit": jnp.signbit,
    "relu": jax.nn.relu, "frac": lambda x: x - jnp.trunc(x), "sgn": jnp.sign,
}
for _n, _f in _FLOAT_UNARY.items():
    _unary(_n, _f, to_float=True)
for _n, _f in _SAME_UNARY.items():
    _unary(_n, _f)


def round(self: Tensor, decimals: int = 0) -> Tensor:  # noqa: A001
    """Rounded to ``decimals`` places (half to even)."""
    return _out(jnp.round(self._value, decimals))


def _binary_method(name: str, fn: Callable[[Any, Any], Any]) -> None:
    def method(self: Tensor, other: Any, *args: Any, **kwargs: Any) -> Tensor:
        alpha = kwargs.pop("alpha", args[0] if args else None)
        b = as_array(other) if not isinstance(other, (int, float, bool)) else other
        if alpha is not None:
            b = b * alpha
        a, b = _promote(self._value, b)
        return _out(fn(a, b))
    method.__doc__ = f"Elementwise {name} with ``other``."
    _method(method, name)


_BINARY = {
    "add": jnp.add, "sub": jnp.subtract, "subtract": jnp.subtract, "mul": jnp.multiply, "multiply": jnp.multiply,
    "true_divide": _true_divide, "divide": _true_divide, "floor_divide": jnp.floor_divide, "fmod": jnp.fmod,
    "remainder": jnp.remainder, "pow": jnp.power, "maximum": jnp.maximum, "minimum": jnp.minimum,
    "fmax": jnp.fmax, "fmin": jnp.fmin, "logical_and": jnp.logical_and, "logical_or": jnp.logical_or,
    "logical_xor": jnp.logical_xor, "bitwise_and": jnp.bitwise_and, "bitwise_or": jnp.bitwise_or,
    "bitwise_xor": jnp.bitwise_xor, "bitwise_left_shift": jnp.left_shift, "bitwise_right_shift": jnp.right_shift,
    "greater": jnp.greater, "gt": jnp.greater, "greater_equal": jnp.greater_equal, "ge": jnp.greater_equal,
    "less": jnp.less, "lt": jnp.less, "less_equal": jnp.less_equal, "le": jnp.less_equal, "eq": jnp.equal,
    "ne": jnp.not_equal, "not_equal": jnp.not_equal, "atan2": jnp.arctan2, "arctan2": jnp.arctan2,
    "hypot": jnp.hypot, "logaddexp": jnp.logaddexp, "logaddexp2": jnp.logaddexp2, "matmul": jnp.matmul,
    "mm": jnp.matmul, "bmm": jnp.matmul, "inner": jnp.inner, "outer": jnp.outer, "kron": jnp.kron,
    "copysign": jnp.copysign, "xlogy": jax.scipy.special.xlogy, "heaviside": jnp.heaviside,
    "nextafter": jnp.nextafter, "ldexp": jnp.ldexp, "gcd": jnp.gcd, "lcm": jnp.lcm, "dot": jnp.dot,
    "mv": jnp.matmul, "vdot": jnp.vdot,
}
for _n, _f in _BINARY.items():
    _binary_method(_n, _f)


def clamp(self: Tensor, min: Any = None, max: Any = None) -> Tensor:  # noqa: A002
    """Values limited to ``[min, max]``."""
    return clip(self, min, max)


# --- in-place variants: ``x.add_(y)`` writes the result into ``x`` ----------------------------------------

def _inplace_method(name: str) -> None:
    base = name[:-1]

    def method(self: Tensor, *args: Any, **kwargs: Any) -> Tensor:
        out = getattr(Tensor, base)(self, *args, **kwargs)
        raw = self._value
        new = as_array(out)
        self._write(new.astype(raw.dtype) if new.dtype != raw.dtype else new)
        return self
    method.__doc__ = f"In-place :meth:`{base}`: the result is written into this Tensor."
    _method(method, name)


def uniform_(self: Tensor, from_: float = 0, to: float = 1, *, generator: Any = None) -> Tensor:
    """Fill in place with uniform samples in ``[from_, to)`` (the global random state)."""
    from mindjax.common.random import next_key

    raw = self._value
    self._write(jax.random.uniform(next_key(), raw.shape, raw.dtype, from_, to))
    return self


def normal_(self: Tensor, mean: float = 0, std: float = 1, *, generator: Any = None) -> Tensor:
    """Fill in place with normal samples (the global random state)."""
    from mindjax.common.random import next_key

    raw = self._value
    self._write(mean + std * jax.random.normal(next_key(), raw.shape, raw.dtype))
    return self


_LOCAL_METHODS = [
    reshape, view, view_as, reshape_as, flatten, ravel, squeeze, unsqueeze, expand_dims, transpose, permute,
    swapaxes, t, broadcast_to, expand, expand_as, tile, repeat, astype, to, type, type_as, numel, dim,
    dim_order, sum, mean, prod, max, min, argmax, argmin, amax, amin, std, var, all, any, cumsum, cumprod, norm, allclose,
    isclose, median, sort, argsort, topk, nonzero, unique, split, chunk, unbind, narrow, gather, index_select,
    masked_fill, masked_select, where, clip, fill, new_full, new_tensor, softmax, log_softmax, float_power,
    div, equal, lerp, addcmul, addcdiv, addmm, scatter, round, clamp, uniform_, normal_,
]
for _fn in _LOCAL_METHODS:
    _method(_fn)
for _n, _v in (("new_zeros", 0), ("new_ones", 1), ("new_empty", 0)):
    _method(_new(_v), _n)
Tensor.swapdims = Tensor.swapaxes
Tensor.ndimension = Tensor.dim
Tensor.nelement = Tensor.numel
for _n in ("add_", "sub_", "mul_", "div_", "clamp_", "clip_", "masked_fill_", "pow_", "abs_", "neg_",
           "exp_", "log_", "sqrt_", "floor_", "ceil_", "round_", "sigmoid_", "tanh_", "relu_", "square_",
           "addcmul_", "addcdiv_", "addmm_", "lerp_", "scatter_", "fmod_", "remainder_", "floor_divide_",
           "true_divide_", "index_fill_", "index_add_", "masked_scatter_", "tril_", "triu_", "sign_",
           "reciprocal_", "sin_", "cos_", "trunc_", "bitwise_and_", "bitwise_or_", "bitwise_xor_",
           "logical_and_", "logical_or_", "logical_not_", "baddbmm_", "erfinv_", "copysign_"):
    _inplace_method(_n)


def _delegate(self: Tensor, name: str) -> Any:
    """MindSpore Tensor methods with no local definition: the functional op of the same name."""
    if name.startswith("_") or name not in _MINDSPORE_METHODS:
        raise AttributeError(f"'Tensor' object has no attribute '{name}'")
    op = getattr(_ops(), name, None)
    if op is None or not callable(op):
        raise AttributeError(f"'Tensor' object has no attribute '{name}' (MindSpore's Tensor.{name} "
                             f"is not available in MindJAX yet)")

    def method(*args: Any, **kwargs: Any) -> Any:
        return op(self, *args, **kwargs)
    method.__name__ = name
    method.__doc__ = getattr(op, "__doc__", None)
    return method


Tensor.__getattr__ = _delegate  # type: ignore[attr-defined]
del _n, _f, _fn, _v
