"""Training speed of the GPT and ResNet-18 examples: bf16 (O2), sink mode, steps/s and share of matmul peak.

Both networks are the examples' own (``examples/gpt``, ``examples/resnet``),
trained by ``Model.train`` with O2 mixed precision in bfloat16 and dataset
sink mode (``--sink-steps`` steps per XLA call). For each one row:

- steps/s and samples (or tokens)/s, from the steady epochs (the first,
  which compiles, is reported as compile time);
- FLOPs per step from XLA's ``cost_analysis()`` of the compiled single step;
- achieved TFLOP/s and, on an accelerator, the share of its matmul peak:
  ``--peak-tflops`` or, when omitted, a small table of dense bf16 peaks by
  device kind. On CPU the share is not meaningful and is left out.

Run: ``python -m benchmarks.gpt_resnet [--size small|large] [--peak-tflops T]``
(``large``, the default on GPU/TPU, is a GPT-2-small-sized model and a full-width
ResNet-18; ``small``, the default on CPU, keeps a CPU run to a minute or two).
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

__all__ = ["PEAK_BF16_TFLOPS", "SIZES", "main", "measure", "parse_args", "peak_tflops"]

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import jax  # noqa: E402
import numpy as np  # noqa: E402

import mindjax as ms  # noqa: E402
from mindjax import nn  # noqa: E402
from mindjax.train import Callback, Model  # noqa: E402
from mindjax.transforms.jit import compiled_for_cell  # noqa: E402
from benchmarks._timing import markdown_table  # noqa: E402

#: Dense bf16 matmul peaks (TFLOP/s) by a substring of ``device_kind`` (vendor data sheets, no sparsity).
PEAK_BF16_TFLOPS = {
    "H200": 989.0, "H100": 989.0, "GH200": 989.0, "A100": 312.0, "A10G": 125.0, "L40S": 362.0, "L4": 121.0,
    "RTX 4090": 165.0, "V100": 125.0, "TPU v4": 275.0, "TPU v5 lite": 197.0, "TPU v5e": 197.0,
    "TPU v5p": 459.0, "TPU v6": 918.0,
}

SIZES = {
    "small": {"gpt": {"layers": 2, "width": 128, "heads": 4, "context": 64, "batch": 16},
              "resnet": {"width": 0.25, "batch": 32, "image": 32}},
    "large": {"gpt": {"layers": 12, "width": 768, "heads": 12, "context": 512, "batch": 16},
              "resnet": {"width": 1.0, "batch": 256, "image": 32}},
}


def peak_tflops(device: Any, given: float | None) -> float | None:
    """The device's dense bf16 peak: ``given``, else looked up by device kind (None on CPU or unknown)."""
    if given:
        return given
    if device.platform == "cpu":
        return None
    kind = str(getattr(device, "device_kind", ""))
    for key in sorted(PEAK_BF16_TFLOPS, key=len, reverse=True):
        if key.lower() in kind.lower():
            return PEAK_BF16_TFLOPS[key]
    return None


class _EpochClock(Callback):
    """Wall time of each epoch, the device synchronised through the loss at each sink's end."""

    def __init__(self) -> None:
        super().__init__()
        self.seconds: list[float] = []
        self.losses: list[float] = []
        self._start = 0.0

    def on_train_epoch_begin(self, run_context: Any) -> None:
        self._start = time.perf_counter()

    def on_train_step_end(self, run_context: Any) -> None:
        self.losses.append(float(np.asarray(run_context.original_args().net_outputs)))

    def on_train_epoch_end(self, run_context: Any) -> None:
        self.seconds.append(time.perf_counter() - self._start)


def _gpt_workload(cfg: dict[str, int], steps: int) -> tuple[Model, Any, int, str]:
    from examples.gpt.data import VOCAB_SIZE, corpus_dataset
    from examples.gpt.gpt import GPT, GPTConfig, GPTWithLoss

    config = GPTConfig(vocab_size=VOCAB_SIZE, seq_length=cfg["context"], hidden_size=cfg["width"],
                       num_layers=cfg["layers"], num_heads=cfg["heads"])
    gpt = ms.amp.auto_mixed_precision(GPT(config), "O2", ms.bfloat16)
    network = GPTWithLoss(gpt)
    opt = nn.AdamWeightDecay(network.trainable_params(), learning_rate=1e-4, weight_decay=0.01)
    data = corpus_dataset(cfg["batch"], steps, cfg["context"], max_chars=10 ** 7)
    label = f"GPT {cfg['layers']}x{cfg['width']}, {cfg['heads']} heads, ctx {cfg['context']}, batch {cfg['batch']}"
    return Model(network, optimizer=opt), data, cfg["batch"] * cfg["context"], label


