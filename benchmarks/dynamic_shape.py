"""Dynamic batch size (``Cell.set_inputs`` with ``None``) against static-shape compiles.

A GRAPH-mode training step (``TrainOneStepCell`` of an MLP 784-256-256-10,
Momentum, sparse softmax cross-entropy) called over 10 batch sizes, twice:
with ``set_inputs(Tensor(shape=[None, 784]), Tensor(shape=[None]))`` (one
symbolic trace, one XLA executable per size) and without (one trace and one
compile per size). Printed: the traces, the compilations and the time of the
first pass over the 10 sizes, and the steady step at batch 64 on both sides
(best of 5 runs of 50 steps).

Run: ``python -m benchmarks.dynamic_shape``
"""
from __future__ import annotations

import os
import time
from typing import Any

import jax
import numpy as np

import mindjax as ms
from mindjax import nn
from benchmarks._timing import markdown_table

SIZES = (8, 16, 24, 32, 40, 48, 56, 64, 72, 80)


class _Mlp(nn.Cell):
    def __init__(self) -> None:
        super().__init__()
        self.fc1 = nn.Dense(784, 256)
        self.fc2 = nn.Dense(256, 256)
        self.fc3 = nn.Dense(256, 10)
        self.relu = nn.ReLU()
        self.traces = 0

    def construct(self, x):
        self.traces += 1
        return self.fc3(self.relu(self.fc2(self.relu(self.fc1(x)))))


def _step(dynamic: bool) -> tuple[Any, _Mlp]:
    ms.set_seed(0)
    net = _Mlp()
    step = nn.TrainOneStepCell(nn.WithLossCell(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")),
                               nn.Momentum(net.trainable_params(), 0.01, 0.9))
    step.set_train()
    if dynamic:
        step.set_inputs(ms.Tensor(shape=[None, 784], dtype=ms.float32), ms.Tensor(shape=[None], dtype=ms.int32))
    return step, net


def main() -> None:
    """Print one markdown table."""
    ms.set_context(mode=ms.GRAPH_MODE)
    compiles = [0]

    def listen(event: str, duration: float, **_: Any) -> None:
        compiles[0] += event == "/jax/core/compile/backend_compile_duration"
    jax.monitoring.register_event_duration_secs_listener(listen)
    rng = np.random.default_rng(0)
    data = {n: (ms.Tensor(rng.standard_normal((n, 784)).astype(np.float32)),
                ms.Tensor(rng.integers(0, 10, n).astype(np.int32))) for n in SIZES}
    rows = []
    results = {}
    for dynamic in (True, False):
        step, net = _step(dynamic)
        before = compiles[0]
        start = time.perf_counter()
        for n in SIZES:
            step(*data[n]).asnumpy()
        first = time.perf_counter() - start
        results[dynamic] = (step, net.traces, compiles[0] - before, first)
    steady = {True: float("inf"), False: float("inf")}
    for _ in range(5):
        for dynamic in (True, False):
            step = results[dynamic][0]
            start = time.perf_counter()
            for _ in range(50):
                out = step(*data[64])
            out.asnumpy()
            steady[dynamic] = min(steady[dynamic], (time.perf_counter() - start) / 50)
    for dynamic in (True, False):
        _, traces, n_compiles, first = results[dynamic]
        rows.append(["set_inputs([None, 784])" if dynamic else "static shapes", traces, n_compiles,
                     f"{first:.2f} s", f"{steady[dynamic] * 1e3:.3f} ms"])
    print(f"Training step over {len(SIZES)} batch sizes ({SIZES[0]}..{SIZES[-1]}), MLP 784-256-256-10, "
          f"{jax.default_backend()}, {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}\n")
    print(markdown_table(["inputs", "traces", "compilations", "first pass over the sizes", "steady step at 64"],
                         rows))
    print(f"\nsteady step, dynamic / static: {steady[True] / steady[False]:.2f}")


if __name__ == "__main__":
    main()
