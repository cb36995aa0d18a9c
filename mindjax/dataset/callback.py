"""Dataset callbacks (``mindspore.dataset.callback``): hooks a ``map`` calls as rows pass through it.

``dataset.map(ops, callbacks=[cb])`` calls ``cb.ds_begin`` once, ``ds_epoch_begin`` /
``ds_epoch_end`` around each epoch, and ``ds_step_begin`` / ``ds_step_end`` around
every ``step_size``-th row, in the order the rows leave the ``map``.
``WaitedDSCallback`` is also a training ``Callback``: before each step after the
first, the pipeline (in its prefetch thread) waits for the training loop's
``step_end`` (at most ``config.get_callback_timeout()`` seconds), then calls
``sync_step_begin`` with that step's context; likewise per epoch.
"""
from __future__ import annotations

import threading
import warnings
from typing import Any

import grain.python as grain

from mindjax.dataset._validate import FLOAT_MAX_INTEGER, check_type, check_value

__all__ = ["DSCallback", "WaitedDSCallback", "DSRunContext"]


class DSRunContext:
    """What a dataset callback sees: ``cur_epoch_num`` (1-based), ``cur_step_num_in_epoch`` and ``cur_step_num``."""

    def __init__(self) -> None:
        self.cur_epoch_num = 0
        self.cur_step_num_in_epoch = 0
        self.cur_step_num = 0

    def __repr__(self) -> str:
        return (f"DSRunContext(cur_epoch_num={self.cur_epoch_num}, cur_step_num_in_epoch="
                f"{self.cur_step_num_in_epoch}, cur_step_num={self.cur_step_num})")


class DSCallback:
    """Base of dataset callbacks; override the ``ds_*`` hooks.

    Arguments:
        step_size: call the step hooks every ``step_size`` rows. Default: 1.
    """

    def __init__(self, step_size: int = 1) -> None:
        check_type(step_size, (int,), "step_size")
        check_value(step_size, 1, FLOAT_MAX_INTEGER, "step_size")
        self.step_size = step_size

    def ds_begin(self, ds_run_context: DSRunContext) -> None:
        """Called once, before the first row."""

    def ds_epoch_begin(self, ds_run_context: DSRunContext) -> None:
        """Called before each epoch's first row."""

    def ds_epoch_end(self, ds_run_context: DSRunContext) -> None:
        """Called after each epoch's last row."""

    def ds_step_begin(self, ds_run_context: DSRunContext) -> None:
        """Called before steps 1, 1 + step_size, ... (counted over all epochs)."""

    def ds_step_end(self, ds_run_context: DSRunContext) -> None:
        """Called after steps 1, 1 + step_size, ..."""


def check_callbacks(callbacks: Any) -> list[DSCallback]:
    """``map``'s ``callbacks`` as a list of :class:`DSCallback`."""
    if callbacks is None:
        return []
    items = callbacks if isinstance(callbacks, (list, tuple)) else [callbacks]
    for cb in items:
        if not isinstance(cb, DSCallback):
            raise TypeError(f"For 'map', every callback must be a DSCallback, got {type(cb).__name__}")
    return list(items)


class _CallbackState:
    """Counters shared across the epochs of one pipeline."""

    def __init__(self) -> None:
        self.context = DSRunContext()
        self.begun = False


class CallbackIterDataset(grain.IterDataset):
    """Its parent's rows, calling the callbacks' hooks around them."""

    def __init__(self, parent: grain.IterDataset, callbacks: list[DSCallback], state: _CallbackState,
                 epoch: int) -> None:
        super().__init__(parent)
        self.callbacks, self.state, self.epoch = callbacks, state, epoch

    def __iter__(self) -> grain.DatasetIterator:
        return _CallbackIterator(self._parent.__iter__(), self)

    def __str__(self) -> str:
        return f"CallbackIterDataset(n={len(self.callbacks)})"


