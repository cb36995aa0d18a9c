"""``Dataset``: the node every source and operation derives from.

A pipeline is a tree of these nodes. Nothing runs until an iterator is made;
then the tree is translated into grain datasets, one epoch at a time, with
seeds drawn from the dataset seed, the epoch and each node's position.
Random-access pipelines become one ``grain.MapDataset`` spanning all epochs
(read by grain's thread pool or its worker processes); pipelines over an
iterable become ``grain.IterDataset`` chains.
"""
from __future__ import annotations

from typing import Any, Callable, Iterator, Sequence

import grain
import numpy as np

from mindjax.dataset import config
from mindjax.dataset._grain import INFINITE, EpochChainIterDataset, EpochsMapDataset
from mindjax.dataset.rows import BuildContext, Row, check_positive_int

__all__ = ["Dataset", "BatchInfo"]


class BatchInfo:
    """What ``per_batch_map`` (and a callable batch size) learn about the batch being made.

    Arguments:
        batch_num: the batch number within the epoch.
        epoch_num: the epoch number.
    """

    def __init__(self, batch_num: int, epoch_num: int) -> None:
        self._batch_num = batch_num
        self._epoch_num = epoch_num

    def get_batch_num(self) -> int:
        """The batch number within the epoch, from 0."""
        return self._batch_num

    def get_epoch_num(self) -> int:
        """The epoch number, from 0."""
        return self._epoch_num


class _RootBuilder:
    """Builds epoch ``e`` of a pipeline (picklable, so worker processes can rebuild it)."""

    def __init__(self, node: "Dataset", seed: int, as_iter: bool, first_epoch: int = 0) -> None:
        self._node = node
        self._seed = seed
        self._as_iter = as_iter
        self._first_epoch = first_epoch

    def __call__(self, epoch: int) -> Any:
        built = self._node._build(BuildContext(self._seed, (int(epoch) + self._first_epoch,)), ())
        if self._as_iter:
            return as_iter_dataset(built)
        return built


def as_iter_dataset(ds: Any) -> grain.IterDataset:
    """A grain dataset as an ``IterDataset`` (read in order on one thread)."""
    if isinstance(ds, grain.MapDataset):
        return ds.to_iter_dataset(grain.ReadOptions(num_threads=1, prefetch_buffer_size=1))
    return ds


