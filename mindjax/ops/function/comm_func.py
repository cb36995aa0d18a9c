"""MindSpore's ``mindspore.ops.function.comm_func`` (``mindspore.ops.communication``): the collectives of ``ops``.

These are the one implementation of MindSpore's PyTorch-style communication API:
``mindspore.mint.distributed`` re-exports them. Process groups are MindJAX's
communication groups (``group=None`` is the world group); the numbers are those of
the Primitives (:mod:`mindjax.ops.operations.comm_ops`): per device inside a
per-device run (and in DATA_PARALLEL, per device of the data), the identity with one rank.

As in MindSpore 2.10, every collective works in place by default: the result is
written into the given output Tensor and the call returns its handle (``None``,
or with ``async_op=True`` a handle whose ``wait()`` has nothing left to wait for:
XLA schedules collectives itself, so every call completes before it returns).
``set_comm_ops_inplace(False)`` switches ``all_reduce``, ``all_gather_into_tensor``,
``reduce_scatter_tensor``, ``all_to_all``, ``all_to_all_single``, ``recv`` and ``irecv``
to MindSpore's functional forms (they return the result, with the handle); the
others refuse that mode, as MindSpore's do.

One program serves every device of a per-device run, so every rank's tensors have
one shape: the uneven variants take equal splits (``all_gather_into_tensor_uneven``
also takes the first ``output_split_sizes[r]`` rows of each rank), and a rooted result
(``reduce``, ``gather``, ``gather_into_tensor``) lands on its root while the other ranks
keep their tensors.

Point to point (``send``/``recv``/``isend``/``irecv``/``batch_isend_irecv``) runs inside a
per-device run, where every device runs both sides: a ``send`` posts its tensor, and the
``recv`` of the same tag and group that follows it moves the tensor from the sender to
the destination (the other ranks keep theirs). Peers are world ranks (in each shifted
copy of a group, its counterpart), or traced ranks computed from ``get_rank()``
(``(rank + 1) % size``: a ring). An ``irecv`` before its ``isend`` completes at
``wait()``; ``batch_isend_irecv`` posts its sends first.

The object collectives (``all_gather_object``, ``broadcast_object_list``,
``gather_object``, ``scatter_object_list``, ``send_object_list``, ``recv_object_list``)
move Python objects (JSON data; MindJAX never unpickles) between the job's processes (outside any traced run):
through ``jax.experimental.multihost_utils`` for the collective ones, through the
coordination service's key-value store for point to point. Their groups must hold
every process (a collective over processes involves them all).

Example:
    >>> import numpy as np
    >>> import mindjax as ms
    >>> from mindjax import ops
    >>> x = ms.Tensor(np.ones(2, np.float32))
    >>> ops.all_reduce(x) is None  # in place: x now holds the sum over the ranks
    True
"""
from __future__ import annotations

import itertools
import json
from typing import Any, Callable, Sequence

import jax
import jax.numpy as jnp
import numpy as np

from mindjax.common.tensor import Tensor
from mindjax.communication import comm_func as _comm
from mindjax.communication import management as _management
from mindjax.communication import per_device as _per_device
from mindjax.communication.management import GlobalComm
from mindjax.ops import collectives as _coll

__all__ = ["is_available", "is_initialized", "init_process_group", "destroy_process_group", "new_group",
           "get_backend", "get_rank", "get_world_size", "get_global_rank", "get_group_rank",
           "get_process_group_ranks", "barrier", "all_reduce", "all_gather_into_tensor",
           "reduce_scatter_tensor", "broadcast", "all_gather", "all_gather_into_tensor_uneven",
           "reduce_scatter", "reduce_scatter_tensor_uneven", "reduce", "gather_into_tensor", "scatter_tensor",
           "all_to_all", "all_to_all_single", "all_to_all_v_c", "send", "recv", "isend", "irecv",
           "P2POp", "batch_isend_irecv", "all_gather_object", "broadcast_object_list", "gather_object",
           "scatter_object_list", "send_object_list", "recv_object_list", "set_comm_ops_inplace",
           "all_gather_matmul", "matmul_reduce_scatter"]

#: The functions ``set_comm_ops_inplace`` switches, and whether each works in place (MindSpore's default: all).
_COMM_FUNCS = ("all_reduce", "all_gather_into_tensor", "all_gather_into_tensor_uneven", "all_to_all",
               "all_to_all_single", "reduce_scatter_tensor", "reduce_scatter_tensor_uneven", "isend", "irecv", "send",
               "recv", "gather", "scatter", "all_gather", "reduce_scatter", "barrier", "broadcast", "reduce",
               "batch_isend_irecv", "all_gather_object", "broadcast_object_list", "gather_object",
               "scatter_object_list", "send_object_list", "recv_object_list", "gather_into_tensor",
               "scatter_tensor", "all_to_all_v_c")
_INPLACE = dict.fromkeys(_COMM_FUNCS, True)


def set_comm_ops_inplace(is_enable: bool, func_list: Sequence[str] | None = None) -> None:
    """Make the communication functions (all, or those named in ``func_list``) work in place, or not.

    Arguments:
        is_enable: True: write into the given output Tensor and return the handle (the default);
            False: MindSpore's functional forms, which return the result (where they exist).
        func_list: the function names to switch (None: all of them).

    Raises:
        TypeError: ``is_enable`` is not a bool, or ``func_list`` not a list or tuple.
        ValueError: a name in ``func_list`` is not a communication function.
    """
    if not isinstance(is_enable, bool):
        raise TypeError(f"For 'set_comm_ops_inplace', the argument 'is_enable' must be type of bool, but got "
                        f"'is_enable' type : {type(is_enable)}.")
    if func_list is None:
        func_list = _COMM_FUNCS
    if not isinstance(func_list, (list, tuple)):
        raise TypeError(f"For 'set_comm_ops_inplace', 'func_list' must be a list or tuple, but got "
                        f"{type(func_list).__name__}")
    for name in func_list:
        if name not in _INPLACE:
            raise ValueError(f"For 'set_comm_ops_inplace', the function name in 'func_list' must be one of "
                             f"{list(_COMM_FUNCS)}, but got {name!r}")
    for name in func_list:
        _INPLACE[name] = is_enable


