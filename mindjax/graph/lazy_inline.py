"""``mindspore.graph.lazy_inline``: MindSpore's sub-graph reuse mark, checked and kept as a no-op.

MindSpore compiles a ``@lazy_inline`` Cell once as a sub-graph and calls it.
MindJAX traces every Cell into one XLA program, which XLA deduplicates itself,
so the decorator changes nothing; it checks its arguments as MindSpore does
and returns the ``__init__`` it was given.
"""
from __future__ import annotations

import inspect
from typing import Any, Callable

__all__ = ["lazy_inline"]


def _check(fn: Any, attrs: Any, policy: Any) -> None:
    if inspect.isclass(fn):
        raise ValueError(f"The lazy_inline should decorate the __init__ function, not the class {fn.__name__}.")
    if not callable(fn) or getattr(fn, "__name__", None) != "__init__":
        raise ValueError(f"The lazy_inline should decorate the __init__ function, not the function: "
                         f"{getattr(fn, '__name__', type(fn).__name__)}.")
    if policy is not None and policy != "front":
        raise ValueError("policy must be None or 'front'")
    if isinstance(attrs, list):
        if not all(isinstance(attr, str) for attr in attrs):
            raise ValueError("attr must be a string")
    elif attrs is not None and not isinstance(attrs, str):
        raise ValueError("attrs must be list or string")


def lazy_inline(fn: Callable[..., Any] | None = None, attrs: list[str] | str | None = None,
                policy: str | None = None) -> Any:
    """Mark a Cell's ``__init__`` as MindSpore's reusable sub-graph (a no-op here; see the module).

    Arguments:
        fn (function, optional): the ``__init__`` of a Cell. Default: ``None``.
        attrs (Union[list[str], str], optional): the attributes to add to the Cell. Default: ``None``.
        policy (Union[None, "front"], optional): the inline policy. Default: ``None``.

    Returns:
        ``fn`` itself, or a decorator that checks and returns its function when ``fn`` is None.

    Raises:
        ValueError: ``fn`` is a class or not an ``__init__``, ``policy`` is neither None nor
            ``'front'``, or ``attrs`` is neither a list of strings nor a string.

    Example:
        >>> import mindjax as ms
        >>> class Block(ms.nn.Cell):
        ...     @ms.lazy_inline
        ...     def __init__(self):
        ...         super().__init__()
        ...     def construct(self, x):
        ...         return x
        >>> Block()(1)
        1
    """
    def wrap(function: Callable[..., Any]) -> Callable[..., Any]:
        _check(function, attrs, policy)
        return function

    if fn is not None:
        return wrap(fn)
    return wrap
