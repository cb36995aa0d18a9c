"""Per-device runs: a Cell holding collectives runs its ``construct`` once per device, as MindSpore's ranks do.

In ``DATA_PARALLEL`` and ``HYBRID_PARALLEL`` MindSpore runs the user's graph
on every rank, on that rank's slice of the batch, and the collectives in it
(``ops.AllReduce`` ...) combine the ranks. MindJAX's other programs are one
global-view program that GSPMD partitions; a global view has no ranks, so a
Cell whose tree holds a collective Primitive is instead called through
``jax.shard_map`` over every mesh axis:

- each array input with a first dimension is split along it over the
  devices (that dimension must divide by the device count); scalars and
  Python values reach every device whole;
- Parameters and other state reach every device whole; what the call writes
  to them (optimizer updates, BatchNorm statistics) is kept per device, as
  each MindSpore rank keeps its own;
- array outputs are joined along their first dimension in rank order;
  floating scalars (a loss) are averaged over the devices, other scalars are
  rank 0's.

Inside, a rank is a device (see :mod:`mindjax.communication.per_device`);
the gradients of the collectives are MindSpore's. The outermost such Cell
runs per device and the Cells it calls run inside the same run, except that
the built-in training wrappers (``TrainOneStepCell``,
``TrainOneStepWithLossScaleCell``) stay global: their network runs per
device, and the gradient of the devices' mean loss is MindSpore's
data-parallel mean of the ranks' gradients (the sum without
``gradients_mean``, as :class:`DistributedGradReducer` gives it). A
training Cell with its own ``construct`` runs per device as a whole, and its
``DistributedGradReducer`` all-reduces the per-device gradients, as in
MindSpore. :func:`per_device` runs a plain function the same way.

Example:
    >>> import mindjax as ms
    >>> ms.set_auto_parallel_context(parallel_mode="data_parallel")     # doctest: +SKIP
    >>> class Net(ms.nn.Cell):                                        # doctest: +SKIP
    ...     def __init__(self):
    ...         super().__init__()
    ...         self.all_reduce = ms.ops.AllReduce()
    ...     def construct(self, x):
    ...         return self.all_reduce(x)
    >>> Net()(ms.Tensor(np.ones((8, 2), np.float32)))                 # doctest: +SKIP
    8 rows of [8., 8.]: each device's row summed over the 8 devices
"""
from __future__ import annotations

import functools
import weakref
from typing import Any, Callable, Sequence

import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import PartitionSpec

from mindjax import context
from mindjax.common.upcalls import NOT_PER_DEVICE, register_upcall
from mindjax.cells.state import collect_variables, structure_version
from mindjax.common.random import RNG_STATE
from mindjax.common.variable import Variable
from mindjax.communication import per_device as _frames
from mindjax.ops.operations.comm_ops import _Collective
from mindjax.parallel import mesh as _mesh
from mindjax.transforms.jit import run_growing_state, run_over_state

__all__ = ["per_device", "per_device_active", "holds_collectives", "run_per_device", "in_per_device_run"]

_PER_DEVICE_MODES = ("data_parallel", "hybrid_parallel")


def in_per_device_run() -> bool:
    """Whether a per-device run is open (code runs once per device, a rank is a device)."""
    return _frames.current_frame() is not None


def per_device_active() -> bool:
    """Whether a call made now would start a per-device run: DATA_PARALLEL or HYBRID_PARALLEL on
    more than one device, and no run open yet."""
    return (context._PARALLEL["parallel_mode"] in _PER_DEVICE_MODES and _frames.current_frame() is None
            and _mesh.get_device_num() > 1)


def holds_collectives(cell: Any) -> bool:
    """Whether ``cell``'s tree holds a collective Primitive (``ops.AllReduce`` ...) as an attribute."""
    cache = _HOLDS.get(cell)
    version = structure_version()
    if cache is not None and cache[0] == version:
        return cache[1]
    found = any(_is_collective(v) for _, c in cell.cells_and_names() for v in vars(c).values())
    _HOLDS[cell] = (version, found)
    return found


