"""The grad family: ``grad``, ``value_and_grad``, ``GradOperation``, ``vjp``, ``jvp``,
``jacfwd``, ``jacrev`` and ``vmap``, with MindSpore 2.10's signatures and return
structures, on ``jax.vjp``/``jax.jvp``/``jax.vmap``.

Gradients with respect to Parameters use functionalisation
(:func:`mindjax.cells.state.run_functional`, shared with the training wrappers): the Parameters'
values become explicit inputs, ``fn`` runs with the Parameters holding the traced
values, and nothing is written back to them. What ``fn`` writes to other
Variables (BatchNorm statistics in training, the random key) is collected and
written back as concrete values after the call, as MindSpore keeps such writes.

In GRAPH mode the returned functions compile into one XLA program per input
signature (:class:`~mindjax.transforms.jit.CompiledFunction`); in PYNATIVE mode
they run eagerly. Both give the same numbers.

Return structures (checked against MindSpore 2.10):

- ``grad(fn)(x, y)`` gives ``dx``; ``grad_position=(0, 1)`` gives ``(dx, dy)``;
  a one-element tuple gives the single gradient.
- ``weights=net.trainable_params()`` (a list or ``ParameterTuple``) gives a tuple
  of weight gradients; a single Parameter gives a single gradient.
- with both, ``(inputs_grads, weights_grads)``.
- ``has_aux=True``: only the first output is differentiated; ``grad`` returns
  ``(grads, tuple(outputs[1:]))``, ``value_and_grad`` returns
  ``(outputs, grads)`` with every output in ``outputs``.
- a non-scalar output (or several outputs without ``has_aux``) is differentiated
  with a sensitivity of ones, as in MindSpore; ``sens_param=True`` takes the
  sensitivity as the last positional argument or the ``sens`` keyword.

Example:
    >>> import mindjax as ms
    >>> def f(x, y):
    ...     return (x * y).sum()
    >>> x, y = ms.Tensor([1.0, 2.0]), ms.Tensor([3.0, 4.0])
    >>> [float(g) for g in ms.grad(f, grad_position=(0, 1))(x, y)[1]]
    [1.0, 2.0]
"""
from __future__ import annotations

import functools
import types
from typing import Any, Callable, Iterable, Sequence

import jax
import jax.numpy as jnp
import numpy as np

from mindjax.common.casting import integer_casts_differentiable, integer_casts_plain
from mindjax.common.mutable import MUTABLE_SCALARS, is_mutable
from mindjax.common.tensor import Tensor, in_user_code, jax_inputs, unwrap, wrap
from mindjax.common.tensor_hooks import apply_leaf_hooks
from mindjax import context
from mindjax.cells.cell import cell_signature
from mindjax.cells.parameter import Parameter
from mindjax.cells.state import Effects, collect_variables, run_functional, structure_version
from mindjax.common.random import RNG_STATE
from mindjax.common.sparse_tensor import COOTensor, CSRTensor, RowTensor
from mindjax.common.variable import Variable

__all__ = ["grad", "value_and_grad", "GradOperation", "get_grad", "vjp", "jvp", "jacfwd",
           "jacrev", "vmap", "jet", "derivative", "linearize"]

_MAX_COMPILED = 8


# -- functionalisation helpers ----------------------------------------------------------------
def _primal(x: Any) -> Any:
    def one(leaf: Any) -> Any:
        if isinstance(leaf, Variable):
            return leaf._value
        if isinstance(leaf, np.ndarray):
            return jnp.asarray(leaf)
        if type(leaf) in MUTABLE_SCALARS:
            return Tensor(leaf)._raw
        return leaf
    return jax.tree_util.tree_map(one, x, is_leaf=lambda v: isinstance(v, Variable))


_SPARSE = (COOTensor, CSRTensor, RowTensor)


def _diff_part(x: Any) -> Any:
    """What is differentiated of an input: a sparse tensor's values (its indices are structure), else all of it."""
    return unwrap(x.values) if isinstance(x, _SPARSE) else x


def _with_diff_part(x: Any, part: Any) -> Any:
    """``x`` with its differentiated part replaced: a sparse tensor of the same structure holding ``part``."""
    if not isinstance(x, _SPARSE):
        return part
    leaves, treedef = jax.tree_util.tree_flatten(x)
    return jax.tree_util.tree_unflatten(treedef, leaves[:-1] + [part])  # the values are the last leaf


def _replace(args: tuple[Any, ...], positions: Sequence[int], values: Sequence[Any]) -> list[Any]:
    out = list(args)
    for pos, val in zip(positions, values):
        out[pos] = _with_diff_part(args[pos], val)
    return out


def _is_float0(x: Any) -> bool:
    return getattr(x, "dtype", None) == jax.dtypes.float0


def _zero_like_primal(grad_value: Any, primal: Any) -> Any:
    """Integer inputs get a zero gradient of their own dtype instead of JAX's float0."""
    def one(g: Any, p: Any) -> Any:
        return jnp.zeros(np.shape(p), jnp.asarray(p).dtype) if _is_float0(g) else g
    return jax.tree_util.tree_map(one, grad_value, primal)


def _cotangent(out: Any, sens: Any, api: str) -> Any:
    """Ones for every floating output (MindSpore's default), or ``sens`` cast to the outputs."""
    leaves, treedef = jax.tree_util.tree_flatten(out)
    if sens is None:
        sens_leaves: list[Any] = [None] * len(leaves)
    else:
        sens_leaves = jax.tree_util.tree_leaves(_primal(sens))
        if len(sens_leaves) != len(leaves):
            raise ValueError(f"For '{api}', 'sens' must match the structure of fn's output: "
                             f"expected {len(leaves)} tensor(s), got {len(sens_leaves)}")
    cts = []
    for o, s in zip(leaves, sens_leaves):
        o_arr = jnp.asarray(o) if not isinstance(o, jax.core.Tracer) else o
        if not jnp.issubdtype(o_arr.dtype, jnp.inexact):
            cts.append(np.zeros(np.shape(o_arr), jax.dtypes.float0))
        elif s is None:
            cts.append(jnp.ones_like(o_arr))
        else:
            s_arr = jnp.asarray(s, dtype=o_arr.dtype)
            try:
                cts.append(jnp.broadcast_to(s_arr, o_arr.shape))
            except ValueError:
                raise ValueError(f"For '{api}', 'sens' of shape {tuple(s_arr.shape)} does not fit "
                                 f"the output of shape {tuple(o_arr.shape)}") from None
    return jax.tree_util.tree_unflatten(treedef, cts)


