"""The state graph: a Cell tree's Variables as a flat list, and functional calls.

Everything that compiles or differentiates a Cell goes through here: gather
the Variables once (ordered, de-duplicated), then run Python code with their
values replaced by tracers and read back what the code wrote. The Cell objects
stay the source of truth between calls.

Transforms that trace user code (gradients, jacobians, vmap, custom backward
rules, the wrappers' ``TrainOneStepCell``) use :func:`run_functional` and
:class:`Effects`: the Variables being transformed hold the traced values, every
write is carried out of the trace as data, and :meth:`Effects.commit` writes it
back once the values are concrete, so no Python object keeps a tracer.

Example:
    >>> params = collect_variables(net)                        # doctest: +SKIP
    >>> out, new_values = call_with_values(params, values, net, x)   # doctest: +SKIP
    >>> effects = Effects()                                    # doctest: +SKIP
    >>> out, written = run_functional(params, values, effects, net, x)   # doctest: +SKIP
    >>> effects.commit(written)                                # doctest: +SKIP
"""
from __future__ import annotations

import contextlib
from typing import Any, Callable, Iterator, Sequence

import jax

from mindjax.common.tensor import Tensor
from mindjax.common.variable import Variable, current_tracker, stop_tracking, track_access

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


class StateRun:
    """What one :func:`run_with_state` call did (the functionalisation core's result).

    Attributes:
        out: the function's output.
        new_values: the values of the substituted Variables after the run.
        written: every Variable the run wrote (substituted or not), in write order.
        written_values: their values at the end of the run.
        touched: every Variable the run read or wrote, by id.
        created: the ids of the Variables built during the run.
    """

    __slots__ = ("out", "new_values", "written", "written_values", "touched", "created")

    def __init__(self, out: Any, new_values: list[Any], written: list[Variable], written_values: list[Any],
                 touched: dict[int, Variable], created: set[int]) -> None:
        self.out = out
        self.new_values = new_values
        self.written = written
        self.written_values = written_values
        self.touched = touched
        self.created = created


def run_with_state(variables: Sequence[Variable], values: Sequence[Any], fn: Callable[[], Any],
                   keep: set[int] = frozenset()) -> StateRun:  # type: ignore[assignment]
    """The functionalisation core: run ``fn()`` with ``variables`` holding ``values``.

    Every compiled call, gradient, custom backward rule and the training step goes
    through here: the Variables get the (usually traced) values, every Variable
    access is recorded, and afterwards the Python objects are exactly as before:
    ``variables`` get their own values back, and any other Variable that ``fn``
    wrote is restored unless its id is in ``keep``. What ``fn`` wrote comes out as
    data in the result, for the caller to return from its trace and write back
    once concrete.

    Arguments:
        variables: the Variables to substitute.
        values: their values for this run.
        fn: the code to run.
        keep: ids of Variables whose writes stay in place (the caller owns them).

    Returns:
        a :class:`StateRun`.
    """
    saved = [v._raw for v in variables]
    for var, val in zip(variables, values):
        object.__setattr__(var, "_raw", val)
    tracker = track_access()
    try:
        out = fn()
        new_values = [v._raw for v in variables]
        written = list(tracker.written.values())
        written_values = [v._raw for v in written]
    finally:
        stop_tracking(tracker)
        tracker.restore_outside(keep)
        for var, val in zip(variables, saved):
            object.__setattr__(var, "_raw", val)
    return StateRun(out, new_values, written, written_values, tracker.touched, tracker.created)


def call_with_values(variables: Sequence[Variable], values: Sequence[Any],
                     fn: Callable[..., Any], *args: Any, **kwargs: Any) -> tuple[Any, list[Any]]:
    """Run ``fn(*args, **kwargs)`` with ``variables`` holding ``values``.

    Returns:
        ``(fn's output, the variables' values after the call)``. The Python
        objects are left exactly as they were before the call.
    """
    run = run_with_state(variables, values, lambda: fn(*args, **kwargs), {id(v) for v in variables})
    return run.out, run.new_values


class Effects:
    """What one :func:`run_functional` call wrote and read.

    It is filled while ``fn`` is traced and used after the trace, when the
    written values have come out of the transform as concrete data.

    Attributes:
        written: the Variables ``fn`` wrote, in the order of the values
            :func:`run_functional` returns for them.
        touched: every Variable ``fn`` read or wrote.
    """

    __slots__ = ("written", "touched")

    def __init__(self) -> None:
        self.written: list[Variable] = []
        self.touched: list[Variable] = []

    def commit(self, new_values: Sequence[Any]) -> None:
        """Write ``new_values`` into :attr:`written` and report :attr:`touched` to an enclosing tracker.

        An enclosing compiled call (``ms.jit``, GRAPH mode) discovers its state
        from the Variables read inside it; those reads happened under
        :func:`run_functional`'s own tracker, so they are reported again here.

        Arguments:
            new_values: the values :func:`run_functional` returned (or their
                concrete counterparts after the transform).
        """
        outer = current_tracker()
        if outer is not None:
            for var in self.touched:
                outer.read(var)
        for var, value in zip(self.written, new_values):
            var._value = value


def _detached(out: Any) -> Any:
    """``out`` with every Variable in it replaced by a Tensor of the value it holds now.

    A function that returns a Parameter itself (``return x * self.w, self.w``)
    returns its substituted, traced value: read after the substitution ends, it
    would be the value from outside the trace, with no gradient.
    """
    if not _has_variable(out):
        return out
    return jax.tree_util.tree_map(lambda v: Tensor._wrap(v._value) if isinstance(v, Variable) else v,
                                  out, is_leaf=lambda v: isinstance(v, Variable))


def _has_variable(out: Any) -> bool:
    if isinstance(out, Variable):
        return True
    if isinstance(out, (tuple, list)):
        return any(_has_variable(o) for o in out)
    if isinstance(out, dict):
        return any(_has_variable(o) for o in out.values())
    return False


def run_functional(variables: Sequence[Variable], values: Sequence[Any], effects: Effects,
                   fn: Callable[..., Any], *args: Any, **kwargs: Any) -> tuple[Any, list[Any]]:
    """Run ``fn(*args, **kwargs)`` with ``variables`` holding ``values``; leave every Variable as it was.

    Writes stay out of the Variables because inside a JAX trace they are
    tracers that must not outlive the trace: the caller returns them from the
    traced function and calls ``effects.commit`` with the results.

    Arguments:
        variables: the Variables to substitute (e.g. the Parameters being
            differentiated).
        values: their values for this call (usually tracers).
        effects: filled with the Variables ``fn`` wrote and touched.
        fn, args, kwargs: the code to run.

    Returns:
        ``(fn's output, the values fn wrote)``; ``effects.written`` names the
        Variables those values belong to (any Variable, ``variables`` included).
    """
    run = run_with_state(variables, values, lambda: _detached(fn(*args, **kwargs)))
    effects.written = run.written
    effects.touched = list(run.touched.values())
    return run.out, run.written_values
