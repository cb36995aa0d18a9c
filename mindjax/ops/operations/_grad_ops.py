"""MindSpore's ``mindspore.ops.operations._grad_ops``: the backward Primitives user code calls directly.

Each takes MindSpore's inputs in MindSpore's order (``ReluGrad()(dy, x)``, ``TanhGrad()(y, dy)`` ...) and
gives the gradient of its forward op, as MindSpore's CPU kernels compute it. Only Primitives whose
gradient has a meaning here are defined; the rest of MindSpore's module is its autodiff's internals,
which JAX's reverse mode replaces.

Example:
    >>> import numpy as np
    >>> from mindjax.ops.operations import _grad_ops as G
    >>> G.ReluGrad()(np.array([1.0, 2.0], np.float32), np.array([-1.0, 3.0], np.float32)).tolist()
    [0.0, 2.0]
"""
from __future__ import annotations

from typing import Any, Callable

import jax
import jax.numpy as jnp

from mindjax.common.tensor import as_array
from mindjax.ops.operations._base import Primitive, check_int, record

_M = __name__


def _elementwise(name: str, args: tuple[str, ...], fn: Callable[..., jax.Array], doc: str) -> type:
    def call(self: Primitive, *values: Any) -> jax.Array:
        if len(values) != len(args):
            raise TypeError(f"For '{self.name}', expected {len(args)} inputs ({', '.join(args)}), but got "
                            f"{len(values)}.")
        arrays = [as_array(v) for v in values]
        shapes = {tuple(a.shape) for a in arrays}
        if len(shapes) > 1:
            raise ValueError(f"For '{self.name}', the inputs {', '.join(args)} must have the same shape, but got "
                             f"{[tuple(a.shape) for a in arrays]}.")
        return fn(*arrays).astype(arrays[0].dtype)

    call.__doc__ = f"``{name}()({', '.join(args)})``: {doc}"
    return type(name, (Primitive,), {"__call__": call, "__doc__": f"{doc}\n\n    Call: ``{name}()({', '.join(args)})``.",
                                     "__module__": _M})


def _gelu_tanh_grad(x: jax.Array) -> jax.Array:
    c = jnp.sqrt(2.0 / jnp.pi)
    inner = c * (x + 0.044715 * x ** 3)
    t = jnp.tanh(inner)
    return 0.5 * (1 + t) + 0.5 * x * (1 - t * t) * c * (1 + 3 * 0.044715 * x * x)


def _fast_gelu_grad(x: jax.Array) -> jax.Array:
    s = jax.nn.sigmoid(1.702 * x)
    return s + 1.702 * x * s * (1 - s)


_ELEMENTWISE = [
    ("ReluGrad", ("y_backprop", "x"), lambda dy, x: jnp.where(x > 0, dy, 0), "``dy`` where ``x > 0``, else 0"),
    ("ReLU6Grad", ("y_grad", "x"), lambda dy, x: jnp.where((x > 0) & (x < 6), dy, 0),
     "``dy`` where ``0 < x < 6``, else 0"),
    ("EluGrad", ("y_grad", "x"), lambda dy, y: jnp.where(y > 0, dy, dy * (y + 1)),
     "ELU's gradient from its output ``x``: ``dy``, or ``dy * (x + 1)`` where ``x <= 0``"),
    ("TanhGrad", ("y", "dy"), lambda y, dy: dy * (1 - y * y), "``dy * (1 - y ** 2)`` from tanh's output ``y``"),
    ("SigmoidGrad", ("y", "dy"), lambda y, dy: dy * y * (1 - y), "``dy * y * (1 - y)`` from sigmoid's output"),
    ("SqrtGrad", ("y", "dy"), lambda y, dy: dy / (2 * y), "``dy / (2 y)`` from sqrt's output ``y``"),
    ("RsqrtGrad", ("y", "dy"), lambda y, dy: -0.5 * dy * y ** 3, "``-dy * y ** 3 / 2`` from rsqrt's output"),
    ("ReciprocalGrad", ("y", "dy"), lambda y, dy: -dy * y * y, "``-dy * y ** 2`` from the reciprocal ``y``"),
    ("InvGrad", ("x", "grad"), lambda y, dy: -dy * y * y, "``-grad * x ** 2`` from inv's output ``x``"),
    ("SoftplusGrad", ("gradients", "features"), lambda dy, x: dy * jax.nn.sigmoid(x), "``dy * sigmoid(x)``"),
    ("AtanGrad", ("x", "dout"), lambda x, dy: dy / (1 + x * x), "``dout / (1 + x ** 2)``"),
    ("AsinGrad", ("x", "dout"), lambda x, dy: dy / jnp.sqrt(1 - x * x), "``dout / sqrt(1 - x ** 2)``"),
    ("AsinhGrad", ("y", "dy"), lambda y, dy: dy / jnp.cosh(y), "``dy / cosh(y)`` from asinh's output"),
    ("AcoshGrad", ("y", "dy"), lambda y, dy: dy / jnp.sinh(y), "``dy / sinh(y)`` from acosh's output"),
    ("SiLUGrad", ("dout", "x"), lambda dy, x: dy * (jax.nn.sigmoid(x) * (1 + x * (1 - jax.nn.sigmoid(x)))),
     "``dout * d silu(x) / dx``"),
    ("HSwishGrad", ("y_grad", "x"), lambda dy, x: dy * jnp.where(x <= -3, 0, jnp.where(x >= 3, 1, (2 * x + 3) / 6)),
     "hard swish's gradient"),
    ("HSigmoidGrad", ("grads", "input_x"), lambda dy, x: jnp.where((x > -3) & (x < 3), dy / 6, 0),
     "hard sigmoid's gradient"),
    ("GeLUGrad", ("dy", "x", "y"), lambda dy, x, y: dy * _gelu_tanh_grad(x), "GELU's gradient (tanh form)"),
    ("FastGeLUGrad", ("dy", "x"), lambda dy, x: dy * _fast_gelu_grad(x), "the gradient of ``x * sigmoid(1.702 x)``"),
]