class _CallbackIterator(grain.DatasetIterator):
    def __init__(self, parent: grain.DatasetIterator, ds: CallbackIterDataset) -> None:
        super().__init__(parent)
        self.ds = ds
        self.started = self.ended = False

    def __next__(self) -> Any:
        state, ctx = self.ds.state, self.ds.state.context
        if not self.started:
            self.started = True
            ctx.cur_epoch_num, ctx.cur_step_num_in_epoch = self.ds.epoch + 1, 0
            if not state.begun:
                state.begun = True
                for cb in self.ds.callbacks:
                    cb.ds_begin(ctx)
            for cb in self.ds.callbacks:
                cb.ds_epoch_begin(ctx)
        try:
            row = next(self._parent)
        except StopIteration:
            if not self.ended:
                self.ended = True
                for cb in self.ds.callbacks:
                    cb.ds_epoch_end(ctx)
            raise
        ctx.cur_step_num += 1
        ctx.cur_step_num_in_epoch += 1
        for cb in self.ds.callbacks:
            if (ctx.cur_step_num - 1) % cb.step_size == 0:
                cb.ds_step_begin(ctx)
        for cb in self.ds.callbacks:
            if (ctx.cur_step_num - 1) % cb.step_size == 0:
                cb.ds_step_end(ctx)
        return row

    def get_state(self) -> dict[str, Any]:
        return {"parent": self._parent.get_state(), "started": self.started}

    def set_state(self, state: dict[str, Any]) -> None:
        self._parent.set_state(state["parent"])
        self.started = bool(state["started"])


def _wait(event: threading.Event, what: str) -> None:
    """Wait for the training loop's ``step_end``/``epoch_end`` (at most ``config.get_callback_timeout()`` s)."""
    from mindjax.dataset import config

    if not event.wait(config.get_callback_timeout()):
        warnings.warn(f"WaitedDSCallback: no training {what}_end within {config.get_callback_timeout()} s; "
                      "the pipeline goes on", RuntimeWarning, stacklevel=3)
    event.clear()


def _make_waited() -> type:
    from mindjax.train.callback.callback import Callback

    class WaitedDSCallback(Callback, DSCallback):
        """A dataset callback synchronised with training: override ``sync_epoch_begin`` / ``sync_step_begin``.

        Pass it both to ``Model.train(callbacks=...)`` and to ``dataset.map(callbacks=...)``.
        ``sync_step_begin(train_run_context, ds_run_context)`` runs before the rows of
        each step after the first, once training's ``step_end`` for the previous step came.

        Arguments:
            step_size: rows per training step (the batch size when the map is before ``batch``).
        """

        def __init__(self, step_size: int = 1) -> None:
            DSCallback.__init__(self, step_size)
            self.training_run_context: Any = None
            self.epoch_run_context: Any = None
            self._step_event, self._epoch_event = threading.Event(), threading.Event()

        def sync_epoch_begin(self, train_run_context: Any, ds_run_context: DSRunContext) -> None:
            """Called before each dataset epoch after the first."""

        def sync_step_begin(self, train_run_context: Any, ds_run_context: DSRunContext) -> None:
            """Called before each step's rows after the first step."""

        def step_end(self, run_context: Any) -> None:
            """Training hook: releases the pipeline waiting before the next step."""
            self.training_run_context = run_context
            self._step_event.set()

        def epoch_end(self, run_context: Any) -> None:
            """Training hook: releases the pipeline waiting before the next epoch."""
            self.epoch_run_context = run_context
            self._epoch_event.set()

        def ds_epoch_begin(self, ds_run_context: DSRunContext) -> None:
            if ds_run_context.cur_epoch_num > 1:
                _wait(self._epoch_event, "epoch")
                self.sync_epoch_begin(self.epoch_run_context, ds_run_context)

        def ds_step_begin(self, ds_run_context: DSRunContext) -> None:
            if ds_run_context.cur_step_num > self.step_size:
                _wait(self._step_event, "step")
                self.sync_step_begin(self.training_run_context, ds_run_context)

    WaitedDSCallback.__module__ = __name__
    return WaitedDSCallback


def __getattr__(name: str) -> Any:
    # WaitedDSCallback is a training Callback too; mindjax.train is imported only when it is asked for.
    if name == "WaitedDSCallback":
        cls = _make_waited()
        globals()[name] = cls
        return cls
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
