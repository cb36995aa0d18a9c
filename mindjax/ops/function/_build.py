"""Builders shared by the ``ops.function`` modules: elementwise ops from a jnp function, argument checks.

Elementwise ops differ only in their function, their MindSpore argument names and
whether integer inputs are promoted to float, so they are built here rather than
written out one by one. Each built op binds its arguments by MindSpore's names
(``ops.atan2(input=x, other=y)``), names itself in its errors, and is a
``tensor_op``.
"""
from __future__ import annotations

import inspect
from typing import Any, Callable, Sequence

import jax
import jax.numpy as jnp
import numpy as np

from mindjax.common.tensor import Tensor
from mindjax.common.tensor import as_array, tensor_op
from mindjax.ops.functional import _axes, _axis, _named  # noqa: F401 - re-exported to the modules


def _arr(x: Any) -> jax.Array:
    return as_array(x)


def _operand(x: Any) -> Any:
    # Python scalars stay weakly typed so that ``int8_tensor + 2`` keeps int8, as in MindSpore.
    if isinstance(x, (bool, int, float, complex)) and not isinstance(x, np.generic):
        return x
    return as_array(x)


def _float(x: jax.Array) -> jax.Array:
    """Integer and bool arrays promoted to float32 (MindSpore's float-only kernels do the same)."""
    return x if jnp.issubdtype(x.dtype, jnp.inexact) else x.astype(jnp.float32)


def _signature(names: Sequence[str]) -> inspect.Signature:
    return inspect.Signature([inspect.Parameter(n, inspect.Parameter.POSITIONAL_OR_KEYWORD) for n in names])


def _bind(op: str, sig: inspect.Signature, args: tuple[Any, ...], kwargs: dict[str, Any]) -> list[Any]:
    try:
        bound = sig.bind(*args, **kwargs)
    except TypeError as exc:
        raise TypeError(f"For '{op}', {exc}") from None
    return [bound.arguments[n] for n in sig.parameters]


def elementwise(name: str, fn: Callable[..., Any], doc: str, args: Sequence[str] = ("input",),
                to_float: bool = False, module: str | None = None) -> Callable[..., jax.Array]:
    """A public elementwise op ``name(*args)`` computing ``fn`` on the converted inputs.

    Arguments:
        name: the op's MindSpore name.
        fn: the computation on ``jax.Array``s (Python scalars are passed through weakly typed).
        doc: one line saying what the op computes.
        args: MindSpore's argument names, in order.
        to_float: promote integer and bool array inputs to float32 first.
        module: the ``__module__`` to report.

    Returns:
        the op.
    """
    sig = _signature(args)

    def op(*a: Any, **k: Any) -> jax.Array:
        values = _bind(name, sig, a, k)
        values = [_operand(v) for v in values]
        if to_float:
            values = [_float(v) if isinstance(v, jax.Array) else v for v in values]
            if not any(isinstance(v, jax.Array) for v in values):
                values = [_float(jnp.asarray(v)) for v in values]
        return fn(*values)

    op.__name__ = op.__qualname__ = name
    if module:
        op.__module__ = module
    shown = ", ".join(args)
    op.__doc__ = (f"{doc}{', with broadcasting' if len(args) > 1 else ''}.\n\n    Arguments:\n"
                  f"        {shown}: array{'s or scalars' if len(args) > 1 else ''}"
                  f"{' (integers are promoted to float32)' if to_float else ''}.\n\n"
                  f"    Returns:\n        the elementwise result.\n")
    op.__signature__ = sig  # type: ignore[attr-defined]
    return tensor_op(_named(name)(op))


def alias(name: str, target: Callable[..., Any], module: str | None = None) -> Callable[..., Any]:
    """``target`` under MindSpore's other name ``name`` (``ops.arccos`` is ``ops.acos``)."""

    def op(*a: Any, **k: Any) -> Any:
        return target(*a, **k)

    op.__name__ = op.__qualname__ = name
    if module:
        op.__module__ = module
    op.__doc__ = f"Alias of ``{getattr(target, '__name__', name)}``: " + (target.__doc__ or "")
    try:
        op.__signature__ = inspect.signature(target)  # type: ignore[attr-defined]
    except (TypeError, ValueError):
        pass
    return tensor_op(op)


def check_bool(name: str, value: Any) -> bool:
    """``value`` when it is a bool; raise TypeError naming argument ``name`` otherwise."""
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"'{name}' must be a bool, got {type(value).__name__}")
    return bool(value)


def check_tensor(op: str, name: str, value: Any) -> Tensor:
    """``value`` when it is a Tensor (an in-place op writes into it); raise TypeError naming ``op`` and ``name``."""
    if not isinstance(value, Tensor):
        raise TypeError(f"For '{op}', '{name}' must be a Tensor, but got {type(value).__name__}")
    return value


def check_int(name: str, value: Any, minimum: int | None = None) -> int:
    """``value`` as an int (optionally at least ``minimum``); raise naming ``name`` otherwise."""
    if isinstance(value, (jax.Array, np.ndarray, Tensor)) and np.ndim(value) == 0 and jnp.issubdtype(value.dtype, jnp.integer):
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"'{name}' must be an int, got {type(value).__name__}")
    if minimum is not None and value < minimum:
        raise ValueError(f"'{name}' must be at least {minimum}, got {value}")
    return int(value)


def check_number(name: str, value: Any) -> float:
    """``value`` as a float when it is an int or float; raise TypeError naming ``name`` otherwise."""
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise TypeError(f"'{name}' must be an int or float, got {type(value).__name__}")
    return float(value)


def implicit_softmax_dim(ndim: int) -> int:
    """The axis PyTorch-style softmax (``mint``, the ``*Ext`` Cells) uses when ``dim`` is ``None``:
    0 for ranks 0, 1 and 3, else 1."""
    return 0 if ndim in (0, 1, 3) else 1


def check_reduction(reduction: Any) -> str:
    """``reduction`` when it is 'none', 'mean' or 'sum'."""
    if reduction not in ("none", "mean", "sum"):
        raise ValueError(f"'reduction' must be one of 'none', 'mean', 'sum', got {reduction!r}")
    return reduction


def reduce_loss(loss: jax.Array, reduction: str) -> jax.Array:
    """Apply a loss reduction: 'none' keeps the elementwise loss."""
    if reduction == "mean":
        return jnp.mean(loss)
    if reduction == "sum":
        return jnp.sum(loss)
    return loss


def ascend_only(name: str, instead: str, module: str | None = None) -> Callable[..., Any]:
    """An op MindSpore implements only on Ascend: calling it raises, naming what to use instead."""

    def op(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError(f"For '{name}', MindSpore implements this op only on Ascend NPUs; MindJAX runs on "
                           f"CPU, GPU and TPU through XLA. Use {instead} instead.")

    op.__name__ = op.__qualname__ = name
    if module:
        op.__module__ = module
    op.__doc__ = f"Ascend-only in MindSpore: raises RuntimeError. Use {instead} instead."
    return tensor_op(op)


def int_dtype() -> Any:
    """JAX's default integer type (int64 under x64, else int32), where MindSpore returns int64."""
    return jnp.int64 if jax.config.jax_enable_x64 else jnp.int32
