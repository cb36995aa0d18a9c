"""MindSpore 2.10's Tensor method set, added to :class:`~mindjax.common.tensor.Tensor`.

The methods whose MindSpore signature or result differs from the functional op
of the same name are written here on ``jax.numpy``; the rest of MindSpore's
Tensor API (``_MINDSPORE_METHODS``) resolves to the functional op of the same
name in :mod:`mindjax.ops`, called with the Tensor as its first argument.
Every result goes through the same boundary as the ops: a Tensor for user
code, a ``jax.Array`` inside MindJAX.
"""
from __future__ import annotations

import functools
import importlib
from typing import Any, Callable, Sequence
from builtins import any as builtin_any, max as builtin_max, min as builtin_min, type as builtin_type

import jax
import jax.numpy as jnp
import numpy as np

from mindjax.common.casting import cast_array
from mindjax.common.dtype import to_jax_dtype, to_ms_dtype
from mindjax.common.precision import active_policy, run_as
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
    """MindSpore spells the reduction axis ``axis`` (Tensor API) or ``dim`` (mint API); an empty
    axis (``()``, ``[]``) reduces every axis, as MindSpore's Reduce primitives do."""
    axis = dim if axis is None else axis
    if isinstance(axis, list):
        axis = tuple(axis)
    if axis == ():
        return None
    return axis


def _keep(keepdims: Any, keep_dims: Any, keepdim: Any) -> bool:
    return bool(keepdims or keep_dims or keepdim)


def _int64() -> Any:
    return jnp.int64 if jax.config.jax_enable_x64 else jnp.int32


def _bind(op: str, names: tuple[str, ...], args: tuple, kwargs: dict,
          defaults: dict[str, Any] | None = None) -> tuple[Any, ...]:
    """``args``/``kwargs`` bound to the parameters ``names`` of ``Tensor.<op>``, as Python binds them."""
    if len(args) > len(names):
        raise TypeError(f"Tensor.{op}() takes {len(names)} arguments ({', '.join(names)}), got {len(args)}")
    bound = dict(defaults or {})
    bound.update(zip(names, args))
    for n, v in kwargs.items():
        if n not in names:
            raise TypeError(f"Tensor.{op}() got an unexpected keyword argument '{n}'")
        if n in names[:len(args)]:
            raise TypeError(f"Tensor.{op}() got multiple values for argument '{n}'")
        bound[n] = v
    missing = [n for n in names if n not in bound]
    if missing:
        raise TypeError(f"Tensor.{op}() missing required argument(s): {', '.join(repr(n) for n in missing)}")
    return tuple(bound[n] for n in names)


def _one_of(op: str, *named: tuple[str, Any]) -> Any:
    """The one argument given among MindSpore's alternative names for it (``('other', v), ('x', w)``)."""
    given = [(n, v) for n, v in named if v is not None]
    if len(given) != 1:
        names = " or ".join(f"'{n}'" for n, _ in named)
        raise TypeError(f"Tensor.{op}() takes exactly one of {names}, got {len(given)}")
    return given[0][1]


def _method(fn: Callable[..., Any], name: str | None = None) -> None:
    fn.__name__ = name or fn.__name__
    fn.__qualname__ = f"Tensor.{fn.__name__}"
    setattr(Tensor, fn.__name__, fn)



