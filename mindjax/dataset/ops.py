"""The dataset operations (``map``, ``batch``, ``shuffle`` ...) as pipeline nodes.

Each node knows its columns and size without reading data, and translates
itself into grain: ``map``/``batch`` into grain's ``map_with_index`` and
``batch``, ``shuffle`` into grain's global or windowed shuffle, ``take``/
``skip`` into slices, ``zip``/``concat`` into grain's zip and concatenation.
"""
from __future__ import annotations

from typing import Any, Callable, Sequence

import grain
import numpy as np

from mindjax.dataset import config
from mindjax.dataset._batched import BatchedMapDataset, BatchReader, MapRows, SelectRows
from mindjax.dataset._grain import (INFINITE, ConcatIterDataset, EpochChainIterDataset, EpochsMapDataset,
                                    IndexedMapDataset, SkipIterDataset, WindowShuffleMapDataset,
                                    derive_seed)
from mindjax.dataset.dataset import BatchInfo, Dataset, as_iter_dataset, ceil_div
from mindjax.dataset.rows import (ArgTypeError, BuildContext, DataError, Row, as_column_list, check_positive_int,
                                  column_value)
from mindjax.dataset.transforms.base import Transform, call_transform

__all__ = ["MapNode", "FilterNode", "BatchNode", "ShuffleNode", "RepeatNode", "TakeNode", "SkipNode", "ProjectNode",
           "RenameNode", "ConcatNode", "ZipNode", "SplitNode", "split_dataset", "zip_datasets"]


_INT32_MAX = 2 ** 31 - 1


def _op_name(op: Any) -> str:
    return getattr(op, "__name__", None) or type(op).__name__


def _is_random(op: Any) -> bool:
    return isinstance(op, Transform) and op._is_random()


def _output_layout(columns: list[str], inputs: list[str], outputs: list[str]) -> tuple[list[str], list[tuple[bool, int]]]:
    """New column names and, per new column, (from outputs?, index)."""
    if len(inputs) == len(outputs):
        names = list(columns)
        layout = [(False, i) for i in range(len(columns))]
        for j, name in enumerate(inputs):
            k = columns.index(name)
            names[k] = outputs[j]
            layout[k] = (True, j)
    else:
        kept = [i for i, c in enumerate(columns) if c not in inputs]
        names = list(outputs) + [columns[i] for i in kept]
        layout = [(True, j) for j in range(len(outputs))] + [(False, i) for i in kept]
    return names, layout


class _ApplyMap:
    """One row through ``map``'s operations (picklable; runs in grain's threads or workers)."""

    def __init__(self, ops: list[Any], in_idx: list[int], in_names: list[str], out_names: list[str],
                 layout: list[tuple[bool, int]], seed: int | None) -> None:
        self.ops, self.in_idx, self.in_names, self.out_names = ops, in_idx, in_names, out_names
        self.layout, self.seed = layout, seed

    def __call__(self, position: int, row: Row) -> Row:
        sample = row.index if row.index is not None else position
        rng = None
        if self.seed is not None:
            rng = np.random.Generator(np.random.Philox(key=np.array([self.seed, position], dtype=np.uint64)))
        args = tuple(row[i] for i in self.in_idx)
        for k, op in enumerate(self.ops):
            try:
                result = call_transform(op, args, rng)
            except Exception as err:
                raise RuntimeError(f"For 'map', operation {k} ({_op_name(op)}) failed on input columns "
                                   f"{self.in_names} at sample index {sample}: {type(err).__name__}: {err}") from err
            args = result if isinstance(result, tuple) else (result,)
        if len(args) != len(self.out_names):
            raise DataError(f"For 'map', the operations returned {len(args)} columns at sample index {sample}, "
                             f"but output_columns {self.out_names} names {len(self.out_names)}")
        outs = [column_value(a) for a in args]
        return Row(tuple(outs[j] if from_out else row[j] for from_out, j in self.layout), row.index)


