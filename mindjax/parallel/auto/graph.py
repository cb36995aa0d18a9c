"""The program the strategy search works on: a flat jaxpr and its data-flow graph.

A Cell's forward computation is traced once into a jaxpr whose inputs are the
Cell's Variables (Parameters, the random state) followed by the flattened call
inputs. Nested ``jit``/``closed_call``/``checkpoint`` bodies are inlined so that
every op the search decides about is one equation of one jaxpr; custom
derivative rules (``custom_jvp_call``/``custom_vjp_call``) stay whole so that
executing the plan keeps their gradients.

Example:
    >>> prog = trace_cell(net, (x,))                          # doctest: +SKIP
    >>> [eqn.primitive.name for eqn in prog.jaxpr.eqns][:3]   # doctest: +SKIP
    ['transpose', 'dot_general', 'add']
"""
from __future__ import annotations

import dataclasses
from typing import Any, Callable, Sequence

import jax
import numpy as np
from jax._src import source_info_util  # name stacks: no public API carries them
from jax.extend import core as jcore

from mindjax.cells.state import call_with_values, collect_variables
from mindjax.common.random import RNG_STATE
from mindjax.common.variable import Variable

__all__ = ["TracedProgram", "trace_cell", "inline_jaxpr", "run_program"]

_INLINED = ("pjit", "jit", "closed_call", "core_call", "checkpoint", "remat")


def _sub_jaxpr(eqn: Any) -> Any:
    for key in ("jaxpr", "call_jaxpr"):
        if key in eqn.params:
            return eqn.params[key]
    return None


def _bind(eqn: Any, invals: Sequence[Any]) -> Any:
    # Keep each equation's name stack (the Cell paths) in the new trace.
    params = eqn.primitive.get_bind_params(eqn.params)
    if isinstance(params, tuple):  # older jax returned (subfuns, params)
        subfuns, params = params
        invals = list(subfuns) + list(invals)
    stack = source_info_util.current_name_stack() + eqn.source_info.name_stack
    with source_info_util.user_context(eqn.source_info.traceback, name_stack=stack), eqn.ctx.manager:
        return eqn.primitive.bind(*invals, **params)


def _eval_inlined(jaxpr: Any, consts: Sequence[Any], args: Sequence[Any]) -> list[Any]:
    env: dict[Any, Any] = {}

    def read(v: Any) -> Any:
        return v.val if isinstance(v, jcore.Literal) else env[v]

    for var, val in zip(jaxpr.constvars, consts):
        env[var] = val
    for var, val in zip(jaxpr.invars, args):
        env[var] = val
    for eqn in jaxpr.eqns:
        invals = [read(v) for v in eqn.invars]
        sub = _sub_jaxpr(eqn) if eqn.primitive.name in _INLINED else None
        if sub is not None:
            inner, inner_consts = (sub.jaxpr, sub.consts) if hasattr(sub, "consts") else (sub, ())
            stack = source_info_util.current_name_stack() + eqn.source_info.name_stack
            with source_info_util.user_context(eqn.source_info.traceback, name_stack=stack):
                outs = _eval_inlined(inner, inner_consts, invals)
        else:
            outs = _bind(eqn, invals)
            if not eqn.primitive.multiple_results:
                outs = [outs]
        for var, val in zip(eqn.outvars, outs):
            if not isinstance(var, jcore.DropVar):
                env[var] = val
    return [read(v) for v in jaxpr.outvars]


def inline_jaxpr(closed: Any) -> Any:
    """``closed`` (a ClosedJaxpr) with nested jit/call/checkpoint bodies inlined.

    Returns:
        a ClosedJaxpr computing the same function with a flat equation list.
    """
    avals = [v.aval for v in closed.jaxpr.invars]
    structs = [jax.ShapeDtypeStruct(a.shape, a.dtype) for a in avals]
    return jax.make_jaxpr(lambda *a: _eval_inlined(closed.jaxpr, closed.consts, a))(*structs)


