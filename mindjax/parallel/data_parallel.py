"""Data parallel: the batch split over every device, the state laid out per Parameter.

In ``DATA_PARALLEL`` the parameters are replicated and each batch is split
along its first dimension over all devices; the gradient mean is then part of
the sharded program (GSPMD inserts the all-reduce, XLA combines them). Without
``gradients_mean`` (MindSpore's default) a training step takes the sum over
the devices instead, as MindSpore's ``DistributedGradReducer`` does. In the
semi-auto and auto modes the batch is split the same way unless
``dataset_strategy`` gives a strategy per input or ``full_batch`` is set, and
each Parameter keeps the sharding its ``parameter_plan`` gave it.

With several processes each one passes its own part of the batch (MindSpore's
``full_batch=False``); :func:`shard_batch` assembles the global array.

Example:
    >>> import mindjax as ms
    >>> ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.DATA_PARALLEL)
    >>> x, y = ms.parallel.shard_batch((x, y))             # doctest: +SKIP
"""
from __future__ import annotations

import warnings
from typing import Any, Sequence

import jax
import numpy as np
from jax.sharding import NamedSharding

from mindjax import context
from mindjax.common.upcalls import register_upcall
from mindjax.common.variable import Variable
from mindjax.communication import per_device as _frames
from mindjax.parallel import mesh as _mesh
from mindjax.parallel.layout import Layout
from mindjax.parallel.shard import place
from mindjax.parallel.strategy import tensor_spec

__all__ = ["parallel_active", "batch_sharding_for", "shard_batch", "state_sharding", "constrain_batch",
           "state_shardings", "configure_train_cell", "place_state"]


def parallel_active() -> bool:
    """Whether a parallel mode other than ``STAND_ALONE`` is set."""
    return context._PARALLEL["parallel_mode"] != "stand_alone"


def batch_sharding_for(shape: Sequence[int], index: int = 0, dim: int = 0, who: str = "Model.train") -> NamedSharding:
    """The sharding of input ``index`` of a batch (``dim`` is its batch dimension).

    Arguments:
        shape: the global shape of the input.
        index: which input of the batch (``dataset_strategy`` tuples are per input).
        dim: the batch dimension (1 for a stacked sink block).
        who: the caller, for errors.

    Raises:
        ValueError: the batch dimension does not divide over the devices.
    """
    shape = tuple(shape)
    strategy = context._PARALLEL["dataset_strategy"]
    # A per-input strategy wins over full_batch, as in MindSpore (it shards the dataset itself).
    if isinstance(strategy, (tuple, list)):
        if index >= len(strategy):
            raise ValueError(f"For '{who}', 'dataset_strategy' describes {len(strategy)} input(s) but the "
                             f"batch has more (input {index} of shape {shape})")
        item = strategy[index]
        if isinstance(item, Layout):
            if dim:  # a sink block's leading step axis is not split
                item = Layout(item.device_matrix, item.alias_name)("None", *[
                    names if len(names) > 1 else (names[0] if names else "None") for names in item.tensor_axes])
        else:
            item = (1,) * dim + tuple(item)
        spec = tensor_spec("dataset_strategy", None, "dataset_strategy", (item,), [shape], 0)
        return _mesh.named_sharding(spec)
    if context._PARALLEL["full_batch"] and context._PARALLEL["parallel_mode"] != "data_parallel":
        return _mesh.replicated()
    if len(shape) <= dim:
        return _mesh.replicated()
    devices = _mesh.get_device_num()
    if shape[dim] % devices:
        raise ValueError(f"For '{who}', in {context._PARALLEL['parallel_mode']} the batch dimension of input "
                         f"{index} (shape {shape}) must be divisible by the {devices} devices")
    return _mesh.batch_sharding(len(shape), dim)


def shard_batch(batch: Sequence[Any], dim: int = 0, who: str = "Model.train") -> tuple[jax.Array, ...]:
    """The batch as global arrays split over the devices.

    With one process the arrays are the whole batch. With several, each
    process passes its own part (the global batch is the parts in rank
    order) unless ``full_batch`` is set, when every process passes the same
    whole batch.

    Arguments:
        batch: arrays (numpy or jax), one per input.
        dim: the batch dimension.
        who: the caller, for errors.

    Returns:
        a tuple of ``jax.Array``s sharded by :func:`batch_sharding_for`.
    """
    out = []
    multi = jax.process_count() > 1
    local_parts = multi and not context._PARALLEL["full_batch"]
    for i, x in enumerate(batch):
        if isinstance(x, jax.Array) and not x.is_fully_addressable:
            out.append(x)
            continue
        host = x if isinstance(x, jax.Array) and not multi else np.asarray(x)
        shape = list(np.shape(host))
        if local_parts and len(shape) > dim:
            shape[dim] *= jax.process_count()
        sharding = batch_sharding_for(shape, i, dim, who)
        if local_parts:
            out.append(jax.make_array_from_process_local_data(sharding, host, tuple(shape)))
        else:
            out.append(place(host, sharding))
    return tuple(out)