class MapNode(Dataset):
    """``dataset.map(...)``: see :meth:`Dataset.map`."""

    _name = "map"
    _workers_from_config = True

    def __init__(self, child: Dataset, operations: Any, input_columns: Any, output_columns: Any,
                 num_parallel_workers: int | None, python_multiprocessing: bool, callbacks: Any = None) -> None:
        from mindjax.dataset.callback import _CallbackState, check_callbacks

        super().__init__([child], num_parallel_workers, python_multiprocessing)
        self.callbacks = check_callbacks(callbacks)
        self._callback_state = _CallbackState()
        ops = list(operations) if isinstance(operations, (list, tuple)) else [operations]
        if not ops:
            raise ValueError("For 'map', 'operations' must not be empty")
        for op in ops:
            if not callable(op):
                raise TypeError(f"For 'map', every operation must be callable, got {type(op).__name__}")
        columns = child.get_col_names()
        inputs = as_column_list(input_columns, "map", "input_columns") or [columns[0]]
        for name in inputs:
            if name not in columns:
                raise ValueError(f"For 'map', input column '{name}' is not in the dataset's columns {columns}")
        outputs = as_column_list(output_columns, "map", "output_columns") or list(inputs)
        names, layout = _output_layout(columns, inputs, outputs)
        if len(set(names)) != len(names):
            raise ValueError(f"For 'map', output_columns {outputs} would duplicate a column: {names}")
        self.operations = ops
        self._inputs, self._outputs, self._names, self._layout = inputs, outputs, names, layout
        self._in_idx = [columns.index(c) for c in inputs]
        self._random = any(_is_random(op) for op in ops)
        self._batchable = not self._random and all(isinstance(op, Transform) and op._batchable() for op in ops)

    def _columns(self) -> list[str]:
        return self._names

    def _size(self) -> int | None:
        return self.children[0]._size()

    def _build(self, ctx: BuildContext, path: tuple[int, ...]) -> Any:
        seed = ctx.seed_at(path) if self._random else None
        fn = _ApplyMap(self.operations, self._in_idx, self._inputs, self._outputs, self._layout, seed)
        mapped = self._build_child(0, ctx, path).map_with_index(fn)
        if not self.callbacks:
            return mapped
        from mindjax.dataset.callback import CallbackIterDataset

        return CallbackIterDataset(as_iter_dataset(mapped), self.callbacks, self._callback_state, ctx.epoch[0])

    def _mappable(self) -> bool:
        return not self.callbacks and super()._mappable()

    def _runs_python(self) -> bool:
        return not self._batchable

    def _python_callables(self) -> list[Any]:
        return [op for op in self.operations if not isinstance(op, Transform)]

    def _batch_reader(self, ctx: BuildContext, path: tuple[int, ...]) -> BatchReader | None:
        if not self._batchable or self.callbacks:
            return None
        inner = self.children[0]._batch_reader(ctx, path + (0,))
        if inner is None:
            return None
        return MapRows(inner, self.operations, self._in_idx, len(self._outputs), self._layout)


class _Keep:
    """``filter``'s predicate on one row (picklable; runs in grain's threads or workers)."""

    def __init__(self, predicate: Callable[..., Any], in_idx: list[int], in_names: list[str]) -> None:
        self.predicate, self.in_idx, self.in_names = predicate, in_idx, in_names

    def __call__(self, row: Row) -> bool:
        try:
            keep = self.predicate(*(row[i] for i in self.in_idx))
        except Exception as err:
            raise RuntimeError(f"For 'filter', the predicate failed on input columns {self.in_names} at sample "
                               f"index {row.index}: {type(err).__name__}: {err}") from err
        if isinstance(keep, np.ndarray) and keep.size == 1:
            keep = keep.reshape(())[()]
        if not isinstance(keep, (bool, np.bool_)):
            raise DataError(f"For 'filter', the predicate must return a bool, got {type(keep).__name__} "
                             f"({keep!r}) at sample index {row.index}")
        return bool(keep)


class FilterNode(Dataset):
    """``dataset.filter(...)``: see :meth:`Dataset.filter`.

    Which rows survive is known only by reading, so a filtered pipeline is
    streamed (grain's ``IterDataset.filter``) and its size is counted.
    """

    _name = "filter"
    _workers_from_config = True

    def __init__(self, child: Dataset, predicate: Callable[..., Any], input_columns: Any,
                 num_parallel_workers: int | None) -> None:
        super().__init__([child], num_parallel_workers)
        if not callable(predicate):
            raise TypeError(f"For 'filter', 'predicate' must be callable, got {type(predicate).__name__}")
        columns = child.get_col_names()
        inputs = as_column_list(input_columns, "filter", "input_columns") or list(columns)
        for name in inputs:
            if name not in columns:
                raise ValueError(f"For 'filter', input column '{name}' is not in the dataset's columns {columns}")
        self.predicate = predicate
        self._inputs = inputs
        self._in_idx = [columns.index(c) for c in inputs]

    def _columns(self) -> list[str]:
        return self.children[0].get_col_names()

    def _size(self) -> int | None:
        return None

    def _mappable(self) -> bool:
        return False

    def _python_callables(self) -> list[Any]:
        return [self.predicate]

    def _build(self, ctx: BuildContext, path: tuple[int, ...]) -> Any:
        return self._build_child(0, ctx, path, as_iter=True).filter(_Keep(self.predicate, self._in_idx, self._inputs))


