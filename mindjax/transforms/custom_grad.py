"""Custom backward rules: ``Cell.bprop``, backward hooks, recompute, ``stop_gradient``,
``InsertGradientOf`` and ``HookBackward``, on ``jax.custom_vjp`` and ``jax.checkpoint``.

A Cell whose class defines ``bprop(self, *inputs, out, dout)``, or that has
backward (pre-)hooks, runs its ``construct`` inside one ``jax.custom_vjp``
whose explicit inputs are the call's array inputs and the values of the
Cell's Parameters (and the random key), so that no traced value is closed
over. Its backward rule:

1. passes the output gradient through the backward pre-hooks
   (``hook_fn(cell, grad_output) -> None | new grad_output``);
2. computes the input gradients with ``bprop`` (the Cell's Parameters then get
   a zero gradient, as in MindSpore) or with the ordinary VJP of ``construct``;
3. passes them through the backward hooks
   (``hook_fn(cell, grad_input, grad_output) -> None | new grad_input``).

``grad_output`` and ``grad_input`` are tuples, one entry per output and per
positional input. Unlike MindSpore, hooks also run in GRAPH mode: there they
see traced values, so a hook that prints should use ``jax.debug.callback``
(or ``jax.debug.print``); returning a new gradient works in both modes.

``cell.recompute()`` wraps ``construct`` in ``jax.checkpoint``: its activations
are recomputed in the backward pass instead of stored.

Example:
    >>> import mindjax as ms
    >>> from mindjax import nn
    >>> class Clip(nn.Cell):
    ...     def construct(self, x):
    ...         return x * 2
    ...     def bprop(self, x, out, dout):
    ...         return (dout.clip(-1, 1),)
    >>> ms.grad(lambda x: (Clip()(x) * 5).sum())(ms.Tensor([1.0])).tolist()
    [1.0]
"""
from __future__ import annotations

from typing import Any, Callable, Sequence

import jax
import jax.numpy as jnp
import numpy as np

from mindjax.cells.cell import Cell
from mindjax.common.tensor import Tensor, as_array, unwrap, user_code, wrap
from mindjax.cells.state import Effects, collect_variables, run_functional, substituted
from mindjax.common.random import RNG_STATE
from mindjax.common.upcalls import register_upcall
from mindjax.common.variable import Variable
from mindjax.transforms.control_flow import converted_construct

__all__ = ["run_with_backward_rules", "stop_gradient", "InsertGradientOf", "HookBackward", "custom_vjp", "recompute"]


def _is_var(x: Any) -> bool:
    return isinstance(x, Variable)


def _is_dynamic(leaf: Any) -> bool:
    return isinstance(leaf, (jax.Array, np.ndarray, Tensor))


def _zero_cotangent(x: Any) -> Any:
    """A zero gradient for ``x``: float0 for integer, boolean and key arrays, as JAX wants."""
    dtype = jnp.asarray(x).dtype if not isinstance(x, jax.core.Tracer) else x.dtype
    if jnp.issubdtype(dtype, jnp.inexact):
        return jnp.zeros(np.shape(x), dtype)
    return np.zeros(np.shape(x), jax.dtypes.float0)


def _fit_cotangent(g: Any, primal: Any, where: str, what: str) -> Any:
    """Cast a user-supplied gradient to the primal's dtype and shape.

    As in MindSpore, a gradient of the broadcast shape (``x + y`` with ``x`` of
    shape ``(3,)`` and a ``(3, 3)`` gradient) is summed down to the input's
    shape, and an integer gradient of a float input is cast to its dtype.
    """
    if g is None:
        return _zero_cotangent(primal)
    dtype = primal.dtype
    if not jnp.issubdtype(dtype, jnp.inexact):
        return np.zeros(np.shape(primal), jax.dtypes.float0)
    g = jnp.asarray(g._value if isinstance(g, Variable) else g, dtype)
    shape = tuple(np.shape(primal))
    g = _sum_to_shape(g, shape)
    try:
        return jnp.broadcast_to(g, shape)
    except ValueError:
        raise ValueError(f"{where}, {what} has shape {tuple(g.shape)} but the input has shape "
                         f"{shape}") from None