def constrain_batch(batch: Sequence[Any], dim: int = 0) -> tuple[Any, ...]:
    """Inside a trace: keep each input split as :func:`batch_sharding_for` says."""
    return tuple(jax.lax.with_sharding_constraint(x, batch_sharding_for(x.shape, i, dim))
                 if hasattr(x, "shape") else x for i, x in enumerate(batch))


def state_sharding(var: Variable) -> NamedSharding:
    """A state Variable's sharding: its ``parameter_plan`` sharding, else replicated.

    An optimizer state follows the Parameter it was cloned from (MindSpore lays
    a state out as its weight), also when the weight got its layout later.
    """
    followed = getattr(var, "_followed_layout", None)
    source = followed() if followed is not None else None
    if source is not None:
        var = source
    sharding = getattr(var, "sharding", None) if hasattr(var, "__dict__") else None
    if isinstance(sharding, NamedSharding) and _mesh.is_device_mesh(sharding.mesh):
        return sharding
    return _mesh.replicated()


def state_shardings(cell: Any, variables: Sequence[Variable]) -> list[NamedSharding]:
    """The sharding of each state Variable of a training Cell.

    Parameters keep their ``parameter_plan`` sharding (replicated without
    one); with ``enable_parallel_optimizer`` the optimizer's state is split
    over the data-parallel devices (see :mod:`.optimizer_parallel`).
    """
    from mindjax.parallel import optimizer_parallel as _opt

    shardings = [state_sharding(v) for v in variables]
    if _opt.optimizer_parallel_active():
        ids = _opt.optimizer_state_ids(cell)
        for i, var in enumerate(variables):
            raw = var._raw
            if id(var) in ids and getattr(raw, "ndim", 0) >= 1:
                shardings[i] = _opt.zero_sharding(raw.shape, shardings[i])
    return shardings


def configure_train_cell(cell: Any) -> None:
    """Prepare a training Cell for the parallel context (ZeRO-2 splits its gradients)."""
    from mindjax.parallel import optimizer_parallel as _opt

    if not (_opt.optimizer_parallel_active() and _opt.optimizer_level() == "level2"):
        return
    weights = getattr(cell, "weights", None)
    if weights is None or not hasattr(cell, "grad_reducer"):
        return
    shardings = [_opt.zero_sharding(tuple(w._raw.shape), state_sharding(w)) for w in weights]
    cell.__dict__["grad_reducer"] = _opt.sharded_grad_reducer(list(weights), shardings)


def place_state(variables: Sequence[Variable], shardings: Sequence[NamedSharding]) -> list[Any]:
    """The Variables' values, each as a global array with its sharding (moved only when needed)."""
    return [place(v._value, s) for v, s in zip(variables, shardings)]


def _layout_training_batch(inputs: tuple[Any, ...]) -> tuple[Any, ...]:
    """Split a training step's inputs over the devices in the parallel modes.

    ``TrainOneStepCell`` calls this, so a step called directly (not only
    through ``Model``) is data parallel; in STAND_ALONE the inputs pass through.
    """
    if context._PARALLEL["parallel_mode"] == "stand_alone" or jax.process_count() > 1:
        return inputs
    if _frames.current_frame() is not None:  # a per-device run: the inputs are this device's slice
        return inputs
    if any(isinstance(x, jax.Array) and x.ndim == 0 for x in inputs):
        return inputs
    return constrain_batch(inputs)


def reduce_training_gradients(grads: tuple[Any, ...]) -> tuple[Any, ...]:
    """``TrainOneStepCell``'s gradient reduction in ``DATA_PARALLEL``/``HYBRID_PARALLEL`` (as MindSpore's
    ``DistributedGradReducer`` there): the mean over the devices with ``gradients_mean``, else their sum.

    The sum is MindSpore's for a loss that is a mean over the batch (each device's
    loss is the mean of its slice); with a summed loss the sharded program's
    gradient is already MindSpore's sum and ``gradients_mean=True`` should be used.
    """
    from mindjax.parallel.grad_reducer import device_reduction

    if context._PARALLEL["parallel_mode"] not in ("data_parallel", "hybrid_parallel"):
        return grads
    mean, degree = bool(context._PARALLEL["gradients_mean"]), _mesh.get_device_num()
    if not mean and degree > 1 and not _SUM_WARNED[0]:
        _SUM_WARNED[0] = True
        warnings.warn(f"{context._PARALLEL['parallel_mode'].upper()} with gradients_mean=False (MindSpore's "
                      f"default): the gradients are summed over the {degree} devices, as MindSpore does; set "
                      "gradients_mean=True for their mean (training equal to one device on the global batch)",
                      UserWarning, stacklevel=2)
    return device_reduction(grads, mean, degree)


_SUM_WARNED = [False]


register_upcall("batch_layout", _layout_training_batch)
register_upcall("grad_reduction", reduce_training_gradients)