def _inplace(who: str) -> bool:
    return _INPLACE[who]


def _require_inplace(who: str) -> None:
    if not _INPLACE[who]:
        raise ValueError(f"For '{who}', the non-inplace mode (set_comm_ops_inplace(False)) is not supported, as in "
                         f"MindSpore")


def _check_args(who: str, group: Any, async_op: Any = False) -> None:
    if group is not None and not isinstance(group, str):
        raise TypeError(f"For '{who}', the argument 'group' must be type of string, but got 'group' type : "
                        f"{type(group)}.")
    if not isinstance(async_op, bool):
        raise TypeError(f"For '{who}', the argument 'async_op' must be a bool, but got {type(async_op)}.")


_NEW_GROUPS = itertools.count()


class _Done:
    """The handle of a collective that has already completed (``async_op=True``)."""

    def wait(self) -> bool:
        """Nothing to wait for: the collective completed when it was called."""
        return True

    def is_completed(self) -> bool:
        """Always True."""
        return True


def _group(group: str | None) -> str:
    return GlobalComm.WORLD_COMM_GROUP if group is None else group


def _write(who: str, name: str, target: Any, value: Any) -> None:
    if not isinstance(target, Tensor):
        raise TypeError(f"For '{who}', '{name}' must be a Tensor (the result is written into it), "
                        f"but got {type(target).__name__}")
    if tuple(target.shape) != tuple(value.shape):
        raise ValueError(f"For '{who}', '{name}' must have shape {tuple(value.shape)}, "
                         f"but got {tuple(target.shape)}")
    target.assign_value(value)


def _handle(async_op: bool) -> Any:
    return _Done() if async_op else None


def is_available() -> bool:
    """Whether distributed communication is available (always, through ``jax.distributed``)."""
    return True


def is_initialized() -> bool:
    """Whether :func:`init_process_group` (or ``communication.init``) has run."""
    return _management.is_initialized()


def init_process_group(backend: str = "hccl", init_method: Any = None, timeout: Any = None, world_size: int = -1,
                       rank: int = -1, store: Any = None, group_name: str = "", pg_options: Any = None,
                       device_id: Any = None) -> None:
    """Join the job (``communication.init(backend)``); the job's size and this rank come from the launcher's
    environment, so ``world_size``/``rank``, when given, must agree with it."""
    _management.init(backend)
    for name, given, actual in (("world_size", world_size, get_world_size()), ("rank", rank, get_rank())):
        if given != -1 and given != actual:
            raise ValueError(f"For 'init_process_group', '{name}' is {given}, but the job's "
                             f"environment says {actual}")


def destroy_process_group(group: str | None = None) -> None:
    """Destroy ``group``, or (``None``) leave the job."""
    if group is None:
        _management.release()
    else:
        _management.destroy_group(group)


def new_group(ranks: list[int] | None = None, timeout: Any = None, backend: str | None = None,
              pg_options: Any = None, use_local_synchronization: bool = False, group_desc: str | None = None) -> str:
    """A new group of the world ranks ``ranks`` (all by default); returns its name."""
    ranks = list(range(get_world_size())) if ranks is None else list(ranks)
    name = group_desc or f"mint_group_{next(_NEW_GROUPS)}"
    _management.create_group(name, ranks, pg_options)
    return name


def get_backend(group: str | None = None) -> str:
    """The communication backend's name."""
    _management.get_group_size(_group(group))  # an unknown group is an error
    return GlobalComm.BACKEND


def get_rank(group: str | None = None) -> Any:
    """This rank in ``group`` (the world by default)."""
    return _management.get_rank(_group(group))


def get_world_size(group: str | None = None) -> int:
    """The number of ranks in ``group``."""
    return _management.get_group_size(_group(group))


def get_global_rank(group: str, group_rank: int) -> int:
    """The world rank of ``group``'s rank ``group_rank``."""
    return _management.get_world_rank_from_group_rank(_group(group), group_rank)


def get_group_rank(group: str, global_rank: int) -> int:
    """The rank in ``group`` of world rank ``global_rank``."""
    return _management.get_group_rank_from_world_rank(global_rank, _group(group))


def get_process_group_ranks(group: str | None = None) -> list[int]:
    """The world ranks of ``group``."""
    return _management.get_process_group_ranks(_group(group))


def barrier(group: str | None = None, async_op: bool = False, device_ids: Any = None) -> Any:
    """Wait for every rank of ``group`` (the devices of one program are in step already).

    Returns:
        the handle (None unless ``async_op``).
    """
    _check_args("barrier", group, async_op)
    _require_inplace("barrier")
    _comm.barrier(_group(group))
    return _handle(async_op)


def all_reduce(tensor: Any, op: str = "sum", group: str | None = None, async_op: bool = False) -> Any:
    """Reduce ``tensor`` over ``group`` with ``op`` (``"sum"``, ``"prod"``, ``"min"``, ``"max"``, ``"avg"``).

    Returns:
        in place (the default): the handle, ``tensor`` holding the result; functional: ``(output, handle)``.
    """
    _check_args("all_reduce", group, async_op)
    out, _ = _comm.all_reduce(tensor, op, _group(group), async_op)
    if not _inplace("all_reduce"):
        return out, _handle(async_op)
    _write("all_reduce", "tensor", tensor, out)
    return _handle(async_op)


def all_gather_into_tensor(output_tensor: Any, input_tensor: Any, group: str | None = None,
                           async_op: bool = False) -> Any:
    """The ranks' ``input_tensor`` concatenated along dimension 0, written into ``output_tensor``.

    Returns:
        in place: the handle; functional (``output_tensor`` unused): ``(output, handle)``.
    """
    _check_args("all_gather_into_tensor", group, async_op)
    out, _ = _comm.all_gather_into_tensor(input_tensor, _group(group), async_op)
    if not _inplace("all_gather_into_tensor"):
        return out, _handle(async_op)
    _write("all_gather_into_tensor", "output_tensor", output_tensor, out)
    return _handle(async_op)