class Dataset:
    """Base of every dataset: the MindSpore operations and iterators.

    Arguments:
        children: the input datasets.
        num_parallel_workers: workers asked for by this node, or ``None``.
        python_multiprocessing: whether this node asks for worker processes.
    """

    _name = "Dataset"
    # map and batch default to the configured worker count, sources to one (as in MindSpore).
    _workers_from_config = False

    def __init__(self, children: Sequence["Dataset"] = (), num_parallel_workers: int | None = None,
                 python_multiprocessing: bool = False) -> None:
        self.children = list(children)
        self.num_parallel_workers = check_positive_int(num_parallel_workers, self._name, "num_parallel_workers")
        self.python_multiprocessing = bool(python_multiprocessing)
        self._counted_size: int | None = None
        self._global_step: int | None = None

    # -- what each node defines ------------------------------------------------------------
    def _columns(self) -> list[str]:
        raise NotImplementedError

    def _size(self) -> int | None:
        """Rows per epoch: an int, ``INFINITE``, or ``None`` when only reading tells."""
        raise NotImplementedError

    def _mappable(self) -> bool:
        return all(c._mappable() for c in self.children)

    def _build(self, ctx: BuildContext, path: tuple[int, ...]) -> Any:
        """This node as a grain dataset (``MapDataset`` when :meth:`_mappable`)."""
        raise NotImplementedError

    def _runs_python(self) -> bool:
        """Whether this node runs user Python per row, which worker processes can take off the GIL.

        As in MindSpore, ``python_multiprocessing`` concerns Python code only;
        the built-in transforms run in threads.
        """
        return True

    def _python_callables(self) -> list[Any]:
        """The user Python objects a worker process of this node would unpickle (sources, functions)."""
        return []

    def _batch_reader(self, ctx: BuildContext, path: tuple[int, ...]) -> Callable[[np.ndarray], Row] | None:
        """Reads many rows of this node's epoch at once (see ``_batched``), or ``None`` (row by row only)."""
        return None

    def _build_child(self, i: int, ctx: BuildContext, path: tuple[int, ...], as_iter: bool = False) -> Any:
        built = self.children[i]._build(ctx, path + (i,))
        return as_iter_dataset(built) if as_iter else built

    # -- information -----------------------------------------------------------------------
    def get_col_names(self) -> list[str]:
        """The column names, in order."""
        return list(self._columns())

    def get_dataset_size(self) -> int:
        """Rows (or batches, after ``batch``) in one epoch; -1 for an endless ``repeat``.

        Sizes follow from the sources through every operation; a pipeline over an
        iterable without ``len`` is read once to count.
        """
        size = self._size()
        if size is None:
            if self._counted_size is None:
                self._counted_size = sum(1 for _ in as_iter_dataset(self._build(self._context(0), ())))
            size = self._counted_size
        return -1 if size >= INFINITE else int(size)

    def get_batch_size(self) -> int:
        """The batch size of the last ``batch`` in the pipeline (1 without one)."""
        for node in self._walk():
            if hasattr(node, "batch_size"):
                return int(node.batch_size)
        return 1

    def num_classes(self) -> int | None:
        """The number of classes of the source (``ImageFolderDataset``), ``None`` where it has none."""
        return self.children[0].num_classes() if self.children else None

    def get_class_indexing(self) -> dict[str, int]:
        """The class-name-to-label map of the source (``ImageFolderDataset``), ``{}`` where it has none."""
        return self.children[0].get_class_indexing() if self.children else {}

    def get_repeat_count(self) -> int:
        """The count of the last ``repeat`` in the pipeline (1 without one)."""
        for node in self._walk():
            if hasattr(node, "repeat_count"):
                return int(node.repeat_count)
        return 1

    def _first_row(self) -> Row:
        built = as_iter_dataset(self._build(self._context(0), ()))
        it = iter(built)
        try:
            return next(it)
        except StopIteration:
            raise RuntimeError(f"For '{self._name}', the dataset is empty, so it has no output shapes") from None
        finally:
            it.close()

    def output_shapes(self, estimate: bool = False) -> list[list[int | None]]:
        """The shape of each column in the first row (batch).

        Arguments:
            estimate: read the whole epoch instead, and mark the dimensions
                that vary between rows ``None`` (as MindSpore does).
        """
        if not isinstance(estimate, bool):
            from mindjax.dataset.rows import ArgTypeError

            raise ArgTypeError(f"For 'output_shapes', 'estimate' must be a bool, got {estimate!r}")
        if not estimate:
            return [list(np.shape(x)) for x in self._first_row()]
        shapes: list[list[int | None]] | None = None
        for row in as_iter_dataset(self._build(self._context(0), ())):
            current = [list(np.shape(x)) for x in row]
            if shapes is None:
                shapes = current
                continue
            for k, (seen, now) in enumerate(zip(shapes, current)):
                if len(seen) != len(now):
                    raise RuntimeError(f"For 'output_shapes', column {k} changes rank between rows: {seen} and {now}")
                shapes[k] = [a if a == b else None for a, b in zip(seen, now)]
        if shapes is None:
            raise RuntimeError(f"For '{self._name}', the dataset is empty, so it has no output shapes")
        return shapes

    def output_types(self) -> list[np.dtype]:
        """The numpy dtype of each column in the first row (batch)."""
        return [np.asarray(x).dtype for x in self._first_row()]

    def _walk(self) -> Iterator["Dataset"]:
        yield self
        for child in self.children:
            yield from child._walk()

    # -- operations ------------------------------------------------------------------------
    def map(self, operations: Any, input_columns: Any = None, output_columns: Any = None,
            num_parallel_workers: int | None = None, python_multiprocessing: bool = False,
            **kwargs: Any) -> "Dataset":
        """Apply ``operations`` in order to ``input_columns``; name the results ``output_columns``.

        Arguments:
            operations: a callable or list of callables (transforms or Python functions).
            input_columns: columns passed to the first operation (default: the first column).
            output_columns: names of the last operation's outputs (default: ``input_columns``).
                When the counts match, outputs replace inputs in place; otherwise the
                outputs come first, then the untouched columns.
            num_parallel_workers: threads (or processes) for this pipeline.
            python_multiprocessing: run the pipeline in worker processes.
            callbacks: ``DSCallback`` objects (keyword), called as rows leave the map.

        Returns:
            The mapped dataset.
        """
        from mindjax.dataset.ops import MapNode

        return MapNode(self, operations, input_columns, output_columns, num_parallel_workers,
                       python_multiprocessing, kwargs.get("callbacks"))

    def filter(self, predicate: Callable[..., Any], input_columns: Any = None,
               num_parallel_workers: int | None = None) -> "Dataset":
        """Keep the rows for which ``predicate(*input_columns)`` returns ``True``.

        Arguments:
            predicate: called with one numpy array per input column; returns a bool.
            input_columns: the columns passed to ``predicate`` (default: all, in order).
            num_parallel_workers: threads for this pipeline.

        Returns:
            The filtered dataset (its size is known after one read, as in MindSpore).

        Example:
            >>> import mindjax.dataset as ds
            >>> d = ds.NumpySlicesDataset({"x": [1, 2, 3, 4]}, shuffle=False).filter(lambda x: x % 2 == 0)
            >>> [int(r[0]) for r in d.create_tuple_iterator(output_numpy=True, num_epochs=1)]
            [2, 4]
        """
        from mindjax.dataset.ops import FilterNode

        return FilterNode(self, predicate, input_columns, num_parallel_workers)

    def batch(self, batch_size: int, drop_remainder: bool = False, num_parallel_workers: int | None = None,
              per_batch_map: Callable[..., Any] | None = None, input_columns: Any = None,
              output_columns: Any = None, python_multiprocessing: bool = False, **kwargs: Any) -> "Dataset":
        """Stack ``batch_size`` consecutive rows per column.

        Arguments:
            batch_size: rows per batch.
            drop_remainder: drop a last, short batch.
            num_parallel_workers: threads (or processes) for this pipeline.
            per_batch_map: ``f(*column_lists, BatchInfo) -> tuple of column lists``, applied first.
            input_columns: the columns given to ``per_batch_map`` (default: all).
            output_columns: names of ``per_batch_map``'s outputs (default: ``input_columns``).
            python_multiprocessing: run the pipeline in worker processes.

        Returns:
            The batched dataset.
        """
        from mindjax.dataset.ops import BatchNode

        return BatchNode(self, batch_size, drop_remainder, num_parallel_workers, per_batch_map,
                         input_columns, output_columns, python_multiprocessing)

    def padded_batch(self, batch_size: int, drop_remainder: bool = False, num_parallel_workers: int | None = None,
                     pad_info: dict[str, tuple[Any, Any]] | None = None) -> "Dataset":
        """Batch rows of different shapes, padding each column at its end.

        Arguments:
            batch_size: rows per batch.
            drop_remainder: drop a last, short batch.
            num_parallel_workers: threads for this pipeline.
            pad_info: column -> (shape, pad_value); a None shape or dimension pads to the
                longest in the batch; columns left out pad to the longest with 0.

        Returns:
            The batched dataset.
        """
        from mindjax.dataset.bucket import PadBatch, check_pad_info
        from mindjax.dataset.ops import BatchNode

        columns = self.get_col_names()
        pad_info = check_pad_info(pad_info, columns, "padded_batch")
        return BatchNode(self, batch_size, drop_remainder, num_parallel_workers, PadBatch(columns, pad_info),
                         None, None, False)

    def bucket_batch_by_length(self, column_names: Any, bucket_boundaries: list[int],
                               bucket_batch_sizes: list[int], element_length_function: Callable[..., Any] | None = None,
                               pad_info: dict[str, tuple[Any, Any]] | None = None, pad_to_bucket_boundary: bool = False,
                               drop_remainder: bool = False) -> "Dataset":
        """Group rows by length into buckets and batch each bucket with its own batch size.

        A row of length ``L`` (its first column's first dimension, or
        ``element_length_function(*columns)``) goes to bucket ``i`` where
        ``bucket_boundaries[i-1] <= L < bucket_boundaries[i]``; a bucket is emitted when it
        holds ``bucket_batch_sizes[i]`` rows, the partial ones at the end (unless
        ``drop_remainder``).

        Arguments:
            column_names: the columns given to ``element_length_function``.
            bucket_boundaries: strictly increasing positive ints.
            bucket_batch_sizes: one more than the boundaries.
            element_length_function: ``f(*columns) -> int`` (default: the length of the one column).
            pad_info: as :meth:`padded_batch`; None pads nothing.
            pad_to_bucket_boundary: pad None dimensions to the bucket's boundary - 1.
            drop_remainder: drop the partial batches at the end.

        Returns:
            The batched dataset.
        """
        from mindjax.dataset.bucket import BucketBatchNode

        return BucketBatchNode(self, column_names, bucket_boundaries, bucket_batch_sizes, element_length_function,
                               pad_info, pad_to_bucket_boundary, drop_remainder)

    def sync_wait(self, condition_name: str, num_batch: int = 1,
                  callback: Callable[..., Any] | None = None) -> "Dataset":
        """A barrier: after ``num_batch`` batches the pipeline waits for ``sync_update(condition_name)``.

        Arguments:
            condition_name: the barrier's name, for :meth:`sync_update`.
            num_batch: batches (of the next ``batch``) let through per release. Default: 1.
            callback: ``f(data)``, called with each ``sync_update``'s ``data`` before the rows go on.

        Returns:
            The dataset with the barrier.
        """
        from mindjax.dataset.sync import SyncWaitNode

        return SyncWaitNode(self, condition_name, num_batch, callback)

    def sync_update(self, condition_name: str, num_batch: int | None = None, data: Any = None) -> None:
        """Release the barrier ``condition_name`` for ``num_batch`` more batches (default: its own), with ``data``."""
        from mindjax.dataset.sync import sync_update

        sync_update(self, condition_name, num_batch, data)

    def shuffle(self, buffer_size: int) -> "Dataset":
        """Shuffle rows within a window of ``buffer_size`` (a full shuffle when it covers the data).

        Each epoch is shuffled differently; the same seed gives the same orders.
        """
        from mindjax.dataset.ops import ShuffleNode

        return ShuffleNode(self, buffer_size)

    def repeat(self, count: int | None = None) -> "Dataset":
        """Repeat the data ``count`` times (``None`` or -1: endlessly), reshuffling each time."""
        from mindjax.dataset.ops import RepeatNode

        return RepeatNode(self, count)

    def take(self, count: int = -1) -> "Dataset":
        """The first ``count`` rows (-1: all)."""
        from mindjax.dataset.ops import TakeNode

        return TakeNode(self, count)

    def skip(self, count: int) -> "Dataset":
        """All but the first ``count`` rows."""
        from mindjax.dataset.ops import SkipNode

        return SkipNode(self, count)

    def project(self, columns: Any) -> "Dataset":
        """Keep ``columns``, in the order given."""
        from mindjax.dataset.ops import ProjectNode

        return ProjectNode(self, columns)

    def rename(self, input_columns: Any, output_columns: Any) -> "Dataset":
        """Rename ``input_columns`` to ``output_columns``."""
        from mindjax.dataset.ops import RenameNode

        return RenameNode(self, input_columns, output_columns)

    def concat(self, datasets: Any) -> "Dataset":
        """This dataset followed by ``datasets`` (one or a list), with the same columns."""
        from mindjax.dataset.ops import ConcatNode

        others = datasets if isinstance(datasets, (list, tuple)) else [datasets]
        return ConcatNode([self, *others])

    def __add__(self, datasets: Any) -> "Dataset":
        return self.concat(datasets)

    def zip(self, datasets: Any) -> "Dataset":
        """Rows of this dataset and ``datasets`` side by side (as long as the shortest)."""
        from mindjax.dataset.ops import ZipNode

        others = list(datasets) if isinstance(datasets, (list, tuple)) else [datasets]
        return ZipNode([self, *others])

    def split(self, sizes: Sequence[int] | Sequence[float], randomize: bool = True) -> tuple["Dataset", ...]:
        """Split into non-overlapping datasets of the given sizes (ints, or fractions summing to 1).

        With ``randomize`` the rows are dealt by a permutation drawn from the
        dataset seed; the split is the same in every epoch.

        Returns:
            A tuple of datasets, as MindSpore returns.
        """
        from mindjax.dataset.ops import split_dataset

        return split_dataset(self, sizes, randomize)

    def save(self, file_name: str, num_files: int = 1, file_type: str = "mindrecord") -> None:
        """Write one epoch of this pipeline into MindRecord files that ``MindDataset`` reads back.

        Types are cast as MindSpore casts them: bool, int8, uint8, int16 and uint16
        become int32; uint32 and uint64 int64; float16 float32; 0-d string and bytes
        stay string and bytes. Arrays are stored with their first dimension
        variable (``[-1, ...]``). The files use MindJAX's MindRecord layout (see
        :mod:`mindjax.mindrecord`), not MindSpore's bytes.

        Arguments:
            file_name: the file (with ``num_files > 1``, the shard number is appended).
            num_files: the number of files, in [1, 1000]. One file keeps the row order.
            file_type: only ``'mindrecord'``.

        Raises:
            ValueError: for another ``file_type``, or a column MindRecord cannot hold.
        """
        from mindjax.dataset._save import save_mindrecord

        save_mindrecord(self, file_name, num_files, file_type)

    # -- iteration -------------------------------------------------------------------------
    def set_init_step(self, init_step: int) -> None:
        """Make every iterator created from now on start at global step ``init_step`` (for resuming).

        The step counts rows (batches) over all epochs: iterators start in epoch
        ``init_step // get_dataset_size()`` at that row, with the shuffles of that
        epoch, so a resumed run reads exactly what the uninterrupted run read there.

        Arguments:
            init_step: the step to start at (0: the beginning).
        """
        check = init_step if isinstance(init_step, (int, np.integer)) and not isinstance(init_step, bool) else None
        if check is None or check < 0:
            from mindjax.dataset.rows import ArgTypeError

            raise ArgTypeError(f"For 'set_init_step', 'init_step' must be an int >= 0, got {init_step!r}")
        self._global_step = int(init_step)

    def get_init_step(self) -> int:
        """The step iterators start at: this node's ``set_init_step``, else its only child's, else 0."""
        if self._global_step is not None:
            return self._global_step
        if len(self.children) == 1:
            return self.children[0].get_init_step()
        return 0

    def _init_position(self) -> tuple[int, int]:
        """(epoch, row in that epoch) where iterators start, from :meth:`get_init_step`."""
        step = self.get_init_step()
        if step == 0:
            return 0, 0
        size = self.get_dataset_size()
        if size <= 0:
            return 0, step if size < 0 else 0
        return divmod(step, size)

    def _context(self, epoch: int) -> BuildContext:
        return BuildContext(config.get_seed(), (epoch,))

    def _parallelism(self) -> tuple[int, bool]:
        """(workers, use processes) for the whole pipeline, capped at the cores.

        Processes only where spawning them is safe (see ``_spawn``); threads otherwise.
        """
        asked = [n.num_parallel_workers or (config.get_num_parallel_workers() if n._workers_from_config else 1)
                 for n in self._walk()]
        workers = config.cap_workers(max(asked))
        processes = workers > 1 and any(
            n.python_multiprocessing and (n.num_parallel_workers or 1) > 1 and n._runs_python()
            for n in self._walk())
        if processes:
            from mindjax.dataset._spawn import processes_allowed

            processes = processes_allowed([c for n in self._walk() for c in n._python_callables()])
        return workers, processes

    def _reads_whole_batches(self) -> bool:
        """Whether each element is made by one vectorised read (see ``_batched``), too cheap for read threads."""
        if not self._mappable():
            return False
        from mindjax.dataset._batched import BatchedMapDataset

        return isinstance(self._build(self._context(0), ()), BatchedMapDataset)

    def _grain_stream(self, num_epochs: int, mark_epochs: bool, seed: int | None = None,
                      workers: int | None = None, read_threads: bool = True) -> tuple[grain.IterDataset, int | None]:
        """All epochs as one grain ``IterDataset``, and the rows per epoch (``None``: marked instead).

        ``read_threads=False`` reads a random-access pipeline in the consumer's
        thread (for a consumer that is itself a background thread).
        """
        if num_epochs is not None and num_epochs != -1:
            check_positive_int(num_epochs, self._name, "num_epochs", allow_none=False)
        epochs = None if num_epochs in (None, -1) else int(num_epochs)
        seed = config.get_seed() if seed is None else seed
        first_epoch, first_row = self._init_position()
        n_workers, processes = self._parallelism()
        if workers is not None:
            n_workers, processes = workers, False
        prefetch = config.get_prefetch_size()
        if self._mappable():
            length = self._size()
            assert length is not None
            spanning = EpochsMapDataset(_RootBuilder(self, seed, as_iter=False, first_epoch=first_epoch), length,
                                        epochs)
            if first_row:
                spanning = spanning[first_row:]
            if processes:
                stream = spanning.to_iter_dataset(grain.ReadOptions(num_threads=1, prefetch_buffer_size=2))
                stream = stream.mp_prefetch(grain.MultiprocessingOptions(
                    num_workers=n_workers, per_worker_buffer_size=max(1, prefetch // n_workers)))
            elif not read_threads:
                stream = spanning.to_iter_dataset(grain.ReadOptions(num_threads=0, prefetch_buffer_size=0))
            else:
                stream = spanning.to_iter_dataset(
                    grain.ReadOptions(num_threads=n_workers, prefetch_buffer_size=prefetch))
            return stream, length
        chain: grain.IterDataset = EpochChainIterDataset(
            _RootBuilder(self, seed, as_iter=True, first_epoch=first_epoch), epochs, mark_epochs=mark_epochs)
        if first_row:
            from mindjax.dataset._grain import SkipIterDataset

            chain = SkipIterDataset(chain, first_row)
        stream = grain.experimental.ThreadPrefetchIterDataset(chain, prefetch_buffer_size=prefetch)
        return stream, None

    def create_tuple_iterator(self, columns: Any = None, num_epochs: int = -1, output_numpy: bool = False,
                              do_copy: bool = True) -> "Any":
        """An iterator of rows as lists of arrays (jax arrays unless ``output_numpy``).

        Each ``for`` loop over it runs one epoch; ``num_epochs`` (-1: no limit)
        bounds how many. ``get_state()``/``set_state()`` save and restore its
        position exactly.

        Arguments:
            columns: the columns to return (default: all).
            num_epochs: the number of epochs to run.
            output_numpy: return numpy arrays instead of jax arrays.
            do_copy: accepted for MindSpore compatibility.

        Returns:
            A :class:`~mindjax.dataset.iterators.TupleIterator`.
        """
        from mindjax.dataset.iterators import TupleIterator

        return TupleIterator(self, columns, num_epochs, output_numpy, as_dict=False)

    def create_dict_iterator(self, num_epochs: int = -1, output_numpy: bool = False,
                             do_copy: bool = True) -> "Any":
        """Like :meth:`create_tuple_iterator`, with each row a dict from column name to array."""
        from mindjax.dataset.iterators import TupleIterator

        return TupleIterator(self, None, num_epochs, output_numpy, as_dict=True)

    def __iter__(self) -> Iterator[list[Any]]:
        return iter(self.create_tuple_iterator(num_epochs=1))

    def device_iterator(self, sharding: Any = None, stack: int | None = None, num_epochs: int = -1,
                        columns: Any = None, device_prefetch: int = 2) -> "Any":
        """Batches placed on device ahead of use, for a training loop.

        See :class:`~mindjax.dataset.iterators.DeviceIterator` for the arguments.
        """
        from mindjax.dataset.iterators import DeviceIterator

        return DeviceIterator(self, sharding=sharding, stack=stack, num_epochs=num_epochs, columns=columns,
                              device_prefetch=device_prefetch)

    def __repr__(self) -> str:
        return f"{self._name}(columns={self.get_col_names()})"


def ceil_div(a: int, b: int) -> int:
    """``ceil(a / b)`` for ints (keeps ``INFINITE``)."""
    if a >= INFINITE:
        return INFINITE
    return -(-a // b)