for _name, _args, _fn, _doc in _ELEMENTWISE:
    globals()[_name] = _elementwise(_name, _args, _fn, _doc)
del _name, _args, _fn, _doc


class _ShrinkGrad(Primitive):
    def __init__(self, lambd: float = 0.5) -> None:
        super().__init__()
        if not isinstance(lambd, float) or lambd < 0:
            raise TypeError(f"For '{self.name}', 'lambd' must be a non-negative float, but got {lambd!r}.")
        record(self, lambd=lambd)

    def __call__(self, gradients: Any, features: Any) -> jax.Array:
        dy, x = as_array(gradients), as_array(features)
        return jnp.where(jnp.abs(x) > self.lambd, dy, jnp.zeros((), dy.dtype))


class HShrinkGrad(_ShrinkGrad):
    """Hard shrink's gradient: ``gradients`` where ``|features| > lambd``. Call: ``HShrinkGrad(lambd)(gradients,
    features)``."""


class SoftShrinkGrad(_ShrinkGrad):
    """Soft shrink's gradient: ``input_grad`` where ``|input_x| > lambd``. Call: ``SoftShrinkGrad(lambd)(input_grad,
    input_x)``."""


class BiasAddGrad(Primitive):
    """BiasAdd's gradient: ``dout`` summed over every axis but the channel one.

    Arguments:
        data_format: ``'NCHW'`` (default, channel axis 1), ``'NHWC'`` or ``'NCDHW'``.

    Call: ``BiasAddGrad(data_format)(dout)``.
    """

    def __init__(self, data_format: str = "NCHW") -> None:
        super().__init__()
        if data_format not in ("NCHW", "NHWC", "NCDHW"):
            raise ValueError(f"For '{self.name}', 'data_format' must be 'NCHW', 'NHWC' or 'NCDHW', but got "
                             f"{data_format!r}.")
        record(self, data_format=data_format)

    def __call__(self, dout: Any) -> jax.Array:
        g = as_array(dout)
        if g.ndim < 2:
            raise ValueError(f"For '{self.name}', 'dout' must be at least 2-D, but got shape {tuple(g.shape)}.")
        channel = g.ndim - 1 if self.data_format == "NHWC" else 1
        return jnp.sum(g, axis=tuple(a for a in range(g.ndim) if a != channel))


class LogSoftmaxGrad(Primitive):
    """LogSoftmax's gradient from its output: ``grad - exp(logits) * sum(grad, axis)``.

    Arguments:
        axis: the softmax axis. Default: ``-1``.

    Call: ``LogSoftmaxGrad(axis)(logits, grad)`` with ``logits`` the LogSoftmax output.
    """

    def __init__(self, axis: int = -1) -> None:
        super().__init__()
        record(self, axis=check_int(self.name, "axis", axis))

    def __call__(self, logits: Any, grad: Any) -> jax.Array:
        y, g = as_array(logits), as_array(grad)
        return g - jnp.exp(y) * jnp.sum(g, axis=self.axis, keepdims=True)


__all__ = sorted([name for name, _, _, _ in _ELEMENTWISE] + ["HShrinkGrad", "SoftShrinkGrad", "BiasAddGrad",
                                                              "LogSoftmaxGrad"])
