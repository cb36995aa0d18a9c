"""``sync_wait`` / ``sync_update``: a barrier in the pipeline that the training loop releases.

``data.sync_wait("policy", num_batch=1, callback=f)`` lets ``num_batch`` batches pass
(their rows counted with the batch size of the next ``batch``), then holds the next
row until ``dataset.sync_update("policy", data=d)`` is called; ``f(d)`` runs before
the rows go on. The barrier holds the pipeline's prefetch thread, not the training
loop; it gives up after ``config.get_data_timeout()`` seconds with an error.
"""
from __future__ import annotations

import threading
from typing import Any, Callable

import grain.python as grain

from mindjax.dataset.dataset import Dataset, as_iter_dataset
from mindjax.dataset.rows import ArgTypeError, DataError

__all__ = ["SyncWaitNode", "sync_update"]


class _Barrier:
    """The state one ``sync_wait`` shares between the pipeline thread and ``sync_update``."""

    def __init__(self) -> None:
        self.cond = threading.Condition()
        self.released = 0  # rows the pipeline may pass
        self.pending: list[Any] = []  # data of sync_update calls not given to the callback yet


class SyncWaitNode(Dataset):
    """``dataset.sync_wait(...)``: see :meth:`Dataset.sync_wait`."""

    _name = "sync_wait"

    def __init__(self, child: Dataset, condition_name: str, num_batch: int,
                 callback: Callable[[Any], Any] | None) -> None:
        super().__init__([child])
        if not isinstance(condition_name, str) or not condition_name:
            raise ArgTypeError(f"For 'sync_wait', 'condition_name' must be a non-empty str, got {condition_name!r}")
        if not isinstance(num_batch, int) or isinstance(num_batch, bool) or num_batch < 1:
            raise ValueError(f"For 'sync_wait', 'num_batch' must be a positive int, got {num_batch!r}")
        if callback is not None and not callable(callback):
            raise TypeError(f"For 'sync_wait', 'callback' must be callable, got {type(callback).__name__}")
        for node in child._walk():
            if isinstance(node, SyncWaitNode) and node.condition_name == condition_name:
                raise ValueError(f"For 'sync_wait', the condition name '{condition_name}' is already used")
        self.condition_name, self.num_batch, self.callback = condition_name, num_batch, callback
        self.batch_size = 1  # set by the next batch()
        self._barrier = _Barrier()

    def _columns(self) -> list[str]:
        return self.children[0].get_col_names()

    def _size(self) -> int | None:
        return self.children[0]._size()

    def _mappable(self) -> bool:
        return False

    def _python_callables(self) -> list[Any]:
        return [self.callback] if self.callback is not None else []

    def _build(self, ctx: Any, path: tuple[int, ...]) -> Any:
        with self._barrier.cond:
            self._barrier.released = self.num_batch * self.batch_size
            self._barrier.pending.clear()
        return _SyncIterDataset(as_iter_dataset(self._build_child(0, ctx, path)), self)

    def _update(self, num_batch: int | None, data: Any) -> None:
        barrier = self._barrier
        with barrier.cond:
            barrier.released += (self.num_batch if num_batch is None else num_batch) * self.batch_size
            barrier.pending.append(data)
            barrier.cond.notify_all()


class _SyncIterDataset(grain.IterDataset):
    def __init__(self, parent: grain.IterDataset, node: SyncWaitNode) -> None:
        super().__init__(parent)
        self.node = node

    def __iter__(self) -> grain.DatasetIterator:
        return _SyncIterator(self._parent.__iter__(), self.node)

    def __str__(self) -> str:
        return f"SyncWaitIterDataset(condition={self.node.condition_name!r})"


class _SyncIterator(grain.DatasetIterator):
    def __init__(self, parent: grain.DatasetIterator, node: SyncWaitNode) -> None:
        super().__init__(parent)
        self.node, self.passed = node, 0

    def __next__(self) -> Any:
        from mindjax.dataset import config

        row = next(self._parent)
        barrier, node = self.node._barrier, self.node
        with barrier.cond:
            if self.passed >= barrier.released:
                timeout = config.get_data_timeout()
                if not barrier.cond.wait_for(lambda: self.passed < barrier.released, timeout=timeout):
                    raise DataError(f"For 'sync_wait', condition '{node.condition_name}' waited {timeout} s for "
                                    "sync_update; call dataset.sync_update after each step's batches")
            pending, barrier.pending = barrier.pending, []
        if node.callback is not None:
            for data in pending:
                node.callback(data)
        self.passed += 1
        return row

    def get_state(self) -> dict[str, Any]:
        return {"parent": self._parent.get_state(), "passed": self.passed}

    def set_state(self, state: dict[str, Any]) -> None:
        self._parent.set_state(state["parent"])
        self.passed = int(state["passed"])


def sync_update(dataset: Dataset, condition_name: str, num_batch: int | None, data: Any) -> None:
    """Release the ``sync_wait`` named ``condition_name`` in ``dataset``'s pipeline."""
    if num_batch is not None and (not isinstance(num_batch, int) or isinstance(num_batch, bool) or num_batch < 1):
        raise ValueError(f"For 'sync_update', 'num_batch' must be a positive int, got {num_batch!r}")
    for node in dataset._walk():
        if isinstance(node, SyncWaitNode) and node.condition_name == condition_name:
            node._update(num_batch, data)
            return
    raise RuntimeError(f"For 'sync_update', the pipeline has no sync_wait named '{condition_name}'")