def reduce_scatter_tensor(output: Any, input: Any, op: str = "sum", group: str | None = None,  # noqa: A002
                          async_op: bool = False) -> Any:
    """Reduce the ranks' ``input``; this rank's slice of dimension 0 is written into ``output``.

    Returns:
        in place: the handle; functional (``output`` unused): ``(output, handle)``.
    """
    _check_args("reduce_scatter_tensor", group, async_op)
    out, _ = _comm.reduce_scatter_tensor(input, op, _group(group), async_op)
    if not _inplace("reduce_scatter_tensor"):
        return out, _handle(async_op)
    _write("reduce_scatter_tensor", "output", output, out)
    return _handle(async_op)


def broadcast(tensor: Any, src: int, group: str | None = None, async_op: bool = False) -> Any:
    """Rank ``src``'s ``tensor`` (a world rank) written into every rank's ``tensor``.

    Returns:
        the handle.
    """
    _check_args("broadcast", group, async_op)
    _require_inplace("broadcast")
    out = _comm.broadcast(tensor, src, _group(group))
    _write("broadcast", "tensor", tensor, out)
    return _handle(async_op)


# -- list, rooted and uneven variants ---------------------------------------------------------------------

def _tensors(who: str, name: str, value: Any, count: int) -> list[Tensor]:
    if not isinstance(value, (list, tuple)) or not all(isinstance(t, Tensor) for t in value):
        raise TypeError(f"For '{who}', '{name}' must be a list of Tensors, but got "
                        f"{type(value).__name__}")
    if len(value) != count:
        raise TypeError(f"For '{who}', '{name}' must hold one Tensor per rank of the group "
                        f"({count}), but got {len(value)}")
    return list(value)


def _same_shapes(who: str, name: str, tensors: Sequence[Tensor], like: Any) -> None:
    for i, t in enumerate(tensors):
        if tuple(t.shape) != tuple(like.shape) or t.dtype != like.dtype:
            raise TypeError(f"For '{who}', '{name}'[{i}] must have the shape and dtype of the "
                            f"tensor, {tuple(like.shape)} {like.dtype}, but got {tuple(t.shape)} {t.dtype}")


def _position(group: str | None) -> Any:
    """This rank's position in ``group`` (traced inside a per-device run)."""
    return _management.get_rank(_group(group))


def _root_position(who: str, root: Any, group: str | None) -> int:
    ranks = get_process_group_ranks(group)
    if not isinstance(root, int) or isinstance(root, bool):
        raise TypeError(f"For '{who}', the root rank must be an int, but got {type(root).__name__}")
    if root not in ranks:
        raise ValueError(f"For '{who}', rank {root} is not in group {_group(group)!r} {ranks}")
    return ranks.index(root)


def all_gather(tensor_list: list[Tensor], tensor: Tensor, group: str | None = None, async_op: bool = False) -> Any:
    """Every rank's ``tensor``, rank ``i``'s written into ``tensor_list[i]``."""
    _check_args("all_gather", group, async_op)
    _require_inplace("all_gather")
    size = get_world_size(group)
    targets = _tensors("all_gather", "tensor_list", tensor_list, size)
    _same_shapes("all_gather", "tensor_list", targets, tensor)
    out, _ = _comm.all_gather_into_tensor(tensor.reshape((1,) + tuple(tensor.shape)), _group(group), async_op)
    for i, target in enumerate(targets):
        target.assign_value(out[i])
    return _handle(async_op)


def all_gather_into_tensor_uneven(output: Tensor, input: Tensor,  # noqa: A002
                                  output_split_sizes: Sequence[int] | None = None, group: str | None = None,
                                  async_op: bool = False) -> Any:
    """The first ``output_split_sizes[r]`` rows of each rank ``r``'s ``input``, concatenated along dimension 0.

    Every rank's ``input`` has one shape here, with at least ``max(output_split_sizes)`` rows (``None``:
    all of them, an even gather).
    """
    _check_args("all_gather_into_tensor_uneven", group, async_op)
    _require_inplace("all_gather_into_tensor_uneven")
    size = get_world_size(group)
    sizes = [int(input.shape[0])] * size if output_split_sizes is None else list(output_split_sizes)
    out = _coll.all_gather_v(jnp.asarray(input), sizes, _group(group), "all_gather_into_tensor_uneven")
    _write("all_gather_into_tensor_uneven", "output", output, out)
    return _handle(async_op)


def reduce_scatter(output: Tensor, input_list: list[Tensor], op: str = "sum", group: str | None = None,
                   async_op: bool = False) -> Any:
    """Reduce the ranks' ``input_list[i]`` over the group; rank ``i`` gets the result in ``output``."""
    _check_args("reduce_scatter", group, async_op)
    _require_inplace("reduce_scatter")
    size = get_world_size(group)
    inputs = _tensors("reduce_scatter", "input_list", input_list, size)
    _same_shapes("reduce_scatter", "input_list", inputs, output)
    stacked = jnp.concatenate([jnp.asarray(t) for t in inputs], axis=0) if output.ndim else \
        jnp.stack([jnp.asarray(t) for t in inputs])
    out, _ = _comm.reduce_scatter_tensor(stacked, op, _group(group), async_op)
    _write("reduce_scatter", "output", output, out.reshape(output.shape))
    return _handle(async_op)


