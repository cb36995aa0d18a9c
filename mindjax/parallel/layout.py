"""``ms.Layout``: a named device matrix and the tensor maps built from it.

``Layout((2, 4), ("dp", "mp"))`` names the axes of a device matrix laid
row-major over the ranks; calling it with one entry per tensor dimension
(``layout("dp", "None")``, ``layout(("dp", "mp"), "None")``) gives a copy
that also holds the tensor map. MindSpore numbers device-matrix axes from the
right in ``to_dict()["tensor_map"]`` (``dp`` is 1, ``mp`` 0, ``"None"`` -1);
MindJAX keeps that numbering so ``to_dict`` matches MindSpore exactly.

Example:
    >>> import mindjax as ms
    >>> layout = ms.Layout((2, 4), ("dp", "mp"))
    >>> layout("dp", "None").to_dict()["tensor_map"]
    (1, -1)
"""
from __future__ import annotations

import copy
from typing import Any, Sequence

import numpy as np
from jax.sharding import PartitionSpec

from mindjax.parallel import mesh as _mesh

__all__ = ["Layout"]


class Layout:
    """A device matrix with named axes; called with axis names it describes one tensor.

    Arguments:
        device_matrix: the device arrangement, e.g. ``(2, 4)``; its product
            must be the device number when it is used.
        alias_name: one distinct name per axis, e.g. ``("dp", "mp")``.
        rank_list: accepted for MindSpore compatibility; must be the ranks
            ``0 .. n-1`` in order (GSPMD places shards by mesh position).

    Raises:
        TypeError, ValueError: as MindSpore's ``Layout`` for malformed arguments.
    """

    _is_mindjax_layout = True

    def __init__(self, device_matrix: tuple[int, ...], alias_name: tuple[str, ...],
                 rank_list: list[int] | None = None) -> None:
        if not isinstance(device_matrix, tuple):
            raise TypeError(f"For 'Layout', 'device_matrix' must be a tuple, got {type(device_matrix).__name__}")
        if not isinstance(alias_name, tuple):
            raise TypeError(f"For 'Layout', 'alias_name' must be a tuple, got {type(alias_name).__name__}")
        if len(device_matrix) != len(alias_name):
            raise ValueError(f"For 'Layout', 'alias_name' must have one name per axis of 'device_matrix' "
                             f"{device_matrix}, got {alias_name}")
        for dim in device_matrix:
            if not isinstance(dim, int) or isinstance(dim, bool) or dim < 1:
                raise TypeError(f"For 'Layout', each element of 'device_matrix' must be a positive int, "
                                f"got {dim!r}")
        for name in alias_name:
            if not isinstance(name, str):
                raise TypeError(f"For 'Layout', each element of 'alias_name' must be a str, got {name!r}")
            if not name:
                raise ValueError("For 'Layout', an element of 'alias_name' can not be empty")
            if name == "None":
                raise ValueError("For 'Layout', an element of 'alias_name' can not be 'None': 'None' means "
                                 "no sharding")
        if len(set(alias_name)) != len(alias_name):
            raise ValueError(f"For 'Layout', each element of 'alias_name' {alias_name} must be different")
        count = int(np.prod(device_matrix))
        if rank_list is not None and list(rank_list) != list(range(count)):
            raise ValueError(f"For 'Layout', 'rank_list' other than the ranks 0..{count - 1} in order is not "
                             f"supported, got {rank_list!r}")
        self._device_shape = device_matrix
        self._alias_name = alias_name
        self._rank_list = list(range(count))
        self._tensor_map: tuple[Any, ...] | None = None
        self._names: tuple[tuple[str, ...], ...] | None = None

    def __call__(self, *tensor_map: str | tuple[str, ...]) -> "Layout":
        """A copy of this Layout describing one tensor: one axis name (or tuple, or "None") per dim."""
        used: list[str] = []
        numbers: list[Any] = []
        names: list[tuple[str, ...]] = []
        for entry in tensor_map:
            group = entry if isinstance(entry, tuple) else (entry,)
            nums, keep = [], []
            for name in group:
                if name == "None":
                    nums.append(-1)
                    continue
                if name not in self._alias_name:
                    raise ValueError(f"For 'Layout', the axis {name!r} is not found in {self._alias_name}")
                if name in used:
                    raise ValueError(f"For 'Layout', the axis {name!r} is used more than once in {tensor_map}")
                used.append(name)
                keep.append(name)
                nums.append(len(self._alias_name) - 1 - self._alias_name.index(name))
            numbers.append(tuple(nums) if isinstance(entry, tuple) else nums[0])
            names.append(tuple(keep))
        out = copy.copy(self)
        out._tensor_map = tuple(numbers)
        out._names = tuple(names)
        return out

    @property
    def device_matrix(self) -> tuple[int, ...]:
        """The device arrangement."""
        return self._device_shape

    @property
    def alias_name(self) -> tuple[str, ...]:
        """The axis names."""
        return self._alias_name

    @property
    def tensor_axes(self) -> tuple[tuple[str, ...], ...] | None:
        """Per tensor dimension, the axis names it is split over (``()`` = not split)."""
        return self._names

    def axis_size(self, name: str) -> int:
        """The size of the named axis."""
        return self._device_shape[self._alias_name.index(name)]

    def split_counts(self) -> tuple[int, ...]:
        """Per tensor dimension, how many pieces it is split into."""
        self._need_tensor_map("split_counts")
        return tuple(int(np.prod([self.axis_size(n) for n in group])) for group in self._names)

    def to_spec(self) -> PartitionSpec:
        """The ``PartitionSpec`` of this tensor over the devices' mesh axes.

        The axes are the global mesh's (:func:`mindjax.parallel.mesh.get_mesh`)
        when the device matrix is a grouping of them, else a reordered mesh's
        over the same devices; :func:`mindjax.parallel.mesh.named_sharding`
        gives the spec its mesh.

        Raises:
            ValueError: the device matrix does not use every device.
        """
        self._need_tensor_map("to_spec")
        total = _mesh.get_device_num()
        if int(np.prod(self._device_shape)) != total:
            raise ValueError(f"the Layout device matrix {self._device_shape} must multiply to the device "
                             f"number {total}")
        groups = dict(zip(self._alias_name, _mesh.device_matrix_axes(self._device_shape)))
        entries = []
        for dim_names in self._names:
            axes = tuple(a for n in dim_names for a in groups[n])
            entries.append(axes if len(axes) > 1 else (axes[0] if axes else None))
        return PartitionSpec(*entries)

    def to_dict(self) -> dict[str, Any]:
        """MindSpore's dictionary form (device_matrix, tensor_map, alias_name, ...)."""
        self._need_tensor_map("to_dict")
        return {"device_matrix": self._device_shape, "tensor_map": self._tensor_map,
                "interleaved_parallel": "interleaved_parallel" in self._alias_name,
                "alias_name": self._alias_name, "rank_list": list(self._rank_list)}

    def _need_tensor_map(self, who: str) -> None:
        if self._names is None:
            raise ValueError(f"For 'Layout.{who}', the Layout has no tensor map yet: call it with one axis "
                             f"name per tensor dimension, e.g. layout('dp', 'None')")

    def __repr__(self) -> str:
        if self._names is None:
            return f"Layout(device_matrix={self._device_shape}, alias_name={self._alias_name})"
        shown = tuple(g if len(g) != 1 else g[0] for g in (n or ("None",) for n in self._names))
        return f"Layout(device_matrix={self._device_shape}, alias_name={self._alias_name})({', '.join(map(repr, shown))})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Layout) and (self._device_shape, self._alias_name, self._names) == (
            other._device_shape, other._alias_name, other._names)

    def __hash__(self) -> int:
        return hash((self._device_shape, self._alias_name, self._names))


def _is_layout_sequence(items: Sequence[Any]) -> bool:
    return any(isinstance(i, Layout) for i in items)
