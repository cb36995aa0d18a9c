"""``mindspore.graph.no_inline``: MindSpore's "compile as a reused sub-graph" mark for functions.

XLA decides inlining for the one program MindJAX builds, so the mark only sets
``fn.no_inline = True`` (as MindSpore does) and returns ``fn``.
"""
from __future__ import annotations

from typing import Any, Callable

__all__ = ["no_inline"]


def no_inline(fn: Callable[..., Any] | None = None) -> Any:
    """Mark a Python function as not to be inlined (MindSpore's ``mindspore.no_inline``).

    Arguments:
        fn (function): the Python function. For a Cell's method see :func:`mindjax.lazy_inline`.

    Returns:
        ``fn`` itself, marked; or a decorator doing that when ``fn`` is None.

    Raises:
        TypeError: ``fn`` is not callable.

    Example:
        >>> import mindjax as ms
        >>> @ms.no_inline
        ... def f(x):
        ...     return x * 3 + 2
        >>> f.no_inline, f(1)
        (True, 5)
    """
    def wrap(function: Callable[..., Any]) -> Callable[..., Any]:
        if not callable(function):
            raise TypeError(f"For 'no_inline', 'fn' must be a function, but got {type(function).__name__}.")
        function.no_inline = True  # type: ignore[attr-defined]
        return function

    if fn is not None:
        return wrap(fn)
    return wrap