def reduce_scatter_tensor_uneven(output: Tensor, input: Tensor,  # noqa: A002
                                 input_split_sizes: Sequence[int] | None = None, op: str = "sum",
                                 group: str | None = None, async_op: bool = False) -> Any:
    """Reduce ``input`` over the group; rank ``r`` gets rows ``input_split_sizes[r]`` of it in ``output``.

    One program serves every device, so the splits must be equal (uneven ones raise, naming why).
    """
    _check_args("reduce_scatter_tensor_uneven", group, async_op)
    _require_inplace("reduce_scatter_tensor_uneven")
    size = get_world_size(group)
    sizes = [int(input.shape[0]) // size] * size if input_split_sizes is None else list(input_split_sizes)
    rows = jnp.asarray(input)
    flat = rows.reshape(-1)
    per_row = int(flat.shape[0] // max(rows.shape[0], 1)) if rows.ndim else 1
    out = _coll.reduce_scatter_v(flat, op, [n * per_row for n in sizes], _group(group),
                                 "reduce_scatter_tensor_uneven")
    _write("reduce_scatter_tensor_uneven", "output", output, out.reshape(output.shape))
    return _handle(async_op)


def reduce(tensor: Tensor, dst: int, op: str = "sum", group: str | None = None, async_op: bool = False) -> Any:
    """Reduce ``tensor`` over the group into rank ``dst``'s ``tensor``; the others keep theirs."""
    _check_args("reduce", group, async_op)
    _require_inplace("reduce")
    root = _root_position("reduce", dst, group)
    out, _ = _comm.all_reduce(tensor, op, _group(group), async_op)
    tensor.assign_value(jnp.where(_position(group) == root, jnp.asarray(out), jnp.asarray(tensor)))
    return _handle(async_op)


def gather(tensor: Tensor, gather_list: list[Tensor] | None, dst: int = 0, group: str | None = None,
           async_op: bool = False) -> Any:
    """Every rank's ``tensor`` written into rank ``dst``'s ``gather_list`` (rank ``i``'s at ``i``)."""
    _check_args("gather", group, async_op)
    _require_inplace("gather")
    root = _root_position("gather", dst, group)
    size = get_world_size(group)
    targets = _tensors("gather", "gather_list", gather_list, size)
    _same_shapes("gather", "gather_list", targets, tensor)
    out, _ = _comm.all_gather_into_tensor(tensor.reshape((1,) + tuple(tensor.shape)), _group(group), async_op)
    mine = _position(group) == root
    for i, target in enumerate(targets):
        target.assign_value(jnp.where(mine, jnp.asarray(out[i]), jnp.asarray(target)))
    return _handle(async_op)


def scatter(tensor: Tensor, scatter_list: list[Tensor], src: int = 0, group: str | None = None,
            async_op: bool = False) -> Any:
    """Rank ``i`` gets ``scatter_list[i]`` of rank ``src`` in ``tensor``."""
    _check_args("scatter", group, async_op)
    _require_inplace("scatter")
    root = get_process_group_ranks(group)[_root_position("scatter", src, group)]
    size = get_world_size(group)
    sources = _tensors("scatter", "scatter_list", scatter_list, size)
    _same_shapes("scatter", "scatter_list", sources, tensor)
    stacked = _comm.broadcast(jnp.stack([jnp.asarray(t) for t in sources]), root, _group(group))
    tensor.assign_value(jnp.asarray(stacked)[_position(group)])
    return _handle(async_op)


def _shape_of(who: str, name: str, item: Any) -> tuple[int, ...]:
    if isinstance(item, Tensor):
        return tuple(item.shape)
    if isinstance(item, (list, tuple)) and all(isinstance(d, int) and not isinstance(d, bool) for d in item):
        return tuple(item)
    raise TypeError(f"For '{who}', each item of '{name}' must be a Tensor (or, not in place, a shape), but got "
                    f"{type(item).__name__}")


def all_to_all(output_tensor_list: list[Any], input_tensor_list: list[Tensor], group: str | None = None,
               async_op: bool = False) -> Any:
    """Rank ``j`` gets this rank's ``input_tensor_list[j]`` in its ``output_tensor_list[i]`` (``i`` this rank).

    Returns:
        in place: the handle; functional (``output_tensor_list`` may hold shapes): ``(tuple of outputs, handle)``.
    """
    _check_args("all_to_all", group, async_op)
    size = get_world_size(group)
    inputs = _tensors("all_to_all", "input_tensor_list", input_tensor_list, size)
    _same_shapes("all_to_all", "input_tensor_list", inputs, inputs[0])
    stacked = jnp.stack([jnp.asarray(t) for t in inputs])
    out = _coll.all_to_all(stacked, size, 0, 0, _group(group), "all_to_all")
    if not _inplace("all_to_all"):
        if not isinstance(output_tensor_list, (list, tuple)) or len(output_tensor_list) != size:
            raise TypeError(f"For 'all_to_all', 'output_tensor_list' must hold one Tensor or shape per rank of the "
                            f"group ({size}), but got {output_tensor_list!r}")
        shapes = [_shape_of("all_to_all", "output_tensor_list", t) for t in output_tensor_list]
        for i, shape in enumerate(shapes):
            if shape != tuple(inputs[0].shape):
                raise TypeError(f"For 'all_to_all', 'output_tensor_list'[{i}] must have the shape of the inputs, "
                                f"{tuple(inputs[0].shape)}, but got {shape}")
        return tuple(Tensor(out[i]) for i in range(size)), _handle(async_op)
    outputs = _tensors("all_to_all", "output_tensor_list", output_tensor_list, size)
    _same_shapes("all_to_all", "output_tensor_list", outputs, inputs[0])
    for i, target in enumerate(outputs):
        target.assign_value(out[i])
    return _handle(async_op)


def _equal_splits(who: str, **splits: Sequence[int] | None) -> None:
    for name, sizes in splits.items():
        if sizes is not None and len(set(sizes)) > 1:
            raise ValueError(f"For '{who}', uneven '{name}' {list(sizes)} would give the ranks tensors of "
                             f"different shapes, but every device runs one program here; use equal splits")


def all_to_all_single(output: Any, input: Tensor, output_split_sizes: Sequence[int] | None = None,  # noqa: A002
                      input_split_sizes: Sequence[int] | None = None, group: str | None = None,
                      async_op: bool = False) -> Any:
    """Split ``input`` along dimension 0, send block ``j`` to rank ``j``, and join what arrives in ``output``.

    One program serves every device, so the splits must be equal (uneven ones raise, naming why).

    Returns:
        in place: the handle; functional (``output`` unused): ``(output, handle)``.
    """
    _check_args("all_to_all_single", group, async_op)
    size = get_world_size(group)
    _equal_splits("all_to_all_single", input_split_sizes=input_split_sizes, output_split_sizes=output_split_sizes)
    out = _coll.all_to_all(jnp.asarray(input), size, 0, 0, _group(group), "all_to_all_single")
    if not _inplace("all_to_all_single"):
        return Tensor(out), _handle(async_op)
    _write("all_to_all_single", "output", output, out)
    return _handle(async_op)


def all_to_all_v_c(output: Tensor, input: Tensor, send_count_matrix: list[int],  # noqa: A002
                   group: str | None = None, async_op: bool = False) -> Any:
    """Rank ``i`` sends ``send_count_matrix[i * size + j]`` rows of its flattened ``input`` to rank ``j``;
    what arrives is joined, in rank order, into ``output``.

    One program serves every device, so every count must be equal (uneven ones raise, naming why).

    Returns:
        the handle.
    """
    _check_args("all_to_all_v_c", group, async_op)
    _require_inplace("all_to_all_v_c")
    for name, value in (("input", input), ("output", output)):
        if not isinstance(value, Tensor):
            raise TypeError(f"For 'all_to_all_v_c', '{name}' must be a Tensor, but got {type(value).__name__}")
    if not isinstance(send_count_matrix, list) or not all(
            isinstance(n, int) and not isinstance(n, bool) for n in send_count_matrix):
        raise TypeError(f"For 'all_to_all_v_c', 'send_count_matrix' must be a list of int, but got "
                        f"{send_count_matrix!r}")
    size = get_world_size(group)
    if len(send_count_matrix) != size * size:
        raise TypeError(f"For 'all_to_all_v_c', 'send_count_matrix' must be a square matrix of {size} x {size} "
                        f"counts ({size * size}), but got {len(send_count_matrix)}")
    _equal_splits("all_to_all_v_c", send_count_matrix=send_count_matrix)
    flat = jnp.asarray(input).reshape(-1)
    if send_count_matrix and int(flat.shape[0]) != send_count_matrix[0] * size:
        raise ValueError(f"For 'all_to_all_v_c', 'input' must hold {send_count_matrix[0] * size} elements "
                         f"(the counts this rank sends), but got {int(flat.shape[0])}")
    out = _coll.all_to_all(flat, size, 0, 0, _group(group), "all_to_all_v_c")
    _write("all_to_all_v_c", "output", output, out.reshape(output.shape) if out.size == output.size else out)
    return _handle(async_op)


def gather_into_tensor(output_tensor: Tensor, input_tensor: Tensor, dst: int = 0, group: str | None = None,
                       async_op: bool = False) -> Any:
    """The ranks' ``input_tensor`` concatenated along dimension 0, written into rank ``dst``'s ``output_tensor``
    (the other ranks keep theirs).

    Returns:
        the handle.
    """
    _check_args("gather_into_tensor", group, async_op)
    _require_inplace("gather_into_tensor")
    if not isinstance(input_tensor, Tensor):
        raise TypeError(f"For 'gather_into_tensor', 'input_tensor' must be a Tensor, but got "
                        f"{type(input_tensor).__name__}")
    root = _root_position("gather_into_tensor", dst, group)
    out, _ = _comm.all_gather_into_tensor(input_tensor, _group(group), async_op)
    if not isinstance(output_tensor, Tensor) or tuple(output_tensor.shape) != tuple(out.shape):
        _write("gather_into_tensor", "output_tensor", output_tensor, out)  # raises, naming what it wants
    output_tensor.assign_value(jnp.where(_position(group) == root, jnp.asarray(out), jnp.asarray(output_tensor)))
    return _handle(async_op)


def scatter_tensor(output_tensor: Tensor, input_tensor: Tensor, src: int = 0, group: str | None = None,
                   async_op: bool = False) -> Any:
    """Rank ``src``'s ``input_tensor`` split along dimension 0 into one slice per rank; rank ``i`` gets slice ``i``
    in ``output_tensor``.

    Returns:
        the handle.
    """
    _check_args("scatter_tensor", group, async_op)
    _require_inplace("scatter_tensor")
    if not isinstance(input_tensor, Tensor):
        raise TypeError(f"For 'scatter_tensor', 'input_tensor' must be a Tensor, but got "
                        f"{type(input_tensor).__name__}")
    root = get_process_group_ranks(group)[_root_position("scatter_tensor", src, group)]
    size = get_world_size(group)
    rows = int(input_tensor.shape[0]) if input_tensor.ndim else 0
    if rows % size:
        raise ValueError(f"For 'scatter_tensor', the first dimension of 'input_tensor' must be divisible by the "
                         f"group size {size}, but got {tuple(input_tensor.shape)}")
    whole = _comm.broadcast(input_tensor, root, _group(group))
    pieces = jnp.asarray(whole).reshape((size, rows // size) + tuple(input_tensor.shape[1:]))
    _write("scatter_tensor", "output_tensor", output_tensor, pieces[_position(group)])
    return _handle(async_op)


# -- point to point ---------------------------------------------------------------------------------

def _p2p_tensor(who: str, tensor: Any) -> None:
    if not isinstance(tensor, Tensor):
        raise TypeError(f"For '{who}', 'tensor' must be a Tensor, but got {type(tensor).__name__}")


def send(tensor: Tensor, dst: Any = 0, group: str | None = None, tag: int = 0) -> None:
    """Send ``tensor`` to rank ``dst``; the ``recv`` of the same tag and group that follows receives it."""
    _p2p_tensor("send", tensor)
    _coll.send(jnp.asarray(tensor), ("mint", tag), dst, _group(group), "send", global_rank=True)


def recv(tensor: Tensor, src: Any = 0, group: str | None = None, tag: int = 0) -> Any:
    """Receive into ``tensor`` what rank ``src`` sent (on the sender's destination; the others keep theirs).

    Returns:
        in place: 0, as MindSpore; functional: the received Tensor (``tensor`` gives its shape and dtype).
    """
    _p2p_tensor("recv", tensor)
    out = _coll.receive(("mint", tag), src, tuple(tensor.shape), jnp.asarray(tensor).dtype, _group(group),
                        "recv", into=jnp.asarray(tensor), global_rank=True)
    if not _inplace("recv"):
        return Tensor(out)
    tensor.assign_value(out)
    return 0


class _PendingRecv:
    """The handle of an ``irecv`` whose ``isend`` comes later in the program: it completes at ``wait()``."""

    def __init__(self, tensor: Tensor, src: Any, group: str | None, tag: int) -> None:
        self._args: tuple[Any, ...] | None = (tensor, src, group, tag)

    def wait(self) -> bool:
        """Receive now (the matching ``isend`` must have run)."""
        if self._args is not None:
            tensor, src, group, tag = self._args
            recv(tensor, src, group, tag)
            self._args = None
        return True

    def is_completed(self) -> bool:
        """Whether the receive has happened."""
        return self._args is None


def isend(tensor: Tensor, dst: Any = 0, group: str | None = None, tag: int = 0) -> _Done:
    """``send``, returning a handle (it is posted when called)."""
    send(tensor, dst, group, tag)
    return _Done()


def irecv(tensor: Tensor, src: Any = 0, group: str | None = None, tag: int = 0) -> Any:
    """``recv``, returning a handle; before its ``isend`` has run it completes at ``wait()``.

    Returns:
        in place: the handle; functional: ``(received Tensor, handle)`` (the ``isend`` must have run).
    """
    _p2p_tensor("irecv", tensor)
    posted = _coll.has_post(("mint", tag), _group(group))
    if not _inplace("irecv"):
        if not posted:
            raise ValueError(f"For 'irecv', not in place the matching isend (tag {tag}) must run before the irecv, "
                             f"which returns what it receives")
        out = _coll.receive(("mint", tag), src, tuple(tensor.shape), jnp.asarray(tensor).dtype, _group(group),
                            "irecv", into=jnp.asarray(tensor), global_rank=True)
        return Tensor(out), _Done()
    if posted:
        recv(tensor, src, group, tag)
        return _Done()
    return _PendingRecv(tensor, src, group, tag)


class P2POp:
    """One operation of :func:`batch_isend_irecv`.

    Arguments:
        op: ``isend`` or ``irecv`` (the function or its name).
        tensor: the tensor sent, or received into.
        peer: the world rank sent to or received from (or a traced rank from ``get_rank()``).
        group: the communication group.
        tag: must be 0 (as MindSpore).
    """

    def __init__(self, op: str | Callable[..., Any], tensor: Tensor, peer: Any, group: str | None = None,
                 tag: int = 0) -> None:
        name = op if isinstance(op, str) else getattr(op, "__name__", None)
        if name not in ("isend", "irecv"):
            raise TypeError(f"For 'P2POp', 'op' must be 'isend' or 'irecv' (or those functions), "
                            f"but got {op!r}")
        if not isinstance(tensor, Tensor):
            raise TypeError(f"For 'P2POp', 'tensor' must be a Tensor, but got {type(tensor).__name__}")
        if tag != 0:
            raise NotImplementedError("For 'P2POp', 'tag' other than 0 is not supported (as in "
                                      "MindSpore)")
        self.op, self.tensor, self.peer, self.group, self.tag = name, tensor, peer, group, tag


def batch_isend_irecv(p2p_op_list: list[P2POp]) -> list[Any]:
    """Run the sends, then the receives, of ``p2p_op_list``.

    Returns:
        one handle (already completed), as MindSpore.
    """
    _require_inplace("batch_isend_irecv")
    if not isinstance(p2p_op_list, (list, tuple)) or not p2p_op_list \
            or not all(isinstance(op, P2POp) for op in p2p_op_list):
        raise TypeError("For 'batch_isend_irecv', 'p2p_op_list' must be a non-empty list of P2POp")
    if len({_group(op.group) for op in p2p_op_list}) > 1:
        raise TypeError("For 'batch_isend_irecv', the P2POps must all use one group")
    for op in p2p_op_list:
        if op.op == "isend":
            send(op.tensor, op.peer, op.group, op.tag)
    for op in p2p_op_list:
        if op.op == "irecv":
            recv(op.tensor, op.peer, op.group, op.tag)
    return [_Done()]


# -- object collectives: Python objects (JSON data) between the job's processes --------------------------------

def _object_group(who: str, group: str | None) -> list[int]:
    """The group's ranks; they must be the job's processes, outside any traced run."""
    _check_args(who, group)
    _require_inplace(who)
    if _per_device.current_frame() is not None:
        raise RuntimeError(f"For '{who}', Python objects move between processes, not inside a per-device run")
    ranks = get_process_group_ranks(group)
    if sorted(ranks) != list(range(jax.process_count())):
        raise ValueError(f"For '{who}', the group must hold every process of the job "
                         f"({list(range(jax.process_count()))}), but group {_group(group)!r} holds {ranks}")
    return ranks


def _check_root(who: str, name: str, root: Any, ranks: list[int]) -> int:
    if not isinstance(root, int) or isinstance(root, bool):
        raise TypeError(f"For '{who}', '{name}' must be an int, but got {type(root).__name__}")
    if root not in ranks:
        raise ValueError(f"For '{who}', '{name}' {root} is not a rank of the group {ranks}")
    return root


def _check_list(who: str, name: str, value: Any, length: int | None = None) -> list[Any]:
    if not isinstance(value, list):
        raise TypeError(f"For '{who}', '{name}' must be a list, but got {type(value).__name__}")
    if length is not None and len(value) != length:
        raise ValueError(f"For '{who}', '{name}' must hold {length} items (one per rank of the group), but got "
                         f"{len(value)}")
    return value


def _gather_pickles(obj: Any) -> list[Any]:
    """Every process's ``obj``, in process order (one allgather of the lengths, one of the padded bytes)."""
    from jax.experimental import multihost_utils

    # JSON, not pickle: MindJAX never unpickles what another process sent (objects must be JSON data).
    try:
        data = np.frombuffer(json.dumps(obj).encode(), np.uint8)
    except TypeError as e:
        raise TypeError(f"For the object collectives, the object must be JSON data (MindJAX never unpickles "
                        f"what another process sends), got {type(obj).__name__}: {e}") from None
    lengths = np.asarray(multihost_utils.process_allgather(np.int64(data.size))).reshape(-1)
    padded = np.zeros(int(lengths.max()), np.uint8)
    padded[:data.size] = data
    rows = np.asarray(multihost_utils.process_allgather(padded)).reshape(len(lengths), -1)
    return [json.loads(rows[i, :int(n)].tobytes().decode()) for i, n in enumerate(lengths)]


def all_gather_object(object_list: list[Any], obj: Any, group: str | None = None) -> None:
    """Every rank's picklable ``obj``, rank ``i``'s written into ``object_list[i]``."""
    ranks = _object_group("all_gather_object", group)
    _check_list("all_gather_object", "object_list", object_list, len(ranks))
    objects = _gather_pickles(obj)
    for i, rank in enumerate(ranks):
        object_list[i] = objects[rank]


def broadcast_object_list(object_list: list[Any], src: int = 0, group: str | None = None, device: Any = None) -> None:
    """Rank ``src``'s ``object_list`` items written into every rank's ``object_list`` (of the same length)."""
    ranks = _object_group("broadcast_object_list", group)
    _check_root("broadcast_object_list", "src", src, ranks)
    _check_list("broadcast_object_list", "object_list", object_list)
    sent = _gather_pickles(list(object_list) if jax.process_index() == src else None)[src]
    if len(sent) != len(object_list):
        raise ValueError(f"For 'broadcast_object_list', 'object_list' must have the length of rank {src}'s, "
                         f"{len(sent)}, but got {len(object_list)}")
    object_list[:] = sent


def gather_object(obj: Any, object_gather_list: list[Any] | None = None, dst: int = 0,
                  group: str | None = None) -> None:
    """Every rank's picklable ``obj`` written into rank ``dst``'s ``object_gather_list`` (rank ``i``'s at ``i``)."""
    ranks = _object_group("gather_object", group)
    _check_root("gather_object", "dst", dst, ranks)
    mine = jax.process_index() == dst
    if mine:
        _check_list("gather_object", "object_gather_list", object_gather_list, len(ranks))
    objects = _gather_pickles(obj)
    if mine:
        for i, rank in enumerate(ranks):
            object_gather_list[i] = objects[rank]


def scatter_object_list(scatter_object_output_list: list[Any], scatter_object_input_list: list[Any] | None,
                        src: int = 0, group: str | None = None) -> None:
    """Rank ``i`` gets item ``i`` of rank ``src``'s ``scatter_object_input_list`` in
    ``scatter_object_output_list[0]``."""
    ranks = _object_group("scatter_object_list", group)
    _check_root("scatter_object_list", "src", src, ranks)
    _check_list("scatter_object_list", "scatter_object_output_list", scatter_object_output_list)
    if not scatter_object_output_list:
        raise ValueError("For 'scatter_object_list', 'scatter_object_output_list' must hold at least 1 item, "
                         "but got 0")
    if jax.process_index() == src:
        _check_list("scatter_object_list", "scatter_object_input_list", scatter_object_input_list, len(ranks))
    sent = _gather_pickles(list(scatter_object_input_list) if jax.process_index() == src else None)[src]
    scatter_object_output_list[0] = sent[ranks.index(jax.process_index())]


_OBJECT_SEQ: dict[tuple[str, str, int, int], int] = {}
_LOCAL_OBJECTS: dict[str, str] = {}


def _object_key(side: str, group: str | None, src: int, dst: int, advance: bool = True) -> str:
    """The key of the next object message from ``src`` to ``dst``: each side (``"send"``, ``"recv"``) counts its
    own messages, so the n-th ``recv_object_list`` gets the n-th ``send_object_list``."""
    key = (side, _group(group), src, dst)
    number = _OBJECT_SEQ.get(key, 0)
    if advance:
        _OBJECT_SEQ[key] = number + 1
    return f"mindjax/objects/{_group(group)}/{src}->{dst}/{number}"


def _kv_client() -> Any:
    from jax._src import distributed as jax_distributed  # the client: the only handle on the KV store

    return jax_distributed.global_state.client


def send_object_list(object_list: list[Any], dst: int, group: str | None = None, device: Any = None) -> None:
    """Send the picklable items of ``object_list`` to rank ``dst`` (its ``recv_object_list`` receives them)."""
    ranks = _object_group("send_object_list", group)
    _check_root("send_object_list", "dst", dst, ranks)
    _check_list("send_object_list", "object_list", object_list)
    payload = json.dumps(list(object_list))  # JSON, never pickle
    key = _object_key("send", group, jax.process_index(), dst)
    client = _kv_client()
    if client is None:  # one process: it sends to itself
        _LOCAL_OBJECTS[key] = payload
    else:
        client.key_value_set(key, payload)


def recv_object_list(object_list: list[Any], src: int = 0, group: str | None = None, device: Any = None) -> int:
    """Receive into ``object_list`` (of the sent length) the items rank ``src`` sent with ``send_object_list``.

    Returns:
        0, as MindSpore.
    """
    ranks = _object_group("recv_object_list", group)
    _check_root("recv_object_list", "src", src, ranks)
    _check_list("recv_object_list", "object_list", object_list)
    client = _kv_client()
    key = _object_key("recv", group, src, jax.process_index(), advance=client is not None)
    if client is None:
        if key not in _LOCAL_OBJECTS:
            raise RuntimeError(f"For 'recv_object_list', nothing was sent from rank {src} (one process: its "
                               f"send_object_list must come first)")
        payload = _LOCAL_OBJECTS.pop(key)
        _object_key("recv", group, src, jax.process_index())
    else:
        payload = client.blocking_key_value_get(key, 600_000)
    received = json.loads(payload)
    if len(received) != len(object_list):
        raise ValueError(f"For 'recv_object_list', 'object_list' must have the length rank {src} sent, "
                         f"{len(received)}, but got {len(object_list)}")
    object_list[:] = received
    return 0


# -- collectives fused with a matmul (MindSpore's tensor-parallel kernels) --------------------------------------

def _fused_matmul_args(who: str, input: Any, x2: Any, group: Any, world_size: Any,  # noqa: A002
                       **must: tuple[Any, Any]) -> tuple[jax.Array, jax.Array]:
    for name, value in (("input", input), ("x2", x2)):
        if not isinstance(value, Tensor):
            raise TypeError(f"For '{who}', '{name}' must be a Tensor, but got {type(value).__name__}")
        if value.ndim != 2:
            raise ValueError(f"For '{who}', '{name}' must be 2-D, but got shape {tuple(value.shape)}")
    if input.dtype != x2.dtype:
        raise TypeError(f"For '{who}', 'x2' must have the dtype of 'input', {input.dtype}, but got {x2.dtype}")
    if not isinstance(group, str):
        raise TypeError(f"For '{who}', 'group' must be a str, but got {type(group).__name__}")
    size = get_world_size(group)
    if not isinstance(world_size, int) or isinstance(world_size, bool) or world_size != size:
        raise ValueError(f"For '{who}', 'world_size' must be the number of ranks of group {group!r}, {size}, but "
                         f"got {world_size!r}")
    for name, (value, supported) in must.items():
        if value != supported or type(value) is not type(supported):
            raise ValueError(f"For '{who}', only {name}={supported!r} is supported (as in MindSpore), but got "
                             f"{value!r}")
    return jnp.asarray(input), jnp.asarray(x2)


def all_gather_matmul(input: Tensor, x2: Tensor, group: str, world_size: int, *, bias: Any = None,  # noqa: A002
                      gather_index: int = 0, gather_output: bool = True, comm_turn: int = 0,
                      trans_input: bool = False, trans_x2: bool = False) -> tuple[Tensor, Tensor]:
    """The ranks' ``input`` gathered along dimension 0, times ``x2`` (``x2.T`` with ``trans_x2``).

    Arguments:
        input: this rank's ``(m, k)`` rows.
        x2: the ``(k, n)`` right matrix.
        group: the communication group.
        world_size: its number of ranks (checked).
        bias, gather_index, comm_turn, trans_input: only MindSpore's supported values (None, 0, 0, False).
        gather_output: whether to return the gathered ``input`` too.

    Returns:
        ``(output, gather_out)``: the ``(m * world_size, n)`` product and the ``(m * world_size, k)`` gathered
        input (an empty Tensor of shape ``(0,)`` when not ``gather_output``).
    """
    who = "all_gather_matmul"
    _fused_matmul_args(who, input, x2, group, world_size, bias=(bias, None), gather_index=(gather_index, 0),
                       comm_turn=(comm_turn, 0), trans_input=(trans_input, False))
    for name, value in (("gather_output", gather_output), ("trans_x2", trans_x2)):
        if not isinstance(value, bool):
            raise TypeError(f"For '{who}', '{name}' must be a bool, but got {type(value).__name__}")
    gathered, _ = _comm.all_gather_into_tensor(input, group)
    rows, right = jnp.asarray(gathered), jnp.asarray(x2)
    right = right.T if trans_x2 else right
    if rows.shape[1] != right.shape[0]:
        raise ValueError(f"For '{who}', 'x2' must have {rows.shape[1]} rows (the columns of 'input'), but got "
                         f"shape {tuple(x2.shape)}{' (transposed)' if trans_x2 else ''}")
    out = Tensor(jnp.matmul(rows, right))
    return out, (Tensor(rows) if gather_output else Tensor(jnp.zeros((0,), rows.dtype)))


def matmul_reduce_scatter(input: Tensor, x2: Tensor, group: str, world_size: int, *,  # noqa: A002
                          reduce_op: str = "sum", bias: Any = None, comm_turn: int = 0, trans_input: bool = False,
                          trans_x2: bool = False) -> Tensor:
    """``input @ x2`` (``x2.T`` with ``trans_x2``) summed over the ranks, rank ``i`` keeping row block ``i``.

    Arguments:
        input: this rank's ``(m, k)`` matrix, ``m`` a multiple of ``world_size``.
        x2: the ``(k, n)`` right matrix.
        group: the communication group.
        world_size: its number of ranks (checked).
        reduce_op, bias, comm_turn, trans_input: only MindSpore's supported values ("sum", None, 0, False).

    Returns:
        this rank's ``(m / world_size, n)`` rows of the sum.
    """
    who = "matmul_reduce_scatter"
    left, right = _fused_matmul_args(who, input, x2, group, world_size, reduce_op=(reduce_op, "sum"),
                                     bias=(bias, None), comm_turn=(comm_turn, 0), trans_input=(trans_input, False))
    if not isinstance(trans_x2, bool):
        raise TypeError(f"For '{who}', 'trans_x2' must be a bool, but got {type(trans_x2).__name__}")
    right = right.T if trans_x2 else right
    if left.shape[1] != right.shape[0]:
        raise ValueError(f"For '{who}', 'x2' must have {left.shape[1]} rows (the columns of 'input'), but got "
                         f"shape {tuple(x2.shape)}{' (transposed)' if trans_x2 else ''}")
    if left.shape[0] % world_size:
        raise ValueError(f"For '{who}', the rows of 'input' ({left.shape[0]}) must be a multiple of 'world_size' "
                         f"({world_size})")
    out, _ = _comm.reduce_scatter_tensor(Tensor(jnp.matmul(left, right)), "sum", group)
    return out
