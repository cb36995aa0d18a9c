"""The persistent compile cache: a first train step in a fresh process, with a cold and a warm cache.

``set_context(enable_compile_cache=True, compile_cache_path=DIR)`` (or the
environment variables ``MS_COMPILER_CACHE_ENABLE=1`` / ``MS_COMPILER_CACHE_PATH``)
turns on JAX's persistent compilation cache. For each workload, two fresh
Python processes run the same first GRAPH-mode ``TrainOneStepCell`` step
against one empty cache directory: the first compiles and fills the cache, the
second loads the executables from it. Each child reports the wall time of its
first step (trace, lowering, XLA compile or cache load, and the step itself,
waited for) and the cache hits JAX's monitoring events counted. The table gives
both times and their ratio.

Workloads: the GPT example (``examples/gpt``) and a small ResNet-style net
(the ResNet-18 example at quarter width, 32x32 images).

Run: ``python -m benchmarks.compile_cache [--only gpt|resnet] [--gpt-layers N]``
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

__all__ = ["main", "parse_args", "run_child", "first_step_seconds"]

_ROOT = Path(__file__).resolve().parents[1]
if __package__ in (None, ""):
    sys.path.insert(0, str(_ROOT))


def first_step_seconds(workload: str, gpt_layers: int) -> dict[str, Any]:
    """Build ``workload`` and time its first GRAPH-mode train step; the cache is set by the caller's env."""
    import jax
    import numpy as np

    import mindjax as ms
    from mindjax import nn

    hits: list[str] = []
    jax.monitoring.register_event_listener(
        lambda event, **_: hits.append(event) if event == "/jax/compilation_cache/cache_hits" else None)
    ms.set_context(mode=ms.GRAPH_MODE)
    ms.set_seed(0)
    rng = np.random.default_rng(0)
    if workload == "gpt":
        from examples.gpt.gpt import GPT, GPTConfig, GPTWithLoss

        config = GPTConfig(vocab_size=128, seq_length=64, hidden_size=128, num_layers=gpt_layers, num_heads=4)
        network = GPTWithLoss(GPT(config))
        opt = nn.AdamWeightDecay(network.trainable_params(), learning_rate=1e-4, weight_decay=0.01)
        tokens = rng.integers(0, 128, size=(8, 65)).astype(np.int32)
        inputs = (ms.Tensor(tokens[:, :-1]), ms.Tensor(tokens[:, 1:]))
        label = f"GPT example, {gpt_layers} layers x 128, ctx 64, batch 8"
    else:
        from examples.resnet.resnet import resnet18

        net = resnet18(class_num=10, width=0.25)
        loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
        network = nn.WithLossCell(net, loss)
        opt = nn.Momentum(network.trainable_params(), learning_rate=0.01, momentum=0.9)
        inputs = (ms.Tensor(rng.standard_normal((16, 3, 32, 32)).astype(np.float32)),
                  ms.Tensor(rng.integers(0, 10, size=(16,)).astype(np.int32)))
        label = "ResNet-18 at width 0.25, 32x32, batch 16"
    step = nn.TrainOneStepCell(network, opt)
    start = time.perf_counter()
    loss_value = float(np.asarray(step(*inputs)))
    seconds = time.perf_counter() - start
    return {"label": label, "seconds": seconds, "cache_hits": len(hits), "loss": loss_value}


def run_child(workload: str, cache_dir: str, gpt_layers: int) -> dict[str, Any]:
    """Run :func:`first_step_seconds` in a fresh Python process with the cache at ``cache_dir``."""
    env = dict(os.environ, MS_COMPILER_CACHE_ENABLE="1", MS_COMPILER_CACHE_PATH=cache_dir)
    env["PYTHONPATH"] = str(_ROOT) + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    code = ("import json, sys; from benchmarks.compile_cache import first_step_seconds; "
            f"print('RESULT ' + json.dumps(first_step_seconds({workload!r}, {gpt_layers})))")
    done = subprocess.run([sys.executable, "-c", code], cwd=_ROOT, env=env, capture_output=True, text=True,
                          check=False)
    lines = [line for line in done.stdout.splitlines() if line.startswith("RESULT ")]
    if done.returncode or not lines:
        raise RuntimeError(f"compile_cache child for {workload!r} failed ({done.returncode}):\n{done.stderr[-3000:]}")
    return json.loads(lines[-1][len("RESULT "):])


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """The command line."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", choices=["gpt", "resnet"], default=None)
    parser.add_argument("--gpt-layers", type=int, default=4, help="transformer blocks of the GPT")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> list[list[Any]]:
    """Run each workload in a cold-cache and a warm-cache process; print the markdown table; return its rows."""
    import jax

    from benchmarks._timing import markdown_table

    args = parse_args(argv)
    rows = []
    for workload in ("gpt", "resnet"):
        if args.only and workload != args.only:
            continue
        with tempfile.TemporaryDirectory(prefix="mindjax-compile-cache-") as cache_dir:
            cold = run_child(workload, cache_dir, args.gpt_layers)
            warm = run_child(workload, cache_dir, args.gpt_layers)
            files = sum(len(names) for _, _, names in os.walk(cache_dir))
        if abs(cold["loss"] - warm["loss"]) > 1e-5 * max(1.0, abs(cold["loss"])):
            raise RuntimeError(f"{workload}: the warm-cache step gave loss {warm['loss']}, the cold one {cold['loss']}")
        rows.append([cold["label"], f"{cold['seconds']:.2f}", f"{warm['seconds']:.2f}",
                     f"{cold['seconds'] / warm['seconds']:.1f}x", f"{cold['cache_hits']} / {warm['cache_hits']}",
                     str(files)])
    print(f"\njax {jax.__version__}, {jax.devices()[0].platform}, {os.cpu_count()} cores, "
          f"load average {os.getloadavg()[0]:.1f} at the end\n")
    print(markdown_table(["workload (first GRAPH train step)", "1st process s", "2nd process s", "speed-up",
                          "cache hits 1st / 2nd", "cache files"], rows))
    return rows


if __name__ == "__main__":
    main()