class _MakeBatch:
    """A list of rows into one batch row: ``per_batch_map`` first, then a stack per column."""

    def __init__(self, names: list[str], per_batch_map: Callable[..., Any] | None, in_idx: list[int],
                 in_names: list[str], out_names: list[str], layout: list[tuple[bool, int]],
                 epoch: int) -> None:
        self.names, self.per_batch_map, self.in_idx = names, per_batch_map, in_idx
        self.in_names, self.out_names, self.layout, self.epoch = in_names, out_names, layout, epoch

    def __call__(self, batch_num: int, rows: list[Row]) -> Row:
        first = rows[0].index
        if self.per_batch_map is not None:
            lists = [[r[i] for r in rows] for i in self.in_idx]
            try:
                result = self.per_batch_map(*lists, BatchInfo(batch_num, self.epoch))
            except Exception as err:
                raise RuntimeError(f"For 'batch', per_batch_map failed on columns {self.in_names} in batch "
                                   f"{batch_num}: {type(err).__name__}: {err}") from err
            outs = result if isinstance(result, tuple) else (result,)
            if len(outs) != len(self.out_names):
                raise DataError(f"For 'batch', per_batch_map returned {len(outs)} columns in batch {batch_num}, "
                                 f"but output_columns {self.out_names} names {len(self.out_names)}")
            columns = [(self.out_names[j], outs[j]) if from_out else (self.names[j], [r[j] for r in rows])
                       for from_out, j in self.layout]
        else:
            columns = [(name, [r[i] for r in rows]) for i, name in enumerate(self.names)]
        return Row(tuple(self._stack(name, values, rows, batch_num) for name, values in columns), first)

    @staticmethod
    def _stack(name: str, values: Any, rows: list[Row], batch_num: int) -> Any:
        if isinstance(values, np.ndarray):
            return values
        if any(isinstance(v, dict) for v in values):
            # Python-object columns are not stacked: the batch holds the list of their values.
            return list(values)
        arrays = [v if isinstance(v, np.ndarray) else np.asarray(v) for v in values]
        shape = arrays[0].shape
        for k, a in enumerate(arrays):
            if a.shape != shape:
                sample = rows[k].index if k < len(rows) and rows[k].index is not None else k
                raise DataError(f"For 'batch', column '{name}' has shape {a.shape} at sample index {sample} "
                                 f"but {shape} earlier in batch {batch_num}; rows of one batch must agree "
                                 "(resize them in a map, or use per_batch_map)")
        return np.stack(arrays)


def _check_per_batch_map_arity(per_batch_map: Any, input_columns: Any) -> None:
    """MindSpore's check: ``per_batch_map`` takes one list per input column, then the ``BatchInfo``."""
    if per_batch_map is None or input_columns is None:
        return
    import inspect

    try:
        params = list(inspect.signature(per_batch_map).parameters.values())
    except (TypeError, ValueError):
        return
    if any(p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD) for p in params):
        return
    n_inputs = 1 if isinstance(input_columns, str) else len(input_columns)
    if len(params) != n_inputs + 1:
        raise ValueError(f"For 'batch', per_batch_map takes {len(params)} arguments, but input_columns "
                         f"{input_columns!r} needs {n_inputs + 1} (one list per column, then BatchInfo)")


