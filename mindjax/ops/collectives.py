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
import numpy as np
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


# -- point to point: one program for every device -------------------------------------------------------
# MindSpore runs one program per rank: rank s runs ``Send`` and rank d runs ``Receive``. Here every
# device runs the same program, so a construct holding both runs both on every device, and the pair
# is one edge of a ``lax.ppermute``: in each copy of the group, group rank ``src_rank`` sends to group
# rank ``dest_rank``; the devices that receive nothing get zeros.

def _permute(x: jax.Array, layout: _per_device.GroupLayout, pairs: Callable[[int, int], int | None]) -> jax.Array:
    """``ppermute`` of ``x`` over the frame: device ``d`` (at position ``p`` of its group copy) sends to
    the device at position ``pairs(p, size)`` of its copy (None: it sends nothing)."""
    frame = _per_device.current_frame()
    assert frame is not None
    perm = []
    for d in range(frame.size):
        to = pairs(int(layout.position[d]), layout.size)
        if to is not None:
            perm.append((d, int(layout.table[d][to])))
    return jax.lax.ppermute(x, frame.axis_names, perm)


def _p2p_layout(group: str, who: str, ranks: dict[str, int]) -> _per_device.GroupLayout:
    layout = _layout(group, who)
    if layout is None:
        raise ValueError(f"For '{who}', point-to-point communication needs several ranks: call it in the "
                         f"construct of a Cell run per device (DATA_PARALLEL or HYBRID_PARALLEL on several "
                         f"devices), where each device is a rank")
    for name, rank in ranks.items():
        if not 0 <= rank < layout.size:
            raise ValueError(f"For '{who}', '{name}' must be a rank of group {group!r} (0 .. {layout.size - 1}), "
                             f"got {rank}")
    return layout


def _peer_position(peer: Any, layout: _per_device.GroupLayout, group: str, who: str, name: str,
                   global_rank: bool) -> Any:
    """A peer as the receiving side needs it: a static group position (int), or a traced device rank."""
    raw = getattr(peer, "_raw", peer)
    if isinstance(raw, (jax.Array, np.ndarray)) and not isinstance(raw, jax.core.Tracer):
        raw = int(np.asarray(raw))
    if isinstance(raw, jax.core.Tracer):
        return jnp.asarray(raw, jnp.int32)  # computed from get_rank(): a device rank
    raw = int(raw)
    if global_rank:
        if raw not in layout.members:
            raise ValueError(f"For '{who}', '{name}' {raw} is not a rank of group {group!r} {list(layout.members)}")
        return layout.members.index(raw)
    if not 0 <= raw < layout.size:
        raise ValueError(f"For '{who}', '{name}' must be a rank of group {group!r} (0 .. {layout.size - 1}), "
                         f"got {raw}")
    return raw


def send(x: Any, tag: Any, dest: Any, group: str, who: str, global_rank: bool = False) -> jax.Array:
    """Post ``x`` for the ``receive`` of the same ``tag`` and group, bound for rank ``dest``.

    Posts of one tag are received in the order they were sent.

    Arguments:
        dest: the receiving rank: a group rank (``ops.Send``), or with ``global_rank`` a world rank
            (``mint.distributed.send``; in each shifted copy of the group, its counterpart), or a
            traced rank computed from ``get_rank()``.

    Returns:
        ``x`` (MindSpore's Send is kept alive by a ``Depend`` on it).

    Raises:
        ValueError: outside a per-device run, or ``dest`` not in the group.
    """
    x = jnp.asarray(x)
    layout = _p2p_layout(group, who, {})
    frame = _per_device.current_frame()
    assert frame is not None
    peer = _peer_position(dest, layout, group, who, "dest_rank" if not global_rank else "dst", global_rank)
    frame.mailbox.setdefault((group, tag), []).append((x, peer))
    return x


def has_post(tag: Any, group: str) -> bool:
    """Whether a ``send`` of ``tag`` in ``group`` waits for its ``receive`` in the open per-device run."""
    frame = _per_device.current_frame()
    return frame is not None and bool(frame.mailbox.get((group, tag)))


