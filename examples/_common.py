"""Pieces the example scripts share: the virtual device count and a logged training run.

Importing this module does not import JAX, so ``set_device_count`` can still
take effect.
"""
from __future__ import annotations

import os
import sys
import time
from typing import Any

__all__ = ["set_device_count", "train_and_log"]


def set_device_count(n: int) -> None:
    """Ask XLA for ``n`` virtual CPU devices; must run before JAX starts its backend."""
    if n > 1 and "jax" not in sys.modules:
        flags = os.environ.get("XLA_FLAGS", "")
        if "xla_force_host_platform_device_count" not in flags:
            os.environ["XLA_FLAGS"] = f"{flags} --xla_force_host_platform_device_count={n}".strip()


def train_and_log(model: Any, data: Any, steps: int, log_every: int,
                  sink: bool) -> tuple[list[float], list[tuple[int, float]], float]:
    """Train one pass over ``data`` (``steps`` batches), recording the loss of each step (each sink).

    Returns:
        ``(losses, logged, seconds)``: every recorded loss, the ``(step, loss)``
        pairs worth printing (every ``log_every`` steps, the first and the last),
        and the wall time.
    """
    from mindjax.train import Callback

    losses: list[float] = []

    class Recorder(Callback):
        def on_train_step_end(self, run_context: Any) -> None:
            losses.append(float(run_context.original_args().net_outputs))

    import jax

    # MindSpore's CPU backend (and MindJAX's on XLA:CPU) has no sink mode: each epoch is the whole dataset.
    sink = sink and jax.default_backend() != "cpu"
    start = time.perf_counter()
    if sink:
        per_sink = min(log_every, steps)
        model.train(steps // per_sink, data, callbacks=[Recorder()], dataset_sink_mode=True, sink_size=per_sink)
        logged = [((k + 1) * per_sink, loss) for k, loss in enumerate(losses)]
    else:
        model.train(1, data, callbacks=[Recorder()])
        logged = [(k + 1, loss) for k, loss in enumerate(losses)
                  if (k + 1) % log_every == 0 or k == 0 or k + 1 == len(losses)]
    return losses, logged, time.perf_counter() - start
