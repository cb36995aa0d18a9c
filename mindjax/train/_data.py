"""Datasets as ``Model`` reads them: epochs of tuples, sizes, stacked sink blocks.

Accepted: any object with ``create_tuple_iterator()`` (and
``get_dataset_size()``), or any re-iterable of tuples, lists or dicts of
arrays. A one-shot iterator is read once into memory so epochs can repeat.
"""
from __future__ import annotations

import concurrent.futures
from typing import Any, Iterator

import numpy as np


def _as_tuple(item: Any) -> tuple[Any, ...]:
    if isinstance(item, tuple):
        return item
    if isinstance(item, list):
        return tuple(item)
    if isinstance(item, dict):
        return tuple(item.values())
    return (item,)


class DataSource:
    """One interface over the dataset kinds ``Model`` accepts.

    Arguments:
        dataset: the dataset.
        who: the caller for error messages (``"Model.train"``).
        arg: the argument name for error messages.
    """

    def __init__(self, dataset: Any, who: str, arg: str) -> None:
        self.dataset = dataset
        self.who = who
        if dataset is None:
            raise ValueError(f"For '{who}', '{arg}' must be a dataset or an iterable of batches, got None")
        self._native = hasattr(dataset, "create_tuple_iterator")
        if not self._native:
            if not hasattr(dataset, "__iter__"):
                raise TypeError(f"For '{who}', '{arg}' must be a dataset or an iterable of batches, "
                                f"got {type(dataset).__name__}")
            if iter(dataset) is dataset:
                self.dataset = list(dataset)
        self._iterator: Iterator[tuple[Any, ...]] | None = None

    def size(self) -> int:
        """The number of batches per epoch."""
        if self._native and hasattr(self.dataset, "get_dataset_size"):
            return int(self.dataset.get_dataset_size())
        if hasattr(self.dataset, "__len__"):
            return len(self.dataset)
        self.dataset = list(self.dataset)
        return len(self.dataset)

    def epoch(self) -> Iterator[tuple[Any, ...]]:
        """The batches of one epoch, as tuples."""
        if self._native:
            try:
                it = self.dataset.create_tuple_iterator(num_epochs=1, output_numpy=True)
            except TypeError:
                it = self.dataset.create_tuple_iterator()
        else:
            it = iter(self.dataset)
        for item in it:
            yield _as_tuple(item)

    def endless(self) -> Iterator[tuple[Any, ...]]:
        """Batches forever, epoch after epoch (sink mode with ``sink_size`` > 0)."""
        while True:
            empty = True
            for item in self.epoch():
                empty = False
                yield item
            if empty:
                raise ValueError(f"For '{self.who}', the dataset yielded no batch")


def _signature(batch: tuple[Any, ...]) -> tuple[Any, ...]:
    return tuple((np.shape(x), str(np.asarray(x).dtype) if not hasattr(x, "dtype") else str(x.dtype))
                 for x in batch)


def stack_blocks(batches: Iterator[tuple[Any, ...]], count: int) -> list[tuple[tuple[Any, ...], int]]:
    """Read ``count`` batches (all remaining when -1) and stack them into blocks.

    Consecutive batches of equal shapes form one block (a short last batch
    starts a new one). Returns ``[(stacked arrays, number of steps), ...]``.
    """
    blocks: list[tuple[tuple[Any, ...], int]] = []
    run: list[tuple[Any, ...]] = []
    sig = None
    taken = 0
    for batch in batches:
        s = _signature(batch)
        if run and s != sig:
            blocks.append((_stack(run), len(run)))
            run = []
        run.append(batch)
        sig = s
        taken += 1
        if taken == count:
            break
    if run:
        blocks.append((_stack(run), len(run)))
    return blocks


def _stack(run: list[tuple[Any, ...]]) -> tuple[Any, ...]:
    import jax

    return tuple(jax.device_put(np.stack([np.asarray(b[i]) for b in run])) for i in range(len(run[0])))


class Prefetcher:
    """Prepares the next sink block on a background thread while the device computes."""

    def __init__(self) -> None:
        self._pool = concurrent.futures.ThreadPoolExecutor(max_workers=1, thread_name_prefix="mindjax-sink")

    def submit(self, fn: Any, *args: Any) -> "concurrent.futures.Future[Any]":
        """Run ``fn(*args)`` in the background."""
        return self._pool.submit(fn, *args)

    def close(self) -> None:
        """Stop the thread."""
        self._pool.shutdown(wait=False, cancel_futures=True)
