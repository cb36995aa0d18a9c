"""Micro-batch wrappers of MindSpore's parallel training: ``GradAccumulationCell``,
``MicroBatchInterleaved`` and ``PipelineGradReducer``.

Each splits the batch (axis 0 of every input) into equal parts and runs the
network once per part, in order, inside one program: XLA schedules the parts
(and their collectives) as it sees fit, which is what MindSpore's interleaving
asks for, and the gradient of the combined output is the accumulated gradient.

Example:
    >>> net = nn.GradAccumulationCell(nn.WithLossCell(backbone, loss_fn), 4)   # doctest: +SKIP
    >>> Model(net, optimizer=opt).train(1, dataset)                          # doctest: +SKIP
"""
from __future__ import annotations

from typing import Any, Sequence

import jax
import jax.numpy as jnp

from mindjax.cells.cell import Cell

__all__ = ["GradAccumulationCell", "MicroBatchInterleaved", "PipelineGradReducer"]


def _check_count(who: str, arg: str, value: Any) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise TypeError(f"For '{who}', the argument '{arg}' must be integer, but got the type : "
                        f"{type(value).__name__}.")
    if value <= 0:
        raise ValueError(f"For '{who}', the argument '{arg}' must be large than 0, but got {value}.")
    return value


def _parts(who: str, inputs: tuple[Any, ...], count: int) -> list[tuple[Any, ...]]:
    """The inputs cut into ``count`` equal slices along axis 0 (non-array inputs go to every slice)."""
    sizes = {int(x.shape[0]) for x in inputs if getattr(x, "ndim", 0) >= 1}
    if len(sizes) > 1:
        raise ValueError(f"For '{who}', every input must have the same batch size (axis 0), got {sorted(sizes)}")
    if sizes and next(iter(sizes)) % count:
        raise ValueError(f"For '{who}', the batch size {next(iter(sizes))} must be divisible by {count}")
    step = next(iter(sizes)) // count if sizes else 0

    def part(x: Any, i: int) -> Any:
        if getattr(x, "ndim", 0) >= 1:
            return jax.lax.slice_in_dim(jnp.asarray(x), i * step, (i + 1) * step, axis=0)
        return x

    return [tuple(part(x, i) for x in inputs) for i in range(count)]


class GradAccumulationCell(Cell):
    """Gradient accumulation: the network runs on ``micro_size`` slices of the batch, one after another.

    The output is the mean of the slices' outputs, so the gradient a training
    step takes is the accumulated gradient of the batch, averaged, and the loss
    equals the unsplit loss for a mean-reduced loss. (MindSpore's Cell returns
    the sum and its training wrapper scales the gradient by ``1 / micro_size``:
    the update is the same.)

    Arguments:
        network: the Cell (usually the network with its loss).
        micro_size: the number of slices; the batch size must divide by it.
    """

    def __init__(self, network: Cell, micro_size: int) -> None:
        super().__init__(auto_prefix=False)
        if not isinstance(network, Cell):
            raise TypeError(f"For 'GradAccumulationCell', the argument 'network' must cell type, but got the "
                            f"type : {type(network).__name__}.")
        self.network = network
        self.micro_size = _check_count("GradAccumulationCell", "micro_size", micro_size)

    def construct(self, *inputs: Any) -> Any:
        outs = [self.network(*part) for part in _parts("GradAccumulationCell", inputs, self.micro_size)]
        return jax.tree_util.tree_map(lambda *xs: sum(xs[1:], xs[0]) / len(xs), *outs)


class MicroBatchInterleaved(Cell):
    """Runs the network on ``interleave_num`` slices of the batch and returns the sum of the outputs (as MindSpore).

    Arguments:
        network: the Cell; its output must be a Tensor.
        interleave_num: the number of slices; the batch size must divide by it.
    """

    def __init__(self, network: Cell, interleave_num: int = 2) -> None:
        super().__init__(auto_prefix=False)
        self.interleave_num = _check_count("MicroBatchInterleaved", "interleave_num", interleave_num)
        self.network = network

    def construct(self, *inputs: Any) -> Any:
        output = 0.0
        for part in _parts("MicroBatchInterleaved", inputs, self.interleave_num):
            output = output + self.network(*part)
        return output


class PipelineGradReducer(Cell):
    """The gradient reducer of a hand-written pipeline training step.

    ``PipelineCell`` gives the gradient of the whole batch directly (its stages
    exchange gradients inside the schedule), so this only divides by
    ``scale_sense``, as MindSpore's reducer does after accumulating.

    Arguments:
        parameters: the Parameters whose gradients come in (checked for count).
        scale_sense: the loss scale the gradients carry.
        opt_shard: accepted for MindSpore compatibility.
    """

    def __init__(self, parameters: Sequence[Any], scale_sense: float = 1.0, opt_shard: bool | None = None) -> None:
        super().__init__(auto_prefix=False)
        if not isinstance(scale_sense, (int, float)) or isinstance(scale_sense, bool):
            raise TypeError(f"For 'PipelineGradReducer', 'scale_sense' must be a number, got {scale_sense!r}")
        if scale_sense <= 0:
            raise ValueError(f"For 'PipelineGradReducer', 'scale_sense' must be positive, got {scale_sense!r}")
        self._count = len(list(parameters))
        self.scale_sense = float(scale_sense)
        del opt_shard

    def construct(self, grads: Sequence[Any]) -> tuple[Any, ...]:
        """The gradients divided by ``scale_sense``."""
        grads = tuple(grads)
        if len(grads) != self._count:
            raise ValueError(f"For 'PipelineGradReducer', expected {self._count} gradients (one per Parameter), "
                             f"got {len(grads)}")
        if self.scale_sense == 1.0:
            return grads
        return tuple(g / jnp.asarray(self.scale_sense, jnp.result_type(g)) for g in grads)