def _first_output(out: Any, api: str) -> Any:
    if not isinstance(out, (tuple, list)) or len(out) < 2:
        got = f"a {type(out).__name__} of {len(out)}" if isinstance(out, (tuple, list)) \
            else type(out).__name__
        raise ValueError(f"For '{api}', 'has_aux' is True, so 'fn' must return a tuple of at least "
                         f"two outputs (the first is differentiated), got {got}")
    return out[0]


def _aux_of(out: Any) -> Any:
    """The auxiliary outputs as vjp/jvp/jacfwd/jacrev return them: one, or a tuple of several."""
    return out[1] if len(out) == 2 else tuple(out[1:])


def _differentiate(fn: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any],
                   positions: Sequence[int], weights: Sequence[Parameter], has_aux: bool,
                   sens: Any, api: str) -> tuple[Any, list[Any], list[Any]]:
    """Reverse-mode core: ``(fn's full output, grads of positions, grads of weights)``."""
    out, input_grads, weight_grads = _differentiate_values(fn, args, kwargs, positions, weights, has_aux,
                                                           sens, api)
    if in_user_code() and not jax_inputs(args, kwargs):
        # Gradients are Tensors for MindSpore code; a JAX caller (jax.Array inputs) gets arrays.
        return out, wrap(input_grads), wrap(weight_grads)
    return out, input_grads, weight_grads


def _differentiate_values(fn: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any],
                          positions: Sequence[int], weights: Sequence[Parameter], has_aux: bool,
                          sens: Any, api: str) -> tuple[Any, list[Any], list[Any]]:
    diff_primals = [_primal(_diff_part(args[p])) for p in positions]
    weight_primals = [w._value for w in weights]
    int_inputs = any(_is_int(leaf) for leaf in jax.tree_util.tree_leaves((diff_primals, weight_primals)))
    # MindSpore differentiates integer (and bool) inputs and Parameters as if they were real and casts the
    # gradient back to their dtype; a cast to an integer dtype inside fn passes its gradient on the same way
    # (mindjax.common.casting). When fn cannot take integers as floats (indices, one_hot labels, bitwise
    # ops), it runs again on the integers themselves, and their gradient is zero, as JAX's float0 says.
    with integer_casts_differentiable() as casts:
        try:
            return _vjp_once(fn, args, kwargs, positions, weights, has_aux, sens, api,
                             _ints_as_floats(diff_primals), _ints_as_floats(weight_primals), diff_primals,
                             weight_primals)
        except Exception:  # noqa: BLE001 - retried below with the integers themselves
            if not (int_inputs or casts.used):
                raise
    with integer_casts_plain():
        return _vjp_once(fn, args, kwargs, positions, weights, has_aux, sens, api, diff_primals, weight_primals,
                         diff_primals, weight_primals)


def _is_int(leaf: Any) -> bool:
    """An integer or bool array: MindSpore differentiates it as a float and casts the gradient back
    (a bool input's gradient is the sensitivity's truth value)."""
    dtype = getattr(leaf, "dtype", None)
    return dtype is not None and (jnp.issubdtype(dtype, jnp.integer) or dtype == jnp.bool_)


def _ints_as_floats(tree: Any) -> Any:
    return jax.tree_util.tree_map(lambda x: x.astype(jnp.float32) if _is_int(x) else x, tree)


def _vjp_once(fn: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any], positions: Sequence[int],
              weights: Sequence[Parameter], has_aux: bool, sens: Any, api: str, diff_primals: list[Any],
              weight_primals: list[Any], original: list[Any],
              original_weights: list[Any]) -> tuple[Any, list[Any], list[Any]]:
    effects = Effects()

    def pure(diff_values: list[Any], weight_values: list[Any]) -> tuple[Any, tuple[Any, list[Any]]]:
        call_args = _replace(args, positions, diff_values)
        out, new_values = run_functional(weights, weight_values, effects, fn, *call_args, **kwargs)
        main = _first_output(out, api) if has_aux else out
        arrays, mask = _array_leaves(main)
        return arrays, (out, new_values, mask)

    main, vjp_fn, (out, new_values, mask) = jax.vjp(pure, diff_primals, weight_primals, has_aux=True)
    effects.commit(new_values)
    input_grads, weight_grads = vjp_fn(_conj(_cotangent(main, _sens_of_arrays(sens, mask), api)))
    input_grads = [_conj(_zero_like_primal(_cast_like(g, p), p)) for g, p in zip(input_grads, original)]
    weight_grads = [_conj(_zero_like_primal(_cast_like(g, p), p))
                    for g, p in zip(weight_grads, original_weights)]
    # A sparse input's gradient is a sparse tensor of its structure holding the values' gradient.
    input_grads = [_with_diff_part(args[p], g) for p, g in zip(positions, input_grads)]
    # Hooks registered on an input Tensor or a Parameter (Tensor.register_hook) see its whole gradient.
    input_grads = [apply_leaf_hooks(args[p], g) for p, g in zip(positions, input_grads)]
    weight_grads = [apply_leaf_hooks(w, g) for w, g in zip(weights, weight_grads)]
    return out, input_grads, weight_grads


def _array_leaves(out: Any) -> tuple[list[Any], tuple[bool, ...]]:
    """The arrays among ``out``'s leaves (what is differentiated), and which leaves they are.

    Strings, ``None``, slices and Python numbers in an output (a shape tuple, a
    constant in a dict) are constants; MindSpore gives them no sensitivity.
    """
    leaves = jax.tree_util.tree_leaves(out)
    mask = tuple(isinstance(leaf, (jax.Array, np.ndarray)) for leaf in leaves)
    return [leaf for leaf, keep in zip(leaves, mask) if keep], mask


def _sens_of_arrays(sens: Any, mask: tuple[bool, ...]) -> Any:
    """``sens`` for the array outputs alone: a sens shaped like the whole output drops the
    entries of its constant leaves; one shaped like the arrays alone is used as it is."""
    if sens is None or all(mask):
        return sens
    leaves = jax.tree_util.tree_leaves(_primal(sens))
    if len(leaves) == len(mask):
        return [leaf for leaf, keep in zip(leaves, mask) if keep]
    return sens


def _conj(tree: Any) -> Any:
    """Complex leaves conjugated.

    JAX's reverse mode gives ``vjp(ct) = ct * df/dz``; MindSpore (like PyTorch)
    gives the conjugate, ``conj(vjp(conj(ct)))``, so that a real loss's gradient
    is its steepest ascent (``grad(imag)(z) == 1j``).
    """
    def one(x: Any) -> Any:
        dtype = getattr(x, "dtype", None)
        if dtype is not None and dtype != jax.dtypes.float0 and jnp.issubdtype(dtype, jnp.complexfloating):
            return jnp.conj(x)
        return x
    return jax.tree_util.tree_map(one, tree)


