"""Casts, with MindSpore's gradient through a cast to an integer or bool dtype.

MindSpore differentiates a cast as the identity: ``ms.grad(lambda x: x.int().sum())(x)`` is
ones, and every op after the cast passes its gradient on as if the integers were reals. JAX
gives integer values no gradient at all (their cotangent is ``float0``), so no rule at the cast
alone can bring that gradient back: the ops after it drop it first.

While a gradient is taken (:func:`integer_casts_differentiable`, entered by MindJAX's grad
transforms), a cast of a floating-point *traced* array to an integer or bool dtype therefore
gives the cast values (truncated, wrapped, as the real cast gives them) kept in the input's
floating dtype; their gradient is cast to the integer dtype and back (a ``custom_vjp``), as
MindSpore's ops give an integer tensor its gradient in its own dtype before the cast's gradient
casts it back. Everything after it is then differentiated as MindSpore does. When the code
after the cast needs real integers (an index, a bitwise op), the transform runs it again
without this rule, and the gradient through the cast is zero, as JAX says. Outside a gradient,
and for concrete arrays, a cast is a plain ``astype``.

Example:
    >>> import jax.numpy as jnp
    >>> from mindjax.common.casting import cast_array
    >>> cast_array(jnp.asarray([1.5, -2.5]), jnp.int32).tolist()
    [1, -2]
"""
from __future__ import annotations

import contextlib
import functools
import threading
from typing import Any, Iterator

import jax
import jax.numpy as jnp

__all__ = ["CastRecord", "cast_array", "integer_casts_differentiable", "integer_casts_plain"]


class CastRecord:
    """What happened while :func:`integer_casts_differentiable` was active.

    Attributes:
        used: how many casts to an integer or bool dtype kept their gradient.
    """

    def __init__(self) -> None:
        self.used = 0


_STATE = threading.local()


@contextlib.contextmanager
def integer_casts_differentiable() -> Iterator[CastRecord]:
    """Within: a traced floating-point cast to an integer/bool dtype keeps MindSpore's identity gradient.

    Yields:
        a :class:`CastRecord` counting the casts that did (none: nothing differed from a plain cast).
    """
    record = CastRecord()
    stack = getattr(_STATE, "stack", None)
    if stack is None:
        stack = _STATE.stack = []
    stack.append(record)
    try:
        yield record
    finally:
        stack.pop()


@contextlib.contextmanager
def integer_casts_plain() -> Iterator[None]:
    """Within: casts are plain ``astype`` again, even inside :func:`integer_casts_differentiable`."""
    stack = getattr(_STATE, "stack", None)
    if stack is None:
        stack = _STATE.stack = []
    stack.append(None)
    try:
        yield
    finally:
        stack.pop()


def _active() -> CastRecord | None:
    stack = getattr(_STATE, "stack", None)
    return stack[-1] if stack else None


@functools.partial(jax.jit, static_argnums=1)
def _float_to_int(x: jax.Array, dtype: Any) -> jax.Array:
    """MindSpore's CPU cast of floats to an integer dtype: truncate into int32 (int64 for 64-bit and
    uint32 targets), out-of-range values and NaN becoming that type's minimum, then wrap to ``dtype``'s
    bits (``Tensor([-230.]).byte()`` is 26, ``Tensor([1e10]).int()`` is -2147483648)."""
    wide = jnp.dtype(jnp.int64 if dtype.itemsize == 8 or dtype == jnp.uint32 else jnp.int32)
    if not jax.config.jax_enable_x64:
        wide = jnp.dtype(jnp.int32)
    if x.dtype.itemsize < 4:
        x = x.astype(jnp.float32)
    bound = float(2 ** (8 * wide.itemsize - 1))
    inside = (x >= -bound) & (x < bound)
    low = jnp.asarray(jnp.iinfo(wide).min, wide)
    return jnp.where(inside, jnp.where(inside, x, 0).astype(wide), low).astype(dtype)


def _plain_cast(x: jax.Array, dtype: Any) -> jax.Array:
    if jnp.issubdtype(x.dtype, jnp.floating) and jnp.issubdtype(dtype, jnp.integer):
        return _float_to_int(x, dtype)
    return x.astype(dtype)


@functools.partial(jax.custom_vjp, nondiff_argnums=(1,))
def _cast_keeping_gradient(x: jax.Array, dtype: Any) -> jax.Array:
    return _plain_cast(x, dtype).astype(x.dtype)


def _cast_keeping_gradient_fwd(x: jax.Array, dtype: Any) -> tuple[jax.Array, None]:
    return _cast_keeping_gradient(x, dtype), None


def _cast_keeping_gradient_bwd(dtype: Any, _: None, g: jax.Array) -> tuple[jax.Array]:
    # MindSpore's ops give an integer tensor its gradient in its own dtype (truncated, wrapped), and the
    # cast's gradient is that, cast back to the input's dtype.
    return (_plain_cast(g, dtype).astype(g.dtype),)


_cast_keeping_gradient.defvjp(_cast_keeping_gradient_fwd, _cast_keeping_gradient_bwd)


def cast_array(x: Any, dtype: Any) -> jax.Array:
    """``x`` as ``dtype`` (a JAX/numpy dtype), with MindSpore's CPU values and gradient.

    A float cast to an integer dtype truncates into int32 (int64 for 64-bit and uint32 targets), out of
    range values and NaN becoming that type's minimum, and wraps to ``dtype``'s bits, as MindSpore's CPU
    kernel does (``Tensor([-230.]).byte()`` is 26). See the module docstring for the gradient rule.

    Arguments:
        x: an array (a ``jax.Array`` or anything ``jnp.asarray`` takes).
        dtype: the target dtype, already a JAX dtype.

    Returns:
        the cast array: ``dtype``, or, while a gradient is taken of a traced floating ``x`` and
        ``dtype`` is an integer or bool dtype, the cast values in ``x``'s dtype.
    """
    x = jnp.asarray(x)
    dtype = jnp.dtype(dtype)
    if x.dtype == dtype:
        return x
    record = _active()
    if (record is not None and isinstance(x, jax.core.Tracer) and jnp.issubdtype(x.dtype, jnp.floating)
            and (jnp.issubdtype(dtype, jnp.integer) or dtype == jnp.bool_)):
        record.used += 1
        return _cast_keeping_gradient(x, dtype)
    return _plain_cast(x, dtype)
