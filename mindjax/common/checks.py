"""Checks on values (not shapes) that raise eagerly and cost nothing in compiled code until they fail.

MindSpore's CPU kernels check index values (``Gather``: "the 'input_indices'
should be in the range [0, 4), but got 5"); ``jnp.take`` clamps or fills
instead and a loss with a bad label silently gives NaN. :func:`check_index_range`
restores the error:

- on concrete values (PYNATIVE) it checks with numpy and raises at once;
- inside a compiled program that collects checks (``Model``'s training step,
  a GRAPH-mode Cell call, ``ms.jit``; see :func:`collect_checks`) it records a
  boolean and the first offending value. The program returns them, skips its
  state update when one is set, and the host raises the same error after the
  call. This is checkify's functional-error design: a few fused compares per
  step, and a host round trip only where the program already syncs;
- in other traced code (a user's own ``jax.jit``, ``vmap``, loop bodies) it
  falls back to a host callback that runs only when the check fails.

Example:
    >>> check_index_range("Gather", "input_indices", np.array([0, 5]), 0, 4)  # doctest: +SKIP
    IndexValueError: For 'Gather', the value of 'input_indices' must be in [0, 4), but got 5 (at position (1,)).
"""
from __future__ import annotations

import contextlib
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator, Sequence

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

__all__ = ["IndexValueError", "PendingCheck", "check_index_range", "collect_checks", "checks_output",
           "any_failed", "raise_failed_checks"]


class IndexValueError(RuntimeError, IndexError):
    """An index or class label outside its valid range.

    A ``RuntimeError``, as MindSpore's kernels raise it, and an ``IndexError``.
    """


@dataclass
class PendingCheck:
    """A check recorded inside a compiled program.

    Attributes:
        failed: a traced scalar bool, True when the check failed.
        detail: traced values the message needs (the offending value, its position).
        message: builds the error message from the concrete ``detail``.
    """

    failed: Any
    detail: tuple[Any, ...]
    message: Callable[..., str]


@dataclass
class _Collector:
    trace: Any
    checks: list[PendingCheck] = field(default_factory=list)


_COLLECTORS: list[_Collector] = []


def _current_trace() -> Any:
    from jax._src import core  # the trace a value belongs to has no public accessor

    return core.trace_ctx.trace


@contextlib.contextmanager
def collect_checks() -> Iterator[list[PendingCheck]]:
    """Collect the checks that code traced inside the block records (call it inside the traced function).

    Returns:
        A context manager yielding the list the checks are appended to. The
        traced function returns ``[c.failed for c in checks]`` and the details
        as outputs; :func:`raise_failed_checks` turns them into the error.
    """
    collector = _Collector(_current_trace())
    _COLLECTORS.append(collector)
    try:
        yield collector.checks
    finally:
        _COLLECTORS.remove(collector)


# Every check ever traced, by id: a compiled program returns the ids of its checks as constants, so the
# host finds the message of whichever trace produced the outputs.
_REGISTRY: list[PendingCheck] = []


def checks_output(checks: Sequence[PendingCheck]) -> tuple[Any, ...]:
    """What a traced function returns for ``checks``: ``()`` when there are none.

    Returns:
        ``(failed, ids, details)``: a bool vector, the checks' ids and their
        detail values, to pass (concrete) to :func:`raise_failed_checks`.
    """
    if not checks:
        return ()
    ids = []
    for check in checks:
        ids.append(len(_REGISTRY))
        _REGISTRY.append(check)
    failed = jnp.stack([jnp.asarray(c.failed) for c in checks])
    return failed, jnp.asarray(ids, jnp.int32), tuple(c.detail for c in checks)


def any_failed(output: tuple[Any, ...]) -> Any:
    """A traced bool: whether any check of :func:`checks_output`'s ``output`` failed (False without checks)."""
    return jnp.any(output[0]) if output else jnp.asarray(False)


