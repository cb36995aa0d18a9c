"""``mindspore.common.api``: ``jit`` and ``jit_class``, and MindSpore's executor objects.

``jit`` is implemented in :mod:`mindjax.transforms.jit`; this facade module names it
where MindSpore's user code imports it from (``from mindspore.common.api import jit``).
Nothing in the lower layers imports it.

``_cell_graph_executor`` and ``_pynative_executor`` are the two executor objects that
MindSpore's own tests call directly: ``_cell_graph_executor.compile(net, *inputs)``
compiles a Cell's GRAPH-mode program without changing its state, and
``_pynative_executor.sync()`` waits for pending device work.

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

import jax

from mindjax import context
from mindjax.cells.state import collect_variables
from mindjax.common.random import RNG_STATE
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


class _CellGraphExecutor:
    """MindSpore's ``_cell_graph_executor``: compile a Cell's GRAPH-mode program, or run it.

    ``compile`` traces and compiles ``obj(*args)`` as GRAPH mode does (so shape and
    type errors surface), then puts every Parameter, buffer-like Variable and the
    random key back as they were: compiling changes no state, as in MindSpore.
    """

    def compile(self, obj: Any, *args: Any, phase: str = "predict", do_convert: bool = True,
                jit_config_dict: Any = None, **kwargs: Any) -> bool:
        """Compile ``obj(*args, **kwargs)``; return True.

        Raises:
            whatever building the program raises (a shape or type error names the Cell).
        """
        variables = collect_variables(obj) + [RNG_STATE] if hasattr(obj, "_params") else [RNG_STATE]
        saved = [v._raw for v in variables]
        previous = context.get_context("mode")
        context.set_context(mode=context.GRAPH_MODE)
        try:
            jax.block_until_ready(jax.tree_util.tree_leaves(obj(*args, **kwargs)))
        finally:
            context.set_context(mode=previous)
            for variable, value in zip(variables, saved):
                object.__setattr__(variable, "_raw", value)
        return True

    def __call__(self, obj: Any, *args: Any, phase: str = "predict") -> Any:
        """Run ``obj(*args)`` as a compiled GRAPH-mode program."""
        previous = context.get_context("mode")
        context.set_context(mode=context.GRAPH_MODE)
        try:
            return obj(*args)
        finally:
            context.set_context(mode=previous)


class _PynativeExecutor:
    """MindSpore's ``_pynative_executor``: ``sync()`` waits until dispatched work is done."""

    def sync(self) -> None:
        """Block until every dispatched computation (and its errors) has finished."""
        jax.effects_barrier()


_cell_graph_executor = _CellGraphExecutor()
_pynative_executor = _PynativeExecutor()