class BatchNode(Dataset):
    """``dataset.batch(...)``: see :meth:`Dataset.batch`."""

    _name = "batch"
    _workers_from_config = True

    def __init__(self, child: Dataset, batch_size: int, drop_remainder: bool, num_parallel_workers: int | None,
                 per_batch_map: Callable[..., Any] | None, input_columns: Any, output_columns: Any,
                 python_multiprocessing: bool) -> None:
        super().__init__([child], num_parallel_workers, python_multiprocessing)
        if callable(batch_size):
            raise TypeError("For 'batch', a callable 'batch_size' is not supported; pass an int")
        self.batch_size = check_positive_int(batch_size, "batch", "batch_size", allow_none=False)
        if not isinstance(drop_remainder, (bool, np.bool_)):
            raise ArgTypeError(f"For 'batch', 'drop_remainder' must be a bool, got {drop_remainder!r}")
        self.drop_remainder = bool(drop_remainder)
        if per_batch_map is not None and not callable(per_batch_map):
            raise TypeError(f"For 'batch', 'per_batch_map' must be callable, got {type(per_batch_map).__name__}")
        if input_columns is not None and per_batch_map is None:
            raise ValueError("For 'batch', 'input_columns' can be given only with 'per_batch_map', "
                             f"got input_columns={input_columns!r}")
        _check_per_batch_map_arity(per_batch_map, input_columns)
        self.per_batch_map = per_batch_map
        from mindjax.dataset.sync import SyncWaitNode

        for node in child._walk():  # a sync_wait counts its batches in rows of this batch
            if isinstance(node, SyncWaitNode) and node.batch_size == 1:
                node.batch_size = self.batch_size
        columns = child.get_col_names()
        inputs = as_column_list(input_columns, "batch", "input_columns") or list(columns)
        for name in inputs:
            if name not in columns:
                raise ValueError(f"For 'batch', input column '{name}' is not in the dataset's columns {columns}")
        outputs = as_column_list(output_columns, "batch", "output_columns") or list(inputs)
        if per_batch_map is None:
            inputs, outputs = list(columns), list(columns)
        self._names, self._layout = _output_layout(columns, inputs, outputs)
        self._child_names = columns
        self._inputs, self._outputs = inputs, outputs
        self._in_idx = [columns.index(c) for c in inputs]

    def _python_callables(self) -> list[Any]:
        return [self.per_batch_map] if self.per_batch_map is not None else []

    def _columns(self) -> list[str]:
        return self._names

    def _size(self) -> int | None:
        size = self.children[0]._size()
        if size is None or size >= INFINITE:
            return size
        return size // self.batch_size if self.drop_remainder else ceil_div(size, self.batch_size)

    def _build(self, ctx: BuildContext, path: tuple[int, ...]) -> Any:
        maker = _MakeBatch(self._child_names, self.per_batch_map, self._in_idx, self._inputs, self._outputs,
                           self._layout, ctx.epoch[0])
        child = self._build_child(0, ctx, path)
        rows = child.batch(self.batch_size, drop_remainder=self.drop_remainder, batch_fn=list).map_with_index(maker)
        if self.per_batch_map is None and isinstance(child, grain.MapDataset):
            reader = self.children[0]._batch_reader(ctx, path + (0,))
            if reader is not None:
                return BatchedMapDataset(reader, rows, len(child), self.batch_size, self.drop_remainder)
        return rows


class ShuffleNode(Dataset):
    """``dataset.shuffle(buffer_size)``: a full shuffle when the buffer covers an epoch, else windowed."""

    _name = "shuffle"

    def __init__(self, child: Dataset, buffer_size: int) -> None:
        super().__init__([child])
        if not isinstance(buffer_size, (int, np.integer)) or isinstance(buffer_size, bool):
            raise ArgTypeError(f"For 'shuffle', 'buffer_size' must be an int >= 2, got {buffer_size!r}")
        if buffer_size < 2:
            raise ValueError(f"For 'shuffle', 'buffer_size' must be an int >= 2, got {buffer_size!r}")
        self.buffer_size = int(buffer_size)

    def _columns(self) -> list[str]:
        return self.children[0].get_col_names()

    def _size(self) -> int | None:
        return self.children[0]._size()

    def _build(self, ctx: BuildContext, path: tuple[int, ...]) -> Any:
        seed = ctx.seed_at(path)
        child = self._build_child(0, ctx, path)
        if isinstance(child, grain.MapDataset):
            if self.buffer_size >= len(child):
                return child.shuffle(seed=seed)
            return WindowShuffleMapDataset(child, self.buffer_size, seed)
        return grain.experimental.WindowShuffleIterDataset(child, window_size=self.buffer_size, seed=seed)