def _cast_like(grad_value: Any, primal: Any) -> Any:
    """A gradient computed for an integer input as a float, in the input's own dtype."""
    return jax.tree_util.tree_map(
        lambda g, p: g.astype(p.dtype) if _is_int(p) and not _is_float0(g) else g, grad_value, primal)


# -- argument checks --------------------------------------------------------------------------
def _check_positions(grad_position: Any, api: str) -> tuple[int, ...] | None:
    if grad_position is None:
        return None
    if isinstance(grad_position, bool) or not isinstance(grad_position, (int, tuple)):
        raise TypeError(f"For '{api}', 'grad_position' must be an int, a tuple of ints or None, "
                        f"got {type(grad_position).__name__}")
    items = grad_position if isinstance(grad_position, tuple) else (grad_position,)
    if not items:
        raise ValueError(f"For '{api}', 'grad_position' must not be an empty tuple")
    for item in items:
        if isinstance(item, bool) or not isinstance(item, int):
            raise TypeError(f"For '{api}', every element of 'grad_position' must be an int, "
                            f"got {type(item).__name__}")
        if item < 0:
            raise ValueError(f"For '{api}', 'grad_position' must be >= 0, got {item}")
    if len(set(items)) != len(items):
        raise ValueError(f"For '{api}', 'grad_position' has duplicate positions: {grad_position}")
    return tuple(items)


def _check_weights(weights: Any, api: str) -> tuple[list[Parameter], bool]:
    """``(the Parameters, whether a single Parameter was given)``."""
    if isinstance(weights, Parameter):
        return [weights], True
    if isinstance(weights, Variable) or isinstance(weights, (jax.Array, np.ndarray, Tensor)) \
            or not isinstance(weights, Iterable) or isinstance(weights, (str, dict)):
        raise TypeError(f"For '{api}', 'weights' must be a Parameter, a list or tuple of Parameters "
                        f"or a ParameterTuple, got {type(weights).__name__}")
    items = list(weights)
    for i, item in enumerate(items):
        if not isinstance(item, Parameter):
            raise TypeError(f"For '{api}', 'weights' must contain only Parameters; element {i} "
                            f"is a {type(item).__name__}")
    return items, False


def _check_bool(value: Any, name: str, api: str) -> bool:
    if not isinstance(value, bool):
        raise TypeError(f"For '{api}', '{name}' must be a bool, got {type(value).__name__}")
    return value


def _check_callable(fn: Any, api: str) -> None:
    if not callable(fn):
        raise TypeError(f"For '{api}', 'fn' must be a function or a Cell, got {type(fn).__name__}")


# -- mode-aware calling ---------------------------------------------------------------------------
def _has_tracer(tree: Any) -> bool:
    return any(isinstance(x, jax.core.Tracer) for x in jax.tree_util.tree_leaves(tree))


def _traced_target(fn: Any, inputs: Any) -> Any:
    """``fn`` with its Python control flow converted when it is traced (GRAPH mode, ``ms.jit``, tracers).

    A Cell's ``construct`` is converted by its own call; a user function or
    method is converted here, as MindSpore's graph mode parses every function it
    differentiates (``if x >= 2`` on a tensor becomes ``lax.cond``).
    """
    if not isinstance(fn, (types.FunctionType, types.MethodType)):
        return fn
    if context._MODE[0] != context.GRAPH_MODE and not context.in_compiled() and not _has_tracer(inputs):
        return fn
    from mindjax.transforms.control_flow import _runtime as _control_flow  # one layer: transforms

    return functools.partial(_control_flow.call, fn)


class _ModeAware:
    """Runs ``run`` eagerly in PYNATIVE mode and as one compiled program in GRAPH mode.

    Called from inside a compiled program or with traced arguments (a grad of a
    grad), it traces inline into the enclosing program.
    """

    def __init__(self, run: Callable[..., Any], fn: Any, extra: Sequence[Variable], api: str) -> None:
        self._run = run
        self._fn = fn
        self._extra = list(extra)
        self._api = api

    def _signature(self) -> Any:
        if hasattr(self._fn, "cells_and_names"):

            return cell_signature(self._fn)
        return structure_version()

    def _program(self) -> Any:
        from mindjax.transforms.jit import CompiledFunction, program_cache  # jit sits beside grad

        def build() -> Any:
            initial = list(self._extra)
            if hasattr(self._fn, "parameters_and_names"):
                initial += collect_variables(self._fn)
            seen: set[int] = set()
            variables = [v for v in initial + [RNG_STATE] if not (id(v) in seen or seen.add(id(v)))]
            return CompiledFunction(self._run, variables, f"For '{self._api}'")

        # Kept in this gradient function's own cache: its programs go when it goes.
        return program_cache(self).program(self._signature(), build, limit=_MAX_COMPILED)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if context._MODE[0] == context.GRAPH_MODE and not context.in_compiled() \
                and not _has_tracer((args, kwargs)):
            return self._program()(*args, **kwargs)
        return self._run(*args, **kwargs)


def _split_sens(args: tuple[Any, ...], kwargs: dict[str, Any],
                api: str) -> tuple[tuple[Any, ...], dict[str, Any], Any]:
    if "sens" in kwargs:
        kwargs = dict(kwargs)
        return args, kwargs, kwargs.pop("sens")
    if not args:
        raise TypeError(f"For '{api}', 'sens_param' is True, so the sensitivity must be passed as "
                        f"the last positional input or as 'sens'; got no inputs")
    return args[:-1], kwargs, args[-1]


def _pack(grads: Sequence[Any], ids: Sequence[Any], return_ids: bool, single: bool) -> Any:
    items = [(i, g) for i, g in zip(ids, grads)] if return_ids else list(grads)
    return items[0] if single else tuple(items)


def _is_grad_input(x: Any) -> bool:
    """Whether a positional input gets a gradient: a Tensor (or Parameter, or array, or a sparse tensor's
    values), as in MindSpore.

    Python numbers, strings, ``None`` and containers (tuples, lists, dicts, even
    of Tensors) are constants of the call; MindSpore 2.10 leaves them out of the
    gradients, in both modes. What ``ms.mutable`` marked is an input: a marked
    container gets its Tensors' gradients, a marked number a zero (see ``_GradFunction``).
    """
    return isinstance(x, (Tensor, jax.Array, np.ndarray, np.generic) + _SPARSE) or is_mutable(x)


