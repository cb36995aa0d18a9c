"""MindSpore's Primitive classes (``ops.MatMul()``, ``ops.ReduceSum(keep_dims=True)`` ...).

A Primitive is configured by its constructor and applied by calling it on
inputs, with MindSpore's calling conventions::

    ops.ReduceSum(keep_dims=False)(x, axis)
    ops.Reshape()(x, shape)
    ops.OneHot()(indices, depth, on_value, off_value)

Every Primitive carries MindSpore's parallel hooks: ``shard(in_strategy,
out_strategy)`` validates and records a strategy (the parallel layer reads it
through :meth:`Primitive.strategy_for_inputs`), and ``add_prim_attr``,
``set_device`` and ``recompute`` record attributes.

Example:
    >>> import numpy as np
    >>> from mindjax import ops
    >>> matmul = ops.MatMul(transpose_b=True).shard(((2, 1), (1, 1)))
    >>> matmul(np.ones((4, 3)), np.ones((5, 3))).shape
    (4, 5)
"""
from __future__ import annotations

import functools
from typing import Any, Callable, Sequence

import jax
import jax.numpy as jnp
import numpy as np

from mindjax.common.casting import cast_array as _cast_array
from mindjax.common.dtype import to_jax_dtype
from mindjax.common.precision import active_policy, run_under_rule
from mindjax.common.upcalls import UPCALLS
from mindjax.ops import functional as F

__all__ = [
    "Primitive", "MatMul", "BatchMatMul", "Add", "Sub", "Mul", "Div", "RealDiv", "Neg", "Pow", "Exp",
    "Log", "Sqrt", "Square", "Abs", "Maximum", "Minimum", "ReLU", "ReLU6", "GeLU", "Sigmoid", "Tanh",
    "Softmax", "LogSoftmax", "ReduceSum", "ReduceMean", "ReduceMax", "ReduceMin", "ReduceProd",
    "Reshape", "Transpose", "Cast", "Gather", "GatherV2", "OneHot", "Concat", "Stack", "Split",
    "Squeeze", "ExpandDims", "Tile", "Shape", "Zeros", "Ones", "Fill", "Select", "Equal", "Greater",
    "Less", "ArgMaxWithValue", "Argmax", "Assign", "Dropout", "BiasAdd", "Conv2D", "MaxPool",
    "AvgPool", "Flatten", "SoftmaxCrossEntropyWithLogits", "SparseSoftmaxCrossEntropyWithLogits",
    "StopGradient", "Depend", "L2Normalize", "LayerNorm", "BatchNorm", "Print", "DType", "Size",
    "Rank", "ZerosLike", "OnesLike", "Identity",
]

_arr = F._arr
tensor_op = F.tensor_op


# Set by mindjax.parallel: ``hook(prim, call, args, kwargs)`` applies a recorded strategy
# (as sharding constraints on the op's inputs and outputs) in the parallel modes that use it.


