"""``mindspore.common.api``: ``jit`` and ``jit_class``.

``jit`` is implemented in :mod:`mindjax.transforms.jit`; this facade module names it
where MindSpore's user code imports it from (``from mindspore.common.api import jit``).
Nothing in the lower layers imports it.

Example:
    >>> from mindjax.common.api import jit_class
    >>> @jit_class
    ... class Scale:
    ...     def __init__(self, k):
    ...         self.k = k
    >>> Scale.__ms_class__
    True
"""
from __future__ import annotations

from typing import Any, TypeVar

from mindjax.transforms.jit import jit

__all__ = ["jit", "jit_class"]

_T = TypeVar("_T", bound=type)


def jit_class(cls: _T) -> _T:
    """Mark a user class as usable inside compiled code (MindSpore's ``@jit_class``).

    Compiled code here is traced Python, so every class is usable already; the mark
    (``cls.__ms_class__ = True``) is set for code that checks it.

    Arguments:
        cls: a class that is not a ``Cell``.

    Returns:
        ``cls`` itself.

    Raises:
        TypeError: ``cls`` is not a class, or is a ``Cell`` subclass.
    """
    if not isinstance(cls, type):
        raise TypeError(f"Decorator jit_class can only be used for class type, but got {cls!r}.")
    from mindjax.cells.cell import Cell  # lazy: keeps this facade cheap to import
    if issubclass(cls, Cell):
        raise TypeError(f"Decorator jit_class is used for user-defined classes and cannot be used for nn.Cell: "
                        f"{cls!r}.")
    setattr(cls, "__ms_class__", True)
    return cls
