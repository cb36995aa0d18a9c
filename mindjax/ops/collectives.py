"""The collectives on arrays, over a communication group (one implementation for the Primitives and functions).

Inside a per-device run (see :mod:`mindjax.communication.per_device`) each
function combines the values of the devices of the caller's copy of the
group: as one XLA collective over mesh axes when the group is a set of mesh
axes, otherwise by gathering over all devices and selecting the group.
Their gradients are MindSpore's: AllReduce(sum)'s is the all-reduce of the
output gradient, AllGather's the reduce-scatter, ReduceScatter's the
all-gather, AlltoAll's the reverse all-to-all, Broadcast's the output
gradient itself (MindSpore's bprops; the run's ``shard_map`` is unchecked, so
JAX transposes ``psum`` into ``psum``).

Outside a per-device run the job has one rank, as MindSpore with one rank:
the world group has size 1 and every collective is the identity. A call in
``DATA_PARALLEL``/``HYBRID_PARALLEL`` on several devices instead runs the
collective itself per device (each device's value is its slice of the
input's first dimension), through the parallel layer's runner.

Example:
    >>> import numpy as np
    >>> all_reduce(np.ones(3, np.float32), "sum", "hccl_world_group", "AllReduce").shape  # one rank: identity
    (3,)
"""
from __future__ import annotations

from typing import Any, Callable

import jax
import jax.numpy as jnp

from mindjax.common.upcalls import UPCALLS
from mindjax.communication import management as _comm
from mindjax.communication import per_device as _per_device

__all__ = ["REDUCE_OPS", "all_reduce", "all_gather", "reduce_scatter", "broadcast", "all_to_all",
           "check_reduce_op"]

REDUCE_OPS = ("sum", "max", "min", "prod", "avg")


def check_reduce_op(who: str, op: Any) -> str:
    """``op`` when it is one of MindSpore's ``ReduceOp`` names; raise naming ``who`` otherwise."""
    if not isinstance(op, str):
        raise TypeError(f"For '{who}', the 'op' must be str, but got {type(op).__name__}")
    if op not in REDUCE_OPS:
        raise ValueError(f"For '{who}', the 'op' must be one of {', '.join(REDUCE_OPS)}, got {op!r}")
    return op


def _layout(group: str, who: str) -> _per_device.GroupLayout | None:
    """The group's layout in the open frame; None outside one (after checking the group has one rank)."""
    ranks = _comm.group_ranks(group, who)
    frame = _per_device.current_frame()
    if frame is None:
        if len(ranks) > 1:
            raise ValueError(f"For '{who}', group {group!r} has {len(ranks)} ranks, but this call does not run "
                             f"per device; a collective over a group runs in a construct of a Cell called in "
                             f"DATA_PARALLEL or HYBRID_PARALLEL (each device is a rank)")
        return None
    return _per_device.group_layout(frame, ranks, group, who)


def _outside(fn: Callable[..., Any], args: tuple[Any, ...], who: str) -> Any:
    """Run ``fn`` per device when the parallel context asks for it; None when the call is the identity."""
    runner = UPCALLS.per_device_runner  # mindjax.parallel.per_device (parallel sits above ops)
    return None if runner is None else runner(fn, args, who)


def _members(x: jax.Array, layout: _per_device.GroupLayout) -> jax.Array:
    """``(group size, *x.shape)``: the values of the caller's group copy, in group order."""
    frame = _per_device.current_frame()
    assert frame is not None
    everyone = jax.lax.all_gather(x, frame.axis_names, axis=0, tiled=False)
    rows = jnp.asarray(layout.table, jnp.int32)[frame.rank()]
    return jnp.take(everyone, rows, axis=0)


def _my_position(layout: _per_device.GroupLayout) -> jax.Array:
    frame = _per_device.current_frame()
    assert frame is not None
    return jnp.asarray(layout.position, jnp.int32)[frame.rank()]


