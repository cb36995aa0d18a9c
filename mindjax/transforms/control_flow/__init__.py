"""GRAPH-mode Python control flow by source transformation.

In GRAPH mode (and under ``@ms.jit``) a Cell's ``construct`` and the functions
it calls are rewritten once, AST to AST, and cached: ``if``/``elif``/``else``,
``while``, ``for``, ``break``, ``continue``, early ``return``, ``and``/``or``/
``not`` and ``x if c else y`` become calls to runtime helpers. At trace time a
helper looks at its condition: a Python value (or an array whose value is
known) keeps plain Python semantics, so ``if self.training:`` and ``for i in
range(3)`` behave as in PYNATIVE; a traced value becomes ``lax.cond``, a lax
loop or ``lax.scan``, as MindSpore's parser does for its graph mode.

What each construct compiles to:

- ``if`` on a tensor: ``lax.cond``. The variables the branches assign are its
  outputs; Parameters (and the random key) written in a branch are outputs too
  and are written back to the Parameter afterwards. A variable defined in one
  branch only, or with different shapes, is an undefined marker afterwards:
  using it raises a ``ValueError`` naming it and the line of the ``if``.
- ``while`` on a tensor: a loop whose carry is every variable the body assigns
  (numbers that change become arrays, types must settle after one round).
  Reverse-mode gradients are not defined for ``lax.while_loop``, so a loop
  that carries floating values runs as Equinox's checkpointed while loop
  (``equinox.internal.while_loop(kind="checkpointed")``: online treeverse,
  ``CHECKPOINTS`` saved states, recomputation in the backward pass). It
  computes the same forward values as a plain ``lax.while_loop`` and gives
  ``jax.grad`` and ``ms.grad`` exact gradients with memory bounded by the
  checkpoints, without needing a trip-count bound. Integer-only loops use
  ``lax.while_loop``.
- ``for i in range(n)`` with a Python ``n``: unrolled in Python (MindSpore
  unrolls too) up to ``UNROLL_MAX`` iterations; a longer loop whose body has no
  Python side effects becomes one ``lax.scan``, falling back to unrolling when
  the body needs ``i`` as a Python int (``self.layers[i]``). ``range`` with a
  tensor bound becomes a differentiable while loop as above.
- ``for`` over tuples, lists, ``CellList``/``SequentialCell`` and dicts:
  unrolled. Over a tensor: its first axis, unrolled or scanned as above.
- A Python list or tuple indexed by a tensor known only at run time: its items
  must be tensors of one shape (stacked and indexed in the program). Otherwise
  the result's structure depends on the value (MindSpore interprets such a
  statement at run time): :class:`ValueDependentStructureError`, and the
  compiled function traces again with its small integer/bool Tensor inputs as
  constants, one program per value of them (see ``mindjax.transforms.jit``).
- ``break``/``continue``/``return`` inside control flow: flags that guard the
  rest of the block; a tensor flag is a ``lax.cond`` guard and a loop
  condition.
- Calls to user functions and methods (module not a library) are converted
  too, so helpers, sub-Cells and recursion whose depth is fixed at trace time
  work.

Other statements inside converted code:

- ``raise`` under Python conditions raises as written. Reached while tracing a
  branch or loop body whose condition is a tensor, it raises
  :class:`ControlFlowTraceError` at trace time, naming its line and the line of
  the tensor condition, with the original exception as ``__cause__``. GRAPH
  mode traces both branches whatever the data and an XLA program cannot raise a
  Python exception, so this is where we differ from MindSpore, which raises at
  run time: test a Python value (a shape, an attribute) or keep the result
  defined with ``ops.select``/``jnp.where``.
- ``assert`` on Python values checks as written; on a tensor value it is
  skipped (as ``python -O`` skips assertions) with a ``RuntimeWarning``
  naming the line.
- ``print`` is staged with ``jax.debug.callback``: it prints tensor values on
  every call, and under a tensor condition only when its branch runs.
- ``obj.attr = v``, ``container[k] = v`` and in-place list/dict methods
  (``.append`` ...) under a tensor condition are undone after tracing each
  branch and redone after the ``lax.cond`` with the joined value, as
  Parameters are; ``x[k] = v`` on a local tensor is a
  functional ``x.at[k].set(v)``. Attribute or container writes in a loop whose
  trip count is a tensor, and ``del obj.attr``/``del container[k]`` under a
  tensor condition, raise :class:`ControlFlowTraceError` naming the line.
- ``del name`` leaves the name undefined; ``pass``, nested ``def``, walrus
  assignment and ``elif`` chains that mix Python and tensor conditions follow
  from the rules above.

Unsupported syntax (``try``, ``with``, ``yield``, ``global``, ``nonlocal``,
``match``, ``async``, loop ``else``, a lambda kept past its iteration that
captures a loop variable) raises :class:`ControlFlowSyntaxError` at conversion
with the file, line, the construct and what to write instead. Boolean-mask
indexing ``x[mask]`` with a traced mask raises at trace time with the line.

Example:
    >>> import mindjax as ms
    >>> @ms.jit
    ... def relu_or_double(x):
    ...     if x.sum() > 0:
    ...         return x * 2
    ...     return x * 0
    >>> float(relu_or_double(ms.Tensor(1.5)))
    3.0
"""
from __future__ import annotations

