"""Sink mode against step-by-step training: ``Model.train(..., dataset_sink_mode=True)`` / ``False``.

LeNet-5 at batch 32, 60 steps per epoch, Momentum on sparse softmax
cross-entropy, GRAPH mode, fed the same data both ways: in-memory numpy
batches, and a ``mindjax.dataset`` pipeline. Sink mode runs as this backend
does (on XLA:CPU step by step, as MindSpore's CPU backend; elsewhere
``lax.scan`` over stacked blocks), and, for comparison, with ``lax.scan``
forced. Each timed call trains 2 epochs and waits for the
weights; the variants take turns within each repeat, so a load that changes
during the run hits all of them alike; the best repeat counts.

Run: ``python -m benchmarks.sink_mode [--steps 60] [--repeat 5]``
"""
from __future__ import annotations

import argparse
import os
import time
from typing import Any, Callable

import jax
import numpy as np

import mindjax as ms
import mindjax.dataset as ds
from mindjax import nn
from mindjax.train import Model, _step
from benchmarks._timing import markdown_table
from benchmarks.train_step import LeNet5

BATCH = 32


def _model() -> tuple[Model, nn.Cell]:
    ms.set_seed(0)
    net = LeNet5()
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    return Model(net, loss, nn.Momentum(net.trainable_params(), 0.01, 0.9)), net


def _runner(data: Callable[[], Any], sink: bool, scan: bool) -> Callable[[], float]:
    model, net = _model()
    feed = data()

    def run() -> float:
        _step.sink_runs_on_device = lambda: scan
        start = time.perf_counter()
        model.train(2, feed, dataset_sink_mode=sink)
        jax.block_until_ready([p._value for p in net.get_parameters()])
        return time.perf_counter() - start
    run()  # compile
    return run


def main() -> None:
    """Print one markdown table of per-step times and ratios."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--steps", type=int, default=60)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    ms.set_context(mode=ms.GRAPH_MODE)
    rng = np.random.default_rng(0)
    x = rng.normal(size=(args.steps * BATCH, 1, 32, 32)).astype(np.float32)
    y = rng.integers(0, 10, args.steps * BATCH).astype(np.int32)
    arrays = lambda: [(x[i:i + BATCH], y[i:i + BATCH]) for i in range(0, len(x), BATCH)]  # noqa: E731
    pipeline = lambda: ds.NumpySlicesDataset({"x": x, "y": y}, shuffle=False).batch(  # noqa: E731
        BATCH, drop_remainder=True)
    native = _step.sink_runs_on_device
    runs = {}
    for feed_name, feed in (("arrays", arrays), ("pipeline", pipeline)):
        runs[(feed_name, "non-sink")] = _runner(feed, False, native())
        runs[(feed_name, "sink, step by step")] = _runner(feed, True, False)
        runs[(feed_name, "sink, lax.scan")] = _runner(feed, True, True)
    _step.sink_runs_on_device = native
    best = {key: float("inf") for key in runs}
    load_before = os.getloadavg()
    for _ in range(args.repeat):
        for key, run in runs.items():
            best[key] = min(best[key], run() / (2 * args.steps))
    rows = []
    chosen = "sink, lax.scan" if native() else "sink, step by step"
    for feed_name in ("arrays", "pipeline"):
        base = best[(feed_name, "non-sink")]
        for variant in ("sink, step by step", "sink, lax.scan"):
            t = best[(feed_name, variant)]
            note = " (this backend's choice)" if variant == chosen else ""
            rows.append([f"LeNet-5, {feed_name}", variant + note, f"{t * 1e3:.3f} ms", f"{base * 1e3:.3f} ms",
                         f"{t / base:.2f}", "<= 1.0" if variant == chosen else ""])
    print(f"Sink / non-sink step time, LeNet-5 batch {BATCH}, {args.steps} steps per epoch, best of {args.repeat}, "
          f"{jax.default_backend()}, {os.cpu_count()} cores, load average {load_before[0]:.1f} before and "
          f"{os.getloadavg()[0]:.1f} after\n")
    print(markdown_table(["network, data", "sink mechanism", "sink", "non-sink", "ratio", "target"], rows))


if __name__ == "__main__":
    main()