class _RepeatBuilder:
    """Builds repetition ``r`` of a ``repeat``'s child with its own seeds (picklable)."""

    def __init__(self, node: Dataset, ctx: BuildContext, path: tuple[int, ...], as_iter: bool) -> None:
        self.node, self.ctx, self.path, self.as_iter = node, ctx, path, as_iter

    def __call__(self, repetition: int) -> Any:
        return self.node._build_child(0, self.ctx.nested(repetition), self.path, as_iter=self.as_iter)


class RepeatNode(Dataset):
    """``dataset.repeat(count)``; each repetition is reshuffled."""

    _name = "repeat"

    def __init__(self, child: Dataset, count: int | None) -> None:
        super().__init__([child])
        if count is None or count == -1:
            self.repeat_count = -1
        else:
            self.repeat_count = check_positive_int(count, "repeat", "count", allow_none=False)

    def _columns(self) -> list[str]:
        return self.children[0].get_col_names()

    def _size(self) -> int | None:
        size = self.children[0]._size()
        if size is None or size == 0:
            return size
        if self.repeat_count == -1 or size >= INFINITE:
            return INFINITE
        return size * self.repeat_count

    def _build(self, ctx: BuildContext, path: tuple[int, ...]) -> Any:
        count = None if self.repeat_count == -1 else self.repeat_count
        if self._mappable():
            size = self.children[0]._size()
            return EpochsMapDataset(_RepeatBuilder(self, ctx, path, as_iter=False), size, count)
        return EpochChainIterDataset(_RepeatBuilder(self, ctx, path, as_iter=True), count)


class TakeNode(Dataset):
    """``dataset.take(count)``."""

    _name = "take"

    def __init__(self, child: Dataset, count: int) -> None:
        super().__init__([child])
        if not isinstance(count, (int, np.integer)) or isinstance(count, bool):
            raise ArgTypeError(f"For 'take', 'count' must be an int, got {count!r}")
        if (count <= 0 and count != -1) or count > _INT32_MAX:
            raise ValueError(f"For 'take', 'count' should be either -1 or within the required interval of "
                             f"(0, {_INT32_MAX}], got {count}.")
        self.count = None if count == -1 else int(count)

    def _columns(self) -> list[str]:
        return self.children[0].get_col_names()

    def _size(self) -> int | None:
        size = self.children[0]._size()
        if self.count is None or size is None:
            return size if self.count is None else None
        return min(size, self.count)

    def _build(self, ctx: BuildContext, path: tuple[int, ...]) -> Any:
        child = self._build_child(0, ctx, path)
        if self.count is None:
            return child
        if isinstance(child, grain.MapDataset):
            return child[: self.count]
        return grain.experimental.LimitIterDataset(child, self.count)


class SkipNode(Dataset):
    """``dataset.skip(count)``."""

    _name = "skip"

    def __init__(self, child: Dataset, count: int) -> None:
        super().__init__([child])
        if not isinstance(count, (int, np.integer)) or isinstance(count, bool):
            raise ArgTypeError(f"For 'skip', 'count' must be an int >= 0, got {count!r}")
        if count < 0:
            raise ValueError(f"For 'skip', 'count' must be an int >= 0, got {count!r}")
        self.count = int(count)

    def _columns(self) -> list[str]:
        return self.children[0].get_col_names()

    def _size(self) -> int | None:
        size = self.children[0]._size()
        if size is None or size >= INFINITE:
            return size
        return max(0, size - self.count)

    def _build(self, ctx: BuildContext, path: tuple[int, ...]) -> Any:
        child = self._build_child(0, ctx, path)
        if isinstance(child, grain.MapDataset):
            return child[self.count:]
        return SkipIterDataset(child, self.count)


class _SelectColumns:
    def __init__(self, idx: list[int]) -> None:
        self.idx = idx

    def __call__(self, row: Row) -> Row:
        return Row(tuple(row[i] for i in self.idx), row.index)


class ProjectNode(Dataset):
    """``dataset.project(columns)``."""

    _name = "project"

    def __init__(self, child: Dataset, columns: Any) -> None:
        super().__init__([child])
        names = as_column_list(columns, "project", "columns")
        existing = child.get_col_names()
        for name in names or []:
            if name not in existing:
                raise ValueError(f"For 'project', column '{name}' is not in the dataset's columns {existing}")
        self._names = list(names or [])
        self._idx = [existing.index(c) for c in self._names]

    def _columns(self) -> list[str]:
        return self._names

    def _size(self) -> int | None:
        return self.children[0]._size()

    def _build(self, ctx: BuildContext, path: tuple[int, ...]) -> Any:
        return self._build_child(0, ctx, path).map(_SelectColumns(self._idx))

    def _batch_reader(self, ctx: BuildContext, path: tuple[int, ...]) -> BatchReader | None:
        inner = self.children[0]._batch_reader(ctx, path + (0,))
        return None if inner is None else SelectRows(inner, self._idx)


