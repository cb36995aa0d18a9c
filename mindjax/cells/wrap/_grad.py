"""Gradients of a Cell's output with respect to Parameters, by functionalisation.

The wrappers (``TrainOneStepCell`` and friends) differentiate a network with
respect to the values of Parameters: those Parameters hold the traced values
during a ``jax.vjp``, every other Variable that the network writes (BatchNorm
statistics, the random key) is carried out of the trace as auxiliary data and
written back afterwards, so the Python objects never keep a JAX tracer.
"""
from __future__ import annotations

from typing import Any, Callable, Sequence

import jax
import jax.numpy as jnp

from mindjax.cells.state import substituted
from mindjax.common.variable import _TRACKERS, Variable, stop_tracking, track_access


def _cotangent_like(out: Any, sens: Any) -> Any:
    def fill(o: Any) -> Any:
        o = jnp.asarray(o)
        if sens is None:
            return jnp.ones(o.shape, o.dtype)
        return jnp.broadcast_to(jnp.asarray(sens).astype(o.dtype), o.shape)
    return jax.tree_util.tree_map(fill, out)


def vjp_of_variables(fn: Callable[..., Any], weights: Sequence[Variable], args: Sequence[Any],
                     arg_positions: Sequence[int] = (), sens: Any = None,
                     cotangent: Any = None) -> tuple[Any, tuple[Any, ...], tuple[Any, ...]]:
    """Run ``fn(*args)`` and pull a cotangent back to ``weights`` and chosen inputs.

    Arguments:
        fn: the function (usually a Cell) to differentiate.
        weights: the Variables to differentiate with respect to.
        args: the positional inputs of ``fn``.
        arg_positions: indices of ``args`` to differentiate with respect to.
        sens: the value the cotangent of every output element takes (1 when
            ``None``), as MindSpore's ``sens``.
        cotangent: an explicit cotangent with ``fn``'s output structure;
            overrides ``sens``.

    Returns:
        ``(output, weight gradients, input gradients)``. Variables other than
        ``weights`` that ``fn`` wrote hold their new values afterwards.
    """
    weights = list(weights)
    ids = {id(w) for w in weights}
    weight_values = [w._value for w in weights]
    arg_values = [args[i] for i in arg_positions]
    written_box: list[list[Variable]] = []
    touched_box: list[list[Variable]] = []

    def pure(w_vals: list[Any], a_vals: list[Any]) -> tuple[Any, list[Any]]:
        call_args = list(args)
        for i, v in zip(arg_positions, a_vals):
            call_args[i] = v
        with substituted(weights, w_vals):
            tracker = track_access()
            try:
                out = fn(*call_args)
            finally:
                stop_tracking(tracker)
            written = [v for k, v in tracker.written.items() if k not in ids]
            new_values = [v._raw for v in written]
            tracker.restore_outside(ids)
        written_box.append(written)
        touched_box.append(list(tracker.touched.values()))
        return out, new_values

    out, pullback, new_values = jax.vjp(pure, weight_values, arg_values, has_aux=True)
    if cotangent is None:
        cotangent = _cotangent_like(out, sens)
    else:
        cotangent = jax.tree_util.tree_unflatten(jax.tree_util.tree_structure(out),
                                                 jax.tree_util.tree_leaves(cotangent))
    weight_grads, arg_grads = pullback(cotangent)
    if _TRACKERS:
        # An enclosing compiled call discovers its state through its tracker.
        outer = _TRACKERS[-1]
        for var in touched_box[-1]:
            outer.read(var)
    for var, value in zip(written_box[-1], new_values):
        var._value = value
    return out, tuple(weight_grads), tuple(arg_grads)
