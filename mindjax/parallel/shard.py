"""Applying strategies: ``Primitive.shard``, ``Cell.shard`` and ``ms.shard``.

Strategies take effect in ``SEMI_AUTO_PARALLEL`` and ``AUTO_PARALLEL`` (in
the other modes they are recorded and ignored, as in MindSpore). An
operator's strategy becomes ``with_sharding_constraint`` on its inputs (and
outputs when ``out_strategy`` is given); a ``parameter_plan`` places the
Parameter itself with a ``NamedSharding``, so the compiled program receives it
sharded. GSPMD propagates the rest and inserts the collectives.

Example:
    >>> import mindjax as ms
    >>> from mindjax import ops
    >>> ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.SEMI_AUTO_PARALLEL)
    >>> matmul = ops.MatMul().shard(((2, 1), (1, 4)))       # doctest: +SKIP
"""
from __future__ import annotations

import contextlib
import warnings
from typing import Any, Callable, Iterator, Sequence

import jax
import jax.numpy as jnp
from jax.sharding import NamedSharding, PartitionSpec

from mindjax import context
from mindjax.cells.cell import Cell
from mindjax.cells.parameter import Parameter
from mindjax.common.upcalls import register_upcall
from mindjax.parallel import mesh as _mesh
from mindjax.parallel.layout import Layout
from mindjax.parallel.strategy import format_where, input_specs, tensor_spec

__all__ = ["shard", "shard_cell", "strategies_active", "current_cell_path", "place", "recording_strategies",
           "reshard"]

_ACTIVE_MODES = ("semi_auto_parallel", "auto_parallel")


def strategies_active() -> bool:
    """Whether the parallel mode applies user strategies (semi-auto or auto parallel)."""
    return context._PARALLEL["parallel_mode"] in _ACTIVE_MODES


def current_cell_path() -> str | None:
    """The path of the innermost Cell running now (its ``jax.named_scope``), or None."""
    from jax._src import source_info_util  # the name stack is the only record of the Cell scope

    scopes = [getattr(e, "name", None) for e in source_info_util.current_name_stack().stack
              if type(e).__name__ == "Scope"]
    return scopes[-1] if scopes else None


def place(value: Any, sharding: NamedSharding) -> jax.Array:
    """``value`` as a global array with ``sharding`` (each process holds the full value).

    Works across processes: the shards each process owns are cut from its
    local copy, which must be the same on every process.
    """
    if isinstance(value, jax.Array) and value.sharding == sharding:
        return value
    if jax.process_count() == 1:
        return jax.device_put(value, sharding)
    host = jax.device_get(value) if isinstance(value, jax.Array) else value
    import numpy as np

    host = np.asarray(host)
    return jax.make_array_from_callback(host.shape, sharding, lambda index: host[index])


# Open while a compiled program is traced abstractly for its plan: each list gets one row per
# strategy applied (see recording_strategies).
_RECORDERS: list[list[dict[str, Any]]] = []


@contextlib.contextmanager
def recording_strategies() -> Iterator[list[dict[str, Any]]]:
    """Collect the strategies (``Primitive.shard``, ``Cell.shard``) applied while the block runs.

    Yields:
        a list that gets one row per application: ``{"op": the Cell path and the op or Cell,
        "strategy": the user's in_strategy, "inputs": the PartitionSpecs (text) given to the
        inputs, "output": the out_strategy's specs or None}``.
    """
    rows: list[dict[str, Any]] = []
    _RECORDERS.append(rows)
    try:
        yield rows
    finally:
        _RECORDERS.remove(rows)


def _record(who: str, path: str | None, strategy: Any, specs: Sequence[Any], out_specs: Any = None) -> None:
    if not _RECORDERS:
        return
    row = {"op": f"{path}/{who}" if path and path != who else who, "strategy": strategy,
           "inputs": tuple(str(s) for s in specs),
           "output": None if out_specs is None else tuple(str(s) for s in out_specs)}
    for rows in _RECORDERS:
        rows.append(row)


