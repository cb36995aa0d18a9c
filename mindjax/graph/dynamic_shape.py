"""``mindspore.graph.dynamic_shape``: ``enable_dynamic``, a dynamic input signature for an ``@ms.jit`` function.

``@enable_dynamic(x=Tensor(shape=[None, 2], dtype=ms.float32))`` on top of
``@ms.jit`` gives the function the signature ``ms.jit(input_signature=...)``
would (:mod:`mindjax.transforms.dynamic_shape`): the program is traced once for
every size of the dynamic dimensions.
"""
from __future__ import annotations

import inspect
from typing import Any, Callable

from mindjax.common.tensor import ShapeOnly, Tensor
from mindjax.transforms.dynamic_shape import set_jit_signature

__all__ = ["enable_dynamic"]


def enable_dynamic(**kwargs: Any) -> Callable[[Any], Any]:
    """Mark arguments of an ``@ms.jit`` function as dynamic-shape Tensors (MindSpore's ``enable_dynamic``).

    Arguments:
        kwargs: per argument name, a shape-only Tensor with at least one ``None`` dimension.

    Returns:
        a decorator returning the ``@ms.jit`` function it was given, with the signature set.

    Raises:
        ValueError: no arguments, a name the function does not have, too many names, or a
            function not decorated by ``ms.jit``.
        TypeError: a value that is not a Tensor with a dynamic dimension.

    Example:
        >>> import numpy as np, mindjax as ms
        >>> @ms.enable_dynamic(x=ms.Tensor(shape=[None, 2], dtype=ms.float32))
        ... @ms.jit
        ... def f(x):
        ...     return x * 2
        >>> f(ms.Tensor(np.ones((3, 2), np.float32))).shape
        (3, 2)
    """
    if not kwargs:
        raise ValueError("When using decorator enable_dynamic, the input cannot be empty!")
    for name, arg in kwargs.items():
        if not isinstance(arg, Tensor):
            raise TypeError(f"When using decorator enable_dynamic, the argument '{name}' must be a Tensor such as "
                            f"Tensor(shape=[None, 3], dtype=ms.float32), but got {type(arg).__name__}.")
        if not isinstance(arg._raw, ShapeOnly):
            raise TypeError(f"When using decorator enable_dynamic, the shape of argument '{name}' at least have "
                            f"one None.")

    def decorator(func: Any) -> Any:
        target = getattr(func, "_fn", func)
        try:
            names = [n for n in inspect.signature(target).parameters if n != "self"]
        except (TypeError, ValueError):
            names = []
        if len(kwargs) > len(names):
            raise ValueError(f"When using decorator enable_dynamic, the number of arguments {len(kwargs)} "
                             f"exceeds the number of function arguments {len(names)}.")
        missing = [name for name in kwargs if name not in names]
        if missing:
            raise ValueError(f"When using decorator enable_dynamic, the function has no argument {missing[0]!r}.")
        last = max(names.index(name) for name in kwargs)
        signature = [kwargs.get(name) for name in names[:last + 1]]
        set_jit_signature(func, signature, "Decorator enable_dynamic")
        return func
    return decorator
