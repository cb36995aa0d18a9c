"""``Tensor.register_hook``: a function of a Tensor's gradient, called when it is differentiated.

A hook on a Tensor that is being traced (a value computed inside a function
that ``ms.grad`` differentiates) takes effect at once: the Tensor's value goes
through an identity whose backward pass calls the hook. A hook on a concrete
Tensor (an input that will be differentiated later) is recorded here, and the
gradient transforms apply it to the traced value that stands for that input.
"""
from __future__ import annotations

import itertools
import weakref
from typing import Any, Callable

import jax

from mindjax.common.tensor import Tensor, unwrap, user_code, wrap

_IDS = itertools.count()
# id(Tensor) -> {handle id: hook}, for Tensors whose hooks wait for a gradient transform. Keyed by
# id (a Tensor's == is elementwise); an entry goes when its Tensor is collected.
_PENDING: dict[int, dict[int, Callable[[Any], Any]]] = {}


def _hooks_of(tensor: Tensor) -> dict[int, Callable[[Any], Any]]:
    key = id(tensor)
    if key not in _PENDING:
        _PENDING[key] = {}
        weakref.finalize(tensor, _PENDING.pop, key, None)
    return _PENDING[key]


class TensorHookHandle:
    """Returned by ``Tensor.register_hook``; ``remove()`` unregisters the hook."""

    def __init__(self, tensor: Tensor, key: int) -> None:
        self._tensor = weakref.ref(tensor)
        self._key = key

    def remove(self) -> None:
        """Unregister the hook (a second call does nothing)."""
        tensor = self._tensor()
        if tensor is not None and id(tensor) in _PENDING:
            _PENDING[id(tensor)].pop(self._key, None)


def _with_hook(value: Any, hook: Callable[[Any], Any]) -> Any:
    """``value`` unchanged; its gradient is ``hook(gradient)`` when the hook returns one."""
    @jax.custom_vjp
    def identity(x: Any) -> Any:
        return x

    def fwd(x: Any) -> tuple[Any, None]:
        return x, None

    def bwd(_: None, g: Any) -> tuple[Any]:
        with user_code():
            new = hook(wrap(g))
        if new is None:
            return (g,)
        new = unwrap(new)
        if getattr(new, "shape", None) != g.shape:
            raise ValueError(f"For 'Tensor.register_hook', the hook must return a gradient of shape "
                             f"{tuple(g.shape)}, got {tuple(getattr(new, 'shape', ()))}")
        return (jax.numpy.asarray(new, g.dtype),)

    identity.defvjp(fwd, bwd)
    return identity(value)


def register(tensor: Tensor, hook: Callable[[Any], Any]) -> TensorHookHandle:
    """Register ``hook`` on ``tensor`` (see the module docstring)."""
    if not callable(hook):
        raise TypeError(f"For 'Tensor.register_hook', 'hook' must be a function, got {type(hook).__name__}")
    key = next(_IDS)
    if isinstance(tensor._value, jax.core.Tracer):
        tensor._write(_with_hook(tensor._value, hook))
    else:
        _hooks_of(tensor)[key] = hook
    return TensorHookHandle(tensor, key)


def apply_pending(original: Any, traced: Any) -> Any:
    """``traced`` (the value standing for input ``original`` in a gradient trace) with ``original``'s hooks."""
    hooks = _PENDING.get(id(original)) if isinstance(original, Tensor) else None
    if not hooks:
        return traced
    value = unwrap(traced)
    for hook in list(hooks.values()):
        value = _with_hook(value, hook)
    return Tensor._wrap(value) if isinstance(traced, Tensor) else value
