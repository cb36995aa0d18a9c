"""Strategies to shardings: MindSpore's device-matrix rule on the global mesh.

A tuple strategy gives the split count of each tensor dimension. As in
MindSpore, an operator's strategies define its *device matrix*: one entry per
loop dimension of the operator (MatMul ``(i, k) x (k, j)`` has ``[i, k, j]``),
laid row-major over the ranks, with any leftover devices repeating the data
on the right. Each input dimension is split over the device-matrix dimension
it indexes; :func:`mindjax.parallel.mesh.device_matrix_axes` turns those into
mesh axes, giving one ``PartitionSpec`` per input. The axes are the global
mesh's, or a reordered mesh's over the same devices when the device matrix
fits no grouping of the global one (``(3, 2)`` on 6 devices);
:func:`mindjax.parallel.mesh.named_sharding` gives a spec its mesh. A
:class:`~mindjax.parallel.layout.Layout` names its axes directly.

Every check happens here, on shapes, before anything compiles.

Example:
    >>> specs = input_specs("MatMul", "fc1", ((2, 1), (1, 4)),
    ...                     [(8, 16), (16, 32)], {})         # doctest: +SKIP
    >>> specs                                                # doctest: +SKIP
    [PartitionSpec('d0', None), PartitionSpec(None, ('d1', 'd2'))]
"""
from __future__ import annotations

from typing import Any, Sequence

import numpy as np
from jax.sharding import PartitionSpec

from mindjax.parallel import mesh as _mesh
from mindjax.parallel.layout import Layout

__all__ = ["StrategyError", "input_specs", "tensor_spec", "splits_to_spec", "format_where"]

Shape = tuple[int, ...]

# Operators whose strategies share one device matrix, by rule (others: one per input).
_BROADCAST_OPS = {"Add", "Sub", "Mul", "Div", "RealDiv", "Pow", "Maximum", "Minimum", "Equal",
                  "Greater", "Less", "Select", "FloorDiv", "Mod", "SquaredDifference"}
_MATMUL_OPS = {"MatMul", "BatchMatMul"}


class StrategyError(ValueError):
    """A strategy that does not fit the operator's inputs or the devices."""


def format_where(op: str, path: str | None) -> str:
    """``"For 'MatMul' at 'fc1'"`` (or without the path)."""
    return f"For '{op}' at '{path}'" if path else f"For '{op}'"


def _fail(op: str, path: str | None, arg: str, strategy: Any, shapes: Sequence[Shape], why: str) -> None:
    shown = tuple(s for s in strategy) if isinstance(strategy, (tuple, list)) else strategy
    raise StrategyError(f"{format_where(op, path)}, {arg} {shown} does not fit the input shapes "
                        f"{tuple(tuple(s) for s in shapes)} on {_mesh.get_device_num()} devices: {why}")


def splits_to_spec(splits: Sequence[int], positions: Sequence[int | None],
                   device_matrix: Sequence[int]) -> PartitionSpec:
    """The spec of a tensor whose dim ``d`` is split ``splits[d]`` ways over device-matrix dim ``positions[d]``."""
    groups = _mesh.device_matrix_axes(device_matrix)
    entries: list[Any] = []
    for split, pos in zip(splits, positions):
        axes = groups[pos] if (pos is not None and split > 1) else ()
        entries.append(axes if len(axes) > 1 else (axes[0] if axes else None))
    return PartitionSpec(*entries)


def _check_rank_and_divisible(op: str, path: str | None, arg: str, strategy: Sequence[Any],
                              shapes: Sequence[Shape]) -> None:
    if len(strategy) != len(shapes):
        _fail(op, path, arg, strategy, shapes, f"it describes {len(strategy)} input(s) but the op "
                                               f"got {len(shapes)}")
    for i in range(len(strategy)):
        _check_one(op, path, arg, strategy, shapes, i)


def _check_one(op: str, path: str | None, arg: str, strategy: Sequence[Any], shapes: Sequence[Shape],
               i: int) -> None:
    splits, shape = strategy[i], shapes[i]
    if isinstance(splits, Layout):
        if splits.tensor_axes is None:
            _fail(op, path, arg, strategy, shapes, f"the Layout of input {i} has no tensor map")
        splits = splits.split_counts()
    if len(splits) != len(shape):
        _fail(op, path, arg, strategy, shapes, f"strategy {tuple(splits)} of input {i} has "
                                               f"{len(splits)} dimension(s) but the input has shape "
                                               f"{tuple(shape)} (rank {len(shape)})")
    for d, (s, n) in enumerate(zip(splits, shape)):
        if n % s:
            _fail(op, path, arg, strategy, shapes, f"dimension {d} of input {i} (shape "
                                                   f"{tuple(shape)}) has size {n}, not divisible by {s}")


def _lay(op: str, path: str | None, arg: str, strategy: Any, shapes: Sequence[Shape],
         splits: Sequence[int], positions: Sequence[int | None], dev: Sequence[int]) -> PartitionSpec:
    try:
        return splits_to_spec(splits, positions, dev)
    except ValueError as exc:
        _fail(op, path, arg, strategy, shapes, str(exc))
    raise AssertionError("unreachable")


