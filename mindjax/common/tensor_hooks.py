"""``Tensor.register_hook``: a function of a Tensor's gradient, called when it is differentiated.

Each Tensor's hooks live in one registry (registration order), read when the
gradient is computed, so a handle removed before the backward pass takes
effect, as in MindSpore.

- A hook on a Tensor that is being traced (a value computed inside a function
  that ``ms.grad`` differentiates) puts the Tensor's value through an identity
  whose backward pass runs the Tensor's hooks.
- A hook on a concrete Tensor or a Parameter (a leaf: an input or a weight
  that is differentiated later) runs on the leaf's whole gradient once the
  gradient transform has computed it (:func:`apply_leaf_hooks`), so it is
  called even when that gradient is zero.
"""
from __future__ import annotations

import itertools
import weakref
from typing import Any, Callable

import jax

from mindjax.common.tensor import Tensor, unwrap, user_code, wrap

_IDS = itertools.count()
# id(Tensor) -> {handle id: hook}. Keyed by id (a Tensor's == is elementwise); an entry goes when
# its Tensor is collected.
_HOOKS: dict[int, dict[int, Callable[[Any], Any]]] = {}
# id(traced Tensor) -> the value whose identity already runs its hooks.
_INSTALLED: dict[int, Any] = {}


def _hooks_of(tensor: Tensor) -> dict[int, Callable[[Any], Any]]:
    key = id(tensor)
    if key not in _HOOKS:
        _HOOKS[key] = {}
        weakref.finalize(tensor, _forget, key)
    return _HOOKS[key]


def _forget(key: int) -> None:
    _HOOKS.pop(key, None)
    _INSTALLED.pop(key, None)


def remove_by_id(handle_id: int) -> None:
    """Unregister the hook whose handle has ``id`` ``handle_id`` (``Tensor.remove_hook``)."""
    for hooks in _HOOKS.values():
        if hooks.pop(handle_id, None) is not None:
            return


class TensorHookHandle:
    """Returned by ``Tensor.register_hook``; ``remove()`` unregisters the hook, ``id`` names it
    for ``Tensor.remove_hook(id)``."""

    def __init__(self, tensor: Tensor, key: int) -> None:
        self._tensor = weakref.ref(tensor)
        self._key = key

    @property
    def id(self) -> int:
        """The handle's id (what ``Tensor.remove_hook`` takes)."""
        return self._key

    def remove(self) -> None:
        """Unregister the hook (a second call does nothing)."""
        tensor = self._tensor()
        if tensor is not None and id(tensor) in _HOOKS:
            _HOOKS[id(tensor)].pop(self._key, None)


def _run_hooks(hooks: dict[int, Callable[[Any], Any]], g: Any) -> Any:
    """``g`` through each live hook in registration order; a hook returning None keeps it."""
    for hook in list(hooks.values()):
        with user_code():
            new = hook(wrap(g))
        if new is None:
            continue
        new = unwrap(new)
        if getattr(new, "shape", None) != g.shape:
            raise ValueError(f"For 'Tensor.register_hook', the hook must return a gradient of shape "
                             f"{tuple(g.shape)}, got {tuple(getattr(new, 'shape', ()))}")
        g = jax.numpy.asarray(new, g.dtype)
    return g


def _with_hooks(value: Any, hooks: dict[int, Callable[[Any], Any]]) -> Any:
    """``value`` unchanged; its gradient goes through ``hooks`` as they are at backward time."""
    @jax.custom_vjp
    def identity(x: Any) -> Any:
        return x

    def fwd(x: Any) -> tuple[Any, None]:
        return x, None

    def bwd(_: None, g: Any) -> tuple[Any]:
        return (_run_hooks(hooks, g),)

    identity.defvjp(fwd, bwd)
    return identity(value)


def register(tensor: Tensor, hook: Callable[[Any], Any]) -> TensorHookHandle:
    """Register ``hook`` on ``tensor`` (see the module docstring).

    Raises:
        TypeError: ``hook`` is not callable.
        RuntimeError: ``tensor`` is a Parameter with ``requires_grad=False``.
    """
    if not callable(hook):
        raise TypeError(f"For 'Tensor.register_hook', 'hook' must be a function, got {type(hook).__name__}")
    if getattr(tensor, "requires_grad", True) is False:
        raise RuntimeError("The tensor requires grad is false, which can not register tensor hook")
    hooks = _hooks_of(tensor)
    key = next(_IDS)
    hooks[key] = hook
    value = tensor._value
    if isinstance(value, jax.core.Tracer) and _INSTALLED.get(id(tensor)) is not value:
        hooked = _with_hooks(value, hooks)
        tensor._write(hooked)
        _INSTALLED[id(tensor)] = hooked
    return TensorHookHandle(tensor, key)


def hooks_of(tensor: Tensor) -> list[Callable[[Any], Any]]:
    """The hooks registered on ``tensor`` and not removed, in registration order."""
    return list(_HOOKS.get(id(tensor), {}).values())


def apply_leaf_hooks(leaf: Any, grad_value: Any) -> Any:
    """``grad_value``, the whole gradient of ``leaf`` (an input Tensor or a Parameter), through its hooks.

    Arguments:
        leaf: what was differentiated; anything but a Tensor has no hooks.
        grad_value: its gradient (an array or a Tensor).

    Returns:
        the gradient the hooks leave, as the same kind of value (Tensor or array).
    """
    hooks = _HOOKS.get(id(leaf)) if isinstance(leaf, Tensor) else None
    if not hooks or getattr(grad_value, "dtype", None) == jax.dtypes.float0:
        return grad_value
    out = _run_hooks(hooks, unwrap(grad_value))
    return Tensor._wrap(out) if isinstance(grad_value, Tensor) else out
