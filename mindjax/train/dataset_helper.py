"""``mindspore.train.dataset_helper``: ``DatasetHelper`` and ``connect_network_with_dataset``.

``DatasetHelper`` iterates a dataset as ``Model`` reads it
(:class:`mindjax.train._data.DataSource`), yielding each step's inputs as a
tuple of Tensors: ``epoch_num`` epochs, or, with ``dataset_sink_mode`` and a
``sink_size``, ``sink_size`` steps per epoch. MindSpore's sink mode puts the
batches in a device queue that the network reads itself; here the batches
come to the host loop, and ``connect_network_with_dataset``'s network takes
them as inputs or, called without inputs, reads the next batch from the helper
itself (MindSpore's ``GetNext``).
"""
from __future__ import annotations

from typing import Any, Iterator

import jax
import numpy as np

from mindjax.cells.cell import Cell
from mindjax.common.tensor import Tensor, wrap
from mindjax.train._data import DataSource

__all__ = ["DatasetHelper", "connect_network_with_dataset"]


def _tensors(batch: Any) -> tuple[Any, ...]:
    return tuple(Tensor(x) if isinstance(x, np.ndarray) else wrap(x) if isinstance(x, jax.Array) else x
                 for x in tuple(batch))


class DatasetHelper:
    """Iterate a dataset step by step for a hand-written training loop (MindSpore's ``DatasetHelper``).

    Arguments:
        dataset: a ``mindjax.dataset`` pipeline, an object with ``create_tuple_iterator``, or an
            iterable of batches.
        dataset_sink_mode (bool): MindSpore's sink mode; with ``sink_size`` it sets the steps per
            epoch. Default: ``True``.
        sink_size (int): steps per epoch in sink mode; -1 for the whole dataset. Default: ``-1``.
        epoch_num (int): epochs to iterate. Default: ``1``.

    Raises:
        TypeError: ``dataset_sink_mode`` is not a bool.
        ValueError: ``sink_size`` is neither -1 nor positive, or ``epoch_num`` is not positive.

    Example:
        >>> import numpy as np, mindjax as ms
        >>> helper = ms.DatasetHelper([(np.ones(2, np.float32),)] * 3, dataset_sink_mode=False)
        >>> [float(x.sum()) for (x,) in helper]
        [2.0, 2.0, 2.0]
    """

    def __init__(self, dataset: Any, dataset_sink_mode: bool = True, sink_size: int = -1,
                 epoch_num: int = 1) -> None:
        if not isinstance(dataset_sink_mode, bool):
            raise TypeError(f"For 'DatasetHelper', 'dataset_sink_mode' must be a bool, but got "
                            f"{type(dataset_sink_mode).__name__}.")
        if isinstance(sink_size, bool) or not isinstance(sink_size, int) or (sink_size != -1 and sink_size <= 0):
            raise ValueError(f"For 'DatasetHelper', 'sink_size' must be -1 or a positive int, but got {sink_size!r}.")
        if isinstance(epoch_num, bool) or not isinstance(epoch_num, int) or epoch_num <= 0:
            raise ValueError(f"For 'DatasetHelper', 'epoch_num' must be a positive int, but got {epoch_num!r}.")
        self.dataset = dataset
        self.dataset_sink_mode = dataset_sink_mode
        self._sink_size = sink_size
        self.epoch_num = epoch_num
        self._source = DataSource(dataset, "DatasetHelper", "dataset")
        self._stream: Iterator[tuple[Any, ...]] | None = None

    def sink_size(self) -> int:
        """Steps per epoch: ``sink_size`` in sink mode when set, else the dataset's size."""
        if self.dataset_sink_mode and self._sink_size > 0:
            return self._sink_size
        return self._source.size()

    def _steps(self) -> Iterator[tuple[Any, ...]]:
        for _ in range(self.epoch_num):
            if self.dataset_sink_mode and self._sink_size > 0:
                batches = self._source.steps(self._sink_size)
            else:
                batches = self._source.epoch()
            for batch in batches:
                yield _tensors(batch)

    def __iter__(self) -> Iterator[tuple[Any, ...]]:
        return self._steps()

    def __len__(self) -> int:
        return self.sink_size() * self.epoch_num

    def next_batch(self) -> tuple[Any, ...]:
        """The next step's inputs (what the network of :func:`connect_network_with_dataset` reads)."""
        if self._stream is None:
            self._stream = self._endless()
        return next(self._stream)

    def _endless(self) -> Iterator[tuple[Any, ...]]:
        while True:
            produced = False
            for batch in self._source.epoch():
                produced = True
                yield _tensors(batch)
            if not produced:
                raise ValueError("For 'DatasetHelper', the dataset gave no batch.")

    def types_shapes(self) -> tuple[list[Any], list[tuple[int, ...]]]:
        """The dtypes and shapes of one step's inputs (read from the first batch)."""
        first = next(iter(self._source.epoch()))
        batch = _tensors(first)
        return [t.dtype for t in batch], [tuple(t.shape) for t in batch]

    def get_data_info(self) -> tuple[list[Any], list[tuple[int, ...]]]:
        """The same as :meth:`types_shapes` (MindSpore's dynamic-shape query)."""
        return self.types_shapes()

    def release(self) -> None:
        """Free the reader (the dataset's background threads, if any)."""
        self._source.close()

    def stop_send(self) -> None:
        """Accepted: there is no device queue to stop feeding."""

    def continue_send(self) -> None:
        """Accepted: there is no device queue to feed."""


class _NetworkWithDataset(Cell):
    """A network that reads its inputs from a :class:`DatasetHelper` when called without any."""

    def __init__(self, network: Cell, helper: DatasetHelper) -> None:
        super().__init__(auto_prefix=False)
        self.network = network
        self._helper = helper

    def __call__(self, *inputs: Any, **kwargs: Any) -> Any:
        # The batch is read here, on the host, before any program runs: read inside construct it
        # would be a constant of the compiled program.
        if not inputs and not kwargs:
            inputs = self._helper.next_batch()
        return super().__call__(*inputs, **kwargs)

    def construct(self, *inputs: Any, **kwargs: Any) -> Any:
        return self.network(*inputs, **kwargs)


def connect_network_with_dataset(network: Cell, dataset_helper: DatasetHelper) -> Cell:
    """Connect ``network`` to ``dataset_helper`` (MindSpore's ``connect_network_with_dataset``; see the module).

    Arguments:
        network (Cell): the training network.
        dataset_helper (DatasetHelper): where its data comes from.

    Returns:
        Cell: ``network`` itself without sink mode (as MindSpore returns it); in sink mode a Cell
        that passes given inputs on and, called without inputs, reads the next batch from the helper.

    Raises:
        TypeError: ``network`` is not a Cell or ``dataset_helper`` not a DatasetHelper.
    """
    if not isinstance(network, Cell):
        raise TypeError(f"For 'connect_network_with_dataset', 'network' must be a Cell, but got "
                        f"{type(network).__name__}.")
    if not isinstance(dataset_helper, DatasetHelper):
        raise TypeError(f"For 'connect_network_with_dataset', 'dataset_helper' must be a DatasetHelper, but got "
                        f"{type(dataset_helper).__name__}.")
    if not dataset_helper.dataset_sink_mode:
        return network
    return _NetworkWithDataset(network, dataset_helper)
