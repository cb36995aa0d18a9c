"""``ms.Tensor``: a constructor and type check for plain ``jax.Array``s.

MindJAX never wraps arrays. ``ms.Tensor(data, dtype)`` returns a ``jax.Array``,
``isinstance(x, ms.Tensor)`` is true for every ``jax.Array`` (tracers included)
and for :class:`~mindjax.Parameter`, and the MindSpore-only methods that scripts
call (``asnumpy``, ``expand_dims``, ``float`` ...) are added to JAX's array and
tracer classes when :mod:`mindjax` is imported. Methods JAX already has
(``shape``, ``dtype``, ``astype``, ``item``, ``reshape``, ``sum`` ...) are kept.

Example:
    >>> import numpy as np, mindjax as ms
    >>> t = ms.Tensor(np.ones((2, 3)), ms.float32)
    >>> isinstance(t, ms.Tensor), t.asnumpy().shape
    (True, (2, 3))
"""
from __future__ import annotations

from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
from jax._src import core as _jax_core
from jax._src.array import ArrayImpl as _ArrayImpl

from mindjax.common.dtype import to_jax_dtype
from mindjax.common.variable import Variable


def _default_dtype_for(data: Any) -> Any:
    """MindSpore's inference of a Tensor dtype from Python data."""
    if isinstance(data, bool):
        return jnp.bool_
    if isinstance(data, int):
        return jnp.int32 if not jax.config.jax_enable_x64 else jnp.int64
    if isinstance(data, float):
        return jnp.float32
    if isinstance(data, (list, tuple)):
        flat = np.asarray(data)
        if flat.dtype == np.float64:
            return jnp.float32
        if flat.dtype == np.int64 and not jax.config.jax_enable_x64:
            return jnp.int32
    return None


class _TensorMeta(type):
    """Makes ``Tensor(...)`` build a ``jax.Array`` and ``isinstance`` accept arrays."""

    def __instancecheck__(cls, obj: Any) -> bool:
        return isinstance(obj, jax.Array) or getattr(obj, "_is_mindjax_variable", False)

    def __subclasscheck__(cls, sub: type) -> bool:
        return issubclass(sub, jax.Array) or getattr(sub, "_is_mindjax_variable", False)

    def __call__(cls, input_data: Any = None, dtype: Any = None, shape: Any = None,
                 init: Any = None, const_arg: bool = False, **_: Any) -> jax.Array:
        if input_data is None:
            if shape is None:
                raise ValueError("For 'Tensor', give input_data, or shape and init; got neither")
            from mindjax.common.initializer import initializer  # lazy: initializer imports tensor
            return initializer(init if init is not None else "zeros", shape,
                               dtype if dtype is not None else jnp.float32)
        if getattr(input_data, "_is_mindjax_variable", False):
            input_data = input_data.value
        if dtype is None:
            dtype = _default_dtype_for(input_data)
        else:
            dtype = to_jax_dtype(dtype)
        if isinstance(input_data, jax.Array):
            return input_data if dtype is None or input_data.dtype == dtype else input_data.astype(dtype)
        return jnp.asarray(input_data, dtype=dtype)


class Tensor(metaclass=_TensorMeta):
    """MindSpore's ``Tensor``; calling it returns a ``jax.Array``.

    Arguments:
        input_data: array-like data (numpy array, list, scalar, ``jax.Array``).
        dtype: target dtype; by default MindSpore's rules (Python ``float`` is
            float32, Python ``int`` is int32 unless x64 is enabled).
        shape, init: build from an initializer instead of data, as in
            ``Tensor(shape=(2, 3), dtype=ms.float32, init=Normal())``.

    Returns:
        a ``jax.Array``.
    """

    @staticmethod
    def from_numpy(array: np.ndarray) -> jax.Array:
        """``Tensor.from_numpy``: the array on the default device."""
        return jnp.asarray(array)


COOTensor = CSRTensor = RowTensor = None  # sparse types are not supported


def as_array(x: Any) -> jax.Array:
    """``x`` as a ``jax.Array``: a Parameter gives its value, an array stays as it is.

    ``jax.lax`` (and so ``jax.nn``) refuses objects that only offer
    ``__jax_array__``, such as Parameters, so ops, layers and losses convert
    their inputs with this first.

    Arguments:
        x: a ``jax.Array`` (tracers included), a Parameter or other Variable,
            or anything ``jnp.asarray`` takes.

    Returns:
        the array.
    """
    if isinstance(x, Variable):
        return x._value
    if isinstance(x, jax.Array):
        return x
    return jnp.asarray(x)


# --- MindSpore Tensor methods on JAX's array and tracer classes --------------

def _asnumpy(self: Any) -> np.ndarray:
    return np.asarray(self)


def _expand_dims(self: Any, axis: int) -> Any:
    return jnp.expand_dims(self, axis)


def _make_view(jax_view: Any) -> Any:
    def view(self: Any, *shape: Any) -> Any:
        """MindSpore's ``view(*shape)`` reshapes; a dtype argument keeps JAX's meaning."""
        if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
            shape = tuple(shape[0])
        if all(isinstance(s, (int, np.integer)) for s in shape) and shape:
            return jnp.reshape(self, shape)
        return jax_view(self, *shape)
    return view