def _reduce_members(stack: jax.Array, op: str) -> jax.Array:
    if op == "sum":
        return stack.sum(0)
    if op == "avg":
        return stack.mean(0).astype(stack.dtype)
    if op == "max":
        return stack.max(0)
    if op == "min":
        return stack.min(0)
    return stack.prod(0)


def _sum_over(x: jax.Array, layout: _per_device.GroupLayout) -> jax.Array:
    if layout.axes is not None:
        return jax.lax.psum(x, layout.axes)
    return _members(x, layout).sum(0)


def all_reduce(x: Any, op: str, group: str, who: str) -> jax.Array:
    """Reduce ``x`` over the group with ``op``; every rank gets the result.

    Arguments:
        x: the rank's array.
        op: ``"sum"``, ``"max"``, ``"min"``, ``"prod"`` or ``"avg"``.
        group: the communication group.
        who: the caller, for errors.

    Returns:
        an array of ``x``'s shape and dtype.
    """
    x = jnp.asarray(x)
    layout = _layout(group, who)
    if layout is None:
        out = _outside(lambda v: all_reduce(v, op, group, who), (x,), who)
        return x if out is None else out
    if op == "sum":
        return _sum_over(x, layout)
    if op == "avg":
        return (_sum_over(x, layout) / layout.size).astype(x.dtype)
    return _all_reduce_nonlinear(x, op, layout)


def _all_reduce_nonlinear(x: jax.Array, op: str, layout: _per_device.GroupLayout) -> jax.Array:
    """max/min/prod with MindSpore's gradients (prod: all-reduce(dout*out)/x; max/min: all-reduce(dout) where x won)."""

    @jax.custom_vjp
    def reduce(v: jax.Array) -> jax.Array:
        return _forward(v)

    def _forward(v: jax.Array) -> jax.Array:
        if layout.axes is not None and op in ("max", "min"):
            return (jax.lax.pmax if op == "max" else jax.lax.pmin)(v, layout.axes)
        return _reduce_members(_members(v, layout), op)

    def fwd(v: jax.Array) -> tuple[jax.Array, tuple[jax.Array, jax.Array]]:
        out = _forward(v)
        return out, (v, out)

    def bwd(res: tuple[jax.Array, jax.Array], dout: jax.Array) -> tuple[jax.Array]:
        v, out = res
        if op == "prod":
            return (_sum_over(dout * out, layout) / v,)
        return (_sum_over(dout, layout) * (v == out).astype(dout.dtype),)

    reduce.defvjp(fwd, bwd)
    return reduce(x)


def all_gather(x: Any, group: str, who: str) -> jax.Array:
    """Concatenate the ranks' ``x`` along the first dimension, in group-rank order.

    Returns:
        shape ``(group size * x.shape[0], ...)`` (a scalar gathers into a vector).
    """
    x = jnp.asarray(x)
    layout = _layout(group, who)
    if layout is None:
        out = _outside(lambda v: all_gather(v, group, who), (x,), who)
        return (x.reshape(1) if x.ndim == 0 else x) if out is None else out
    v = x.reshape(1) if x.ndim == 0 else x
    if layout.axes is not None:
        return jax.lax.all_gather(v, layout.axes, axis=0, tiled=True)
    stack = _members(v, layout)
    return stack.reshape((stack.shape[0] * stack.shape[1],) + stack.shape[2:])


def reduce_scatter(x: Any, op: str, group: str, who: str) -> jax.Array:
    """Reduce ``x`` over the group, then give rank ``i`` the ``i``-th of ``group size`` slices along dimension 0.

    Raises:
        ValueError: the first dimension does not divide by the group size.
    """
    x = jnp.asarray(x)
    layout = _layout(group, who)
    size = 1 if layout is None else layout.size
    if x.ndim == 0 or x.shape[0] % size:
        raise ValueError(f"For '{who}', the first dimension of the input must be divisible by the group size "
                         f"{size}, got shape {tuple(x.shape)}")
    if layout is None:
        out = _outside(lambda v: reduce_scatter(v, op, group, who), (x,), who)
        return x if out is None else out
    if op == "sum" and layout.axes is not None:
        return jax.lax.psum_scatter(x, layout.axes, scatter_dimension=0, tiled=True)
    reduced = all_reduce(x, op, group, who)
    chunk = x.shape[0] // size
    return jax.lax.dynamic_slice_in_dim(reduced, _my_position(layout) * chunk, chunk, axis=0)