class _GradFunction:
    """What ``grad``/``value_and_grad`` return: a callable that differentiates ``fn``."""

    def __init__(self, fn: Callable[..., Any], positions: tuple[int, ...] | None,
                 weights: list[Parameter] | None, single_weight: bool, has_aux: bool,
                 return_ids: bool, sens_param: bool, get_value: bool, api: str,
                 all_positions: bool = False, first_input: bool = False) -> None:
        self._fn = fn
        self._positions = positions
        self._weights = weights
        self._single_weight = single_weight
        self._has_aux = has_aux
        self._return_ids = return_ids
        self._sens_param = sens_param
        self._get_value = get_value
        self._api = api
        self._all_positions = all_positions
        # GradOperation's default: the first input's gradient, () when there is none.
        self._first_input = first_input
        self._call = _ModeAware(self._raw, fn, weights or [], api)
        # Named like ``fn`` (a Cell: its class), so that ms.jit and error messages can name it.
        self.__name__ = getattr(fn, "__name__", type(fn).__name__)
        self.__qualname__ = getattr(fn, "__qualname__", type(fn).__qualname__)

    def _grad_positions(self, args: tuple[Any, ...]) -> tuple[int, ...]:
        """The positions of ``args`` (sensitivity removed) whose gradients are returned."""
        if self._all_positions:
            return tuple(i for i, a in enumerate(args) if _is_grad_input(a))
        if self._positions is None:
            return ()
        if self._first_input:
            return (0,) if args and _is_grad_input(args[0]) else ()
        for pos in self._positions:
            if pos >= len(args):
                raise ValueError(f"For '{self._api}', 'grad_position' {pos} is out of range: 'fn' was "
                                 f"called with {len(args)} positional input(s)")
        return tuple(p for p in self._positions if _is_grad_input(args[p]))

    def _without_sens(self, args: tuple[Any, ...], kwargs: dict[str, Any]) -> tuple[Any, ...]:
        if self._sens_param and "sens" not in kwargs:
            return args[:-1]
        return args

    def _raw(self, *args: Any, **kwargs: Any) -> tuple[Any, list[Any], list[Any]]:
        sens = None
        if self._sens_param:
            args, kwargs, sens = _split_sens(args, kwargs, self._api)
        positions = self._grad_positions(args)
        out, input_grads, weight_grads = _differentiate(
            _traced_target(self._fn, (args, kwargs)), args, kwargs, positions, self._weights or [],
            self._has_aux, sens, self._api)
        return out, input_grads, weight_grads

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        positions = self._grad_positions(self._without_sens(args, kwargs))
        out, input_grads, weight_grads = self._call(*args, **kwargs)
        inputs = self._without_sens(args, kwargs)
        # MindSpore 2.10 gives a mutable number (ms.mutable(2.0)) a zero gradient of its own type.
        input_grads = [type(inputs[p]).__mro__[1](0) if type(inputs[p]) in MUTABLE_SCALARS else g
                       for p, g in zip(positions, input_grads)]
        parts = []
        if self._all_positions:
            parts.append(_pack(input_grads, positions, self._return_ids, False))
        elif self._positions is not None:
            parts.append(_pack(input_grads, positions, self._return_ids, len(positions) == 1))
        if self._weights is not None:
            # A Parameter whose requires_grad is False (even if set during the call) gets a zero
            # gradient, as in MindSpore's PYNATIVE mode.
            weight_grads = [g if w.requires_grad else _zeros_like_tree(g)
                            for w, g in zip(self._weights, weight_grads)]
            parts.append(_pack(weight_grads, [w.name for w in self._weights], self._return_ids,
                               self._single_weight))
        grads = parts[0] if len(parts) == 1 else tuple(parts)
        if self._get_value:
            return out, grads
        if self._has_aux:
            return grads, tuple(out[1:])
        return grads


def _zeros_like_tree(tree: Any) -> Any:
    def one(x: Any) -> Any:
        return wrap(jnp.zeros_like(unwrap(x))) if isinstance(x, Tensor) else jnp.zeros_like(x)
    return jax.tree_util.tree_map(one, tree, is_leaf=lambda x: isinstance(x, Tensor))


def _make_grad(fn: Any, grad_position: Any, weights: Any, has_aux: Any, return_ids: Any,
               sens_param: Any, get_value: bool, api: str) -> _GradFunction:
    _check_callable(fn, api)
    if grad_position is None and weights is None:
        raise ValueError(f"For '{api}', 'grad_position' and 'weights' can not both be None")
    positions = _check_positions(grad_position, api)
    params, single = (None, False) if weights is None else _check_weights(weights, api)
    _check_bool(has_aux, "has_aux", api)
    _check_bool(return_ids, "return_ids", api)
    _check_bool(sens_param, "sens_param", api)
    return _GradFunction(fn, positions, params, single, has_aux, return_ids, sens_param,
                         get_value, api)


def grad(fn: Callable[..., Any], grad_position: int | tuple[int, ...] | None = 0,
         weights: Any = None, has_aux: bool = False, return_ids: bool = False,
         sens_param: bool = False) -> Callable[..., Any]:
    """The gradient function of ``fn`` (MindSpore's ``ms.grad``).

    Arguments:
        fn: a function or a Cell.
        grad_position: the positional input (int) or inputs (tuple) to
            differentiate, or ``None`` for weights only.
        weights: a Parameter, a list/tuple of Parameters, a ``ParameterTuple``
            or ``cell.trainable_params()``.
        has_aux: differentiate only the first output; the others come back as
            ``aux``.
        return_ids: pair every gradient with its position or Parameter name.
        sens_param: the sensitivity (gradient of the output) is passed as the
            last positional input or as ``sens=``.

    Returns:
        a function of ``fn``'s inputs giving the gradients (``(grads, aux)``
        with ``has_aux``); see the module docstring for their structure.

    Raises:
        ValueError: both ``grad_position`` and ``weights`` are None, a position
            is negative, repeated or out of range.
        TypeError: ``grad_position``, ``weights`` or a flag has the wrong type.

    Example:
        >>> import mindjax as ms
        >>> g = ms.grad(lambda x: (x ** 2).sum())(ms.Tensor([1.0, 2.0]))
        >>> g.tolist()
        [2.0, 4.0]
    """
    return _make_grad(fn, grad_position, weights, has_aux, return_ids, sens_param, False, "grad")


def value_and_grad(fn: Callable[..., Any], grad_position: int | tuple[int, ...] | None = 0,
                   weights: Any = None, has_aux: bool = False, return_ids: bool = False,
                   sens_param: bool = False) -> Callable[..., Any]:
    """Like :func:`grad`, but the function returns ``(fn's outputs, gradients)``.

    With ``has_aux`` the outputs are all of ``fn``'s outputs; only the first is
    differentiated.

    Arguments:
        fn, grad_position, weights, has_aux, return_ids, sens_param: as in :func:`grad`.

    Returns:
        a function of ``fn``'s inputs giving ``(outputs, gradients)``.

    Example:
        >>> import mindjax as ms
        >>> loss, g = ms.value_and_grad(lambda x: (x ** 2).sum())(ms.Tensor([1.0, 2.0]))
        >>> float(loss), g.tolist()
        (5.0, [2.0, 4.0])
    """
    return _make_grad(fn, grad_position, weights, has_aux, return_ids, sens_param, True,
                      "value_and_grad")