def _matmul_specs(op: str, path: str | None, strategy: Any, shapes: Sequence[Shape],
                  attrs: dict[str, Any]) -> list[PartitionSpec]:
    a, b = (tuple(s) for s in strategy[:2])
    if len(a) < 2 or len(b) < 2:
        _fail(op, path, "in_strategy", strategy, shapes, "both inputs need at least 2 dimensions")
    ta = bool(attrs.get("transpose_a", attrs.get("adj_x", False)))
    tb = bool(attrs.get("transpose_b", attrs.get("adj_y", False)))
    i, k = (a[-1], a[-2]) if ta else (a[-2], a[-1])
    k2, j = (b[-1], b[-2]) if tb else (b[-2], b[-1])
    if k != k2:
        _fail(op, path, "in_strategy", strategy, shapes, f"the contracted dimension is split {k} ways in "
                                                         f"input 0 but {k2} ways in input 1")
    nb = max(len(a), len(b)) - 2
    batch = [1] * nb
    for splits in (a, b):
        for d, s in enumerate(splits[:-2]):
            pos = nb - (len(splits) - 2) + d
            if s > 1 and batch[pos] not in (1, s):
                _fail(op, path, "in_strategy", strategy, shapes, f"batch dimension {d} is split "
                                                                 f"inconsistently: {batch[pos]} and {s}")
            batch[pos] = max(batch[pos], s)
    dev = batch + [i, k, j]
    specs = []
    for splits, (rows, cols), trans in ((a, (nb, nb + 1), ta), (b, (nb + 1, nb + 2), tb)):
        lead = list(range(nb - (len(splits) - 2), nb))
        last = [cols, rows] if trans else [rows, cols]
        specs.append(_lay(op, path, "in_strategy", strategy, shapes, splits, lead + last, dev))
    return specs


def _broadcast_specs(op: str, path: str | None, strategy: Any,
                     shapes: Sequence[Shape]) -> list[PartitionSpec]:
    rank = max(len(s) for s in strategy)
    dev = [1] * rank
    for splits, shape in zip(strategy, shapes):
        for d, s in enumerate(splits):
            pos = rank - len(splits) + d
            if s > 1 and dev[pos] not in (1, s):
                _fail(op, path, "in_strategy", strategy, shapes, f"output dimension {pos} is split "
                                                                 f"{dev[pos]} ways by one input and {s} "
                                                                 f"by another")
            dev[pos] = max(dev[pos], s)
    for splits, shape in zip(strategy, shapes):
        for d, s in enumerate(splits):
            pos = rank - len(splits) + d
            if s != dev[pos] and shape[d] != 1:
                _fail(op, path, "in_strategy", strategy, shapes, f"output dimension {pos} is split "
                                                                 f"{dev[pos]} ways but input of shape "
                                                                 f"{tuple(shape)} splits it {s} ways; "
                                                                 f"inputs must agree")
    return [_lay(op, path, "in_strategy", strategy, shapes, splits,
                 list(range(rank - len(splits), rank)), dev) for splits in strategy]


def _bias_add_specs(op: str, path: str | None, strategy: Any,
                    shapes: Sequence[Shape]) -> list[PartitionSpec]:
    x, bias = (tuple(s) for s in strategy)
    if len(x) < 2 or len(bias) != 1 or bias[0] != x[1]:
        _fail(op, path, "in_strategy", strategy, shapes, "the bias must be split as the channel "
                                                         "dimension (1) of the input")
    return [_lay(op, path, "in_strategy", strategy, shapes, x, list(range(len(x))), x),
            _lay(op, path, "in_strategy", strategy, shapes, bias, [1], x)]


def tensor_spec(op: str, path: str | None, arg: str, strategy: Any, shapes: Sequence[Shape],
                index: int) -> PartitionSpec:
    """The spec of one tensor on its own device matrix (its strategy), or from its Layout."""
    _check_one(op, path, arg, strategy, shapes, index)
    item = strategy[index]
    if isinstance(item, Layout):
        try:
            return item.to_spec()
        except ValueError as exc:
            _fail(op, path, arg, strategy, shapes, str(exc))
    splits = tuple(item)
    return _lay(op, path, arg, strategy, shapes, splits, list(range(len(splits))), splits)


def input_specs(op: str, path: str | None, strategy: Sequence[Any], shapes: Sequence[Shape],
                attrs: dict[str, Any], arg: str = "in_strategy", kind: str | None = None) -> list[PartitionSpec]:
    """Check ``strategy`` against ``shapes`` and the devices; return one spec per tensor.

    Arguments:
        op: the operator's name (``"MatMul"``), for the rule and for errors.
        path: the Cell path the operator runs in, for errors.
        strategy: one tuple of split counts (or one Layout) per tensor.
        shapes: the tensors' shapes.
        attrs: the operator's attributes (``transpose_b`` ...).
        arg: the argument's name in errors (``in_strategy`` / ``out_strategy``).
        kind: the operator's class name, choosing the rule (default ``op``).

    Returns:
        a ``PartitionSpec`` per tensor (turn it into a sharding with
        :func:`mindjax.parallel.mesh.named_sharding`).

    Raises:
        StrategyError (a ValueError): wrong rank, a split that does not divide
            its dimension, inconsistent splits, or a device matrix that does
            not divide the device number. The message names the op, its path,
            the strategy and the shapes.
    """
    strategy = tuple(strategy)
    kind = kind or op
    _check_rank_and_divisible(op, path, arg, strategy, shapes)
    if arg == "in_strategy" and not any(isinstance(s, Layout) for s in strategy):
        product = max(int(np.prod(s)) if len(s) else 1 for s in strategy)
        total = _mesh.get_device_num()
        if kind not in _MATMUL_OPS and (product > total or total % product):
            _fail(op, path, arg, strategy, shapes, f"the splits multiply to {product}, which must "
                                                   f"divide the device number {total}")
        if kind in _MATMUL_OPS:
            return _matmul_specs(op, path, strategy, shapes, attrs)
        if kind in _BROADCAST_OPS and len(strategy) > 1:
            return _broadcast_specs(op, path, strategy, shapes)
        if kind == "BiasAdd":
            return _bias_add_specs(op, path, strategy, shapes)
    return [tensor_spec(op, path, arg, strategy, shapes, i) for i in range(len(strategy))]
