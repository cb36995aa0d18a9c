"""``nn.DistributedGradReducer`` for functional data-parallel steps on GSPMD.

In MindSpore each device differentiates the loss of its own slice of the
batch, and the reducer all-reduces the gradients (and divides by the device
count when ``mean``). In MindJAX the step is one sharded program over the
global batch: the gradient of a mean-reduced loss already *is* the mean over
the devices (XLA inserts the all-reduce), so the reducer returns it as it is
when ``mean`` is true, and multiplies by ``degree`` when it is false, giving
MindSpore's sum of per-device gradients.

Example:
    >>> grad_reducer = DistributedGradReducer(optimizer.parameters)   # doctest: +SKIP
    >>> grads = grad_reducer(grads)                                    # doctest: +SKIP
"""
from __future__ import annotations

from typing import Any, Sequence

import jax
import jax.numpy as jnp

from mindjax import context
from mindjax.cells.cell import Cell
from mindjax.communication import per_device as _frames

__all__ = ["DistributedGradReducer", "device_reduction"]


class DistributedGradReducer(Cell):
    """The data-parallel gradient reduction of a hand-written training step.

    Arguments:
        parameters: the Parameters whose gradients come in (checked for count).
        mean: divide the all-reduced sum by ``degree``; default: the context's
            ``gradients_mean``.
        degree: the number of devices summed over; default: the device
            number of the parallel context (1 in ``STAND_ALONE``).
        fusion_type, group: accepted for MindSpore compatibility (XLA fuses
            the all-reduces itself; only the world group exists).

    Returns (of a call):
        the gradients as MindSpore's reducer returns them, for a mean-reduced loss.

    Raises:
        TypeError, ValueError: bad arguments; at a call, a gradient count that
            differs from the Parameter count.
    """

    def __init__(self, parameters: Sequence[Any], mean: bool | None = None, degree: int | None = None,
                 fusion_type: int = 1, group: str = "hccl_world_group") -> None:
        super().__init__(auto_prefix=False)
        if mean is not None and not isinstance(mean, bool):
            raise TypeError(f"For 'DistributedGradReducer', 'mean' must be a bool or None, got {mean!r}")
        if degree is not None and (not isinstance(degree, int) or isinstance(degree, bool) or degree < 1):
            raise ValueError(f"For 'DistributedGradReducer', 'degree' must be a positive int, got {degree!r}")
        self._count = len(list(parameters))
        self._mean = mean
        self._degree = degree

    def _resolved(self) -> tuple[bool, int]:
        from mindjax.parallel import mesh as _mesh  # reads the context at call time, like MindSpore

        mean = context._PARALLEL["gradients_mean"] if self._mean is None else self._mean
        if self._degree is not None:
            return mean, self._degree
        standalone = context._PARALLEL["parallel_mode"] == "stand_alone"
        return mean, 1 if standalone else _mesh.get_device_num()

    def construct(self, grads: Sequence[Any]) -> tuple[Any, ...]:
        """Return the reduced gradients, one per Parameter."""
        grads = tuple(grads)
        if len(grads) != self._count:
            raise ValueError(f"For 'DistributedGradReducer', expected {self._count} gradients (one per "
                             f"Parameter), got {len(grads)}")
        mean, degree = self._resolved()
        return device_reduction(grads, mean, degree)


def device_reduction(grads: tuple[Any, ...], mean: bool, degree: int) -> tuple[Any, ...]:
    """MindSpore's all-reduced gradients from the gradient of the global batch's mean loss.

    The sharded program's gradient already is the mean over the ``degree``
    devices; MindSpore's sum (``mean=False``) is that times ``degree``. In a
    per-device run (a network holding collectives, see :mod:`.per_device`)
    each device has its own gradients, and they are all-reduced as MindSpore
    does: summed over the devices, then divided by ``degree`` for the mean.
    """
    frame = _frames.current_frame()
    if frame is not None and frame.size > 1:
        def all_reduce(g: Any) -> Any:
            total = jax.lax.psum(g, frame.axis_names)
            return (total / jnp.asarray(degree, jnp.result_type(g))).astype(g.dtype) if mean else total
        return tuple(jax.tree_util.tree_map(all_reduce, g) for g in grads)
    if mean or degree == 1:
        return grads
    return tuple(jax.tree_util.tree_map(lambda g: g * jnp.asarray(degree, jnp.result_type(g)), g) for g in grads)
