"""``mindspore.mint.distributed``: the PyTorch-style process-group API over ``mindjax.communication``.

Process groups are MindJAX's communication groups (``group=None`` is the world group); the
collectives are those of :mod:`mindjax.communication.comm_func` (per device inside a per-device
run, the identity with one rank), with PyTorch's calling convention: the result is written into
the given output Tensor. They complete before they return; with ``async_op=True`` the returned
handle's ``wait()`` has nothing left to wait for.

The list and rooted variants (``all_gather``, ``gather``, ``scatter``, ``reduce``,
``reduce_scatter``, ``all_to_all``, ``all_to_all_single``, ``*_uneven``) are built on the same
collectives. One program serves every device of a per-device run, so every rank's tensors have
one shape: the uneven variants take equal splits (``all_gather_into_tensor_uneven`` also takes
the first ``output_split_sizes[r]`` rows of each rank), and a rooted result (``reduce``,
``gather``) lands on its root while the other ranks keep their tensors.

Point to point (``send``/``recv``/``isend``/``irecv``/``batch_isend_irecv``) runs inside a per-device
run, where every device runs both sides: a ``send`` posts its tensor, and the ``recv`` of the same
tag and group that follows it moves the tensor from the sender to the destination (the other
ranks keep theirs). Peers are world ranks (in each shifted copy of a group, its counterpart), or
traced ranks computed from ``get_rank()`` (``(rank + 1) % size``: a ring). An ``irecv`` before its
``isend`` completes at ``wait()``; ``batch_isend_irecv`` posts its sends first.

The functions are those of ``mindspore.ops`` (:mod:`mindjax.ops.function.comm_func`, one
implementation), with ``gather`` and ``scatter`` under their mint names (in ``ops`` those names are
the tensor ops).
"""
from mindjax.ops.function.comm_func import (P2POp, all_gather, all_gather_into_tensor,
                                            all_gather_into_tensor_uneven, all_gather_object, all_reduce,
                                            all_to_all, all_to_all_single, barrier, batch_isend_irecv, broadcast,
                                            broadcast_object_list, destroy_process_group, gather, gather_object,
                                            get_backend, get_global_rank, get_group_rank, get_process_group_ranks,
                                            get_rank, get_world_size, init_process_group, irecv, is_available,
                                            is_initialized, isend, new_group, recv, recv_object_list, reduce,
                                            reduce_scatter, reduce_scatter_tensor, reduce_scatter_tensor_uneven,
                                            scatter, scatter_object_list, send, send_object_list)

__all__ = ["is_available", "is_initialized", "init_process_group", "destroy_process_group", "new_group",
           "get_backend", "get_rank", "get_world_size", "get_global_rank", "get_group_rank",
           "get_process_group_ranks", "barrier", "all_reduce", "all_gather_into_tensor",
           "reduce_scatter_tensor", "broadcast", "all_gather", "all_gather_into_tensor_uneven",
           "reduce_scatter", "reduce_scatter_tensor_uneven", "reduce", "gather", "scatter", "all_to_all",
           "all_to_all_single", "send", "recv", "isend", "irecv", "P2POp", "batch_isend_irecv",
           "all_gather_object", "broadcast_object_list", "gather_object", "scatter_object_list",
           "send_object_list", "recv_object_list"]
