"""Whole batches read at once from in-memory sources: the fast path of ``batch``.

``source.map(...).batch(n)`` reads, transforms and stacks ``n`` rows one at a
time in Python. When the source holds its data as arrays (``NumpySlicesDataset``,
``MnistDataset``, ``Cifar10Dataset``) and every ``map`` between it and the
``batch`` is a deterministic transform that works on a stack of samples
(``Rescale``, ``Normalize``, ``HWC2CHW``, ``TypeCast``, ``OneHot`` ...), a batch
is one fancy-indexed gather and one call per transform instead. The rows, their
order and their values are those of the row-by-row path; if the fast path
fails on a batch, that batch is made row by row, so errors still name the
column and the sample index.

A *batch reader* is a callable from an array of row indices (of the node's
epoch) to a :class:`~mindjax.dataset.rows.Row` of stacked columns.
"""
from __future__ import annotations

from typing import Any, Callable, Sequence

import grain
import numpy as np

from mindjax.dataset.rows import Row, column_value

__all__: list[str] = []

BatchReader = Callable[[np.ndarray], Row]


def gather_rows(offsets: np.ndarray, parts: Sequence[np.ndarray], positions: np.ndarray) -> np.ndarray:
    """Rows ``positions`` of the concatenation of ``parts`` (``offsets``: cumulative starts, then the total)."""
    which = np.searchsorted(offsets, positions, side="right") - 1
    first = int(which[0]) if len(which) else 0
    if len(which) == 0 or np.all(which == first):
        return np.asarray(parts[first][positions - int(offsets[first])])
    out = np.empty((len(positions),) + parts[0].shape[1:], dtype=parts[0].dtype)
    for k in np.unique(which):
        mask = which == k
        out[mask] = parts[int(k)][positions[mask] - int(offsets[k])]
    return out


class GatherRows:
    """Rows of a sampled source: its shuffle and shards per index, then the reader's gather.

    Arguments:
        sampled: the source's ``SampledMapDataset`` for this epoch.
        gather: ``gather(positions) -> tuple of stacked columns``.
    """

    def __init__(self, sampled: Any, gather: Callable[[np.ndarray], tuple[np.ndarray, ...]]) -> None:
        self.sampled, self.gather = sampled, gather

    def __call__(self, indices: np.ndarray) -> Row:
        positions = self.sampled.positions(indices)
        return Row(self.gather(positions), int(positions[0]) if len(positions) else None)


class MapRows:
    """A ``map`` of batchable transforms over another batch reader (mirrors ``_ApplyMap``)."""

    def __init__(self, inner: BatchReader, ops: list[Any], in_idx: list[int], n_out: int,
                 layout: list[tuple[bool, int]]) -> None:
        self.inner, self.ops, self.in_idx, self.n_out, self.layout = inner, ops, in_idx, n_out, layout

    def __call__(self, indices: np.ndarray) -> Row:
        row = self.inner(indices)
        args = tuple(row[i] for i in self.in_idx)
        for op in self.ops:
            result = op._apply_batch(*args)
            args = result if isinstance(result, tuple) else (result,)
        outs = [column_value(a) for a in args]
        if len(outs) != self.n_out or any(o.ndim == 0 or len(o) != len(indices) for o in outs):
            raise ValueError("the batched transforms did not give one stacked array per output column")
        return Row(tuple(outs[j] if from_out else row[j] for from_out, j in self.layout), row.index)


class SelectRows:
    """``project``'s column selection over another batch reader."""

    def __init__(self, inner: BatchReader, idx: list[int]) -> None:
        self.inner, self.idx = inner, idx

    def __call__(self, indices: np.ndarray) -> Row:
        row = self.inner(indices)
        return Row(tuple(row[i] for i in self.idx), row.index)


class BatchedMapDataset(grain.MapDataset):
    """Batch ``b`` is ``reader(rows b*size .. (b+1)*size)``; ``fallback[b]`` when that raises.

    Arguments:
        reader: the batch reader of the batched node.
        fallback: the same batches made row by row.
        rows: rows in the epoch.
        batch_size: rows per batch.
        drop_remainder: drop a last, short batch.
    """

    def __init__(self, reader: BatchReader, fallback: grain.MapDataset, rows: int, batch_size: int,
                 drop_remainder: bool) -> None:
        super().__init__([])
        self._reader, self._fallback = reader, fallback
        self._rows, self._batch = int(rows), int(batch_size)
        self._len = self._rows // self._batch if drop_remainder else -(-self._rows // self._batch)

    def __len__(self) -> int:
        return self._len

    def __getitem__(self, index: Any) -> Any:
        if isinstance(index, slice):
            return self.slice(index)
        b = int(index) % max(self._len, 1)
        start = b * self._batch
        try:
            return self._reader(np.arange(start, min(start + self._batch, self._rows), dtype=np.int64))
        except Exception:  # noqa: BLE001 - the row-by-row path raises the precise error, or succeeds
            return self._fallback[b]

    def __str__(self) -> str:
        return f"BatchedMapDataset(rows={self._rows}, batch_size={self._batch})"