def receive(tag: Any, src: Any, shape: tuple[int, ...], dtype: Any, group: str, who: str,
            into: Any = None, global_rank: bool = False) -> jax.Array:
    """What the first pending ``send`` of ``tag`` posted, on its destination rank, from rank ``src``.

    Returns:
        on each device the ``send`` names as destination and whose ``src`` is the sender, the sent
        value; elsewhere ``into`` (zeros when None).

    Raises:
        ValueError: outside a per-device run, no ``send`` of this tag ran before, or the shape or dtype
            is not the sent value's.
    """
    layout = _p2p_layout(group, who, {})
    frame = _per_device.current_frame()
    assert frame is not None
    queue = frame.mailbox.get((group, tag))
    if not queue:
        raise ValueError(f"For '{who}', no send with tag {tag} in group {group!r} ran before this receive: "
                         f"every device runs one program, so the send must come first in it")
    x, dest = queue.pop(0)
    if tuple(x.shape) != tuple(shape) or jnp.dtype(x.dtype) != jnp.dtype(dtype):
        raise ValueError(f"For '{who}', the received tensor must have the shape and dtype of the one sent with tag "
                         f"{tag}: expected {tuple(x.shape)} {x.dtype}, got {tuple(shape)} {jnp.dtype(dtype)}")
    source = _peer_position(src, layout, group, who, "src_rank" if not global_rank else "src", global_rank)
    keep = jnp.zeros_like(x) if into is None else jnp.asarray(into, x.dtype)
    if isinstance(source, int) and isinstance(dest, int):
        moved = _permute(x, layout, lambda p, size: dest if p == source else None)
        return jnp.where(_my_position(layout) == dest, moved, keep)
    # A peer computed from the rank: every device's value and destination, picked by the source.
    me = frame.rank()
    table = jnp.asarray(layout.table, jnp.int32)[me]
    src_device = table[source] if isinstance(source, int) else source
    dest_device = table[dest] if isinstance(dest, int) else dest
    everyone = jax.lax.all_gather(x, frame.axis_names, axis=0, tiled=False)
    dests = jax.lax.all_gather(dest_device, frame.axis_names, axis=0, tiled=False)
    return jnp.where(dests[src_device] == me, everyone[src_device], keep)


def neighbor_exchange(xs: Any, send_rank_ids: Any, recv_rank_ids: Any, recv_shapes: Any, recv_type: Any,
                      group: str, who: str) -> tuple[jax.Array, ...]:
    """Send ``xs[i]`` to ``send_rank_ids[i]`` and receive output ``j`` from ``recv_rank_ids[j]``.

    MindSpore gives each rank its own ids; one program serves every device here, so the ids are
    those of group rank 0 and every rank applies the same offsets around the group (rank ``r`` sends
    ``xs[i]`` to ``(r + send_rank_ids[i]) % size``). Output ``j`` is the input that the rank at offset
    ``recv_rank_ids[j]`` sends to this one: the input ``i`` with ``send_rank_ids[i] = -recv_rank_ids[j]``
    (mod size).

    Raises:
        ValueError: an output no input is sent for, or a received shape or dtype that differs from
            ``recv_shapes``/``recv_type``.
    """
    xs = [jnp.asarray(x) for x in xs]
    layout = _p2p_layout(group, who, {})
    size = layout.size
    if len(xs) != len(send_rank_ids):
        raise ValueError(f"For '{who}', the input must hold one tensor per 'send_rank_ids' ({len(send_rank_ids)}), "
                         f"got {len(xs)}")
    if len(recv_shapes) != len(recv_rank_ids):
        raise ValueError(f"For '{who}', 'recv_shapes' must hold one shape per 'recv_rank_ids' "
                         f"({len(recv_rank_ids)}), got {len(recv_shapes)}")
    offsets = [int(s) % size for s in send_rank_ids]
    outs = []
    for j, (rank, shape) in enumerate(zip(recv_rank_ids, recv_shapes)):
        wanted = (-int(rank)) % size
        if wanted not in offsets:
            raise ValueError(f"For '{who}', output {j} is received from rank {rank}, but no input is sent to the "
                             f"rank at offset {-int(rank)} from it (with one program for every rank, rank r "
                             f"sends input i to r + send_rank_ids[i] mod {size}): send_rank_ids {list(send_rank_ids)}")
        x = xs[offsets.index(wanted)]
        if tuple(x.shape) != tuple(shape) or jnp.dtype(x.dtype) != jnp.dtype(recv_type):
            raise ValueError(f"For '{who}', output {j} arrives as {tuple(x.shape)} {x.dtype}, but 'recv_shapes'/"
                             f"'recv_type' say {tuple(shape)} {jnp.dtype(recv_type)}")
        outs.append(_permute(x, layout, lambda p, n, k=wanted: (p + k) % n))
    return tuple(outs)