def get_grad(gradients: Any, identifier: int | Parameter) -> Any:
    """Pick one gradient out of a ``return_ids=True`` result.

    Arguments:
        gradients: what ``grad(..., return_ids=True)`` returned (or the second
            element of ``value_and_grad``'s result).
        identifier: an input position or a Parameter.

    Returns:
        the gradient for ``identifier``.

    Raises:
        RuntimeError: no gradient has that identifier.
    """
    key = identifier.name if isinstance(identifier, Parameter) else identifier
    if isinstance(key, bool) or not isinstance(key, (int, str)):
        raise TypeError(f"For 'get_grad', 'identifier' must be an int position or a Parameter, "
                        f"got {type(identifier).__name__}")

    def search(tree: Any) -> Any:
        if isinstance(tree, tuple):
            if len(tree) == 2 and isinstance(tree[0], (int, str)) and not isinstance(tree[0], bool) \
                    and not isinstance(tree[1], tuple):
                return tree[1] if tree[0] == key and type(tree[0]) is type(key) else None
            for item in tree:
                found = search(item)
                if found is not None:
                    return found
        return None

    found = search(gradients)
    if found is None:
        raise RuntimeError(f"For 'get_grad', no gradient with identifier {key!r} was found; "
                           f"were the gradients computed with return_ids=True?")
    return found


class GradOperation:
    """MindSpore's ``ops.GradOperation``: ``GradOperation(...)(net, params)(*inputs[, sens])``.

    Arguments:
        get_all: gradients of all positional inputs, as a tuple.
        get_by_list: gradients of the Parameters passed with the network.
        sens_param: the last positional input (or ``sens=``) is the
            sensitivity of the output.

    With neither flag the result is the gradient of the first input; with both
    it is ``(inputs_grads, weights_grads)``.

    Example:
        >>> import mindjax as ms
        >>> from mindjax import ops
        >>> ops.GradOperation()(lambda x: (x * 3).sum())(ms.Tensor([1.0])).tolist()
        [3.0]
    """

    def __init__(self, get_all: bool = False, get_by_list: bool = False,
                 sens_param: bool = False) -> None:
        self.get_all = _check_bool(get_all, "get_all", "GradOperation")
        self.get_by_list = _check_bool(get_by_list, "get_by_list", "GradOperation")
        self.sens_param = _check_bool(sens_param, "sens_param", "GradOperation")

    def __call__(self, fn: Callable[..., Any], weights: Any = None) -> Callable[..., Any]:
        """The gradient function of ``fn`` (and of ``weights`` when ``get_by_list``)."""
        api = "GradOperation"
        _check_callable(fn, api)
        params, single = None, False
        if self.get_by_list:
            if weights is None:
                # MindSpore's PYNATIVE behaviour: a Cell's trainable Parameters.
                weights = fn.trainable_params() if hasattr(fn, "trainable_params") else []
            params, single = _check_weights(weights, api)
        positions = None if (self.get_by_list and not self.get_all) else (0,)
        return _GradFunction(fn, positions, params, single, False, False, self.sens_param,
                             False, api, all_positions=self.get_all, first_input=True)


# -- forward mode, vjp, jacobians, vmap ----------------------------------------------------------
def _check_tensors(value: Any, name: str, api: str) -> None:
    items = value if isinstance(value, (tuple, list)) else (value,)
    for item in items:
        if not isinstance(item, (jax.Array, np.ndarray, Tensor, tuple, list)):
            raise TypeError(f"For '{api}', '{name}' must be a Tensor or a tuple/list of Tensors, "
                            f"got {type(item).__name__}")


def vjp(fn: Callable[..., Any], *inputs: Any, weights: Any = None,
        has_aux: bool = False) -> tuple[Any, ...]:
    """The outputs of ``fn(*inputs)`` and a function computing vector-Jacobian products.

    Arguments:
        fn: a function or a Cell.
        inputs: the inputs of ``fn``.
        weights: Parameters to differentiate as well (as in :func:`grad`).
        has_aux: only the first output is differentiated.

    Returns:
        ``(outputs, vjp_fn)``, or ``(first output, vjp_fn, aux)`` with
        ``has_aux`` (``aux`` is the second output, or a tuple of the rest when
        there are more). ``vjp_fn(*v)`` returns the tuple of the inputs'
        gradients, or ``(inputs_grads, weights_grads)`` when ``weights`` is given.

    Example:
        >>> import mindjax as ms
        >>> out, vjp_fn = ms.vjp(lambda x: x ** 2, ms.Tensor([1.0, 3.0]))
        >>> vjp_fn(ms.Tensor([1.0, 1.0]))[0].tolist()
        [2.0, 6.0]
    """
    api = "vjp"
    _check_callable(fn, api)
    _check_tensors(inputs, "inputs", api)
    _check_bool(has_aux, "has_aux", api)
    params, single = (None, False) if weights is None else _check_weights(weights, api)
    effects = Effects()

    def pure(diff_values: list[Any], weight_values: list[Any]) -> tuple[Any, tuple[Any, list[Any]]]:
        out, new_values = run_functional(params or [], weight_values, effects, fn, *diff_values)
        main = _first_output(out, api) if has_aux else out
        return main, (out, new_values)

    primals = [_primal(x) for x in inputs]
    weight_primals = [w._value for w in params or []]
    main, raw_vjp, (out, new_values), restore = _vjp_with_int_inputs(pure, primals, weight_primals)
    effects.commit(new_values)
    main_out, out = restore((main, out))

    as_tensors = in_user_code() and not jax_inputs(inputs, {})

    def vjp_fn(*v: Any) -> Any:
        _check_tensors(v, "v", api)
        sens = v[0] if len(v) == 1 else v
        input_grads, weight_grads = raw_vjp(_conj(_cotangent(main, sens, api)))
        input_grads = tuple(apply_leaf_hooks(x, _conj(_zero_like_primal(_cast_like(g, p), p)))
                            for x, g, p in zip(inputs, input_grads, primals))
        weight_grads = [apply_leaf_hooks(w, _conj(_zero_like_primal(_cast_like(g, p), p)))
                        for w, g, p in zip(params or [], weight_grads, weight_primals)]
        if as_tensors:  # Tensors for MindSpore code; a JAX caller (jax.Array inputs) gets arrays
            input_grads, weight_grads = wrap(input_grads), wrap(weight_grads)
        if params is None:
            return input_grads
        return input_grads, _pack(weight_grads, [], False, single)

    if has_aux:
        return main_out, vjp_fn, _aux_of(out)
    return out, vjp_fn


