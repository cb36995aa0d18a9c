"""``padded_batch`` and ``bucket_batch_by_length``: batches of rows whose shapes differ, padded.

``pad_info`` maps a column to ``(shape, pad_value)``: ``shape`` None (or a None
dimension) pads to the longest in the batch (to the bucket boundary - 1 with
``pad_to_bucket_boundary``); columns not in ``pad_info`` pad to the longest with
0, as in MindSpore. ``bucket_batch_by_length`` with ``pad_info=None`` pads nothing.
"""
from __future__ import annotations

from typing import Any, Callable, Sequence

import grain.python as grain
import numpy as np

from mindjax.dataset.dataset import Dataset
from mindjax.dataset.rows import ArgTypeError, DataError, Row

__all__ = ["pad_batch", "check_pad_info", "BucketBatchNode", "PadBatch"]


def check_pad_info(pad_info: Any, columns: list[str], who: str) -> dict[str, tuple[Any, Any]] | None:
    """``pad_info`` checked: a dict of column -> (shape list/tuple or None, pad value or None)."""
    if pad_info is None:
        return None
    if not isinstance(pad_info, dict):
        raise ArgTypeError(f"For '{who}', 'pad_info' must be a dict, got {type(pad_info).__name__}")
    for name, value in pad_info.items():
        if name not in columns:
            raise ValueError(f"For '{who}', pad_info column '{name}' is not in the dataset's columns {columns}")
        if not isinstance(value, tuple) or len(value) != 2:
            raise ArgTypeError(f"For '{who}', pad_info['{name}'] must be a (shape, pad_value) tuple, got {value!r}")
        shape = value[0]
        if shape is not None and (not isinstance(shape, (list, tuple)) or not all(
                d is None or (isinstance(d, int) and not isinstance(d, bool) and d > 0) for d in shape)):
            raise ValueError(f"For '{who}', the shape in pad_info['{name}'] must be a list of positive int or "
                             f"None, got {shape!r}")
    return pad_info


def pad_batch(name: str, values: list[Any], shape: Any, pad_value: Any, who: str,
              boundary: int | None = None) -> np.ndarray:
    """Stack ``values`` padded at the end of each dimension to ``shape`` (None: the batch's longest)."""
    arrays = [np.asarray(v) for v in values]
    rank = arrays[0].ndim
    if any(a.ndim != rank for a in arrays):
        raise DataError(f"For '{who}', column '{name}' has rows of ranks {sorted({a.ndim for a in arrays})}; "
                        "padding needs one rank")
    longest = [max(a.shape[d] for a in arrays) for d in range(rank)]
    if boundary is not None:
        longest = [boundary - 1] * rank
    if shape is None:
        target = longest
    else:
        if len(shape) != rank:
            raise DataError(f"For '{who}', pad_info shape {list(shape)} of column '{name}' has rank {len(shape)}, "
                            f"the rows have rank {rank}")
        target = [longest[d] if s is None else s for d, s in enumerate(shape)]
    for a in arrays:
        if any(a.shape[d] > target[d] for d in range(rank)):
            raise DataError(f"For '{who}', a row of column '{name}' has shape {a.shape}, larger than the padded "
                            f"shape {target}")
    text = arrays[0].dtype.kind in "US"
    fill = pad_value if pad_value is not None else ("" if text else 0)
    dtype = np.result_type(*[a.dtype for a in arrays]) if not text else np.result_type(
        *[a.dtype for a in arrays], np.array(fill).dtype)
    out = np.full([len(arrays)] + target, fill, dtype=dtype)
    for k, a in enumerate(arrays):
        out[(k,) + tuple(slice(0, s) for s in a.shape)] = a
    return out


class PadBatch:
    """``per_batch_map`` of ``padded_batch``: pad each column, then stack."""

    def __init__(self, names: list[str], pad_info: dict[str, tuple[Any, Any]] | None) -> None:
        self.names, self.pad_info = names, pad_info

    def __call__(self, *args: Any) -> tuple[np.ndarray, ...]:
        columns = args[:-1]
        out = []
        for name, values in zip(self.names, columns):
            shape, value = (self.pad_info or {}).get(name, (None, None))
            out.append(pad_batch(name, list(values), shape, value, "padded_batch"))
        return tuple(out)


class _BucketIter(grain.DatasetIterator):
    def __init__(self, parent: grain.DatasetIterator, node: "BucketBatchNode") -> None:
        super().__init__(parent)
        self.node = node
        self.buckets: list[list[Row]] = [[] for _ in node.bucket_batch_sizes]
        self.batch_num = 0
        self.done = False

    def _emit(self, k: int) -> Row:
        rows, self.buckets[k] = self.buckets[k], []
        self.batch_num += 1
        return self.node._make(rows, k, self.batch_num - 1)

    def __next__(self) -> Any:
        while not self.done:
            try:
                row = next(self._parent)
            except StopIteration:
                self.done = True
                break
            k = self.node._bucket(row)
            self.buckets[k].append(row)
            if len(self.buckets[k]) == self.node.bucket_batch_sizes[k]:
                return self._emit(k)
        if not self.node.drop_remainder:
            for k, rows in enumerate(self.buckets):
                if rows:
                    return self._emit(k)
        raise StopIteration

    def get_state(self) -> dict[str, Any]:
        return {"parent": self._parent.get_state(), "buckets": [[list(r) for r in b] for b in self.buckets],
                "indices": [[r.index for r in b] for b in self.buckets], "batch_num": self.batch_num,
                "done": self.done}

    def set_state(self, state: dict[str, Any]) -> None:
        self._parent.set_state(state["parent"])
        self.buckets = [[Row(tuple(r), i) for r, i in zip(b, idx)] for b, idx in zip(state["buckets"],
                                                                                      state["indices"])]
        self.batch_num, self.done = int(state["batch_num"]), bool(state["done"])


