"""What MindSpore's 64-bit dtype rules cost the compiled step: ``jax_enable_x64`` on against off.

MindJAX turns on JAX's 64-bit types at import, because MindSpore's rules need
Int64 and Float64 Tensors (``ms.Tensor([1, 2])`` is Int64). MindJAX's own
defaults stay 32-bit, so a float32 model's step should stay float32. This
checks both claims on ``Model.train``'s compiled step, LeNet-5 batch 32, in one
process: the 64-bit element types in the step's StableHLO (counted per dtype),
and the step time with x64 on against x64 off (``set_context(enable_x64=False)``),
interleaved over repeats.

Run: ``python -m benchmarks.x64_cost [--steps 30] [--repeat 5]``
"""
from __future__ import annotations

import argparse
import re
import time
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

import mindjax as ms
from mindjax import nn
from mindjax.train import Model
from benchmarks._timing import markdown_table
from benchmarks.train_step import LR, MOMENTUM, LeNet5


def _model() -> tuple[Model, nn.Cell]:
    ms.set_seed(0)
    net = LeNet5()
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    return Model(net, loss, nn.Momentum(net.trainable_params(), LR, MOMENTUM)), net


def _wide_types(hlo: str) -> dict[str, int]:
    """How often each 64-bit element type appears in a StableHLO text."""
    found: dict[str, int] = {}
    for dtype in re.findall(r"x(f64|i64|ui64|c128)>", hlo) + re.findall(r"tensor<(f64|i64|ui64|c128)>", hlo):
        found[dtype] = found.get(dtype, 0) + 1
    return found


def _setup(x64: bool, batches: list[tuple[Any, Any]]) -> tuple[Any, str]:
    ms.set_context(mode=ms.GRAPH_MODE, enable_x64=x64)
    model, net = _model()
    data = [(ms.Tensor(x), ms.Tensor(y)) for x, y in batches]
    model.train(1, data[:1])  # compiles
    hlo = model._train_program().lowered_text(tuple(t.value() for t in data[0]))

    def run() -> Any:
        model.train(1, data)
        return [p.value() for p in net.get_parameters()]
    return run, hlo


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--steps", type=int, default=30)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    batches = [(rng.normal(size=(32, 1, 32, 32)).astype(np.float32),
                rng.integers(0, 10, size=(32,)).astype(np.int32)) for _ in range(args.steps)]
    runs, hlos = {}, {}
    for x64 in (True, False):
        runs[x64], hlos[x64] = _setup(x64, batches)
    best = {True: float("inf"), False: float("inf")}
    for _ in range(args.repeat):
        for x64 in (True, False):
            jax.config.update("jax_enable_x64", x64)
            start = time.perf_counter()
            jax.block_until_ready(runs[x64]())
            best[x64] = min(best[x64], (time.perf_counter() - start) / args.steps)
    jax.config.update("jax_enable_x64", True)
    wide_on, wide_off = _wide_types(hlos[True]), _wide_types(hlos[False])
    rows = [["`Model.train` step, LeNet-5 batch 32", f"{best[True] * 1e3:.2f} ms (x64 on, the default)",
             f"{best[False] * 1e3:.2f} ms (x64 off)", f"{best[True] / best[False]:.3f}"],
            ["64-bit element types in the step's StableHLO", str(wide_on or "none"), str(wide_off or "none"), ""]]
    print(markdown_table(["benchmark", "MindJAX", "reference", "ratio"], rows))


if __name__ == "__main__":
    main()