def _constrain(x: Any, spec: PartitionSpec) -> jax.Array:
    return jax.lax.with_sharding_constraint(jnp.asarray(x), _mesh.named_sharding(spec))


def _apply_primitive_strategy(prim: Any, call: Callable[..., Any], args: tuple[Any, ...],
                              kwargs: dict[str, Any]) -> Any:
    """The strategy hook of every Primitive call (installed into ``mindjax.ops``)."""
    if not strategies_active():
        return call(prim, *args, **kwargs)
    path = current_cell_path()
    kind = type(prim).__name__
    specs: list[Any] = []
    if prim.in_strategy is not None:
        count = len(prim.in_strategy)
        arrays = [jnp.asarray(a) for a in args[:count]]
        specs = input_specs(prim.name, path, prim.in_strategy, [a.shape for a in arrays], prim.attrs,
                            kind=kind)
        args = tuple(_constrain(a, s) for a, s in zip(arrays, specs)) + tuple(args[count:])
    out = call(prim, *args, **kwargs)
    out_specs = None
    if prim.out_strategy is not None:
        out, out_specs = _constrain_outputs(prim.name, path, prim.out_strategy, out)
    if prim.in_strategy is not None or out_specs is not None:
        _record(prim.name, path, prim.in_strategy, specs, out_specs)
    return out


def _constrain_outputs(who: str, path: str | None, strategy: Sequence[Any], out: Any) -> tuple[Any, list[Any]]:
    single = not isinstance(out, (tuple, list))
    outs = [out] if single else list(out)
    arrays = [jnp.asarray(o) for o in outs[:len(strategy)]]
    specs = input_specs(who, path, strategy, [a.shape for a in arrays], {}, arg="out_strategy")
    done = [_constrain(a, s) for a, s in zip(arrays, specs)] + outs[len(strategy):]
    return (done[0] if single else type(out)(done)), specs


register_upcall("primitive_strategy", _apply_primitive_strategy)


# -- Cell.shard and ms.shard ---------------------------------------------------------------------

def _check_strategy_arg(who: str, arg: str, strategy: Any, allow_none: bool) -> tuple[Any, ...] | None:
    if strategy is None and allow_none:
        return None
    if not isinstance(strategy, tuple):
        raise TypeError(f"For '{who}', '{arg}' must be a tuple of tuples of ints or of Layouts, "
                        f"got {type(strategy).__name__}")
    kinds = set()
    for item in strategy:
        if item is None:
            kinds.add("none")
        elif isinstance(item, Layout):
            kinds.add("layout")
        elif isinstance(item, tuple) and all(isinstance(v, int) and not isinstance(v, bool) and v > 0
                                             for v in item):
            kinds.add("tuple")
        else:
            raise TypeError(f"For '{who}', each element of '{arg}' must be a tuple of positive ints, a "
                            f"Layout or None, got {item!r}")
    if len(kinds - {"none"}) > 1:
        raise TypeError(f"For '{who}', '{arg}' must not mix tuple strategies and Layouts: {strategy!r}")
    return strategy


def _io_specs(who: str, path: str | None, arg: str, strategy: tuple[Any, ...],
              values: Sequence[Any]) -> list[PartitionSpec | None]:
    """Specs for the leading ``len(strategy)`` values; None entries mean data parallel."""
    if len(values) < len(strategy):
        raise ValueError(f"{format_where(who, path)}, '{arg}' describes {len(strategy)} tensor(s) but "
                         f"got {len(values)}")
    specs: list[PartitionSpec | None] = []
    for item, value in zip(strategy, values):
        shape = tuple(jnp.shape(value))
        if item is None:
            item = (_mesh.get_device_num(),) + (1,) * (len(shape) - 1) if shape else ()
        specs.append(tensor_spec(who, path, arg, (item,), [shape], 0)
                     if not isinstance(item, Layout) else
                     input_specs(who, path, (item,), [shape], {}, arg=arg)[0])
    return specs