class _BucketIterDataset(grain.IterDataset):
    def __init__(self, parent: grain.IterDataset, node: "BucketBatchNode") -> None:
        super().__init__(parent)
        self.node = node

    def __iter__(self) -> grain.DatasetIterator:
        return _BucketIter(self._parent.__iter__(), self.node)

    def __str__(self) -> str:
        return f"BucketBatchIterDataset(boundaries={self.node.bucket_boundaries})"


class BucketBatchNode(Dataset):
    """``dataset.bucket_batch_by_length(...)``: see :meth:`Dataset.bucket_batch_by_length`."""

    _name = "bucket_batch_by_length"

    def __init__(self, child: Dataset, column_names: Sequence[str], bucket_boundaries: Sequence[int],
                 bucket_batch_sizes: Sequence[int], element_length_function: Callable[..., Any] | None,
                 pad_info: Any, pad_to_bucket_boundary: bool, drop_remainder: bool) -> None:
        super().__init__([child])
        who = self._name
        columns = child.get_col_names()
        if isinstance(column_names, str):
            column_names = [column_names]
        if not isinstance(column_names, (list, tuple)) or not column_names:
            raise ArgTypeError(f"For '{who}', 'column_names' must be a non-empty list of str, got {column_names!r}")
        for name in column_names:
            if name not in columns:
                raise ValueError(f"For '{who}', column '{name}' is not in the dataset's columns {columns}")
        if not isinstance(bucket_boundaries, list) or not bucket_boundaries or not all(
                isinstance(b, int) and not isinstance(b, bool) and b > 0 for b in bucket_boundaries):
            raise ValueError(f"For '{who}', 'bucket_boundaries' must be a non-empty list of positive int, "
                             f"got {bucket_boundaries!r}")
        if any(a >= b for a, b in zip(bucket_boundaries, bucket_boundaries[1:])):
            raise ValueError(f"For '{who}', 'bucket_boundaries' must be strictly increasing, got "
                             f"{bucket_boundaries}")
        if not isinstance(bucket_batch_sizes, list) or not all(
                isinstance(b, int) and not isinstance(b, bool) and b > 0 for b in bucket_batch_sizes):
            raise ValueError(f"For '{who}', 'bucket_batch_sizes' must be a list of positive int, got "
                             f"{bucket_batch_sizes!r}")
        if len(bucket_batch_sizes) != len(bucket_boundaries) + 1:
            raise ValueError(f"For '{who}', 'bucket_batch_sizes' must have one more element than "
                             f"'bucket_boundaries' ({len(bucket_boundaries) + 1}), got {len(bucket_batch_sizes)}")
        if element_length_function is None and len(column_names) != 1:
            raise ValueError(f"For '{who}', without 'element_length_function' exactly one column must be given, "
                             f"got {list(column_names)}")
        if element_length_function is not None and not callable(element_length_function):
            raise TypeError(f"For '{who}', 'element_length_function' must be callable")
        self.column_names, self.bucket_boundaries = list(column_names), list(bucket_boundaries)
        self.bucket_batch_sizes, self.element_length_function = list(bucket_batch_sizes), element_length_function
        self.pad_info = check_pad_info(pad_info, columns, who)
        self.pad_to_bucket_boundary, self.drop_remainder = bool(pad_to_bucket_boundary), bool(drop_remainder)
        self.batch_size = self.bucket_batch_sizes[0]
        self._child_names = columns
        self._in_idx = [columns.index(c) for c in self.column_names]

    def _columns(self) -> list[str]:
        return list(self._child_names)

    def _size(self) -> int | None:
        return None

    def _mappable(self) -> bool:
        return False

    def _python_callables(self) -> list[Any]:
        return [self.element_length_function] if self.element_length_function is not None else []

    def _bucket(self, row: Row) -> int:
        args = [row[i] for i in self._in_idx]
        if self.element_length_function is None:
            length = int(np.asarray(args[0]).shape[0]) if np.ndim(args[0]) else 1
        else:
            length = int(self.element_length_function(*args))
        return int(np.searchsorted(self.bucket_boundaries, length, side="right"))

    def _make(self, rows: list[Row], bucket: int, batch_num: int) -> Row:
        out = []
        for i, name in enumerate(self._child_names):
            values = [r[i] for r in rows]
            shape, value = (self.pad_info or {}).get(name, (None, None))
            if self.pad_info is not None:
                boundary = None
                if self.pad_to_bucket_boundary and (shape is None or None in shape):
                    if bucket >= len(self.bucket_boundaries):
                        raise DataError(f"For '{self._name}', pad_to_bucket_boundary is set but a row of length "
                                        f"beyond the last boundary {self.bucket_boundaries[-1]} came in")
                    boundary = self.bucket_boundaries[bucket]
                out.append(pad_batch(name, values, shape, value, self._name, boundary))
            else:
                out.append(np.stack([np.asarray(v) for v in values]))
        return Row(tuple(out), rows[0].index)

    def _build(self, ctx: Any, path: tuple[int, ...]) -> Any:
        return _BucketIterDataset(self._build_child(0, ctx, path, as_iter=True), self)


