"""AUTO_PARALLEL in every compiled call: bytes moved per step, read from the compiled HLO.

On 8 virtual CPU devices, the MLP 512-2048-512 at batch 8 under
``AUTO_PARALLEL`` with ``search_mode="recursive_programming"``, trained three
ways in one run:

* ``TrainOneStepCell`` called directly in GRAPH mode (MindSpore's parallel tutorials' loop);
* ``Model.train``;
* an ``ms.jit`` step calling ``value_and_grad`` and the optimizer;

and, for reference, the direct ``TrainOneStepCell`` under ``DATA_PARALLEL``
(what the direct call got before every compiled call was planned: one
all-reduce of the whole gradient). Each row: the collectives of one compiled
step and the bytes they move, the weights' layouts, and the first losses.

Run: ``python -m benchmarks.parallel_every_call [--d 512] [--batch 8]``
"""
from __future__ import annotations

import argparse
import os
import time

os.environ.setdefault("XLA_FLAGS", "--xla_force_host_platform_device_count=8")
os.environ.setdefault("JAX_PLATFORMS", "cpu")

from typing import Any  # noqa: E402

import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402

import mindjax as ms  # noqa: E402
from mindjax import nn  # noqa: E402
from mindjax.parallel.auto import collective_stats, get_strategy  # noqa: E402
from mindjax.transforms.jit import compiled_for_cell  # noqa: E402
from benchmarks.parallel_auto import MLP  # noqa: E402


def _context(mode: str) -> None:
    ms.reset_auto_parallel_context()
    ms.set_seed(0)
    if mode == "auto":
        ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.AUTO_PARALLEL,
                                     search_mode="recursive_programming")
    else:
        ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.DATA_PARALLEL, gradients_mean=True)


def _row(name: str, hlo: str, layouts: dict[str, str], losses: list[float], seconds: float) -> dict[str, Any]:
    stats = collective_stats(hlo)
    kinds = ", ".join(f"{k} {v['count']}" for k, v in stats.items() if k != "total" and v["count"])
    return {"run": name, "collectives": stats["total"]["count"], "kinds": kinds or "-",
            "bytes": stats["total"]["bytes"], "fc1.weight": layouts.get("fc1.weight", "-"),
            "fc2.weight": layouts.get("fc2.weight", "-"), "losses": losses, "seconds": seconds}


def _layouts(params: Any) -> dict[str, str]:
    out = {}
    for p in params:
        sharding = jnp.asarray(p).sharding
        out[p.name] = str(getattr(sharding, "spec", "single device"))
    return out


def direct_step(mode: str, d: int, data: list[tuple[np.ndarray, np.ndarray]]) -> dict[str, Any]:
    """A TrainOneStepCell called directly in GRAPH mode."""
    ms.set_context(mode=ms.GRAPH_MODE)
    _context(mode)
    net = MLP(d)
    step = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), nn.Momentum(net.trainable_params(), 0.05, 0.9))
    start = time.perf_counter()
    losses = [float(step(ms.Tensor(x), ms.Tensor(y))) for x, y in data]
    seconds = time.perf_counter() - start
    hlo = compiled_for_cell(step).lower(*data[0]).compile().as_text()
    return _row(f"TrainOneStepCell direct, {mode}", hlo, _layouts(net.trainable_params()), losses, seconds)


def model_train(d: int, data: list[tuple[np.ndarray, np.ndarray]]) -> dict[str, Any]:
    """``Model.train`` on the same batches."""
    ms.set_context(mode=ms.GRAPH_MODE)
    _context("auto")
    net = MLP(d)
    model = ms.Model(net, nn.MSELoss(), nn.Momentum(net.trainable_params(), 0.05, 0.9))
    losses: list[float] = []

    class Record(ms.train.callback.Callback):
        def on_train_step_end(self, run_context: Any) -> None:
            losses.append(float(np.asarray(run_context.original_args().net_outputs)))

    start = time.perf_counter()
    model.train(1, data, callbacks=[Record()])
    seconds = time.perf_counter() - start
    hlo = model._train_program().compile(tuple(jnp.asarray(a) for a in data[0])).as_text()
    get_strategy(model.train_network)
    return _row("Model.train, auto", hlo, _layouts(net.trainable_params()), losses, seconds)


def jit_step(d: int, data: list[tuple[np.ndarray, np.ndarray]]) -> dict[str, Any]:
    """An ``ms.jit`` training step written as MindSpore's functional tutorials write it."""
    ms.set_context(mode=ms.PYNATIVE_MODE)
    _context("auto")
    net = MLP(d)
    loss_fn = nn.MSELoss()
    opt = nn.Momentum(net.trainable_params(), 0.05, 0.9)
    grad_fn = ms.value_and_grad(lambda x, y: loss_fn(net(x), y), None, opt.parameters)

    @ms.jit
    def train_step(x: Any, y: Any) -> Any:
        loss, grads = grad_fn(x, y)
        opt(grads)
        return loss

    start = time.perf_counter()
    losses = [float(train_step(ms.Tensor(x), ms.Tensor(y))) for x, y in data]
    seconds = time.perf_counter() - start
    hlo = train_step._compiled.lower(ms.Tensor(data[0][0]), ms.Tensor(data[0][1])).compile().as_text()
    return _row("ms.jit step, auto", hlo, _layouts(net.trainable_params()), losses, seconds)


def main() -> None:
    """Print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--d", type=int, default=512, help="MLP width (d -> 4d -> d)")
    parser.add_argument("--batch", type=int, default=8)
    parser.add_argument("--steps", type=int, default=3)
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    data = [(rng.normal(size=(args.batch, args.d)).astype(np.float32),
             rng.normal(size=(args.batch, args.d)).astype(np.float32)) for _ in range(args.steps)]
    rows = [direct_step("data_parallel", args.d, data), direct_step("auto", args.d, data),
            model_train(args.d, data), jit_step(args.d, data)]
    print(f"MLP {args.d}-{4 * args.d}-{args.d}, batch {args.batch}, 8 devices; per compiled step:\n")
    print("| run | collectives | kinds | bytes moved / step | fc1.weight | fc2.weight | first losses | "
          "s (incl. search + compile) |")
    print("|---|---|---|---|---|---|---|---|")
    for r in rows:
        losses = ", ".join(f"{v:.6f}" for v in r["losses"][:3])
        print(f"| {r['run']} | {r['collectives']} | {r['kinds']} | {r['bytes'] / 1e3:.1f} KB | {r['fc1.weight']} | "
              f"{r['fc2.weight']} | {losses} | {r['seconds']:.1f} |")


if __name__ == "__main__":
    main()