def _shard_inputs(who: str, path: str | None, strategy: tuple[Any, ...] | None,
                  args: tuple[Any, ...]) -> tuple[Any, ...]:
    if strategy is None or not strategies_active():
        return args
    specs = _io_specs(who, path, "in_strategy", strategy, args)
    _record(who, path, strategy, specs)
    return tuple(_constrain(a, s) for a, s in zip(args, specs)) + tuple(args[len(specs):])


def _shard_outputs(who: str, path: str | None, strategy: tuple[Any, ...] | None, out: Any) -> Any:
    if strategy is None or not strategies_active():
        return out
    single = not isinstance(out, (tuple, list))
    outs = [out] if single else list(out)
    specs = _io_specs(who, path, "out_strategy", strategy, outs)
    _record(who, path, None, (), specs)
    done = [_constrain(o, s) for o, s in zip(outs, specs)] + outs[len(specs):]
    return done[0] if single else type(out)(done)


def _find_parameter(cell: Cell, name: str) -> Parameter | None:
    name = name[len("self."):] if name.startswith("self.") else name
    for param in cell.get_parameters():
        if param.name == name:
            return param
    for path, param in cell.parameters_and_names():
        if path == name:
            return param
    return None


def _apply_parameter_plan(cell: Cell, plan: dict[str, Any]) -> None:
    who = f"{cell.cls_name}.shard"
    if not isinstance(plan, dict):
        raise TypeError(f"For '{who}', 'parameter_plan' must be a dict or None, got {type(plan).__name__}")
    for name, strategy in plan.items():
        if not isinstance(name, str) or not isinstance(strategy, (tuple, Layout)):
            raise TypeError(f"For '{who}', each item of 'parameter_plan' must be str: tuple/Layout, got "
                            f"{name!r}: {strategy!r}")
        param = _find_parameter(cell, name)
        if param is None:
            warnings.warn(f"For '{who}', parameter '{name}' of 'parameter_plan' does not exist; ignored",
                          stacklevel=3)
            continue
        spec = tensor_spec(f"Parameter '{param.name}'", cell._cell_path or cell.cls_name, "parameter_plan",
                           (strategy,), [tuple(param._value.shape)], 0)
        sharding = _mesh.named_sharding(spec)
        param.sharding = sharding
        if strategies_active():
            param.set_data(place(param._value, sharding))


def shard_cell(cell: Cell, in_strategy: Any, out_strategy: Any = None, parameter_plan: Any = None) -> None:
    """``Cell.shard``: constrain the Cell's inputs, outputs and Parameters.

    Arguments:
        cell: the Cell.
        in_strategy: one tuple of split counts, Layout or None (data parallel)
            per input, e.g. ``((2, 1),)``.
        out_strategy: the same per output, or None.
        parameter_plan: ``{parameter name: strategy}``; names may start with
            ``self.`` as in MindSpore.

    Raises:
        TypeError: malformed arguments; ValueError: a strategy that does not
            fit a Parameter (at once) or an input (at the call).
    """
    who = f"{cell.cls_name}.shard"
    in_strategy = _check_strategy_arg(who, "in_strategy", in_strategy, allow_none=False)
    out_strategy = _check_strategy_arg(who, "out_strategy", out_strategy, allow_none=True)
    if parameter_plan is not None:
        _apply_parameter_plan(cell, parameter_plan)
    old = cell.__dict__.get("_shard_plan")
    if old is not None:
        warnings.warn(f"{cell._where()}, 'shard' was configured more than once; the new strategies "
                      f"replace in_strategy {old['in_strategy']} and out_strategy {old['out_strategy']}",
                      stacklevel=3)
        for handle in old["handles"]:
            handle.remove()

    def pre_hook(target: Cell, args: tuple[Any, ...]) -> tuple[Any, ...]:
        return _shard_inputs(target.cls_name, target._cell_path or target.cls_name, in_strategy, args)

    def post_hook(target: Cell, args: tuple[Any, ...], out: Any) -> Any:
        return _shard_outputs(target.cls_name, target._cell_path or target.cls_name, out_strategy, out)

    handles = [cell.register_forward_pre_hook(pre_hook)]
    if out_strategy is not None:
        handles.append(cell.register_forward_hook(post_hook))
    cell.__dict__["_shard_plan"] = {"in_strategy": in_strategy, "out_strategy": out_strategy,
                                    "parameter_plan": parameter_plan, "handles": handles}


