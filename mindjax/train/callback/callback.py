"""``Callback``, ``RunContext`` and the list that dispatches hooks in order.

The hooks match MindSpore 2.x: ``on_train_begin``, ``on_train_epoch_begin``,
``on_train_step_begin``, ``on_train_step_end``, ``on_train_epoch_end``,
``on_train_end`` and the ``on_eval_*`` family. By default each forwards to the
legacy ``begin``/``epoch_begin``/``step_begin``/``step_end``/``epoch_end``/``end``.

Example:
    >>> class PrintStep(Callback):
    ...     def step_end(self, run_context):
    ...         print(run_context.original_args().cur_step_num)
"""
from __future__ import annotations

from typing import Any, Iterable

__all__ = ["Callback", "RunContext"]


class _CallbackParams(dict):
    """A dict whose keys read and write as attributes (MindSpore's ``cb_params``)."""

    def __getattr__(self, key: str) -> Any:
        try:
            return self[key]
        except KeyError:
            raise AttributeError(f"the run context has no attribute '{key}'") from None

    def __setattr__(self, key: str, value: Any) -> None:
        self[key] = value


class RunContext:
    """What callbacks see of a running ``train``/``eval``.

    Arguments:
        original_args: the dict of run information (``cur_epoch_num``,
            ``cur_step_num``, ``net_outputs``, ``train_network``, ``optimizer``,
            ``batch_num``, ``epoch_num`` ...).
    """

    def __init__(self, original_args: dict[str, Any]) -> None:
        if not isinstance(original_args, dict):
            raise TypeError(f"For 'RunContext', 'original_args' must be a dict, got {type(original_args).__name__}")
        self._original_args = original_args
        self._stop_requested = False

    def original_args(self) -> Any:
        """The run information (attribute access: ``cb_params.cur_step_num``)."""
        return self._original_args

    def request_stop(self) -> None:
        """Ask ``Model.train``/``eval`` to stop after the current step."""
        self._stop_requested = True

    def get_stop_requested(self) -> bool:
        """Whether a stop was requested."""
        return self._stop_requested


class Callback:
    """Base class of training and evaluation callbacks; every hook does nothing by default."""

    def __enter__(self) -> "Callback":
        return self

    def __exit__(self, *err: Any) -> None:
        return None

    # Legacy hooks, shared by training and evaluation.
    def begin(self, run_context: RunContext) -> None:
        """Called once before the run."""

    def epoch_begin(self, run_context: RunContext) -> None:
        """Called before each epoch."""

    def epoch_end(self, run_context: RunContext) -> None:
        """Called after each epoch."""

    def step_begin(self, run_context: RunContext) -> None:
        """Called before each step (each sink in sink mode)."""

    def step_end(self, run_context: RunContext) -> None:
        """Called after each step (each sink in sink mode)."""

    def end(self, run_context: RunContext) -> None:
        """Called once after the run."""

    def on_train_begin(self, run_context: RunContext) -> None:
        """Called once before training."""
        self.begin(run_context)

    def on_train_epoch_begin(self, run_context: RunContext) -> None:
        """Called before each training epoch."""
        self.epoch_begin(run_context)

    def on_train_epoch_end(self, run_context: RunContext) -> None:
        """Called after each training epoch."""
        self.epoch_end(run_context)

    def on_train_step_begin(self, run_context: RunContext) -> None:
        """Called before each training step."""
        self.step_begin(run_context)

    def on_train_step_end(self, run_context: RunContext) -> None:
        """Called after each training step."""
        self.step_end(run_context)

    def on_train_end(self, run_context: RunContext) -> None:
        """Called once after training."""
        self.end(run_context)

    def on_eval_begin(self, run_context: RunContext) -> None:
        """Called once before evaluation."""
        self.begin(run_context)

    def on_eval_epoch_begin(self, run_context: RunContext) -> None:
        """Called before the evaluation epoch."""
        self.epoch_begin(run_context)

    def on_eval_epoch_end(self, run_context: RunContext) -> None:
        """Called after the evaluation epoch."""
        self.epoch_end(run_context)

    def on_eval_step_begin(self, run_context: RunContext) -> None:
        """Called before each evaluation step."""
        self.step_begin(run_context)

    def on_eval_step_end(self, run_context: RunContext) -> None:
        """Called after each evaluation step."""
        self.step_end(run_context)

    def on_eval_end(self, run_context: RunContext) -> None:
        """Called once after evaluation."""
        self.end(run_context)


_HOOKS = ("on_train_begin", "on_train_epoch_begin", "on_train_step_begin", "on_train_step_end",
          "on_train_epoch_end", "on_train_end", "on_eval_begin", "on_eval_epoch_begin",
          "on_eval_step_begin", "on_eval_step_end", "on_eval_epoch_end", "on_eval_end")


class _CallbackList:
    """Calls one hook on every callback, in order; entering it enters each callback."""

    def __init__(self, callbacks: Iterable[Callback]) -> None:
        self._callbacks = list(callbacks)
        # Bound methods resolved once: the per-step path is a loop over a tuple.
        for hook in _HOOKS:
            bound = tuple(getattr(cb, hook) for cb in self._callbacks)
            setattr(self, hook, self._dispatcher(bound))

    @staticmethod
    def _dispatcher(bound: tuple[Any, ...]) -> Any:
        if not bound:
            return lambda run_context: None

        def dispatch(run_context: RunContext) -> None:
            for fn in bound:
                fn(run_context)
        return dispatch

    def __enter__(self) -> "_CallbackList":
        for cb in self._callbacks:
            cb.__enter__()
        return self

    def __exit__(self, *err: Any) -> None:
        for cb in self._callbacks:
            cb.__exit__(*err)


def _as_callback_list(callbacks: Any, who: str) -> list[Callback]:
    """Normalise ``callbacks`` (None, one Callback or a list) into a list."""
    if callbacks is None:
        return []
    items = list(callbacks) if isinstance(callbacks, (list, tuple)) else [callbacks]
    for i, cb in enumerate(items):
        if not isinstance(cb, Callback):
            raise TypeError(f"For '{who}', every element of 'callbacks' must be a Callback, "
                            f"got {type(cb).__name__} at index {i}")
    return items


class _CallbackManager(_CallbackList):
    """MindSpore's ``_CallbackManager``: the ``_CallbackList`` of ``callbacks`` (None, one Callback or a
    list of them), as a loop that drives callbacks by hand enters it (``with _CallbackManager(cbs) as cb``)."""

    def __init__(self, callbacks: Any) -> None:
        super().__init__(_as_callback_list(callbacks, "CallbackManager"))


# MindSpore's name for the run information dict (``cb_params``) that user loops build themselves.
_InternalCallbackParam = _CallbackParams


def _loss_value(net_outputs: Any) -> Any:
    """The loss as a Python float, from a step's outputs (first element of a tuple)."""
    import numpy as np

    loss = net_outputs
    if isinstance(loss, (tuple, list)) and loss:
        loss = loss[0]
    if loss is None:
        return None
    try:
        return float(np.mean(np.asarray(loss)))
    except (TypeError, ValueError):
        return loss