def _squeeze(self: Any, axis: Any = None) -> Any:
    return jnp.squeeze(self, axis)


def _to(self: Any, dtype: Any) -> Any:
    return self.astype(to_jax_dtype(dtype))


def _dim(self: Any) -> int:
    return self.ndim


def _numel(self: Any) -> int:
    return int(np.prod(self.shape))


def _asnumpy_on_tracer(self: Any) -> np.ndarray:
    raise TypeError(
        "Tensor.asnumpy() reads a concrete value, but this Tensor is traced inside "
        "GRAPH_MODE / ms.jit; return it from the compiled function, or use "
        "jax.debug.print / jax.debug.callback to look at it inside")


_METHODS: dict[str, Any] = {
    "asnumpy": _asnumpy,
    "numpy": _asnumpy,
    "expand_dims": _expand_dims,
    "unsqueeze": _expand_dims,
    "to": _to,
    "float": lambda self: self.astype(jnp.float32),
    "half": lambda self: self.astype(jnp.float16),
    "double": lambda self: self.astype(jnp.float64),
    "int": lambda self: self.astype(jnp.int32),
    "long": lambda self: self.astype(jnp.int64),
    "bool": lambda self: self.astype(jnp.bool_),
    "dim": _dim,
    "ndimension": _dim,
    "numel": _numel,
    "nelement": _numel,
    "abs": lambda self: jnp.abs(self),
    "exp": lambda self: jnp.exp(self),
    "log": lambda self: jnp.log(self),
    "sqrt": lambda self: jnp.sqrt(self),
    "rsqrt": lambda self: jax.lax.rsqrt(self),
    "square": lambda self: jnp.square(self),
    "sin": lambda self: jnp.sin(self),
    "cos": lambda self: jnp.cos(self),
    "tanh": lambda self: jnp.tanh(self),
    "sigmoid": lambda self: jax.nn.sigmoid(self),
    "pow": lambda self, e: jnp.power(self, e),
    "norm": lambda self, ord=None, dim=None, keepdim=False: jnp.linalg.norm(self, ord, dim, keepdim),
    "unbind": lambda self, dim=0: tuple(jnp.moveaxis(self, dim, 0)),
    "permute": lambda self, *axes: jnp.transpose(self, axes[0] if len(axes) == 1 and isinstance(axes[0], (tuple, list)) else axes),
    "init_data": lambda self: self,
    "asnumpy_of": _asnumpy,
    "is_contiguous": lambda self: True,
    "contiguous": lambda self: self,
    "equal": lambda self, other: jnp.equal(self, other),
    "isfinite": lambda self: jnp.isfinite(self),
    "isnan": lambda self: jnp.isnan(self),
    "exp2": lambda self: jnp.exp2(self),
    "log1p": lambda self: jnp.log1p(self),
    "neg": lambda self: jnp.negative(self),
    "floor": lambda self: jnp.floor(self),
    "ceil": lambda self: jnp.ceil(self),
    "tile": lambda self, reps: jnp.tile(self, reps),
    "broadcast_to": lambda self, shape: jnp.broadcast_to(self, shape),
    "masked_fill": lambda self, mask, value: jnp.where(mask, jnp.asarray(value, self.dtype), self),
    "softmax": lambda self, axis=-1: jax.nn.softmax(self, axis=axis),
    "addmm": lambda self, m1, m2, beta=1, alpha=1: beta * self + alpha * (m1 @ m2),
    "matmul": lambda self, other: jnp.matmul(self, other),
    "has_init": False,
}

_TRACER_OVERRIDES: dict[str, Any] = {
    "asnumpy": _asnumpy_on_tracer,
    "numpy": _asnumpy_on_tracer,
}


def _install_tensor_methods() -> None:
    """Add MindSpore-only methods to jax.Array's concrete and traced classes.

    Existing JAX attributes are never replaced, so JAX code keeps working.
    """
    # The class itself, not type(jnp.zeros(())): building an array here would start
    # the XLA backend at import, before XLA_FLAGS or jax.distributed can be set.
    array_impl = _ArrayImpl
    for cls, overrides in ((array_impl, {}), (_jax_core.Tracer, _TRACER_OVERRIDES)):
        for name, fn in _METHODS.items():
            fn = overrides.get(name, fn)
            if name in cls.__dict__ or (hasattr(cls, name) and name not in overrides):
                continue
            setattr(cls, name, fn)
        if "_mindjax_view" not in cls.__dict__:
            cls._mindjax_view = True
            cls.view = _make_view(cls.view)


_install_tensor_methods()


def tensor_op(fn: Any) -> Any:
    """Mark ``fn`` as a public op: the boundary where Tensors are unwrapped and results wrapped.

    Implementation code inside an op works on ``jax.Array``s (convert inputs with
    :func:`as_array`); the boundary turns results into Tensors for user code.
    """
    return fn
