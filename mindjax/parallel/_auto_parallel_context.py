"""``mindspore.parallel._auto_parallel_context``: the object view of the auto-parallel context.

MindSpore's model-zoo scripts read the parallel context through
``auto_parallel_context().get_<key>()`` (and ``get_<key>_is_set()``); each
getter and setter here reads or writes :func:`mindjax.set_auto_parallel_context`'s
one store.

Example:
    >>> import mindjax as ms
    >>> from mindjax.parallel._auto_parallel_context import auto_parallel_context
    >>> auto_parallel_context().get_parallel_mode()
    'stand_alone'
"""
from __future__ import annotations

from typing import Any, Callable

from mindjax import context as _context

__all__ = ["auto_parallel_context"]


class _AutoParallelContext:
    """``get_<key>()``, ``get_<key>_is_set()`` and ``set_<key>(value)`` for every auto-parallel key."""

    def __getattr__(self, name: str) -> Callable[..., Any]:
        if name.startswith("get_") and name.endswith("_is_set"):
            key = name[4:-7]
            return lambda: _context.auto_parallel_key_is_set(key)
        if name.startswith("get_"):
            key = name[4:]
            return lambda: _context.get_auto_parallel_context(key)
        if name.startswith("set_"):
            key = name[4:]
            return lambda value: _context.set_auto_parallel_context(**{key: value})
        raise AttributeError(f"'_AutoParallelContext' object has no attribute '{name}'")

    def reset(self) -> None:
        """Restore every parallel setting to its default."""
        _context.reset_auto_parallel_context()


_CONTEXT = _AutoParallelContext()


def auto_parallel_context() -> _AutoParallelContext:
    """The process's auto-parallel context object (one per process, as in MindSpore)."""
    return _CONTEXT


def _set_auto_parallel_context(**kwargs: Any) -> None:
    _context.set_auto_parallel_context(**kwargs)


def _get_auto_parallel_context(attr_key: str) -> Any:
    return _context.get_auto_parallel_context(attr_key)


def _reset_auto_parallel_context() -> None:
    _context.reset_auto_parallel_context()