def _sum_to_shape(g: Any, shape: tuple[int, ...]) -> Any:
    """``g`` summed over the axes that broadcasting to ``g``'s shape added to ``shape``, when it fits."""
    if g.shape == shape or g.ndim < len(shape):
        return g
    lead = g.ndim - len(shape)
    tail = g.shape[lead:]
    if any(t != s and s != 1 for t, s in zip(tail, shape)):
        return g  # not a broadcast of shape: reported by the caller
    g = g.sum(axis=tuple(range(lead))) if lead else g
    axes = tuple(i for i, (t, s) in enumerate(zip(tail, shape)) if s == 1 and t != 1)
    return g.sum(axis=axes, keepdims=True) if axes else g


class _CallLayout:
    """How a call's positional and keyword inputs map onto a flat list of arrays.

    Arrays (and Parameters) are the differentiable inputs; every other leaf
    (a Python number, None, a string) stays a constant of the call.
    """

    def __init__(self, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
        self.arg_layouts = [jax.tree_util.tree_flatten(a, is_leaf=_is_var) for a in args]
        self.kw_leaves, self.kw_def = jax.tree_util.tree_flatten(kwargs, is_leaf=_is_var)
        self.dynamic: list[Any] = []
        self.arg_slots: list[list[int]] = []
        self._consts: list[list[Any]] = []
        for leaves, _ in self.arg_layouts:
            slots, consts = [], []
            for leaf in leaves:
                if _is_dynamic(leaf):
                    slots.append(len(self.dynamic))
                    self.dynamic.append(as_array(leaf))
                    consts.append(None)
                else:
                    slots.append(-1)
                    consts.append(leaf)
            self.arg_slots.append(slots)
            self._consts.append(consts)
        self.kw_slots: list[int] = []
        self._kw_consts: list[Any] = []
        for leaf in self.kw_leaves:
            if _is_dynamic(leaf):
                self.kw_slots.append(len(self.dynamic))
                self.dynamic.append(as_array(leaf))
                self._kw_consts.append(None)
            else:
                self.kw_slots.append(-1)
                self._kw_consts.append(leaf)
        self.kw_leaves = []  # drop references to traced inputs: only the slots are needed

    def rebuild(self, dynamic: Sequence[Any]) -> tuple[tuple[Any, ...], dict[str, Any]]:
        """The call's ``(args, kwargs)`` with ``dynamic`` in the array positions."""
        args = []
        for (_, treedef), slots, consts in zip(self.arg_layouts, self.arg_slots, self._consts):
            leaves = [dynamic[s] if s >= 0 else c for s, c in zip(slots, consts)]
            args.append(jax.tree_util.tree_unflatten(treedef, leaves))
        kw_leaves = [dynamic[s] if s >= 0 else c for s, c in zip(self.kw_slots, self._kw_consts)]
        return tuple(args), jax.tree_util.tree_unflatten(self.kw_def, kw_leaves)

    def per_argument(self, dynamic_grads: Sequence[Any]) -> tuple[Any, ...]:
        """Gradients grouped per positional input (None for inputs without arrays)."""
        out = []
        for (leaves, treedef), slots in zip(self.arg_layouts, self.arg_slots):
            if all(s < 0 for s in slots):
                out.append(None)
            elif len(slots) == 1 and treedef == jax.tree_util.tree_structure(0):
                out.append(dynamic_grads[slots[0]])
            else:
                out.append(jax.tree_util.tree_unflatten(
                    treedef, [dynamic_grads[s] if s >= 0 else None for s in slots]))
        return tuple(out)

    def from_per_argument(self, grads: Sequence[Any], base: list[Any], where: str,
                          what: str) -> list[Any]:
        """Put per-positional-input gradients back into the flat array order."""
        result = list(base)
        for i, ((_, treedef), slots) in enumerate(zip(self.arg_layouts, self.arg_slots)):
            if all(s < 0 for s in slots):
                continue
            given = grads[i]
            if len(slots) == 1 and treedef == jax.tree_util.tree_structure(0):
                leaves = [given]
            else:
                leaves = jax.tree_util.tree_leaves(given, is_leaf=lambda x: x is None or _is_var(x))
                if len(leaves) != len(slots):
                    raise ValueError(f"{where}, {what} for input {i} must have {len(slots)} "
                                     f"tensor(s), got {len(leaves)}")
            for s, g in zip(slots, leaves):
                if s >= 0:
                    result[s] = _fit_cotangent(g, self.dynamic[s], where, f"{what} for input {i}")
        return result


def _as_grad_tuple(value: Any, n: int, where: str, what: str) -> tuple[Any, ...]:
    if isinstance(value, list):
        value = tuple(value)
    if not isinstance(value, tuple):
        if n == 1:
            return (value,)
        raise ValueError(f"{where}, {what} must be a tuple of {n} gradients (one per input), "
                         f"got a {type(value).__name__}")
    if len(value) != n:
        raise ValueError(f"{where}, {what} must hold {n} gradient(s) (one per input), "
                         f"got {len(value)}")
    return value


def _apply_pre_hooks(cell: Any, hooks: Sequence[Callable[..., Any]], dout: Any) -> Any:
    multi = isinstance(dout, tuple)
    grad_output = dout if multi else (dout,)
    for hook in hooks:
        new = _call_user(hook, cell, grad_output)
        if new is not None:
            new = _as_grad_tuple(new, len(grad_output), cell._where(),
                                 "the backward pre-hook's result")
            grad_output = tuple(_fit_cotangent(g, o, cell._where(), "the backward pre-hook's result")
                                if not _is_float0_like(o) else o
                                for g, o in zip(new, grad_output))
    return grad_output if multi else grad_output[0]


def _call_user(fn: Callable[..., Any], *args: Any) -> Any:
    """Call a user's hook or bprop as user code: Tensors in, arrays out."""
    with user_code():
        return unwrap(fn(*wrap(args)))


def _is_float0_like(x: Any) -> bool:
    return getattr(x, "dtype", None) == jax.dtypes.float0


def run_with_backward_rules(cell: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    """Run ``cell.construct(*args, **kwargs)`` under the Cell's backward rules.

    Called by ``Cell._run_construct`` when the Cell defines ``bprop``, has
    backward hooks or pre-hooks, or was marked with ``recompute()``.

    Arguments:
        cell: the Cell being called.
        args, kwargs: the inputs of ``construct`` (after forward pre-hooks).

    Returns:
        ``construct``'s output; its gradient follows the Cell's rules.
    """
    from mindjax.cells.cell import _has_bprop  # lazy: cells import this module lazily too

    d = cell.__dict__
    has_bprop = _has_bprop(type(cell))
    hooks = list(d["_backward_hooks"].values())
    pre_hooks = list(d["_backward_pre_hooks"].values())
    recompute = d["_recompute"] and not has_bprop
    variables = collect_variables(cell)
    if not any(v is RNG_STATE for v in variables):
        variables.append(RNG_STATE)
    values = [v._value for v in variables]
    layout = _CallLayout(args, kwargs)
    effects = Effects()
    # custom_vjp and checkpoint trace construct even in PYNATIVE mode, so tensor
    # control flow must be converted here; on concrete values it runs as Python.
    construct = converted_construct(cell)

    def body(dynamic: list[Any], var_values: list[Any]) -> tuple[Any, list[Any]]:
        call_args, call_kwargs = layout.rebuild(dynamic)
        out, new_values = run_functional(variables, var_values, effects, construct,
                                         *call_args, **call_kwargs)
        # Arrays, not Tensors, cross the custom_vjp: the cotangents then have the same structure.
        return unwrap(out), new_values

    inner = jax.checkpoint(body) if recompute else body
    if not (has_bprop or hooks or pre_hooks):
        out, new_values = inner(layout.dynamic, values)
        effects.commit(new_values)
        return out

    where = cell._where()

    @jax.custom_vjp
    def call(dynamic: list[Any], var_values: list[Any]) -> tuple[Any, list[Any]]:
        return inner(dynamic, var_values)

    def fwd(dynamic: list[Any], var_values: list[Any]) -> tuple[Any, Any]:
        if has_bprop:
            out, new_values = inner(dynamic, var_values)
            return (out, new_values), (dynamic, var_values, out)
        out, vjp_fn, new_values = jax.vjp(inner, dynamic, var_values, has_aux=True)
        return (out, new_values), vjp_fn

    def bwd(residual: Any, cotangents: Any) -> tuple[list[Any], list[Any]]:
        dout = cotangents[0]
        if pre_hooks:
            dout = _apply_pre_hooks(cell, pre_hooks, dout)
        if has_bprop:
            dynamic, var_values, out = residual
            call_args, _ = layout.rebuild(dynamic)
            with substituted(variables, var_values):
                returned = _call_user(cell.bprop, *call_args, out, dout)
            grads = _as_grad_tuple(returned, len(call_args), where, "bprop's result")
            base = [_zero_cotangent(x) for x in layout.dynamic]
            g_dynamic = layout.from_per_argument(grads, base, where, "bprop's gradient")
            g_vars = [_zero_cotangent(v) for v in var_values]
        else:
            g_dynamic, g_vars = residual(dout)
            g_dynamic = list(g_dynamic)
        if hooks:
            grad_output = tuple(dout) if isinstance(dout, (tuple, list)) else (dout,)
            grad_input = layout.per_argument(g_dynamic)
            for hook in hooks:
                new = _call_user(hook, cell, grad_input, grad_output)
                if new is not None:
                    new = _as_grad_tuple(new, len(grad_input), where, "the backward hook's result")
                    g_dynamic = layout.from_per_argument(new, g_dynamic, where,
                                                         "the backward hook's gradient")
                    grad_input = layout.per_argument(g_dynamic)
        return g_dynamic, list(g_vars)

    call.defvjp(fwd, bwd)
    out, new_values = call(layout.dynamic, values)
    effects.commit(new_values)
    return out


def stop_gradient(value: Any) -> Any:
    """``value`` unchanged, with no gradient flowing through it (MindSpore's ``ops.stop_gradient``).

    Arguments:
        value: a Tensor, a Parameter, or a tuple/list/dict of them.

    Returns:
        the same values, cut from differentiation.
    """
    return jax.tree_util.tree_map(
        lambda x: jax.lax.stop_gradient(as_array(x)) if _is_dynamic(x) else x,
        value, is_leaf=_is_var)


class InsertGradientOf:
    """Identity in the forward pass; the backward pass applies ``f`` to the gradient.

    Arguments:
        f: a function of the gradient returning the new gradient (clipping,
            scaling, printing with ``jax.debug.print``).

    Example:
        >>> import mindjax as ms
        >>> halve = InsertGradientOf(lambda g: g * 0.5)
        >>> ms.grad(lambda x: (halve(x) * 4).sum())(ms.Tensor([1.0])).tolist()
        [2.0]
    """

    def __init__(self, f: Callable[[Any], Any]) -> None:
        if not callable(f):
            raise TypeError(f"For 'InsertGradientOf', 'f' must be callable, got {type(f).__name__}")
        self.f = f

        @jax.custom_vjp
        def identity(x: Any) -> Any:
            return x

        def fwd(x: Any) -> tuple[Any, Any]:
            return x, x

        def bwd(x: Any, g: Any) -> tuple[Any]:
            new = _call_user(self.f, g)
            return (jax.tree_util.tree_map(
                lambda n, p: _fit_cotangent(n, p, "For 'InsertGradientOf'", "f's result"), new, x),)

        identity.defvjp(fwd, bwd)
        self._identity = identity

    def __call__(self, x: Any) -> Any:
        """``x`` unchanged; its gradient goes through ``f``."""
        return self._identity(jax.tree_util.tree_map(as_array, x, is_leaf=_is_var))


class HookBackward:
    """Identity in the forward pass; ``hook_fn`` sees (and may replace) the gradient.

    Arguments:
        hook_fn: ``hook_fn(grad) -> None | new grad``; ``grad`` is a tuple with
            one gradient per input, as in MindSpore. A single new gradient is
            accepted for a single input.
        cell_id: accepted for MindSpore compatibility.

    Example:
        >>> import mindjax as ms
        >>> seen = []
        >>> hook = HookBackward(lambda g: seen.append(g[0].tolist()))
        >>> _ = ms.grad(lambda x: (hook(x) * 3).sum())(ms.Tensor([1.0]))
        >>> seen
        [[3.0]]
    """

    def __init__(self, hook_fn: Callable[..., Any], cell_id: str = "") -> None:
        if not callable(hook_fn):
            raise TypeError(f"For 'HookBackward', 'hook_fn' must be callable, "
                            f"got {type(hook_fn).__name__}")
        if not isinstance(cell_id, str):
            raise TypeError(f"For 'HookBackward', 'cell_id' must be a str, got {type(cell_id).__name__}")
        self.hook_fn = hook_fn
        self.cell_id = cell_id

        @jax.custom_vjp
        def identity(*xs: Any) -> Any:
            return xs

        def fwd(*xs: Any) -> tuple[Any, Any]:
            return xs, xs

        def bwd(xs: Any, gs: Any) -> Any:
            new = self.hook_fn(tuple(gs))
            if new is None:
                return tuple(gs)
            new = _as_grad_tuple(new, len(xs), "For 'HookBackward'", "hook_fn's result")
            return tuple(_fit_cotangent(n, p, "For 'HookBackward'", "hook_fn's result")
                         for n, p in zip(new, xs))

        identity.defvjp(fwd, bwd)
        self._identity = identity

    def __call__(self, *inputs: Any) -> Any:
        """The inputs unchanged (one input: itself; several: a tuple)."""
        if not inputs:
            raise TypeError("For 'HookBackward', at least one input is required")
        out = self._identity(*[as_array(x) for x in inputs])
        return out[0] if len(inputs) == 1 else out


class _CustomVjp(Cell):
    """A function with a user-defined backward rule: what :func:`custom_vjp` returns.

    It is a Cell whose ``construct`` is the function and whose ``bprop`` is the
    rule given to :meth:`defbwd`, so it differentiates, compiles and nests like
    any Cell with a ``bprop``.
    """

    def __init__(self, fwd: Callable[..., Any]) -> None:
        super().__init__()
        self.fwd = fwd
        self.bwd: Callable[..., Any] | None = None

    def construct(self, *args: Any) -> Any:
        return self.fwd(*args)

    def defbwd(self, bwd: Callable[..., Any]) -> None:
        """Set the backward rule ``bwd(*inputs, out, dout) -> (one gradient per input)``."""
        if not callable(bwd):
            raise TypeError(f"For 'custom_vjp', 'bwd' must be a function, got {type(bwd).__name__}")
        self.bwd = bwd

    def bprop(self, *args: Any) -> Any:
        if self.bwd is None:
            name = getattr(self.fwd, "__name__", type(self.fwd).__name__)
            raise RuntimeError(f"For 'custom_vjp', '{name}' is differentiated but has no backward rule; "
                               f"call {name}.defbwd(bprop_fn) first")
        return self.bwd(*args)


def custom_vjp(fn: Callable[..., Any] | None = None) -> Any:
    """Give a function its own backward rule (MindSpore's ``ops.function.grad.grad_func.custom_vjp``).

    Arguments:
        fn: the function; without it, ``custom_vjp`` returns a decorator.

    Returns:
        a callable with ``fn``'s forward pass and a ``defbwd(bprop_fn)`` method;
        ``bprop_fn(*inputs, out, dout)`` returns one gradient per input (summed
        to the input's shape and cast to its dtype when it is a broadcast or of
        another dtype).

    Example:
        >>> import mindjax as ms
        >>> @custom_vjp
        ... def double(x):
        ...     return 2 * x
        >>> double.defbwd(lambda x, out, dout: (dout * 10,))
        >>> ms.grad(double)(ms.Tensor([1.0])).tolist()
        [10.0]
    """
    def deco(f: Callable[..., Any]) -> _CustomVjp:
        if not callable(f):
            raise TypeError(f"For 'custom_vjp', 'fn' must be a function, got {type(f).__name__}")
        return _CustomVjp(f)

    return deco(fn) if fn is not None else deco


register_upcall("backward_rules", run_with_backward_rules)


def recompute(block: Callable[..., Any], *args: Any, use_reentrant: bool = True, output_recompute: bool = False,
              early_stop: bool = True, context_fn: Callable[..., Any] | None = None, **kwargs: Any) -> Any:
    """Run ``block(*args, **kwargs)`` and recompute its activations in the backward pass
    (MindSpore's function form ``mindspore.recompute``; ``jax.checkpoint`` here).

    The forward result and the gradients are those of the plain call; only what is kept for the
    backward pass changes. The inputs, ``block``'s Parameters (a Cell) and the random key are the
    checkpointed function's explicit inputs, so nothing traced is closed over.

    Arguments:
        block (Callable): a Cell or function.
        args: ``block``'s positional inputs.
        use_reentrant (bool): MindSpore's choice of implementation; both give the same values.
            Default: ``True``.
        output_recompute (bool): also recompute the output (implies ``use_reentrant=False``).
            Default: ``False``.
        early_stop (bool): accepted (``jax.checkpoint`` recomputes the whole block). Default: ``True``.
        context_fn (Callable, optional): only with ``use_reentrant=False``; accepted. Default: ``None``.
        kwargs: ``block``'s keyword inputs.

    Returns:
        ``block``'s output.

    Raises:
        TypeError: ``block`` is not callable.
        ValueError: ``context_fn`` is given with ``use_reentrant=True``.

    Example:
        >>> import mindjax as ms
        >>> x = ms.Tensor([1.0, 2.0])
        >>> ms.grad(lambda x: ms.recompute(lambda y: (y * y).sum(), x))(x).tolist()
        [2.0, 4.0]
    """
    if not callable(block):
        raise TypeError(f"For 'recompute', 'block' must be a Cell or a function, but got {type(block).__name__}.")
    if output_recompute:
        use_reentrant = False
    if use_reentrant and context_fn is not None:
        raise ValueError("context_fn is only supported when use_reentrant=False.")
    variables = collect_variables(block) if isinstance(block, Cell) else []
    if not any(v is RNG_STATE for v in variables):
        variables.append(RNG_STATE)
    layout = _CallLayout(args, kwargs)
    effects = Effects()

    def body(dynamic: list[Any], var_values: list[Any]) -> tuple[Any, list[Any]]:
        call_args, call_kwargs = layout.rebuild([wrap(d) for d in dynamic])
        out, new_values = run_functional(variables, var_values, effects, block, *call_args, **call_kwargs)
        return unwrap(out), new_values

    out, new_values = jax.checkpoint(body)(layout.dynamic, [v._value for v in variables])
    effects.commit(new_values)
    return wrap(out)