@dataclasses.dataclass
class TracedProgram:
    """A Cell's forward computation as one flat jaxpr.

    Attributes:
        jaxpr: the ClosedJaxpr; its inputs are ``variables`` then the flat call inputs,
            its outputs are the flat call outputs then the Variables' new values.
        variables: the Cell's Variables in input order (Parameters, then the random state).
        names: a display name per Variable (the Parameter name, or ``"<rng>"``).
        trainable: per Variable, whether the optimizer updates it (gradients flow to it).
        num_inputs: how many flat call inputs follow the Variables.
        out_tree: the pytree structure of the call's output.
        num_outputs: how many flat call outputs come before the Variables' new values.
    """

    jaxpr: Any
    variables: list[Variable]
    names: list[str]
    trainable: list[bool]
    num_inputs: int
    out_tree: Any
    num_outputs: int


def trace_cell(cell: Any, args: Sequence[Any], kwargs: dict[str, Any] | None = None) -> TracedProgram:
    """Trace ``cell(*args, **kwargs)`` with its Variables as explicit inputs.

    Arguments:
        cell: a Cell (or any callable; then only the random state is a Variable).
        args: example inputs (arrays or ``jax.ShapeDtypeStruct``) fixing shapes and dtypes.
        kwargs: keyword inputs, traced like ``args``.

    Returns:
        the :class:`TracedProgram`.
    """
    from mindjax import context

    kwargs = dict(kwargs or {})
    variables: list[Variable] = []
    if hasattr(cell, "parameters_and_names"):
        variables = collect_variables(cell)
    variables = variables + [RNG_STATE]
    names = [getattr(v, "name", "<rng>") if v is not RNG_STATE else "<rng>" for v in variables]
    trainable = [bool(getattr(v, "requires_grad", False)) for v in variables]
    flat_in, in_tree = jax.tree_util.tree_flatten((tuple(args), kwargs))
    out_box: list[Any] = []

    def pure(values: list[Any], flat_args: list[Any]) -> tuple[list[Any], list[Any]]:
        call_args, call_kwargs = jax.tree_util.tree_unflatten(in_tree, flat_args)
        with context.compiling():
            out, new_values = call_with_values(variables, values, cell, *call_args, **call_kwargs)
        flat_out, out_tree = jax.tree_util.tree_flatten(out)
        out_box.append((out_tree, len(flat_out)))
        return flat_out, new_values

    values = [_struct(v._value) for v in variables]
    structs = [_struct(a) for a in flat_in]
    closed = jax.make_jaxpr(lambda vals, ins: _concat(pure(vals, ins)))(values, structs)
    out_tree, n_out = out_box[-1]
    return TracedProgram(inline_jaxpr(closed), variables, names, trainable, len(flat_in),
                         out_tree, n_out)


def _concat(pair: tuple[list[Any], list[Any]]) -> list[Any]:
    return list(pair[0]) + list(pair[1])


def _struct(x: Any) -> Any:
    if isinstance(x, jax.ShapeDtypeStruct):
        return x
    x = x._value if isinstance(x, Variable) else x
    arr = x if hasattr(x, "shape") and hasattr(x, "dtype") else np.asarray(x)
    return jax.ShapeDtypeStruct(tuple(arr.shape), arr.dtype)


def run_program(jaxpr: Any, args: Sequence[Any],
                after: Callable[[Any, Any], Any] | None = None,
                before: Callable[[int, int, Any], Any] | None = None) -> list[Any]:
    """Evaluate a flat ClosedJaxpr, passing each new value through ``after(var, value)``.

    ``after`` is how a plan inserts ``with_sharding_constraint`` on chosen
    intermediate values (the inputs go through it too); ``before(eqn index,
    operand index, value)`` sees each operand as one equation uses it.
    """
    env: dict[Any, Any] = {}
    hook = after or (lambda _v, val: val)
    use = before or (lambda _e, _i, val: val)

    def read(v: Any) -> Any:
        return v.val if isinstance(v, jcore.Literal) else env[v]

    for var, val in zip(jaxpr.jaxpr.constvars, jaxpr.consts):
        env[var] = hook(var, val)
    for var, val in zip(jaxpr.jaxpr.invars, args):
        env[var] = hook(var, val)
    for k, eqn in enumerate(jaxpr.jaxpr.eqns):
        invals = [use(k, i, read(v)) for i, v in enumerate(eqn.invars)]
        outs = _bind(eqn, invals)
        if not eqn.primitive.multiple_results:
            outs = [outs]
        for var, val in zip(eqn.outvars, outs):
            if not isinstance(var, jcore.DropVar):
                env[var] = hook(var, val)
    return [read(v) for v in jaxpr.jaxpr.outvars]