# Per Cell (held weakly): (structure version, whether its tree holds a collective).
_HOLDS: "weakref.WeakKeyDictionary[Any, tuple[int, bool]]" = weakref.WeakKeyDictionary()


def _is_collective(value: Any) -> bool:
    if isinstance(value, _Collective):
        return True
    return isinstance(value, (list, tuple)) and any(isinstance(v, _Collective) for v in value)


def _frame_axes() -> tuple[Any, tuple[str, ...], tuple[int, ...]]:
    mesh = _mesh.get_mesh()
    names = tuple(a for a in mesh.axis_names if mesh.shape[a] > 1)
    return mesh, names, tuple(int(mesh.shape[a]) for a in names)


def _is_array(x: Any) -> bool:
    return isinstance(x, (jax.Array, np.ndarray, np.generic)) and not isinstance(x, Variable)


def run_per_device(fn: Callable[..., Any], args: Sequence[Any], kwargs: dict[str, Any] | None = None,
                   variables: Sequence[Variable] = (), who: str = "per_device") -> Any:
    """Run ``fn(*args, **kwargs)`` once per device of the mesh (see the module docstring for the layout).

    Arguments:
        fn: the function (a Cell's call).
        args, kwargs: its inputs; arrays with a first dimension are split along it.
        variables: state it is known to touch (more is found while tracing).
        who: the caller, for errors.

    Returns:
        the outputs: arrays joined along their first dimension, floating scalars averaged.

    Raises:
        ValueError: an input's first dimension does not divide by the device count.
    """
    mesh, names, sizes = _frame_axes()
    n = int(np.prod(sizes))
    kwargs = dict(kwargs or {})
    leaves, treedef = jax.tree_util.tree_flatten((tuple(args), kwargs), is_leaf=lambda x: isinstance(x, Variable))
    dynamic = [i for i, leaf in enumerate(leaves) if _is_array(leaf)]
    in_specs = []
    for count, i in enumerate(dynamic):
        shape = np.shape(leaves[i])
        if len(shape) and shape[0] % n:
            raise ValueError(f"For '{who}', running per device on {n} devices splits each input along its first "
                             f"dimension, which must be divisible by {n}; input {count} has shape {tuple(shape)}")
        in_specs.append(PartitionSpec(names) if len(shape) else PartitionSpec())
    state = list(variables) + ([RNG_STATE] if all(v is not RNG_STATE for v in variables) else [])
    known = {id(v) for v in state}
    record: dict[str, Any] = {}

    def attempt() -> Any:
        record.clear()
        return _run_traced(fn, leaves, treedef, dynamic, in_specs, state, known, mesh, names, sizes, record)

    out = run_growing_state(attempt, state, known, f"For '{who}'")
    outs, new_state = out
    for i, value in zip(record["written"], new_state):
        state[i]._value = value  # through the setter: an enclosing trace sees the write
    joined = []
    it = iter(outs)
    for static, scalar in zip(record["statics"], record["scalars"]):
        if static is not _ARRAY:
            joined.append(static)
            continue
        value = next(it)
        if scalar:
            value = value.mean().astype(value.dtype) if jnp.issubdtype(value.dtype, jnp.inexact) else value[0]
        joined.append(value)
    return jax.tree_util.tree_unflatten(record["tree"], joined)


class _ArrayMark:
    def __repr__(self) -> str:
        return "<array>"


_ARRAY = _ArrayMark()