def broadcast(x: Any, root_rank: int, group: str, who: str) -> jax.Array:
    """Every rank of the group gets ``x`` of the group's rank ``root_rank`` (MindSpore's gradient: the output's).

    Arguments:
        root_rank: the sending rank (a world rank of ``group``; in each shifted copy
            of the group its counterpart sends).

    Raises:
        ValueError: ``root_rank`` is not in the group.
    """
    x = jnp.asarray(x)
    ranks = _comm.group_ranks(group, who)
    layout = _layout(group, who)
    if layout is None:
        out = _outside(lambda v: broadcast(v, root_rank, group, who), (x,), who)
        if out is None and root_rank not in ranks:
            raise ValueError(f"For '{who}', 'root_rank' {root_rank} is not a rank of group {group!r} {ranks}")
        return x if out is None else out
    if root_rank not in layout.members:
        raise ValueError(f"For '{who}', 'root_rank' {root_rank} is not a rank of group {group!r} "
                         f"{list(layout.members)}")
    root = layout.members.index(root_rank)

    @jax.custom_vjp
    def send(v: jax.Array) -> jax.Array:
        return _forward(v)

    def _forward(v: jax.Array) -> jax.Array:
        if layout.axes is not None:
            mine = jnp.where(_my_position(layout) == root, v, jnp.zeros_like(v))
            return jax.lax.psum(mine, layout.axes)
        return _members(v, layout)[root]

    send.defvjp(lambda v: (_forward(v), None), lambda _, dout: (dout,))
    return send(x)


def all_to_all(x: Any, split_count: int, split_dim: int, concat_dim: int, group: str, who: str) -> jax.Array:
    """Split ``x`` into ``split_count`` blocks along ``split_dim``, send block ``j`` to rank ``j``,
    and concatenate the received blocks along ``concat_dim`` in rank order.

    Raises:
        ValueError: ``split_count`` is not the group size, or ``split_dim`` does not divide by it.
    """
    x = jnp.asarray(x)
    layout = _layout(group, who)
    size = 1 if layout is None else layout.size
    if split_count != size:
        raise ValueError(f"For '{who}', 'split_count' must equal the size {size} of group {group!r}, "
                         f"got {split_count}")
    for name, dim in (("split_dim", split_dim), ("concat_dim", concat_dim)):
        if not -x.ndim <= dim < x.ndim:
            raise ValueError(f"For '{who}', '{name}' must be in [{-x.ndim}, {x.ndim}) for an input of shape "
                             f"{tuple(x.shape)}, got {dim}")
    split_dim, concat_dim = split_dim % x.ndim, concat_dim % x.ndim
    if x.shape[split_dim] % split_count:
        raise ValueError(f"For '{who}', the input's dimension {split_dim} ({x.shape[split_dim]}) must be "
                         f"divisible by 'split_count' {split_count}")
    if layout is None:
        out = _outside(lambda v: all_to_all(v, split_count, split_dim, concat_dim, group, who), (x,), who)
        return x if out is None else out
    if layout.axes is not None:
        return jax.lax.all_to_all(x, layout.axes, split_dim, concat_dim, tiled=True)
    stack = _members(x, layout)  # (g, ...): every member's whole input
    block = x.shape[split_dim] // size
    mine = jax.lax.dynamic_slice_in_dim(stack, _my_position(layout) * block, block, axis=split_dim + 1)
    return jnp.concatenate([mine[i] for i in range(size)], axis=concat_dim)
