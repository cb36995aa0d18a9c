"""The few calls that go up MindJAX's layers, in one typed registry.

The layers import downwards only: ``common -> ops -> cells -> transforms ->
parallel -> train``. A few calls must go the other way: a Cell called in GRAPH
mode is compiled by ``transforms``; ``Cell.shard`` and a Primitive's
``shard`` strategy are carried out by ``parallel``; a training step lays its
batch out and reduces its gradients the way the parallel mode says. Each such
call is one typed slot of :data:`UPCALLS`. The layer that implements it fills
the slot once, at import (``import mindjax`` imports every layer); the lower
layer calls through the slot. A slot that must be filled and is not raises an
error naming it.

Example:
    >>> from mindjax.common.upcalls import UPCALLS
    >>> callable(UPCALLS.compiled_cell_call)   # filled by mindjax.transforms.jit
    True
"""
from __future__ import annotations

from typing import Any, Callable

__all__ = ["Upcalls", "UPCALLS", "register_upcall", "NOT_PER_DEVICE", "NOT_PLANNED"]

CellCall = Callable[[Any, tuple, dict], Any]


class Upcalls:
    """The slots, each ``None`` until the layer that implements it registers.

    Attributes:
        compiled_cell_call: ``(cell, args, kwargs) -> output``: run a Cell as
            one compiled program (GRAPH mode); from ``mindjax.transforms.jit``.
        builtin_cell_call: ``(cell, args, kwargs) -> output``: run a built-in
            Cell (no user code in its tree) as one compiled program in PYNATIVE
            mode; from ``mindjax.transforms.jit``.
        backward_rules: ``(cell, args, kwargs) -> output``: run a construct
            under its ``bprop``, backward hooks or recompute; from
            ``mindjax.transforms.custom_grad``.
        converted_construct: ``(cell, args, kwargs) -> output``: run a
            construct with its Python control flow converted when a graph is
            being built; from ``mindjax.transforms.control_flow``. When empty,
            ``construct`` is called as written.
        shard_cell: ``(cell, in_strategy, out_strategy, parameter_plan) -> None``:
            carry out ``Cell.shard``; from ``mindjax.parallel.shard``.
        primitive_strategy: ``(primitive, call, args, kwargs) -> output``: run a
            Primitive under its ``shard`` strategy; from ``mindjax.parallel.shard``.
        batch_layout: ``(inputs) -> inputs``: lay a training batch out over the
            devices of the parallel mode; from ``mindjax.parallel.data_parallel``.
        grad_reduction: ``(grads) -> grads``: the parallel mode's gradient
            reduction of a training step; from ``mindjax.parallel.data_parallel``.
        per_device_call: ``(cell, args, kwargs) -> output or NOT_PER_DEVICE``:
            run a Cell holding collectives once per device (DATA_PARALLEL,
            HYBRID_PARALLEL); from ``mindjax.parallel.per_device``.
        per_device_runner: ``(fn, args, who) -> output or None``: run a
            collective called outside a per-device run per device, None when
            it is the identity; from ``mindjax.parallel.per_device``.
        cell_scope: ``(cell, path) -> context manager``: the scope a Cell's call
            runs in instead of ``jax.named_scope(path)``; filled by
            ``mindjax.profiler`` while it records, empty otherwise.
        state_layout: ``(program, variables, owner) -> layout or None``: how a
            compiled program's state travels when pipeline stages hold their own
            Variables; from ``mindjax.parallel.stage_state``.
        parallel_plan: ``(caller, discover) -> call plan or None``: the parallel
            context's plan for a compiled program (GRAPH-mode Cell, ``ms.jit``
            function, ``Model``'s step) and one input signature, asked once per
            signature, outside any trace. ``discover()`` traces the program
            abstractly; the parallel layer watches the Cells it calls (through
            ``planned_cell_call``), searches and lays out their plans, and returns
            an object with ``scope()`` (the context the real trace runs in) and
            ``pin(variables, new_values)`` (the written state, kept in its
            layout); None when the mode plans nothing. From
            ``mindjax.parallel.compiled_calls``.
        eager_parallel_call: ``(cell, args, kwargs) -> None``: told of the outermost Cell
            called eagerly (PYNATIVE_MODE) under a parallel mode; warns once per mode when the
            mode cannot apply to such a call, naming why; from ``mindjax.parallel.compiled_calls``.
        reshard: ``(tensor, layout) -> tensor``: lay a Tensor out as a ``Layout`` says
            (``ops.reshard``); from ``mindjax.parallel.shard``.
        planned_cell_call: ``(cell, args, kwargs) -> output or NOT_PLANNED``: a
            Cell called inside a compiled program being planned or run under its
            plan; filled by ``mindjax.parallel.compiled_calls`` only while such a
            trace runs, empty otherwise.
    """

    __slots__ = ("compiled_cell_call", "builtin_cell_call", "backward_rules", "converted_construct", "shard_cell",
                 "primitive_strategy", "batch_layout", "grad_reduction", "cell_scope",
                 "state_layout", "per_device_call", "per_device_runner", "parallel_plan",
                 "eager_parallel_call", "planned_cell_call", "reshard")

    compiled_cell_call: CellCall | None
    builtin_cell_call: CellCall | None
    backward_rules: CellCall | None
    converted_construct: CellCall | None
    shard_cell: Callable[[Any, Any, Any, Any], None] | None
    primitive_strategy: Callable[[Any, Callable[..., Any], tuple, dict], Any] | None
    batch_layout: Callable[[tuple], tuple] | None
    grad_reduction: Callable[[tuple], tuple] | None
    cell_scope: Callable[[Any, str], Any] | None
    state_layout: Callable[[Any, Any, Any], Any] | None
    per_device_call: CellCall | None
    per_device_runner: Callable[[Callable[..., Any], tuple, str], Any] | None
    parallel_plan: Callable[[Any, Callable[[], Any]], Any] | None
    eager_parallel_call: CellCall | None
    planned_cell_call: CellCall | None
    reshard: Callable[[Any, Any], Any] | None

    def __init__(self) -> None:
        for name in self.__slots__:
            object.__setattr__(self, name, None)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"Upcalls slots are filled with register_upcall({name!r}, fn), not assigned")

    def require(self, name: str) -> Callable[..., Any]:
        """The function in slot ``name``; raises ``RuntimeError`` when no layer registered it."""
        fn = getattr(self, name)
        if fn is None:
            raise RuntimeError(f"MindJAX's '{name}' is not registered: import mindjax (not only one "
                               f"of its sub-packages) before using it")
        return fn


UPCALLS = Upcalls()

#: What ``per_device_call`` returns when the call is not run per device.
NOT_PER_DEVICE = object()

#: What ``planned_cell_call`` returns when the Cell runs as written.
NOT_PLANNED = object()


def register_upcall(name: str, fn: Callable[..., Any] | None) -> None:
    """Fill slot ``name`` of :data:`UPCALLS` with ``fn`` (done once, by the implementing layer).

    ``None`` empties the slot again (the profiler's ``cell_scope`` when it stops).

    Raises:
        KeyError: ``name`` is not a slot.
        TypeError: ``fn`` is not callable.
    """
    if name not in Upcalls.__slots__:
        raise KeyError(f"register_upcall: no slot named {name!r}; the slots are {', '.join(Upcalls.__slots__)}")
    if fn is not None and not callable(fn):
        raise TypeError(f"register_upcall: slot {name!r} takes a callable, got {type(fn).__name__}")
    object.__setattr__(UPCALLS, name, fn)