def _split_sizes(who: str, name: str, sizes: Any, size: int) -> list[int]:
    raw = sizes._raw if hasattr(sizes, "_raw") else sizes
    if isinstance(raw, jax.core.Tracer):
        raise TypeError(f"For '{who}', '{name}' must be known when the program is built (a list, tuple or "
                        f"concrete Tensor), got a traced value")
    values = [int(v) for v in np.asarray(raw).reshape(-1)]
    if len(values) != size or any(v < 0 for v in values):
        raise ValueError(f"For '{who}', '{name}' must hold one non-negative size per rank of the group "
                         f"({size}), got {values}")
    return values


def all_gather_v(x: Any, output_split_sizes: Any, group: str, who: str) -> jax.Array:
    """Concatenate the first ``output_split_sizes[r]`` rows (elements, for 1-D) of each rank ``r``'s ``x``.

    Every device runs one program, so every rank's input has one length: each must hold at least
    ``max(output_split_sizes)`` elements (MindSpore's rank ``r`` holds exactly its size).

    Returns:
        shape ``(sum(output_split_sizes), *x.shape[1:])``.
    """
    x = jnp.asarray(x)
    if x.ndim == 0:
        raise ValueError(f"For '{who}', the input must have a first dimension to gather along, got a scalar")
    layout = _layout(group, who)
    size = 1 if layout is None else layout.size
    sizes = _split_sizes(who, "output_split_sizes", output_split_sizes, size)
    if x.shape[0] < max(sizes):
        raise ValueError(f"For '{who}', every rank's input must hold at least max(output_split_sizes) = "
                         f"{max(sizes)} elements (one program serves every rank), got {x.shape[0]}")
    if layout is None:
        out = _outside(lambda v: all_gather_v(v, sizes, group, who), (x,), who)
        return x[:sizes[0]] if out is None else out
    stack = _members(x, layout) if layout.axes is None else jax.lax.all_gather(x, layout.axes, axis=0)
    return jnp.concatenate([stack[r, :n] for r, n in enumerate(sizes)])


def reduce_scatter_v(x: Any, op: str, input_split_sizes: Any, group: str, who: str) -> jax.Array:
    """Reduce the ranks' 1-D ``x`` (length ``sum(input_split_sizes)``) and give rank ``r`` segment ``r``.

    One program serves every device, so every rank's output must have one shape: the sizes must be
    equal (uneven sizes raise, naming this); ``prod`` is not supported, as in MindSpore.
    """
    x = jnp.asarray(x)
    if op == "prod":
        raise ValueError(f"For '{who}', 'op' prod is not supported (MindSpore's ReduceScatterV neither)")
    if x.ndim != 1:
        raise ValueError(f"For '{who}', the input must be 1-D (flatten and concatenate first), got shape "
                         f"{tuple(x.shape)}")
    layout = _layout(group, who)
    size = 1 if layout is None else layout.size
    sizes = _split_sizes(who, "input_split_sizes", input_split_sizes, size)
    if sum(sizes) != x.shape[0]:
        raise ValueError(f"For '{who}', 'input_split_sizes' must add up to the input's length {x.shape[0]}, "
                         f"got {sizes} (sum {sum(sizes)})")
    if len(set(sizes)) > 1:
        raise ValueError(f"For '{who}', uneven 'input_split_sizes' {sizes} would give the ranks outputs of "
                         f"different shapes, but every device runs one program here; use equal sizes (pad "
                         f"the segments), or gather with AllGatherV")
    return reduce_scatter(x, op, group, who)