class RenameNode(Dataset):
    """``dataset.rename(input_columns, output_columns)``."""

    _name = "rename"

    def __init__(self, child: Dataset, input_columns: Any, output_columns: Any) -> None:
        super().__init__([child])
        inputs = as_column_list(input_columns, "rename", "input_columns") or []
        outputs = as_column_list(output_columns, "rename", "output_columns") or []
        if len(inputs) != len(outputs):
            raise ValueError(f"For 'rename', input_columns {inputs} and output_columns {outputs} differ in length")
        names = child.get_col_names()
        for old, new in zip(inputs, outputs):
            if old not in names:
                raise ValueError(f"For 'rename', column '{old}' is not in the dataset's columns {names}")
            names[names.index(old)] = new
        if len(set(names)) != len(names):
            raise ValueError(f"For 'rename', the new names would duplicate a column: {names}")
        self._names = names

    def _columns(self) -> list[str]:
        return self._names

    def _size(self) -> int | None:
        return self.children[0]._size()

    def _build(self, ctx: BuildContext, path: tuple[int, ...]) -> Any:
        return self._build_child(0, ctx, path)

    def _batch_reader(self, ctx: BuildContext, path: tuple[int, ...]) -> BatchReader | None:
        return self.children[0]._batch_reader(ctx, path + (0,))


class ConcatNode(Dataset):
    """``dataset.concat(others)`` / ``a + b``."""

    _name = "concat"

    def __init__(self, datasets: Sequence[Dataset]) -> None:
        for d in datasets:
            if not isinstance(d, Dataset):
                raise TypeError(f"For 'concat', every input must be a Dataset, got {type(d).__name__}")
        super().__init__(list(datasets))
        first = datasets[0].get_col_names()
        for k, d in enumerate(datasets[1:], start=1):
            if d.get_col_names() != first:
                raise ValueError(f"For 'concat', dataset {k} has columns {d.get_col_names()}, expected {first}")

    def _columns(self) -> list[str]:
        return self.children[0].get_col_names()

    def _size(self) -> int | None:
        sizes = [c._size() for c in self.children]
        if any(s is None for s in sizes):
            return None
        return min(INFINITE, sum(sizes))

    def _build(self, ctx: BuildContext, path: tuple[int, ...]) -> Any:
        if self._mappable() and self._size() < INFINITE:
            return grain.MapDataset.concatenate([self._build_child(i, ctx, path) for i in range(len(self.children))])
        return ConcatIterDataset([self._build_child(i, ctx, path, as_iter=True) for i in range(len(self.children))])


class _MergeRows:
    def __call__(self, rows: tuple[Row, ...]) -> Row:
        return Row(tuple(x for r in rows for x in r), rows[0].index)


class ZipNode(Dataset):
    """``dataset.zip(others)``: columns side by side, as many rows as the shortest."""

    _name = "zip"

    def __init__(self, datasets: Sequence[Dataset]) -> None:
        for d in datasets:
            if not isinstance(d, Dataset):
                raise TypeError(f"For 'zip', every input must be a Dataset, got {type(d).__name__}")
        super().__init__(list(datasets))
        names: list[str] = []
        for d in datasets:
            for c in d.get_col_names():
                if c in names:
                    raise ValueError(f"For 'zip', column '{c}' appears in more than one dataset; rename it first")
                names.append(c)
        self._names = names

    def _columns(self) -> list[str]:
        return self._names

    def _size(self) -> int | None:
        sizes = [c._size() for c in self.children]
        if any(s is None for s in sizes):
            return None
        return min(sizes)

    def _build(self, ctx: BuildContext, path: tuple[int, ...]) -> Any:
        n = len(self.children)
        if self._mappable() and self._size() < INFINITE:
            size = self._size()
            parts = [self._build_child(i, ctx, path)[:size] for i in range(n)]
            return grain.experimental.ZipMapDataset(parts).map(_MergeRows())
        parts = [self._build_child(i, ctx, path, as_iter=True) for i in range(n)]
        return grain.experimental.ZipIterDataset(parts, strict=False).map(_MergeRows())


