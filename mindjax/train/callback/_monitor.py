"""The monitored value shared by ``EarlyStopping`` and ``ReduceLROnPlateau``."""
from __future__ import annotations

import warnings
from typing import Any, Callable

import numpy as np

from mindjax.train.callback.callback import _loss_value

SMALLER_IS_BETTER = ("hausdorff_distance", "mae", "mse", "loss", "perplexity", "mean_surface_distance",
                     "root_mean_square_distance", "eval_loss")


def improvement_rule(owner: str, monitor: str, mode: str,
                     min_delta: float) -> tuple[Callable[[Any, Any], bool], float]:
    """``(is_improvement(current, best), initial best)`` for ``mode`` ('auto', 'min' or 'max')."""
    if mode not in ("auto", "min", "max"):
        raise ValueError(f"For '{owner}', 'mode' must be 'auto', 'min' or 'max', got {mode!r}")
    if mode == "min" or (mode == "auto" and monitor in SMALLER_IS_BETTER):
        return (lambda a, b: bool(np.less(a, b - min_delta))), np.inf
    return (lambda a, b: bool(np.greater(a, b + min_delta))), -np.inf


def monitor_value(owner: str, monitor: str, cb_params: Any) -> Any:
    """The current value of ``monitor``: the training loss or an ``eval_results`` entry."""
    candidates: dict[str, Any] = {}
    if monitor == "loss":
        value = _loss_value(cb_params.get("net_outputs"))
    else:
        candidates = cb_params.get("eval_results", {}) or {}
        value = candidates.get(monitor)
    if value is None:
        warnings.warn(f"{owner} is conditioned on '{monitor}', which is not available; available: "
                      f"{sorted(set(['loss'] + list(candidates)))}", stacklevel=3)
        return None
    value = np.asarray(value)
    if value.shape != ():
        raise ValueError(f"For '{owner}', the monitored value '{monitor}' must be a scalar, got shape {value.shape}")
    # MindSpore 2.10 tests the value's truth: a value of exactly 0 (an accuracy of 0
    # in the first epoch) counts as unavailable and the epoch is skipped.
    return value if value else None
