"""The cost model: compute, communication (alpha-beta per mesh axis) and memory.

Collectives are costed as ring algorithms over one mesh axis of ``n`` devices:
per device, an all-reduce of ``B`` bytes moves ``2 (n-1)/n B`` bytes in
``2 (n-1)`` steps; an all-gather producing ``B`` bytes, a reduce-scatter
consuming ``B`` bytes and an all-to-all of ``B`` bytes each move ``(n-1)/n B`` in
``n-1`` steps. A step costs ``alpha`` seconds and a byte ``beta`` seconds on that
axis. The same byte counts are what :mod:`mindjax.parallel.auto.hlo` reads back
from compiled programs, so plan and program can be compared.

Three rules follow what XLA was measured to emit here (jax 0.10, CPU), rather
than the ideal collective: a partial sum that must end up split is all-reduced
and then sliced (``reduce_scatter_as_all_reduce``); a value all-gathered to
feed a matmul is kept in its smaller layout and gathered again for the
backward pass (``regather_for_backward``); and the Parameters' gradient
all-reduces over one axis are combined into a single collective
(``combine_gradient_reductions``), so a Parameter's reduction costs its bytes
but no ring steps. Without the last rule the search paid the latency of one
all-reduce per Parameter, about 0.3 ms per step on the 4-layer GPT benchmark,
and traded Megatron's row-split layers for cheaper-looking gathers.

Training costs are forward plus backward: a redistribution in the forward pass
has its transpose in the backward pass (all-gather <-> reduce-scatter, slice
<-> all-gather, all-to-all <-> all-to-all, all-reduce <-> nothing), and an
operand that the work is split over but that is not itself split gets a
partial-sum gradient, all-reduced over those axes (data-parallel gradient
reduction is this case).

Example:
    >>> model = CostModel({"dp": 2, "mp": 4})
    >>> t, nbytes = model.collective("all_reduce", "mp", 1024)
    >>> nbytes
    1536.0
"""
from __future__ import annotations

import dataclasses
import functools
import math
from typing import Any

from mindjax.parallel.auto.rules import Spec

__all__ = ["CostModel"]


@dataclasses.dataclass
class CostModel:
    """Machine constants and the costs the search minimises.

    Arguments:
        mesh_sizes: ``{axis name: size}``.
        flops_per_second: compute rate of one device.
        alpha: seconds per collective step, one value or ``{axis: value}``.
        beta: seconds per byte moved per device, one value or ``{axis: value}``.
        optimizer_states: arrays the optimizer keeps per trainable Parameter
            (2 for Adam's moments, 1 for Momentum).
        memory_weight: seconds charged per byte of per-device memory; the search
            raises it until the plan fits the memory budget.
        reduce_scatter_as_all_reduce: cost a partial sum resharded to a split
            layout as an all-reduce (what XLA emits on CPU) instead of a reduce-scatter.
        regather_for_backward: a matmul operand gathered in the forward pass is
            gathered again in the backward pass.
        combine_gradient_reductions: the gradients' all-reduces over one axis are
            combined into one collective (XLA's all-reduce combiner does this), so
            each Parameter's reduction costs its bytes but no ring steps of its own.
    """

    mesh_sizes: dict[str, int]
    flops_per_second: float = 1e12
    alpha: Any = 2e-6
    beta: Any = 1e-10
    optimizer_states: int = 2
    memory_weight: float = 1e-16
    reduce_scatter_as_all_reduce: bool = True
    regather_for_backward: bool = True
    combine_gradient_reductions: bool = True

    def __hash__(self) -> int:
        return id(self)

    def _alpha(self, axis: str) -> float:
        return self.alpha[axis] if isinstance(self.alpha, dict) else self.alpha

    def _beta(self, axis: str) -> float:
        return self.beta[axis] if isinstance(self.beta, dict) else self.beta

    def collective(self, kind: str, axis: str, nbytes: float) -> tuple[float, float]:
        """Time and per-device bytes of one collective over ``axis``.

        Arguments:
            kind: ``all_reduce``, ``all_gather`` (``nbytes`` = result),
                ``reduce_scatter`` (``nbytes`` = operand) or ``all_to_all``.
            axis: the mesh axis.
            nbytes: the buffer size per device.

        Returns:
            ``(seconds, bytes moved per device)``.
        """
        n = self.mesh_sizes[axis]
        if n <= 1:
            return 0.0, 0.0
        frac = (n - 1) / n
        if kind == "all_reduce":
            moved, steps = 2 * frac * nbytes, 2 * (n - 1)
        else:
            moved, steps = frac * nbytes, n - 1
        return steps * self._alpha(axis) + moved * self._beta(axis), moved

    def local_bytes(self, spec: Spec, shape: tuple[int, ...], itemsize: int) -> float:
        """Bytes of one device's piece of a value with layout ``spec``."""
        pieces = math.prod(self.mesh_sizes[a] for names in spec.dims for a in names)
        return math.prod(shape) * itemsize / max(pieces, 1)

    @functools.lru_cache(maxsize=None)
    def reshard(self, src: Spec, dst: Spec, shape: tuple[int, ...], itemsize: int,
                with_grad: bool, into_matmul: bool = False) -> tuple[float, float]:
        """Cost of turning a value laid out as ``src`` into ``dst`` (and back for its gradient).

        Arguments:
            src, dst: the layouts.
            shape, itemsize: the value's global shape and element size.
            with_grad: the value needs a gradient (costs the backward pass too).
            into_matmul: the use is a matmul operand in a training step (with
                ``regather_for_backward``, gathers happen twice).

        Returns:
            ``(seconds, bytes moved per device)`` over forward and, when
            ``with_grad``, backward.
        """
        time = moved = 0.0
        local = self.local_bytes(src, shape, itemsize)
        for axis, n in self.mesh_sizes.items():
            if n <= 1:
                continue
            s, d = src.axis_dim(axis), dst.axis_dim(axis)
            steps: list[tuple[str, float]] = []
            if axis in src.partial:
                reduce = "all_reduce" if d is None or self.reduce_scatter_as_all_reduce else "reduce_scatter"
                steps.append((reduce, local))
                if with_grad and d is not None:
                    steps.append(("all_gather", local))
            elif s == d:
                continue
            elif d is None:
                steps.append(("all_gather", local * n))
                if into_matmul and self.regather_for_backward:
                    steps.append(("all_gather", local * n))
                local *= n
            elif s is None:
                if with_grad:
                    steps.append(("all_gather", local))
                local /= n
            else:
                steps.append(("all_to_all", local))
                if with_grad:
                    steps.append(("all_to_all", local))
            for kind, nbytes in steps:
                t, b = self.collective(kind, axis, nbytes)
                time += t
                moved += b
        return time, moved

    def gradient_reduce(self, axes: tuple[str, ...], local: float) -> tuple[float, float]:
        """All-reduce of a partial-sum gradient of ``local`` bytes over ``axes``.

        With ``combine_gradient_reductions`` only the bytes are charged: the
        steps of the one combined all-reduce per axis are shared by every
        Parameter and do not depend on the plan's choices.
        """
        time = moved = 0.0
        for axis in axes:
            t, b = self.collective("all_reduce", axis, local)
            time += b * self._beta(axis) if self.combine_gradient_reductions else t
            moved += b
        return time, moved