def shard(fn: Any, in_strategy: Any, out_strategy: Any = None, parameter_plan: Any = None,
          device: str = "Ascend", level: int = 0) -> Callable[..., Any]:
    """Run ``fn`` with its inputs and outputs laid out as given (MindSpore's ``ms.shard``).

    Arguments:
        fn: a Cell or a function of arrays.
        in_strategy: one tuple of split counts, Layout or None (data
            parallel) per input.
        out_strategy: the same per output, or None.
        parameter_plan: ``{parameter name: strategy}``; only for a Cell.
        device, level: accepted for MindSpore compatibility.

    Returns:
        the Cell itself (now sharded) or a function that applies the strategies.

    Raises:
        TypeError: malformed strategies, or a parameter plan for a function.
    """
    if isinstance(fn, Cell):
        shard_cell(fn, in_strategy, out_strategy, parameter_plan)
        return fn
    if not callable(fn):
        raise TypeError(f"For 'shard', 'fn' must be a Cell or a function, got {type(fn).__name__}")
    if parameter_plan is not None:
        raise TypeError(f"For 'shard', 'parameter_plan' needs 'fn' to be a Cell, got {type(fn).__name__}")
    in_strategy = _check_strategy_arg("shard", "in_strategy", in_strategy, allow_none=False)
    out_strategy = _check_strategy_arg("shard", "out_strategy", out_strategy, allow_none=True)
    name = getattr(fn, "__name__", "shard")

    def sharded(*args: Any) -> Any:
        with jax.named_scope(name):
            out = fn(*_shard_inputs(name, name, in_strategy, args))
            return _shard_outputs(name, name, out_strategy, out)

    sharded.__name__ = name
    sharded.__doc__ = fn.__doc__
    return sharded


register_upcall("shard_cell", shard_cell)


def reshard(tensor: Any, layout: Layout) -> Any:
    """``tensor`` laid out as ``layout`` says (MindSpore's ``ops.reshard`` / ``parallel.reshard``).

    In SEMI_AUTO_PARALLEL and AUTO_PARALLEL the value gets a ``with_sharding_constraint`` to the
    Layout's spec (GSPMD moves the data); in the other modes, as with one device in MindSpore, it is
    returned as it is.

    Arguments:
        tensor: the Tensor.
        layout: a ``Layout`` with its tensor map (``layout("dp", "None")``), one entry per dimension.

    Returns:
        the same values, in the Layout.

    Raises:
        TypeError: ``tensor`` is not a Tensor, or ``layout`` not a Layout.
        ValueError: the Layout does not fit the tensor's shape.
    """
    from mindjax.common.tensor import Tensor, unwrap, wrap

    if not isinstance(tensor, Tensor):
        raise TypeError(f"For 'reshard', 'tensor' must be a Tensor, but got {type(tensor).__name__}")
    if not isinstance(layout, Layout):
        raise TypeError(f"For 'reshard', 'layout' must be a mindspore.parallel.Layout, but got "
                        f"{type(layout).__name__}")
    if not strategies_active():
        return tensor
    spec = tensor_spec("reshard", current_cell_path(), "layout", (layout,), [tuple(tensor.shape)], 0)
    return wrap(_constrain(unwrap(tensor), spec))


register_upcall("reshard", reshard)