def _as_primitive(prim: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """The method runs as MindSpore's Primitive ``prim`` under mixed precision (its Tensor inputs,
    this Tensor included, cast by the active policy's rule)."""

    def decorate(method: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(method)
        def wrapper(self: Tensor, *args: Any, **kwargs: Any) -> Any:
            if active_policy() is None:
                return method(self, *args, **kwargs)
            return run_as(prim, lambda x, *a, **k: method(Tensor._wrap(x), *a, **k), self._value, *args, **kwargs)
        return wrapper
    return decorate


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


def flatten(self: Tensor, *args: Any, **kwargs: Any) -> Tensor:
    """Dimensions ``start_dim`` .. ``end_dim`` merged into one (all by default).

    MindSpore 2.10's two overloads: ``flatten(start_dim=0, end_dim=-1)`` and
    ``flatten(order='C', *, start_dim=0, end_dim=-1)`` (``order='F'`` reads the data column-major)."""
    order = kwargs.pop("order", "C")
    if args and isinstance(args[0], str):
        order, args = args[0], args[1:]
        if args:
            raise TypeError(f"For 'Tensor.flatten', after 'order' only the keywords 'start_dim' and 'end_dim' "
                            f"are taken, got {len(args)} more positional argument(s)")
    if len(args) > 2:
        raise TypeError(f"For 'Tensor.flatten', at most 2 positional arguments (start_dim, end_dim) are taken, "
                        f"got {len(args)}")
    names = ("start_dim", "end_dim")
    dims = {"start_dim": 0, "end_dim": -1}
    for n, v in zip(names, args):
        if n in kwargs:
            raise TypeError(f"For 'Tensor.flatten', '{n}' is given both positionally and as a keyword")
        dims[n] = v
    for n in list(kwargs):
        if n not in names:
            raise TypeError(f"Tensor.flatten() got an unexpected keyword argument '{n}'")
        dims[n] = kwargs.pop(n)
    for n, v in dims.items():
        if isinstance(v, bool) or not isinstance(v, (int, np.integer)):
            raise TypeError(f"For 'Tensor.flatten', '{n}' must be an int, got {builtin_type(v).__name__}")
    if order not in ("C", "F"):
        raise ValueError(f"For 'Tensor.flatten', the parameter 'order' must be 'C' or 'F', but got '{order}'")
    x = self._value
    if x.ndim == 0:
        return _out(x.reshape(1))
    start, end = int(dims["start_dim"]) % x.ndim, int(dims["end_dim"]) % x.ndim
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


def expand_as(self: Tensor, other: Any = None, *, x: Any = None) -> Tensor:
    """The data broadcast to ``other``'s shape (MindSpore 2.10 also names it ``x``)."""
    other = _one_of("expand_as", ("other", other), ("x", x))
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
    """The data cast to ``dtype`` (its gradient the identity, to integer dtypes too, as MindSpore's)."""
    return _out(cast_array(self._value, to_jax_dtype(dtype)))


def to(self: Tensor, dtype: Any = None, *args: Any, **kwargs: Any) -> Tensor:
    """The data cast to ``dtype`` (devices are ignored)."""
    if dtype is None or isinstance(dtype, str) and dtype.lower() in ("cpu", "gpu", "cuda", "npu", "ascend"):
        dtype = kwargs.get("dtype", args[0] if args else None)
        if dtype is None:
            return self
    return _out(cast_array(self._value, to_jax_dtype(dtype)))


def type(self: Tensor, dtype: Any = None) -> Any:  # noqa: A001 (MindSpore's name)
    """The dtype's name (``'Float32'``), or the data cast to ``dtype``."""
    if dtype is None:
        return str(self.dtype)
    return astype(self, dtype)


def type_as(self: Tensor, other: Any) -> Tensor:
    """The data cast to ``other``'s dtype."""
    return _out(cast_array(self._value, as_array(other).dtype))


def _caster(name: str, dtype: Any) -> None:
    def cast(self: Tensor) -> Tensor:
        return _out(cast_array(self._value, dtype))
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


@_as_primitive("SumExt")
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


@_as_primitive("ProdExt")
def prod(self: Tensor, axis: Any = None, keep_dims: bool = False, dtype: Any = None, *, dim: Any = None,
         keepdim: bool = False) -> Tensor:
    """The product over ``axis`` (all axes by default)."""
    x = self._value
    out = jnp.prod(x, axis=_axis(axis, dim), keepdims=keep_dims or keepdim)
    return _out(out.astype(to_jax_dtype(dtype)) if dtype is not None else out)


_NUMPY_MIN_MAX_KW = frozenset(("axis", "keepdims", "initial", "where", "return_indices"))


def _min_max_mask(name: str, x: Any, initial: Any, where: Any, cmp: Any) -> Any:
    """MindSpore's ``initial``/``where`` rule: ``cmp(x, initial)``, then ``initial`` where ``where`` is False."""
    if initial is not None:
        if isinstance(initial, Tensor):
            initial = as_array(initial)
            if initial.ndim:
                raise TypeError(f"For 'Tensor.{name}', 'initial' must be a scalar, but got a Tensor of shape "
                                f"{tuple(initial.shape)}.")
        elif not isinstance(initial, (int, float, bool)):
            raise TypeError(f"For 'Tensor.{name}', 'initial' must be a scalar, but got {builtin_type(initial).__name__}.")
        fill = jnp.asarray(initial, x.dtype)
        x = cmp(x, fill)
    if where is None:
        return x
    mask = as_array(where).astype(jnp.bool_) if isinstance(where, Tensor) else jnp.asarray(where, jnp.bool_)
    if mask.ndim == 0 and isinstance(where, (bool, np.bool_)) and where:
        return x
    if initial is None:
        raise ValueError(f"For 'Tensor.{name}', 'initial' must be given with a 'where' mask.")
    return jnp.where(jnp.broadcast_to(mask, x.shape), x, fill)


def _min_max(self: Tensor, name: str, fn: Any, arg: Any, cmp: Any, args: tuple[Any, ...],
             kwargs: dict[str, Any]) -> Any:
    """MindSpore 2.10's overloads of ``Tensor.max``/``Tensor.min``:

    - ``max()``: the maximum of all elements;
    - ``max(dim, keepdim=False)`` with an int ``dim`` -> ``(values, indices)``;
    - with any of the numpy-style keywords ``axis``, ``keepdims``, ``initial``, ``where``, ``return_indices``
      (or a None/tuple first argument): ``max(axis=None, keepdims=False, *, initial=None, where=True,
      return_indices=False)`` -> values, and ``(values, indices)`` only with ``return_indices=True``.
      There, ``axis=None`` reduces everything to a 0-d value (``keepdims``, ``initial`` and ``where``
      unused, index 0), and a tuple axis gives the values alone.
    """
    unknown = sorted(set(kwargs) - _NUMPY_MIN_MAX_KW - {"dim", "keepdim"})
    if unknown:
        raise TypeError(f"Tensor.{name}() got an unexpected keyword argument '{unknown[0]}'.")
    if len(args) > 2:
        raise TypeError(f"Tensor.{name}() takes at most 2 positional arguments (dim, keepdim), but "
                        f"{len(args)} were given.")
    numpy_kw = sorted(_NUMPY_MIN_MAX_KW & set(kwargs))
    torch_kw = sorted({"dim", "keepdim"} & set(kwargs))
    if numpy_kw and torch_kw:
        raise TypeError(f"Tensor.{name}() got '{torch_kw[0]}' with '{numpy_kw[0]}': use (dim, keepdim) or "
                        f"(axis, keepdims, initial, where, return_indices), not both.")
    x = self._value
    first = args[0] if args else kwargs.get("dim")
    if not numpy_kw and (args or torch_kw) and not (args and (first is None or isinstance(first, (tuple, list)))):
        if isinstance(first, Tensor):
            first = as_array(first)
            if first.ndim or not jnp.issubdtype(first.dtype, jnp.integer):
                raise TypeError(f"Tensor.{name}(dim, keepdim): 'dim' must be an int, but got a Tensor of shape "
                                f"{tuple(first.shape)} and dtype {to_ms_dtype(first.dtype)}.")
            first = int(first)
        if isinstance(first, bool) or not isinstance(first, (int, np.integer)):
            raise TypeError(f"Tensor.{name}(dim, keepdim): 'dim' must be an int, but got "
                            f"{builtin_type(first).__name__}.")
        keep = bool(args[1] if len(args) > 1 else kwargs.get("keepdim", False))
        ndim = builtin_max(x.ndim, 1)
        if not -ndim <= first < ndim:
            raise ValueError(f"Tensor.{name}(dim, keepdim): 'dim' must be in [{-ndim}, {ndim}), but got {first}.")
        if x.ndim == 0:
            return _out(x), _out(jnp.asarray(0, _int64()))
        return (_out(fn(x, axis=int(first), keepdims=keep)),
                _out(arg(x, axis=int(first), keepdims=keep).astype(_int64())))
    bound = dict(zip(("axis", "keepdims"), args))
    bound.update(kwargs)
    axis, keep = bound.get("axis"), bool(bound.get("keepdims", False))
    want_indices = bool(bound.get("return_indices", False))
    if axis is None or x.ndim == 0:
        values = _out(fn(x))
        return (values, _out(jnp.asarray(0, _int64()))) if want_indices else values
    x = _min_max_mask(name, x, bound.get("initial"), bound.get("where", True), cmp)
    if isinstance(axis, (tuple, list)):
        return _out(fn(x, axis=tuple(int(a) for a in axis), keepdims=keep))
    if isinstance(axis, bool) or not isinstance(axis, (int, np.integer)):
        raise TypeError(f"For 'Tensor.{name}', 'axis' must be an int, a tuple of ints or None, but got "
                        f"{builtin_type(axis).__name__}.")
    values = _out(fn(x, axis=int(axis), keepdims=keep))
    if not want_indices:
        return values
    return values, _out(arg(x, axis=int(axis), keepdims=keep).astype(_int64()))


def max(self: Tensor, *args: Any, **kwargs: Any) -> Any:  # noqa: A001
    """The maximum: of all elements, ``(values, indices)`` for ``max(dim, keepdim)``, or values alone with
    the numpy-style keywords ``axis``/``keepdims``/``initial``/``where`` (MindSpore 2.10's overloads)."""
    return _min_max(self, "max", jnp.max, jnp.argmax, jnp.maximum, args, kwargs)


def min(self: Tensor, *args: Any, **kwargs: Any) -> Any:  # noqa: A001
    """The minimum: of all elements, ``(values, indices)`` for ``min(dim, keepdim)``, or values alone with
    the numpy-style keywords ``axis``/``keepdims``/``initial``/``where`` (MindSpore 2.10's overloads)."""
    return _min_max(self, "min", jnp.min, jnp.argmin, jnp.minimum, args, kwargs)


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


def _variance(x: Any, axis: Any, ddof: Any, keepdims: bool) -> Any:
    """The variance as MindSpore 2.10's Tensor.var/std: integer data is centred on its integer
    (truncated) mean, as ``Tensor.mean`` gives it, then reduced in Float32."""
    if x.dtype == jnp.bool_ or jnp.issubdtype(x.dtype, jnp.integer):
        centre = jnp.trunc(jnp.mean(x, axis=axis, keepdims=True))
        dev = x.astype(jnp.float32) - centre.astype(jnp.float32)
        n = x.size if axis is None else int(np.prod([x.shape[a] for a in ((axis,) if isinstance(axis, int) else axis)]))
        return jnp.sum(dev * dev, axis=axis, keepdims=keepdims) / (n - ddof)
    return jnp.var(x, axis=axis, ddof=ddof, keepdims=keepdims)


def std(self: Tensor, axis: Any = None, ddof: int = 0, keepdims: bool = False, *, dim: Any = None,
        correction: Any = None, keepdim: bool = False) -> Tensor:
    """The standard deviation over ``axis`` (``ddof`` 0 by default, as MindSpore's Tensor.std)."""
    ddof = correction if correction is not None else ddof
    return _out(jnp.sqrt(_variance(self._value, _axis(axis, dim), ddof, keepdims or keepdim)))


def var(self: Tensor, axis: Any = None, ddof: int = 0, keepdims: bool = False, *, dim: Any = None,
        correction: Any = None, keepdim: bool = False) -> Tensor:
    """The variance over ``axis`` (``ddof`` 0 by default, as MindSpore's Tensor.var)."""
    ddof = correction if correction is not None else ddof
    return _out(_variance(self._value, _axis(axis, dim), ddof, keepdims or keepdim))


def all(self: Tensor, axis: Any = None, keep_dims: bool = False, *, dim: Any = None,
        keepdim: bool = False) -> Tensor:  # noqa: A001
    """True where every element over ``axis`` is non-zero."""
    return _out(jnp.all(self._value, axis=_axis(axis, dim), keepdims=keep_dims or keepdim))


def any(self: Tensor, axis: Any = None, keep_dims: bool = False, *, dim: Any = None,
        keepdim: bool = False) -> Tensor:  # noqa: A001
    """True where some element over ``axis`` is non-zero."""
    return _out(jnp.any(self._value, axis=_axis(axis, dim), keepdims=keep_dims or keepdim))


def _scan_dtype(x: Any, dtype: Any, small_int: Any) -> Any:
    """MindSpore 2.10's scan result dtype: ``dtype``, else ``small_int`` for bool and integers below 64 bits."""
    if dtype is not None:
        return to_jax_dtype(dtype)
    if x.dtype == jnp.bool_ or (jnp.issubdtype(x.dtype, jnp.integer) and x.dtype.itemsize < 8):
        return small_int
    return None


@_as_primitive("CumsumExt")
def cumsum(self: Tensor, axis: Any = None, dtype: Any = None, *, dim: Any = None) -> Tensor:
    """The running sum along ``axis`` (flattened by default); bool and small integers sum as Int32."""
    x = self._value
    return _out(jnp.cumsum(x, axis=_axis(axis, dim), dtype=_scan_dtype(x, dtype, jnp.int32)))


@_as_primitive("CumProd")
def cumprod(self: Tensor, dim: int, dtype: Any = None) -> Tensor:
    """The running product along ``dim``; bool and small integers multiply as Int64."""
    x = self._value
    return _out(jnp.cumprod(x, axis=dim, dtype=_scan_dtype(x, dtype, _int64())))


@_as_primitive("Norm")
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
        if int(np.sum(sizes)) != n:
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


def gather(self: Tensor, *args: Any, **kwargs: Any) -> Tensor:
    """MindSpore 2.10's two overloads: ``gather(dim, index)`` (elements at ``index`` along ``dim``, as
    :meth:`gather_elements`) and ``gather(input_indices, axis, batch_dims=0)`` (slices, as ops.gather)."""
    ext = bool({"dim", "index"} & kwargs.keys()) or (
        not {"input_indices", "axis", "batch_dims"} & kwargs.keys() and bool(args)
        and not isinstance(args[0], (Tensor, jax.Array, np.ndarray, list, tuple)))
    if ext:
        dim, index = _bind("gather", ("dim", "index"), args, kwargs)
        return _ops().gather_elements(self, dim, index)
    input_indices, axis, batch_dims = _bind("gather", ("input_indices", "axis", "batch_dims"), args, kwargs,
                                            defaults={"batch_dims": 0})
    return _ops().gather(self, input_indices, axis, batch_dims)


def index_select(self: Tensor, *args: Any, **kwargs: Any) -> Tensor:
    """Slices at the 1-D ``index`` along ``dim`` (``index_select(dim, index)``; MindSpore 2.10 also
    names the dimension ``axis``)."""
    if "axis" in kwargs:
        if "dim" in kwargs:
            raise TypeError("For 'Tensor.index_select', give 'dim' or 'axis', not both")
        kwargs["dim"] = kwargs.pop("axis")
    dim, index = _bind("index_select", ("dim", "index"), args, kwargs)
    return _out(jnp.take(self._value, as_array(index), axis=dim))


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
    """Values limited to ``[min, max]`` (at least one given; MindSpore 2.10 refuses bool input and bounds)."""
    x = self._value
    if min is None and max is None:
        raise ValueError("For Clamp, at least one of 'min' or 'max' must not be None.")
    if x.dtype == jnp.bool_ or builtin_any(isinstance(b, bool) or (isinstance(b, Tensor) and b._value.dtype == jnp.bool_)
                                   for b in (min, max)):
        raise ValueError("For Clamp, the dtype of 'input', 'min' and 'max' must not be bool.")
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


@_as_primitive("Softmax")
def softmax(self: Tensor, axis: int = -1, dtype: Any = None) -> Tensor:
    """The softmax along ``axis``."""
    x = _float_default(self._value)
    return _out(jax.nn.softmax(x.astype(to_jax_dtype(dtype)) if dtype else x, axis=axis))


@_as_primitive("LogSoftmax")
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


def scatter(self: Tensor, *args: Any, reduce: Any = None, **kwargs: Any) -> Tensor:
    """``src`` (a Tensor or a number ``value``) written at ``index`` along ``dim`` (MindSpore 2.10's
    ``scatter(dim, index, src)``, ``scatter(dim, index, value)``, the deprecated ``scatter(axis, index, src)``;
    ``reduce`` 'add' or 'multiply' combines instead of writing)."""
    x = self._value
    if "axis" in kwargs:
        if "dim" in kwargs:
            raise TypeError("For 'Tensor.scatter', give 'dim' or 'axis', not both")
        kwargs["dim"] = kwargs.pop("axis")
    if "value" in kwargs:
        if "src" in kwargs:
            raise TypeError("For 'Tensor.scatter', give 'src' or 'value', not both")
        kwargs["src"] = kwargs.pop("value")
    axis, index, src = _bind("scatter", ("dim", "index", "src"), args, kwargs)
    idx = as_array(index)
    src = as_array(src).astype(x.dtype)
    if src.ndim == idx.ndim and src.ndim:  # a src larger than index is read at index's positions only
        src = src[tuple(slice(0, n) for n in idx.shape)]
    values = jnp.broadcast_to(src, idx.shape)
    grids = list(jnp.meshgrid(*[jnp.arange(n) for n in idx.shape], indexing="ij"))
    grids[axis] = idx
    where = tuple(grids)
    if reduce == "add":
        return _out(x.at[where].add(values))
    if reduce == "multiply":
        return _out(x.at[where].multiply(values))
    return _out(x.at[where].set(values))


# --- elementwise math --------------------------------------------------------------------------------------

# The methods that stand for a Primitive of MindSpore's 'auto' mixed-precision lists.
_AMP_NAMES = {"exp": "Exp", "expm1": "Expm1", "log": "Log", "log2": "Log2", "log10": "Log10", "log1p": "Log1p",
              "rsqrt": "Rsqrt", "tan": "Tan", "asin": "Asin", "arcsin": "Asin", "acos": "ACos", "arccos": "ACos",
              "sinh": "Sinh", "cosh": "Cosh", "erfinv": "Erfinv", "reciprocal": "Reciprocal", "matmul": "MatMulExt",
              "mm": "MatMulExt", "bmm": "BatchMatMulExt", "mv": "Mv", "dot": "Dot", "pow": "Pow"}


def _unary(name: str, fn: Callable[[Any], Any], to_float: bool = False) -> None:
    amp = _AMP_NAMES.get(name)

    def method(self: Tensor) -> Tensor:
        x = self._value
        x = _float_default(x) if to_float else x
        return _out(fn(x) if amp is None else run_as(amp, fn, x))
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


# MindSpore 2.10's other keyword names of a binary method's operand (its deprecated overloads' names).
_BINARY_ALIASES = {"sub": "y", "remainder": "divisor", "pow": "exponent", "matmul": "tensor2", "mm": "mat2",
                   "outer": "vec2"}
# The products: their operand must be a Tensor (MindSpore 2.10 refuses a Python number).
_TENSOR_OPERAND = frozenset({"matmul", "mm", "bmm", "mv", "inner", "outer", "kron", "dot", "vdot"})


def _binary_method(name: str, fn: Callable[[Any, Any], Any]) -> None:
    amp = _AMP_NAMES.get(name)
    alias = _BINARY_ALIASES.get(name)

    def method(self: Tensor, other: Any = None, *args: Any, **kwargs: Any) -> Tensor:
        if alias is not None and alias in kwargs:
            if other is not None:
                raise TypeError(f"For 'Tensor.{name}', give 'other' or '{alias}', not both")
            other = kwargs.pop(alias)
        if other is None:
            raise TypeError(f"Tensor.{name}() missing 1 required argument: 'other'"
                            + (f" (or '{alias}')" if alias else ""))
        if name in _TENSOR_OPERAND and not isinstance(other, (Tensor, jax.Array, np.ndarray)):
            raise TypeError(f"For 'Tensor.{name}', 'other' must be a Tensor, got {builtin_type(other).__name__}")
        alpha = kwargs.pop("alpha", args[0] if args else None)
        b = as_array(other) if not isinstance(other, (int, float, bool)) else other
        if alpha is not None:
            b = b * alpha
        a, b = _promote(self._value, b)
        return _out(fn(a, b) if amp is None else run_as(amp, fn, a, b))
    method.__doc__ = f"Elementwise {name} with ``other``."
    _method(method, name)


_BINARY = {
    "add": jnp.add, "sub": jnp.subtract, "subtract": jnp.subtract, "mul": jnp.multiply, "multiply": jnp.multiply,
    "true_divide": _true_divide, "floor_divide": jnp.floor_divide, "fmod": jnp.fmod,
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


def divide(self: Tensor, value: Any, *, rounding_mode: Any = None) -> Tensor:
    """MindSpore's alias of :meth:`div` (``rounding_mode`` included)."""
    return div(self, value, rounding_mode=rounding_mode)


_method(divide)


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


def _fill_key(who: str, generator: Any) -> Any:
    """The key of an in-place random fill: ``generator``'s next one, or the global random state's."""
    if generator is None:
        from mindjax.common.random import next_key

        return next_key()
    from mindjax.common.generator import Generator

    if not isinstance(generator, Generator):
        raise TypeError(f"For '{who}', 'generator' must be a mindspore.Generator or None, but got "
                        f"{builtin_type(generator).__name__}")
    return generator.next_key()


def _number(who: str, name: str, value: Any) -> Any:
    if isinstance(value, Tensor):
        if value.size != 1:
            raise ValueError(f"For '{who}', '{name}' must be a number or a one-element Tensor, but got a Tensor of "
                             f"shape {tuple(value.shape)}")
        return as_array(value).reshape(())
    if isinstance(value, (bool, int, float)) or isinstance(value, (np.number, np.bool_)):
        return value
    raise TypeError(f"For '{who}', '{name}' must be a number or a Tensor, but got {builtin_type(value).__name__}")


def uniform_(self: Tensor, from_: float = 0, to: float = 1, *, generator: Any = None) -> Tensor:
    """Fill in place with uniform samples in ``[from_, to)`` (``generator``'s, or the global random state)."""
    lo, hi = _number("uniform_", "from_", from_), _number("uniform_", "to", to)
    if not isinstance(lo, jax.Array) and not isinstance(hi, jax.Array) and lo > hi:
        raise RuntimeError(f"For 'uniform_', 'from_' must not be larger than 'to', but got from_={from_}, to={to}")
    raw = self._value
    sample_dtype = _float_default(jnp.zeros((), raw.dtype)).dtype
    draw = jax.random.uniform(_fill_key("uniform_", generator), raw.shape, sample_dtype, lo, hi)
    self._write(draw.astype(raw.dtype))
    return self


def normal_(self: Tensor, mean: float = 0, std: float = 1, *, generator: Any = None) -> Tensor:
    """Fill in place with normal samples (``generator``'s, or the global random state)."""
    mean, std = _number("normal_", "mean", mean), _number("normal_", "std", std)
    raw = self._value
    sample_dtype = _float_default(jnp.zeros((), raw.dtype)).dtype
    draw = jax.random.normal(_fill_key("normal_", generator), raw.shape, sample_dtype)
    self._write((mean + std * draw).astype(raw.dtype))
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


# --- methods whose MindSpore signature differs from the op of the same name -----------------------------

def argmax_with_value(self: Tensor, axis: int = 0, keep_dims: bool = False) -> tuple[Tensor, Tensor]:
    """``(values, indices)`` of the maximum along ``axis`` (indices Int64, as MindSpore 2.10's method)."""
    x = self._value
    return (_out(jnp.max(x, axis=axis, keepdims=keep_dims)),
            _out(jnp.argmax(x, axis=axis, keepdims=keep_dims).astype(_int64())))


def argmin_with_value(self: Tensor, axis: int = 0, keep_dims: bool = False) -> tuple[Tensor, Tensor]:
    """``(values, indices)`` of the minimum along ``axis`` (indices Int64, as MindSpore 2.10's method)."""
    x = self._value
    return (_out(jnp.min(x, axis=axis, keepdims=keep_dims)),
            _out(jnp.argmin(x, axis=axis, keepdims=keep_dims).astype(_int64())))


def clone(self: Tensor) -> Tensor:
    """A new Tensor with a copy of the data."""
    return _out(jnp.array(self._value, copy=True))


def count_nonzero(self: Tensor, axis: Any = (), keep_dims: bool = False, dtype: Any = None, *,
                  dim: Any = None) -> Tensor:
    """The number of non-zero elements over ``axis``/``dim`` (all by default), Int32 (or ``dtype``)."""
    ax = _axis(None if axis == () else axis, dim)
    out = jnp.count_nonzero(self._value, axis=ax, keepdims=keep_dims)
    return _out(out.astype(to_jax_dtype(dtype) if dtype is not None else jnp.int32))


def diag(self: Tensor, diagonal: int = 0) -> Tensor:
    """The diagonal Tensor of rank ``2k`` with this rank-``k`` Tensor on its diagonal (MindSpore's ops.diag)."""
    if diagonal != 0:
        raise ValueError(f"For 'Tensor.diag', the argument 'diagonal' should be '0', but got {diagonal}.")
    x = self._value
    return _out(jnp.diag(jnp.ravel(x)).reshape(tuple(x.shape) * 2))


def diagonal(self: Tensor, offset: int = 0, axis1: int = 0, axis2: int = 1, *, dim1: Any = None,
             dim2: Any = None) -> Tensor:
    """The ``offset``-th diagonal over ``axis1`` and ``axis2``, moved to the last axis."""
    a1 = axis1 if dim1 is None else dim1
    a2 = axis2 if dim2 is None else dim2
    return _out(jnp.diagonal(self._value, offset, a1, a2))


def _fill_diagonal(x: Any, fill_value: Any, wrap: bool) -> Any:
    if x.ndim < 2:
        raise ValueError(f"For 'Tensor.fill_diagonal_', the input must have at least 2 dimensions, got {x.ndim}")
    if x.ndim > 2 and len(set(x.shape)) != 1:
        raise ValueError(f"For 'Tensor.fill_diagonal_', all dimensions must be equal when the input has more "
                         f"than 2 dimensions, got shape {tuple(x.shape)}")
    rows, cols = x.shape[0], x.shape[1]
    if x.ndim == 2:
        n = rows if wrap and rows > cols else builtin_min(rows, cols)
        r = np.arange(n)
        if wrap and rows > cols:
            # numpy's wrap: the diagonal restarts every cols + 1 rows
            flat = np.arange(0, rows * cols, cols + 1)
            r, c = flat // cols, flat % cols
        else:
            c = r
        return x.at[r, c].set(jnp.asarray(fill_value, x.dtype))
    r = np.arange(rows)
    return x.at[(r,) * x.ndim].set(jnp.asarray(fill_value, x.dtype))


def fill_diagonal(self: Tensor, fill_value: Any, wrap: bool = False) -> Tensor:
    """A copy with the main diagonal set to ``fill_value`` (``wrap`` restarts it in tall matrices)."""
    return _out(_fill_diagonal(self._value, fill_value, wrap))


def fill_diagonal_(self: Tensor, fill_value: Any, wrap: bool = False) -> Tensor:
    """In-place :meth:`fill_diagonal`."""
    self._write(_fill_diagonal(self._value, fill_value, wrap))
    return self


def index_add(self: Tensor, *args: Any, **kwargs: Any) -> Tensor:
    """``index_add(dim, index, source, *, alpha=1)``, or ``index_add(indices, y, axis, ...)`` (ops.index_add)."""
    x = self._value
    if (args and isinstance(args[0], int) and not isinstance(args[0], bool)) or "dim" in kwargs:
        names = ("dim", "index", "source")
        b = dict(zip(names, args))
        b.update(kwargs)
        idx, src = as_array(b["index"]), as_array(b["source"]) * b.get("alpha", 1)
        ax = b["dim"] % x.ndim
        where = (slice(None),) * ax + (idx,)
        return _out(x.at[where].add(src.astype(x.dtype)))
    return _ops().index_add(self, *args, **kwargs)


def _index_copy(x: Any, dim: int, index: Any, tensor: Any) -> Any:
    ax = dim % x.ndim
    return x.at[(slice(None),) * ax + (as_array(index),)].set(as_array(tensor).astype(x.dtype))


def index_copy_(self: Tensor, dim: int, index: Any, tensor: Any) -> Tensor:
    """Write the slices of ``tensor`` at ``index`` along ``dim``, in place."""
    self._write(_index_copy(self._value, dim, index, tensor))
    return self


def _index_put(x: Any, indices: Any, values: Any, accumulate: bool) -> Any:
    where = tuple(as_array(i) for i in indices)
    v = as_array(values).astype(x.dtype)
    return x.at[where].add(v) if accumulate else x.at[where].set(v)


def index_put(self: Tensor, indices: Any, values: Any, accumulate: bool = False) -> Tensor:
    """``values`` written (or added, ``accumulate=True``) at the index tuple ``indices``."""
    return _out(_index_put(self._value, indices, values, accumulate))


def index_put_(self: Tensor, indices: Any, values: Any, accumulate: bool = False) -> Tensor:
    """In-place :meth:`index_put`."""
    self._write(_index_put(self._value, indices, values, accumulate))
    return self


def is_signed(self: Tensor) -> bool:
    """True for signed dtypes (signed integers, floats, complex)."""
    d = np.dtype(self._value.dtype)
    return d.kind in "ifc" or self._value.dtype == jnp.bfloat16


def is_floating_point(self: Tensor) -> bool:
    """True for floating-point dtypes."""
    return bool(jnp.issubdtype(self._value.dtype, jnp.floating))


def is_complex(self: Tensor) -> bool:
    """True for complex dtypes."""
    return bool(jnp.issubdtype(self._value.dtype, jnp.complexfloating))


def kthvalue(self: Tensor, k: int, dim: int = -1, keepdim: bool = False) -> tuple[Tensor, Tensor]:
    """``(values, indices)`` of the ``k``-th smallest element along ``dim`` (indices Int64)."""
    x = self._value
    order = jnp.argsort(x, axis=dim, stable=True)
    idx = jnp.take(order, jnp.asarray([k - 1]), axis=dim)
    values = jnp.take_along_axis(x, idx, axis=dim)
    if not keepdim:
        values, idx = jnp.squeeze(values, dim), jnp.squeeze(idx, dim)
    return _out(values), _out(idx.astype(_int64()))


def _masked_scatter(x: Any, mask: Any, source: Any) -> Any:
    m = np.broadcast_to(np.asarray(as_array(mask)), x.shape).reshape(-1)
    src = jnp.ravel(as_array(source))
    pos = np.nonzero(m)[0]
    if pos.size > src.shape[0]:
        raise ValueError(f"For 'Tensor.masked_scatter', 'source' has {src.shape[0]} elements but the mask "
                         f"selects {pos.size}")
    flat = jnp.ravel(x).at[pos].set(src[:pos.size].astype(x.dtype))
    return flat.reshape(x.shape)


def masked_scatter(self: Tensor, mask: Any, source: Any) -> Tensor:
    """The elements of ``source``, in order, written where ``mask`` is True."""
    return _out(_masked_scatter(self._value, mask, source))


def ptp(self: Tensor, axis: Any = None, keepdims: bool = False) -> Tensor:
    """The range (maximum - minimum) over ``axis``."""
    return _out(jnp.ptp(self._value, axis=_axis(axis, None), keepdims=keepdims))


def _put(x: Any, index: Any, source: Any, accumulate: bool) -> Any:
    flat = jnp.ravel(x)
    idx = jnp.ravel(as_array(index))
    src = jnp.ravel(as_array(source)).astype(x.dtype)
    flat = flat.at[idx].add(src) if accumulate else flat.at[idx].set(src)
    return flat.reshape(x.shape)


def put_(self: Tensor, index: Any, source: Any, accumulate: bool = False) -> Tensor:
    """Write ``source`` at the flat positions ``index``, in place (added with ``accumulate``)."""
    self._write(_put(self._value, index, source, accumulate))
    return self


def qr(self: Tensor, some: bool = True) -> tuple[Tensor, Tensor]:
    """``(Q, R)``: reduced when ``some`` (the default), complete otherwise."""
    q, r = jnp.linalg.qr(_float_default(self._value), mode="reduced" if some else "complete")
    return _out(q), _out(r)


def repeat_interleave(self: Tensor, repeats: Any, dim: Any = None, *, output_size: Any = None) -> Tensor:
    """Each element repeated ``repeats`` times along ``dim`` (flattened when None)."""
    r = np.asarray(as_array(repeats)) if isinstance(repeats, (Tensor, list, tuple)) else repeats
    return _out(jnp.repeat(self._value, r, axis=dim, total_repeat_length=output_size))


def resize(self: Tensor, *new_shape: Any) -> Tensor:
    """A Tensor of ``new_shape`` from the data, cut or padded with zeros (numpy's ``ndarray.resize``)."""
    shape = _shape_args(new_shape)
    flat = jnp.ravel(self._value)
    n = int(np.prod(shape)) if shape else 1
    flat = flat[:n] if flat.shape[0] >= n else jnp.concatenate([flat, jnp.zeros(n - flat.shape[0], flat.dtype)])
    return _out(flat.reshape(shape))


def reverse_sequence(self: Tensor, seq_lengths: Any, seq_dim: int = 0, batch_dim: int = 0) -> Tensor:
    """The first ``seq_lengths[b]`` elements along ``seq_dim`` reversed, for each batch ``b``."""
    return _ops().reverse_sequence(self, seq_lengths, seq_dim, batch_dim)


def _scatter_dim(x: Any, dim: int, index: Any, src: Any, how: str) -> Any:
    idx = as_array(index)
    values = as_array(src)
    values = values[tuple(slice(0, n) for n in idx.shape)] if values.ndim else jnp.broadcast_to(values, idx.shape)
    grids = list(jnp.meshgrid(*[jnp.arange(n) for n in idx.shape], indexing="ij"))
    grids[dim % x.ndim] = idx
    ref = x.at[tuple(grids)]
    return ref.add(values.astype(x.dtype)) if how == "add" else ref.set(values.astype(x.dtype))


def scatter_add(self: Tensor, *args: Any, **kwargs: Any) -> Tensor:
    """``scatter_add(dim, index, src)`` (torch style), or ``scatter_add(indices, updates)`` (ops.scatter_add)."""
    if (args and isinstance(args[0], int) and not isinstance(args[0], bool)) or "dim" in kwargs:
        b = dict(zip(("dim", "index", "src"), args))
        b.update(kwargs)
        return _out(_scatter_dim(self._value, b["dim"], b["index"], b["src"], "add"))
    return _ops().scatter_add(self, *args, **kwargs)


def scatter_add_(self: Tensor, dim: int, index: Any, src: Any) -> Tensor:
    """In-place ``scatter_add(dim, index, src)``."""
    self._write(_scatter_dim(self._value, dim, index, src, "add"))
    return self


def _tensor_scatter(name: str) -> None:
    def method(self: Tensor, indices: Any, updates: Any) -> Tensor:
        return getattr(_ops(), f"tensor_{name}")(self, indices, updates)
    method.__doc__ = (f"``updates`` combined ({name[8:]}) at the index vectors in the last axis of ``indices`` "
                      f"(MindSpore's Tensor.{name} is ops.tensor_{name}).")
    _method(method, name)


for _n in ("scatter_sub", "scatter_div", "scatter_max", "scatter_min", "scatter_mul"):
    _tensor_scatter(_n)


def searchsorted(self: Tensor, v: Any, side: str = "left", sorter: Any = None) -> Tensor:
    """Where ``v``'s elements would be inserted to keep this 1-D Tensor sorted (Int32)."""
    x = self._value
    if sorter is not None:
        x = jnp.take(x, as_array(sorter))
    return _out(jnp.searchsorted(x, as_array(v), side=side).astype(jnp.int32))


def select(self: Tensor, *args: Any, **kwargs: Any) -> Tensor:
    """``select(dim, index)``: the slice at ``index`` along ``dim``; ``select(condition, y)``: ops.select."""
    if (args and isinstance(args[0], int) and not isinstance(args[0], bool)) or "dim" in kwargs:
        b = dict(zip(("dim", "index"), args))
        b.update(kwargs)
        return _out(jnp.take(self._value, int(b["index"]), axis=b["dim"]))
    b = dict(zip(("condition", "y"), args))
    b.update(kwargs)
    return _ops().select(b["condition"], self, b["y"])


def sum_to_size(self: Tensor, *size: Any) -> Tensor:
    """The sum down to ``size`` (which ``self`` broadcasts from)."""
    x = self._value
    shape = _shape_args(size)
    lead = x.ndim - len(shape)
    if lead < 0:
        raise ValueError(f"For 'Tensor.sum_to_size', size {shape} has more dimensions than the input {tuple(x.shape)}")
    out = jnp.sum(x, axis=tuple(range(lead))) if lead else x
    axes = tuple(i for i, s in enumerate(shape) if s == 1 and out.shape[i] != 1)
    return _out(jnp.sum(out, axis=axes, keepdims=True) if axes else out)


def take(self: Tensor, indices: Any, axis: Any = None, mode: Any = None) -> Tensor:
    """Elements at ``indices`` of the flattened data, or along ``axis``.

    Negative indices count from the end; out-of-range ones are clipped (``mode='clip'``, the default)
    or wrapped (``mode='wrap'``), as MindSpore 2.10's ``take(index)`` and ``take(indices, axis, mode)``.
    """
    x = self._value
    idx = as_array(indices)
    if axis is None:
        x, axis = jnp.ravel(x), 0
    if mode in (None, "clip", "raise"):
        n = x.shape[axis]
        return _out(jnp.take(x, jnp.where(idx < 0, idx + n, idx), axis=axis, mode="clip"))
    return _out(jnp.take(x, idx, axis=axis, mode=mode))


def trace(self: Tensor, offset: int = 0, axis1: int = 0, axis2: int = 1, dtype: Any = None) -> Tensor:
    """The sum of the ``offset``-th diagonal over ``axis1`` and ``axis2``."""
    out = jnp.trace(self._value, offset, axis1, axis2)
    return _out(out.astype(to_jax_dtype(dtype)) if dtype is not None else out)


def triangular_solve(self: Tensor, A: Any, upper: bool = True, transpose: bool = False,
                     unitriangular: bool = False) -> tuple[Tensor, Tensor]:
    """``(solution, A)`` of ``A x = self`` for triangular ``A`` (batched)."""
    b = self._value
    a = as_array(A)
    sol = jax.scipy.linalg.solve_triangular(a, b, trans=1 if transpose else 0, lower=not upper,
                                            unit_diagonal=unitriangular)
    return _out(sol), _out(a)


def choose(self: Tensor, choices: Any, mode: str = "clip") -> Tensor:
    """Elements picked from ``choices`` by this index Tensor (numpy's ``choose``)."""
    cs = [as_array(c) for c in choices] if isinstance(choices, (list, tuple)) else list(as_array(choices))
    return _out(jnp.choose(self._value, cs, mode=mode))


def itemset(self: Tensor, *args: Any) -> Tensor:
    """Set one element in place: ``itemset(value)`` for one-element Tensors, ``itemset(index, value)``."""
    x = self._value
    if len(args) == 1:
        self._write(jnp.full(x.shape, args[0], x.dtype))
        return self
    *where, value = args
    where = where[0] if len(where) == 1 else tuple(where)
    if isinstance(where, int):
        where = np.unravel_index(where, x.shape)
    self._write(x.at[tuple(where)].set(jnp.asarray(value, x.dtype)))
    return self


def _random_fill(self: Tensor, who: str, generator: Any, sample: Callable[[Any, tuple[int, ...], Any], Any]) -> Tensor:
    raw = self._value
    self._write(sample(_fill_key(who, generator), tuple(raw.shape), raw.dtype).astype(raw.dtype))
    return self


def bernoulli_(self: Tensor, p: Any = 0.5, *, generator: Any = None) -> Tensor:
    """Fill in place with Bernoulli(``p``) samples (0 or 1); ``p`` a probability or a Tensor of them."""
    prob = as_array(p) if isinstance(p, Tensor) else _number("bernoulli_", "p", p)
    if not isinstance(prob, jax.Array) and not 0 <= prob <= 1:
        raise ValueError(f"For 'bernoulli_', 'p' must be in [0, 1], but got {p}")
    return _random_fill(self, "bernoulli_", generator, lambda k, s, d: jax.random.bernoulli(k, prob, s))


def exponential_(self: Tensor, lambd: float = 1, *, generator: Any = None) -> Tensor:
    """Fill in place with exponential samples of rate ``lambd``."""
    lambd = _number("exponential_", "lambd", lambd)
    if not isinstance(lambd, jax.Array) and lambd <= 0:
        raise ValueError(f"For 'exponential_', 'lambd' must be positive, but got {lambd}")
    return _random_fill(self, "exponential_", generator,
                        lambda k, s, d: jax.random.exponential(k, s, _float_default(jnp.zeros((), d)).dtype) / lambd)


def _random_upper(dtype: Any) -> int:
    """``random_``'s default upper bound: the dtype's largest value (integers exactly representable, for floats),
    within the int range JAX draws from."""
    dtype = np.dtype(dtype)
    limit = int(np.iinfo(dtype).max) if np.issubdtype(dtype, np.integer) else \
        2 ** (jnp.finfo(dtype).nmant + 1) if jnp.issubdtype(dtype, jnp.floating) else 2
    cap = int(np.iinfo(jnp.int64 if jax.config.jax_enable_x64 else jnp.int32).max)
    return limit if limit < cap else cap


def random_(self: Tensor, from_: int = 0, to: Any = None, *, generator: Any = None) -> Tensor:
    """Fill in place with integers uniform in ``[from_, to)`` (``to`` None: the dtype's largest value); each bound
    an int or a one-element integer Tensor."""
    bounds = []
    for name, value in (("from_", from_), ("to", to)):
        if isinstance(value, Tensor) and value.size == 1 and jnp.issubdtype(value._value.dtype, jnp.integer):
            value = int(value._value.reshape(()))
        if value is not None and (not isinstance(value, (int, np.integer)) or isinstance(value, bool)):
            raise TypeError(f"For 'random_', '{name}' must be an int, but got {builtin_type(value).__name__}")
        bounds.append(value)
    lo, hi = bounds[0], (_random_upper(self._value.dtype) if bounds[1] is None else bounds[1])
    if lo >= hi:
        raise ValueError(f"For 'random_', 'from_' must be less than 'to', but got the interval [{lo}, {hi})")
    return _random_fill(self, "random_", generator, lambda k, s, d: jax.random.randint(k, s, lo, hi))


def log_normal(self: Tensor, mean: float = 1.0, std: float = 2.0) -> Tensor:
    """Samples of ``exp(N(mean, std))`` in this Tensor's shape and dtype."""
    from mindjax.common.random import next_key

    x = self._value
    dt = _float_default(x).dtype
    return _out(jnp.exp(mean + std * jax.random.normal(next_key(), x.shape, dt)))


def cauchy(self: Tensor, median: float = 0.0, sigma: float = 1.0) -> Tensor:
    """Samples of the Cauchy distribution in this Tensor's shape and dtype."""
    from mindjax.common.random import next_key

    x = self._value
    dt = _float_default(x).dtype
    return _out(median + sigma * jax.random.cauchy(next_key(), x.shape, dt))


def uniform(self: Tensor, from_: float = 0.0, to: float = 1.0, generator: Any = None) -> Tensor:
    """Samples uniform in ``[from_, to)`` in this Tensor's shape and dtype."""
    from mindjax.common.random import next_key

    x = self._value
    return _out(jax.random.uniform(next_key(), x.shape, _float_default(x).dtype, from_, to))


def orgqr(self: Tensor, input2: Any) -> Tensor:
    """The Q of a QR decomposition from Householder reflectors (``self``) and their scales ``input2``."""
    return _out(jax.lax.linalg.householder_product(self._value, as_array(input2)))


def ormqr(self: Tensor, input2: Any, input3: Any, left: bool = True, transpose: bool = False) -> Tensor:
    """``input3`` multiplied by the Q that :meth:`orgqr` builds from ``self`` and ``input2``."""
    a = self._value
    m = a.shape[-2]
    full = jnp.concatenate([a, jnp.zeros(a.shape[:-1] + (m - a.shape[-1],), a.dtype)], -1) if a.shape[-1] < m else a
    q = jax.lax.linalg.householder_product(full, as_array(input2))
    if transpose:
        q = jnp.conj(jnp.swapaxes(q, -1, -2))
    c = as_array(input3)
    return _out(jnp.matmul(q, c) if left else jnp.matmul(c, q))


def data_ptr(self: Tensor) -> int:
    """The address of the data on its device."""
    return int(self._value.unsafe_buffer_pointer())


def storage_offset(self: Tensor) -> int:
    """0: a MindJAX Tensor owns its whole buffer."""
    return 0


def is_init(self: Tensor) -> bool:
    """False: MindJAX Tensors hold their data from the start."""
    return False


def is_pinned(self: Tensor) -> bool:
    """False: host memory is not pinned."""
    return False


def is_shared(self: Tensor) -> bool:
    """False: the data is not in shared memory."""
    return False


def pin_memory(self: Tensor) -> Tensor:
    """This Tensor (pinned host memory is not used)."""
    return self


def requires_grad_(self: Tensor, requires_grad: bool = True) -> Tensor:
    """This Tensor; gradients are taken with ``ms.grad`` over function inputs, not flagged Tensors."""
    return self


def to_(self: Tensor, device: Any = None, non_blocking: bool = False) -> Tensor:
    """This Tensor (the data stays where JAX placed it)."""
    return self


def set_const_arg(self: Tensor, const_arg: bool = True) -> Tensor:
    """Mark the Tensor as a constant argument of compiled functions (recorded only)."""
    return self


def data_sync(self: Tensor, waiting: bool = True) -> None:
    """Wait until the data is computed (``waiting``); JAX dispatches asynchronously."""
    if waiting and hasattr(self._value, "block_until_ready"):
        self._value.block_until_ready()


def to_dlpack(self: Tensor) -> Any:
    """The data as a DLPack capsule (shares the buffer)."""
    return self._value.__dlpack__()


class _HostCapsule:
    """A bare DLPack capsule presented as a host (CPU) buffer, the protocol ``jax.dlpack`` reads."""

    def __init__(self, capsule: Any) -> None:
        self._capsule = capsule

    def __dlpack__(self, **_: Any) -> Any:
        return self._capsule

    def __dlpack_device__(self) -> tuple[int, int]:
        return (1, 0)  # kDLCPU, device 0


def _from_dlpack(dlpack: Any) -> Tensor:
    """A Tensor sharing the buffer of an object with ``__dlpack__`` (any device), or of a bare
    DLPack capsule, which is read as a host (CPU) buffer."""
    if not hasattr(dlpack, "__dlpack__"):
        dlpack = _HostCapsule(dlpack)
    return Tensor._wrap(jax.dlpack.from_dlpack(dlpack))


Tensor.from_dlpack = staticmethod(_from_dlpack)  # type: ignore[attr-defined]


def _mH(self: Tensor) -> Tensor:
    """The conjugate transpose of the last two axes."""
    return _out(jnp.conj(jnp.swapaxes(self._value, -1, -2)))


def _data(self: Tensor) -> Tensor:
    """This Tensor (MindSpore's ``Tensor.data``)."""
    return self


Tensor.mH = property(_mH)  # type: ignore[attr-defined]
Tensor.data = property(_data)  # type: ignore[attr-defined]
Tensor.const_arg = False  # type: ignore[attr-defined]

_SIGNATURE_METHODS = [
    argmax_with_value, argmin_with_value, clone, count_nonzero, diag, diagonal, fill_diagonal, fill_diagonal_,
    index_add, index_copy_, index_put, index_put_, is_signed, is_floating_point, is_complex, kthvalue,
    masked_scatter, ptp, put_, qr, repeat_interleave, resize, reverse_sequence, scatter_add, scatter_add_,
    searchsorted, select, sum_to_size, take, trace, triangular_solve, choose, itemset, bernoulli_,
    exponential_, random_, log_normal, cauchy, uniform, orgqr, ormqr, data_ptr, storage_offset, is_init,
    is_pinned, is_shared, pin_memory, requires_grad_, to_, set_const_arg, data_sync, to_dlpack,
]
for _fn in _SIGNATURE_METHODS:
    _method(_fn)


# MindSpore Tensor methods whose signature is the functional op's with the Tensor first: each is a class
# attribute (so ``Tensor.name`` and ``hasattr`` see it) that calls ``mindjax.ops.<name>``.
_DELEGATED = (
    "addbmm", "addmv", "addr", "adjoint", "aminmax", "approximate_equal", "argwhere", "baddbmm", "bernoulli",
    "bincount", "cholesky", "cholesky_inverse", "cholesky_solve", "col2im", "cov", "cross", "cummax", "cummin",
    "det", "diagflat", "diagonal_scatter", "diff", "dsplit", "eigvals", "fills", "flip", "fliplr", "flipud",
    "fold", "gather_elements", "gather_nd", "geqrf", "ger", "hardshrink", "histc", "hsplit", "igamma",
    "igammac", "index_fill", "inplace_update", "inv", "inverse", "invert", "log_matrix_determinant",
    "logcumsumexp", "logdet", "logsumexp", "lstsq", "lu_solve", "matrix_determinant", "matrix_power",
    "move_to", "moveaxis", "movedim", "msort", "multinomial", "mvlgamma", "nan_to_num", "nanmean", "nanmedian",
    "nanquantile", "nansum", "quantile", "random_categorical", "renorm", "reverse", "roll", "rot90",
    "select_scatter", "slice_scatter", "slogdet",
    "soft_shrink", "svd", "tensor_split", "top_k", "tril", "triu", "unfold", "unique_consecutive",
    "unique_with_pad", "unsorted_segment_max", "unsorted_segment_min", "unsorted_segment_prod", "vsplit",
    "xdivy",
)


class _Delegated:
    """A Tensor method that is ``mindjax.ops.<name>(tensor, *args, **kwargs)``, resolved on first use."""

    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name


    def __get__(self, obj: Any, owner: Any = None) -> Any:
        if obj is None:
            return self
        op = getattr(_ops(), self.name)

        def method(*args: Any, **kwargs: Any) -> Any:
            return op(obj, *args, **kwargs)
        method.__name__ = self.name
        method.__doc__ = getattr(op, "__doc__", None)
        return method

    def __call__(self, tensor: Any, *args: Any, **kwargs: Any) -> Any:
        return getattr(_ops(), self.name)(tensor, *args, **kwargs)



def to_coo(self: Tensor) -> Any:
    """This 2-D Tensor's nonzero entries as a COOTensor (``ops.dense_to_sparse_coo``; PYNATIVE only)."""
    return _ops().dense_to_sparse_coo(self)


def to_csr(self: Tensor) -> Any:
    """This 2-D Tensor's nonzero entries as a CSRTensor (``ops.dense_to_sparse_csr``; PYNATIVE only)."""
    return _ops().dense_to_sparse_csr(self)


_method(to_coo)
_method(to_csr)

for _n in _DELEGATED:
    if _n not in Tensor.__dict__:
        setattr(Tensor, _n, _Delegated(_n))


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