def _vjp_with_int_inputs(pure: Callable[..., Any], primals: list[Any],
                         weight_primals: list[Any]) -> tuple[Any, Any, Any, Callable[[Any], Any]]:
    """``jax.vjp(pure, primals, weight_primals, has_aux=True)``, differentiating integer inputs.

    As in :func:`_differentiate_values`, integer inputs run as floats (their
    gradients are cast back by the caller); when ``pure`` can not take them as
    floats, their gradient is zero.

    Returns:
        ``(main, vjp_fn, aux, restore)``: ``restore((main, outputs))`` gives the
        outputs the dtypes the integer inputs give them, for the caller to return.
    """
    def keep(tree: Any) -> Any:
        return tree

    int_inputs = any(_is_int(leaf) for leaf in jax.tree_util.tree_leaves((primals, weight_primals)))
    try:
        # A cast to an integer dtype inside pure passes its gradient on as MindSpore's does
        # (mindjax.common.casting); the outputs then get their dtypes back from a plain trace.
        with integer_casts_differentiable() as casts:
            main, raw_vjp, aux = jax.vjp(pure, _ints_as_floats(primals), _ints_as_floats(weight_primals),
                                         has_aux=True)
        if not (int_inputs or casts.used):
            return main, raw_vjp, aux, keep
        with integer_casts_plain():
            main_shapes, (out_shapes, _) = jax.eval_shape(pure, primals, weight_primals)
    except Exception:  # noqa: BLE001 - retried below with the integers themselves
        if not (int_inputs or casts.used):
            raise
        with integer_casts_plain():
            return (*jax.vjp(pure, primals, weight_primals, has_aux=True), keep)

    def restore(tree: Any) -> Any:
        return jax.tree_util.tree_map(
            lambda x, want: x.astype(want.dtype) if getattr(x, "dtype", want.dtype) != want.dtype else x,
            tree, (main_shapes, out_shapes))
    return main, raw_vjp, aux, restore


def jvp(fn: Callable[..., Any], inputs: Any, v: Any, has_aux: bool = False) -> tuple[Any, ...]:
    """The outputs of ``fn(*inputs)`` and the Jacobian-vector product with ``v``.

    Arguments:
        fn: a function or a Cell.
        inputs: a Tensor or a tuple/list of Tensors.
        v: tangents with the structure of ``inputs``.
        has_aux: only the first output is differentiated.

    Returns:
        ``(outputs, jvp)``, or ``(first output, jvp, aux)`` with ``has_aux``.

    Raises:
        TypeError: ``inputs`` or ``v`` is not a Tensor or tuple/list of Tensors.
        ValueError: ``v`` and ``inputs`` have different lengths.

    Example:
        >>> import mindjax as ms
        >>> out, t = ms.jvp(lambda x: x ** 3, ms.Tensor([1.0, 2.0]), ms.Tensor([1.0, 1.0]))
        >>> t.tolist()
        [3.0, 12.0]
    """
    api = "jvp"
    _check_callable(fn, api)
    _check_bool(has_aux, "has_aux", api)
    _check_tensors(inputs, "inputs", api)
    _check_tensors(v, "v", api)
    seq_in = isinstance(inputs, (tuple, list))
    n_in = len(inputs) if seq_in else 1
    n_v = len(v) if isinstance(v, (tuple, list)) else 1
    if n_in != n_v:
        raise ValueError(f"For 'jvp', 'v' has invalid length: should be {n_in}, but got {n_v}")
    primals = [_primal(x) for x in (inputs if seq_in else (inputs,))]
    tangents = list(v) if isinstance(v, (tuple, list)) else [v]
    tangents = [jax.tree_util.tree_map(lambda t, p: jnp.asarray(t, jnp.asarray(p).dtype),
                                       _primal(t), p) for t, p in zip(tangents, primals)]
    effects = Effects()

    def pure(*diff_values: Any) -> tuple[Any, tuple[Any, list[Any]]]:
        out, new_values = run_functional([], [], effects, fn, *diff_values)
        main = _first_output(out, api) if has_aux else out
        return main, (out, new_values)

    main, tangent_out, (out, new_values) = jax.jvp(pure, primals, tangents, has_aux=True)
    effects.commit(new_values)
    if has_aux:
        return main, tangent_out, _aux_of(out)
    return out, tangent_out


def _make_jacobian(fn: Callable[..., Any], grad_position: Any, has_aux: bool, api: str,
                   transform: Callable[..., Any]) -> Callable[..., Any]:
    _check_callable(fn, api)
    positions = _check_positions(grad_position, api)
    if positions is None:
        raise TypeError(f"For '{api}', 'grad_position' must be an int or a tuple of ints, got None")
    _check_bool(has_aux, "has_aux", api)

    def run(*args: Any, **kwargs: Any) -> Any:
        for pos in positions:
            if pos >= len(args):
                raise ValueError(f"For '{api}', 'grad_position' {pos} is out of range: 'fn' was "
                                 f"called with {len(args)} positional input(s)")
        effects = Effects()
        # Arrays cross jax.jacfwd/jacrev (a Tensor output of a Tensor input would nest Tensors);
        # fn still sees Tensors where it was given Tensors.
        tensor_inputs = [isinstance(args[p], Tensor) for p in positions]

        def pure(*diff_values: Any) -> tuple[Any, tuple[Any, list[Any]]]:
            values = [wrap(v) if t else v for v, t in zip(diff_values, tensor_inputs)]
            call_args = _replace(args, positions, values)
            out, new_values = run_functional([], [], effects, fn, *call_args, **kwargs)
            main = _first_output(out, api) if has_aux else out
            return unwrap(main), (out, new_values)

        argnums: Any = 0 if len(positions) == 1 else tuple(range(len(positions)))
        jac, (out, new_values) = transform(pure, argnums=argnums, has_aux=True)(
            *[unwrap(_primal(args[p])) for p in positions])
        effects.commit(new_values)
        jac = wrap(jac) if any(tensor_inputs) else jac
        return (jac, _aux_of(out)) if has_aux else jac

    return _ModeAware(run, fn, [], api)


