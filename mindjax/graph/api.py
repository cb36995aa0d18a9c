"""``mindspore.graph.api``: ``set_recursion_limit``.

MindSpore limits the call depth its graph compiler follows. MindJAX compiles by
running the Python code under a JAX trace, so the limit that matters is
Python's own: ``set_recursion_limit(n)`` raises Python's recursion limit to
``n`` when it is lower (it never lowers it, which would break the running
interpreter).
"""
from __future__ import annotations

import sys

__all__ = ["set_recursion_limit"]


def set_recursion_limit(recursion_limit: int = 1000) -> None:
    """Specify the function-call depth allowed while compiling (MindSpore's ``set_recursion_limit``).

    Arguments:
        recursion_limit (int, optional): the depth limit; a positive integer. Default: ``1000``.

    Raises:
        TypeError: ``recursion_limit`` is not an int.
        ValueError: ``recursion_limit`` is not positive (or is a bool).

    Example:
        >>> import mindjax as ms
        >>> ms.set_recursion_limit(10000)
    """
    if isinstance(recursion_limit, bool) or (isinstance(recursion_limit, int) and recursion_limit <= 0):
        raise ValueError(f"The input value must be int and must > 0, but got '{recursion_limit}' with type "
                         f"'{type(recursion_limit).__name__}'.")
    if not isinstance(recursion_limit, int):
        raise TypeError(f"The input value must be int, but got '{type(recursion_limit).__name__}'")
    if recursion_limit > sys.getrecursionlimit():
        sys.setrecursionlimit(recursion_limit)
