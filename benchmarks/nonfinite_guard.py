"""Cost of the non-finite-loss guard in the compiled training step.

``Model.train`` compiles its step with a guard (the default,
``nonfinite_loss='raise'``): a step whose loss is NaN or Inf, or whose value
checks failed, keeps the state it started with. ``nonfinite_loss='apply'``
compiles the step without it, as MindSpore runs. This prints, for LeNet-5
(batch 32) and the MLP 784-512-512-10 (batch 64) of ``train_step``, the step
time with and without the guard, and XLA's bytes accessed and peak memory of
both compiled steps, as ratios (target: at most 1.02).

Run: ``python -m benchmarks.nonfinite_guard [--steps 50] [--repeat 7]``
"""
from __future__ import annotations

import argparse
import time
from typing import Any

import jax
import jax.numpy as jnp

import mindjax as ms
from mindjax import nn
from mindjax.train._step import StepProgram
from benchmarks._timing import markdown_table
from benchmarks.train_step import CASES, LR, MOMENTUM, _data, _hand_step, _params, _peak_bytes


def _program(make: Any, guard: bool) -> StepProgram:
    ms.set_seed(0)
    net = make()
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    train = nn.TrainOneStepCell(nn.WithLossCell(net, loss), nn.Momentum(net.trainable_params(), LR, MOMENTUM))
    return StepProgram(train, guard_loss=guard)


def _bytes_accessed(compiled: Any) -> float:
    cost = compiled.cost_analysis()
    cost = cost[0] if isinstance(cost, list) else cost
    return float(cost.get("bytes accessed", 0.0))


def measure(name: str, steps: int, repeat: int) -> list[list[str]]:
    """Rows for one network: time, bytes accessed and peak memory, guard on against off."""
    make, forward, batch, shape = CASES[name]
    x, y = _data(batch, shape, 1)
    batch_arrays = (jnp.asarray(x), jnp.asarray(y))
    programs = {guard: _program(make, guard) for guard in (True, False)}
    compiled = {guard: p.compile(batch_arrays) for guard, p in programs.items()}
    for p in programs.values():
        jax.block_until_ready(p(batch_arrays))
    best = {True: float("inf"), False: float("inf")}
    for _ in range(repeat):  # interleaved, so a changing load hits both alike
        for guard, p in programs.items():
            start = time.perf_counter()
            for _ in range(steps):
                out = p(batch_arrays)
            jax.block_until_ready(out)
            best[guard] = min(best[guard], (time.perf_counter() - start) / steps)
    on_bytes, off_bytes = _bytes_accessed(compiled[True]), _bytes_accessed(compiled[False])
    hand, opt = _hand_step(forward)
    params = _params(programs[True].cell.network.backbone_network)
    hand_bytes = _bytes_accessed(hand.lower(params, opt.init(params), *batch_arrays).compile())
    on_peak, off_peak = _peak_bytes(compiled[True]), _peak_bytes(compiled[False])
    return [
        [f"step time, {name}", f"{best[True] * 1e3:.3f} ms", f"{best[False] * 1e3:.3f} ms",
         f"{best[True] / best[False]:.3f}"],
        [f"bytes accessed, {name}", f"{on_bytes / 2**20:.2f} MiB", f"{off_bytes / 2**20:.2f} MiB",
         f"{on_bytes / off_bytes:.3f}"],
        [f"peak memory, {name}", f"{on_peak / 2**20:.2f} MiB", f"{off_peak / 2**20:.2f} MiB",
         f"{on_peak / off_peak:.3f}"],
        [f"bytes accessed, {name}, guard on against the hand-written `jax.jit` + optax step",
         f"{on_bytes / 2**20:.2f} MiB", f"{hand_bytes / 2**20:.2f} MiB (hand-written)", f"{on_bytes / hand_bytes:.3f}"],
    ]


def main() -> None:
    """Print the guard's cost table."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--steps", type=int, default=50)
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()
    rows: list[list[str]] = []
    for name in CASES:
        rows += measure(name, args.steps, args.repeat)
    print(markdown_table(["measure", "guard on (default)", "guard off (nonfinite_loss='apply')", "ratio"], rows))


if __name__ == "__main__":
    main()