def _applying_strategy(call: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(call)
    def wrapped(self: "Primitive", *args: Any, **kwargs: Any) -> Any:
        policy = active_policy()  # mixed precision (mindjax.common.precision)
        if policy is not None:
            rule = policy.rule(self)
            if rule is not None:
                return _call_under_rule(self, call, rule, policy.dtype, args, kwargs)
        hook = UPCALLS.primitive_strategy
        if hook is None or (self.in_strategy is None and self.out_strategy is None):
            return call(self, *args, **kwargs)
        return hook(self, call, args, kwargs)
    boundary = tensor_op(wrapped)
    boundary._applies_strategy = True  # type: ignore[attr-defined]
    return boundary


def _call_under_rule(prim: "Primitive", call: Callable[..., Any], rule: str, dtype: Any, args: tuple[Any, ...],
                     kwargs: dict[str, Any]) -> Any:
    def run(cast_args: tuple[Any, ...], cast_kwargs: dict[str, Any]) -> Any:
        hook = UPCALLS.primitive_strategy
        if hook is None or (prim.in_strategy is None and prim.out_strategy is None):
            return call(prim, *cast_args, **cast_kwargs)
        return hook(prim, call, cast_args, cast_kwargs)
    return run_under_rule(rule, dtype, run, args, kwargs)


def _is_layout(obj: Any) -> bool:
    # The parallel package defines Layout; duck-type it so ops does not import parallel.
    return type(obj).__name__ == "Layout" or getattr(obj, "_is_mindjax_layout", False)


class Primitive:
    """Base class of MindSpore-style operators: configured at construction, applied by calling.

    Arguments:
        name: the operator's name (by default the class name).

    Attributes:
        name: the operator's name.
        attrs: the operator's attributes (constructor arguments and ``add_prim_attr``).
        in_strategy, out_strategy: the strategies recorded by :meth:`shard`, or None.
    """

    #: How many array inputs a strategy must describe; None when variadic.
    _strategy_inputs: int | None = 1

    def __init__(self, name: str | None = None) -> None:
        if name is not None and not isinstance(name, str):
            raise TypeError(f"For 'Primitive', 'name' must be a str, got {type(name).__name__}")
        self.name = name or type(self).__name__
        self.attrs: dict[str, Any] = {}
        self.in_strategy: tuple[Any, ...] | None = None
        self.out_strategy: tuple[Any, ...] | None = None

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        call = cls.__dict__.get("__call__")
        if call is not None and not getattr(call, "_applies_strategy", False):
            cls.__call__ = _applying_strategy(call)  # type: ignore[method-assign]

    def __call__(self, *args: Any) -> Any:
        raise TypeError(f"For '{self.name}', this Primitive defines no computation: subclasses of "
                        f"Primitive implement __call__")

    # -- attributes ---------------------------------------------------------------------
    def add_prim_attr(self, name: str, value: Any) -> "Primitive":
        """Record an attribute (MindSpore's ``add_prim_attr``) and return self."""
        if not isinstance(name, str):
            raise TypeError(f"For '{self.name}', attribute names must be str, got {type(name).__name__}")
        self.attrs[name] = value
        return self

    def del_prim_attr(self, name: str) -> "Primitive":
        """Remove an attribute if present and return self."""
        self.attrs.pop(name, None)
        return self

    def set_device(self, device_target: str) -> "Primitive":
        """Record the device target (``primitive_target``); execution placement is JAX's."""
        return self.add_prim_attr("primitive_target", device_target)

    def recompute(self, mode: bool = True) -> "Primitive":
        """Mark the op for recomputation in the backward pass (recorded as the ``recompute`` attribute)."""
        if not isinstance(mode, bool):
            raise TypeError(f"For '{self.name}', 'mode' must be a bool, got {type(mode).__name__}")
        return self.add_prim_attr("recompute", mode)

    def init_prim_io_names(self, inputs: Sequence[str], outputs: Sequence[str]) -> None:
        """Record input and output names (MindSpore's ``init_prim_io_names``)."""
        self.add_prim_attr("input_names", list(inputs))
        self.add_prim_attr("output_names", list(outputs))

    # -- parallel strategy ----------------------------------------------------------------
    def _check_strategy(self, strategy: Any, arg: str, count: int | None) -> tuple[Any, ...] | None:
        if strategy is None:
            return None
        if not isinstance(strategy, (tuple, list)):
            raise ValueError(f"For '{self.name}', '{arg}' must be a tuple of tuples of positive ints, "
                             f"got {type(strategy).__name__}")
        out = []
        for i, item in enumerate(strategy):
            if _is_layout(item):
                out.append(item)
                continue
            if not isinstance(item, (tuple, list)) or not all(
                    isinstance(v, (int, np.integer)) and not isinstance(v, bool) and v > 0 for v in item):
                raise ValueError(f"For '{self.name}', '{arg}'[{i}] must be a tuple of positive ints "
                                 f"(one split count per dimension), got {item!r}")
            out.append(tuple(int(v) for v in item))
        if count is not None and len(out) != count:
            raise ValueError(f"For '{self.name}', '{arg}' must describe {count} input(s), got "
                             f"{len(out)}: {tuple(out)!r}")
        return tuple(out)

    def shard(self, in_strategy: Any, out_strategy: Any = None) -> "Primitive":
        """Record how each input (and optionally output) is split across devices.

        Arguments:
            in_strategy: one tuple of positive split counts per array input, e.g.
                ``((2, 1), (1, 1))`` for MatMul; Layout objects are accepted too.
            out_strategy: optional, in the same form, one per output.

        Returns:
            self, so that ``ops.MatMul().shard(...)`` can be assigned directly.

        Raises:
            ValueError: naming the primitive when a strategy is malformed.
        """
        self.in_strategy = self._check_strategy(in_strategy, "in_strategy", self._strategy_inputs)
        self.out_strategy = self._check_strategy(out_strategy, "out_strategy", None)
        self.attrs["in_strategy"] = self.in_strategy
        if self.out_strategy is not None:
            self.attrs["out_strategy"] = self.out_strategy
        return self

    def strategy_for_inputs(self) -> tuple[Any, ...] | None:
        """The recorded input strategy (None when :meth:`shard` was not called)."""
        return self.in_strategy

    def __repr__(self) -> str:
        shown = ", ".join(f"{k}={v}" for k, v in self.attrs.items())
        return f"Prim[{self.name}]<{shown}>" if shown else f"Prim[{self.name}]"


def _record(prim: Primitive, **attrs: Any) -> None:
    for key, value in attrs.items():
        setattr(prim, key, value)
        prim.attrs[key] = value


def _check_bool(prim: str, name: str, value: Any) -> bool:
    if not isinstance(value, bool):
        raise TypeError(f"For '{prim}', '{name}' must be a bool, got {type(value).__name__}")
    return value


def _check_int(prim: str, name: str, value: Any) -> int:
    if not isinstance(value, (int, np.integer)) or isinstance(value, bool):
        raise TypeError(f"For '{prim}', '{name}' must be an int, got {type(value).__name__}")
    return int(value)


# --- elementwise --------------------------------------------------------------------------

class _Binary(Primitive):
    _strategy_inputs = 2
    _fn: Any = None

    def __init__(self) -> None:
        super().__init__()

    def __call__(self, input: Any, other: Any) -> jax.Array:
        try:
            return type(self)._fn(_arr(input), _arr(other))
        except (TypeError, ValueError) as exc:
            if F._is_jax_error(exc):
                raise
            raise type(exc)(f"For '{self.name}', {exc}") from exc


class _Unary(Primitive):
    _fn: Any = None

    def __init__(self) -> None:
        super().__init__()

    def __call__(self, input: Any) -> jax.Array:
        return type(self)._fn(_arr(input))


def _binary(name: str, fn: Any, doc: str) -> type:
    return type(name, (_Binary,), {"_fn": staticmethod(fn), "__doc__": (
        f"{doc}, with broadcasting.\n\n    Call: ``{name}()(input, other)`` -> array.\n"),
        "__module__": __name__})


def _unary(name: str, fn: Any, doc: str) -> type:
    return type(name, (_Unary,), {"_fn": staticmethod(fn), "__doc__": (
        f"{doc}.\n\n    Call: ``{name}()(input)`` -> array.\n"), "__module__": __name__})


Add = _binary("Add", jnp.add, "``input + other``")
Sub = _binary("Sub", jnp.subtract, "``input - other``")
Mul = _binary("Mul", jnp.multiply, "``input * other``")
Div = _binary("Div", jnp.true_divide, "``input / other`` (integer inputs divide to float)")
RealDiv = _binary("RealDiv", jnp.true_divide, "``input / other``")
Pow = _binary("Pow", jnp.power, "``input ** exponent``")
Maximum = _binary("Maximum", jnp.maximum, "Elementwise maximum")
Minimum = _binary("Minimum", jnp.minimum, "Elementwise minimum")
Equal = _binary("Equal", jnp.equal, "``input == other``")
Greater = _binary("Greater", jnp.greater, "``input > other``")
Less = _binary("Less", jnp.less, "``input < other``")

Neg = _unary("Neg", jnp.negative, "``-input``")
Exp = _unary("Exp", jnp.exp, "``e ** input``")
Log = _unary("Log", jnp.log, "Natural logarithm")
Sqrt = _unary("Sqrt", jnp.sqrt, "Square root")
Square = _unary("Square", jnp.square, "``input ** 2``")
Abs = _unary("Abs", jnp.abs, "Absolute value")
ReLU = _unary("ReLU", jax.nn.relu, "``max(input, 0)``")
ReLU6 = _unary("ReLU6", jax.nn.relu6, "``min(max(input, 0), 6)``")
Sigmoid = _unary("Sigmoid", jax.nn.sigmoid, "Logistic sigmoid")
Tanh = _unary("Tanh", jnp.tanh, "Hyperbolic tangent")
# MindSpore's GeLU primitive is the tanh approximation (measured on 2.10).
GeLU = _unary("GeLU", lambda x: jax.nn.gelu(x, approximate=True), "GELU, tanh approximation")
StopGradient = _unary("StopGradient", jax.lax.stop_gradient, "The input with its gradient cut")
Identity = _unary("Identity", lambda x: x, "The input unchanged")
ZerosLike = _unary("ZerosLike", jnp.zeros_like, "Zeros of the input's shape and dtype")
OnesLike = _unary("OnesLike", jnp.ones_like, "Ones of the input's shape and dtype")


# --- matrix products ----------------------------------------------------------------------

class MatMul(Primitive):
    """Matrix product ``op(a) @ op(b)`` where ``op`` optionally transposes the last two axes.

    Arguments:
        transpose_a: transpose the first input.
        transpose_b: transpose the second input.

    Call: ``MatMul()(a, b)`` with 2-D (or batched) arrays -> array.
    """

    _strategy_inputs = 2

    def __init__(self, transpose_a: bool = False, transpose_b: bool = False) -> None:
        super().__init__()
        _record(self, transpose_a=_check_bool(self.name, "transpose_a", transpose_a),
                transpose_b=_check_bool(self.name, "transpose_b", transpose_b))

    def _min_rank(self) -> int:
        return 2

    def __call__(self, x: Any, y: Any) -> jax.Array:
        a, b = _arr(x), _arr(y)
        if a.ndim < self._min_rank() or b.ndim < self._min_rank():
            raise ValueError(f"For '{self.name}', inputs must be at least {self._min_rank()}-D, "
                             f"got shapes {a.shape} and {b.shape}")
        if self.transpose_a:
            a = jnp.swapaxes(a, -1, -2)
        if self.transpose_b:
            b = jnp.swapaxes(b, -1, -2)
        if a.shape[-1] != b.shape[-2]:
            raise ValueError(f"For '{self.name}', the contracted dimensions must be equal, got "
                             f"{a.shape[-1]} and {b.shape[-2]} (shapes {_arr(x).shape} and {_arr(y).shape}, "
                             f"transpose_a={self.transpose_a}, transpose_b={self.transpose_b})")
        return jnp.matmul(a, b)


class BatchMatMul(MatMul):
    """Batched matrix product with optional transposes; see :class:`MatMul`.

    Call: ``BatchMatMul()(x, y)`` with arrays of rank >= 3 -> array.
    """

    def _min_rank(self) -> int:
        return 3


class BiasAdd(Primitive):
    """Add a 1-D bias along the channel axis.

    Arguments:
        data_format: ``'NCHW'`` (channel axis 1) or ``'NHWC'`` (channel axis last).

    Call: ``BiasAdd()(input_x, bias)`` -> array.
    """

    _strategy_inputs = 2

    def __init__(self, data_format: str = "NCHW") -> None:
        super().__init__()
        if data_format not in ("NCHW", "NHWC", "NCDHW"):
            raise ValueError(f"For 'BiasAdd', 'data_format' must be 'NCHW', 'NHWC' or 'NCDHW', got {data_format!r}")
        _record(self, data_format=data_format)

    def __call__(self, input_x: Any, bias: Any) -> jax.Array:
        x, b = _arr(input_x), _arr(bias)
        axis = x.ndim - 1 if self.data_format == "NHWC" else 1
        if x.ndim < 2 or b.shape != (x.shape[axis],):
            raise ValueError(f"For 'BiasAdd', 'bias' must have shape ({x.shape[axis] if x.ndim >= 2 else '?'},) "
                             f"for input {x.shape}, got {b.shape}")
        shape = [1] * x.ndim
        shape[axis] = -1
        return x + b.reshape(shape)


# --- activations with attributes -------------------------------------------------------

class Softmax(Primitive):
    """Softmax along ``axis``.

    Arguments:
        axis: an int or a tuple of ints; kept as a tuple (``Softmax(1).axis == (1,)``,
            as in MindSpore).

    Call: ``Softmax(axis)(input)`` -> array.
    """

    def __init__(self, axis: Any = -1) -> None:
        super().__init__()
        axes = tuple(axis) if isinstance(axis, (tuple, list)) else (axis,)
        if not axes:
            raise ValueError(f"For '{self.name}', 'axis' must be an int or a non-empty tuple of ints, got {axis!r}")
        _record(self, axis=tuple(_check_int(self.name, "axis", a) for a in axes))

    def __call__(self, input: Any) -> jax.Array:
        x = _arr(input)
        axes = tuple(F._axis(self.name, a, x.ndim) for a in self.axis)
        return jax.nn.softmax(x, axis=axes)


class LogSoftmax(Primitive):
    """Log-softmax along ``axis`` (an int, or a tuple with one int).

    Call: ``LogSoftmax(axis)(logits)`` -> array.
    """

    def __init__(self, axis: Any = -1) -> None:
        super().__init__()
        if isinstance(axis, (tuple, list)):
            if len(axis) != 1:
                raise ValueError(f"For '{self.name}', 'axis' must be an int or a 1-tuple, got {axis!r}")
            axis = axis[0]
        _record(self, axis=_check_int(self.name, "axis", axis))

    def __call__(self, logits: Any) -> jax.Array:
        x = _arr(logits)
        return jax.nn.log_softmax(x, axis=F._axis(self.name, self.axis, x.ndim))


class L2Normalize(Primitive):
    """``x / sqrt(max(sum(x ** 2, axis), epsilon))``.

    Arguments:
        axis: an int or a tuple of ints (default 0).
        epsilon: the floor under the squared norm.

    Call: ``L2Normalize(axis)(x)`` -> array.
    """

    def __init__(self, axis: Any = 0, epsilon: float = 1e-4) -> None:
        super().__init__()
        _record(self, axis=axis, epsilon=float(epsilon))

    def __call__(self, x: Any) -> jax.Array:
        return F.l2_normalize(x, self.axis, self.epsilon)


# --- reductions --------------------------------------------------------------------------

class _Reduce(Primitive):
    _fn: Any = None

    def __init__(self, keep_dims: bool = False) -> None:
        super().__init__()
        _record(self, keep_dims=_check_bool(self.name, "keep_dims", keep_dims))

    def _reduce_axes(self, x: Any, axis: Any) -> Any:
        if isinstance(axis, (tuple, list)) and len(axis) == 0:
            return None
        return F._axes(self.name, axis, x.ndim)

    def __call__(self, x: Any, axis: Any = ()) -> jax.Array:
        a = _arr(x)
        return type(self)._fn(a, axis=self._reduce_axes(a, axis), keepdims=self.keep_dims)


class ReduceSum(_Reduce):
    """Sum over ``axis`` (``()`` means all axes).

    Arguments:
        keep_dims: keep reduced axes with size 1.
        skip_mode: when True, an empty ``axis`` returns the input unchanged.

    Call: ``ReduceSum(keep_dims)(x, axis=())`` -> array.
    """

    _fn = staticmethod(jnp.sum)

    def __init__(self, keep_dims: bool = False, skip_mode: bool = False) -> None:
        super().__init__(keep_dims)
        _record(self, skip_mode=_check_bool(self.name, "skip_mode", skip_mode))

    def __call__(self, x: Any, axis: Any = ()) -> jax.Array:
        if self.skip_mode and isinstance(axis, (tuple, list)) and not axis:
            return _arr(x)
        return super().__call__(x, axis)


class ReduceMean(_Reduce):
    """Mean over ``axis`` (``()`` means all axes).

    Call: ``ReduceMean(keep_dims)(x, axis=())`` -> array.
    """

    _fn = staticmethod(jnp.mean)


class ReduceMax(_Reduce):
    """Maximum over ``axis`` (``()`` means all axes).

    Call: ``ReduceMax(keep_dims)(x, axis=())`` -> array.
    """

    _fn = staticmethod(jnp.max)


class ReduceMin(_Reduce):
    """Minimum over ``axis`` (``()`` means all axes).

    Call: ``ReduceMin(keep_dims)(x, axis=())`` -> array.
    """

    _fn = staticmethod(jnp.min)


class ReduceProd(_Reduce):
    """Product over ``axis`` (``()`` means all axes).

    Call: ``ReduceProd(keep_dims)(x, axis=())`` -> array.
    """

    _fn = staticmethod(jnp.prod)


class ArgMaxWithValue(Primitive):
    """Index and value of the maximum along ``axis``.

    Arguments:
        axis: the axis.
        keep_dims: keep the reduced axis with size 1.

    Call: ``ArgMaxWithValue(axis)(input)`` -> ``(index, value)``.
    """

    def __init__(self, axis: int = 0, keep_dims: bool = False) -> None:
        super().__init__()
        _record(self, axis=_check_int(self.name, "axis", axis),
                keep_dims=_check_bool(self.name, "keep_dims", keep_dims))

    def __call__(self, input: Any) -> tuple[jax.Array, jax.Array]:
        x = _arr(input)
        F._axis(self.name, self.axis, x.ndim)
        values, indices = F.max(x, self.axis, self.keep_dims)
        return indices, values


class Argmax(Primitive):
    """Index of the maximum along ``axis``.

    Arguments:
        axis: the axis (default -1).
        output_type: int32 or int64.

    Call: ``Argmax(axis)(input_x)`` -> integer array.
    """

    def __init__(self, axis: int = -1, output_type: Any = jnp.int32) -> None:
        super().__init__()
        _record(self, axis=_check_int(self.name, "axis", axis), output_type=to_jax_dtype(output_type))

    def __call__(self, input_x: Any) -> jax.Array:
        x = _arr(input_x)
        return jnp.argmax(x, axis=F._axis(self.name, self.axis, x.ndim)).astype(self.output_type)


# --- shapes ------------------------------------------------------------------------------

class Reshape(Primitive):
    """Call: ``Reshape()(input, shape)`` -> the reshaped array (one ``-1`` allowed)."""

    def __init__(self) -> None:
        super().__init__()

    def __call__(self, input: Any, shape: Any) -> jax.Array:
        return F._named("Reshape")(F.reshape.__wrapped__)(input, shape)


class Transpose(Primitive):
    """Call: ``Transpose()(input, perm)`` -> the array with permuted axes."""

    def __init__(self) -> None:
        super().__init__()

    def __call__(self, input: Any, input_perm: Any) -> jax.Array:
        x = _arr(input)
        return jnp.transpose(x, F._perm(self.name, input_perm, x.ndim, "input_perm"))


class Cast(Primitive):
    """Call: ``Cast()(input_x, dtype)`` -> the converted array."""

    def __init__(self) -> None:
        super().__init__()

    def __call__(self, input_x: Any, dtype: Any) -> jax.Array:
        return _cast_array(_arr(input_x), to_jax_dtype(dtype))


class Gather(Primitive):
    """Take slices along ``axis`` at integer indices.

    Arguments:
        batch_dims: leading dimensions shared by params and indices.

    Call: ``Gather()(input_params, input_indices, axis)`` -> array.
    """

    _strategy_inputs = 2

    def __init__(self, batch_dims: int = 0) -> None:
        super().__init__()
        _record(self, batch_dims=_check_int(self.name, "batch_dims", batch_dims))

    def __call__(self, input_params: Any, input_indices: Any, axis: int, batch_dims: int | None = None) -> jax.Array:
        bd = self.batch_dims if batch_dims is None else batch_dims
        return F._named(self.name)(F.gather.__wrapped__)(input_params, input_indices, axis, bd)


class GatherV2(Gather):
    """Same as :class:`Gather`.

    Call: ``GatherV2()(input_params, input_indices, axis)`` -> array.
    """

    def __init__(self) -> None:
        super().__init__(0)


class OneHot(Primitive):
    """One-hot encoding.

    Arguments:
        axis: where the new class axis goes (default -1).

    Call: ``OneHot()(indices, depth, on_value, off_value)`` -> array of on_value's dtype.
    """

    def __init__(self, axis: int = -1) -> None:
        super().__init__()
        _record(self, axis=_check_int(self.name, "axis", axis))

    def __call__(self, indices: Any, depth: int, on_value: Any, off_value: Any) -> jax.Array:
        return F._named(self.name)(F.one_hot.__wrapped__)(indices, depth, on_value, off_value, self.axis)


class Concat(Primitive):
    """Join arrays along ``axis``.

    Call: ``Concat(axis)(tensors)`` -> array.
    """

    _strategy_inputs = None

    def __init__(self, axis: int = 0) -> None:
        super().__init__()
        _record(self, axis=_check_int(self.name, "axis", axis))

    def __call__(self, tensors: Sequence[Any]) -> jax.Array:
        return F._named(self.name)(F.concat.__wrapped__)(tensors, self.axis)


class Stack(Primitive):
    """Stack equal-shaped arrays along a new ``axis``.

    Call: ``Stack(axis)(tensors)`` -> array.
    """

    _strategy_inputs = None

    def __init__(self, axis: int = 0) -> None:
        super().__init__()
        _record(self, axis=_check_int(self.name, "axis", axis))

    def __call__(self, tensors: Sequence[Any]) -> jax.Array:
        return F._named(self.name)(F.stack.__wrapped__)(tensors, self.axis)


class Split(Primitive):
    """Split into ``output_num`` equal parts along ``axis``.

    Arguments:
        axis: the axis.
        output_num: the number of parts; must divide the axis size.

    Call: ``Split(axis, output_num)(input_x)`` -> tuple of arrays.
    """

    def __init__(self, axis: int = 0, output_num: int = 1) -> None:
        super().__init__()
        _record(self, axis=_check_int(self.name, "axis", axis),
                output_num=_check_int(self.name, "output_num", output_num))
        if output_num <= 0:
            raise ValueError(f"For 'Split', 'output_num' must be positive, got {output_num}")

    def __call__(self, input_x: Any) -> tuple[jax.Array, ...]:
        x = _arr(input_x)
        ax = F._axis(self.name, self.axis, x.ndim)
        if x.shape[ax] % self.output_num:
            raise ValueError(f"For 'Split', x.shape[{ax}] = {x.shape[ax]} must be divisible by "
                             f"output_num = {self.output_num}")
        return tuple(jnp.split(x, self.output_num, axis=ax))


class Squeeze(Primitive):
    """Remove size-1 axes (all of them when ``axis`` is ``()``); others named are kept.

    Call: ``Squeeze(axis)(input)`` -> array.
    """

    def __init__(self, axis: Any = ()) -> None:
        super().__init__()
        if isinstance(axis, (int, np.integer)):
            axis = (int(axis),)
        if not isinstance(axis, (tuple, list)):
            raise TypeError(f"For 'Squeeze', 'axis' must be an int or a tuple of ints, got {axis!r}")
        _record(self, axis=tuple(axis))

    def __call__(self, input: Any) -> jax.Array:
        return F._named(self.name)(F.squeeze.__wrapped__)(input, self.axis or None)


class ExpandDims(Primitive):
    """Call: ``ExpandDims()(input_x, axis)`` -> array with a new size-1 axis."""

    def __init__(self) -> None:
        super().__init__()

    def __call__(self, input_x: Any, axis: int) -> jax.Array:
        return F._named(self.name)(F.expand_dims.__wrapped__)(input_x, axis)


class Tile(Primitive):
    """Call: ``Tile()(input, dims)`` -> the tiled array."""

    def __init__(self) -> None:
        super().__init__()

    def __call__(self, input: Any, dims: Sequence[int]) -> jax.Array:
        return F._named(self.name)(F.tile.__wrapped__)(input, dims)


class Flatten(Primitive):
    """Call: ``Flatten()(input_x)`` -> ``(N, -1)`` array (the batch axis is kept)."""

    def __init__(self) -> None:
        super().__init__()

    def __call__(self, input_x: Any) -> jax.Array:
        x = _arr(input_x)
        if x.ndim == 0:
            raise ValueError("For 'Flatten', the input must have at least one dimension, got a scalar")
        return jnp.reshape(x, (x.shape[0], -1)) if x.size else jnp.reshape(
            x, (x.shape[0], int(np.prod(x.shape[1:]))))


class Shape(Primitive):
    """Call: ``Shape()(x)`` -> the shape as a tuple of ints."""

    _strategy_inputs = 1

    def __init__(self) -> None:
        super().__init__()

    def __call__(self, x: Any) -> tuple[int, ...]:
        return F.shape(x)


class Size(Primitive):
    """Call: ``Size()(x)`` -> the number of elements as an int."""

    def __init__(self) -> None:
        super().__init__()

    def __call__(self, x: Any) -> int:
        return F.size(x)


class Rank(Primitive):
    """Call: ``Rank()(x)`` -> the number of dimensions as an int."""

    def __init__(self) -> None:
        super().__init__()

    def __call__(self, x: Any) -> int:
        return F.rank(x)


class DType(Primitive):
    """Call: ``DType()(x)`` -> the array's dtype."""

    def __init__(self) -> None:
        super().__init__()

    def __call__(self, x: Any) -> Any:
        return _arr(x).dtype


# --- creation ----------------------------------------------------------------------------

class Zeros(Primitive):
    """Call: ``Zeros()(size, dtype=None)`` -> zeros (float32 by default)."""

    _strategy_inputs = 0

    def __init__(self) -> None:
        super().__init__()

    def __call__(self, size: Any, dtype: Any = None) -> jax.Array:
        return F._named(self.name)(F.zeros.__wrapped__)(size, dtype)


class Ones(Primitive):
    """Call: ``Ones()(shape, dtype=None)`` -> ones (float32 by default)."""

    _strategy_inputs = 0

    def __init__(self) -> None:
        super().__init__()

    def __call__(self, shape: Any, dtype: Any = None) -> jax.Array:
        return F._named(self.name)(F.ones.__wrapped__)(shape, dtype)


class Fill(Primitive):
    """Call: ``Fill()(dtype, dims, x)`` -> an array of ``dims`` filled with ``x``."""

    _strategy_inputs = 0

    def __init__(self) -> None:
        super().__init__()

    def __call__(self, dtype: Any, dims: Any, x: Any) -> jax.Array:
        return F._named(self.name)(F.fill.__wrapped__)(dtype, dims, x)


class Select(Primitive):
    """Call: ``Select()(condition, input, other)`` -> ``input`` where condition holds, else ``other``."""

    _strategy_inputs = 3

    def __init__(self) -> None:
        super().__init__()

    def __call__(self, condition: Any, input: Any, other: Any) -> jax.Array:
        return jnp.where(_arr(condition), _arr(input), _arr(other))


# --- side effects and control ----------------------------------------------------------

class Assign(Primitive):
    """Call: ``Assign()(variable, value)`` -> writes the Parameter and returns its new value."""

    _strategy_inputs = 2

    def __init__(self) -> None:
        super().__init__()

    def __call__(self, variable: Any, value: Any) -> jax.Array:
        return F.assign(variable, value)


class Depend(Primitive):
    """Call: ``Depend()(value, expr)`` -> ``value``."""

    _strategy_inputs = 2

    def __init__(self) -> None:
        super().__init__()

    def __call__(self, value: Any, expr: Any) -> Any:
        return value


class Print(Primitive):
    """Call: ``Print()(*args)`` -> prints arrays and strings (also inside compiled code)."""

    _strategy_inputs = None

    def __init__(self) -> None:
        super().__init__()

    def __call__(self, *args: Any) -> None:
        F.print_(*args)


class Dropout(Primitive):
    """Dropout that also returns its keep mask (always active, as MindSpore's primitive).

    Arguments:
        keep_prob: the probability of keeping each element, in ``(0, 1]``.
        Seed0, Seed1: mixed into the global key when non-zero.

    Call: ``Dropout(keep_prob)(x)`` -> ``(output, mask)`` with a float mask of 0s and 1s.
    """

    def __init__(self, keep_prob: float = 0.5, Seed0: int = 0, Seed1: int = 0) -> None:  # noqa: N803
        super().__init__()
        if not 0 < float(keep_prob) <= 1:
            raise ValueError(f"For 'Dropout', 'keep_prob' must be in (0, 1], got {keep_prob}")
        _record(self, keep_prob=float(keep_prob), Seed0=int(Seed0), Seed1=int(Seed1))

    def __call__(self, x: Any) -> tuple[jax.Array, jax.Array]:
        a = _arr(x)
        seed = self.Seed0 * 1000003 + self.Seed1 if (self.Seed0 or self.Seed1) else None
        keep = jax.random.bernoulli(F._key(seed), self.keep_prob, a.shape)
        mask = keep.astype(a.dtype)
        return (a * mask / self.keep_prob).astype(a.dtype), mask


# --- neural-network primitives ---------------------------------------------------------

class Conv2D(Primitive):
    """2-D convolution over NCHW input with an OIHW weight.

    Arguments:
        out_channel: the number of output channels (checked against the weight).
        kernel_size: an int or a pair (checked against the weight).
        mode: accepted for compatibility (1).
        pad_mode: ``'valid'``, ``'same'`` or ``'pad'``.
        pad: with ``'pad'``: an int or ``(top, bottom, left, right)``.
        stride, dilation: an int, a pair or a 4-tuple ``(1, 1, h, w)``.
        group: the number of channel groups.
        data_format: ``'NCHW'`` (weight ``OIHW``) or ``'NHWC'`` (weight ``OHWI``).

    Call: ``Conv2D(out_channel, kernel_size)(x, weight)`` -> array.
    """

    _strategy_inputs = 2

    def __init__(self, out_channel: int, kernel_size: Any, mode: int = 1, pad_mode: str = "valid", pad: Any = 0,
                 stride: Any = 1, dilation: Any = 1, group: int = 1, data_format: str = "NCHW") -> None:
        super().__init__()
        if pad_mode not in ("valid", "same", "pad"):
            raise ValueError(f"For 'Conv2D', 'pad_mode' must be one of 'valid', 'same', 'pad', got {pad_mode!r}")
        if data_format not in ("NCHW", "NHWC"):
            raise ValueError(f"For 'Conv2D', 'data_format' must be 'NCHW' or 'NHWC', got {data_format!r}")
        _record(self, out_channel=_check_int(self.name, "out_channel", out_channel),
                kernel_size=F._pair(self.name, "kernel_size", kernel_size), mode=mode, pad_mode=pad_mode,
                pad=F._pair(self.name, "pad", pad, allow_four=True), stride=F._pair(self.name, "stride", stride, True),
                dilation=F._pair(self.name, "dilation", dilation, True),
                group=_check_int(self.name, "group", group), data_format=data_format)

    def __call__(self, x: Any, weight: Any) -> jax.Array:
        a, w = _arr(x), _arr(weight)
        nhwc = self.data_format == "NHWC"
        kernel = tuple(w.shape[1:3] if nhwc else w.shape[2:])
        if w.ndim == 4 and (w.shape[0] != self.out_channel or kernel != self.kernel_size):
            raise ValueError(f"For 'Conv2D', weight shape {w.shape} does not match out_channel="
                             f"{self.out_channel} and kernel_size={self.kernel_size}")
        if nhwc and a.ndim == 4 and w.ndim == 4:
            # Computed in NCHW/OIHW; XLA picks the layout either way.
            out = F._conv(self.name, jnp.transpose(a, (0, 3, 1, 2)), jnp.transpose(w, (0, 3, 1, 2)), self.stride,
                          self.pad_mode, self.pad, self.dilation, self.group, True)
            return jnp.transpose(out, (0, 2, 3, 1))
        return F._conv(self.name, a, w, self.stride, self.pad_mode, self.pad, self.dilation, self.group, True)


class _Pool(Primitive):
    def __init__(self, kernel_size: Any = 1, strides: Any = 1, pad_mode: str = "valid",
                 data_format: str = "NCHW") -> None:
        super().__init__()
        mode = pad_mode.lower() if isinstance(pad_mode, str) else pad_mode
        if mode not in ("valid", "same"):
            raise ValueError(f"For '{self.name}', 'pad_mode' must be 'valid' or 'same', got {pad_mode!r}")
        if data_format not in ("NCHW", "NHWC"):
            raise ValueError(f"For '{self.name}', 'data_format' must be 'NCHW' or 'NHWC', got {data_format!r}")
        k = F._pair(self.name, "kernel_size", kernel_size, True)[-2:]
        s = F._pair(self.name, "strides", strides, True)[-2:]
        if any(v <= 0 for v in k + s):
            raise ValueError(f"For '{self.name}', 'kernel_size' and 'strides' must be positive, got {k} and {s}")
        _record(self, kernel_size=k, strides=s, pad_mode=mode.upper(), data_format=data_format)

    def _windows(self, a: Any) -> tuple[Any, Any, Any]:
        if a.ndim != 4:
            raise ValueError(f"For '{self.name}', the input must be 4-D, got shape {a.shape}")
        if self.data_format == "NHWC":
            return (1,) + self.kernel_size + (1,), (1,) + self.strides + (1,), a
        return (1, 1) + self.kernel_size, (1, 1) + self.strides, a


class MaxPool(_Pool):
    """2-D max pooling with ``'valid'`` or ``'same'`` (TensorFlow-style) padding.

    Arguments:
        kernel_size: an int or a pair.
        strides: an int or a pair.
        pad_mode: ``'valid'`` or ``'same'``.
        data_format: ``'NCHW'`` or ``'NHWC'``.

    Call: ``MaxPool(kernel_size, strides)(x)`` -> array.
    """

    def __call__(self, x: Any) -> jax.Array:
        a = _arr(x)
        win, strides, a = self._windows(a)
        init = -jnp.inf if jnp.issubdtype(a.dtype, jnp.floating) else jnp.iinfo(a.dtype).min
        return jax.lax.reduce_window(a, jnp.asarray(init, a.dtype), jax.lax.max, win, strides, self.pad_mode)


class AvgPool(_Pool):
    """2-D average pooling; with ``'same'`` padding the padded zeros are not counted.

    Arguments: as :class:`MaxPool`.

    Call: ``AvgPool(kernel_size, strides)(x)`` -> array.
    """

    def __call__(self, x: Any) -> jax.Array:
        a = _arr(x)
        win, strides, a = self._windows(a)
        zero = jnp.asarray(0, a.dtype)
        total = jax.lax.reduce_window(a, zero, jax.lax.add, win, strides, self.pad_mode)
        count = jax.lax.reduce_window(jnp.ones(a.shape, a.dtype), zero, jax.lax.add, win, strides, self.pad_mode)
        return total / count


class LayerNorm(Primitive):
    """Layer normalisation from ``begin_norm_axis``, with gamma/beta shaped from ``begin_params_axis``.

    Arguments:
        begin_norm_axis: the first normalised axis.
        begin_params_axis: the first axis that gamma and beta cover.
        epsilon: added to the variance.

    Call: ``LayerNorm()(input_x, gamma, beta)`` -> ``(output, mean, variance)``;
    mean and variance keep the normalised axes with size 1.
    """

    _strategy_inputs = 3

    def __init__(self, begin_norm_axis: int = 1, begin_params_axis: int = 1, epsilon: float = 1e-7) -> None:
        super().__init__()
        _record(self, begin_norm_axis=_check_int(self.name, "begin_norm_axis", begin_norm_axis),
                begin_params_axis=_check_int(self.name, "begin_params_axis", begin_params_axis),
                epsilon=float(epsilon))

    def __call__(self, input_x: Any, gamma: Any, beta: Any) -> tuple[jax.Array, jax.Array, jax.Array]:
        x, g, b = _arr(input_x), _arr(gamma), _arr(beta)
        nax = F._axis(self.name, self.begin_norm_axis, x.ndim, "begin_norm_axis")
        pax = F._axis(self.name, self.begin_params_axis, x.ndim, "begin_params_axis")
        if g.shape != x.shape[pax:] or b.shape != x.shape[pax:]:
            raise ValueError(f"For 'LayerNorm', gamma and beta must have shape {x.shape[pax:]}, "
                             f"got {g.shape} and {b.shape}")
        axes = tuple(range(nax, x.ndim))
        mu = jnp.mean(x, axis=axes, keepdims=True)
        var = jnp.mean(jnp.square(x - mu), axis=axes, keepdims=True)
        y = (x - mu) * jax.lax.rsqrt(var + self.epsilon) * g + b
        return y, mu, var


class BatchNorm(Primitive):
    """Batch normalisation over the channel axis.

    In training, batch statistics normalise the input and Parameter ``mean``
    and ``variance`` are updated in place:
    ``moving = (1 - momentum) * moving + momentum * batch`` (unbiased variance).

    Arguments:
        is_training: use batch statistics and update the moving ones.
        epsilon: added to the variance.
        momentum: the update rate of the moving statistics.
        data_format: ``'NCHW'`` (channel axis 1) or ``'NHWC'`` (channel axis last).

    Call: ``BatchNorm()(input_x, scale, bias, mean, variance)`` ->
    ``(y, batch_mean, batch_variance, reserve_space_1, reserve_space_2)``; the
    statistics are the (biased) batch ones in training, the moving ones otherwise.
    """

    _strategy_inputs = 5

    def __init__(self, is_training: bool = False, epsilon: float = 1e-5, momentum: float = 0.1,
                 data_format: str = "NCHW") -> None:
        super().__init__()
        if not 0 <= momentum <= 1:
            raise ValueError(f"For 'BatchNorm', 'momentum' must be in [0, 1], got {momentum}")
        if data_format not in ("NCHW", "NHWC"):
            raise ValueError(f"For 'BatchNorm', 'data_format' must be 'NCHW' or 'NHWC', got {data_format!r}")
        _record(self, is_training=_check_bool(self.name, "is_training", is_training), epsilon=float(epsilon),
                momentum=float(momentum), data_format=data_format)

    def __call__(self, input_x: Any, scale: Any, bias: Any, mean: Any, variance: Any) -> tuple[jax.Array, ...]:
        x = _arr(input_x)
        channel_axis = x.ndim - 1 if self.data_format == "NHWC" else 1
        y, mu, var = F._bn(self.name, x, mean, variance, scale, bias, self.is_training, self.momentum,
                           self.epsilon, channel_axis)
        return y, mu, var, mu, var


class SoftmaxCrossEntropyWithLogits(Primitive):
    """Per-sample softmax cross entropy against probability labels, and its gradient.

    Call: ``SoftmaxCrossEntropyWithLogits()(logits, labels)`` with ``(N, C)`` arrays
    -> ``(loss (N,), dlogits (N, C))``.
    """

    _strategy_inputs = 2

    def __init__(self) -> None:
        super().__init__()

    def __call__(self, logits: Any, labels: Any) -> tuple[jax.Array, jax.Array]:
        x, y = _arr(logits), _arr(labels)
        if x.ndim != 2 or y.shape != x.shape:
            raise ValueError(f"For '{self.name}', logits and labels must be 2-D of the same shape, "
                             f"got {x.shape} and {y.shape}")
        logp = jax.nn.log_softmax(x, axis=-1)
        return -jnp.sum(y * logp, axis=-1), jnp.exp(logp) - y


class SparseSoftmaxCrossEntropyWithLogits(Primitive):
    """Mean softmax cross entropy against class indices (or its gradient).

    Arguments:
        is_grad: return the gradient with respect to the logits instead of the loss.

    Call: ``SparseSoftmaxCrossEntropyWithLogits()(logits, labels)`` with ``(N, C)``
    logits and ``(N,)`` labels -> scalar loss, or ``(N, C)`` gradient.
    """

    _strategy_inputs = 2

    def __init__(self, is_grad: bool = False) -> None:
        super().__init__()
        _record(self, is_grad=_check_bool(self.name, "is_grad", is_grad))

    def __call__(self, logits: Any, labels: Any) -> jax.Array:
        x, y = _arr(logits), _arr(labels)
        if x.ndim != 2 or y.shape != x.shape[:1]:
            raise ValueError(f"For '{self.name}', logits must be (N, C) and labels (N,), got {x.shape} "
                             f"and {y.shape}")
        logp = jax.nn.log_softmax(x, axis=-1)
        hot = jax.nn.one_hot(y, x.shape[-1], dtype=x.dtype)
        if self.is_grad:
            return (jnp.exp(logp) - hot) / x.shape[0]
        return -jnp.mean(jnp.sum(hot * logp, axis=-1))