def jacfwd(fn: Callable[..., Any], grad_position: int | tuple[int, ...] = 0,
           has_aux: bool = False) -> Callable[..., Any]:
    """The Jacobian of ``fn`` by forward mode (MindSpore's ``ms.jacfwd``).

    Arguments:
        fn: a function or a Cell.
        grad_position: the input (int) or inputs (tuple) to differentiate.
        has_aux: only the first output is differentiated; the rest come back as aux.

    Returns:
        a function giving the Jacobian, ``[output][input]`` nested when both
        are several, or ``(jacobian, aux)`` with ``has_aux``.

    Example:
        >>> import mindjax as ms
        >>> ms.jacfwd(lambda x: x ** 2)(ms.Tensor([1.0, 2.0])).tolist()
        [[2.0, 0.0], [0.0, 4.0]]
    """
    return _make_jacobian(fn, grad_position, has_aux, "jacfwd", jax.jacfwd)


def jacrev(fn: Callable[..., Any], grad_position: int | tuple[int, ...] = 0,
           has_aux: bool = False) -> Callable[..., Any]:
    """The Jacobian of ``fn`` by reverse mode (MindSpore's ``ms.jacrev``).

    Arguments:
        fn, grad_position, has_aux: as in :func:`jacfwd`.

    Returns:
        a function giving the Jacobian (see :func:`jacfwd`).
    """
    return _make_jacobian(fn, grad_position, has_aux, "jacrev", jax.jacrev)


def _axes(spec: Any) -> Any:
    if isinstance(spec, list):
        return tuple(_axes(s) for s in spec)
    if isinstance(spec, tuple):
        return tuple(_axes(s) for s in spec)
    return spec


def vmap(fn: Callable[..., Any], in_axes: Any = 0, out_axes: Any = 0) -> Callable[..., Any]:
    """Vectorise ``fn`` over a batch axis (MindSpore's ``ms.vmap``), functions and Cells alike.

    Arguments:
        fn: a function or a Cell (its Parameters are shared by every batch element).
        in_axes: the mapped axis of each input (an int, None, or a tuple with
            one entry per input).
        out_axes: where the batch axis goes in each output.

    Returns:
        the vectorised function.

    Raises:
        ValueError: an axis is out of range, or ``fn`` writes a Parameter with
            a value that differs across the batch.

    Example:
        >>> import mindjax as ms
        >>> ms.vmap(lambda x: x.sum())(ms.Tensor([[1.0, 2.0], [3.0, 4.0]])).tolist()
        [3.0, 7.0]
    """
    api = "vmap"
    _check_callable(fn, api)
    in_spec, out_spec = _axes(in_axes), _axes(out_axes)

    def run(*args: Any, **kwargs: Any) -> Any:
        effects = Effects()

        def body(*batched: Any) -> tuple[Any, list[Any]]:
            return run_functional([], [], effects, fn, *batched, **kwargs)

        try:
            out, new_values = jax.vmap(body, in_axes=in_spec, out_axes=(out_spec, None))(
                *[_primal(a) for a in args])
        except ValueError as err:
            if "out_axes" in str(err) and effects.written:
                names = ", ".join(getattr(v, "name", "the random state") for v in effects.written)
                raise ValueError(f"For 'vmap', 'fn' writes {names} with a value that differs "
                                 f"across the batch; such writes can not be kept") from err
            raise ValueError(f"For 'vmap', {err}") from err
        effects.commit(new_values)
        return out

    return _ModeAware(run, fn, [], api)


# -- higher-order forward mode: jet, derivative, linearize -------------------------------------------------
_TAYLOR_DTYPES = (jnp.int32, jnp.int64, jnp.float32, jnp.float64)


def _taylor_value(api: str, name: str, value: Any) -> jax.Array:
    if not isinstance(value, (Tensor, jax.Array, np.ndarray)):
        raise TypeError(f"For '{api}', each element of '{name}' must be a Tensor, but got {type(value).__name__}")
    array = jnp.asarray(unwrap(value))
    if jnp.dtype(array.dtype) not in {jnp.dtype(d) for d in _TAYLOR_DTYPES}:
        raise TypeError(f"For '{api}', the elements of '{name}' must be int32, int64, float32 or float64, but got "
                        f"{array.dtype}")
    return array


def _taylor_run(fn: Callable[..., Any], primals: Sequence[jax.Array], series: Sequence[Sequence[jax.Array]],
                api: str) -> tuple[Any, list[Any]]:
    """``fn``'s outputs at ``primals`` and their 1st..n-th derivatives along ``series`` (``jax.experimental.jet``:
    the series terms are derivatives, not Taylor coefficients, as in MindSpore)."""
    from jax.experimental import jet as _jet

    _check_callable(fn, api)
    effects = Effects()

    def pure(*values: Any) -> Any:
        out, _ = run_functional([], [], effects, fn, *values)
        return jax.tree_util.tree_map(unwrap, out, is_leaf=lambda v: isinstance(v, Tensor))

    return _jet.jet(pure, tuple(primals), tuple(tuple(terms) for terms in series))


def _taylor_outputs(out: Any, out_series: Sequence[Any], last_only: bool) -> tuple[Any, Any]:
    """MindSpore's structure: one output gives ``(Tensor, Tensor)``; several give two lists, one item per output.
    Each output's series is stacked along a new leading dimension of orders (or, ``last_only``, its last order)."""
    def series_of(index: int | None) -> Tensor:
        # jet gives each output its list of orders (the output's structure over lists of terms)
        terms = [jnp.asarray(t) for t in (out_series if index is None else out_series[index])]
        return wrap(terms[-1] if last_only else jnp.stack(terms))

    if isinstance(out, (tuple, list)) and len(out) > 1:
        return [wrap(jnp.asarray(o)) for o in out], [series_of(i) for i in range(len(out))]
    single = out[0] if isinstance(out, (tuple, list)) else out
    return wrap(jnp.asarray(single)), series_of(0 if isinstance(out, (tuple, list)) else None)