def _run_traced(fn: Callable[..., Any], leaves: list[Any], treedef: Any, dynamic: list[int],
                in_specs: list[PartitionSpec], state: list[Variable], known: set[int], mesh: Any,
                names: tuple[str, ...], sizes: tuple[int, ...], record: dict[str, Any]) -> Any:
    values = [v._value for v in state]  # reads the enclosing trace sees

    def body(vals: list[Any], dyn: list[Any]) -> tuple[list[Any], list[Any]]:
        full = list(leaves)
        for i, value in zip(dynamic, dyn):
            full[i] = value
        call_args, call_kwargs = jax.tree_util.tree_unflatten(treedef, full)
        with _frames.device_frame(names, sizes):
            out, new_vals = run_over_state(state, vals, known, lambda: fn(*call_args, **call_kwargs))
        written = [i for i, (a, b) in enumerate(zip(vals, new_vals)) if a is not b]
        out_leaves, out_tree = jax.tree_util.tree_flatten(out)
        arrays = [isinstance(o, jax.Array) for o in out_leaves]
        record.update(tree=out_tree, written=written,
                      statics=[_ARRAY if a else o for a, o in zip(arrays, out_leaves)],
                      scalars=[a and o.ndim == 0 for a, o in zip(arrays, out_leaves)])
        outs = [o.reshape(1) if o.ndim == 0 else o for a, o in zip(arrays, out_leaves) if a]
        return outs, [new_vals[i] for i in written]

    mapped = jax.shard_map(body, mesh=mesh, in_specs=(PartitionSpec(), in_specs),
                           out_specs=(PartitionSpec(names), PartitionSpec()), check_vma=False)
    return mapped(values, [leaves[i] for i in dynamic])


def _builtin_training_wrapper(cell: Any) -> bool:
    from mindjax.cells.wrap.cell_wrapper import TrainOneStepCell
    from mindjax.cells.wrap.loss_scale import TrainOneStepWithLossScaleCell

    construct = type(cell).construct
    return isinstance(cell, TrainOneStepCell) and construct in (TrainOneStepCell.construct,
                                                                TrainOneStepWithLossScaleCell.construct)


def _call_cell_per_device(cell: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    """Cell._call_impl's hook: the outermost call of a Cell holding collectives runs per device."""
    if context._PARALLEL["parallel_mode"] not in _PER_DEVICE_MODES or _frames.current_frame() is not None:
        return NOT_PER_DEVICE
    if not holds_collectives(cell) or _mesh.get_device_num() <= 1 or _builtin_training_wrapper(cell):
        return NOT_PER_DEVICE
    return run_per_device(lambda *a, **k: cell(*a, **k), args, kwargs, collect_variables(cell),
                          type(cell).__name__)


def _run_collective_per_device(fn: Callable[..., Any], args: tuple[Any, ...], who: str) -> Any:
    """The collectives' runner outside a per-device run: per device in DATA_PARALLEL/HYBRID_PARALLEL."""
    mode = context._PARALLEL["parallel_mode"]
    if mode == "stand_alone" or _mesh.get_device_num() <= 1:
        return None
    if mode not in _PER_DEVICE_MODES:
        raise ValueError(f"For '{who}', a collective runs per device, which {mode} does not do (its program is "
                         f"the global view, partitioned by the strategies): use DATA_PARALLEL or HYBRID_PARALLEL, "
                         f"or express the computation with Primitive.shard strategies")
    return run_per_device(fn, args, {}, (), who)


def per_device(fn: Callable[..., Any]) -> Callable[..., Any]:
    """``fn`` run once per device of the mesh, whatever the parallel mode (see the module docstring).

    Arguments:
        fn: a function of arrays/Tensors; collectives inside combine the devices.

    Returns:
        the wrapped function; a call inside a per-device run calls ``fn`` directly.

    Example:
        >>> @per_device                                              # doctest: +SKIP
        ... def global_sum(x):
        ...     return ms.ops.AllReduce()(x.sum())
    """
    if not callable(fn):
        raise TypeError(f"For 'per_device', 'fn' must be callable, got {type(fn).__name__}")

    @functools.wraps(fn)
    def run(*args: Any, **kwargs: Any) -> Any:
        if _frames.current_frame() is not None or _mesh.get_device_num() <= 1:
            return fn(*args, **kwargs)
        return run_per_device(fn, args, kwargs, (), getattr(fn, "__qualname__", "per_device"))

    return run


register_upcall("per_device_call", _call_cell_per_device)
register_upcall("per_device_runner", _run_collective_per_device)