import types
import weakref
from typing import Any, Callable

from mindjax import context
from mindjax.common.upcalls import register_upcall
from mindjax.transforms.control_flow import _runtime
from mindjax.transforms.control_flow._converter import convert as _convert
from mindjax.transforms.control_flow._converter import convert_or_fallback
from mindjax.transforms.control_flow._errors import ControlFlowSyntaxError, ControlFlowTraceError, Undefined
from mindjax.transforms.control_flow._errors import ValueDependentStructureError
from mindjax.transforms.control_flow._lax import CHECKPOINTS

__all__ = ["ControlFlowSyntaxError", "ControlFlowTraceError", "ValueDependentStructureError", "convert_function",
           "converted_construct", "graph_active"]

UNROLL_MAX = _runtime.UNROLL_MAX
_LIBRARY_ROOT = "mindjax"


def convert_function(fn: Callable[..., Any]) -> Callable[..., Any]:
    """The GRAPH-mode version of ``fn``: its control flow converted (cached per function).

    Arguments:
        fn: a Python function. Functions without available source (built-ins,
            ``exec``'d code, lambdas) and MindJAX's own functions are returned
            unchanged.

    Returns:
        the converted function, or ``fn``.

    Raises:
        ControlFlowSyntaxError: ``fn`` uses syntax GRAPH mode cannot compile.
    """
    if not isinstance(fn, types.FunctionType) or getattr(fn, "__mj_converted__", False):
        return fn
    if fn.__name__ == "<lambda>" or (fn.__module__ or "").split(".")[0] == _LIBRARY_ROOT:
        return fn
    try:
        return _convert(fn)
    except (OSError, TypeError):   # no source: run it as written
        return fn


_BY_CLASS: "weakref.WeakKeyDictionary[type, Callable[..., Any]]" = weakref.WeakKeyDictionary()


def converted_construct(cell: Any) -> Callable[..., Any]:
    """``cell.construct`` as GRAPH mode runs it (bound; control flow converted).

    Arguments:
        cell: a Cell.

    Returns:
        a callable taking construct's inputs.
    """
    if "construct" in cell.__dict__:
        return cell.__dict__["construct"]
    cls = type(cell)
    fn = _BY_CLASS.get(cls)
    if fn is None:
        raw = getattr(cls, "construct")
        raw = getattr(raw, "__wrapped__", raw)  # a built-in construct's Tensor boundary (Cell.__init_subclass__)
        fn = convert_function(raw) if isinstance(raw, types.FunctionType) else raw
        _BY_CLASS[cls] = fn
    if isinstance(fn, types.FunctionType):
        return types.MethodType(fn, cell)
    return cell.construct


def graph_active() -> bool:
    """True when construct calls run converted code: inside a compiled call or in GRAPH mode."""
    return context.in_compiled() or context._MODE[0] == context.GRAPH_MODE


def _construct_hook(cell: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    if graph_active():
        return converted_construct(cell)(*args, **kwargs)
    return cell.construct(*args, **kwargs)


register_upcall("converted_construct", _construct_hook)

# Names the runtime and tests reach through the package.
_ = (convert_or_fallback, Undefined, CHECKPOINTS)
