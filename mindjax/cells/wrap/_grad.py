"""Gradients of a Cell's output with respect to Parameters, by functionalisation.

The wrappers (``TrainOneStepCell`` and friends) differentiate a network with
respect to the values of Parameters: those Parameters hold the traced values
during a ``jax.vjp`` (``mindjax.cells.state.run_functional``, the mechanism
``ms.grad`` uses too), every Variable that the network writes (BatchNorm
statistics, the random key) is carried out of the trace as auxiliary data and
written back afterwards, so the Python objects never keep a JAX tracer.
"""
from __future__ import annotations

from typing import Any, Callable, Sequence

import jax
import numpy as np
import jax.numpy as jnp

from mindjax.cells.state import Effects, run_functional
from mindjax.common.tensor_hooks import apply_leaf_hooks
from mindjax.common.variable import Variable


def _cotangent_like(out: Any, sens: Any) -> Any:
    def fill(o: Any) -> Any:
        o = jnp.asarray(o)
        value = 1 if sens is None else sens
        if isinstance(value, (bool, int, float)) and not isinstance(o, jax.core.Tracer):
            # A concrete output (PYNATIVE): the cotangent is built on the host and placed like the
            # output, instead of an XLA program per output shape.
            return jax.device_put(np.full(o.shape, value, o.dtype), o.sharding)
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
        ``(output, weight gradients, input gradients)``. Variables that ``fn``
        wrote hold their new values afterwards.
    """
    weights = list(weights)
    weight_values = [w._value for w in weights]
    arg_values = [args[i] for i in arg_positions]
    effects = Effects()

    def pure(w_vals: list[Any], a_vals: list[Any]) -> tuple[Any, list[Any]]:
        call_args = list(args)
        for i, v in zip(arg_positions, a_vals):
            call_args[i] = v
        return run_functional(weights, w_vals, effects, fn, *call_args)

    out, pullback, new_values = jax.vjp(pure, weight_values, arg_values, has_aux=True)
    if cotangent is None:
        cotangent = _cotangent_like(out, sens)
    else:
        cotangent = jax.tree_util.tree_unflatten(jax.tree_util.tree_structure(out),
                                                 jax.tree_util.tree_leaves(cotangent))
    weight_grads, arg_grads = pullback(cotangent)
    # A hook on a Parameter (Parameter.register_hook) sees and may replace its whole gradient.
    weight_grads = [apply_leaf_hooks(w, g) for w, g in zip(weights, weight_grads)]
    effects.commit(new_values)
    return out, tuple(weight_grads), tuple(arg_grads)
