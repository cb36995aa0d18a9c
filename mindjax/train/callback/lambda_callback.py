"""``LambdaCallback``: a callback built from plain functions."""
from __future__ import annotations

from typing import Any, Callable

from mindjax.train.callback.callback import Callback

__all__ = ["LambdaCallback"]

_Hook = Callable[[Any], Any] | None


class LambdaCallback(Callback):
    """Each argument, when given, is called with the ``RunContext`` at that hook.

    Arguments:
        on_train_epoch_begin ... on_eval_end: functions ``f(run_context)``.
    """

    def __init__(self, on_train_epoch_begin: _Hook = None, on_train_epoch_end: _Hook = None,
                 on_train_step_begin: _Hook = None, on_train_step_end: _Hook = None,
                 on_train_begin: _Hook = None, on_train_end: _Hook = None,
                 on_eval_epoch_begin: _Hook = None, on_eval_epoch_end: _Hook = None,
                 on_eval_step_begin: _Hook = None, on_eval_step_end: _Hook = None,
                 on_eval_begin: _Hook = None, on_eval_end: _Hook = None) -> None:
        super().__init__()
        hooks = dict(on_train_epoch_begin=on_train_epoch_begin, on_train_epoch_end=on_train_epoch_end,
                     on_train_step_begin=on_train_step_begin, on_train_step_end=on_train_step_end,
                     on_train_begin=on_train_begin, on_train_end=on_train_end,
                     on_eval_epoch_begin=on_eval_epoch_begin, on_eval_epoch_end=on_eval_epoch_end,
                     on_eval_step_begin=on_eval_step_begin, on_eval_step_end=on_eval_step_end,
                     on_eval_begin=on_eval_begin, on_eval_end=on_eval_end)
        for name, fn in hooks.items():
            if fn is not None and not callable(fn):
                raise TypeError(f"For 'LambdaCallback', '{name}' must be callable or None, got {type(fn).__name__}")
            setattr(self, name, fn if fn is not None else (lambda run_context: None))