def _resnet_workload(cfg: dict[str, Any], steps: int) -> tuple[Model, Any, int, str]:
    from examples.resnet.train import build, parse_args

    args = parse_args(["--amp", "O2", "--amp-dtype", "bfloat16", "--width", str(cfg["width"]),
                       "--batch-size", str(cfg["batch"]), "--steps", str(steps),
                       "--image-size", str(cfg["image"])])
    run = build(args)
    label = f"ResNet-18 width {cfg['width']}, {cfg['image']}x{cfg['image']}, batch {cfg['batch']} (synthetic data)"
    return run["model"], run["train"], cfg["batch"], label


def measure(model: Model, data: Any, steps: int, epochs: int) -> dict[str, Any]:
    """Train ``epochs`` sinks of ``steps`` steps; steady steps/s, compile time and XLA FLOPs per step."""
    clock = _EpochClock()
    model.train(epochs, data, callbacks=[clock], dataset_sink_mode=True, sink_size=steps)
    steady = clock.seconds[1:]
    batch = tuple(next(iter(data.create_tuple_iterator(num_epochs=1, output_numpy=True))))
    # Lowering the single step for its cost analysis comes last: it runs the step once more.
    compiled = compiled_for_cell(model.train_network).lower(*batch).compile()
    cost = compiled.cost_analysis()
    cost = cost[0] if isinstance(cost, (list, tuple)) else cost
    return {"steps_per_s": steps * len(steady) / sum(steady), "compile_s": clock.seconds[0] - sum(steady) / len(steady),
            "flops": float((cost or {}).get("flops", 0.0)), "losses": clock.losses}


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """The command line."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", choices=sorted(SIZES), default=None,
                        help="default: large on an accelerator, small on CPU")
    parser.add_argument("--sink-steps", type=int, default=None, help="steps per sink (default 20 CPU, 50 GPU)")
    parser.add_argument("--epochs", type=int, default=4, help="sinks (the first compiles and is not timed)")
    parser.add_argument("--peak-tflops", type=float, default=None, help="matmul peak of one device")
    parser.add_argument("--only", choices=["gpt", "resnet"], default=None)
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> list[list[Any]]:
    """Run both workloads and print the markdown table; return its rows."""
    args = parse_args(argv)
    device = jax.devices()[0]
    accelerator = device.platform != "cpu"
    size = args.size or ("large" if accelerator else "small")
    steps = args.sink_steps or (50 if accelerator else 20)
    peak = peak_tflops(device, args.peak_tflops)
    ms.set_context(mode=ms.GRAPH_MODE)
    ms.set_seed(0)
    rows = []
    workloads = [("gpt", _gpt_workload, "tokens/s"), ("resnet", _resnet_workload, "images/s")]
    for name, build_workload, unit in workloads:
        if args.only and name != args.only:
            continue
        model, data, per_step, label = build_workload(SIZES[size][name], steps)
        result = measure(model, data, steps, max(args.epochs, 2))
        tflops = result["flops"] * result["steps_per_s"] / 1e12
        share = f"{100 * tflops / peak:.1f}%" if peak else "n/a (CPU)" if not accelerator else "n/a (unknown peak)"
        rows.append([label, "bf16 O2, sink", f"{result['steps_per_s']:.2f}",
                     f"{per_step * result['steps_per_s']:,.0f} {unit}", f"{result['flops'] / 1e9:.2f}",
                     f"{tflops:.3f}", share, f"{result['compile_s']:.1f}"])
        print(f"{label}: losses per sink {', '.join(f'{x:.3f}' for x in result['losses'])}", flush=True)
    kind = getattr(device, "device_kind", device.platform)
    print(f"\nMindJAX {ms.__version__}, jax {jax.__version__}, {jax.device_count()} x {kind}"
          + (f", peak {peak:.0f} TFLOP/s bf16" if peak else "") + f", {steps} steps per sink\n")
    print(markdown_table(["workload", "precision, mode", "steps/s", "throughput", "GFLOP/step (XLA)",
                          "TFLOP/s", "share of peak", "compile s"], rows))
    return rows


if __name__ == "__main__":
    main()
