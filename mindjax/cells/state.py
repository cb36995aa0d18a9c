"""The state graph: a Cell tree's Variables as a flat list, and functional calls.

Everything that compiles or differentiates a Cell goes through here: gather
the Variables once (ordered, de-duplicated), then run Python code with their
values replaced by tracers and read back what the code wrote. The Cell objects
stay the source of truth between calls.

Example:
    >>> params = collect_variables(net)                        # doctest: +SKIP
    >>> out, new_values = call_with_values(params, values, net, x)   # doctest: +SKIP
"""
from __future__ import annotations

import contextlib
from typing import Any, Callable, Iterator, Sequence

import jax

from mindjax.common.variable import Variable

# Bumped whenever a Cell tree changes shape (a Parameter or sub-Cell assigned,
# set_train, hooks, to_float): compiled-call caches compare against it.
_STRUCTURE_VERSION = [0]


def bump_structure_version() -> None:
    """Invalidate every compiled-call cache (the Cell tree changed)."""
    _STRUCTURE_VERSION[0] += 1


def structure_version() -> int:
    """The current structure version (see :func:`bump_structure_version`)."""
    return _STRUCTURE_VERSION[0]


def collect_variables(cell: Any) -> list[Variable]:
    """All Parameters of ``cell``'s tree, each once, in ``parameters_and_names`` order."""
    return [p for _, p in cell.parameters_and_names()]


@contextlib.contextmanager
def substituted(variables: Sequence[Variable], values: Sequence[Any]) -> Iterator[None]:
    """Give ``variables`` the ``values`` for the duration of the block, then restore.

    What the block writes is available to the caller before the restore via
    ``[v._raw for v in variables]``; :func:`call_with_values` does exactly that.
    """
    saved = [v._raw for v in variables]
    for var, val in zip(variables, values):
        object.__setattr__(var, "_raw", val)
    try:
        yield
    finally:
        for var, val in zip(variables, saved):
            object.__setattr__(var, "_raw", val)


def call_with_values(variables: Sequence[Variable], values: Sequence[Any],
                     fn: Callable[..., Any], *args: Any, **kwargs: Any) -> tuple[Any, list[Any]]:
    """Run ``fn(*args, **kwargs)`` with ``variables`` holding ``values``.

    Returns:
        ``(fn's output, the variables' values after the call)``. The Python
        objects are left exactly as they were before the call.
    """
    with substituted(variables, values):
        out = fn(*args, **kwargs)
        new_values = [v._raw for v in variables]
    return out, new_values


def check_no_leaked_tracers(variables: Sequence[Variable], where: str) -> None:
    """Raise if a Variable outside the functionalised set was written with a tracer."""
    for var in variables:
        if isinstance(var._raw, jax.core.Tracer):
            name = getattr(var, "name", "the random state")
            raise RuntimeError(
                f"{where}: Parameter '{name}' was written inside a compiled function but is not "
                f"part of its state; pass the Cell that owns it to the function, or call it "
                f"through that Cell")
