"""User annotations for ``sharding_propagation``: sharded Primitives become layout constraints.

``ops.MatMul().shard(((1, 1), (1, 8)))`` records a strategy on the Primitive.
While the search traces the network, every Primitive held by a Cell of the
tree that carries a strategy constrains its array inputs (and outputs, with an
``out_strategy``) with ``with_sharding_constraint``; the constraints show up in
the jaxpr as fixed nodes that the search keeps, and they stay in the executed
program.

A tuple strategy gives split counts per dimension; they are matched to mesh
axes whose sizes multiply to the count, in mesh order, each axis used once per
tensor. A Layout strategy names its axes directly (duck-typed: anything with a
``to_partition_spec()`` or ``partition_spec`` attribute).
"""
from __future__ import annotations

import contextlib
import itertools
import math
from typing import Any, Iterator, Sequence

import jax
from jax.sharding import Mesh, NamedSharding, PartitionSpec
from mindjax.common.tensor import Tensor

__all__ = ["split_counts_to_spec", "primitive_constraints"]


def split_counts_to_spec(counts: Sequence[int], mesh: Mesh, where: str = "the strategy") -> PartitionSpec:
    """Turn split counts per dimension (``(2, 4)``) into a PartitionSpec on ``mesh``.

    Arguments:
        counts: how many pieces each dimension is cut into.
        mesh: the device mesh.
        where: how an error names the op.

    Returns:
        a PartitionSpec naming, per dimension, the mesh axes whose sizes multiply to its count.

    Raises:
        ValueError: when no unused mesh axes multiply to a count.
    """
    free = [(a, n) for a, n in mesh.shape.items() if n > 1]
    entries: list[Any] = []
    for dim, count in enumerate(counts):
        if count == 1:
            entries.append(None)
            continue
        pick = None
        for r in range(1, len(free) + 1):
            for combo in itertools.combinations(free, r):
                if math.prod(n for _, n in combo) == count:
                    pick = combo
                    break
            if pick:
                break
        if pick is None:
            raise ValueError(f"For {where}, dimension {dim} is split {count} ways, but no unused mesh "
                             f"axes of {dict(mesh.shape)} multiply to {count} (strategy {tuple(counts)})")
        free = [f for f in free if f not in pick]
        names = tuple(a for a, _ in pick)
        entries.append(names[0] if len(names) == 1 else names)
    return PartitionSpec(*entries)


def _layout_spec(item: Any) -> PartitionSpec | None:
    for attr in ("to_partition_spec", "partition_spec"):
        found = getattr(item, attr, None)
        if found is not None:
            spec = found() if callable(found) else found
            if isinstance(spec, PartitionSpec):
                return spec
    return None


def _specs(strategy: Sequence[Any], mesh: Mesh, where: str) -> list[PartitionSpec]:
    out = []
    for item in strategy:
        spec = _layout_spec(item)
        out.append(spec if spec is not None else split_counts_to_spec(item, mesh, where))
    return out


def _constrain(x: Any, spec: PartitionSpec, mesh: Mesh) -> Any:
    if isinstance(x, (jax.Array, Tensor)) or isinstance(x, jax.core.Tracer):
        if len(spec) <= x.ndim:
            return jax.lax.with_sharding_constraint(x, NamedSharding(mesh, spec))
    return x


_SUBCLASSES: dict[type, type] = {}


def _sharded_class(cls: type) -> type:
    found = _SUBCLASSES.get(cls)
    if found is None:
        def __call__(self: Any, *args: Any) -> Any:
            mesh, ins, outs = self.__dict__["_auto_constraints"]
            args = list(args)
            arrays = [k for k, a in enumerate(args) if hasattr(a, "shape") and hasattr(a, "dtype")]
            for k, spec in zip(arrays, ins):
                args[k] = _constrain(jax.numpy.asarray(args[k]), spec, mesh)
            # The parallel context's own strategy hook would constrain again on its mesh.
            call = getattr(cls.__call__, "__wrapped__", cls.__call__)
            out = call(self, *args)
            if outs:
                if isinstance(out, (tuple, list)):
                    out = type(out)(_constrain(o, s, mesh) for o, s in zip(out, outs))
                else:
                    out = _constrain(out, outs[0], mesh)
            return out
        found = _SUBCLASSES[cls] = type(cls.__name__, (cls,), {"__call__": __call__,
                                                               "__module__": cls.__module__})
    return found


@contextlib.contextmanager
def primitive_constraints(network: Any, mesh: Mesh) -> Iterator[int]:
    """While active, sharded Primitives of ``network``'s tree constrain their inputs.

    Yields:
        how many Primitives carry a strategy.
    """
    from mindjax.ops.primitives import Primitive

    swapped: list[tuple[Any, type]] = []
    try:
        if hasattr(network, "cells_and_names"):
            for path, cell in network.cells_and_names():
                for attr, value in list(cell.__dict__.items()):
                    if isinstance(value, Primitive) and value.in_strategy is not None \
                            and "_auto_constraints" not in value.__dict__:
                        where = f"'{value.name}' at '{path + '.' if path else ''}{attr}'"
                        ins = _specs(value.in_strategy, mesh, where)
                        outs = _specs(value.out_strategy, mesh, where) if value.out_strategy else []
                        value.__dict__["_auto_constraints"] = (mesh, ins, outs)
                        swapped.append((value, type(value)))
                        value.__class__ = _sharded_class(type(value))
        yield len(swapped)
    finally:
        for prim, cls in swapped:
            prim.__class__ = cls
            prim.__dict__.pop("_auto_constraints", None)