def jet(fn: Callable[..., Any], primals: Any, series: Any) -> tuple[Any, Any]:
    """The 1st to n-th order derivatives of ``fn``'s outputs, given those of its inputs (MindSpore's ``ops.jet``).

    Arguments:
        fn: a function or a Cell.
        primals: a Tensor, or a tuple of Tensors (the inputs of ``fn``).
        series: for each input, its 1st..n-th derivatives stacked along dimension 0 (shape
            ``(n,) + primal.shape``; a Tensor of the primal's shape is order 1). Usually the first is ones
            and the others zeros. Int inputs are computed in float32.

    Returns:
        ``(out_primals, out_series)``: for one output a Tensor and its derivatives stacked along dimension 0;
        for several outputs, two lists.

    Raises:
        TypeError: ``primals`` and ``series`` are not both Tensors or both tuples, or a dtype is not int32,
            int64, float32 or float64, or the two dtypes differ.
        ValueError: the shapes or the lengths do not match.

    Example:
        >>> import mindjax as ms
        >>> from mindjax import ops
        >>> out, derivs = ops.jet(ops.sin, ms.Tensor([0.0]), ms.Tensor([[1.0], [0.0]]))
        >>> derivs.shape
        (2, 1)
    """
    api = "jet"
    single = isinstance(primals, (Tensor, jax.Array, np.ndarray)) and isinstance(series, (Tensor, jax.Array,
                                                                                           np.ndarray))
    if not single and not (isinstance(primals, tuple) and isinstance(series, tuple)):
        raise TypeError(f"For 'jet', 'primals' and 'series' must be both Tensor or both tuple, but got "
                        f"{type(primals).__name__} and {type(series).__name__}")
    primal_list, series_list = ((primals,), (series,)) if single else (primals, series)
    if len(primal_list) != len(series_list):
        raise ValueError(f"For 'jet', 'primals' and 'series' must have one length, but got {len(primal_list)} and "
                         f"{len(series_list)}")
    xs, terms = [], []
    for i, (p, s) in enumerate(zip(primal_list, series_list)):
        p, s = _taylor_value(api, "primals", p), _taylor_value(api, "series", s)
        if p.dtype != s.dtype:
            raise TypeError(f"For 'jet', primals[{i}] and series[{i}] must have one dtype, but got {p.dtype} and "
                            f"{s.dtype}")
        if s.shape == p.shape:
            s = s[None]
        elif s.shape[1:] != p.shape:
            raise ValueError(f"For 'jet', each order in series[{i}] must have the shape of primals[{i}], "
                             f"{p.shape}, but got series of shape {s.shape}")
        if jnp.issubdtype(p.dtype, jnp.integer):
            p, s = p.astype(jnp.float32), s.astype(jnp.float32)
        xs.append(p)
        terms.append([s[k] for k in range(s.shape[0])])
    orders = {len(t) for t in terms}
    if len(orders) > 1:
        raise ValueError(f"For 'jet', every input's series must have one number of orders, but got "
                         f"{[len(t) for t in terms]}")
    out, out_series = _taylor_run(fn, xs, terms, api)
    return _taylor_outputs(out, out_series, last_only=False)


def derivative(fn: Callable[..., Any], primals: Any, order: int) -> tuple[Any, Any]:
    """The ``order``-th derivative of ``fn``'s outputs, every input's first derivative set to ones and its higher
    ones to zeros (MindSpore's ``ops.derivative``).

    Arguments:
        fn: a function or a Cell.
        primals: a Tensor, or a tuple of Tensors (int ones are computed in float32).
        order: the order, at least 1.

    Returns:
        ``(out_primals, out_series)``: ``fn``'s output and its ``order``-th derivative (lists for several outputs).

    Raises:
        TypeError: ``order`` is not an int, or a primal's dtype is not int32, int64, float32 or float64.
        ValueError: ``order`` is less than 1.

    Example:
        >>> import mindjax as ms
        >>> from mindjax import ops
        >>> out, d2 = ops.derivative(lambda x: x ** 3, ms.Tensor([2.0]), 2)
        >>> d2.tolist()
        [12.0]
    """
    api = "derivative"
    if not isinstance(order, int) or isinstance(order, bool):
        raise TypeError(f"For 'derivative', 'order' must be an int, but got {type(order).__name__}")
    if order < 1:
        raise ValueError(f"For 'derivative', 'order' must be at least 1, but got {order}")
    primal_list = primals if isinstance(primals, tuple) else (primals,)
    xs = []
    for p in primal_list:
        p = _taylor_value(api, "primals", p)
        xs.append(p.astype(jnp.float32) if jnp.issubdtype(p.dtype, jnp.integer) else p)
    terms = [[jnp.ones_like(p)] + [jnp.zeros_like(p)] * (order - 1) for p in xs]
    out, out_series = _taylor_run(fn, xs, terms, api)
    return _taylor_outputs(out, out_series, last_only=True)


def linearize(fn: Callable[..., Any], inputs: Any) -> tuple[Any, Callable[[Any], Any]]:
    """``fn``'s outputs at ``inputs`` and a function of tangents giving the Jacobian-vector product there
    (MindSpore's ``ops.linearize``, on ``jax.linearize``: ``fn`` is differentiated once, the product taken
    as often as wanted).

    Arguments:
        fn: a function or a Cell.
        inputs: a Tensor, or a tuple/list of Tensors.

    Returns:
        ``(output, jvp_fn)``: ``jvp_fn(v)`` takes tangents with the structure of ``inputs`` (a Tensor, or a
        tuple/list) and returns the product with the structure of ``output``.

    Raises:
        TypeError: ``inputs`` (or ``v``) is not a Tensor or a tuple/list of Tensors.
        ValueError: ``v`` has another number of tangents than ``inputs``.

    Example:
        >>> import mindjax as ms
        >>> from mindjax import ops
        >>> out, jvp_fn = ops.linearize(lambda x: x * x, ms.Tensor([3.0]))
        >>> jvp_fn(ms.Tensor([1.0])).tolist()
        [6.0]
    """
    api = "linearize"
    _check_callable(fn, api)
    if not isinstance(inputs, (Tensor, jax.Array, np.ndarray, tuple, list)):
        raise TypeError(f"For 'linearize', 'inputs' must be a Tensor, or a tuple or list of Tensors, but got "
                        f"{type(inputs).__name__}")
    _check_tensors(inputs, "inputs", api)
    items = list(inputs) if isinstance(inputs, (tuple, list)) else [inputs]
    primals = [_primal(x) for x in items]
    effects = Effects()

    def pure(*values: Any) -> Any:
        out, _ = run_functional([], [], effects, fn, *values)
        return out

    out, linear = jax.linearize(pure, *primals)

    def jvp_fn(v: Any) -> Any:
        """The Jacobian-vector product of ``fn`` at the linearisation point with tangents ``v``."""
        if not isinstance(v, (Tensor, jax.Array, np.ndarray, tuple, list)):
            raise TypeError(f"For 'linearize', the tangents must be a Tensor, or a tuple or list of Tensors, but "
                            f"got {type(v).__name__}")
        _check_tensors(v, "v", api)
        tangents = list(v) if isinstance(v, (tuple, list)) else [v]
        if len(tangents) != len(primals):
            raise ValueError(f"For 'linearize', the tangents must be {len(primals)}, one per input, but got "
                             f"{len(tangents)}")
        return linear(*[jax.tree_util.tree_map(lambda t, p: jnp.asarray(t, jnp.asarray(p).dtype), _primal(t), p)
                        for t, p in zip(tangents, primals)])

    return out, jvp_fn
