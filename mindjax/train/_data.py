"""Datasets as ``Model`` reads them: one stream across epochs, sizes, sink blocks, positions.

Accepted: a ``mindjax.dataset`` pipeline (anything with ``device_iterator``),
another object with ``create_tuple_iterator()`` (and ``get_dataset_size()``),
or any re-iterable of tuples, lists or dicts of arrays. A one-shot iterator is
read once into memory so epochs can repeat.

A ``mindjax.dataset`` pipeline is read through ONE ``device_iterator`` for the
whole run: each epoch continues the same stream, so a shuffled pipeline gives
a new order every epoch (as MindSpore's does), and its background threads put
the next batches (or stacked sink blocks) on the device while the current
step runs. ``get_state``/``set_state`` save and restore the position of the
next batch ``Model`` will use, as JSON, for exact resume.
"""
from __future__ import annotations

import concurrent.futures
import json
from typing import Any, Iterator

import numpy as np

_STATE_VERSION = 1


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
        sink_size: ``None`` for step-by-step reading; in sink mode the steps per
            sink (-1: a whole epoch), which sets the stacking of device blocks.
        num_epochs: epochs the stream may run (-1: endless; ``Model.eval`` reads one).
    """

    def __init__(self, dataset: Any, who: str, arg: str, sink_size: int | None = None,
                 num_epochs: int = -1) -> None:
        self.dataset = dataset
        self.who = who
        if dataset is None:
            raise ValueError(f"For '{who}', '{arg}' must be a dataset or an iterable of batches, got None")
        self._device = hasattr(dataset, "device_iterator") and hasattr(dataset, "get_dataset_size")
        self._native = hasattr(dataset, "create_tuple_iterator")
        if not self._native:
            if not hasattr(dataset, "__iter__"):
                raise TypeError(f"For '{who}', '{arg}' must be a dataset or an iterable of batches, "
                                f"got {type(dataset).__name__}")
            if iter(dataset) is dataset:
                self.dataset = list(dataset)
        self._sink_size = sink_size
        self._num_epochs = num_epochs
        self._size: int | None = None
        # Device-iterator path.
        self._iterator: Any = None
        # Rows of the current epoch the device iterator had passed when it was created (set_init_step).
        self._entered_at = 0
        self._pending_state: dict[str, Any] | None = None
        # A stacked block partly used by the last sink: [arrays, steps, used, state before it].
        self._carry: list[Any] | None = None
        # Plain-iterable path: batches used since the start of the current pass.
        self._position = 0
        self._stream: Iterator[tuple[Any, ...]] | None = None
        self._prefetcher: Prefetcher | None = None
        self._next_blocks: "concurrent.futures.Future[Any] | None" = None

    # -- sizes ---------------------------------------------------------------
    def size(self) -> int:
        """The number of batches per epoch."""
        if self._size is None:
            self._size = self._read_size()
        return self._size

    def _read_size(self) -> int:
        if self._native and hasattr(self.dataset, "get_dataset_size"):
            return int(self.dataset.get_dataset_size())
        if hasattr(self.dataset, "__len__"):
            return len(self.dataset)
        self.dataset = list(self.dataset)
        return len(self.dataset)

    # -- step by step ----------------------------------------------------------
    def epoch(self) -> Iterator[tuple[Any, ...]]:
        """The batches of one epoch, as tuples (device arrays for a ``mindjax.dataset``).

        A dataset object with ``reset()`` (and no ``device_iterator``) is reset when the epoch
        ends, as MindSpore's ``Model`` resets its dataset after each epoch.
        """
        yield from self.steps(self.size(), whole_epoch=True)
        if not self._device and self._native and callable(getattr(self.dataset, "reset", None)):
            self.dataset.reset()
            self._stream, self._position = None, 0

    def steps(self, count: int, whole_epoch: bool = False) -> Iterator[tuple[Any, ...]]:
        """The next ``count`` batches of the stream, one at a time, continuing across epochs
        (``whole_epoch``: the rest of the current epoch, which ``set_init_step`` may have entered part-way)."""
        if self._device:
            it = self._device_iterator()
            if whole_epoch:
                # After dataset.set_init_step the first epoch is entered part-way and ends at its own end.
                entered, self._entered_at = self._entered_at, 0
                count -= entered
            for _ in range(count):
                try:
                    batch = next(it)
                except StopIteration:
                    return
                yield batch
            return
        stream = self._plain_stream()
        for _ in range(count):
            try:
                batch = next(stream)
            except StopIteration:
                return
            self._advance(1)
            yield batch

    # -- sink blocks -------------------------------------------------------------
    def sink(self, steps: int, more: bool = True) -> list[tuple[tuple[Any, ...], int]]:
        """Stacked batches for ``steps`` steps (-1: one epoch): ``[(stacked arrays, steps), ...]``.

        Consecutive batches of equal shapes share one block; a change of shape
        (a short last batch) starts a new one. ``more`` says whether another
        call will follow, so the next blocks can be prepared in the background.
        """
        count = self.size() if steps == -1 else steps
        if count <= 0:
            raise ValueError(f"For '{self.who}', the dataset yielded no batch")
        blocks = self._device_blocks(count) if self._device else self._plain_blocks(count, more)
        if not blocks:
            raise ValueError(f"For '{self.who}', the dataset yielded no batch")
        return blocks

    def _device_blocks(self, count: int) -> list[tuple[tuple[Any, ...], int]]:
        it = self._device_iterator()
        blocks: list[tuple[tuple[Any, ...], int]] = []
        need = count
        while need > 0:
            if self._carry is None:
                before = it.get_state()
                try:
                    stacked = next(it)
                except StopIteration:
                    break
                self._carry = [stacked, int(stacked[0].shape[0]), 0, before]
            stacked, steps, used, _ = self._carry
            take = min(need, steps - used)
            if used == 0 and take == steps:
                blocks.append((stacked, take))
            else:  # the block straddles two sinks: split it on the device
                blocks.append((tuple(x[used:used + take] for x in stacked), take))
            need -= take
            if used + take == steps:
                self._carry = None
            else:
                self._carry[2] = used + take
        return blocks

    def _plain_blocks(self, count: int, more: bool) -> list[tuple[tuple[Any, ...], int]]:
        if self._prefetcher is None:
            self._prefetcher = Prefetcher()
        stream = self._plain_stream()
        pending = self._next_blocks
        blocks = pending.result() if pending is not None else stack_blocks(stream, count)
        self._next_blocks = self._prefetcher.submit(stack_blocks, stream, count) if more else None
        self._advance(sum(n for _, n in blocks))
        return blocks

    # -- positions -----------------------------------------------------------------
    def get_state(self) -> dict[str, Any]:
        """The position of the next batch ``Model`` will use, as a JSON-compatible dict."""
        if self._device:
            if self._carry is not None:
                inner, skip = self._carry[3], self._carry[2]
            elif self._iterator is not None:
                inner, skip = self._iterator.get_state(), 0
            elif self._pending_state is not None:
                return self._pending_state
            else:
                inner, skip = None, 0
            state = {"version": _STATE_VERSION, "kind": "device_iterator", "iterator": inner, "skip": skip}
        else:
            state = {"version": _STATE_VERSION, "kind": "iterable", "position": self._position}
        json.dumps(state)
        return state

    def set_state(self, state: dict[str, Any]) -> None:
        """Continue from a position returned by :meth:`get_state` on the same dataset.

        Raises:
            ValueError: when ``state`` was not saved from this kind of dataset.
        """
        kind = "device_iterator" if self._device else "iterable"
        if not isinstance(state, dict) or state.get("version") != _STATE_VERSION or state.get("kind") != kind:
            raise ValueError(f"For '{self.who}', the saved data position must come from a {kind} dataset "
                             f"(version {_STATE_VERSION}), got {state!r}")
        if self._device:
            self._carry = None
            if self._iterator is None:
                self._pending_state = state  # applied when the iterator starts
            else:
                self._apply(state)
            return
        self._drop_prefetched()
        self._stream = None
        self._position = int(state["position"])

    def _apply(self, state: dict[str, Any]) -> None:
        if state["iterator"] is not None:
            self._iterator.set_state(state["iterator"])
        if state["skip"]:
            self._device_blocks(int(state["skip"]))

    def close(self) -> None:
        """Stop the background threads and worker processes."""
        self._drop_prefetched()
        if self._prefetcher is not None:
            self._prefetcher.close()
            self._prefetcher = None
        if self._iterator is not None:
            self._iterator.close()
            self._iterator = None

    # -- internals ---------------------------------------------------------------------
    def _device_iterator(self) -> Any:
        if self._iterator is None:
            stack = None
            if self._sink_size is not None:
                stack = self.size() if self._sink_size == -1 else self._sink_size
            # A sink block can be a whole epoch: hold one ahead on the device, not two.
            self._iterator = self.dataset.device_iterator(stack=stack, num_epochs=self._num_epochs,
                                                          device_prefetch=2 if stack is None else 1)
            position = getattr(self.dataset, "_init_position", None)
            self._entered_at = position()[1] if position is not None and self.size() > 0 else 0
            if self._pending_state is not None:
                state, self._pending_state = self._pending_state, None
                self._apply(state)
        return self._iterator

    def _plain_stream(self) -> Iterator[tuple[Any, ...]]:
        if self._stream is None:
            self._stream = self._passes(self._position)
        return self._stream

    def _passes(self, skip: int) -> Iterator[tuple[Any, ...]]:
        """Batches pass after pass over the iterable, the first pass from batch ``skip``."""
        while True:
            empty = True
            for i, item in enumerate(self._one_pass()):
                empty = False
                if i >= skip:
                    yield _as_tuple(item)
            if self._native and callable(getattr(self.dataset, "reset", None)):
                # As MindSpore's Model does after each epoch: a dataset object that keeps its own
                # position (its iterator is itself) starts over on the next pass.
                self.dataset.reset()
            if empty:
                return
            skip = 0

    def _one_pass(self) -> Iterator[Any]:
        if self._native:
            try:
                return iter(self.dataset.create_tuple_iterator(num_epochs=1, output_numpy=True))
            except TypeError:
                return iter(self.dataset.create_tuple_iterator())
        return iter(self.dataset)

    def _advance(self, steps: int) -> None:
        size = self.size()
        self._position = (self._position + steps) % size if size > 0 else 0

    def _drop_prefetched(self) -> None:
        if self._next_blocks is not None:
            self._next_blocks.cancel()
            try:
                self._next_blocks.result()
            except Exception:  # noqa: BLE001 - the run is over or repositioned; its error is moot
                pass
            self._next_blocks = None


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