def raise_failed_checks(output: Any, suffix: str = "") -> None:
    """Raise the first failed check's error from the concrete ``output`` of a compiled call.

    Arguments:
        output: :func:`checks_output`'s value, fetched to the host (a leading
            step axis, as a scan stacks it, is allowed: the first failing step counts).
        suffix: appended to the message (``" (Model.train, epoch 2, step 5)"``).

    Raises:
        IndexValueError: when a check failed.

    When ``output`` is itself traced (the compiled call runs inside an outer
    trace: a user's ``jax.jit``, ``jax.export``), the checks are handed on: to the
    outer program's collector when there is one (see :func:`collect_checks`),
    otherwise to a host callback that raises when one failed.
    """
    if not output:
        return
    if any(isinstance(leaf, jax.core.Tracer) for leaf in jax.tree_util.tree_leaves(output)):
        _hand_on_traced(output, suffix)
        return
    failed, ids, details = jax.device_get(output)
    failed, ids = np.asarray(failed), np.asarray(ids)
    if not failed.any():
        return
    if failed.ndim == 2:  # stacked over steps
        step = int(np.argmax(failed.any(axis=1)))
        failed, ids = failed[step], ids[step]
        details = jax.tree_util.tree_map(lambda d: np.asarray(d)[step], details)
    i = int(np.argmax(failed))
    check = _REGISTRY[int(ids[i])]
    raise IndexValueError(check.message(*[np.asarray(d) for d in details[i]]) + suffix)


def _hand_on_traced(output: Any, suffix: str) -> None:
    failed, ids, details = output
    leaves, treedef = jax.tree_util.tree_flatten(details)

    def message(failed_v: Any, ids_v: Any, *leaf_values: Any) -> str:
        inner = jax.tree_util.tree_unflatten(treedef, list(leaf_values))
        i = int(np.argmax(np.asarray(failed_v)))
        return _REGISTRY[int(np.asarray(ids_v)[i])].message(*[np.asarray(d) for d in inner[i]]) + suffix

    any_failed_ = jnp.any(failed)
    collector = _COLLECTORS[-1] if _COLLECTORS else None
    if collector is not None and getattr(any_failed_, "_trace", None) is collector.trace:
        collector.checks.append(PendingCheck(any_failed_, (failed, ids, *leaves), message))
        return

    def report(*values: Any) -> None:
        raise IndexValueError(message(*values))

    lax.cond(any_failed_, lambda *v: jax.debug.callback(report, *v), lambda *v: None, failed, ids, *leaves)


def _range_text(low: int, high: int, allowed: int | None) -> str:
    text = f"[{low}, {high})"
    return text if allowed is None else f"{text} or equal {allowed} (the ignore index)"


def _position(flat: int, shape: tuple[int, ...]) -> str:
    if not shape:
        return ""
    return f" (at position {tuple(int(i) for i in np.unravel_index(int(flat), shape))})"


def check_index_range(where: str, arg: str, index: Any, low: int, high: int, allowed: int | None = None) -> None:
    """Require every element of the integer array ``index`` to lie in ``[low, high)`` (or equal ``allowed``).

    Arguments:
        where: how the message names the op or Cell (``"Gather"``, ``"SoftmaxCrossEntropyWithLogits"``;
            a Cell's path, as ``Cell._where()`` gives it, is used as is when it starts with ``"For "``).
        arg: the argument's name (``"labels"``).
        index: the integer array (concrete or traced).
        low, high: the valid range.
        allowed: one more valid value outside the range (an ``ignore_index``).

    Raises:
        IndexValueError: on concrete values outside the range, naming ``where``,
            ``arg``, the valid range and the first offending value and its position.
    """
    head = where if where.startswith("For ") else f"For '{where}'"
    expected = _range_text(low, high, allowed)
    shape = tuple(np.shape(index))

    def message(value: Any, flat: Any) -> str:
        return (f"{head}, the value of '{arg}' must be in {expected}, but got {int(value)}"
                f"{_position(int(flat), shape)}.")

    if not isinstance(index, jax.core.Tracer):
        values = np.asarray(index)
        if values.size == 0:
            return
        bad = (values < low) | (values >= high)
        if allowed is not None:
            bad &= values != allowed
        if bad.any():
            flat = int(np.argmax(bad.reshape(-1)))
            raise IndexValueError(message(values.reshape(-1)[flat], flat))
        return
    if 0 in shape:
        return
    values = jnp.ravel(index)
    bad = (values < low) | (values >= high)
    if allowed is not None:
        bad = bad & (values != allowed)
    failed = jnp.any(bad)
    flat = jnp.argmax(bad)
    value = values[flat]
    collector = _COLLECTORS[-1] if _COLLECTORS else None
    if collector is not None and getattr(failed, "_trace", None) is collector.trace:
        collector.checks.append(PendingCheck(failed, (value, flat), message))
        return

    def report(value: Any, flat: Any) -> None:
        raise IndexValueError(message(value, flat))

    lax.cond(failed, lambda v, f: jax.debug.callback(report, v, f), lambda v, f: None, value, flat)