class SplitNode(Dataset):
    """One part of ``dataset.split(...)``: fixed rows of the parent."""

    _name = "split"

    def __init__(self, child: Dataset, indices: np.ndarray | None, start: int, stop: int) -> None:
        super().__init__([child])
        self._indices, self._start, self._stop = indices, start, stop

    def _columns(self) -> list[str]:
        return self.children[0].get_col_names()

    def _size(self) -> int | None:
        return self._stop - self._start

    def _build(self, ctx: BuildContext, path: tuple[int, ...]) -> Any:
        child = self._build_child(0, ctx, path)
        if self._indices is not None:
            return IndexedMapDataset(child, self._indices[self._start:self._stop])
        if isinstance(child, grain.MapDataset):
            return child[self._start:self._stop]
        return grain.experimental.LimitIterDataset(SkipIterDataset(child, self._start), self._stop - self._start)


def _absolute_sizes(sizes: Sequence[Any], total: int) -> list[int]:
    if not isinstance(sizes, (list, tuple)) or not sizes:
        raise ValueError(f"For 'split', 'sizes' must be a non-empty list, got {sizes!r}")
    if all(isinstance(s, (int, np.integer)) and not isinstance(s, bool) for s in sizes):
        if any(s <= 0 for s in sizes):
            raise ValueError(f"For 'split', integer sizes {list(sizes)} must be positive and sum to the "
                             f"dataset size {total}")
        if sum(sizes) != total:
            raise DataError(f"For 'split', integer sizes {list(sizes)} must be positive and sum to the "
                             f"dataset size {total}")
        return [int(s) for s in sizes]
    if all(isinstance(s, float) for s in sizes):
        if any(not 0 < s <= 1 for s in sizes) or abs(sum(sizes) - 1.0) > 1e-6:
            raise ValueError(f"For 'split', fractional sizes {list(sizes)} must be in (0, 1] and sum to 1")
        out = [int(round(s * total)) for s in sizes]
        if any(s == 0 for s in out):
            raise ValueError(f"For 'split', sizes {list(sizes)} of {total} rows give an empty split: {out}")
        diff = total - sum(out)
        if diff > 0:
            out[0] += diff
        elif diff < 0:
            for k, s in enumerate(out):
                if s + diff >= 1:
                    out[k] += diff
                    break
        return out
    raise ValueError(f"For 'split', 'sizes' must be all ints or all floats, got {list(sizes)}")


def split_dataset(dataset: Dataset, sizes: Sequence[Any], randomize: bool) -> tuple[Dataset, ...]:
    """Implementation of :meth:`Dataset.split`."""
    total = dataset.get_dataset_size()
    if total < 0:
        raise ValueError("For 'split', the dataset is endless; split it before 'repeat'")
    parts = _absolute_sizes(sizes, total)
    indices = None
    if randomize:
        if not dataset._mappable():
            raise ValueError("For 'split', randomize=True needs a random-access dataset; "
                             "pass randomize=False for an iterable source")
        rng = np.random.default_rng(derive_seed(config.get_seed(), 104729))
        indices = rng.permutation(total)
    out: list[Dataset] = []
    start = 0
    for size in parts:
        out.append(SplitNode(dataset, indices, start, start + size))
        start += size
    return tuple(out)


def zip_datasets(datasets: tuple[Dataset, ...]) -> Dataset:
    """``mindspore.dataset.zip``: rows of ``datasets`` side by side, as many as the shortest.

    Arguments:
        datasets: a tuple of datasets with distinct column names.

    Returns:
        The zipped dataset.

    Example:
        >>> import mindjax.dataset as ds
        >>> a = ds.NumpySlicesDataset({"a": [1, 2]}, shuffle=False)
        >>> b = ds.NumpySlicesDataset({"b": [3, 4, 5]}, shuffle=False)
        >>> ds.zip((a, b)).get_col_names(), ds.zip((a, b)).get_dataset_size()
        (['a', 'b'], 2)
    """
    if not isinstance(datasets, tuple):
        raise ArgTypeError(f"For 'zip', 'datasets' must be a tuple of datasets, got {type(datasets).__name__}")
    if not datasets:
        raise ValueError("For 'zip', 'datasets' must not be empty")
    return ZipNode(list(datasets))
