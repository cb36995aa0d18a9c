"""``opt_init_args_register``: record an optimizer's constructor arguments (MindSpore's decorator).

Example:
    >>> from mindjax.cells.optim.init_args import opt_init_args_register
    >>> class MyOpt:
    ...     @opt_init_args_register
    ...     def __init__(self, params, learning_rate=0.1, momentum=0.9):
    ...         pass
    >>> opt = MyOpt([1, 2])
    >>> opt.init_params, opt.init_learning_rate, opt.init_args
    ({'params': [1, 2]}, 0.1, {'momentum': 0.9})
"""
from __future__ import annotations

import functools
import inspect
from typing import Any, Callable

import numpy as np

__all__ = ["opt_init_args_register"]


def opt_init_args_register(fn: Callable[..., None]) -> Callable[..., None]:
    """Decorate an optimizer's ``__init__`` so the instance keeps its arguments.

    Before ``fn`` runs, the bound arguments (defaults applied) are stored: ``params``
    (or an ``optimizer`` argument's own ``init_params``) as ``self.init_params``,
    ``learning_rate`` as ``self.init_learning_rate`` (a list for a Tensor, None for a
    schedule Cell), and the rest as ``self.init_args``.

    Arguments:
        fn: the ``__init__`` to wrap.

    Returns:
        the wrapped ``__init__``.
    """
    signature = inspect.signature(fn)

    @functools.wraps(fn)
    def deco(self: Any, *args: Any, **kwargs: Any) -> None:
        bound = signature.bind(self, *args, **kwargs)
        bound.apply_defaults()
        arguments = dict(bound.arguments)
        arguments.pop("self", None)
        if "params" in arguments:
            self.init_params = {"params": arguments.pop("params")}
        if "optimizer" in arguments:
            # A wrapped optimizer without recorded arguments gives its Parameters; a non-optimizer
            # gives nothing here and is rejected by the wrapper's own type check.
            inner = arguments.pop("optimizer")
            if "init_params" in getattr(inner, "__dict__", {}):
                self.init_params = {"params": inner.init_params["params"]}
            elif hasattr(inner, "parameters") and not callable(inner.parameters):
                self.init_params = {"params": list(inner.parameters)}
        if "learning_rate" in arguments:
            lr = arguments.pop("learning_rate")
            if hasattr(lr, "construct"):  # a schedule Cell
                self.init_learning_rate = None
            elif hasattr(lr, "shape") and hasattr(lr, "dtype"):
                self.init_learning_rate = np.asarray(lr).tolist()
            else:
                self.init_learning_rate = lr
        self.init_args = arguments
        fn(self, *args, **kwargs)
    return deco
